"""The golden search's shortcuts for the 听牌 hints' many sibling hands (the hand less a
discard, plus each wait) against the plain search they stand for:

* assignments derived through the parent hand (one tile less, one more golden tile) equal
  :func:`golden_assignments` of the hand itself, for winning and non-winning siblings;
* scores with the search's tables warm (parents, tile bounds, candidates) equal the scores
  of the same hands with every table cleared, and the reference calculator's (``slow``).
"""

from __future__ import annotations

import dataclasses
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laizi import tiles as T
from laizi.scoring.mcr import FanResult, HandError, WinContext, score_hand
from laizi.scoring.mcr import golden as G
from mcr_random import Case, random_case

SLOW = [HealthCheck.too_slow]


def _golden_parent(rng: random.Random) -> tuple[Case, list[int], int, int]:
    """A winning case, its golden count (1–3) and face, and a parent: its real tiles less
    one real tile (the siblings are the parent plus each tile)."""
    while True:
        case = random_case(rng)
        g = rng.choice((1, 2, 3))
        face = rng.choice(case.concealed)
        if case.concealed.count(face) < g:
            continue
        real = list(case.concealed)
        for _ in range(g):
            real.remove(face)
        if not real:
            continue
        real.remove(rng.choice(real))
        return case, sorted(real), g, face


def _clear() -> None:
    for table in (G._PARENTS, G._TILE_BOUNDS, G._CANDIDATES, G._BOUNDED):
        table.clear()


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_assignments_through_the_parent(seed: int) -> None:
    case, parent, g, _face = _golden_parent(random.Random(seed))
    melds = tuple(case.melds)
    _clear()
    if seed % 2:  # the parent asked about first (a golden tile drawn), then kept
        assert G._assignments(tuple(parent), g + 1, melds, None) == \
            G.golden_assignments(parent, g + 1, melds)
    derived = 0
    for y in range(34):
        sibling = tuple(sorted([*parent, y]))
        expected = G.golden_assignments(sibling, g, melds)
        got = G._assignments(sibling, g, melds, y)
        assert got == expected, (case.describe(), g, T.name(y, "mpsz"))
        derived += G._PARENTS.get((tuple(parent), g + 1, melds)) is not None
    # every sibling (but those holding a fifth copy): through the parent
    assert derived >= 28


def _contexts(ctx: WinContext) -> list[WinContext]:
    """The case's context and, where that makes a valid context, its other win kind (the
    hints ask both of every wait)."""
    try:
        return [ctx, dataclasses.replace(ctx, self_drawn=not ctx.self_drawn)]
    except HandError:
        return [ctx]


def _score(hand: list[int], melds: list, win: int, ctx: WinContext, g: int, face: int,
           slow: bool = False) -> FanResult | str:
    try:
        return score_hand(hand, melds, win, ctx, golden=g, golden_face=face, slow=slow)
    except HandError as exc:
        return str(exc)


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
@given(st.integers(0, 2**32 - 1))
def test_sibling_scores_warm_cold_and_reference(seed: int) -> None:
    case, parent, g, face = _golden_parent(random.Random(seed))
    melds = list(case.melds)
    hands = [([*parent, y, *[face] * g], y) for y in range(34) if y != face
             and parent.count(y) + sum(m.tiles.count(y) for m in melds) < 4]
    _clear()
    for ctx in _contexts(case.ctx):
        warm = [_score(h, melds, y, ctx, g, face) for h, y in hands]
        for (h, y), got in zip(hands, warm, strict=True):
            _clear()
            assert got == _score(h, melds, y, ctx, g, face), case.describe()
            if isinstance(got, FanResult) and got.is_win:
                ref = _score(h, melds, y, ctx, g, face, slow=True)
                assert isinstance(ref, FanResult), case.describe()
                assert (got.total, got.golden_as, got.win_tile) == (
                    ref.total, ref.golden_as, ref.win_tile), case.describe()
