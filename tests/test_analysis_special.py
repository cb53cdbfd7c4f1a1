"""The special shapes' fast paths held to the slow reference (tests/reference.py).

十三幺, 全不靠 / 七星不靠 and 组合龙 are answered from the group tables (``is_win``, ``waits``,
``shanten``) behind cheap necessary conditions. Random hands almost never come near these
shapes, so the hands here are built around them: the 13 orphans or a knitted straight
(+ honours, + a meld and a pair), some tiles swapped for random ones, some turned into
wildcards, at every total the shapes allow (10/11 tiles: 组合龙 + a pair with one meld
exposed; 13/14; 16/17 for the capped search of larger hands).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from laizi.analysis import WinRules, is_win, shanten, waits
from laizi.analysis._special import KNITTED, ORPHANS, orphans_waits
from laizi.analysis.compiled_rules import compiled
from laizi.analysis.knitted import knitted_straight_win_search, knitted_straight_win_tables
from laizi.tiles import parse, to_counts

TWO_FIVE_EIGHT = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))
SPECIAL_RULES = [
    WinRules(thirteen_orphans=True),
    WinRules(thirteen_orphans=True, knitted=True),
    WinRules(seven_pairs=False, knitted=True),
    WinRules(thirteen_orphans=True, knitted=True, pair_tiles=TWO_FIVE_EIGHT),
    WinRules(knitted=True, chow_suits=frozenset({1})),
]
rules_st = st.sampled_from(SPECIAL_RULES)
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def special_hands(draw: st.DrawFn, extra: int) -> tuple[list[int], int]:
    """A hand of 3n + ``extra`` tiles (wildcards included) near a special shape."""
    kind = draw(st.sampled_from(["orphans", "singles", "straight"]))
    if kind == "orphans":
        n = 4
        base = [*ORPHANS, draw(st.sampled_from(ORPHANS))]
    elif kind == "singles":
        n = 4
        ks = draw(st.sampled_from(KNITTED))
        base = draw(st.permutations([*ks, *range(27, 34)]))[:14]
    else:
        n = draw(st.sampled_from([3, 4, 4, 4, 5]))
        base = list(draw(st.sampled_from(KNITTED)))
        for _ in range(n - 3):  # the melds beside the straight
            if draw(st.booleans()):
                s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
                base += [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
            else:
                base += [draw(st.integers(0, 33))] * 3
        base += [draw(st.integers(0, 33))] * 2
    size = 3 * n + extra
    tiles = draw(st.permutations(base))[:size]
    while len(tiles) < size:
        tiles.append(draw(st.integers(0, 33)))
    for _ in range(draw(st.integers(0, 2))):  # swap some for random tiles
        tiles[draw(st.integers(0, size - 1))] = draw(st.integers(0, 33))
    w = draw(st.integers(0, 3))
    c = [0] * 34
    for t in tiles[w:]:
        if c[t] < 4:
            c[t] += 1
        else:
            w += 1  # keep the total: a wildcard instead of a fifth copy
    return c, w


@SETTINGS
@given(special_hands(2), rules_st)
def test_is_win_matches_reference_near_special_shapes(
    hand: tuple[list[int], int], rules: WinRules
) -> None:
    c, w = hand
    assert is_win(c, w, rules) == ref.is_win(c, w, rules)


@SETTINGS
@given(special_hands(1), rules_st)
def test_waits_match_reference_near_special_shapes(
    hand: tuple[list[int], int], rules: WinRules
) -> None:
    c, w = hand
    assert waits(c, w, rules) == ref.waits(c, w, rules)


@SETTINGS
@given(special_hands(1) | special_hands(2), rules_st)
def test_shanten_consistent_near_special_shapes(
    hand: tuple[list[int], int], rules: WinRules
) -> None:
    """-1 exactly for complete hands, 0 exactly when some wait is still live (the
    reference shanten search is too slow for 13 tiles; test_knitted_precheck.py holds the
    knitted terms to the capped per-straight programmes)."""
    c, w = hand
    got = shanten(c, w, rules)
    if (sum(c) + w) % 3 == 2:
        assert (got == -1) == ref.is_win(c, w, rules)
    else:
        live = [t for t in ref.waits(c, w, rules) if c[t] < 4]
        assert (got == 0) == bool(live)


@SETTINGS
@given(special_hands(2), st.sampled_from(SPECIAL_RULES[1:]))
def test_knitted_straight_tables_match_the_capped_search(
    hand: tuple[list[int], int], rules: WinRules
) -> None:
    """Up to one meld beside the straight the tables answer (the 4-copy rule cannot
    bind there): the capped search per straight must agree. With more melds the tables
    are a necessary condition: they never refuse what the search accepts."""
    c, w = hand
    comp = compiled(rules)
    tables = knitted_straight_win_tables(bytes(c), w, comp)
    search = knitted_straight_win_search(c, w, comp)
    if sum(c) + w <= 14:
        assert tables == search
    else:
        assert tables or not search


@SETTINGS
@given(special_hands(1).filter(lambda h: sum(h[0]) + h[1] == 13))
def test_orphans_waits_formula(hand: tuple[list[int], int]) -> None:
    """The closed formula for 十三幺's waits against adding each tile in turn."""
    c, w = hand
    only = WinRules(seven_pairs=False, thirteen_orphans=True, chow_suits=frozenset(),
                    pair_tiles=frozenset())  # nothing but 十三幺 can win
    want = 0
    for t in range(34):
        d = list(c)
        d[t] += 1
        if ref.is_win(d, w, only):
            want |= 1 << t
    assert orphans_waits(bytes(c), w) == want


