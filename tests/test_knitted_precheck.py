"""The knitted-straight pre-check (组合龙) only rejects hands no knitted straight fits."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis._special import KNITTED
from laizi.analysis.core import knitted_straight_possible


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
