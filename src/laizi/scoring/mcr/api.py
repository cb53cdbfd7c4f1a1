"""The public entry point: :func:`score_hand` (with or without golden tiles)."""

from __future__ import annotations

from collections.abc import Sequence

from laizi import tiles as T

from .calculator import Flags, Scored, score_concrete
from .fans import FANS
from .hand import FanItem, FanResult, HandError, Meld, WinContext
from .shapes import CHOW, KONG, PUNG, Pack

__all__ = ["check_hand", "meld_packs", "result_from", "score_hand", "win_flags"]

_WIN_TILE_FANS = frozenset({
    "self_drawn", "last_tile", "last_tile_draw", "last_tile_claim",
    "out_with_replacement_tile", "robbing_the_kong",
})
_NO_GROUPS = frozenset({"flower_tiles", "chicken_hand"})
_FAN_ORDER = {f.key: i for i, f in enumerate(FANS)}

NOT_A_WIN = ("the tiles form neither four sets and a pair, nor seven pairs, thirteen "
             "orphans, honours and knitted tiles, or a knitted straight with a set and a pair")


def meld_packs(melds: Sequence[Meld]) -> list[Pack]:
    out: list[Pack] = []
    for m in melds:
        if m.kind == "chow":
            out.append((CHOW, m.tile + 1, True))
        elif m.kind == "pung":
            out.append((PUNG, m.tile, True))
        else:
            out.append((KONG, m.tile, m.kind == "kong"))
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
        notes.append("和绝张 not counted: another copy of the winning tile is in the hand")
    if in_melds == 3 and not last_copy:
        last_copy = True
        notes.append("和绝张 counted: the other three copies are in the hand's melds")
    about_kong = ctx.kong_replacement or ctx.robbed_kong
    if ctx.kong_replacement and not any(k == KONG for k, _, _ in fixed):
        about_kong = False
        notes.append("杠上开花 not counted: the hand has no kong")
    if ctx.robbed_kong and (in_melds or standing[win]):
        about_kong = False
        notes.append("抢杠和 not counted: the hand already holds the robbed tile")
    fl = Flags(ctx.self_drawn, last_copy, about_kong,
               ctx.last_tile_of_wall or ctx.last_discard, ctx.seat_wind, ctx.prevalent_wind)
    return fl, notes


def result_from(best: Scored, win: int, ctx: WinContext, notes: Sequence[str],
                golden_as: tuple[int, ...] = ()) -> FanResult:
    items: list[FanItem] = []
    table = best.table
    keys = [k for k, n in table.items() if n > 0 and k != "flower_tiles"]
    if ctx.flowers > 0:
        keys.append("flower_tiles")
    keys.sort(key=_FAN_ORDER.__getitem__)
    sources = best.sources
    for key in keys:
        n = ctx.flowers if key == "flower_tiles" else table[key]
        got = sources.get(key)
        if got is not None:
            groups: tuple[tuple[int, ...], ...] = tuple(got)
        elif key in _WIN_TILE_FANS:
            groups = ((win,),)
        elif key in _NO_GROUPS:
            groups = ()
        else:
            groups = best.reading
        items.append(FanItem(key, n, groups))
    # positional: is_win, total, fans, shape, reading, win_tile, golden_as, notes
    return FanResult(True, best.total + ctx.flowers, tuple(items), best.shape, best.reading,
                     win, golden_as, tuple(notes))


def score_hand(concealed: Sequence[int], melds: Sequence[Meld] = (),
               win_tile: int | None = None, context: WinContext | None = None, *,
               golden: int = 0, golden_face: int | None = None) -> FanResult:
    """Score an MCR hand: every fan with the sets that earn it, and the total.

    ``concealed`` holds the concealed tiles *including* the winning tile ``win_tile``
    (default: the last of ``concealed``); ``melds`` the sets laid down (kongs included).
    With ``golden`` > 0, that many of the concealed copies of ``golden_face`` are golden
    tiles (wild): every assignment is tried and the highest total kept (就高); the result's
    ``golden_as`` says what each stood for. Raises :class:`HandError` for input that
    cannot be a hand; a hand that is complete in size but not a win returns a result with
    ``is_win`` false and ``why_not``.
    """
    ctx = context or WinContext()
    concealed = list(concealed)
    win = concealed[-1] if win_tile is None and concealed else win_tile
    if win is None:
        raise HandError("no tiles")
    standing = check_hand(concealed, melds, win)
    if golden:
        from .golden import score_golden

        return score_golden(concealed, list(melds), win, ctx, golden, golden_face)
    fixed = meld_packs(melds)
    standing[win] -= 1
    fl, notes = win_flags(ctx, standing, fixed, win)
    best = score_concrete(fixed, tuple(standing), win, fl)
    if best is None:
        return FanResult(is_win=False, why_not=NOT_A_WIN)
    return result_from(best, win, ctx, notes)
