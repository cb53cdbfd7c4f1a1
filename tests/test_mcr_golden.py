"""Golden tiles: the best assignment wins (就高), checked against brute force."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest

from laizi import tiles as T
from laizi.scoring.mcr import HandError, WinContext, score_hand
from mcr_random import random_case


def brute(concealed: list[int], melds: list, win: int, ctx: WinContext, g: int,
          face: int) -> tuple[int, tuple[int, ...], int] | None:
    """Slow reference: every multiset of faces, every choice of the winning golden tile.

    Returns (total, golden_as, winning tile) of the documented choice: the highest total,
    then the most golden tiles standing for their own face (硬), then the smallest faces,
    then the smallest winning tile. A golden winning tile standing for another tile earns
    no 和绝张 (docs/rules/golden.md, decision 16)."""
    real = list(concealed)
    for _ in range(g):
        real.remove(face)
    best = None
    for assign in combinations_with_replacement(range(34), g):
        hand = real + list(assign)
        for w in (set(assign) if win == face else {win}):
            try:
                res = score_hand(hand, melds, w, ctx)
            except HandError:
                continue
            if not res.is_win:
                continue
            total = res.total
            if win == face and w != face and "last_tile" in res.counts():
                total -= 4  # a golden winning tile standing for another tile: no 和绝张
            key = (total, sum(t == face for t in assign), tuple(-t for t in assign), -w)
            if best is None or key > best[0]:
                best = (key, total, assign, w)
    return None if best is None else best[1:]


def test_greedy_is_not_best() -> None:
    # 白 is golden (three copies). Read as its own face: 555z pung + 11z pair = 18 fan.
    # Best: one golden as 东 (111z pung, 圈风 + 门风) and two as a 白 pair: 20 fan.
    hand = T.parse("123m456p78s11z555z9s")
    res = score_hand(hand, [], T.parse_tile("9s"), WinContext(), golden=3,
                     golden_face=T.WHITE)
    hard = score_hand(hand, [], T.parse_tile("9s"), WinContext())
    assert hard.total == 18
    assert res.total == 20 > hard.total
    assert res.golden_as == (T.EAST, T.WHITE, T.WHITE)
    assert {"prevalent_wind", "seat_wind", "mixed_straight"} <= set(res.counts())


def test_golden_completes_a_special_shape() -> None:
    # Thirteen orphans missing 中, with 5m as a golden tile.
    hand = T.parse("19m19p19s1234566z5m")
    res = score_hand(hand, [], T.parse_tile("6z"), WinContext(), golden=1,
                     golden_face=T.parse_tile("5m"))
    assert "thirteen_orphans" in res.counts() and res.golden_as == (T.RED,)


def test_golden_winning_tile_stands_for_anything() -> None:
    hand = T.parse("123m456p789s111z5z2m")
    res = score_hand(hand, [], T.parse_tile("2m"), WinContext(self_drawn=True), golden=1,
                     golden_face=T.parse_tile("2m"))
    assert res.is_win and res.golden_as == (T.WHITE,)
    assert res.win_tile == T.WHITE


@pytest.mark.parametrize(("seed", "golden", "hands"),
                         [(s, (1, 2), 4) for s in range(6)] + [(100, (3,), 1), (101, (3,), 1)])
def test_matches_brute_force(seed: int, golden: tuple[int, ...], hands: int) -> None:
    """Total, what each golden tile stood for and the winning tile, as brute force picks
    them (the exact maximum and the documented tie rules of the branch-and-bound search)."""
    rng = random.Random(seed)
    done = 0
    while done < hands:
        case = random_case(rng)
        g = rng.choice(golden)
        face = rng.choice(case.concealed)
        if case.concealed.count(face) < g:
            continue
        # the golden copies may stand for anything: replace g copies of `face`
        concealed = list(case.concealed)
        res = score_hand(concealed, list(case.melds), case.win, case.ctx, golden=g,
                         golden_face=face)
        expected = brute(concealed, list(case.melds), case.win, case.ctx, g, face)
        assert expected is not None
        assert res.is_win, case.describe()
        assert (res.total, res.golden_as, res.win_tile) == expected, case.describe()
        done += 1


def test_golden_errors_and_not_a_win() -> None:
    hand = T.parse("19m19p19s1234z258m5m")
    with pytest.raises(HandError):
        score_hand(hand, [], T.parse_tile("5m"), WinContext(), golden=3,
                   golden_face=T.parse_tile("5m"))
    res = score_hand(hand, [], T.parse_tile("5m"), WinContext(), golden=1,
                     golden_face=T.parse_tile("5m"))
    assert not res.is_win and res.why_not
