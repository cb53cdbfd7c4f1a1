"""The seat's view, typed: what :meth:`laizi.engine.Game.view` returns (plain JSON).

:data:`laizi.bots.base.View` is still the engine's untyped ``dict``, since
``Game.view`` and the hall hand bots that; :class:`SeatView` is the same dict as the
terminal, the env and the bots read it. It belongs with the engine: once ``Game.view``
returns a :class:`SeatView`, ``View`` can become it and the casts at the readers' edges
(:func:`seat_view`) go.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict, cast

from laizi.core.jsondata import JSON

__all__ = ["MeldJSON", "SeatTile", "SeatView", "seat_view"]

MeldJSON = TypedDict("MeldJSON", {
    "kind": str,  # a laizi.vocab.MeldKind
    "tiles": list[int],
    "from": NotRequired[int],  # the seat it was claimed from (吃 / 碰 / 明杠)
    "claimed": NotRequired[int],  # the tile claimed
})
"""A meld in front of a seat (副露 / 杠), as ``Meld.to_json`` writes it."""


class SeatTile(TypedDict):
    """A seat and its tile: the discard open to claims, the added kong open to robbing."""

    seat: int
    tile: int


class SeatView(TypedDict):
    """What one seat may know (``Game.view(seat)``): its own concealed tiles and
    everything public."""

    variant: str
    options: dict[str, object]
    seat: int | None
    """``None`` in a spectator's view (``Table.view_for(None)``): no concealed tile."""
    seats: int
    dealer: int
    phase: str  # a laizi.vocab.Phase
    turn: int
    hand: list[int]
    drawn: int | None
    """The tile just drawn, on the seat's own turn after a draw (not after a claim)."""
    melds: list[list[MeldJSON]]
    discards: list[list[int]]
    flowers: list[list[int]]
    hand_sizes: list[int]
    indicators: list[int]
    wildcard: int | None
    wall: int
    reserve: int
    scores: list[int]
    last_discard: SeatTile | None
    robbing: SeatTile | None
    passed_win: bool
    to_act: bool
    extra: NotRequired[JSON]
    """What the variant shows besides (``Variant.view_extra``): its own JSON, each
    variant's own shape."""
    result: NotRequired[dict[str, object]]
    """The hand's ``end`` event, once the hand is over."""


def seat_view(view: Mapping[str, object]) -> SeatView:
    """``view`` (``Game.view``'s or ``Table.view``'s dict) as the :class:`SeatView` it is."""
    return cast(SeatView, view)
