"""``laizi import-botzone``: Botzone "Chinese Standard Mahjong" match logs as laizi table
logs (docs/datasets.md).

Each match (a JSON file holding one match log, or JSON lines of them, as ``laizi export
mcr --format botzone`` writes) is played again at an MCR table whose first line gives the
match's wall; every decision is read from the players' responses. The table log written
for it is one ``laizi verify`` accepts, and the hall's replay shows.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from laizi.commands import Subparsers

__all__ = ["read_matches", "register", "run"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "import-botzone", help="read Botzone match logs (MCR) into table logs",
        description="Read Botzone Chinese Standard Mahjong match logs (JSON, or JSON "
                    "lines of them; a directory: every file in it) and write one laizi "
                    "table log per match into DIR (match-N.jsonl), each checked as "
                    "`laizi verify` checks it.")
    p.add_argument("logs", nargs="+", metavar="LOG", help="Botzone match logs")
    p.add_argument("-o", "--output", default=".", metavar="DIR",
                   help="directory for the table logs (default: the current one)")
    p.set_defaults(func=run)


def read_matches(text: str) -> list[dict[str, object]]:
    """The match logs of a file: one JSON object (or a list of them), or JSON lines."""
    stripped = text.strip()
    try:
        data = json.loads(stripped)
    except ValueError:
        data = [json.loads(line) for line in stripped.splitlines() if line.strip()]
    items = data if isinstance(data, list) else [data]
    if not all(isinstance(m, dict) for m in items):
        raise ValueError("a match log is a JSON object")
    return items


def run(args: argparse.Namespace) -> int:
    from laizi.commands.export import log_files
    from laizi.datasets.botzone_log import import_match
    from laizi.errors import LaiziError

    out = Path(args.output)
    if not out.is_dir():
        print(f"laizi import-botzone: no directory {args.output!r}", file=sys.stderr)
        return 2
    count = 0
    try:
        for path in log_files(args.logs):
            for i, match in enumerate(read_matches(path.read_text("utf-8"))):
                try:
                    table = import_match(match)
                except LaiziError as exc:
                    print(f"laizi import-botzone: REJECTED {path} match {i}: {exc.message}",
                          file=sys.stderr)
                    return 1
                target = out / f"match-{count}.jsonl"
                target.write_text(table.dumps(), encoding="utf-8")
                count += 1
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"laizi import-botzone: {exc}", file=sys.stderr)
        return 2
    print(f"laizi import-botzone: {count} table log(s) written to {args.output}",
          file=sys.stderr)
    return 0
