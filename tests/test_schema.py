"""The hall's schema at start (laizi.server.schema), on SQLite and on PostgreSQL: an empty
database gets from the models exactly the tables, columns, keys and indexes that Alembic's
migrations make; a current one is left alone; an older one, or models that lack a table,
go through Alembic."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from laizi.server import admin, bans, clubs, people, score_sessions, scorekeeper  # noqa: F401
from laizi.server.schema import HEAD, TABLES, _migrate, alembic_config, bring_up_to_date
from laizi.server.storage import Base
from server_helpers import BACKENDS, fresh_pg, sqlite_url

T = TypeVar("T")


@pytest.fixture(params=BACKENDS)
def empty(request: pytest.FixtureRequest, tmp_path: Path
          ) -> Callable[[str], contextlib.AbstractContextManager[str]]:
    """Makes empty databases of the test's back-end (each a context: a new SQLite file,
    or a new PostgreSQL database dropped afterwards)."""

    @contextlib.contextmanager
    def make(name: str) -> Iterator[str]:
        if request.param == "postgresql":
            with fresh_pg("schema tests") as url:
                yield url
        else:
            yield sqlite_url(tmp_path / f"{name}.db")

    return make


def on(url: str, work: Callable[..., T], *args: Any) -> T:
    """``work(connection, *args)`` in one transaction of the database at ``url``."""

    async def go() -> T:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(work, *args)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def shape(conn: Connection) -> dict[str, Any]:
    """The schema as the database describes it: each table's columns (name, type,
    nullable, server default), primary key, foreign keys, indexes and unique constraints
    by their columns (names apart: Alembic's batch mode and ``create_all`` name some
    differently), and the revision Alembic would read."""
    found = inspect(conn)
    out: dict[str, Any] = {}
    for t in sorted(found.get_table_names()):
        out[t] = {
            "columns": sorted((c["name"], str(c["type"]), c["nullable"], str(c.get("default")))
                              for c in found.get_columns(t)),
            "pk": sorted(found.get_pk_constraint(t)["constrained_columns"]),
            "fks": sorted((tuple(f["constrained_columns"]), f["referred_table"],
                           tuple(f["referred_columns"])) for f in found.get_foreign_keys(t)),
            "indexes": sorted((tuple(str(c) for c in i["column_names"]), bool(i["unique"]))
                              for i in found.get_indexes(t)),
            "uniques": sorted(tuple(u["column_names"])
                              for u in found.get_unique_constraints(t)),
        }
    out["revision"] = conn.execute(text("SELECT version_num FROM alembic_version")).scalars(
    ).all()
    return out


def test_head_is_the_newest_migration() -> None:
    from alembic.script import ScriptDirectory

    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD


def test_an_empty_database_gets_the_tables_the_migrations_make(
        empty: Callable[[str], contextlib.AbstractContextManager[str]]) -> None:
    with empty("created") as created, empty("migrated") as migrated:
        assert on(created, bring_up_to_date, Base.metadata) == "created"
        on(migrated, _migrate)  # Alembic, from nothing
        made, wanted = on(created, shape), on(migrated, shape)
        assert set(wanted) - {"alembic_version", "revision"} == TABLES
        assert made == wanted
        assert wanted["revision"] == [HEAD]


def test_a_current_database_is_left_alone_and_alembic_agrees(
        empty: Callable[[str], contextlib.AbstractContextManager[str]]) -> None:
    with empty("hall") as url:
        assert on(url, bring_up_to_date, Base.metadata) == "created"
        before = on(url, shape)
        assert on(url, bring_up_to_date, Base.metadata) == "current"
        on(url, _migrate)  # Alembic finds nothing to do either
        assert on(url, shape) == before


def test_an_older_database_is_migrated(
        empty: Callable[[str], contextlib.AbstractContextManager[str]]) -> None:
    with empty("old") as url, empty("new") as fresh:
        on(url, _migrate, "0006")
        assert on(url, bring_up_to_date, Base.metadata) == "migrated"
        assert on(fresh, bring_up_to_date, Base.metadata) == "created"
        assert on(url, shape) == on(fresh, shape)


def test_models_without_every_table_leave_an_empty_database_to_alembic(
        empty: Callable[[str], contextlib.AbstractContextManager[str]]) -> None:
    some = MetaData()
    for name in ("rooms", "members"):
        Base.metadata.tables[name].to_metadata(some)
    with empty("hall") as url:
        assert on(url, bring_up_to_date, some) == "migrated"
        assert set(on(url, shape)) - {"alembic_version", "revision"} == TABLES
