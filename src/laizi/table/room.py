"""A 晃晃 room (房间): up to 8 people, 4 seated, the rest waiting in a FIFO queue.

The room is pure data: every operation returns a new :class:`Room` and never mutates its
argument, and :meth:`Room.to_json` / :meth:`Room.from_json` round-trip it exactly.

下桌 (who leaves the table after a hand), when someone is waiting:

* won on a discard (放胡) or by robbing a kong (抢杠): the discarder / robbed player leaves;
* 自摸 (杠上开花 included) with 3+ waiting: all three losers leave; with 2 waiting: the
  winner's 上家 and 下家 leave; with 1 waiting: the winner's 对家 leaves;
* a drawn hand (黄庄), or nobody waiting: nobody leaves.

Decisions (see ``docs/rooms.md``): several leavers join the back of the queue in play order
starting from the winner's next seat (下家 first); the front of the queue then fills the
empty seats in that same order. Seats are fixed positions at the table (play order 0..3);
the winner never leaves, so the next dealer is the winner's seat; after a drawn hand the
dealer deals again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from laizi.core.jsondata import JSON
from laizi.vocab import HandEnd

__all__ = [
    "MAX_PEOPLE",
    "SEATS",
    "HandEnd",
    "Outcome",
    "Room",
    "RoomError",
    "Rotation",
    "finish_hand",
    "join",
    "leave",
    "leaving_seats",
    "new_room",
    "rotate",
]

SEATS = 4
MAX_PEOPLE = 8


class RoomError(ValueError):
    """An operation broke a rule of the room (names the rule)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of one hand: ``winner`` and ``loser`` (discarder or robbed) are seats."""

    end: HandEnd
    winner: int | None = None
    loser: int | None = None

    def __post_init__(self) -> None:
        for label, seat in (("winner", self.winner), ("loser", self.loser)):
            if seat is not None and not 0 <= seat < SEATS:
                raise RoomError(f"{label} seat {seat} is not a seat 0-{SEATS - 1}")
        if self.end is HandEnd.DRAWN:
            if self.winner is not None or self.loser is not None:
                raise RoomError("a drawn hand has no winner and no loser")
        elif self.winner is None:
            raise RoomError(f"a {self.end.value} hand needs a winner")
        elif self.end is HandEnd.SELF_DRAW:
            if self.loser is not None:
                raise RoomError("a self-drawn win (自摸) has no single loser")
        elif self.loser is None or self.loser == self.winner:
            raise RoomError(
                f"a {self.end.value} win needs a loser (the discarder / robbed player) "
                "other than the winner"
            )

    def to_json(self) -> JSON:
        return {"end": self.end.value, "winner": self.winner, "loser": self.loser}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(HandEnd(data["end"]), data.get("winner"), data.get("loser"))


@dataclass(frozen=True, slots=True)
class Room:
    """Who sits where, who waits, who deals, and every person's running score.

    ``seats[i]`` is the person at seat ``i`` (play order); ``queue`` is the waiting line,
    front first; ``ledger`` holds the session score of everyone who was ever in the room
    (seated or waiting) and always sums to zero.
    """

    seats: tuple[str, ...]
    queue: tuple[str, ...] = ()
    dealer: int = 0
    ledger: Mapping[str, int] = field(default_factory=dict)
    hands: int = 0

    @property
    def people(self) -> tuple[str, ...]:
        """Everyone in the room: the seated in seat order, then the queue front first."""
        return self.seats + self.queue

    def seat_of(self, person: str) -> int | None:
        """The seat of ``person``, or ``None`` when they are waiting."""
        return self.seats.index(person) if person in self.seats else None

    def to_json(self) -> JSON:
        return {
            "seats": list(self.seats),
            "queue": list(self.queue),
            "dealer": self.dealer,
            "ledger": dict(self.ledger),
            "hands": self.hands,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Room:
        room = cls(
            tuple(str(p) for p in data["seats"]),
            tuple(str(p) for p in data.get("queue", ())),
            int(data.get("dealer", 0)),
            {str(k): int(v) for k, v in data.get("ledger", {}).items()},
            int(data.get("hands", 0)),
        )
        _check(room)
        return room


@dataclass(frozen=True, slots=True)
class Rotation:
    """What 下桌 did after one hand: ``left`` and ``entered`` are (seat, person) pairs."""

    room: Room
    left: tuple[tuple[int, str], ...]
    entered: tuple[tuple[int, str], ...]

    def to_json(self) -> JSON:
        return {
            "room": self.room.to_json(),
            "left": [list(x) for x in self.left],
            "entered": [list(x) for x in self.entered],
        }


def _check(room: Room) -> None:
    if len(room.seats) != SEATS:
        raise RoomError(f"a room seats exactly {SEATS} people, got {len(room.seats)}")
    people = room.people
    if len(people) > MAX_PEOPLE:
        raise RoomError(f"a room holds at most {MAX_PEOPLE} people, got {len(people)}")
    if len(set(people)) != len(people):
        dup = next(p for p in people if people.count(p) > 1)
        raise RoomError(f"{dup!r} is in the room twice")
    if any(not p for p in people):
        raise RoomError("a person needs a non-empty name")
    if not 0 <= room.dealer < SEATS:
        raise RoomError(f"dealer seat {room.dealer} is not a seat 0-{SEATS - 1}")
    if sum(room.ledger.values()) != 0:
        raise RoomError("the ledger must sum to zero")
    missing = [p for p in people if p not in room.ledger]
    if missing:
        raise RoomError(f"{missing[0]!r} has no ledger entry")


def new_room(people: Sequence[str], *, dealer: int = 0) -> Room:
    """A fresh room: the first four people sit at seats 0-3, the rest wait in that order."""
    if len(people) < SEATS:
        raise RoomError(f"a room needs at least {SEATS} people, got {len(people)}")
    room = Room(
        tuple(people[:SEATS]),
        tuple(people[SEATS:]),
        dealer,
        {p: 0 for p in people},
    )
    _check(room)
    return room


def join(room: Room, person: str) -> Room:
    """``person`` enters the room at the back of the queue (their old score is kept)."""
    if person in room.people:
        raise RoomError(f"{person!r} is already in the room")
    ledger = dict(room.ledger)
    ledger.setdefault(person, 0)
    new = Room(room.seats, (*room.queue, person), room.dealer, ledger, room.hands)
    _check(new)
    return new


def leave(room: Room, person: str) -> Room:
    """A waiting ``person`` leaves the room; their score stays in the ledger.

    A seated person may not walk out mid-session: they wait until 下桌 sends them to the
    queue (a real table would not let a seat stand empty).
    """
    if person in room.seats:
        raise RoomError(f"{person!r} is seated; only a waiting person may leave the room")
    if person not in room.queue:
        raise RoomError(f"{person!r} is not in the room")
    queue = tuple(p for p in room.queue if p != person)
    return Room(room.seats, queue, room.dealer, room.ledger, room.hands)


def leaving_seats(outcome: Outcome, waiting: int) -> tuple[int, ...]:
    """The seats whose players leave (下桌) after ``outcome`` with ``waiting`` people queued.

    Listed in play order starting from the winner's next seat (下家).
    """
    if waiting < 0:
        raise RoomError("the number of waiting people cannot be negative")
    if waiting == 0 or outcome.end is HandEnd.DRAWN:
        return ()
    assert outcome.winner is not None  # checked by Outcome
    w = outcome.winner
    if outcome.end in (HandEnd.DISCARD, HandEnd.ROB_KONG):
        assert outcome.loser is not None
        return (outcome.loser,)
    if waiting >= 3:
        return ((w + 1) % SEATS, (w + 2) % SEATS, (w + 3) % SEATS)
    if waiting == 2:
        return ((w + 1) % SEATS, (w + 3) % SEATS)  # 下家 then 上家
    return ((w + 2) % SEATS,)  # 对家


def rotate(room: Room, outcome: Outcome) -> Rotation:
    """Apply 下桌 and choose the next dealer; the ledger is left untouched."""
    out_seats = leaving_seats(outcome, len(room.queue))
    seats = list(room.seats)
    queue = list(room.queue)
    left = tuple((s, seats[s]) for s in out_seats)
    queue.extend(p for _, p in left)
    entered: list[tuple[int, str]] = []
    for s in out_seats:
        seats[s] = queue.pop(0)
        entered.append((s, seats[s]))
    dealer = room.dealer if outcome.winner is None else outcome.winner
    new = Room(tuple(seats), tuple(queue), dealer, room.ledger, room.hands + 1)
    return Rotation(new, left, tuple(entered))


def finish_hand(room: Room, outcome: Outcome, net: Mapping[str, int]) -> Rotation:
    """Book one hand: add each person's ``net`` result to the ledger, then :func:`rotate`.

    ``net`` must sum to zero and name only people in the room (seated or waiting: horse
    holders may be waiting).
    """
    if sum(net.values()) != 0:
        raise RoomError(f"a hand's results must sum to zero, got {sum(net.values())}")
    present = set(room.people)
    strangers = [p for p in net if p not in present]
    if strangers:
        raise RoomError(f"{strangers[0]!r} is not in the room")
    ledger = dict(room.ledger)
    for person, amount in net.items():
        ledger[person] = ledger.get(person, 0) + amount
    booked = Room(room.seats, room.queue, room.dealer, ledger, room.hands)
    return rotate(booked, outcome)
