"""``laizi backup FILE``: every stored row of the hall, as portable JSON lines.

The dump goes through the hall's SQLAlchemy models (``laizi.server.storage`` and the
score-keeper's tables), not a database's own tool, so a backup of SQLite restores into
PostgreSQL and back (``laizi restore FILE``, :mod:`laizi.commands.restore`). It is read
in one transaction (a consistent snapshot: PostgreSQL ``REPEATABLE READ``, SQLite's own
read transaction) while the hall may keep running; rows stream to the file, never all in
memory.

The file: a first line ``{"laizi_backup": 1, "tables": [...]}``, then one line a row,
``{"t": TABLE, "r": {column: value}}``, tables in the order their foreign keys need
(rooms before their members, log lines and hands), then ``{"end": ROWS}``: a file cut
short is refused by the restore.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

from laizi.commands import Subparsers
from laizi.core.jsondata import JSON

if TYPE_CHECKING:
    from sqlalchemy import Table

__all__ = ["FORMAT", "dump", "load", "register", "run"]

FORMAT = 1
_BATCH = 500


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "backup", help="write the hall's stored rooms and logs to a file (JSON lines)",
        description="Write every stored row of the hall (rooms, members, table logs, "
                    "hands, score-keeper sessions) to FILE as JSON lines, read in one "
                    "transaction; `laizi restore FILE` brings them back (docs/deploy.md).")
    p.add_argument("file", metavar="FILE", help="the backup to write (- for stdout)")
    p.add_argument("--db", default=None,
                   help="SQLAlchemy URL of the hall's database (default: LAIZI_DB, else "
                        "sqlite+aiosqlite:///./laizi-hall.db)")
    p.set_defaults(func=run)


def db_url(given: str | None) -> str:
    """``--db``, else ``LAIZI_DB`` (the hall's own variable), else the default file."""
    import os

    from laizi.server.storage import default_url

    return given or os.environ.get("LAIZI_DB") or default_url("laizi-hall.db")


def _tables() -> list[Table]:
    from laizi.server import admin, clubs, people, scorekeeper  # noqa: F401  (tables)
    from laizi.server.storage import Base

    return list(Base.metadata.sorted_tables)


async def dump(url: str, out: IO[str]) -> int:
    """Write the backup of the database at ``url`` to ``out``; the number of rows."""
    from sqlalchemy import select
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:") \
            and not Path(parsed.database).exists():
        raise FileNotFoundError(f"no database file {parsed.database}")  # never made one
    tables = _tables()
    engine = create_async_engine(url)
    rows = 0
    try:
        async with engine.connect() as conn:
            if engine.dialect.name == "postgresql":
                conn = await conn.execution_options(isolation_level="REPEATABLE READ")
            async with conn.begin():
                out.write(json.dumps({"laizi_backup": FORMAT,
                                      "tables": [t.name for t in tables]}) + "\n")
                for table in tables:
                    keys = list(table.primary_key.columns)
                    result = await conn.stream(select(table).order_by(*keys))
                    async for row in result:
                        out.write(json.dumps({"t": table.name, "r": dict(row._mapping)},
                                             ensure_ascii=False) + "\n")
                        rows += 1
        out.write(json.dumps({"end": rows}) + "\n")
    finally:
        await engine.dispose()
    return rows


async def load(url: str, lines: IO[str]) -> int:
    """Restore a backup into the database at ``url`` (migrated first; it must hold no
    rooms yet); the number of rows. Nothing is written unless the whole file reads."""
    from sqlalchemy import func, insert, select

    from laizi.errors import LaiziError
    from laizi.server.storage import Store

    tables = {t.name: t for t in _tables()}
    head = json.loads(lines.readline() or "{}")
    if not isinstance(head, dict) or head.get("laizi_backup") != FORMAT:
        raise LaiziError("not a laizi backup (its first line names the format)")
    store = Store(url)
    rows = 0
    try:
        await store.setup()
        async with store.engine.begin() as conn:
            for table in tables.values():
                if (await conn.execute(select(func.count()).select_from(table))).scalar():
                    raise LaiziError(f"the database already holds rows in {table.name}: "
                                     "restore into a fresh one")
            batch: list[JSON] = []
            name: str | None = None
            ended = False
            for text in lines:
                item = json.loads(text)
                if "end" in item:
                    if item["end"] != rows + len(batch):
                        raise LaiziError(f"the backup says {item['end']} rows, it holds "
                                         f"{rows + len(batch)}")
                    ended = True
                    break
                if item["t"] not in tables:
                    raise LaiziError(f"unknown table {item['t']!r} in the backup")
                if item["t"] != name or len(batch) >= _BATCH:
                    if batch and name is not None:
                        await conn.execute(insert(tables[name]), batch)
                        rows += len(batch)
                    batch, name = [], item["t"]
                batch.append(item["r"])
            if not ended:
                raise LaiziError("the backup is cut short (no end line): nothing restored")
            if batch and name is not None:
                await conn.execute(insert(tables[name]), batch)
                rows += len(batch)
    finally:
        await store.close()
    return rows


def run(args: argparse.Namespace) -> int:
    import asyncio

    url = db_url(args.db)
    try:
        if args.file == "-":
            rows = asyncio.run(dump(url, sys.stdout))
        else:
            path = Path(args.file)
            part = path.with_name(path.name + ".part")
            try:
                with part.open("w", encoding="utf-8") as out:
                    rows = asyncio.run(dump(url, out))
            except BaseException:
                part.unlink(missing_ok=True)
                raise
            part.replace(path)  # a finished backup only: never half a file under its name
    except ImportError as exc:
        print(f"laizi backup needs the server extra (pip install 'laizi[server]'): {exc}",
              file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"laizi backup: {exc}", file=sys.stderr)
        return 1
    print(f"laizi backup: {rows} rows from {url} to {args.file}", file=sys.stderr)
    return 0
