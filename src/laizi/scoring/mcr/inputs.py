"""The calculator's input checked and turned into its own terms: :func:`check_hand`,
the melds as packs (:func:`meld_packs`), the context's flags checked against the hand
(:func:`win_flags`, with a note for each flag overridden)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from laizi import tiles as T
from laizi.vocab import MeldKind

from .common import Flags
from .hand import HandError, Meld, WinContext
from .shapes import CHOW, KONG, PUNG, Pack

__all__ = ["HELD", "LAST_COPY", "NOT_A_WIN", "NOT_LAST_COPY", "NO_KONG", "check_hand",
           "meld_packs", "win_flags"]

NOT_LAST_COPY: Final = "和绝张 not counted: another copy of the winning tile is in the hand"
LAST_COPY: Final = "和绝张 counted: the other three copies are in the hand's melds"
NO_KONG: Final = "杠上开花 not counted: the hand has no kong"
HELD: Final = "抢杠和 not counted: the hand already holds the robbed tile"

NOT_A_WIN: Final = (
    "the tiles form neither four sets and a pair, nor seven pairs, thirteen orphans, "
    "honours and knitted tiles, or a knitted straight with a set and a pair")


def meld_packs(melds: Sequence[Meld]) -> list[Pack]:
    out: list[Pack] = []
    for m in melds:
        if m.kind == MeldKind.CHOW:
            out.append((CHOW, m.tile + 1, True))
        elif m.kind == MeldKind.PUNG:
            out.append((PUNG, m.tile, True))
        else:
            out.append((KONG, m.tile, m.kind == MeldKind.KONG))
    return out


def check_hand(concealed: Sequence[int], melds: Sequence[Meld], win_tile: int,
               wild: int = 0) -> list[int]:
    """Raise :class:`HandError` unless the tiles can be a complete 14-tile hand; return
    the counts of the concealed tiles.

    ``wild`` golden tiles are part of ``concealed`` but stand for anything.
    """
    for t in (*concealed, win_tile):
        if not isinstance(t, int) or not 0 <= t < T.NUM_KINDS:
            raise HandError(f"{t!r} is not a tile id 0-33 (flowers are given as a count)")
    if len(melds) > 4:
        raise HandError(f"at most 4 melds, got {len(melds)}")
    size = len(concealed) + 3 * len(melds)
    if size != 14:
        raise HandError(f"a complete hand has 14 tiles (a kong counting as 3): "
                        f"{len(concealed)} concealed + {len(melds)} melds make {size}")
    if win_tile not in concealed:
        raise HandError(f"the winning tile {T.name(win_tile, 'mpsz')} must be among the "
                        f"concealed tiles")
    own = [0] * T.NUM_KINDS
    for t in concealed:
        own[t] += 1
    counts = list(own)
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    if max(counts) > 4:
        over = [t for t in range(T.NUM_KINDS) if counts[t] > 4]
        raise HandError(f"more than four copies of {T.name(over[0], 'mpsz')}")
    del wild
    return own


def win_flags(ctx: WinContext, standing: Sequence[int], fixed: list[Pack],
              win: int) -> tuple[Flags, list[str]]:
    """The context's flags checked against the hand; notes say what was overridden."""
    notes: list[str] = []
    in_melds = 0
    for kind, t, _ in fixed:
        if kind == CHOW:
            in_melds += win in (t - 1, t, t + 1)
        else:
            in_melds += 3 * (t == win) if kind == PUNG else 4 * (t == win)
    last_copy = ctx.last_copy
    if last_copy and standing[win]:
        last_copy = False
        notes.append(NOT_LAST_COPY)
    if in_melds == 3 and not last_copy:
        last_copy = True
        notes.append(LAST_COPY)
    about_kong = ctx.kong_replacement or ctx.robbed_kong
    if ctx.kong_replacement and not any(k == KONG for k, _, _ in fixed):
        about_kong = False
        notes.append(NO_KONG)
    if ctx.robbed_kong and (in_melds or standing[win]):
        about_kong = False
        notes.append(HELD)
    fl = Flags(ctx.self_drawn, last_copy, about_kong,
               ctx.last_tile_of_wall or ctx.last_discard, ctx.seat_wind, ctx.prevalent_wind)
    return fl, notes


