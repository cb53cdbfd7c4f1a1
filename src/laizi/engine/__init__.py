"""The game engine shared by every variant: state, actions, claims, views, log, replay.

>>> from laizi.engine import Game
>>> g = Game("jingzhou", seed=1)
>>> g.legal_actions(g.turn)[0].type in {"win", "discard", "special_kong", "concealed_kong"}
True
"""

from laizi.core.melds import Meld
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW
from laizi.engine.actions import Action, IllegalActionError, MalformedActionError
from laizi.engine.game import CLAIM, OVER, ROB, TURN, Game
from laizi.engine.log import ReplayError, dumps, loads, redact, replay, state_json
from laizi.engine.state import HandState
from laizi.engine.variant import Variant

__all__ = [
    "CLAIM",
    "DISCARD_WIN",
    "OVER",
    "ROB",
    "ROBBED_KONG",
    "SELF_DRAW",
    "TURN",
    "Action",
    "Game",
    "HandState",
    "IllegalActionError",
    "MalformedActionError",
    "Meld",
    "ReplayError",
    "Variant",
    "dumps",
    "loads",
    "redact",
    "replay",
    "state_json",
]
