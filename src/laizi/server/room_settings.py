"""What the host of a room chose (房间设置): the room's settings, checked once when the room
is made and stored with it (docs/hall.md, "Rooms")."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from laizi.bots.levels import LEVELS
from laizi.errors import ErrorCode, TableError
from laizi.table.table import Table

__all__ = ["BOT_LEVELS", "BOT_PREFIX", "RoomSettings"]

BOT_PREFIX = "🤖 "
"""Bots' names start with this (a person's name may not)."""

BOT_LEVELS = (*LEVELS, "greedy", "search", "random")
"""What a room's bots may be: the strength levels 新手 / 熟手 / 高手 (:mod:`laizi.bots.levels`,
the ones the lobby offers, ``GET /api/bots``), and the bots' own names, which rooms made
before the levels keep."""


def _number(data: dict[str, object], key: str, default: float | None, lo: float, hi: float,
            *, optional: bool = False) -> float | None:
    value = data.get(key, default)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
        raise TableError(f"{key} must be a number {lo}-{hi}, got {value!r}",
                         code=ErrorCode.MALFORMED)
    return float(value)


def _flag(data: dict[str, object], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise TableError(f"{key} must be true or false, got {value!r}",
                         code=ErrorCode.MALFORMED)
    return value


def _checked(data: dict[str, object]) -> tuple[str, dict[str, object], str, int | None, str]:
    """The settings that are neither numbers nor flags, checked in the order their errors
    are told: variant, options, bots, hands, name."""
    known = {f.name for f in dataclasses.fields(RoomSettings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise TableError(f"unknown room setting(s) {', '.join(unknown)}; known: "
                         f"{', '.join(sorted(known))}", code=ErrorCode.MALFORMED)
    variant = data.get("variant")
    from laizi.variants import ids

    if not isinstance(variant, str) or variant not in ids():
        raise TableError(f"variant must be one of {', '.join(ids())}, got {variant!r}",
                         code=ErrorCode.MALFORMED)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise TableError("options are a JSON object", code=ErrorCode.MALFORMED)
    bots = data.get("bots", "greedy")
    if bots not in BOT_LEVELS:
        raise TableError(f"bots must be one of {', '.join(BOT_LEVELS)}, got {bots!r}",
                         code=ErrorCode.MALFORMED)
    hands = data.get("hands")
    if hands is not None and (isinstance(hands, bool) or not isinstance(hands, int)
                              or not 1 <= hands <= 1000):
        raise TableError(f"hands must be 1-1000, got {hands!r}", code=ErrorCode.MALFORMED)
    name = data.get("name", "")
    if not isinstance(name, str) or len(name) > 64 or not name.isprintable():
        raise TableError("a room name is up to 64 printable characters",
                         code=ErrorCode.MALFORMED)
    return variant, dict(options), str(bots), hands, name


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """What the host chose (stored with the room).

    ``clock``: seconds a person has for each decision (``None``: no clock), then on a
    turn the default action and 托管, in a claim window 过; ``claim_min``: the shortest
    claim window when a person sits; ``bot_delay``: a bot's pause on its turn, so people
    can follow; ``between``: seconds between hands (everyone ready skips it); ``grace``:
    seconds a disconnected person's seat waits before a bot plays it; ``pause_empty``:
    no new hand is dealt while no player of the room has a connection open (the room
    waits for people, and its ledger stays where it is); ``hints``: 听牌提示, each
    player is shown what their discards would wait on and what each win would pay
    (:mod:`laizi.engine.hints`; a host turns it off for serious play).
    """

    variant: str
    options: dict[str, object] = field(default_factory=dict)
    bots: str = "greedy"
    clock: float | None = 20.0
    claim_min: float = 0.8
    bot_delay: float = 0.5
    between: float = 8.0
    grace: float = 5.0
    hands: int | None = None
    name: str = ""
    pause_empty: bool = True
    hints: bool = True

    @classmethod
    def from_json(cls, data: object) -> RoomSettings:
        if not isinstance(data, dict):
            raise TableError("room settings are a JSON object", code=ErrorCode.MALFORMED)
        variant, options, bots, hands, name = _checked(data)
        settings = cls(
            variant=variant, options=options, bots=bots,
            clock=_number(data, "clock", 20.0, 1, 600, optional=True),
            claim_min=_number(data, "claim_min", 0.8, 0, 10) or 0.0,
            bot_delay=_number(data, "bot_delay", 0.5, 0, 10) or 0.0,
            between=_number(data, "between", 8.0, 0, 120) or 0.0,
            grace=_number(data, "grace", 5.0, 0, 600) or 0.0,
            hands=hands, name=name, pause_empty=_flag(data, "pause_empty", True),
            hints=_flag(data, "hints", True),
        )
        Table(variant, settings.options)  # the options must make a table
        return settings

    def to_json(self) -> dict[str, object]:
        return dataclasses.asdict(self)