def test_worked_examples() -> None:
    mcr = WinRules(thirteen_orphans=True, knitted=True)
    # 十三幺 thirteen-sided wait, and with the pair held a single wait
    c = [0] * 34
    for t in ORPHANS:
        c[t] = 1
    assert waits(c, 0, mcr) == list(ORPHANS)
    c[0] = 2
    c[33] = 0
    assert waits(c, 0, mcr) == [33]
    # 全不靠: 147m 258p 369s + 5 honours, one short: waits on the other 2 honours (+ the
    # knitted tiles it lacks: none here)
    d = [0] * 34
    for t in (*KNITTED[0], 27, 28, 29):
        d[t] = 1
    assert sum(d) == 12
    d[30] = 1
    assert waits(d, 0, mcr) == [31, 32, 33]
    # 组合龙 + a pung + a pair waiting on the pair: 147m258p369s 111z 2z
    e = [0] * 34
    for t in KNITTED[0]:
        e[t] = 1
    e[27] = 3
    e[28] = 1
    assert waits(e, 0, mcr) == [28]
    assert shanten(e, 0, mcr) == 0
    e[28] = 2
    assert is_win(e, 0, mcr) and shanten(e, 0, mcr) == -1


@SETTINGS
@given(special_hands(1) | special_hands(2))
def test_orphans_shanten_term_is_the_plain_overlap(hand: tuple[list[int], int]) -> None:
    """shanten's 十三幺 term, read from the per-group shape facts, equals the plain count
    (``orphans_overlap``: the 幺九 kinds held + 1 when one is held twice)."""
    from laizi.analysis._special import orphans_overlap

    c, w = hand
    if sum(c) + w not in (13, 14):
        return
    plain = WinRules(seven_pairs=False)
    want = min(shanten(c, w, plain), 13 - w - orphans_overlap(bytes(c)))
    assert shanten(c, w, WinRules(seven_pairs=False, thirteen_orphans=True)) == max(want, -1)


def test_the_four_copy_cap_binds_beside_two_melds() -> None:
    """47m258p1223333469s + 2 wildcards (17 tiles): the straight 147m258p369s (a wildcard
    for 1m) leaves 1s22s333s4s + a wildcard for 123s 234s 33s, which needs a fifth 3s
    (four in the melds, one in the straight). The free tables accept it, the capped
    search refuses it: is_win, waits and shanten must take the capped answer."""
    mcr = WinRules(thirteen_orphans=True, knitted=True)
    c = to_counts(parse("47m258p1223333469s"))
    comp = compiled(mcr)
    assert knitted_straight_win_tables(bytes(c), 2, comp)
    assert not knitted_straight_win_search(c, 2, comp)
    assert not is_win(c, 2, mcr) and not ref.is_win(c, 2, mcr)
    assert shanten(c, 2, mcr) >= 0
    d = list(c)
    d[21] -= 1  # without the 4s: adding it back is no win either
    assert waits(d, 2, mcr) == ref.waits(d, 2, mcr) == [0, 18, 19, 20]
