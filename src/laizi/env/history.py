"""The public history of a hand, for observation version 1 (``docs/env.md``).

Every seat's discards in order, with which were claimed, by whom and into what (chow,
pung, kong, or a win on the discard), and which discard followed a 地听 declaration.
:class:`PublicHistory` is fed the table's *public* event stream (what a spectator is sent:
``Table.events(None)``), so no concealed tile can enter it: the deal and other seats'
draws are hidden there, and the answers to a discard are dropped until the window closes
(its outcome is the public ``claim`` event). It reads only the fields of those events that
are public anyway, so feeding it the full engine log gives the same history (a test holds
this).

The features (:func:`encode_history`) are ``float32`` of shape :data:`HISTORY_SHAPE` =
``(4, 32, 48)``: relative seat (0 = me, 1 = next in play order, …; a 3-seat variant leaves
row 3 empty) × the seat's last :data:`MAX_DISCARDS` discards, oldest first (slot ``k`` is
the seat's ``k``-th discard while it has made at most 32; unused slots are zero) ×

=====  ============================================================================
index  feature
=====  ============================================================================
0-33   the tile discarded (one-hot)
34     the slot holds a discard
35     the discard was claimed (a meld or a win)
36-39  who claimed it (relative seat, one-hot; several for 一炮多响)
40-42  claimed for a chow with the tile lowest / in the middle / highest
43     claimed for a pung
44     claimed for a kong (明杠)
45     won on (点炮)
46     the discard right after the seat declared 地听 (Taiwan)
47     the discard's place among all the hand's discards, ``k / 128`` (0 = the first)
=====  ============================================================================

Whether a discard was the tile just drawn (摸切) is not there: the engine's public stream
does not say it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

from laizi.table.table import Entry
from laizi.vocab import ActionType, GameEventType, MeldKind, WinHow

__all__ = [
    "HISTORY_FEATURES",
    "HISTORY_SHAPE",
    "MAX_DISCARDS",
    "Claim",
    "Discard",
    "PublicHistory",
    "encode_history",
]

MAX_DISCARDS = 32
"""Discards kept per seat (the latest). Random agents made at most 26 in 300 hands of any
variant (MCR); Taiwan's and Jingzhou's walls give fewer."""
HISTORY_FEATURES = 48
HISTORY_SHAPE = (4, MAX_DISCARDS, HISTORY_FEATURES)
_MAX_SEATS = 4
_ORDER_SCALE = float(_MAX_SEATS * MAX_DISCARDS)

_TILE, _PRESENT, _CLAIMED, _CLAIMER = 0, 34, 35, 36
_CHOW, _PUNG, _KONG, _WON, _DECLARED, _ORDER = 40, 43, 44, 45, 46, 47

ClaimKind = Literal[MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, ActionType.WIN]
"""What a discard was claimed into: a meld (吃 / 碰 / 明杠) or a win on it (点炮)."""


@dataclass(frozen=True, slots=True)
class Claim:
    """Who took a discard, and into what."""

    seat: int
    kind: ClaimKind
    meld: tuple[int, ...] = ()
    """The meld formed (sorted tiles); empty for a win."""


@dataclass(slots=True)
class Discard:
    """One discard of one seat."""

    tile: int
    order: int
    """Its place among all discards of the hand (0 = the first)."""
    declared: bool = False
    """The seat declared 地听 just before it (the discard keeps the hand ready)."""
    claims: list[Claim] = field(default_factory=list)


class PublicHistory:
    """The discards of one hand, built from public events (:meth:`feed`)."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.discards: list[list[Discard]] = [[] for _ in range(seats)]
        self._count = 0
        self._declaring: set[int] = set()

    def reset(self) -> None:
        self.discards = [[] for _ in range(self.seats)]
        self._count = 0
        self._declaring = set()

    def feed(self, events: Iterable[Entry]) -> None:
        """Take in the next events of the hand's stream (a ``start`` begins a new hand).

        Only public facts are read: turn actions (``discard``, ``declare``; never an
        ``answer``, which stays secret until resolved), ``claim`` events and how the
        ``end`` came about (the winners and the discarder — not the revealed hands)."""
        for ev in events:
            kind = ev.get("type")
            if kind == GameEventType.START:
                self.reset()
            elif kind == GameEventType.ACTION and not ev.get("answer"):
                action = ev["action"]
                seat = int(action["seat"])
                if action["type"] == ActionType.DISCARD:
                    self.discards[seat].append(Discard(int(action["tile"]), self._count,
                                                       declared=seat in self._declaring))
                    self._declaring.discard(seat)
                    self._count += 1
                elif action["type"] == ActionType.DECLARE:  # 地听, on the seat's own turn
                    self._declaring.add(seat)
            elif kind == GameEventType.CLAIM:
                meld = ev["meld"]
                self._claim(int(meld["from"]), int(meld["claimed"]),
                            Claim(int(ev["seat"]), meld["kind"], tuple(meld["tiles"])))
            elif kind == GameEventType.END:
                record = ev["record"]
                if record.get("how") == WinHow.DISCARD and record.get("from") is not None:
                    source = int(record["from"])
                    pool = self.discards[source]
                    if pool:
                        for w in record.get("winners", []):
                            pool[-1].claims.append(Claim(int(w), ActionType.WIN))

    def _claim(self, source: int, tile: int, claim: Claim) -> None:
        pool = self.discards[source]
        # A claim always takes the discarder's latest discard: the window is right after it.
        if not pool or pool[-1].tile != tile:
            raise ValueError(f"claim of tile {tile} from seat {source}, whose last discard "
                             f"is {pool[-1].tile if pool else None}")
        pool[-1].claims.append(claim)


def encode_history(history: PublicHistory, seat: int
                   ) -> npt.NDArray[np.float32]:
    """The history features as ``seat`` sees them (seats relative to it; see the module
    docstring). The same for every seat up to the rotation: it is all public."""
    out = np.zeros(HISTORY_SHAPE, dtype=np.float32)
    n = history.seats
    for s in range(n):
        r = (s - seat) % n
        if r >= _MAX_SEATS:
            continue
        for k, d in enumerate(history.discards[s][-MAX_DISCARDS:]):
            row = out[r, k]
            row[_TILE + d.tile] = 1.0
            row[_PRESENT] = 1.0
            row[_DECLARED] = d.declared
            row[_ORDER] = min(1.0, d.order / _ORDER_SCALE)
            for c in d.claims:
                row[_CLAIMED] = 1.0
                cr = (c.seat - seat) % n
                if cr < _MAX_SEATS:
                    row[_CLAIMER + cr] = 1.0
                if c.kind == MeldKind.CHOW:
                    row[_CHOW + c.meld.index(d.tile)] = 1.0
                elif c.kind == MeldKind.PUNG:
                    row[_PUNG] = 1.0
                elif c.kind == MeldKind.KONG:
                    row[_KONG] = 1.0
                else:
                    row[_WON] = 1.0
    return out
