"""``laizi serve``: run the hall (extra ``server``) and print its URL.

``--db`` is a SQLAlchemy async URL: a SQLite file by default (``laizi-hall.db`` in the
current directory, nothing to install), or ``postgresql+asyncpg://user@host/db``. The
schema is migrated with Alembic on start; rooms in progress resume where they were.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve", help="run the hall: rooms, bots and play over websockets",
        description="Run the hall (play online with friends and bots). Prints the URL to "
                    "open; see docs/hall.md.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    p.add_argument("--db", default=None,
                   help="SQLAlchemy URL (default: sqlite+aiosqlite:///./laizi-hall.db)")
    p.add_argument("--bot-processes", type=int, default=None,
                   help="processes for search bots (default: up to 2)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from laizi.server.app import create_app
        from laizi.server.storage import default_url
    except ImportError as exc:
        print(f"laizi serve needs the server extra (pip install 'laizi[server]'): {exc}",
              file=sys.stderr)
        return 2
    url = args.db or default_url("laizi-hall.db")
    app = create_app(url, bot_processes=args.bot_processes)
    config = uvicorn.Config(app, host=args.host, port=args.port, ws="websockets-sansio",
                            ws_per_message_deflate=False,
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    print(f"laizi hall: http://{shown}:{args.port}/  (database {url})", flush=True)
    server.run()
    return 0
