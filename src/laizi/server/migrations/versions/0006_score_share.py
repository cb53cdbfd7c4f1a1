"""The score-keeper on every phone: a session's join secret, its version (every hand
entered or taken back moves it: the phones' live ledger and the conflict check), the club
it may name, its members (the people who joined by its link) and who entered each hand.

A session stored before has no secret and no members: the first phone that joins it
with an identity claims it (it held the session's id alone, as before) and gets a secret.

Revision ID: 0006
Revises: 0005_clubs
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005_clubs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable (or defaulted) columns without a constraint: SQLite adds them in place.
    op.add_column("score_sessions", sa.Column("secret", sa.String(32), nullable=True))
    op.add_column("score_sessions", sa.Column("version", sa.Integer, nullable=False,
                                              server_default="0"))
    op.add_column("score_sessions", sa.Column("club", sa.String(32), nullable=True))
    op.add_column("score_hands", sa.Column("person", sa.String(32), nullable=True))
    op.create_table(
        "score_members",
        sa.Column("session", sa.String(32), sa.ForeignKey("score_sessions.id"),
                  primary_key=True),
        sa.Column("person", sa.String(32), sa.ForeignKey("persons.id"), primary_key=True),
        sa.Column("joined", sa.Float, nullable=False),
    )
    op.create_index("ix_score_members_person", "score_members", ["person"])


def downgrade() -> None:
    op.drop_index("ix_score_members_person", "score_members")
    op.drop_table("score_members")
    with op.batch_alter_table("score_hands") as batch:
        batch.drop_column("person")
    with op.batch_alter_table("score_sessions") as batch:
        batch.drop_column("club")
        batch.drop_column("version")
        batch.drop_column("secret")
