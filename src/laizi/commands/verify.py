"""``laizi verify LOG``: check a table log — its secret, every deal, every action.

A closed table's log reveals its secret on its last line. ``verify`` checks that the
secret opens the commitment written on the first line (before any deal), then rebuilds
the whole table from the log (:meth:`laizi.table.Table.from_log`): every hand's wall must
be the one the secret (and the people's entropy) gives, every action must have been legal,
and every settlement, ledger and seating the log states must follow. Any difference is
named with its line and hand, and the command exits with status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from laizi.commands import Subparsers
from laizi.errors import LaiziError
from laizi.table.table import Table
from laizi.vocab import TableEventType

__all__ = ["register", "run", "verify_text"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "verify", help="check a table log: the secret, every deal and every action",
        description="Check a closed table's log (written by `laizi play --save LOG` or the "
                    "hall): the revealed secret opens the commitment made before the first "
                    "deal, every deal follows from it, and every action and settlement "
                    "replays exactly. LOG is a file of JSON lines, or - for stdin.")
    p.add_argument("log", metavar="LOG", help="table log (JSON lines), or - for stdin")
    p.set_defaults(func=run)


def verify_text(text: str) -> str:
    """The one-line verdict on a log; raises :class:`~laizi.errors.LaiziError` if it
    does not verify."""
    from laizi.errors import LogError

    lines = [line for line in text.splitlines() if line.strip()]
    table = Table.from_log(lines)
    if not table.closed:
        raise LogError("the table is not closed: its secret is not revealed yet, so its "
                       "deals cannot be checked")
    hands = sum(1 for e in table.log if e["type"] == TableEventType.HAND_END)
    kind = "a public seed (predictable deals, for simulation)" if table.seed is not None \
        else "the revealed secret, which opens the commitment"
    if table.walls is not None:
        kind = "the walls its first line gives (an imported match)"
    return (f"ok: {table.variant.id}, {hands} hand(s), {len(table.log)} lines; every deal "
            f"follows from {kind}; every action and settlement replays exactly")


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.log == "-" else Path(args.log).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"laizi verify: cannot read {args.log}: {exc}", file=sys.stderr)
        return 2
    try:
        print(verify_text(text))
    except LaiziError as exc:
        print(f"laizi verify: REJECTED: {exc.message}", file=sys.stderr)
        return 1
    return 0
