"""The bot protocol, as the bots package uses it.

The contract lives in :mod:`laizi.bots.base` (``choose(view, legal_actions) -> action``;
a bot sees only its seat's view and legal actions, never the ``Game``); this module
re-exports it so the bots here import one name.
"""

from __future__ import annotations

from laizi.bots.base import Bot, View

__all__ = ["Bot", "View"]
