"""Every decision of a hand played by greedy bots, one at a time: the states a test or a
benchmark looks at (the 听牌 hints of ``tests/test_hints.py`` and
``benchmarks/bench_hints.py``). Greedy bots head for 听牌, so many of the states are ready.
"""

from __future__ import annotations

from collections.abc import Iterator

from laizi.bots import make_bot
from laizi.engine import Game
from laizi.engine.actions import PASS, Action

__all__ = ["greedy_decisions"]


def greedy_decisions(variant: str, seed: int) -> Iterator[tuple[Game, int]]:
    """The game and the seat to decide, at every decision of one hand of ``variant``
    (dealt from ``seed``) that greedy bots play; a prompt whose only answer is to pass is
    answered without being yielded. The game is the one in play: the caller reads it
    before asking for the next."""
    g = Game(variant, seed=seed)
    bots = [make_bot("greedy", seed=seed * 10 + i) for i in range(g.n)]
    while not g.over:
        s = g.to_act()[0]
        legal = g.legal_actions(s)
        if legal == (Action(PASS, s),):
            g.apply(legal[0])
            continue
        yield g, s
        g.apply(bots[s].choose(g.view(s), list(legal)))
