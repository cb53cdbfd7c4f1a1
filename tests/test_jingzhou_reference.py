"""The fast 荆州 hand judging held to a slow, obviously-correct reference (hypothesis).

The reference substitutes every laizi by every tile (all combinations) and searches melds
by plain recursion; it knows nothing of laizi.analysis.
"""

from __future__ import annotations

import itertools
from functools import cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from laizi import tiles as T
from laizi.core.melds import Meld
from laizi.core.records import DISCARD_WIN, SELF_DRAW
from laizi.variants.jingzhou_rules import (
    FENG,
    JIANG,
    PENG,
    QIDUI,
    QING,
    TILE_KINDS,
    TWO_FIVE_EIGHT,
    could_win,
    readings,
)

KINDS = [t for t in TILE_KINDS if t != T.RED]
LAIZI = T.parse_tile("1s")


@cache
def ref_melds(counts: tuple[int, ...], chows: bool) -> bool:
    """Can ``counts`` be split into melds (pungs; chows of 筒/条 when allowed)?"""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return True
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if ref_melds(tuple(c), chows):
            return True
        c[i] += 3
    if chows and 9 <= i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if ref_melds(tuple(c), chows):
            return True
    return False


def ref_standard(counts: list[int], pairs: frozenset[int] | None, chows: bool) -> bool:
    for p in range(34):
        if counts[p] >= 2 and (pairs is None or p in pairs):
            c = list(counts)
            c[p] -= 2
            if ref_melds(tuple(c), chows):
                return True
    return False


def ref_substitutions(hand: list[int], laizi: int) -> list[tuple[list[int], bool]]:
    """Every concrete hand the laizi can stand for, with a flag: all laizi as themselves."""
    k = hand[laizi]
    base = list(hand)
    base[laizi] = 0
    out = []
    for combo in itertools.combinations_with_replacement(KINDS, k):
        c = list(base)
        for t in combo:
            c[t] += 1
        if all(x <= 4 for x in c):
            out.append((c, all(t == laizi for t in combo)))
    return out


def ref_judge(hand: list[int], melds: list[Meld]) -> tuple[bool, bool, set[str]]:
    """(any valid win, some valid reading is hard, union of shape big hands) for a hand of
    concealed tiles (with ``melds`` all open pungs/chows)."""
    valid = hard = False
    bigs: set[str] = set()
    meld_tiles = [t for m in melds for t in m.tiles]
    held = hand[LAIZI]
    for c, natural in ref_substitutions(hand, LAIZI):
        tiles = [t for t in range(34) for _ in range(c[t])] + meld_tiles
        b: set[str] = set()
        std_any = ref_standard(c, None, True)
        if std_any and len({T.suit(t) for t in tiles}) == 1 and tiles[0] < 27:
            b.add(QING)
        if all(t >= 27 for t in tiles):
            b.add(FENG)
        if all(t in TWO_FIVE_EIGHT for t in tiles):
            b.add(JIANG)
        if std_any and ref_standard(c, None, False) and all(
                m.kind != "chow" for m in melds):
            b.add(PENG)
        if not melds and sum(c) == 14 and all(x % 2 == 0 for x in c):
            b.add(QIDUI)
        pihu = ref_standard(c, TWO_FIVE_EIGHT, True) and held <= 1
        if (b or pihu) and (melds or QIDUI in b):
            valid = True
            hard = hard or natural
            bigs |= b
    return valid, hard, bigs


@st.composite
def near_complete(draw: st.DrawFn) -> tuple[list[int], list[Meld]]:
    """Two open melds + 8 concealed tiles, often complete (built from melds), sometimes
    perturbed; tiles within the 4-copy limit."""
    melds = [Meld("pung", (t, t, t), 1, t) if draw(st.booleans())
             else Meld("chow", (t, t + 1, t + 2), 1, t)
             for t in draw(st.lists(st.sampled_from([x for x in KINDS if x < 27 and x % 9 < 7]),
                                    min_size=2, max_size=2))]
    parts: list[int] = []
    for _ in range(2):
        t = draw(st.sampled_from(KINDS))
        if t < 27 and t % 9 < 7 and draw(st.booleans()):
            parts += [t, t + 1, t + 2]
        else:
            parts += [t, t, t]
    pair = draw(st.sampled_from(KINDS))
    parts += [pair, pair]
    for _ in range(draw(st.integers(0, 2))):  # laizi standing in for a tile
        parts[draw(st.integers(0, 7))] = LAIZI
    if draw(st.integers(0, 3)) == 0:  # a random change: usually no longer a win
        parts[draw(st.integers(0, 7))] = draw(st.sampled_from(KINDS))
    counts = T.to_counts(parts)
    for m in melds:
        for t in m.tiles:
            counts[t] += 1
    assume(max(counts) <= 4)
    return T.to_counts(parts), melds


@settings(max_examples=200, deadline=None)
@given(near_complete())
def test_readings_agree_with_the_reference(case: tuple[list[int], list[Meld]]) -> None:
    hand, melds = case
    for how in (SELF_DRAW, DISCARD_WIN):
        found, why = readings(hand, melds, LAIZI, how, False)
        valid, hard, bigs = ref_judge(hand, melds)
        assert bool(found) == valid, (T.format(T.from_counts(hand)), melds, why)
        if found:
            assert any(r.hard for r in found) == hard
            got = set().union(*(set(r.big_hands) for r in found)) - {"全求人"}
            assert got == bigs
            assert could_win(hand, melds, LAIZI)


@st.composite
def closed_hands(draw: st.DrawFn) -> list[int]:
    """14 closed tiles: seven pairs with laizi and random changes mixed in."""
    tiles = [t for t in draw(st.lists(st.sampled_from(KINDS), min_size=7, max_size=7))
             for _ in range(2)]
    for _ in range(draw(st.integers(0, 3))):
        tiles[draw(st.integers(0, 13))] = draw(st.sampled_from([*KINDS, LAIZI, LAIZI]))
    return tiles


@settings(max_examples=120, deadline=None)
@given(closed_hands())
def test_closed_hands_agree_with_the_reference(tiles: list[int]) -> None:
    hand = T.to_counts(tiles)
    assume(max(hand) <= 4)
    found, _ = readings(hand, [], LAIZI, SELF_DRAW, False)
    valid, hard, _ = ref_judge(hand, [])
    assert bool(found) == valid
    if found:
        assert any(r.hard for r in found) == hard
