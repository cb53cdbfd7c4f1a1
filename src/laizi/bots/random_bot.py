"""``random``: a uniformly random legal action (a baseline)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from laizi.bots.protocol import View
from laizi.engine.actions import Action

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal actions, from its own ``random.Random(seed)``."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self.rng.randrange(len(legal_actions))]
