"""A club's books: its running ledger (:mod:`laizi.club_ledger`), kept up from its rooms'
finished hands, shown per evening and in total, checked on the server, and the
members' ratings per variant (openskill; docs/clubs.md).

Entries are appended by :meth:`Books.sync`: told by the hall each time a club room
stores a finished hand and each time a club's score-keeping session is closed (its
hands, in order, after the rooms' ones), and run again before the ledger is read (so a hand another
process stored, or one a crash kept from being appended, is caught up). One sync at a
time per club in this process; across processes the table's keys (club + seq, and
club + room + hand) let one of two racing appends fail, and it is tried again.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, TypedDict

from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from laizi.club_ledger import (
    GENESIS,
    HandFact,
    LedgerEntry,
    Verdict,
    check_ledger,
    entry_hash,
    evening_of,
    hand_facts,
    session_facts,
    session_room,
    to_csv,
)
from laizi.errors import LaiziError
from laizi.server.clubs import ClubLedgerRow, ClubMemberRow, ClubRoomRow, Clubs
from laizi.server.storage import HandRow, MemberRow, Store

__all__ = ["Books", "Rating"]


class Rating(TypedDict):
    """A member's rating in one variant of a club (openskill's Plackett-Luce)."""

    id: str
    name: str
    mu: float
    sigma: float
    ordinal: float
    matches: int


_COLUMNS = (ClubLedgerRow.seq, ClubLedgerRow.club, ClubLedgerRow.time,
            ClubLedgerRow.evening, ClubLedgerRow.room, ClubLedgerRow.hand, ClubLedgerRow.net,
            ClubLedgerRow.persons, ClubLedgerRow.log_hash, ClubLedgerRow.prev,
            ClubLedgerRow.hash)


def _entry(row: Any) -> LedgerEntry:
    return LedgerEntry(seq=row.seq, club=row.club, time=row.time, evening=row.evening,
                       room=row.room, hand=row.hand, net=json.loads(row.net),
                       persons=json.loads(row.persons), log_hash=row.log_hash,
                       prev=row.prev, hash=row.hash)


class Books:
    """The ledgers of the hall's clubs."""

    def __init__(self, store: Store, clubs: Clubs) -> None:
        self.store = store
        self.clubs = clubs
        self._locks: dict[str, asyncio.Lock] = {}
        self._verdicts: dict[str, tuple[tuple[str, str], Verdict]] = {}

    async def room_hands_stored(self, room: str) -> None:
        """The hall's word that a room stored a finished hand: its club's ledger (if
        it is a club's room) takes it now."""
        club = await self.clubs.club_of_room(room)
        if club is not None:
            await self.sync(club)

    async def sync(self, club: str) -> None:
        """Append every finished hand of the club's rooms not in its ledger yet."""
        lock = self._locks.setdefault(club, asyncio.Lock())
        async with lock:
            for _ in range(3):
                try:
                    await self._append_new(club)
                    return
                except IntegrityError:
                    continue  # another process appended first: read again

    async def _append_new(self, club: str) -> None:
        tz = int((await self.clubs.club(club))["settings"].get("tz_minutes", 480))
        await self._append_rooms(club, tz)
        await self._append_sessions(club, tz)

    async def _last(self, club: str) -> tuple[int, str]:
        """(seq, prev) of the club's next entry."""
        async with self.store.engine.connect() as conn:
            last = (await conn.execute(
                select(ClubLedgerRow.seq, ClubLedgerRow.hash).where(ClubLedgerRow.club == club)
                .order_by(ClubLedgerRow.seq.desc()).limit(1))).first()
        return (last[0] + 1, last[1]) if last is not None else (0, GENESIS)

    async def _append_sessions(self, club: str, tz: int) -> None:
        """Append the hands of the club's closed score-keeping sessions not in the
        ledger yet (all of a session's at its close; a crash between the close and the
        append is caught up here), each session in the order it was closed."""
        from laizi.server.score_sessions import session_data
        from laizi.server.scorekeeper import ScoreHandRow, ScoreSessionRow

        async with self.store.engine.connect() as conn:
            counted = dict((await conn.execute(
                select(ClubLedgerRow.room, func.count()).where(
                    ClubLedgerRow.club == club, ClubLedgerRow.room.like("score:%"))
                .group_by(ClubLedgerRow.room))).all())
            hands = (select(ScoreHandRow.session, func.count().label("n"))
                     .group_by(ScoreHandRow.session).subquery())
            closed = (await conn.execute(
                select(ScoreSessionRow.id, ScoreSessionRow.persons, hands.c.n)
                .join(hands, hands.c.session == ScoreSessionRow.id)
                .where(ScoreSessionRow.club == club, ScoreSessionRow.closed.is_not(None))
                .order_by(ScoreSessionRow.closed))).all()
        todo = [(sid, persons) for sid, persons, n in closed
                if counted.get(session_room(sid), 0) < n]
        if not todo:
            return
        seq, prev = await self._last(club)
        now = int(time.time())
        rows: list[dict[str, Any]] = []
        for sid, persons_json in todo:
            room = session_room(sid)
            facts = session_facts(await session_data(self.store.engine, sid, None))
            persons: dict[str, str] = json.loads(persons_json or "{}")
            for log_hash, fact in sorted(facts.items(), key=lambda f: f[1].hand):
                if fact.hand < counted.get(room, 0):
                    continue  # appended before (a session's hands go in together)
                row, prev = _row(club, seq, prev, now, tz, room, fact, persons, log_hash)
                rows.append(row)
                seq += 1
        async with self.store.engine.begin() as conn:
            await conn.execute(insert(ClubLedgerRow), rows)

    async def _append_rooms(self, club: str, tz: int) -> None:
        async with self.store.engine.connect() as conn:
            done = set((await conn.execute(select(ClubLedgerRow.room, ClubLedgerRow.hand)
                                           .where(ClubLedgerRow.club == club))).all())
            ordered = [(r, n) for r, n in (await conn.execute(
                select(HandRow.room, HandRow.number)
                .join(ClubRoomRow, ClubRoomRow.room == HandRow.room)
                .where(ClubRoomRow.club == club)
                .order_by(ClubRoomRow.created, HandRow.number))).all() if (r, n) not in done]
            members = set((await conn.execute(select(ClubMemberRow.person).where(
                ClubMemberRow.club == club))).scalars())
        if not ordered:
            return
        pending = set(ordered)
        seq, prev = await self._last(club)
        now = int(time.time())
        rows: list[dict[str, Any]] = []
        for room in dict.fromkeys(r for r, _ in ordered):
            facts = await self._room_facts(room)
            persons = await self._persons(room, members)
            for fact in sorted(facts, key=lambda f: f[1]):
                log_hash, number, net = fact
                if (room, number) not in pending:
                    continue
                row, prev = _row(club, seq, prev, now, tz, room, HandFact(number, net),
                                 persons, log_hash)
                rows.append(row)
                seq += 1
        if rows:
            async with self.store.engine.begin() as conn:
                await conn.execute(insert(ClubLedgerRow), rows)

    async def _room_facts(self, room: str) -> list[tuple[str, int, dict[str, int]]]:
        """(log hash, hand number, net) of every finished hand of a room, from its log
        replayed with its secret (:meth:`laizi.table.Table.from_log` checks every deal,
        action and settlement)."""
        from laizi.table import deals
        from laizi.table.table import Table

        stored = await self.store.room(room)
        if stored is None:
            return []
        table = Table.from_log(stored.lines, secret=deals.parse_secret(stored.secret))
        return [(h, f.hand, f.net) for h, f in hand_facts(table.log).items()]

    async def _persons(self, room: str, members: set[str]) -> dict[str, str]:
        """Name → person of the room's players who are members of the club."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(MemberRow.name, MemberRow.person_id).where(
                MemberRow.room == room, MemberRow.role == "player"))).all()
        return {n: p for n, p in rows if p in members}

    async def entries(self, club: str) -> list[LedgerEntry]:
        await self.sync(club)
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(select(*_COLUMNS).where(ClubLedgerRow.club == club)
                                       .order_by(ClubLedgerRow.seq))).all()
        return [_entry(r) for r in rows]

    async def count(self, club: str) -> int:
        async with self.store.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(ClubLedgerRow)
                                           .where(ClubLedgerRow.club == club))).scalar() or 0)

    async def verify(self, club: str) -> Verdict:
        """The check ``laizi verify-ledger`` makes, on the server's own logs (each room's
        log replayed with its secret). The verdict is kept while the stored entries are
        the same, byte for byte (finished hands never change): any change to a stored
        entry, or a new one, checks again."""
        entries = await self.entries(club)
        key = (club, hashlib.sha256(to_csv(entries).encode("utf-8")).hexdigest())
        kept = self._verdicts.get(club)
        if kept is not None and kept[0] == key:
            return kept[1]
        verdict = await self._check(entries)
        self._verdicts[club] = (key, verdict)
        return verdict

    async def _check(self, entries: list[LedgerEntry]) -> Verdict:
        from laizi.server.score_sessions import session_data

        facts: dict[str, HandFact] = {}
        for room in dict.fromkeys(e["room"] for e in entries):
            if room.startswith("score:"):  # a closed session: its hands settled again
                try:
                    facts.update(session_facts(await session_data(
                        self.store.engine, room.removeprefix("score:"), None)))
                except LaiziError:
                    continue  # no such session: its entries name no hand
                continue
            for h, number, net in await self._room_facts(room):
                facts[h] = HandFact(number, net)
        return check_ledger(entries, facts)


def _row(club: str, seq: int, prev: str, now: int, tz: int, room: str, fact: HandFact,
         persons: dict[str, str], log_hash: str) -> tuple[dict[str, Any], str]:
    """The ledger row of one hand, chained after ``prev``; and its hash (the next
    entry's ``prev``)."""
    net = fact.net
    entry = LedgerEntry(seq=seq, club=club, time=now, evening=evening_of(now, tz),
                        room=room, hand=fact.hand, net=net,
                        persons={n: p for n, p in persons.items() if n in net},
                        log_hash=log_hash, prev=prev, hash="")
    entry["hash"] = entry_hash(entry)
    return {**entry, "net": json.dumps(net, ensure_ascii=False),
            "persons": json.dumps(entry["persons"])}, entry["hash"]


def totals(entries: Sequence[LedgerEntry], names: dict[str, str]) -> dict[str, Any]:
    """Per evening and in total: hands, and each member's points (by person id;
    ``names``: their current names) and the others' (bots, by name)."""
    def book(into: dict[str, Any], e: LedgerEntry) -> None:
        into["hands"] += 1
        for name, points in e["net"].items():
            person = e["persons"].get(name)
            if person is not None:
                into["members"][person] = into["members"].get(person, 0) + points
            else:
                into["others"][name] = into["others"].get(name, 0) + points

    def blank() -> dict[str, Any]:
        return {"hands": 0, "members": {}, "others": {}}

    evenings: dict[str, dict[str, Any]] = defaultdict(blank)
    total = blank()
    for e in entries:
        book(evenings[e["evening"]], e)
        book(total, e)
    return {"names": names, "total": total,
            "evenings": [{"evening": k, **v} for k, v in sorted(evenings.items(),
                                                                 reverse=True)]}


def ratings(entries: Sequence[LedgerEntry], over: dict[str, str],
            names: dict[str, str]) -> dict[str, list[Rating]]:
    """Each member's rating per variant, updated match by match (a room that is over,
    ``over``: its code → variant, of 3 or 4 players) in ledger order: each match ranks
    its players by their points in it (openskill Plackett-Luce; bots take part, and
    are not shown)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    matches: dict[str, dict[str, int]] = {}
    for e in entries:
        if e["room"] in over:
            points = matches.setdefault(e["room"], {})
            for name, v in e["net"].items():
                key = e["persons"].get(name, f"name:{name}")
                points[key] = points.get(key, 0) + v
    state: dict[str, dict[str, Any]] = defaultdict(dict)
    played: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for room, points in matches.items():
        variant = over[room]
        if not 3 <= len(points) <= 4:
            continue
        keys = sorted(points)
        teams = [[state[variant].get(k) or model.rating(name=k)] for k in keys]
        rated = model.rate(teams, scores=[float(points[k]) for k in keys])
        for k, team in zip(keys, rated, strict=True):
            state[variant][k] = team[0]
            played[variant][k] += 1
    out: dict[str, list[Rating]] = {}
    for variant, table in state.items():
        rows = [Rating(id=k, name=names.get(k, k), mu=round(r.mu, 2),
                       sigma=round(r.sigma, 2), ordinal=round(r.ordinal(), 2),
                       matches=played[variant][k])
                for k, r in table.items() if k in names]
        out[variant] = sorted(rows, key=lambda r: -r["ordinal"])
    return out
