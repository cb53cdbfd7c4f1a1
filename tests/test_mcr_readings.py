"""The MCR calculator's readings, golden assignments, waits and bound against independent
references: ``laizi.analysis.decompositions`` (MCR rules) and slow brute force.

* every reading the scorer tries (``score_prepared(trace=...)``) is, as a set of
  groupings, exactly what ``decompositions`` returns for the concealed tiles; the one
  deliberate exception is 九莲宝灯, scored from its fixed shape without its set readings
  (as PyMahjongGB does; 88 fan is above anything those readings give);
* both equal a brute-force enumeration (every multiset of sets that sums to the tiles);
* golden assignments = the ``wild_as`` of ``decompositions`` with wildcards;
* waits (table driven) = the tiles whose addition has a reading;
* the branch-and-bound bound (bound.py) is never below the true total;
* the bitmask tile fans (masks.py) equal the list-based ones.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from laizi import tiles as T
from laizi.analysis import WinRules, decompositions
from laizi.scoring.mcr import calculator as C
from laizi.scoring.mcr import golden as G
from laizi.scoring.mcr import reference_fans as RF
from laizi.scoring.mcr.bound import NO_BOUND, upper_bound
from laizi.scoring.mcr.common import KIND
from laizi.scoring.mcr.inputs import meld_packs, win_flags
from laizi.scoring.mcr.masks import masks, tile_fans
from laizi.scoring.mcr.prepared import Prepared
from laizi.scoring.mcr.shapes import basic_waits, has_other_wait, pack_tiles, readings
from mcr_random import Case, random_case

MCR_RULES = WinRules(seven_pairs=True, thirteen_orphans=True, knitted=True)
SLOW = [HealthCheck.too_slow]

Grouping = tuple[str, tuple[tuple[str, tuple[int, ...]], ...]]


def _canon(shape: str, groups: object) -> Grouping:
    return shape, tuple(sorted(groups))  # type: ignore[call-overload]


def _prepared(case: Case) -> Prepared:
    fixed = meld_packs(case.melds)
    standing = T.to_counts(case.concealed)
    standing[case.win] -= 1
    fl, _ = win_flags(case.ctx, standing, fixed, case.win)
    return Prepared(fixed, tuple(standing), case.win, fl)


def considered(case: Case) -> list[Grouping]:
    trace: list[C.Considered] = []
    C.score_prepared(_prepared(case), trace)
    return [_canon(shape, groups) for shape, groups in trace]


def analysed(counts: list[int], wilds: int = 0) -> set[Grouping]:
    return {_canon(d.shape.value, ((g.kind.value, g.tiles) for g in d.groups))
            for d in decompositions(counts, wilds, MCR_RULES)}


_SETS = [(t, t, t) for t in range(34)] + [(t, t + 1, t + 2) for t in range(27) if t % 9 < 7]


def brute_standard(counts: list[int]) -> set[Grouping]:
    """Every multiset of sets plus a pair whose tiles are exactly ``counts``."""
    n, r = divmod(sum(counts) - 2, 3)
    if r:
        return set()
    usable = [s for s in _SETS if all(counts[t] >= s.count(t) for t in s)]
    out = set()
    for p in range(34):
        if counts[p] < 2:
            continue
        for combo in combinations_with_replacement(usable, n):
            got = [0] * 34
            for s in combo:
                for t in s:
                    got[t] += 1
            got[p] += 2
            if got == counts:
                groups = [("pung" if s[0] == s[1] else "chow", s) for s in combo]
                out.add(_canon("standard", [*groups, ("pair", (p, p))]))
    return out


def _concealed_counts(case: Case) -> list[int]:
    return T.to_counts(case.concealed)


@settings(max_examples=300, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_scorer_tries_exactly_the_analysis_readings(seed: int) -> None:
    case = random_case(random.Random(seed))
    mine = considered(case)
    theirs = analysed(_concealed_counts(case))
    assert len(mine) == len(set(mine)), case.describe()  # no reading tried twice
    if mine and mine[0][0] == "nine_gates":
        assert len(mine) == 1
        assert theirs and all(shape == "standard" for shape, _ in theirs), case.describe()
        return
    assert set(mine) == theirs, case.describe()


def test_nine_gates_is_the_only_short_cut() -> None:
    case = Case(tuple(T.parse("11123455678999m")), (), T.parse_tile("5m"),
                random_case(random.Random(0)).ctx, ())
    assert considered(case) == [("nine_gates", ())]
    assert len(analysed(_concealed_counts(case))) == 1  # 111 234 55 678 999 it skips


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_standard_readings_match_brute_force(seed: int) -> None:
    case = random_case(random.Random(seed))
    counts = _concealed_counts(case)
    brute = brute_standard(counts)
    assert {g for g in analysed(counts) if g[0] == "standard"} == brute, case.describe()
    mine = {_canon("standard", ((KIND[p[0]], pack_tiles(p)) for p in r))
            for r in readings(tuple(counts))}
    assert mine == brute, case.describe()


def _golden_real(rng: random.Random) -> tuple[Case, list[int], int, int]:
    while True:
        case = random_case(rng)
        g = rng.choice((1, 2, 3))
        face = rng.choice(case.concealed)
        if case.concealed.count(face) >= g:
            real = list(case.concealed)
            for _ in range(g):
                real.remove(face)
            return case, real, g, face


@settings(max_examples=120, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_golden_assignments_are_the_analysis_wildcard_readings(seed: int) -> None:
    case, real, g, _face = _golden_real(random.Random(seed))
    room = [4] * 34
    for m in case.melds:
        for t in m.tiles:
            room[t] -= 1
    counts = T.to_counts(real)
    expected = {d.wild_as for d in decompositions(counts, g, MCR_RULES)
                if all(counts[t] + d.wild_as.count(t) <= room[t] for t in d.wild_as)}
    assert G.golden_assignments(real, g, case.melds) == expected, case.describe()


@settings(max_examples=200, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_waits_match_readings(seed: int) -> None:
    rng = random.Random(seed)
    case = random_case(rng)
    standing = T.to_counts(case.concealed)
    standing[rng.choice(case.concealed)] -= 1
    expected = set()
    for t in range(34):
        standing[t] += 1
        if readings(tuple(standing)):
            expected.add(t)
        standing[t] -= 1
    got = basic_waits(tuple(standing))
    assert got == expected
    for w in range(34):
        assert has_other_wait(tuple(standing), w) == bool(got - {w})


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_bound_never_below_the_total(seed: int) -> None:
    case, real, g, face = _golden_real(random.Random(seed))
    fixed = meld_packs(case.melds)
    for assign in G.golden_assignments(real, g, case.melds):
        counts = T.to_counts(real)
        for t in assign:
            counts[t] += 1
        for w in sorted(set(assign)) if case.win == face else [case.win]:
            counts[w] -= 1
            fl, _ = win_flags(case.ctx, counts, fixed, w)
            h = Prepared(fixed, tuple(counts), w, fl)
            counts[w] += 1
            bound = upper_bound(h)
            scored = C.score_prepared(Prepared(fixed, h.standing, w, fl))
            if scored is not None and bound < NO_BOUND:
                assert bound >= scored.total, (case.describe(), assign, w, scored.table)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=14, max_size=30))
def test_mask_tile_fans_match_list_versions(drawn: list[int]) -> None:
    counts = [min(4, drawn.count(t)) for t in range(34)]
    tiles = [t for t in range(34) for _ in range(counts[t])]
    kongs = len(tiles) - 14  # a hand of 14 tiles + one per kong
    assume(0 <= kongs <= 4)
    want: dict[str, int] = {}
    want_src: dict[str, list[tuple[int, ...]]] = {}
    RF.suit_fans(tiles, want)
    RF.tile_trait_fans(tiles, want)
    RF.rank_range_fans(tiles, want)
    RF.tile_hog_fans(tiles, want, want_src)
    got: dict[str, int] = {}
    got_src: dict[str, list[tuple[int, ...]]] = {}
    m1, _, _, m4 = masks(counts)
    tile_fans(m1, m4, kongs, got, got_src)
    assert got == want and got_src == want_src
