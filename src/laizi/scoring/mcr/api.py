"""The public entry point: :func:`score_hand` (with or without golden tiles)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from laizi import tiles as T

from . import reference
from .calculator import _NO_MELDS, Flags, Scored, _Hand, _Melds, score_concrete, score_prepared
from .fans import FAN_BY_KEY, FANS
from .hand import (
    ITEM_SHELL,
    RESULT_SHELL,
    FanItem,
    FanResult,
    HandError,
    Meld,
    WinContext,
    fan_item,
)
from .shapes import CHOW, KONG, PUNG, Pack

__all__ = ["check_hand", "meld_packs", "result_from", "score_hand", "seed_kong_fans",
           "win_flags"]

_WIN_TILE_FANS: Final = frozenset({
    "self_drawn", "last_tile", "last_tile_draw", "last_tile_claim",
    "out_with_replacement_tile", "robbing_the_kong",
})
_NO_GROUPS: Final = frozenset({"flower_tiles", "chicken_hand"})
_FAN_ORDER: Final = {f.key: i for i, f in enumerate(FANS)}

_NOT_LAST_COPY: Final = "和绝张 not counted: another copy of the winning tile is in the hand"
_LAST_COPY: Final = "和绝张 counted: the other three copies are in the hand's melds"
_NO_KONG: Final = "杠上开花 not counted: the hand has no kong"
_HELD: Final = "抢杠和 not counted: the hand already holds the robbed tile"

NOT_A_WIN: Final = (
    "the tiles form neither four sets and a pair, nor seven pairs, thirteen orphans, "
    "honours and knitted tiles, or a knitted straight with a set and a pair")


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
        notes.append(_NOT_LAST_COPY)
    if in_melds == 3 and not last_copy:
        last_copy = True
        notes.append(_LAST_COPY)
    about_kong = ctx.kong_replacement or ctx.robbed_kong
    if ctx.kong_replacement and not any(k == KONG for k, _, _ in fixed):
        about_kong = False
        notes.append(_NO_KONG)
    if ctx.robbed_kong and (in_melds or standing[win]):
        about_kong = False
        notes.append(_HELD)
    fl = Flags(ctx.self_drawn, last_copy, about_kong,
               ctx.last_tile_of_wall or ctx.last_discard, ctx.seat_wind, ctx.prevalent_wind)
    return fl, notes


# Which sets a fan without sources of its own lists: the reading (0), the winning tile
# (1: the situational fans) or none (2: 花牌, 无番和).
_GROUP_KIND: Final = {f.key: 1 if f.key in _WIN_TILE_FANS else 2 if f.key in _NO_GROUPS else 0
                      for f in FANS}
_FLOWERS_LAST: Final = _FAN_ORDER["flower_tiles"] == len(FANS) - 1
assert _FLOWERS_LAST  # result_from appends 花牌 after the sorted fans


_FAN_KEYS: Final = tuple(f.key for f in FANS)  # (by _FAN_ORDER: sorting ints beats a key function)
_KIND_BY_ORDER: Final = tuple(_GROUP_KIND[key] for key in _FAN_KEYS)

_FIXED_ITEMS: Final[dict[int, FanItem]] = {}
"""The items of the fans whose sets are the winning tile (situational fans) or none
(无番和), by (fan, count, winning tile) as one int: their few hundred possible values are
built once and shared by the results (they are frozen)."""
_FLOWER_ITEMS: Final = tuple(fan_item("flower_tiles", n, ()) for n in range(9))


def _fixed_item(order: int, count: int, win: int) -> FanItem:
    key = _FAN_KEYS[order]
    kind = _KIND_BY_ORDER[order]
    got = _FIXED_ITEMS[(order * 64 + count) * 64 + win] = fan_item(
        key, count, ((win,),) if kind == 1 else ())
    return got


# (module constants of this module's own: the compiled build reads them from C statics,
# where a name imported from an interpreted module is a dict lookup at every use)
_FAN_ITEM: Final = FanItem
_FAN_RESULT: Final = FanResult
_ITEM_SHELL: Final = ITEM_SHELL
_RESULT_SHELL: Final = RESULT_SHELL


def result_from(best: Scored, win: int, ctx: WinContext, notes: Sequence[str],
                golden_as: tuple[int, ...] = ()) -> FanResult:
    """The public result of the best reading: one item per fan in table order, with the
    sets behind it (its sources; the winning tile for situational fans; none for 花牌 and
    无番和; else the whole reading)."""
    total, table, sources, shape, reading = best
    items: list[FanItem] = []
    append = items.append
    orders = [_FAN_ORDER[key] for key in table]
    orders.sort()
    shell = _ITEM_SHELL
    for order in orders:
        key = _FAN_KEYS[order]
        count = table[key]
        got = sources.get(key)
        if got is not None:
            groups = tuple(got)
        else:
            kind = _KIND_BY_ORDER[order]
            if kind:  # the same item for every hand with this winning tile: shared
                fixed = _FIXED_ITEMS.get((order * 64 + count) * 64 + win)
                if fixed is None:
                    fixed = _fixed_item(order, count, win)
                append(fixed)
                continue
            groups = reading
        if shell is None:  # (hand.py: the interpreter refuses the faster way)
            append(FanItem(key, count, groups))
            continue
        item = shell()  # (hand.py: the frozen dataclass's constructor is slow)
        item.key = key
        item.count = count
        item.groups = groups
        item.__class__ = _FAN_ITEM  # type: ignore[assignment]
        append(item)  # type: ignore[arg-type]
    flowers = ctx.flowers
    if flowers > 0:
        append(_FLOWER_ITEMS[flowers])
        total += flowers
    result_shell = _RESULT_SHELL
    if result_shell is None:
        return FanResult(True, total, tuple(items), shape, reading, win, golden_as,
                         tuple(notes))
    res = result_shell()  # (as the items above)
    res.is_win = True
    res.total = total
    res.fans = tuple(items)
    res.shape = shape
    res.reading = reading
    res.win_tile = win
    res.golden_as = golden_as
    res.notes = tuple(notes)
    res.why_not = None
    res.__class__ = _FAN_RESULT  # type: ignore[assignment]
    return res  # type: ignore[return-value]


_DEFAULT_CONTEXT: Final = WinContext()


def score_hand(concealed: Sequence[int], melds: Sequence[Meld] = (),
               win_tile: int | None = None, context: WinContext | None = None, *,
               golden: int = 0, golden_face: int | None = None,
               concealed_and_melded_kong: bool = True, slow: bool = False) -> FanResult:
    """Score an MCR hand: every fan with the sets that earn it, and the total.

    ``concealed`` holds the concealed tiles *including* the winning tile ``win_tile``
    (default: the last of ``concealed``); ``melds`` the sets laid down (kongs included).
    With ``golden`` > 0, that many of the concealed copies of ``golden_face`` are golden
    tiles (wild): every assignment is tried and the highest total kept (就高); the result's
    ``golden_as`` says what each stood for. Raises :class:`HandError` for input that
    cannot be a hand; a hand that is complete in size but not a win returns a result with
    ``is_win`` false and ``why_not``.

    ``concealed_and_melded_kong``: one concealed and one melded kong score 明暗杠 (5 fan),
    as PyMahjongGB counts them (default); false: the seed's 81-fan table, 暗杠 2 + 明杠 1
    (:func:`seed_kong_fans`). ``slow``: score with the reference calculator
    (:mod:`.reference`) instead; the answer is the same (tests hold the two to each other).
    """
    ctx = context or _DEFAULT_CONTEXT
    if slow:  # (the reference counts the seed's kong fans itself: a check of the shortcut)
        return _score_general(concealed, melds, win_tile, ctx, golden, golden_face, True,
                              not concealed_and_melded_kong)
    got = None if golden else _score_fast(concealed, melds, win_tile, ctx)
    if got is None:
        got = _score_general(concealed, melds, win_tile, ctx, golden, golden_face, False,
                             False)
    if not concealed_and_melded_kong:
        got = seed_kong_fans(got, melds)
    return got


def _score_general(concealed: Sequence[int], melds: Sequence[Meld], win_tile: int | None,
                   ctx: WinContext, golden: int, golden_face: int | None,
                   slow: bool, seed_kongs: bool) -> FanResult:
    """:func:`score_hand` step by step: every check with its message, golden tiles, the
    reference calculator (``slow``, which then counts the seed's kong fans itself when
    ``seed_kongs``)."""
    concealed = list(concealed)
    win = concealed[-1] if win_tile is None and concealed else win_tile
    if win is None:
        raise HandError("no tiles")
    standing = check_hand(concealed, melds, win)
    if golden:
        from .golden import score_golden

        return score_golden(concealed, list(melds), win, ctx, golden, golden_face, slow=slow,
                            seed_kongs=seed_kongs)
    fixed = meld_packs(melds)
    standing[win] -= 1
    fl, notes = win_flags(ctx, standing, fixed, win)
    if slow:
        best = reference.score_concrete(fixed, tuple(standing), win, fl, seed_kongs)
    else:
        best = score_concrete(fixed, tuple(standing), win, fl)
    if best is None:
        return FanResult(is_win=False, why_not=NOT_A_WIN)
    return result_from(best, win, ctx, notes)


def seed_kong_fans(result: FanResult, melds: Sequence[Meld]) -> FanResult:
    """``result`` as the seed's 81-fan table counts kongs: one concealed and one melded
    kong earn 暗杠 (2) + 明杠 (1) instead of 明暗杠 (5), each with its own kong.

    Exact, not an approximation: kongs are always melds, so every reading of a hand (and,
    with golden tiles, every assignment) holds the same kongs and earns the same kong fan;
    the seed's count is the same 2 fan less for all of them, which changes neither the
    best reading nor the tie-breaks. Neither 暗杠 nor 明杠 is excluded by a fan that can
    stand beside one concealed and one melded kong.
    """
    if not result.is_win:
        return result
    mixed = next((f for f in result.fans if f.key == "concealed_and_melded_kong"), None)
    if mixed is None:
        return result
    concealed_kong = next(m for m in melds if m.kind == "concealed_kong")
    melded_kong = next(m for m in melds if m.kind == "kong")
    fans = [f for f in result.fans if f is not mixed]
    fans.append(FanItem("concealed_kong", 1, (concealed_kong.tiles,)))
    fans.append(FanItem("melded_kong", 1, (melded_kong.tiles,)))
    fans.sort(key=lambda f: _FAN_ORDER[f.key])
    points = FAN_BY_KEY["concealed_kong"].value + FAN_BY_KEY["melded_kong"].value
    return dataclasses.replace(result, total=result.total - mixed.points + points,
                               fans=tuple(fans))


_ONE: Final = tuple(1 << 8 * t for t in range(34))
"""One copy of tile t in a hand's counts written as one integer, a byte per tile (so the
melds' tiles are a sum, added to the concealed counts in one step)."""


