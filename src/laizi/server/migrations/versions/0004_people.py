"""People: identities without e-mail (persons, their devices' secret hashes, device
links) and the person of each room member (``members.person_id``, NULL for a guest and
for every member stored before).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "persons",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("recovery", sa.String(64), nullable=True, unique=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "person_devices",
        sa.Column("secret_hash", sa.String(64), primary_key=True),
        sa.Column("person", sa.String(32), sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("used", sa.Float, nullable=False),
    )
    op.create_index("ix_person_devices_person", "person_devices", ["person"])
    op.create_table(
        "person_links",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("person", sa.String(32), sa.ForeignKey("persons.id"), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_person_links_person", "person_links", ["person"])
    # A nullable column without a constraint: SQLite adds it in place (no table copy).
    op.add_column("members", sa.Column("person_id", sa.String(32), nullable=True))
    op.create_index("ix_members_person_id", "members", ["person_id"])


def downgrade() -> None:
    op.drop_index("ix_members_person_id", "members")
    with op.batch_alter_table("members") as batch:
        batch.drop_column("person_id")
    op.drop_index("ix_person_links_person", "person_links")
    op.drop_table("person_links")
    op.drop_index("ix_person_devices_person", "person_devices")
    op.drop_table("person_devices")
    op.drop_table("persons")
