"""Session rules: the small hook of each variant that says how hands follow one another.

A :class:`~laizi.table.table.Table` plays hand after hand; between two hands it asks its
variant's :class:`Session`:

* what the next hand is dealt with (:meth:`Session.hand_setup`: the hand's options and its
  ``Game.context``, e.g. Taiwan's prevalent wind and 连N, 晃晃's horse buyers);
* how a finished hand is booked (:meth:`Session.book`: the payments between *people*, the
  next dealer, 晃晃's 下桌 rotation, Taiwan's 连庄 and 圈);
* whether the session is over (:meth:`Session.over`: Taiwan's 将 after four 圈, an MCR
  match after four rounds of winds; Jingzhou and 晃晃 play on until the table closes).

The state a session keeps between hands is a small frozen dataclass per variant that the
table stores and shows; everything in it follows from the log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from laizi.core.jsondata import JSON
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, WIN
from laizi.engine.variant import Variant
from laizi.settlement import Payment
from laizi.table.horses import PersonPayment, assign_horses, buy_order, horse_payments, person_net
from laizi.table.room import HandEnd, Outcome, Room, leaving_seats

if TYPE_CHECKING:
    from laizi.core.records import HandRecord
    from laizi.engine.game import Game

__all__ = [
    "Booking",
    "GBSession",
    "HuanghuangSession",
    "Seating",
    "Session",
    "SessionState",
    "TaiwanSession",
    "session_for",
]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where (``seats[i]`` is the person at seat ``i``; ``None`` an empty seat)
    and who waits (晃晃's queue, front first)."""

    seats: tuple[str | None, ...]
    waiting: tuple[str, ...] = ()

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(p for p in self.seats if p is not None) + self.waiting


@dataclass(frozen=True, slots=True)
class SessionState:
    """What a session carries from hand to hand beyond the dealer and the ledger.

    ``prevalent_wind`` is the 圈 (0 东 … 3 北); ``dealer_streak`` Taiwan's 连N (0 on a
    fresh deal); ``passes`` how often the deal has passed to the next seat.
    """

    prevalent_wind: int = 0
    dealer_streak: int = 0
    passes: int = 0

    def to_json(self) -> dict[str, int]:
        return {"prevalent_wind": self.prevalent_wind, "dealer_streak": self.dealer_streak,
                "passes": self.passes}


@dataclass(frozen=True, slots=True)
class Booking:
    """A finished hand booked between people: the payments (table and horses), each
    person's net, the next dealer, the next seating and session state, and who left the
    table and who took their seat (晃晃's 下桌)."""

    payments: tuple[PersonPayment, ...]
    net: dict[str, int]
    dealer: int
    seating: Seating
    state: SessionState
    left: tuple[tuple[int, str], ...] = ()
    entered: tuple[tuple[int, str], ...] = ()
    horses: tuple[JSON, ...] = field(default=())


def _person_payments(payments: Sequence[Payment],
                     seats: Sequence[str]) -> list[PersonPayment]:
    return [PersonPayment(seats[p.payer], seats[p.payee], p.amount, p.reasons)
            for p in payments if p.payer != p.payee and p.amount]


