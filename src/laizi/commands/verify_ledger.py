"""``laizi verify-ledger LEDGER LOG…``: check a club's exported ledger (亲友圈账本)
against the match logs and the score-keeping sessions it names (docs/clubs.md).

Every log is checked first as ``laizi verify`` checks it (the secret opens the
commitment, every deal, action and settlement replays). Then the ledger: its hash chain
(each entry's ``hash`` of its fields, each ``prev`` the entry before's), every hand's
net summing to zero, and every entry against the hand its ``log_hash`` names in those
logs: the same hand number and the same net. A LOG may also be a closed score-keeping
session's export (``GET /api/score/sessions/ID/export``, one JSON object of format
``laizi-scorekeeper/1``): each of its hands is its record settled again by the engine,
hashed as at the append (:func:`laizi.club_ledger.session_facts`). The first difference
is named and the command exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from laizi.commands import Subparsers
from laizi.errors import LaiziError

__all__ = ["register", "run", "verify_ledger_text"]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "verify-ledger", help="check a club's exported ledger against its match logs",
        description="Check a club ledger exported as CSV (GET /api/clubs/ID/ledger.csv) "
                    "against the closed match logs of its rooms (GET /api/rooms/CODE/log) "
                    "and the exports of its score-keeping sessions "
                    "(GET /api/score/sessions/ID/export): "
                    "every log verifies, the hash chain holds, every hand sums to zero "
                    "and every entry is the hand its log_hash names.")
    p.add_argument("ledger", metavar="LEDGER", help="the exported ledger (CSV)")
    p.add_argument("logs", metavar="LOG", nargs="+",
                   help="the rooms' table logs (JSON lines) and sessions' exports (JSON)")
    p.set_defaults(func=run)


def verify_ledger_text(ledger: str, logs: list[str]) -> str:
    """The one-line verdict; raises :class:`~laizi.errors.LaiziError` if the ledger or a
    log does not verify."""
    from laizi.club_ledger import HandFact, check_ledger, from_csv, hand_facts, session_facts
    from laizi.commands.verify import verify_text
    from laizi.core.records import RecordError
    from laizi.errors import LogError
    from laizi.table.table import Table

    facts: dict[str, HandFact] = {}
    for text in logs:
        session = _session_export(text)
        if session is not None:
            try:
                facts.update(session_facts(session))
            except (RecordError, LaiziError, ValueError, KeyError, TypeError) as exc:
                raise LogError(f"session {session.get('id')}: a hand does not settle: "
                               f"{exc}") from None
            continue
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


def _session_export(text: str) -> dict[str, Any] | None:
    """A score-keeping session's export, or None for anything else (a table log is
    JSON lines: not one JSON object)."""
    from laizi.club_ledger import SESSION_FORMAT

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if isinstance(data, dict) and data.get("format") == SESSION_FORMAT:
        return data
    return None


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
