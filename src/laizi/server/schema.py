"""Bringing the hall's database to the newest schema: Alembic's migrations
(``laizi/server/migrations``), or nothing, or the tables made at once.

Every ``laizi serve`` starts here, and most starts find the schema as they left it, or no
tables at all (a new hall, every test's hall). Alembic is loaded and run only when there
is something to migrate:

* **current** — the database says it is at :data:`HEAD`: nothing is done;
* **empty** — no table at all, and the models hold every table of :data:`HEAD`
  (:data:`TABLES`: the hall imports every module with tables before it starts): the
  tables are made from the models and the database is marked as at :data:`HEAD`, as
  Alembic's own recipe does ("building an up-to-date database from scratch").
  ``tests/test_schema.py`` holds the tables made so to the migrated ones;
* otherwise Alembic migrates, from whatever revision the database is at.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Column, MetaData, String, Table, inspect, select
from sqlalchemy.engine import Connection

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = ["HEAD", "TABLES", "alembic_config", "bring_up_to_date"]

HEAD = "0007_score_club"
"""The newest migration's revision (``tests/test_schema.py`` checks it is Alembic's
head)."""

TABLES = frozenset({
    "rooms", "members", "log_lines", "hands",  # storage
    "score_sessions", "score_hands", "score_members",  # scorekeeper, score_sessions
    "bans",  # bans
    "persons", "person_devices", "person_links",  # people
    "clubs", "club_members", "club_requests", "club_rooms", "club_ledger"})  # clubs
"""The tables the migrations up to :data:`HEAD` make (``tests/test_schema.py``)."""

_VERSIONS = Table("alembic_version", MetaData(),
                  Column("version_num", String(32), primary_key=True))
"""Alembic's record of the database's revision (its own table, as Alembic makes it)."""


def bring_up_to_date(conn: Connection, models: MetaData) -> str:
    """Bring the database of ``conn`` (inside a transaction) to :data:`HEAD`; what was
    done: ``"current"``, ``"created"`` or ``"migrated"`` (the module's docstring)."""
    tables = set(inspect(conn).get_table_names())
    if _VERSIONS.name in tables and \
            conn.execute(select(_VERSIONS.c.version_num)).scalars().all() == [HEAD]:
        return "current"
    if not tables and set(models.tables) == TABLES:
        models.create_all(conn)
        _VERSIONS.create(conn)
        conn.execute(_VERSIONS.insert().values(version_num=HEAD))
        return "created"
    _migrate(conn)
    return "migrated"


def _migrate(conn: Connection, to: str = "head") -> None:
    """Alembic's upgrade of ``conn`` to revision ``to``."""
    from alembic import command  # loaded only when there is something to migrate

    command.upgrade(alembic_config(conn), to)


def alembic_config(conn: Connection | None = None) -> Config:
    """Alembic's configuration of the hall's migrations, run on ``conn`` if given."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    if conn is not None:
        cfg.attributes["connection"] = conn
    return cfg
