"""laizi.analysis held to the slow reference (tests/reference.py) and to published hands."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reference as ref
from laizi.analysis import (
    DEFAULT_RULES,
    GroupKind,
    Shape,
    WinRules,
    decompositions,
    is_win,
    shanten,
    waits,
)
from laizi.tiles import parse, to_counts

TWO_FIVE_EIGHT = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))
RULES = [
    DEFAULT_RULES,
    WinRules(seven_pairs=False),
    WinRules(pair_tiles=TWO_FIVE_EIGHT),
    WinRules(pair_tiles=TWO_FIVE_EIGHT, chow_suits=frozenset({1})),
    WinRules(chow_suits=frozenset({0, 2})),
    WinRules(chow_suits=frozenset()),
    WinRules(thirteen_orphans=True),
    WinRules(thirteen_orphans=True, knitted=True),
]
rules_st = st.sampled_from(RULES)


def C(text: str) -> list[int]:
    return to_counts(parse(text))


@st.composite
def hands(draw: st.DrawFn, extra: int) -> tuple[list[int], int]:
    """A hand of 3n + ``extra`` tiles (wildcards included), often close to complete."""
    w = draw(st.integers(0, 4))
    n = draw(st.integers(0, 5))  # up to 17 tiles (Taiwan)
    size = 3 * n + extra - w
    if size < 0:
        w, size = 3 * n + extra, 0
    c = [0] * 34
    if draw(st.booleans()):
        # built from groups, then trimmed: many wins and near-wins
        tiles: list[int] = []
        for _ in range(n + 1):
            kind = draw(st.integers(0, 2))
            if kind == 0:
                s, r = draw(st.integers(0, 2)), draw(st.integers(0, 6))
                tiles += [s * 9 + r, s * 9 + r + 1, s * 9 + r + 2]
            else:
                tiles += [draw(st.integers(0, 33))] * (3 if kind == 1 else 2)
        tiles = draw(st.permutations(tiles))[:size]
        tiles += [draw(st.integers(0, 33)) for _ in range(size - len(tiles))]
    else:
        tiles = [draw(st.integers(0, 33)) for _ in range(size)]
    for t in tiles:
        if c[t] < 4:
            c[t] += 1
        else:
            w += 1  # keep the total; a wildcard instead of a fifth copy
    return c, w


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(hands(2), rules_st)
def test_is_win_matches_reference(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    assert is_win(c, w, rules) == ref.is_win(c, w, rules)


@FAST
@given(hands(1), rules_st)
def test_waits_match_reference(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    assert waits(c, w, rules) == ref.waits(c, w, rules)


@settings(max_examples=150, deadline=None)
@given(hands(1) | hands(2), rules_st)
def test_shanten_matches_reference(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    if sum(c) + w > 11:  # the reference search is exponential; keep it quick
        return
    assert shanten(c, w, rules) == ref.shanten(c, w, rules)


@FAST
@given(hands(1), rules_st)
def test_shanten_zero_iff_a_live_wait(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    live = [t for t in waits(c, w, rules) if c[t] < 4]
    assert (shanten(c, w, rules) == 0) == bool(live)


@FAST
@given(hands(2), rules_st)
def test_shanten_minus_one_iff_win(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    assert (shanten(c, w, rules) == -1) == is_win(c, w, rules)


@FAST
@given(hands(2), rules_st)
def test_every_reading_is_valid(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    if w > 3 or sum(c) + w > 14:  # thousands of readings each: slow, no new cases
        return
    readings = decompositions(c, w, rules)
    assert bool(readings) == is_win(c, w, rules)
    keys = set()
    for d in readings:
        total = [0] * 34
        for g in d.groups:
            for t in g.tiles:
                total[t] += 1
            if g.kind is GroupKind.CHOW:
                a, b, e = g.tiles
                assert b == a + 1 and e == a + 2 and a < 27 and a // 9 == e // 9
                assert a // 9 in rules.chow_suits
            elif g.kind is GroupKind.PUNG:
                assert len(set(g.tiles)) == 1 and len(g.tiles) == 3
            elif g.kind is GroupKind.PAIR:
                assert len(set(g.tiles)) == 1 and len(g.tiles) == 2
                if d.shape is Shape.STANDARD and rules.pair_tiles is not None:
                    assert g.tiles[0] in rules.pair_tiles
        # re-assembles to the hand: real tiles + what the wildcards stand for
        wild = to_counts(d.wild_as)
        assert len(d.wild_as) == w
        assert all(total[t] == c[t] + wild[t] for t in range(34))
        assert all(total[t] <= 4 for t in range(34) if wild[t])
        keys.add((d.shape, d.groups, d.wild_as))
    assert len(keys) == len(readings)


@settings(max_examples=200, deadline=None)
@given(hands(2), st.sampled_from(RULES[:6]))
def test_readings_equal_bruteforce(hand: tuple[list[int], int], rules: WinRules) -> None:
    c, w = hand
    if w > 2 or sum(c) + w > 14:
        return
    got = {
        (d.shape.value, tuple((g.kind.value, g.tiles) for g in d.groups), d.wild_as)
        for d in decompositions(c, w, rules)
    }
    assert got == ref.readings_bruteforce(c, w, rules)


# ---------------------------------------------------------------- published hands


def test_nine_gates_waits_on_all_nine() -> None:
    assert waits(C("1112345678999m")) == list(range(9))  # 九莲宝灯 纯正


def test_thirteen_orphans_thirteen_sided() -> None:
    rules = WinRules(thirteen_orphans=True)
    hand = C("19m19p19s1234567z")
    assert waits(hand, 0, rules) == [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    assert waits(hand) == []  # off by default
    assert shanten(hand, 0, rules) == 0
    assert is_win(C("19m19p19s12345677z"), 0, rules)


def test_known_shanten_values() -> None:
    assert shanten(C("123m456p789s1122z")) == 0
    assert shanten(C("123m456p789s11223z")) == 0
    assert shanten(C("123m456p789s11z")) == -1
    assert shanten(C("1m4m7m1p4p7p1s4s7s1234z"), 0, WinRules(seven_pairs=False)) == 8
    assert shanten(C("1199m1199p1199s1z")) == 0  # 七对 tenpai on 1z
    assert shanten(C("1199m1199p1199s1z"), 0, WinRules(seven_pairs=False)) == 3
    assert shanten(C("147m258p369s1234z"), 0, WinRules(knitted=True)) == 0


def test_fifth_copy_conventions() -> None:
    hand = C("1111z234m567m789m")
    assert waits(hand) == [27]  # structurally waits on a fifth 东 (空听)
    assert shanten(hand) == 1  # but it is not ready
    assert not is_win(C("1111z234m567m789m"), 1)  # a wildcard may not be the fifth 东
    assert is_win(C("111z234m567m789m"), 2)


def test_wildcards() -> None:
    assert is_win(C("123m456p789s1z"), 1)
    assert is_win([0] * 34, 2)  # two wildcards: a pair
    assert is_win([0] * 34, 14)
    assert not is_win(C("19m"), 0)
    assert waits(C("123m456p789s1z"), 0) == [27]
    assert len(waits([0] * 34, 1)) == 34
    d = decompositions(C("123m456p789s1z"), 1)
    assert [x.wild_as for x in d] == [(27,)]


def test_pair_and_chow_constraints() -> None:
    rules = WinRules(pair_tiles=TWO_FIVE_EIGHT)
    assert not is_win(C("123m456p789s11z"), 0, rules)
    assert is_win(C("123m456p789s55m"), 0, rules)
    assert waits(C("123m456p789s5m"), 0, rules) == [4]
    no_chows = WinRules(chow_suits=frozenset())
    assert not is_win(C("123m456p789s11z"), 0, no_chows)
    assert is_win(C("111m444p777s111z22z"), 0, no_chows)


def test_knitted_shapes() -> None:
    rules = WinRules(knitted=True)
    qbk = C("147m258p369s12345z")  # 全不靠: 14 singles
    assert sum(qbk) == 14 and is_win(qbk, 0, rules)
    assert not is_win(qbk)
    assert decompositions(qbk, 0, rules)[0].shape is Shape.HONOURS_AND_KNITTED
    qxbk = C("147m25p36s1234567z")  # 七星不靠
    assert is_win(qxbk, 0, rules)
    zhl = C("147m258p369s123m11z")  # 组合龙 + a chow + a pair
    assert is_win(zhl, 0, rules)
    shapes = {d.shape for d in decompositions(zhl, 0, rules)}
    assert Shape.KNITTED_STRAIGHT in shapes
    assert is_win(C("147m258p369s11z"), 0, rules)  # with a meld exposed


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        is_win([0] * 33)
    with pytest.raises(ValueError):
        is_win([-1] + [0] * 33)
    with pytest.raises(ValueError):
        shanten([0] * 34)
    with pytest.raises(ValueError):
        waits(C("11m"))


# ---------------------------------------------------------------- table internals


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([9, 7]),
    st.booleans(),
    st.sampled_from(["any", "258", "none"]),
    st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4]), min_size=9, max_size=9),
    st.integers(-1, 8),
)
def test_group_automata_match_direct_programmes(
    size: int, chows: bool, pairs: str, counts: list[int], fifth: int
) -> None:
    """The lazily built per-rank automata give exactly the per-key programmes' answers."""
    from laizi.analysis._group import MAX_MELDS, compute_cover, compute_need
    from laizi.analysis._tables import GroupTable

    pair_ok = tuple(pairs == "any" or (pairs == "258" and i in (1, 4, 7)) for i in range(size))
    table = GroupTable(size, chows, pair_ok)
    v = counts[:size]
    assert table.get_cover(bytes(v)) == compute_cover(tuple(v), table.chows, pair_ok, MAX_MELDS)
    if 0 <= fifth < size:
        v[fifth] = 5  # waits asks about a hypothetical fifth copy
    n0, d, odd, knit, middle = table.get_need(bytes(v))
    assert (n0, n0 + d) == compute_need(tuple(v), table.chows, pair_ok)
    assert odd == sum(x & 1 for x in v)
    if size == 9:  # the special shapes' pre-check facts (see GroupTable.get_need)
        assert knit == max(sum(1 for r in range(o, 9, 3) if v[r]) for o in range(3))
        assert middle == sum(v[1:8])
    else:
        assert knit == middle == 0