class Session:
    """The default session (Jingzhou): the variant's ``next_dealer``, no end of its own."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    @property
    def max_people(self) -> int:
        """How many people may be at the table, seated and waiting."""
        return self.variant.seats

    def max_hands(self, options: Any = None) -> int | None:
        """Hands in a full session under the table's ``options`` (``None``: play until
        the table closes)."""
        return None

    def hand_setup(self, options: Any, number: int, seating: Seating, dealer: int,
                   state: SessionState, horse_buyers: frozenset[str]
                   ) -> tuple[Any, JSON]:
        """The options and ``Game.context`` of hand ``number`` (0-based)."""
        return self.variant.hand_options(options, number), {}

    def over(self, number: int, state: SessionState) -> bool:
        """Whether the session has ended after ``number`` hands."""
        limit = self.max_hands()
        return limit is not None and number >= limit

    def book(self, game: Game, seating: Seating, state: SessionState) -> Booking:
        record = game.record
        assert record is not None
        seats = [p for p in seating.seats if p is not None]
        payments = _person_payments(game.payments, seats)
        net = {p: 0 for p in seats}
        net.update(person_net(payments))
        return Booking(tuple(payments), net, self.variant.next_dealer(record), seating,
                       self.next_state(record, state))

    def next_state(self, record: HandRecord, state: SessionState) -> SessionState:
        dealer_kept = self.variant.next_dealer(record) == record.dealer
        if dealer_kept:
            return replace(state, dealer_streak=state.dealer_streak + 1)
        passes = state.passes + 1
        return SessionState(passes // self.variant.seats, 0, passes)


class TaiwanSession(Session):
    """Taiwan 将: 连庄 on the dealer's win or a drawn hand (连N counted in
    ``dealer_streak`` and given to the hand as ``Game.context``, for 连N拉N), otherwise
    the deal passes on; four passes make a 圈 (the prevalent wind moves on) and four 圈
    make the 将."""

    ROUNDS = 4

    def hand_setup(self, options: Any, number: int, seating: Seating, dealer: int,
                   state: SessionState, horse_buyers: frozenset[str]
                   ) -> tuple[Any, JSON]:
        # Past four 圈 (a table told to play on) a new 将 starts from 东 again.
        return options, {"prevalent_wind": state.prevalent_wind % self.ROUNDS,
                         "dealer_streak": state.dealer_streak}

    def over(self, number: int, state: SessionState) -> bool:
        return state.prevalent_wind >= self.ROUNDS


class GBSession(Session):
    """Golden / MCR: the deal passes every hand and the prevalent wind moves every four
    hands (the variant's ``hand_options``); a match is four rounds of winds (16 hands)."""

    HANDS = 16

    def max_hands(self, options: Any = None) -> int | None:
        # MCR's botzone profile: one hand a game, as on Botzone (docs/datasets.md).
        if getattr(options, "profile", None) == "botzone":
            return 1
        return self.HANDS


class HuanghuangSession(Session):
    """荆州晃晃: up to 8 people, 4 seated; everyone who wants buys a horse (买马, seated
    and waiting alike, dealt in :func:`~laizi.table.horses.buy_order`); the hand is
    settled between people, horses included; then 下桌 (:mod:`laizi.table.room`) sends
    losers to the back of the queue and the front of the queue takes their seats."""

    MAX_PEOPLE = 8

    @property
    def max_people(self) -> int:
        return self.MAX_PEOPLE

    @staticmethod
    def parties(seating: Seating) -> tuple[str, ...]:
        """Party numbers of the people: seats 0-3, then the queue as 4, 5, …"""
        return tuple(p for p in seating.seats if p is not None) + seating.waiting

    def buyers(self, seating: Seating, dealer: int,
               horse_buyers: frozenset[str]) -> tuple[str, ...]:
        seats = tuple(p for p in seating.seats if p is not None)
        return tuple(p for p in buy_order(seats, seating.waiting, dealer)
                     if p in horse_buyers)

    def hand_setup(self, options: Any, number: int, seating: Seating, dealer: int,
                   state: SessionState, horse_buyers: frozenset[str]
                   ) -> tuple[Any, JSON]:
        index = {p: i for i, p in enumerate(self.parties(seating))}
        order = self.buyers(seating, dealer, horse_buyers)
        return replace(options, horses=tuple(index[p] for p in order)), {}

    def book(self, game: Game, seating: Seating, state: SessionState) -> Booking:
        record = game.record
        assert record is not None
        seats = tuple(p for p in seating.seats if p is not None)
        parties = self.parties(seating)
        order = [parties[i] for i in game.options.horses]
        horses = assign_horses(order, game.extra.get("horse_tiles", []))
        table = _person_payments(game.payments, seats)
        horse = horse_payments(game.payments, seats, horses, game.dealer)
        payments = (*table, *horse)
        net = {p: 0 for p in parties}
        net.update(person_net(payments))
        outcome = outcome_of(record)
        room = Room(seats, seating.waiting, game.dealer, {p: 0 for p in parties})
        out = leaving_seats(outcome, len(room.queue))
        new_seats: list[str | None] = list(seats)
        queue = list(seating.waiting)
        left = tuple((s, seats[s]) for s in out)
        queue.extend(p for _, p in left)
        entered = []
        for s in out:
            person = queue.pop(0)
            new_seats[s] = person
            entered.append((s, person))
        dealer = self.variant.next_dealer(record)
        return Booking(tuple(payments), net, dealer, Seating(tuple(new_seats), tuple(queue)),
                       state, left, tuple(entered), tuple(h.to_json() for h in horses))


def outcome_of(record: HandRecord) -> Outcome:
    """The 下桌 outcome of a finished 晃晃 hand."""
    if record.outcome != WIN:
        return Outcome(HandEnd.DRAWN)
    w = record.winners[0]
    if record.how == DISCARD_WIN:
        return Outcome(HandEnd.DISCARD, w, record.source)
    if record.how == ROBBED_KONG:
        return Outcome(HandEnd.ROB_KONG, w, record.source)
    return Outcome(HandEnd.SELF_DRAW, w)


def session_for(variant: Variant) -> Session:
    """The session rules of ``variant`` (the default for a variant of one's own)."""
    kind = {"taiwan": TaiwanSession, "huanghuang": HuanghuangSession, "golden": GBSession,
            "mcr": GBSession}.get(variant.id, Session)
    return kind(variant)