def _meld_info(kind: str, t: int) -> tuple[Pack, int, int]:
    """A meld's pack, its tiles as counts (see _ONE) and whether it is a kong."""
    if kind == "chow":
        return (CHOW, t + 1, True), _ONE[t] + _ONE[t + 1] + _ONE[t + 2], 0
    if kind == "pung":
        return (PUNG, t, True), 3 * _ONE[t], 0
    return (KONG, t, kind == "kong"), 4 * _ONE[t], 1


_MELD_INFO: Final = {(kind, t): _meld_info(kind, t)
                     for kind in ("chow", "pung", "kong", "concealed_kong")
                     for t in range(34) if kind != "chow" or (t < 27 and t % 9 < 7)}

_KIND_BASE: Final = {"chow": 0, "pung": 34, "kong": 68, "concealed_kong": 102}
"""A meld's number is _KIND_BASE[kind] + tile (below 136); a seat's melds, in order, are
the int 1, then ×136 + each meld's number (one int to hash instead of a tuple of packs)."""
_SEATS: Final[dict[int, tuple[list[Pack], _Melds]]] = {}
"""A seat's packs and what its melds bring, by that int: a table over a part of the hand
(a player's melds stay the same over many questions); kept bounded."""
_SEATS_MAX: Final = 1 << 14
_NO_FIXED: Final[list[Pack]] = []  # (never mutated, as the packs kept in _SEATS)
_UP_TO_4: Final = bytes(range(5))  # bytes.translate deletes these: what is left is a fifth copy


