"""Bans: names and addresses the hall's operator refuses (the admin page).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bans",
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("value", sa.String(128), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bans")
