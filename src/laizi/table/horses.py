"""买马 (horse bets) of 荆州晃晃, settled between *people*.

Before the dealer's first discard every person in the room, seated or waiting, may buy one
horse (马). Each horse is one tile taken from the tail of the wall (the engine supplies the
tiles; this module only reads them). Only the value counts: 一..九 are 1..9 and 中 发 白 are
2, 3, 4. Value ``v`` names the seat ``(dealer + v - 1) mod 4`` in play order.

A horse follows its seat: for each payment of ``x`` from seat ``A`` to seat ``W`` in the
hand, a horse on ``W`` receives ``x`` from ``A``'s player and a horse on ``A`` pays ``x`` to
``W``'s player. A payment of a person to themselves is dropped. Both rules keep a hand
zero-sum, horses included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from laizi import tiles
from laizi.core.jsondata import JSON
from laizi.reasons import Reason
from laizi.settlement import Payment, read_payment_json

__all__ = [
    "Horse",
    "HorseError",
    "PersonPayment",
    "assign_horses",
    "buy_order",
    "hand_payments",
    "horse_payments",
    "horse_seat",
    "horse_value",
    "person_net",
    "seat_payments",
]

SEATS = 4
_DRAGON_VALUES = {tiles.RED: 2, tiles.GREEN: 3, tiles.WHITE: 4}


class HorseError(ValueError):
    """A horse or a payment broke a rule of 买马."""


def horse_value(tile: int) -> int:
    """The number a horse tile names: 一..九 → 1..9, 中 → 2, 发 → 3, 白 → 4."""
    if tiles.is_suited(tile):
        return tiles.rank(tile)
    if tile in _DRAGON_VALUES:
        return _DRAGON_VALUES[tile]
    raise HorseError(f"{tiles.name(tile)} cannot be a horse in 晃晃 (only 万筒条 and 中发白)")


def horse_seat(tile: int, dealer: int) -> int:
    """The seat a horse tile lands on: value 1 is the dealer, 2 the dealer's 下家, …"""
    if not 0 <= dealer < SEATS:
        raise HorseError(f"dealer seat {dealer} is not a seat 0-{SEATS - 1}")
    return (dealer + horse_value(tile) - 1) % SEATS


@dataclass(frozen=True, slots=True)
class Horse:
    """One bought horse: who bought it and the tile it was dealt."""

    person: str
    tile: int

    def to_json(self) -> JSON:
        return {"person": self.person, "tile": tiles.name(self.tile, "mpsz")}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Horse:
        return cls(str(data["person"]), tiles.parse_tile(str(data["tile"])))


@dataclass(frozen=True, slots=True)
class PersonPayment:
    """``payer`` pays ``amount`` (> 0) to ``payee`` (people, not seats), with reasons."""

    payer: str
    payee: str
    amount: int
    reasons: tuple[Reason, ...] = ()

    def to_json(self) -> JSON:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reasons": [r.to_json() for r in self.reasons],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> PersonPayment:
        """Read :meth:`to_json`'s form strictly (see ``Payment.from_json``)."""
        payer, payee, amount, reasons = read_payment_json(dict(data))
        return cls(str(payer), str(payee), amount, reasons)


def buy_order(seats: Sequence[str], queue: Sequence[str], dealer: int) -> tuple[str, ...]:
    """The order horse tiles are dealt in: seated from the dealer in play order, then the
    queue front first. (A reading: the seed does not say; any fixed order is fair because
    the tiles are hidden.)"""
    seated = tuple(seats[(dealer + i) % SEATS] for i in range(SEATS))
    return seated + tuple(queue)


def assign_horses(buyers: Sequence[str], tail_tiles: Sequence[int]) -> tuple[Horse, ...]:
    """Give the ``i``-th buyer the ``i``-th tile taken from the tail."""
    if len(set(buyers)) != len(buyers):
        raise HorseError("each person may buy only one horse")
    if len(tail_tiles) < len(buyers):
        raise HorseError(f"{len(buyers)} horses bought but only {len(tail_tiles)} tiles given")
    horses = tuple(Horse(p, t) for p, t in zip(buyers, tail_tiles, strict=False))
    for h in horses:
        horse_value(h.tile)
    return horses


def _check_seats(seats: Sequence[str]) -> None:
    if len(seats) != SEATS or len(set(seats)) != SEATS:
        raise HorseError(f"expected {SEATS} different seated people, got {list(seats)}")


def seat_payments(payments: Iterable[Payment], seats: Sequence[str]) -> list[PersonPayment]:
    """The table's own payments (between seats) written between the seated people."""
    _check_seats(seats)
    out = []
    for p in payments:
        if p.payer == p.payee:
            continue
        out.append(PersonPayment(seats[p.payer], seats[p.payee], p.amount, p.reasons))
    return out


def horse_payments(
    payments: Iterable[Payment],
    seats: Sequence[str],
    horses: Sequence[Horse],
    dealer: int,
) -> list[PersonPayment]:
    """The horse payments of one hand (possibly empty), each with its reasons.

    ``payments`` are the table's payments between seats (``laizi.settlement.Payment``);
    ``seats[i]`` is the person at seat ``i``. On a drawn hand there are no table payments,
    so no horse settles.
    """
    _check_seats(seats)
    buyers = [h.person for h in horses]
    if len(set(buyers)) != len(buyers):
        raise HorseError("each person may buy only one horse")
    on_seat: list[list[Horse]] = [[] for _ in range(SEATS)]
    for h in horses:
        on_seat[horse_seat(h.tile, dealer)].append(h)
    out: list[PersonPayment] = []
    for p in payments:
        if p.payer == p.payee or p.amount == 0:
            continue
        loser, winner = seats[p.payer], seats[p.payee]
        for h in on_seat[p.payee]:
            if h.person != loser:
                out.append(PersonPayment(loser, h.person, p.amount, _why(h, p, "on the payee")))
        for h in on_seat[p.payer]:
            if h.person != winner:
                out.append(PersonPayment(h.person, winner, p.amount, _why(h, p, "on the payer")))
    return out


def _why(h: Horse, p: Payment, side: str) -> tuple[Reason, ...]:
    seat = p.payee if side == "on the payee" else p.payer
    return (
        Reason.of("horse", tile=tiles.name(h.tile, "mpsz"), value=horse_value(h.tile),
                  seat=seat, payer=p.payer, payee=p.payee),
        *p.reasons,
    )


def hand_payments(
    payments: Iterable[Payment],
    seats: Sequence[str],
    horses: Sequence[Horse],
    dealer: int,
) -> tuple[list[PersonPayment], list[PersonPayment]]:
    """The whole hand between people: (table payments, horse payments)."""
    listed = list(payments)
    return seat_payments(listed, seats), horse_payments(listed, seats, horses, dealer)


def person_net(payments: Iterable[PersonPayment]) -> dict[str, int]:
    """Net result per person (received minus paid); sums to zero."""
    out: dict[str, int] = {}
    for p in payments:
        out[p.payer] = out.get(p.payer, 0) - p.amount
        out[p.payee] = out.get(p.payee, 0) + p.amount
    return out
