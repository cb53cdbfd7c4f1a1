"""Strength levels named for the hall: 新手 / 熟手 / 高手 (novice / practised / expert).

A level is a name for a bot spec (:func:`laizi.bots.registry.make_bot` resolves it), so
``laizi arena mcr --bots expert,greedy`` measures exactly what a room's 高手 plays.
Parameters after the name override the level's own: ``expert:budget_ms=0`` is the
expert's search with no clock, only its fixed sample count (reproducible, and what the
arena figures in docs/bots.md were measured with).

* ``novice`` (新手): the engine's baseline (:mod:`laizi.bots.simple`): wins, claims and
  discards for the lowest shanten; no defence, no aims beyond speed.
* ``practised`` (熟手): ``greedy`` (tile efficiency, the variant's goals, defence).
* ``expert`` (高手): ``search`` with staged samples: 16, then 32, 64, … up to 512 while a
  rival to greedy's choice still looks promising (``stage=16:extend=0.5``) and has not
  yet won by 3 standard errors (``accept=3``), so the close calls get up to 512 samples
  and the clear ones stop at 16 (an MCR arena hand with one expert and three greedy
  bots took about 5 s of CPU: docs/bots.md, "Strength levels").
  A clock of one second caps it (a hall's bot may think that long; at about 5 ms an MCR
  sample, one second holds about 200, so in the hall the clock binds on the closest
  calls, and the bot then takes fewer samples rather than stalling the table).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LEVELS", "Level", "level_json", "resolve_level"]


@dataclass(frozen=True, slots=True)
class Level:
    """One named strength: its id, the bot spec it plays, and its names."""

    id: str
    spec: str
    zh: str
    en: str


LEVELS: dict[str, Level] = {lv.id: lv for lv in (
    Level("novice", "simple", "新手", "novice"),
    Level("practised", "greedy", "熟手", "practised"),
    Level("expert", "search:rollouts=512:stage=16:extend=0.5:accept=3:budget_ms=1000",
          "高手", "expert"),
)}
"""The levels, weakest first (the order the hall lists them in)."""


def resolve_level(spec: str) -> str:
    """The bot spec a level stands for, with the spec's own parameters after the level's
    (so they win); any other spec unchanged."""
    name, sep, rest = spec.strip().partition(":")
    level = LEVELS.get(name)
    if level is None:
        return spec
    return f"{level.spec}:{rest}" if sep and rest else level.spec


def level_json() -> list[dict[str, str]]:
    """The levels as the hall lists them (``GET /api/bots``): ``id``, ``spec`` and the
    two names, weakest first."""
    return [{"id": lv.id, "spec": lv.spec, "zh": lv.zh, "en": lv.en}
            for lv in LEVELS.values()]
