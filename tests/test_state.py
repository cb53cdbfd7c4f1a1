"""The typed hand state: a copy is independent and plays like the original, a game is
rebuilt from its log by ``Game.from_log``, and ``posed_win`` asks the variant without
writing into the state."""

from __future__ import annotations

import random

import pytest

from laizi.core.records import SELF_DRAW
from laizi.engine import Game
from laizi.engine.log import replay, state_json
from laizi.engine.replay import ReplayError
from laizi.engine.state import HandState

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]


def _play(g: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if g.over:
            return
        seat = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(seat)))


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_copy_is_independent_and_plays_alike(variant: str) -> None:
    g = Game(variant, seed=11)
    _play(g, random.Random(1), 25)
    before = state_json(g)
    c = g.copy()
    assert isinstance(c, Game) and isinstance(c, HandState)
    assert state_json(c) == before and c.log == g.log
    _play(c, random.Random(2), 200)
    assert state_json(g) == before  # the original is untouched
    # The same choices on the original and on a fresh copy give the same hand.
    d = g.copy()
    _play(g, random.Random(3), 200)
    _play(d, random.Random(3), 200)
    assert state_json(d) == state_json(g) and d.log == g.log


@pytest.mark.parametrize("variant", VARIANTS)
def test_from_log_rebuilds_the_game(variant: str) -> None:
    g = Game(variant, seed=5)
    _play(g, random.Random(4), 60)
    again = Game.from_log(g.log)
    assert state_json(again) == state_json(g)
    assert state_json(replay(g.log)) == state_json(g)
    with pytest.raises(ReplayError):
        Game.from_log([{"type": "deal"}])


def test_posed_win_writes_nothing() -> None:
    g = Game("mcr", seed=3)
    seat = g.turn
    before = state_json(g)
    hand = [0] * 34
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 27, 27):  # 123456789m 123p 东东
        hand[t] += 1
    verdict = g.posed_win(seat, hand, 27)
    assert state_json(g) == before
    # The verdict is the variant's own on that hand (MCR's 8-fan minimum decides).
    probe = g.copy()
    probe.hands[seat] = hand
    probe.sizes[seat] = 14
    probe.last_tile = 27
    assert verdict == g.variant.win_refusal(probe, seat, 27, SELF_DRAW)
    assert verdict is None  # 清龙: 16 fan
    broken = [0] * 34
    for t in (0, 0, 1, 4, 8, 12, 13, 14, 24, 25, 26, 30, 30, 33):
        broken[t] += 1
    assert g.posed_win(seat, broken, 33) is not None
    assert state_json(g) == before
