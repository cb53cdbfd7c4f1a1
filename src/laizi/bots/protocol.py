"""The bot protocol: ``choose(view, legal_actions) -> action``.

A bot sees only what its seat may know: the view of :meth:`laizi.engine.Game.view`
(plain JSON) and the list of its legal actions. It never receives the ``Game``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from laizi.engine.actions import Action

__all__ = ["Bot", "View"]

View = dict[str, Any]
"""A seat's view, as returned by ``Game.view(seat)``."""


@runtime_checkable
class Bot(Protocol):
    """Anything with a name and ``choose(view, legal_actions)`` is a bot."""

    name: str

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        """Return one of ``legal_actions``."""
        ...
