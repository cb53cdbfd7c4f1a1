"""``laizi score RECORD.json``: settle a finished hand from its hand record.

Prints every payment with its itemised reasons (``--lang zh``, the default, or ``en``) and
the net per seat (``--json``: the ``{"payments": [...], "net": [...]}`` shape, each reason
as ``{"code", "params", "zh", "en"}``). The record names its variant; the variant's
own settlement is used (``docs/hand-record.md``). An invalid record prints one line to
stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from laizi.reasons import LANGS
from laizi.records import RecordError, record_from_json, settle
from laizi.settlement import payments_json
from laizi.ui.terminal import payments_lines
from laizi.variants import get

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "score", help="settle a hand from its hand record (JSON)",
        description="Settle a finished hand: print every payment with its reasons and the "
                    "net per seat. RECORD is a hand-record JSON file, or - for stdin.")
    p.add_argument("record", metavar="RECORD", help="hand record JSON file, or - for stdin")
    p.add_argument("--json", action="store_true", help="print the settlement as JSON")
    p.add_argument("--lang", choices=LANGS, default="zh",
                   help="language of the reasons: zh (default) or en")
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"laizi score: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    name = args.record
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"{'stdin' if name == '-' else name}: not JSON "
                     f"(line {exc.lineno}, column {exc.colno}: {exc.msg})")
    try:
        record = record_from_json(data)
        variant = get(record.variant)
        payments, parties = settle(record)
    except RecordError as exc:
        return _fail(f"invalid hand record: {exc}")
    if args.json:
        print(json.dumps(payments_json(payments, parties), ensure_ascii=False, indent=2))
        return 0
    summary = variant.describe(record)
    if summary:
        print(summary)
    for line in payments_lines(payments, parties, getattr(args, "lang", "zh")):
        print(line)
    return 0
