"""The fast MCR calculator against the reference one, and its tables against what they
replace.

``score_hand`` scores through :mod:`laizi.scoring.mcr.calculator` (fast) and, with
``slow=True``, through :mod:`laizi.scoring.mcr.reference` (written to be read): the two
must give the same result — every fan, count, set, reading, note and tie-break — on
random winning hands, on hands one tile away from them (mostly not wins), with golden
tiles, and with the seed's kong fans. The fast path's tables are held to the functions
they stand for: group readings to ``shapes.readings``, tile codes to ``masks.tile_fans``,
the single-wait test to ``shapes.has_other_wait``, and the faster set-combination fans
to ``combos`` on every possible input. (Both calculators agree with PyMahjongGB:
tests/test_mcr_vs_gb.py.)
"""

from __future__ import annotations

import random
from itertools import combinations, combinations_with_replacement

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laizi import tiles as T
from laizi.scoring.mcr import (
    FANS,
    HandError,
    Meld,
    WinContext,
    combos,
    combos_fast,
    exclusions,
    reference_fans,
    score_hand,
)
from laizi.scoring.mcr.groups import hand_readings, other_wait, tile_code, tile_fans_of
from laizi.scoring.mcr.masks import masks, tile_fans
from laizi.scoring.mcr.shapes import ORDER, PAIR, has_other_wait, readings
from mcr_random import Case, random_case

SLOW = [HealthCheck.too_slow]


def _both(case: Case, **kw: object) -> None:
    fast = score_hand(case.concealed, case.melds, case.win, case.ctx, **kw)  # type: ignore[arg-type]
    ref = score_hand(case.concealed, case.melds, case.win, case.ctx, slow=True, **kw)  # type: ignore[arg-type]
    assert fast == ref, case.describe()


