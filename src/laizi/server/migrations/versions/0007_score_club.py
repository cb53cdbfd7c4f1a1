"""A score-keeping session of a club is closed into the club's ledger (结束并记入账本):
the session's ``closed`` time (NULL while it is open) and ``persons`` (its names →
club members, given at the close), and the ledger's ``room`` wide
enough for a session's ``score:<session id>``.

Revision ID: 0007_score_club
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_score_club"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("score_sessions", sa.Column("closed", sa.Float, nullable=True))
    op.add_column("score_sessions", sa.Column("persons", sa.Text, nullable=True))
    # SQLite keeps any length in a VARCHAR; PostgreSQL enforces it (batch: SQLite
    # copies the table, PostgreSQL alters the column in place)
    with op.batch_alter_table("club_ledger") as batch:
        batch.alter_column("room", type_=sa.String(48), existing_type=sa.String(16),
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("club_ledger") as batch:
        batch.alter_column("room", type_=sa.String(16), existing_type=sa.String(48),
                           existing_nullable=False)
    with op.batch_alter_table("score_sessions") as batch:
        batch.drop_column("persons")
        batch.drop_column("closed")
