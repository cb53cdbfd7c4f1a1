"""The club ledger (亲友圈账本): its entries, their hash chain, its CSV form and its
check against the match logs it names (docs/clubs.md).

Every finished hand of a club's room is one **entry**: ``seq`` (0, 1, … in the club),
``club``, ``time`` (whole seconds, UTC), ``evening`` (the date of the club's evening it
belongs to: :func:`evening_of`), ``room``, ``hand`` (its number in the room),
``net`` (every seat's net of the hand by the name it played under: bots too, so the
values sum to zero), ``persons`` (name → person id of the names that are club members),
``log_hash`` (:func:`hand_log_hash`: SHA-256 of the hand's lines of the table log, from
its ``hand`` line to its ``hand_end`` line), ``prev`` (the previous entry's ``hash``;
64 zeros for the first) and ``hash`` (:func:`entry_hash`: SHA-256 of every other field,
canonical JSON). Change any field of any entry and its hash no longer matches, or the
next entry's ``prev`` does not; recompute the chain after a change and the entry's net
no longer matches the hand its ``log_hash`` names in the logs.

A closed score-keeping session of the club (记分, :mod:`laizi.server.score_sessions`) is
entered the same way, one entry a hand: ``room`` is ``score:<session id>``, ``hand`` the
hand's number in the session, ``net`` the hand settled again from its stored record by
the names of the session, and ``log_hash`` :func:`session_hand_hash` of the session, the
number and the record; :func:`session_facts` reads a session's export for the check.

This module needs no server: ``laizi verify-ledger`` uses it on exported files.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypedDict

from laizi.table.events import canonical

__all__ = ["CSV_FIELDS", "EVENING_STARTS", "GENESIS", "SESSION_FORMAT", "HandFact",
           "LedgerEntry", "Verdict", "check_ledger", "entry_hash", "evening_of", "from_csv",
           "hand_facts", "hand_log_hash", "session_facts", "session_hand_hash",
           "session_room", "to_csv"]

GENESIS = "0" * 64
"""The ``prev`` of a club's first entry."""
EVENING_STARTS = 6
"""A club's day turns at 06:00 of its time: a hand played at 01:30 belongs to the
evening before (an evening of mahjong runs past midnight)."""
CSV_FIELDS = ("seq", "club", "time", "evening", "room", "hand", "net", "persons",
              "log_hash", "prev", "hash")
"""The columns of an exported ledger, in order (``net`` and ``persons`` are JSON)."""
SESSION_FORMAT = "laizi-scorekeeper/1"
"""The ``format`` of a score-keeping session's export (``GET /api/score/sessions/ID/export``)."""


class LedgerEntry(TypedDict):
    """One finished hand in a club's ledger (see the module's docstring)."""

    seq: int
    club: str
    time: int
    evening: str
    room: str
    hand: int
    net: dict[str, int]
    persons: dict[str, str]
    log_hash: str
    prev: str
    hash: str


@dataclass(frozen=True, slots=True)
class HandFact:
    """What a verified log says of one finished hand: its room's hand number and net."""

    hand: int
    net: dict[str, int]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The check of a ledger: ``ok``, how many entries were checked, and what failed
    (the first problem, named with its entry)."""

    ok: bool
    entries: int
    problem: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"ok": self.ok, "entries": self.entries, "problem": self.problem}


def evening_of(when: float, tz_minutes: int) -> str:
    """The evening (ISO date) a moment belongs to, in a club's time (UTC + ``tz_minutes``;
    the day turns at :data:`EVENING_STARTS` o'clock)."""
    local = datetime.fromtimestamp(when, UTC) + timedelta(minutes=tz_minutes)
    return (local - timedelta(hours=EVENING_STARTS)).date().isoformat()