@settings(max_examples=400, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_fast_equals_reference_on_winning_hands(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5):
        _both(random_case(rng))


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_fast_equals_reference_one_tile_away(seed: int) -> None:
    """A winning hand with one concealed tile replaced: mostly no win, sometimes
    another win; either way both calculators must say the same, errors included."""
    rng = random.Random(seed)
    case = random_case(rng)
    tiles = list(case.concealed)
    i = rng.randrange(len(tiles))
    tiles[i] = rng.randrange(34)
    win = rng.choice(tiles)
    try:
        fast = score_hand(tiles, case.melds, win, case.ctx)
    except HandError as exc:
        try:
            score_hand(tiles, case.melds, win, case.ctx, slow=True)
        except HandError as ref_exc:
            assert str(exc) == str(ref_exc)
            return
        raise AssertionError(f"only the fast path refused: {exc}") from None
    assert fast == score_hand(tiles, case.melds, win, case.ctx, slow=True), case.describe()


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_fast_equals_reference_with_golden_tiles(seed: int) -> None:
    rng = random.Random(seed)
    case = random_case(rng)
    g = rng.choice((1, 1, 2, 3))
    face = rng.choice(case.concealed)
    if case.concealed.count(face) < g:
        g = case.concealed.count(face)
    _both(case, golden=g, golden_face=face)


def _kong_pair(rng: random.Random) -> Case:
    """A random hand with exactly one concealed and one melded kong."""
    while True:
        c = random_case(rng)
        kinds = [m.kind for m in c.melds]
        if kinds.count("concealed_kong") == 1 and kinds.count("kong") == 1:
            return c


@settings(max_examples=80, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_seed_kong_fans_equal_the_reference_counting_them(seed: int) -> None:
    """seed_kong_fans (the fast path's shortcut) against the reference calculator
    counting 暗杠 + 明杠 itself, with and without golden tiles."""
    rng = random.Random(seed)
    case = _kong_pair(rng)
    _both(case, concealed_and_melded_kong=False)
    res = score_hand(case.concealed, case.melds, case.win, case.ctx,
                     concealed_and_melded_kong=False)
    gb = score_hand(case.concealed, case.melds, case.win, case.ctx)
    assert "concealed_and_melded_kong" in gb.counts()
    assert {"concealed_kong", "melded_kong"} <= set(res.counts())
    assert res.total == gb.total - 2
    face = rng.choice(case.concealed)
    _both(case, golden=1, golden_face=face, concealed_and_melded_kong=False)


def test_seed_kong_fans_worked_example() -> None:
    hand = T.parse("123m456p77s")
    melds = [Meld("concealed_kong", T.parse_tile("1z")), Meld("kong", T.parse_tile("9s"))]
    ctx = WinContext()
    gb = score_hand(hand, melds, T.parse_tile("7s"), ctx)
    seed = score_hand(hand, melds, T.parse_tile("7s"), ctx, concealed_and_melded_kong=False)
    assert gb.counts()["concealed_and_melded_kong"] == 1 and gb.total == 11
    assert seed.total == 9
    groups = {f.key: f.groups for f in seed.fans}
    assert groups["concealed_kong"] == ((27,) * 4,)
    assert groups["melded_kong"] == ((26,) * 4,)


def test_combination_fans_equal_the_reference_on_every_input() -> None:
    mids = [t for t in range(27) if 0 < t % 9 < 8]
    for k in (2, 3, 4):
        for chows in combinations_with_replacement(mids, k):
            t = sorted(chows, key=ORDER.__getitem__)
            assert combos_fast.chow_fans(list(t)) == combos.chow_fans(list(t)), t
        for pungs in combinations(range(34), k):
            t = sorted(pungs, key=ORDER.__getitem__)
            assert combos_fast.pung_fans(list(t)) == combos.pung_fans(list(t)), t


def _counts(draw: list[int]) -> list[int]:
    return [min(4, draw.count(t)) for t in range(34)]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_group_readings_equal_shapes_readings(seed: int, winning: bool) -> None:
    rng = random.Random(seed)
    if winning:
        counts = T.to_counts(random_case(rng).concealed)
    else:
        counts = _counts([rng.randrange(34) for _ in range(rng.choice((2, 5, 8, 11, 14)))])
    got = [(*sets, (PAIR, pair, False)) for sets, pair, *_ in hand_readings(bytes(counts))]
    assert got == list(readings(tuple(counts))), counts


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=18))
def test_tile_codes_decide_the_tile_fans(drawn: list[int]) -> None:
    m1 = masks(_counts(drawn))[0]
    want: dict[str, int] = {}
    tile_fans(m1, 0, 0, want, {})
    assert tile_fans_of(tile_code(m1)) == want


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_other_wait_equals_has_other_wait(seed: int) -> None:
    rng = random.Random(seed)
    counts = T.to_counts(random_case(rng).concealed)
    if not readings(tuple(counts)):
        return  # a special shape: other_wait is only asked of sets-and-pair hands
    for w in {t for t in range(34) if counts[t]}:
        standing = list(counts)
        standing[w] -= 1
        assert other_wait(bytes(counts), w) == has_other_wait(tuple(standing), w), (counts, w)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([f.key for f in FANS if f.key != "flower_tiles"]),
                min_size=1, max_size=14),
       st.lists(st.integers(1, 4), min_size=14, max_size=14))
def test_exclusion_plans_equal_the_reference(keys: list[str], counts: list[int]) -> None:
    """不计 through cached plans (calculator) against the table walked each time."""
    table = {k: n for k, n in zip(keys, counts, strict=False)}
    fast, ref = dict(table), dict(table)
    exclusions.exclude(fast)
    reference_fans.exclude(ref)
    assert fast == ref, table


def test_results_built_fast_are_what_the_constructors_make() -> None:
    """api.result_from builds items and results in shells (hand.py): each must be exactly
    the object the dataclass constructor makes — its type, fields, equality, hash, frozen."""
    import copy
    import dataclasses
    import pickle

    from laizi.scoring.mcr.hand import FanItem, FanResult

    rng = random.Random(25)
    for _ in range(200):
        case = random_case(rng)
        res = score_hand(case.concealed, case.melds, case.win, case.ctx)
        assert type(res) is FanResult and res.is_win
        items = tuple(FanItem(f.key, f.count, f.groups) for f in res.fans)
        for got, made in zip(res.fans, items, strict=True):
            assert type(got) is FanItem
            assert got == made and hash(got) == hash(made)
        made_res = FanResult(**{f.name: getattr(res, f.name)
                                for f in dataclasses.fields(FanResult)} | {"fans": items})
        assert res == made_res and hash(res) == hash(made_res)
        assert pickle.loads(pickle.dumps(res)) == res == copy.deepcopy(res)
        with pytest.raises(dataclasses.FrozenInstanceError):
            res.fans[0].count = 99  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            res.total = 0  # type: ignore[misc]
