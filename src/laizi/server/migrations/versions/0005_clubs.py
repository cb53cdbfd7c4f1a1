"""Clubs (亲友圈): clubs, their members and join requests, their member-only rooms and
their hash-chained points ledger (docs/clubs.md).

Revision ID: 0005_clubs
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_clubs"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("invite", sa.String(32), nullable=False, unique=True),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("person", sa.String(32), sa.ForeignKey("persons.id"), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
    )
    op.create_index("ix_club_members_person", "club_members", ["person"])
    op.create_table(
        "club_requests",
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("person", sa.String(32), sa.ForeignKey("persons.id"), primary_key=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "club_rooms",
        sa.Column("room", sa.String(16), sa.ForeignKey("rooms.code"), primary_key=True),
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_club_rooms_club", "club_rooms", ["club"])
    op.create_table(
        "club_ledger",
        sa.Column("club", sa.String(32), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("time", sa.Integer, nullable=False),
        sa.Column("evening", sa.String(10), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("net", sa.Text, nullable=False),
        sa.Column("persons", sa.Text, nullable=False),
        sa.Column("log_hash", sa.String(64), nullable=False),
        sa.Column("prev", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("club", "room", "hand"),
    )


def downgrade() -> None:
    op.drop_table("club_ledger")
    op.drop_index("ix_club_rooms_club", "club_rooms")
    op.drop_table("club_rooms")
    op.drop_table("club_requests")
    op.drop_index("ix_club_members_person", "club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