def entry_hash(entry: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of an entry's fields but ``hash``, as canonical JSON."""
    body = {k: entry[k] for k in CSV_FIELDS if k != "hash"}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def hand_log_hash(lines: Sequence[Mapping[str, object]]) -> str:
    """SHA-256 (hex) of a hand's log lines (``hand`` … ``hand_end``), each in its
    byte-exact canonical form, one a line."""
    text = "".join(canonical(e) + "\n" for e in lines)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def hand_facts(log: Sequence[Mapping[str, Any]]) -> dict[str, HandFact]:
    """Every finished hand of a table log, by :func:`hand_log_hash` of its lines."""
    out: dict[str, HandFact] = {}
    start: int | None = None
    for i, entry in enumerate(log):
        kind = entry.get("type")
        if kind == "hand":
            start = i
        elif kind == "hand_end" and start is not None:
            net = {str(k): int(v) for k, v in dict(entry.get("net", {})).items()}
            out[hand_log_hash(log[start:i + 1])] = HandFact(int(entry["number"]), net)
            start = None
    return out


def session_room(session: str) -> str:
    """The ``room`` of a score-keeping session's entries."""
    return f"score:{session}"


def session_hand_hash(session: str, hand: int, record: Mapping[str, object]) -> str:
    """SHA-256 (hex) of a session's hand: the canonical JSON of ``{"hand", "record",
    "session"}`` (the record as the session stores and exports it). The session and the
    number are in it so that two hands of the same tiles are two hands."""
    body = {"hand": hand, "record": record, "session": session}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def session_facts(export: Mapping[str, Any]) -> dict[str, HandFact]:
    """Every hand of a score-keeping session (its export, or the session as the hall
    reads it), by :func:`session_hand_hash`: its number and its net by the session's
    names, the record settled again by the engine (the same
    :func:`laizi.records.settle_record` the score-keeper uses), so the net is the rules'
    and not what was stored. A party without a name (晃晃's horses reaching a waiting
    person) is ``+N``; a name twice at the table is one person: their nets add up.
    :class:`~laizi.core.records.RecordError` (or :class:`ValueError`) for a hand that
    does not settle."""
    from laizi.records import settle_record

    sid = str(export["id"])
    names = [str(n) for n in export["names"]]
    out: dict[str, HandFact] = {}
    for hand in export["hands"]:
        number, record = int(hand["n"]), hand["record"]
        if not isinstance(record, dict):
            raise ValueError(f"hand {number}: its record is not a JSON object")
        settled = settle_record(record)
        net: dict[str, int] = {}
        for party, amount in enumerate(list(settled["net"])):  # type: ignore[call-overload]
            who = names[party] if party < len(names) else f"+{party}"
            net[who] = net.get(who, 0) + int(amount)
        out[session_hand_hash(sid, number, record)] = HandFact(number, net)
    return out


def to_csv(entries: Iterable[LedgerEntry]) -> str:
    """The ledger as CSV: a header of :data:`CSV_FIELDS`, one row an entry."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for e in entries:
        writer.writerow([canonical(e[k]) if k in ("net", "persons") else e[k]  # type: ignore[literal-required]
                         for k in CSV_FIELDS])
    return out.getvalue()


def from_csv(text: str) -> list[LedgerEntry]:
    """The entries of an exported ledger; a :class:`ValueError` for a file that is not
    one (a missing column, a number or JSON cell that does not parse)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    out: list[LedgerEntry] = []
    for n, row in enumerate(rows, 1):
        if any(row.get(k) is None for k in CSV_FIELDS):
            raise ValueError(f"row {n}: the columns are {', '.join(CSV_FIELDS)}")
        try:
            out.append(LedgerEntry(
                seq=int(row["seq"]), club=row["club"], time=int(row["time"]),
                evening=row["evening"], room=row["room"], hand=int(row["hand"]),
                net=json.loads(row["net"]), persons=json.loads(row["persons"]),
                log_hash=row["log_hash"], prev=row["prev"], hash=row["hash"]))
        except (ValueError, TypeError) as exc:
            raise ValueError(f"row {n}: {exc}") from None
    return out


def _chain_problem(entries: Sequence[LedgerEntry]) -> str | None:
    prev = GENESIS
    for i, e in enumerate(entries):
        where = f"entry {i} (room {e['room']}, hand {e['hand']})"
        if e["seq"] != i:
            return f"{where}: seq is {e['seq']}, not {i}"
        if i and e["club"] != entries[0]["club"]:
            return f"{where}: of another club"
        if e["prev"] != prev:
            return f"{where}: prev is not the hash of the entry before"
        if entry_hash(e) != e["hash"]:
            return f"{where}: its hash does not match its fields"
        net = e["net"]
        if not isinstance(net, dict) or not all(isinstance(v, int) and not isinstance(v, bool)
                                                for v in net.values()):
            return f"{where}: net is not a table of whole points"
        if sum(net.values()) != 0:
            return f"{where}: the net does not sum to zero"
        prev = e["hash"]
    return None


def check_ledger(entries: Sequence[LedgerEntry], facts: Mapping[str, HandFact]
                 ) -> Verdict:
    """Check a ledger: its chain (seq, prev, hash), every hand's net summing to zero,
    and each entry against the hand its ``log_hash`` names in ``facts`` (from the
    verified logs: :func:`hand_facts`): the same hand number and the same net."""
    problem = _chain_problem(entries)
    if problem is None:
        seen: set[str] = set()
        for i, e in enumerate(entries):
            where = f"entry {i} (room {e['room']}, hand {e['hand']})"
            fact = facts.get(e["log_hash"])
            if fact is None:
                problem = f"{where}: no log given holds a hand with its log_hash"
            elif e["log_hash"] in seen:
                problem = f"{where}: the same hand is in the ledger twice"
            elif fact.hand != e["hand"]:
                problem = f"{where}: the log's hand is number {fact.hand}"
            elif {k: v for k, v in fact.net.items() if v} != \
                    {k: v for k, v in e["net"].items() if v}:
                problem = f"{where}: its net is not the one the log settles"
            if problem is not None:
                break
            seen.add(e["log_hash"])
    return Verdict(problem is None, len(entries), problem)
