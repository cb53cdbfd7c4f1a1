"""The hall's first schema: rooms, members, log lines, hands.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "members",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_members_room", "members", ["room"])
    op.create_index("ix_members_name", "members", ["name"])
    op.create_table(
        "log_lines",
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("line", sa.Text, nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("end", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hands")
    op.drop_table("log_lines")
    op.drop_index("ix_members_name", "members")
    op.drop_index("ix_members_room", "members")
    op.drop_table("members")
    op.drop_table("rooms")
