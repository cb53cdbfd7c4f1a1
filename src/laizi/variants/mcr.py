"""国标麻将 (``mcr``, Chinese Official): 144 tiles, the 81-fan table, 8 fan to win,
standard MCR settlement (8 + V from the discarder, 8 from the others).

It is ``golden`` without the indicator and the golden tile; see ``docs/rules/golden.md``.

The option ``profile=botzone`` plays Botzone's "Chinese Standard Mahjong" instead
(docs/datasets.md, "The botzone profile"): 136 tiles without flowers, and per-seat walls:
after the deal, the live wall holds the dealer's 20 further draws, then each next seat's
21 in play order (:func:`own_walls`); a seat draws only from its own wall, a kong's
replacement too, and the hand is drawn when the seat to draw has none left. Each hand is
a game of its own, in the prevalent wind its options give.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from laizi.core.descriptors import Presentation
from laizi.core.records import WRONG_WIN as WRONG_WIN_OUTCOME
from laizi.core.records import HandRecord
from laizi.engine.state import HandState
from laizi.reasons import Reason
from laizi.settlement import Payment
from laizi.variants._gb_common import TILE_SET
from laizi.variants._gb_variant import GB_FACTS, GBVariant
from laizi.variants.rule_options import MCROptions

__all__ = ["BOTZONE", "BOTZONE_DRAWS", "MCR", "VARIANT", "WRONG_WIN", "MCROptions",
           "own_walls", "wrong_win_net", "wrong_win_payments"]

BOTZONE = "botzone"
BOTZONE_DRAWS = 21
"""Draws in each seat's own wall (34 tiles: 13 dealt + 21); the dealer's first is its
14th tile of the deal."""
BOTZONE_TILES: tuple[int, ...] = tuple(t for t in TILE_SET if t < 34)
WRONG_WIN = (30, 10)
"""Botzone's 错和: the seat that calls a wrong 胡 loses 30, each other seat wins 10."""


def own_walls(live: Sequence[int], dealer: int, seats: int = 4) -> list[list[int]]:
    """Each seat's own draws (by seat) from the live wall after the deal: the dealer's
    ``BOTZONE_DRAWS - 1`` first, then every next seat's ``BOTZONE_DRAWS``, in order."""
    out: list[list[int]] = [[] for _ in range(seats)]
    at = 0
    for i in range(seats):
        seat = (dealer + i) % seats
        size = BOTZONE_DRAWS - (i == 0)
        out[seat] = list(live[at:at + size])
        at += size
    return out


def _botzone(options: Any) -> bool:
    # Options made as plain GBOptions (golden's base, which tests and tools share) have
    # no profile: the standard game.
    return getattr(options, "profile", "standard") == BOTZONE


def wrong_win_net(caller: int, seats: int = 4) -> list[int]:
    """Each seat's points after a wrong 胡 (错和) of ``caller`` on Botzone."""
    lose, win = WRONG_WIN
    return [-lose if s == caller else win for s in range(seats)]


def wrong_win_payments(record: HandRecord) -> list[Payment]:
    """The payments of a 错和 record: its caller (``source``) pays each other seat 10
    (Botzone's judge), one payment a seat, each itemised ``wrong_win``."""
    caller = record.source
    assert caller is not None
    win = WRONG_WIN[1]
    return [Payment(caller, s, win, (Reason.of("wrong_win"),))
            for s in range(len(record.seats)) if s != caller]


class MCR(GBVariant):
    """国标麻将 (Mahjong Competition Rules)."""

    id = "mcr"
    name = "国标麻将"
    golden = False
    options_type = MCROptions
    presentation = Presentation(order=4, facts=GB_FACTS)

    def tile_set(self, options: Any) -> list[int]:
        if _botzone(options):
            return list(BOTZONE_TILES)
        return super().tile_set(options)

    def flower_tiles(self, options: Any) -> frozenset[int]:
        return frozenset() if _botzone(options) else super().flower_tiles(options)

    def setup(self, game: HandState) -> None:
        if not _botzone(game.options):
            super().setup(game)
            return
        walls = own_walls(game.wall[game.head:game.tail], game.dealer, game.n)
        game.seat_streams = [list(reversed(w)) for w in walls]  # the next tile last
        game.own_walls = True
        game.wall = list(game.wall)  # draws reorder it (HandState.split_wall)

    def settles_wrong_win(self, options: Any) -> bool:
        return _botzone(options)  # Botzone's judge: −30 / +10, the game over

    def settle(self, record: HandRecord) -> list[Payment]:
        if record.outcome == WRONG_WIN_OUTCOME:
            return wrong_win_payments(record)
        return super().settle(record)

    def describe(self, record: HandRecord) -> str:
        if record.outcome == WRONG_WIN_OUTCOME:
            return f"错和 (wrong win): seat {record.source} declared 胡 without a win, " \
                   f"pays {WRONG_WIN[1]} to each other seat"
        return super().describe(record)

    def hand_options(self, options: Any, hand_number: int) -> Any:
        if _botzone(options):  # one hand a game: its own prevalent wind
            return options
        return super().hand_options(options, hand_number)


VARIANT = MCR()
