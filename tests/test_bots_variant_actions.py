"""Every bot on Taiwan's own actions — 宣告听牌 (天听 / 地听) and the flower wins (花胡:
八仙过海, 七抢一): none fails on them, the flower wins are always taken, and greedy (so
search) declares a ready hand that live tiles can complete.

Regression: greedy raised on a 地听 turn (an action without a tile), which stopped an
arena and would have stalled a hall room; and it passed on 七抢一."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from laizi.bots.greedy import DECLARE_LIVE, GreedyBot, HandContext
from laizi.bots.registry import make_bot
from laizi.bots.rollout import FastPolicy
from laizi.engine import Action, Game
from laizi.engine.actions import DECLARE, FLOWER_WIN, ROB_FLOWER, WINNING_TYPES
from laizi.variants.taiwan_bot import TaiwanBot
from test_taiwan_variant import H0, H1, H2, H3, drive, filler, game_with, never, tiles

BOTS = ["random", "simple", "greedy", "search:budget_ms=0:rollouts=8:procs=1", "taiwan",
        "fast"]


def heavenly() -> Game:
    """The deal's window: seat 1 is ready (1s/4s) and may declare 天听."""
    h1 = tiles("123m456m789m555p11s23s")
    used = [*H0, *h1, *H2, *H3]
    draws = [13, *filler([*used, 13], 10, avoid=[18, 21, 13, 0, 5])]
    return game_with([H0, h1, H2, H3], draws=draws)


def earthly() -> Game:
    """The dealer's first turn: discarding 7z leaves it ready (1s/4s), 地听 offered."""
    h0 = [*tiles("123m456m789m123p11s23s"), 33, 33][:17]
    h1 = [21, *H1[:15]]
    used = [*h0, *h1, *H2, *H3]
    g = game_with([h0, h1, H2, H3], draws=filler(used, 8, avoid=[18, 21, 33]))
    for seat in g.to_act():  # nobody else is ready: the 天听 window only passes
        g.apply(Action("pass", seat))
    return g


def eight_immortals() -> Game:
    """Seat 1 has drawn the eighth flower: 八仙过海 offered on its turn."""
    h1 = [*H1[:9], 34, 35, 36, 37, 38, 39, 40]
    g = game_with([H0, h1, H2, H3], draws=[41], tail=filler([*H0, *h1, *H2, *H3], 7))
    for seat in g.to_act():
        g.apply(Action("pass", seat))
    g.apply(Action("discard", 0, H0[0]))
    drive(g, never, until=lambda g: g.phase == "turn" and g.turn == 1)
    return g


def seven_robs_one() -> Game:
    """Seat 2 draws the eighth flower while seat 1 holds seven: 七抢一 offered to seat 1."""
    hands = [list(H0), [*H1[:9], 34, 35, 36, 37, 38, 39, 40], list(H2), list(H3)]
    tail = filler([t for h in hands for t in h], 8)
    draws = [*filler([t for h in hands for t in h] + tail, 1, avoid=range(27, 34)), 41]
    g = game_with(hands, draws=draws, tail=tail)
    for seat in g.to_act():
        g.apply(Action("pass", seat))
    drive(g, never, until=lambda g: g.phase == "decide")
    return g


STATES: dict[str, tuple[Callable[[], Game], int, str]] = {
    # state, the seat asked, the variant action it is offered
    "heavenly": (heavenly, 1, DECLARE),
    "earthly": (earthly, 0, DECLARE),
    "eight_immortals": (eight_immortals, 1, FLOWER_WIN),
    "seven_robs_one": (seven_robs_one, 1, ROB_FLOWER),
}


def choose(bot: str, g: Game, seat: int) -> Action:
    legal = list(g.legal_actions(seat))
    if bot == "fast":
        return FastPolicy("taiwan").act(g, seat)
    player = TaiwanBot() if bot == "taiwan" else make_bot(bot, seed=1)
    return player.choose(g.view(seat), legal)


@pytest.mark.parametrize("state", list(STATES))
@pytest.mark.parametrize("bot", BOTS)
def test_every_bot_answers_variant_actions(bot: str, state: str) -> None:
    make, seat, kind = STATES[state]
    g = make()
    legal = g.legal_actions(seat)
    assert kind in {a.type for a in legal}, legal
    a = choose(bot, g, seat)
    assert a in legal
    if kind in WINNING_TYPES and bot != "random":
        assert a.type == kind, (bot, a)  # a flower win is always taken
    g.apply(a)  # and the hand goes on from there


@pytest.mark.parametrize("bot", ["greedy", "search:budget_ms=0:rollouts=8:procs=1"])
@pytest.mark.parametrize("state", ["heavenly", "earthly"])
def test_greedy_and_search_declare_a_ready_hand(bot: str, state: str) -> None:
    make, seat, _ = STATES[state]
    g = make()
    a = choose(bot, g, seat)
    assert a == Action(DECLARE, seat)
    g.apply(a)
    if state == "earthly":
        # declaring, the first discard must keep the hand ready: 7z, not 1s
        a = choose(bot, g, seat)
        assert a == Action("discard", seat, 33)
        g.apply(a)
        assert g.extra["declared"][seat] == "earthly"


def test_live_waits_counts_only_tiles_still_unseen() -> None:
    g = heavenly()
    ctx = HandContext(g.view(1))
    # 1s / 4s: two 1s held, so 2 + 4 unseen
    assert ctx.live_waits(ctx.counts, ctx.wilds) == 6 >= DECLARE_LIVE
    # a 单钓 on a tile the hand holds all four of: ready in shape, nothing can complete it
    dead = [0] * len(ctx.counts)
    for t in tiles("123m456m789m555p1111s"):
        dead[t] += 1
    assert ctx.live_waits(dead, 0) == 0
    # not ready at all
    unready = [0] * len(ctx.counts)
    for t in H1:
        unready[t] += 1
    assert ctx.live_waits(unready, 0) == 0


def test_greedy_never_declares_without_a_ready_discard() -> None:
    """Offered 地听 (the hand is ready after some discard) greedy declares only if that
    discard is one it would count as ready; every discard of the earthly hand but 7z / 1s
    breaks it, so the score of 'declare' tops them all only through the ready ones."""
    g = earthly()
    ranked = GreedyBot().rank(g.view(0), g.legal_actions(0))
    top = [a for _, a in ranked[:2]]
    assert top[0] == Action(DECLARE, 0) and top[1] == Action("discard", 0, 33)
