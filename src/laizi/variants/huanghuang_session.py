"""A 晃晃 room on the engine: deal, buy horses, play, settle between people, 下桌.

:func:`play_room_hand` is the whole cycle of one hand for a :class:`~laizi.table.room.Room`:

1. every buyer (default: everyone in the room) gets a horse; the tiles are dealt in
   :func:`~laizi.table.horses.buy_order` (seated from the dealer, then the queue);
2. the engine plays the hand with the room's dealer (hand ``k`` of a session with seed
   ``s`` is dealt from seed ``s + k``);
3. the table's payments and the horse payments are written between people and booked in
   the ledger, then 下桌 rotates the room.

The engine knows seats, not people: the option ``horses`` lists each buyer as a *party*
(0-3 the seat, 4-7 the waiting people front first), which is also how the hand record's
``huanghuang.horses`` names holders.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from laizi.engine.actions import Action
from laizi.engine.game import Game
from laizi.engine.variant import DISCARD_WIN, ROBBED_KONG
from laizi.records import HandRecord
from laizi.table.horses import (
    Horse,
    PersonPayment,
    assign_horses,
    buy_order,
    hand_payments,
    person_net,
)
from laizi.table.room import HandEnd, Outcome, Room, Rotation, finish_hand
from laizi.variants.huanghuang import VARIANT, HuanghuangOptions

__all__ = ["Chooser", "RoomHand", "new_hand", "outcome_of", "parties", "play_room_hand",
           "run_session", "settle_room_hand"]

Chooser = Callable[[str, dict[str, Any], Sequence[Action]], Action]
"""``choose(person, view, legal_actions) -> action`` for the person at a seat."""


@dataclass(frozen=True, slots=True)
class RoomHand:
    """One hand played in a room, settled between people."""

    game: Game
    seats: tuple[str, ...]
    dealer: int
    horses: tuple[Horse, ...]
    table: tuple[PersonPayment, ...]
    horse_payments: tuple[PersonPayment, ...]
    net: dict[str, int]
    outcome: Outcome
    rotation: Rotation

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.game.seed,
            "seats": list(self.seats),
            "dealer": self.dealer,
            "outcome": self.outcome.to_json(),
            "horses": [h.to_json() for h in self.horses],
            "table": [p.to_json() for p in self.table],
            "horse_payments": [p.to_json() for p in self.horse_payments],
            "net": dict(self.net),
            "rotation": self.rotation.to_json(),
        }


def parties(room: Room) -> tuple[str, ...]:
    """Party numbers of the people: seats 0-3, then the queue as 4, 5, …"""
    return room.seats + room.queue


def new_hand(room: Room, seed: int, buyers: Collection[str] | None = None,
             base: int = 1) -> tuple[Game, tuple[str, ...]]:
    """Deal a hand for ``room``: the game and the horse buyers in dealing order."""
    wanted = set(room.people if buyers is None else buyers)
    strangers = wanted - set(room.people)
    if strangers:
        raise ValueError(f"{sorted(strangers)[0]!r} is not in the room and cannot buy a horse")
    order = tuple(p for p in buy_order(room.seats, room.queue, room.dealer) if p in wanted)
    index = {p: i for i, p in enumerate(parties(room))}
    options = HuanghuangOptions(base=base, horses=tuple(index[p] for p in order))
    return Game(VARIANT, options, seed=seed, dealer=room.dealer), order


def outcome_of(record: HandRecord) -> Outcome:
    """The 下桌 outcome of a finished hand."""
    if record.outcome != "win":
        return Outcome(HandEnd.DRAWN)
    w = record.winners[0]
    if record.how == DISCARD_WIN:
        return Outcome(HandEnd.DISCARD, w, record.source)
    if record.how == ROBBED_KONG:
        return Outcome(HandEnd.ROB_KONG, w, record.source)
    return Outcome(HandEnd.SELF_DRAW, w)


def settle_room_hand(room: Room, game: Game, buyers: Sequence[str]) -> RoomHand:
    """Settle a finished ``game`` of ``room`` between people and rotate the room."""
    if not game.over or game.record is None:
        raise ValueError("the hand is not over yet")
    horses = assign_horses(buyers, game.extra.get("horse_tiles", []))
    table, horse = hand_payments(game.payments, room.seats, horses, game.dealer)
    result = person_net([*table, *horse])
    outcome = outcome_of(game.record)
    rotation = finish_hand(room, outcome, result)
    return RoomHand(game, room.seats, game.dealer, horses, tuple(table), tuple(horse),
                    result, outcome, rotation)


def play_room_hand(room: Room, seed: int, choose: Chooser,
                   buyers: Collection[str] | None = None, base: int = 1) -> RoomHand:
    """Deal, play (every decision by ``choose``), settle and rotate one hand."""
    game, order = new_hand(room, seed, buyers, base)
    while not game.over:
        for seat in game.to_act():
            game.apply(choose(room.seats[seat], game.view(seat), game.legal_actions(seat)))
    return settle_room_hand(room, game, order)


def run_session(room: Room, hands: int, seed: int, choose: Chooser,
                buyers: Callable[[Room, int], Collection[str]] | None = None,
                base: int = 1) -> Iterator[RoomHand]:
    """Play ``hands`` hands (hand ``k`` from seed ``seed + k``), yielding each settled hand;
    the room moves on by each hand's rotation. ``buyers(room, k)`` picks the horse buyers
    (default: everyone)."""
    for k in range(hands):
        hand = play_room_hand(room, seed + k, choose,
                              None if buyers is None else buyers(room, k), base)
        room = hand.rotation.room
        yield hand


def eager_chooser(seed: int) -> Chooser:
    """A fast seeded stand-in player for long checks: wins when it can, often claims."""
    import random

    rng = random.Random(seed)

    def choose(person: str, view: dict[str, Any], acts: Sequence[Action]) -> Action:
        for a in acts:
            if a.type == "win":
                return a
        claims = [a for a in acts if a.type in ("pung", "kong", "concealed_kong",
                                                   "added_kong")]
        if claims and rng.random() < 0.7:
            return rng.choice(claims)
        return rng.choice(acts)

    return choose


def check_session(people: int, hands: int, seed: int) -> dict[str, Any]:
    """Play a long seeded session and check every hand: ledgers sum to zero, nobody sits
    twice, nobody is lost. Returns counts (``python -m laizi.variants.huanghuang_session``).
    """
    from laizi.table.room import new_room

    names = [f"p{i}" for i in range(people)]
    room = new_room(names)
    ends: dict[str, int] = {}
    horse_total = 0
    for hand in run_session(room, hands, seed, eager_chooser(seed)):
        r = hand.rotation.room
        if sum(r.ledger.values()) != 0:
            raise AssertionError(f"hand {r.hands}: the ledger sums to {sum(r.ledger.values())}")
        if len(set(r.people)) != len(r.people) or set(r.people) != set(names):
            raise AssertionError(f"hand {r.hands}: someone sits twice or was lost: {r}")
        ends[hand.outcome.end.value] = ends.get(hand.outcome.end.value, 0) + 1
        horse_total += sum(p.amount for p in hand.horse_payments)
        room = r
    return {"hands": room.hands, "ends": ends, "horse_money_moved": horse_total,
            "ledger": dict(room.ledger)}


if __name__ == "__main__":
    import json
    import sys

    args = [int(a) for a in sys.argv[1:]]
    people, hands, seed = (args + [8, 2000, 1][len(args):])[:3]
    print(json.dumps(check_session(people, hands, seed), ensure_ascii=False))
