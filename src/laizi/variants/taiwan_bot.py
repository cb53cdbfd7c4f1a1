"""A Taiwan bot: takes every win and flower win, declares 天听/地听 when it may, and plays
the rest with the engine's reference shanten bot (:class:`laizi.bots.simple.SimpleBot`)
on Taiwan's shape (melds and a pair, no seven pairs). It sees only its view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from laizi.analysis import WinRules
from laizi.core.jsondata import JSON
from laizi.engine.actions import DECLARE, FLOWER_WIN, ROB_FLOWER, WIN, Action

if TYPE_CHECKING:
    from laizi.bots.base import Bot

__all__ = ["TaiwanBot"]

_OWN = frozenset({DECLARE, FLOWER_WIN, ROB_FLOWER})


class TaiwanBot:
    """Greedy and deterministic; ``declare`` (bool) says whether it declares 天听/地听."""

    name = "taiwan"

    def __init__(self, inner: Bot | None = None, *, declare: bool = True) -> None:
        if inner is None:
            from laizi.bots.simple import SimpleBot

            inner = SimpleBot(WinRules(seven_pairs=False))
        self.inner = inner
        self.declare = declare

    def choose(self, view: JSON, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        for kind in (WIN, FLOWER_WIN, ROB_FLOWER):
            for a in legal_actions:
                if a.type == kind:
                    return a
        if self.declare:
            for a in legal_actions:
                if a.type == DECLARE:
                    return a
        core = [a for a in legal_actions if a.type not in _OWN]
        return self.inner.choose(view, core)
