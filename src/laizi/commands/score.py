"""``laizi score RECORD...``: settle finished hands from their hand records.

Prints every payment with its itemised reasons (``--lang zh``, the default, or ``en``) and
the net per seat (``--json``: the ``{"payments": [...], "net": [...]}`` shape, each reason
as ``{"code", "params", "zh", "en"}``). The record names its variant; the variant's
own settlement is used (``docs/hand-record.md``).

Several hands at once — a file holding a JSON list of records, a file of JSON lines (one
record per line), or several files — are settled in order with a running ledger (the sum
of the nets so far); ``--json`` then prints ``{"hands": [...], "ledger": [...]}``. Every
record is validated before anything is printed, so a ledger never stops half way: an
invalid record prints one line to stderr, naming where it is, and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

from laizi.commands import Subparsers
from laizi.core.jsondata import JSON
from laizi.core.records import HandRecord, RecordError
from laizi.reasons import LANGS, Lang
from laizi.records import BEYOND, beyond_limit, record_from_json, settle
from laizi.settlement import Payment, net, payments_json

__all__ = ["Settled", "read_records", "register", "run"]

EXAMPLES = """examples:
  laizi score docs/examples/jingzhou-hand.json
  laizi score docs/examples/taiwan-hand.json --lang en
  laizi score docs/examples/golden-hand.json --json
  laizi score docs/examples/mcr-hand.json docs/examples/mcr-hand.json
"""


class _Failure(Exception):
    """One line for stderr (the command's name is added)."""


@dataclass(frozen=True, slots=True)
class Settled:
    """One hand of the input, validated and settled."""

    source: str
    """Where the record was read: the file, and its line or list index when it holds
    several."""
    record: HandRecord
    payments: list[Payment]
    parties: int


class _HandJson(TypedDict):
    source: str
    payments: list[JSON]
    net: list[int]
    ledger: list[int]


def register(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "score", help="settle hands from their hand records (JSON), with a running ledger",
        description="Settle finished hands: print every payment with its reasons and the "
                    "net per seat. RECORD is a hand-record JSON file, or - for stdin; a "
                    "file may hold one record, a JSON list of records or one record per "
                    "line (JSON lines). Several hands are settled in order with a running "
                    "ledger.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("record", metavar="RECORD", nargs="+",
                   help="hand record JSON file (a record, a list, or JSON lines), or - for "
                        "stdin")
    p.add_argument("--json", action="store_true", help="print the settlement as JSON")
    p.add_argument("--lang", choices=LANGS, default="zh",
                   help="language of the reasons: zh (default) or en")
    p.set_defaults(func=run)


def _one_line(text: str) -> str:
    # Messages quote values from the input; a newline in one must not split the error.
    return " ".join(text.split())


def _checked(where: str, data: object) -> tuple[str, object]:
    """A record with where it is, refused at once (naming where) with a number beyond
    :data:`laizi.records.NUMBER_LIMIT`, which ``record_from_json`` refuses too."""
    if beyond_limit(data):
        raise _Failure(f"{where}: {BEYOND}")
    return where, data


_HUGE = "a number of more than 4300 digits; a hand record's numbers are smaller"


def _documents(name: str, text: str) -> list[tuple[str, object]]:
    """The records a file holds, each with where it is: one object, a list, or JSON
    lines."""
    shown = "stdin" if name == "-" else name
    try:
        data = json.loads(text)
    except RecursionError:
        raise _Failure(f"{shown}: JSON nested too deeply") from None
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            raise _Failure(f"{shown}: not JSON (line {exc.lineno}, column {exc.colno}: "
                           f"{exc.msg})") from None
        out = []
        for i, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(_checked(f"{shown} line {i}", json.loads(line)))
            except json.JSONDecodeError as line_exc:
                raise _Failure(f"{shown} line {i}: not JSON (column {line_exc.colno}: "
                               f"{line_exc.msg}); a file of several records holds one "
                               "per line") from None
            except RecursionError:
                raise _Failure(f"{shown} line {i}: JSON nested too deeply") from None
            except ValueError:  # Python reads no whole number of more than 4300 digits
                raise _Failure(f"{shown} line {i}: {_HUGE}") from None
        return out
    except ValueError:
        raise _Failure(f"{shown}: {_HUGE}") from None
    if isinstance(data, list):
        if not data:
            raise _Failure(f"{shown}: an empty list holds no hand record")
        return [_checked(f"{shown}[{i}]", item) for i, item in enumerate(data)]
    return [_checked(shown, data)]


def read_records(names: list[str], read_stdin: Callable[[], str] | None = None
                 ) -> list[Settled]:
    """Every record of ``names`` validated and settled, in order; :class:`_Failure` (one
    line) at the first that is not a valid record."""
    docs: list[tuple[str, object]] = []
    for name in names:
        try:
            if name == "-":
                text = (read_stdin or sys.stdin.read)()
            else:
                text = Path(name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _Failure(f"cannot read {name}: {getattr(exc, 'strerror', None) or exc}"
                           ) from None
        docs.extend(_documents(name, text))
    several = len(docs) > 1
    out = []
    for source, data in docs:
        try:
            record = record_from_json(data)
            payments, parties = settle(record)
        except RecordError as exc:
            where = f"{source}: " if several else ""
            raise _Failure(f"{where}invalid hand record: {exc}") from None
        out.append(Settled(source, record, payments, parties))
    variants = sorted({s.record.variant for s in out})
    if len(variants) > 1:
        raise _Failure(f"records of different variants ({', '.join(variants)}) share no "
                       "ledger; score them separately")
    return out


def _add(ledger: list[int], nets: list[int]) -> list[int]:
    size = max(len(ledger), len(nets))
    return [(ledger[i] if i < len(ledger) else 0) + (nets[i] if i < len(nets) else 0)
            for i in range(size)]


def _ledger_text(ledger: list[int]) -> str:
    return "  ".join(f"seat {s} {v:+d}" for s, v in enumerate(ledger))


def run(args: argparse.Namespace) -> int:
    try:
        hands = read_records(list(args.record))
    except _Failure as exc:
        print(_one_line(f"laizi score: {exc}"), file=sys.stderr)
        return 2
    if len(hands) == 1:
        only = hands[0]
        if args.json:
            print(json.dumps(payments_json(only.payments, only.parties), ensure_ascii=False,
                             indent=2))
        else:
            _print_hand(only, args.lang)
        return 0
    ledger: list[int] = []
    shown: list[_HandJson] = []
    for k, hand in enumerate(hands, 1):
        nets = net(hand.payments, hand.parties)
        ledger = _add(ledger, nets)
        if args.json:
            shown.append(_HandJson(source=hand.source,
                                   payments=[p.to_json() for p in hand.payments],
                                   net=nets, ledger=ledger))
            continue
        print(f"── hand {k} of {len(hands)}: {hand.source}")
        _print_hand(hand, args.lang)
        print(f"ledger: {_ledger_text(ledger)}")
        print()
    if args.json:
        print(json.dumps({"hands": shown, "ledger": ledger}, ensure_ascii=False, indent=2))
    else:
        print(f"ledger after {len(hands)} hands: {_ledger_text(ledger)}")
    return 0


def _print_hand(hand: Settled, lang: Lang) -> None:
    from laizi.ui.terminal import payments_lines
    from laizi.variants import get

    summary = get(hand.record.variant).describe(hand.record)
    if summary:
        print(summary)
    for line in payments_lines(hand.payments, hand.parties, lang):
        print(line)
