"""The knitted-straight pre-check (组合龙) only rejects hands no knitted straight fits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import WinRules, shanten
from laizi.analysis._special import KNITTED, knitted_singles_overlap
from laizi.analysis.compiled_rules import compiled
from laizi.analysis.knitted import knitted_straight_overlap, knitted_straight_possible


def _some_knitted_straight_fits(c: list[int], wilds: int) -> bool:
    """Reference: some of the six knitted straights misses at most ``wilds`` tiles."""
    return any(sum(1 for t in ks if c[t] == 0) <= wilds for ks in KNITTED)


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34), st.integers(0, 10))
def test_precheck_never_rejects_a_fitting_hand(c: list[int], wilds: int) -> None:
    if _some_knitted_straight_fits(c, wilds):
        assert knitted_straight_possible(c, wilds)


def test_precheck_worked_examples() -> None:
    c = [0] * 34
    for t in (0, 3, 6, 10, 13, 16, 20, 23):  # 147m 258p 36s: one tile short
        c[t] = 1
    assert not knitted_straight_possible(c, 0)
    assert knitted_straight_possible(c, 1)
    c[26] = 1  # 9s completes it
    assert knitted_straight_possible(c, 0)
    # 147 in every suit: each suit's best class is 147, yet the three suits need three
    # different classes; the bound lets it through (the full test then refuses it).
    d = [0] * 34
    for s in range(3):
        for r in (0, 3, 6):
            d[s * 9 + r] = 1
    assert knitted_straight_possible(d, 0) and not _some_knitted_straight_fits(d, 0)


_KNITTED_RULES = WinRules(pair_tiles=None, seven_pairs=True, thirteen_orphans=True,
                          knitted=True)
_PLAIN_RULES = WinRules(pair_tiles=None, seven_pairs=True, thirteen_orphans=True)


@st.composite
def _near_knitted(draw: st.DrawFn) -> tuple[list[int], int]:
    """3n+1 or 3n+2 hands (n >= 3) built around a knitted straight, some tiles swapped."""
    ks = list(draw(st.sampled_from(KNITTED)))
    keep = draw(st.integers(4, 9))
    tiles = draw(st.permutations(ks))[:keep]
    size = draw(st.sampled_from((10, 11, 13, 14, 16, 17)))  # 16-17: the capped path
    wilds = draw(st.integers(0, 2))
    while len(tiles) + wilds < size:
        tiles.append(draw(st.integers(0, 33)))
    c = [0] * 34
    for t in tiles[: size - wilds]:
        if c[t] < 4:
            c[t] += 1
        else:
            wilds += 1
    return c, wilds


@settings(max_examples=400, deadline=None)
@given(_near_knitted())
def test_shanten_skips_the_knitted_search_only_when_it_cannot_help(
        hand: tuple[list[int], int]) -> None:
    """The bound (held tiles of a knitted straight + full sets + pair) only skips the
    search over the six straights when 组合龙 could not lower the shanten: the result
    equals the unpruned minimum."""
    c, w = hand
    total = sum(c) + w
    n = (total - 1) // 3
    unpruned = min(shanten(c, w, _PLAIN_RULES),
                   3 * n + 1 - w - knitted_straight_overlap(c, n, compiled(_KNITTED_RULES)))
    if n == 4:  # 全不靠 (14 tiles)
        unpruned = min(unpruned, 13 - w - knitted_singles_overlap(bytes(c)))
    assert shanten(c, w, _KNITTED_RULES) == max(unpruned, -1)
