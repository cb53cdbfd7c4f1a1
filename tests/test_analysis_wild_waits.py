"""``waits(..., wild_tile=W)``: drawing the wildcard's own face adds a wildcard (issue 24.2).

The count vector holds no copy of the wildcard face (its copies are the ``wilds``), so
adding a real copy of W asks the wrong question: a drawn W is a wildcard. Held to a slow
reference that, for each of the 34 tiles, adds it (as a wildcard when it is W) and asks
the reference ``is_win`` directly.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from laizi.analysis import DEFAULT_RULES, WinRules, waits
from laizi.tiles import parse, to_counts

TWO_FIVE_EIGHT = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))
RULES = [
    DEFAULT_RULES,
    WinRules(pair_tiles=TWO_FIVE_EIGHT, chow_suits=frozenset({1, 2}), seven_pairs=False),
    WinRules(chow_suits=frozenset()),
    WinRules(thirteen_orphans=True, knitted=True),
]


def slow_waits(c: list[int], w: int, rules: WinRules, wild: int) -> list[int]:
    out = []
    for t in range(34):
        if t == wild:
            ok = ref.is_win(c, w + 1, rules)  # the drawn tile is a wildcard
        else:
            d = list(c)
            d[t] += 1
            ok = ref.is_win(d, w, rules)
        if ok:
            out.append(t)
    return out


def test_issue_example_counts_the_wildcard_itself() -> None:
    """``laizi analyze 1112455667789m --wild 5p``: 2m 3m and 5p (11 unseen, not 7)."""
    c = to_counts(parse("1112455667789m"))
    five_p = 13
    assert waits(c) == [1, 2]
    assert waits(c, 0, DEFAULT_RULES, wild_tile=five_p) == [1, 2, five_p]
    got = waits(c, 0, DEFAULT_RULES, wild_tile=five_p)
    assert sum(4 - c[t] for t in got) == 11


def test_a_wildcard_face_that_is_a_natural_wait_stays_listed() -> None:
    # 123m456p789s1122z with 5p wild: waits 1z 2z; a drawn 5p stands for either
    c = to_counts(parse("123m456p789s1122z"))
    assert waits(c, 0, DEFAULT_RULES, wild_tile=13) == [13, 27, 28]
    # with no wait at all, the wildcard face does not appear either
    far = to_counts(parse("147m258p369s1234z"))
    assert waits(far, 0, DEFAULT_RULES, wild_tile=13) == []


def test_bad_wild_tile() -> None:
    import pytest

    with pytest.raises(ValueError):
        waits(to_counts(parse("1112455667789m")), 0, DEFAULT_RULES, wild_tile=34)


@st.composite
def wild_hands(draw: st.DrawFn) -> tuple[list[int], int, int, WinRules]:
    """A 3n+1 hand (n <= 4), often near complete, its wildcard face removed from it."""
    rules = draw(st.sampled_from(RULES))
    wild = draw(st.integers(0, 33))
    w = draw(st.integers(0, 3))
    n = draw(st.integers(1, 4))
    tiles: list[int] = []
    for _ in range(n + 1):
        if draw(st.booleans()):
            s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            tiles += [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
        else:
            tiles += [draw(st.integers(0, 33))] * draw(st.sampled_from([2, 3]))
    tiles = draw(st.permutations(tiles))
    c = [0] * 34
    size = 3 * n + 1 - w
    for t in tiles:
        if sum(c) == size:
            break
        if t == wild or c[t] >= 4:
            continue  # the wildcard's copies are counted in w
        c[t] += 1
    start = draw(st.integers(0, 33))
    t = start
    while sum(c) < size:  # short of tiles: fill round the table from a random start
        if t != wild and c[t] < 4:
            c[t] += 1
        t = (t + 7) % 34
    return c, w, wild, rules


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wild_hands())
def test_waits_with_wild_tile_match_slow_reference(
    hand: tuple[list[int], int, int, WinRules],
) -> None:
    c, w, wild, rules = hand
    assert waits(c, w, rules, wild_tile=wild) == slow_waits(c, w, rules, wild)
