"""``laizi verify-ledger LEDGER LOG…``: check a club's exported ledger (亲友圈账本)
against the match logs it names (docs/clubs.md).

Every log is checked first as ``laizi verify`` checks it (the secret opens the
commitment, every deal, action and settlement replays). Then the ledger: its hash chain
(each entry's ``hash`` of its fields, each ``prev`` the entry before's), every hand's
net summing to zero, and every entry against the hand its ``log_hash`` names in those
logs: the same hand number and the same net. The first difference is named and the
command exits with status 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from laizi.commands import Subparsers
from laizi.errors import LaiziError

__all__ = ["register", "run", "verify_ledger_text"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "verify-ledger", help="check a club's exported ledger against its match logs",
        description="Check a club ledger exported as CSV (GET /api/clubs/ID/ledger.csv) "
                    "against the closed match logs of its rooms (GET /api/rooms/CODE/log): "
                    "every log verifies, the hash chain holds, every hand sums to zero "
                    "and every entry is the hand its log_hash names.")
    p.add_argument("ledger", metavar="LEDGER", help="the exported ledger (CSV)")
    p.add_argument("logs", metavar="LOG", nargs="+", help="the rooms' table logs (JSON lines)")
    p.set_defaults(func=run)


def verify_ledger_text(ledger: str, logs: list[str]) -> str:
    """The one-line verdict; raises :class:`~laizi.errors.LaiziError` if the ledger or a
    log does not verify."""
    from laizi.club_ledger import HandFact, check_ledger, from_csv, hand_facts
    from laizi.commands.verify import verify_text
    from laizi.errors import LogError
    from laizi.table.table import Table

    facts: dict[str, HandFact] = {}
    for text in logs:
        verify_text(text)
        table = Table.from_log([x for x in text.splitlines() if x.strip()])
        facts.update(hand_facts(table.log))
    try:
        entries = from_csv(ledger)
    except ValueError as exc:
        raise LogError(f"not a club ledger: {exc}") from None
    verdict = check_ledger(entries, facts)
    if not verdict.ok:
        raise LogError(str(verdict.problem))
    return (f"ok: {verdict.entries} entr{'y' if verdict.entries == 1 else 'ies'}; the hash "
            f"chain holds, every hand sums to zero and is the one its log settles")


def run(args: argparse.Namespace) -> int:
    try:
        ledger = Path(args.ledger).read_text("utf-8")
        logs = [Path(p).read_text("utf-8") for p in args.logs]
    except (OSError, UnicodeDecodeError) as exc:
        print(f"laizi verify-ledger: cannot read: {exc}", file=sys.stderr)
        return 2
    try:
        print(verify_ledger_text(ledger, logs))
    except LaiziError as exc:
        print(f"laizi verify-ledger: REJECTED: {exc.message}", file=sys.stderr)
        return 1
    return 0
