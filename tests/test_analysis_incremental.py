"""``shanten_plus`` (one hand, each candidate tile added) against ``shanten`` itself on
every candidate, for every profile's rules and rule sets with the special shapes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import WinRules, shanten
from laizi.analysis.incremental import shanten_minus, shanten_plus
from laizi.bots.profiles import PROFILES

RULES: list[WinRules] = [
    WinRules(),
    WinRules(seven_pairs=False),
    WinRules(seven_pairs=True, thirteen_orphans=True),
    WinRules(seven_pairs=True, thirteen_orphans=True, knitted=True),
    WinRules(knitted=True, seven_pairs=False),
    WinRules(pair_tiles=frozenset({1, 4, 7, 10, 13, 16, 19, 22, 25}),
             chow_suits=frozenset({1, 2}), seven_pairs=False),
]
for _p in PROFILES.values():
    RULES.extend(_p.rules_open + _p.rules_closed + _p.pung_rules)


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], int]:
    """A 3n+1 hand (wildcards included) of 1 to 13 tiles + 0-3 wildcards, at most four
    of a kind, often crowded into one or two suits."""
    wilds = draw(st.integers(0, 3))
    size = draw(st.sampled_from([1, 4, 7, 10, 13])) - wilds
    size = max(size, 0) if size >= 0 else size + 3
    pool = draw(st.sampled_from([range(34), range(9), range(18), range(27, 34),
                                 [0, 8, 9, 17, 18, 26, *range(27, 34)]]))
    counts = [0] * 34
    for _ in range(size):
        free = [t for t in pool if counts[t] < 4] or [t for t in range(34) if counts[t] < 4]
        counts[draw(st.sampled_from(free))] += 1
    return counts, wilds


@settings(max_examples=600, deadline=None)
@given(hands(), st.integers(0, len(RULES) - 1))
def test_shanten_plus_is_shanten_of_each_tile_added(hand: tuple[list[int], int],
                                                     which: int) -> None:
    counts, wilds = hand
    rules = RULES[which]
    tiles = [t for t in range(34) if counts[t] < 4]
    expected = []
    for t in tiles:
        counts[t] += 1
        expected.append(shanten(counts, wilds, rules))
        counts[t] -= 1
    assert shanten_plus(counts, wilds, rules, tiles) == expected


def test_shanten_plus_refuses_a_wrong_total() -> None:
    import pytest
    with pytest.raises(ValueError):
        shanten_plus([1] * 2 + [0] * 32, 0, WinRules(), [5])


@settings(max_examples=600, deadline=None)
@given(hands(), st.integers(0, len(RULES) - 1), st.integers(0, 33))
def test_shanten_minus_is_shanten_of_each_tile_taken_out(hand: tuple[list[int], int],
                                                         which: int, extra: int) -> None:
    counts, wilds = hand
    if counts[extra] < 4:
        counts[extra] += 1  # a 3n+2 hand: each discard leaves a 3n+1 one
    else:
        wilds += 1
    rules = RULES[which]
    tiles = [t for t in range(34) if counts[t]]
    expected = []
    for t in tiles:
        counts[t] -= 1
        expected.append(shanten(counts, wilds, rules))
        counts[t] += 1
    assert shanten_minus(counts, wilds, rules, tiles) == expected


def test_shanten_minus_refuses_a_tile_not_held() -> None:
    import pytest
    with pytest.raises(ValueError):
        shanten_minus([2] + [0] * 33, 0, WinRules(), [1])


@settings(max_examples=600, deadline=None)
@given(hands(), st.integers(0, len(RULES) - 1), st.integers(0, 33))
def test_a_tile_lowers_shanten_by_one_at_most(hand: tuple[list[int], int], which: int,
                                              t: int) -> None:
    """What the greedy bot's improvers rely on to skip a shape that is further than the
    best (every shape but the knitted ones)."""
    counts, wilds = hand
    rules = RULES[which]
    if rules.knitted or counts[t] >= 4:
        return
    before = shanten(counts, wilds, rules)
    counts[t] += 1
    assert shanten(counts, wilds, rules) >= before - 1
