"""Chinese Official mahjong (国标麻将, MCR) fan calculator: the 81 fans, with golden tiles.

Entry point: :func:`score_hand` (see docs/fan.md).
"""

from __future__ import annotations

from .api import score_hand, seed_kong_fans
from .fans import FAN_BY_KEY, FANS, Fan
from .hand import MELD_KINDS, FanItem, FanResult, HandError, Meld, WinContext
from .tables import prepare_tables

__all__ = [
    "FANS",
    "FAN_BY_KEY",
    "MELD_KINDS",
    "Fan",
    "FanItem",
    "FanResult",
    "HandError",
    "Meld",
    "WinContext",
    "prepare_tables",
    "score_hand",
    "seed_kong_fans",
]
