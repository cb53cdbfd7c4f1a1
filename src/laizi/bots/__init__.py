"""Bots: each sees only its seat's view and its legal actions.

>>> from laizi.bots import make_bot
>>> make_bot("greedy").name
'greedy'

``choose(view, legal_actions) -> action`` is the whole protocol
(:class:`laizi.bots.protocol.Bot`); ``laizi.bots.registry`` builds bots by name.
"""

from laizi.bots.protocol import Bot, View
from laizi.bots.registry import BotSpecError, bot_names, make_bot, parse_spec

__all__ = ["Bot", "BotSpecError", "View", "bot_names", "make_bot", "parse_spec"]
