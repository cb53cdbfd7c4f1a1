"""``laizi restore FILE``: bring back a ``laizi backup`` into a fresh database.

The database is migrated to the newest schema first, must hold no rows yet, and gets
the whole backup in one transaction or nothing (a file cut short, an unknown table or a
row count that does not match the backup's last line is refused):
:func:`laizi.commands.backup.load`. Stop the hall while restoring; start it afterwards
and the finished matches are served (their logs, ``laizi verify``) as before.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from laizi.commands import Subparsers

__all__ = ["register", "run"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "restore", help="restore a `laizi backup` file into a fresh database",
        description="Restore FILE (written by `laizi backup`) into the database --db "
                    "(migrated first; it must hold no rows): all of it in one transaction, "
                    "or nothing.")
    p.add_argument("file", metavar="FILE", help="the backup to read (- for stdin)")
    p.add_argument("--db", default=None,
                   help="SQLAlchemy URL of the database (default: LAIZI_DB, else "
                        "sqlite+aiosqlite:///./laizi-hall.db)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from laizi.commands.backup import db_url, load

    url = db_url(args.db)
    try:
        if args.file == "-":
            rows = asyncio.run(load(url, sys.stdin))
        else:
            with Path(args.file).open(encoding="utf-8") as lines:
                rows = asyncio.run(load(url, lines))
    except ImportError as exc:
        print(f"laizi restore needs the server extra (pip install 'laizi[server]'): {exc}",
              file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"laizi restore: nothing restored: {exc}", file=sys.stderr)
        return 1
    print(f"laizi restore: {rows} rows into {url}", file=sys.stderr)
    return 0
