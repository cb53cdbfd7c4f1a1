"""The bot protocol: ``choose(view, legal_actions) -> action``.

A bot sees only what its seat may know: the view of :meth:`laizi.engine.Game.view` (plain
JSON) and its legal actions; it never receives the ``Game``. Protocols are structural: any
object with a ``name`` and this ``choose`` is a bot (``laizi.bots.protocol`` states the same
contract for the bots package).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action

if TYPE_CHECKING:
    from laizi.engine.game import Game

__all__ = ["Bot", "View", "run_hand"]

View = JSON
"""A seat's view, as returned by ``Game.view(seat)``."""


@runtime_checkable
class Bot(Protocol):
    """Anything with a name and ``choose(view, legal_actions)`` is a bot."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        """Return one of ``legal_actions``."""
        ...


def run_hand(game: Game, bots: Sequence[Bot]) -> None:
    """Play ``game`` (a :class:`laizi.engine.Game`) to its end, seat ``s`` by ``bots[s]``."""
    while not game.over:
        for seat in game.to_act():
            game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
