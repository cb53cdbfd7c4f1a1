"""Helpers shared by the bot tests."""

from __future__ import annotations

from collections.abc import Iterator

from laizi.bots import make_bot
from laizi.bots.base import View
from laizi.engine import Game
from laizi.engine.actions import Action


def greedy_decisions(variant: str, seeds: range) -> Iterator[tuple[Game, int, View, list[Action]]]:
    """Every decision of greedy bots (as the hall seats them) playing ``seeds``: (game,
    seat, view, legal), the game moving on by greedy's choice once the caller is done
    with it."""
    for seed in seeds:
        g = Game(variant, seed=seed)
        bots = [make_bot("greedy", s) for s in range(g.n)]
        while not g.over:
            s = g.to_act()[0]
            view, legal = g.view(s), list(g.legal_actions(s))
            yield g, s, view, legal
            g.apply(bots[s].choose(view, legal))
