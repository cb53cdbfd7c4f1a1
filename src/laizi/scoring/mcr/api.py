"""The public entry point: :func:`score_hand` (with or without golden tiles)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from laizi.vocab import MeldKind

from .calculator import score_concrete, score_prepared
from .common import Flags
from .fans import FAN_BY_KEY
from .golden import score_golden
from .hand import MELD_KINDS, FanItem, FanResult, HandError, Meld, WinContext
from .inputs import (
    HELD,
    LAST_COPY,
    NO_KONG,
    NOT_A_WIN,
    NOT_LAST_COPY,
    check_hand,
    meld_packs,
    win_flags,
)
from .prepared import NO_MELDS, Prepared, PreparedMelds
from .reference import score_concrete as reference_score_concrete
from .result import FAN_ORDER, result_from
from .shapes import CHOW, KONG, PUNG, Pack

__all__ = ["score_hand", "seed_kong_fans"]

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
        return score_golden(concealed, list(melds), win, ctx, golden, golden_face, slow=slow,
                            seed_kongs=seed_kongs)
    fixed = meld_packs(melds)
    standing[win] -= 1
    fl, notes = win_flags(ctx, standing, fixed, win)
    if slow:
        best = reference_score_concrete(fixed, tuple(standing), win, fl, seed_kongs)
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
    concealed_kong = next(m for m in melds if m.kind == MeldKind.CONCEALED_KONG)
    melded_kong = next(m for m in melds if m.kind == MeldKind.KONG)
    fans = [f for f in result.fans if f is not mixed]
    fans.append(FanItem("concealed_kong", 1, (concealed_kong.tiles,)))
    fans.append(FanItem("melded_kong", 1, (melded_kong.tiles,)))
    fans.sort(key=lambda f: FAN_ORDER[f.key])
    points = FAN_BY_KEY["concealed_kong"].value + FAN_BY_KEY["melded_kong"].value
    return dataclasses.replace(result, total=result.total - mixed.points + points,
                               fans=tuple(fans))


_ONE: Final = tuple(1 << 8 * t for t in range(34))
"""One copy of tile t in a hand's counts written as one integer, a byte per tile (so the
melds' tiles are a sum, added to the concealed counts in one step)."""


def _meld_info(kind: str, t: int) -> tuple[Pack, int, int]:
    """A meld's pack, its tiles as counts (see _ONE) and whether it is a kong."""
    if kind == MeldKind.CHOW:
        return (CHOW, t + 1, True), _ONE[t] + _ONE[t + 1] + _ONE[t + 2], 0
    if kind == MeldKind.PUNG:
        return (PUNG, t, True), 3 * _ONE[t], 0
    return (KONG, t, kind == MeldKind.KONG), 4 * _ONE[t], 1


_MELD_INFO: Final = {(kind, t): _meld_info(kind, t)
                     for kind in MELD_KINDS
                     for t in range(34) if kind != MeldKind.CHOW or (t < 27 and t % 9 < 7)}

_KIND_BASE: Final[dict[str, int]] = {
    MeldKind.CHOW.value: 0, MeldKind.PUNG.value: 34, MeldKind.KONG.value: 68,
    MeldKind.CONCEALED_KONG.value: 102}
"""A meld's number is _KIND_BASE[kind] + tile (below 136); a seat's melds, in order, are
the int 1, then ×136 + each meld's number (one int to hash instead of a tuple of packs)."""
_SEATS: Final[dict[int, tuple[list[Pack], PreparedMelds]]] = {}
"""A seat's packs and what its melds bring, by that int: a table over a part of the hand
(a player's melds stay the same over many questions); kept bounded."""
_SEATS_MAX: Final = 1 << 14
_NO_FIXED: Final[list[Pack]] = []  # (never mutated, as the packs kept in _SEATS)
_UP_TO_4: Final = bytes(range(5))  # bytes.translate deletes these: what is left is a fifth copy


def _seat(melds: Sequence[Meld], key: int) -> tuple[list[Pack], PreparedMelds]:
    fixed = [_MELD_INFO[m.kind, m.tile][0] for m in melds]
    if len(_SEATS) >= _SEATS_MAX:
        _SEATS.clear()
    got = _SEATS[key] = (fixed, PreparedMelds(fixed))
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
        ml = NO_MELDS
        in_melds = kongs = 0
        hog = 4 in own
    # win_flags, on the counts at hand (the same checks, the same notes)
    notes: list[str] = []
    held = own[win] - 1  # other copies of the winning tile standing in the hand
    last_copy = ctx.last_copy
    if last_copy and held:
        last_copy = False
        notes.append(NOT_LAST_COPY)
    if in_melds == 3 and not last_copy:
        last_copy = True
        notes.append(LAST_COPY)
    about_kong = ctx.kong_replacement or ctx.robbed_kong
    if about_kong:
        if ctx.kong_replacement and not kongs:
            about_kong = False
            notes.append(NO_KONG)
        if ctx.robbed_kong and (in_melds or held):
            about_kong = False
            notes.append(HELD)
    # (tuple.__new__: a NamedTuple's own __new__ is a Python function, twice as dear)
    fl = tuple.__new__(Flags, (ctx.self_drawn, last_copy, about_kong,
                               ctx.last_tile_of_wall or ctx.last_discard, ctx.seat_wind,
                               ctx.prevalent_wind))
    best = score_prepared(Prepared(fixed, None, win, fl, None, own, ml, hog, b))
    if best is None:
        return FanResult(is_win=False, why_not=NOT_A_WIN)
    return result_from(best, win, ctx, notes)