@settings(max_examples=60, deadline=None)
@given(st.integers(16, 17), st.integers(2, 4), st.randoms(use_true_random=False), rules_st)
def test_large_hand_shanten_matches_direct_combination(
    real: int, w: int, rnd: object, rules: WinRules
) -> None:
    """17-tile hands with wildcards (6 melds) use the tables; hold them to a direct DP."""
    import random

    from laizi.analysis._group import compute_cover
    from laizi.analysis.compiled_rules import combine_covers, compiled

    assert isinstance(rnd, random.Random)
    total = real + w
    if total % 3 == 0:
        return
    wall = [t for t in range(34) for _ in range(4)]
    c = [0] * 34
    for t in rnd.sample(wall, real):
        c[t] += 1
    n = (total - 1) // 3
    comp = compiled(rules)
    covers = [
        compute_cover(tuple(c[lo:hi]), g.chows, g.pair_ok, n)
        for g, (lo, hi) in zip(comp.groups, ((0, 9), (9, 18), (18, 27), (27, 34)), strict=True)
    ]
    standard = max(3 * n + 1 - w - combine_covers(covers, n), -1)
    got = shanten(c, w, rules)
    assert got <= standard  # special shapes can only lower it
    if not (rules.knitted or (rules.seven_pairs and n == 4)):
        assert got == standard
