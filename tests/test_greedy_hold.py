"""Greedy passing on a discard win for the self-draw (等自摸, :mod:`laizi.bots.hold`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot_helpers import greedy_decisions
from laizi.bots.base import View
from laizi.bots.greedy import GreedyBot
from laizi.bots.hold import passes_discard_win, win_odds
from laizi.bots.profiles import PROFILES
from laizi.bots.search import SearchBot
from laizi.engine import Game
from laizi.engine.actions import PASS, WIN, Action
from laizi.engine.game import CLAIM


def _discard_wins(variant: str, seeds: range) -> Iterator[tuple[Game, int, View, Action,
                                                               list[Action]]]:
    """Every discard win offered in greedy self-play: (game, seat, view, the win, the
    legal actions)."""
    for g, s, view, legal in greedy_decisions(variant, seeds):
        if g.phase == CLAIM:
            for a in legal:
                if a.type == WIN:
                    yield g, s, view, a, legal


def test_the_win_now_is_what_the_engine_pays() -> None:
    """``now`` (from the seat's view, through the hints) is what the engine settles when
    the seat takes the win and the others pass; ``later`` and ``p`` are in range."""
    compared = 0
    for g, seat, view, win, _ in _discard_wins("huanghuang", range(30)):
        odds = win_odds(view, win.tile)  # type: ignore[arg-type]
        if odds is None:
            continue
        assert odds.live > 0 and odds.later > 0 and 0.0 <= odds.p <= 1.0
        h = g.copy()
        h.apply(win)
        while not h.over and h.phase == CLAIM:
            h.apply(Action(PASS, h.to_act()[0]))
        if h.over and h.record is not None and list(h.record.winners) == [seat]:
            assert h.net[seat] == odds.now, (view["hand"], win)
            compared += 1
    assert compared > 10


@pytest.mark.parametrize("variant", ["huanghuang", "mcr"])
def test_greedy_passes_exactly_when_the_rule_says(variant: str) -> None:
    """With ``hold`` greedy ranks passing first exactly when :func:`passes_discard_win`
    says so (the win still ranked); a larger ``hold`` passes at least as often; 0 takes
    every win."""
    offered = passed = 0
    for _g, _s, view, win, legal in _discard_wins(variant, range(40)):
        offered += 1
        tile = win.tile
        assert tile is not None
        says = passes_discard_win(view, tile, 0.25)
        ranked = [a for _, a in GreedyBot(hold=0.25).rank(view, legal)]
        assert (ranked[0].type == PASS) == says and win in ranked
        passed += says
        if says:
            assert passes_discard_win(view, tile, 0.5)
        assert GreedyBot(hold=0.0).rank(view, legal)[0][1] == win
    assert offered > 10
    if variant == "huanghuang":
        assert 0 < passed < offered  # both answers met: the rule was tested both ways


HOLD_HUANGHUANG = 0.18
"""晃晃's ``hold``, as docs/bots.md measured it."""


def test_holds_as_measured() -> None:
    """晃晃 passes by its measured weight, the other variants never (docs/bots.md); the
    search's base policy takes every win, its own samples deciding (``decline``)."""
    assert {v: p.hold for v, p in PROFILES.items()} == {
        v: (HOLD_HUANGHUANG if v == "huanghuang" else 0.0) for v in PROFILES}
    assert SearchBot(budget_ms=0).greedy.hold == 0.0