def _seat(melds: Sequence[Meld], key: int) -> tuple[list[Pack], _Melds]:
    fixed = [_MELD_INFO[m.kind, m.tile][0] for m in melds]
    if len(_SEATS) >= _SEATS_MAX:
        _SEATS.clear()
    got = _SEATS[key] = (fixed, _Melds(fixed))
    return got


def _score_fast(concealed: Sequence[int], melds: Sequence[Meld], win_tile: int | None,
                ctx: WinContext) -> FanResult | None:
    """:func:`score_hand` without golden tiles, checks and all, in fewer steps; ``None``
    when the input is not a plain valid hand (the caller then takes the general path,
    which says what is wrong)."""
    try:
        b = bytes(concealed)  # tile ids 0-255, or TypeError / ValueError
    except (TypeError, ValueError):
        return None
    nm = len(melds)
    if len(b) + 3 * nm != 14 or nm > 4:
        return None
    # The counts as one int, a byte per tile (_ONE): in CPython 3.11 about as cheap as
    # counting in a bytearray, native in the compiled build, and the melds' counts are
    # then one addition.
    whole = 0
    try:
        for t in b:
            whole += _ONE[t]  # IndexError for a tile id above 33
    except IndexError:
        return None
    if win_tile is None:
        win = b[-1]
    elif type(win_tile) is int and win_tile in b:
        win = win_tile
    else:
        return None
    own = whole.to_bytes(34, "little")  # (at most 14 tiles: no count reaches 256)
    if nm:
        key = 1
        for m in melds:
            key = key * 136 + _KIND_BASE[m.kind] + m.tile
        seat = _SEATS.get(key)
        if seat is None:
            seat = _seat(melds, key)
        fixed, ml = seat
        full = (whole + ml.counts).to_bytes(34, "little")
        if full.translate(None, _UP_TO_4):
            return None  # a fifth copy
        in_melds = full[win] - own[win]
        kongs = ml.kongs
        hog = full.count(4) > kongs  # (a kong's tile is held four times, and no more)
    else:
        if own.translate(None, _UP_TO_4):
            return None
        fixed = _NO_FIXED
        ml = _NO_MELDS
        in_melds = kongs = 0
        hog = 4 in own
    # win_flags, on the counts at hand (the same checks, the same notes)
    notes: list[str] = []
    held = own[win] - 1  # other copies of the winning tile standing in the hand
    last_copy = ctx.last_copy
    if last_copy and held:
        last_copy = False
        notes.append(_NOT_LAST_COPY)
    if in_melds == 3 and not last_copy:
        last_copy = True
        notes.append(_LAST_COPY)
    about_kong = ctx.kong_replacement or ctx.robbed_kong
    if about_kong:
        if ctx.kong_replacement and not kongs:
            about_kong = False
            notes.append(_NO_KONG)
        if ctx.robbed_kong and (in_melds or held):
            about_kong = False
            notes.append(_HELD)
    # (tuple.__new__: a NamedTuple's own __new__ is a Python function, twice as dear)
    fl = tuple.__new__(Flags, (ctx.self_drawn, last_copy, about_kong,
                               ctx.last_tile_of_wall or ctx.last_discard, ctx.seat_wind,
                               ctx.prevalent_wind))
    best = score_prepared(_Hand(fixed, None, win, fl, None, own, ml, hog, b))
    if best is None:
        return FanResult(is_win=False, why_not=NOT_A_WIN)
    return result_from(best, win, ctx, notes)
