"""Actions: what a seat can do, as small immutable JSON-serialisable values.

An action is ``Action(type, seat, tile, tiles)``; ``tile`` is the tile the action is about
(the discard, the claimed tile, the kong tile, the winning tile) and ``tiles`` the full
meld a claim forms (sorted). Every action is hashable so ``legal_actions`` can be checked
by set membership.

The boundary is strict (docs/protocol.md, "Actions"): :meth:`Action.from_json` takes only
a dict with the keys ``type``, ``seat``, ``tile``, ``tiles``, of exactly the JSON types
they have (no bool as an int, no float tile, no ``"0"``), in range, and refuses anything
else with :class:`~laizi.errors.MalformedActionError`; nothing is coerced, so an accepted
action's ``to_json()`` is its input. The action types are a static set (the engine's own
and those of every built-in variant): parsing needs no game and no registration.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass

from laizi.core.jsondata import JSON
from laizi.errors import ErrorCode, IllegalActionError, MalformedActionError
from laizi.tiles import NUM_TILE_IDS
from laizi.tiles import format as fmt
from laizi.vocab import ActionType

__all__ = [
    "ADDED_KONG",
    "CHOW",
    "CLAIM_TYPES",
    "CONCEALED_KONG",
    "DECLARE",
    "DISCARD",
    "FIELDS",
    "FLOWER_WIN",
    "KNOWN_TYPES",
    "KONG",
    "LOGGED_TYPES",
    "MAX_SEATS",
    "MAX_TILES",
    "PASS",
    "PUNG",
    "ROB_FLOWER",
    "SPECIAL_KONG",
    "TYPES",
    "VARIANT_TYPES",
    "WIN",
    "WINNING_TYPES",
    "WRONG_WIN",
    "Action",
    "IllegalActionError",
    "MalformedActionError",
    "check_action",
    "short_repr",
]

DISCARD = ActionType.DISCARD  # 打牌
WIN = ActionType.WIN  # 胡: self-drawn (自摸), on a discard (点炮) or robbing an added kong
CONCEALED_KONG = ActionType.CONCEALED_KONG  # 暗杠
ADDED_KONG = ActionType.ADDED_KONG  # 补杠 / 蓄杠
SPECIAL_KONG = ActionType.SPECIAL_KONG  # variant kongs of one tile (红中杠, 赖子杠)
CHOW = ActionType.CHOW  # 吃
PUNG = ActionType.PUNG  # 碰
KONG = ActionType.KONG  # 明杠 on a discard (直杠)
PASS = ActionType.PASS  # 过

TYPES = (DISCARD, WIN, CONCEALED_KONG, ADDED_KONG, SPECIAL_KONG, CHOW, PUNG, KONG, PASS)
CLAIM_TYPES = frozenset({CHOW, PUNG, KONG})

DECLARE = ActionType.DECLARE  # 宣告听牌 (Taiwan 天听 / 地听)
FLOWER_WIN = ActionType.FLOWER_WIN  # 花胡 八仙过海 (Taiwan)
ROB_FLOWER = ActionType.ROB_FLOWER  # 花胡 七抢一 (Taiwan)

VARIANT_TYPES: dict[str, frozenset[str]] = {
    "taiwan": frozenset({DECLARE, FLOWER_WIN, ROB_FLOWER}),
}
"""The own action types (``Variant.action_types()``) of every built-in variant that has
any; a test holds this list to the variants."""

WINNING_TYPES: frozenset[str] = frozenset({WIN, FLOWER_WIN, ROB_FLOWER})
"""The action types that win the hand: 胡, and Taiwan's flower wins (花胡), which carry no
winning tile of the hand (``tile`` is ``None``, or the flower robbed)."""

KNOWN_TYPES: frozenset[str] = frozenset(TYPES).union(*VARIANT_TYPES.values())
"""Every action type :meth:`Action.from_json` accepts without being told more."""

WRONG_WIN = ActionType.WRONG_WIN
"""错和: a 胡 declared without a win. It is in no legal-action list and not among
:data:`KNOWN_TYPES` (so no encoder's action space, and no person's message, has it): a
game whose rules settle it (:meth:`Variant.settles_wrong_win`, MCR ``profile=botzone``)
takes it from a program at a seat with a decision and ends the hand (Botzone's judge:
−30 / +10); every other game refuses it as an ``unknown_type``."""

LOGGED_TYPES: frozenset[str] = frozenset({WRONG_WIN})
"""Action types a log may hold beyond :data:`KNOWN_TYPES`: the readers of logs
(:func:`laizi.engine.events.game_event_from_json`, the table's lines) take them, and
replaying the log asks the game whether it plays them."""

FIELDS = frozenset({"type", "seat", "tile", "tiles"})
MAX_SEATS = 8
"""Seats are ``0 <= seat < MAX_SEATS`` in JSON (a game checks its own number of seats)."""
MAX_TILES = 4
"""The longest ``tiles`` of an action (a kong)."""


class _ShortRepr(reprlib.Repr):
    """``repr`` for messages about untrusted input: bounded in size and depth, and safe
    for ints too large for ``str`` (Python refuses to print more than 4300 digits)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxdict = self.maxlist = self.maxtuple = self.maxset = 6
        self.maxstring = self.maxother = 60
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<int of {x.bit_length()} bits>"
        return super().repr_int(x, level)


short_repr = _ShortRepr().repr
"""A bounded ``repr`` of untrusted input, for error messages."""


def _is_int(x: object) -> bool:
    return type(x) is int  # not bool, not float, not an int subclass


def _tile_ok(x: object) -> bool:
    return type(x) is int and 0 <= x < NUM_TILE_IDS


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat."""

    type: str
    seat: int
    tile: int | None = None
    tiles: tuple[int, ...] = ()

    def to_json(self) -> JSON:
        out: JSON = {"type": self.type, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = self.tile
        if self.tiles:
            out["tiles"] = list(self.tiles)
        return out

    @classmethod
    def from_json(cls, data: object, *, types: frozenset[str] = frozenset()) -> Action:
        """The action ``data`` (a dict as ``to_json`` gives) describes, checked strictly.

        :class:`~laizi.errors.MalformedActionError` (code ``malformed``, or
        ``unknown_type``) if ``data`` is not a dict, has a field other than ``type``,
        ``seat``, ``tile``, ``tiles``, lacks ``type`` or ``seat``, or a field is not of its
        exact type and range: ``type`` a known action type (:data:`KNOWN_TYPES`, plus
        ``types``, e.g. a registered variant's own), ``seat`` an int ``0 <= seat < 8``,
        ``tile`` absent, ``None`` or a tile id 0-41, ``tiles`` absent or a list of at most
        four tile ids. Bools, floats and strings are never taken for ints. Whether the
        action is legal is the game's business (:meth:`laizi.engine.Game.apply`).
        """
        if not isinstance(data, dict):
            raise MalformedActionError(f"an action is a JSON object, not {short_repr(data)}")
        unknown = [k for k in data if k not in FIELDS]
        if unknown:
            raise MalformedActionError(
                f"malformed action {short_repr(data)}: unknown field(s) "
                f"{', '.join(short_repr(k) for k in unknown)} (an action has "
                "type, seat, tile, tiles)")
        if "type" not in data or "seat" not in data:
            raise MalformedActionError(
                f"malformed action {short_repr(data)}: it needs a type and a seat")
        seat = data["seat"]
        if not _is_int(seat) or not 0 <= seat < MAX_SEATS:
            raise MalformedActionError(
                f"malformed action {short_repr(data)}: seat must be an int 0-{MAX_SEATS - 1}, "
                f"not {short_repr(seat)}")
        kind = data["type"]
        if type(kind) is not str and type(kind) is not ActionType:
            raise MalformedActionError(
                f"malformed action {short_repr(data)}: type must be a string, "
                f"not {short_repr(kind)}", seat=seat)
        if kind not in KNOWN_TYPES and kind not in types:
            raise MalformedActionError(f"unknown action type {short_repr(kind)}",
                                       code=ErrorCode.UNKNOWN_TYPE, seat=seat)
        tile = data.get("tile")
        if tile is not None and not _tile_ok(tile):
            raise MalformedActionError(
                f"malformed action {short_repr(data)}: tile must be a tile id "
                f"0-{NUM_TILE_IDS - 1} or null, not {short_repr(tile)}", seat=seat)
        tiles = data.get("tiles", [])
        if type(tiles) is not list or len(tiles) > MAX_TILES \
                or not all(_tile_ok(t) for t in tiles):
            raise MalformedActionError(
                f"malformed action {short_repr(data)}: tiles must be a list of at most "
                f"{MAX_TILES} tile ids 0-{NUM_TILE_IDS - 1}, not {short_repr(tiles)}",
                seat=seat)
        return cls(kind, seat, tile, tuple(tiles))

    def __str__(self) -> str:
        parts = [f"seat {self.seat} {self.type}"]
        try:
            if self.tiles:
                parts.append(fmt(self.tiles))
            elif self.tile is not None:
                parts.append(fmt([self.tile]))
        except (TypeError, ValueError):  # an action built by hand with garbage fields
            return f"seat {short_repr(self.seat)} {short_repr(self.type)} " \
                   f"{short_repr(self.tile)} {short_repr(self.tiles)}"
        return " ".join(parts)


def check_action(action: object, types: frozenset[str] = KNOWN_TYPES,
                 seats: int = MAX_SEATS, phase: str | None = None) -> None:
    """Refuse an :class:`Action` whose fields are not what :meth:`Action.from_json` would
    give (an ``Action(...)`` built by hand with ``seat=True``, ``tile=10.0``, ``tile=999``,
    ``tiles=[...]``): :class:`~laizi.errors.MalformedActionError` (``malformed``,
    ``unknown_type``), or :class:`~laizi.errors.IllegalActionError` (``no_such_seat``) for
    a seat the game does not have. ``phase`` is copied into the error."""
    if not isinstance(action, Action):
        raise MalformedActionError(f"not an Action: {short_repr(action)}", phase=phase)
    seat = action.seat
    if not _is_int(seat):
        raise MalformedActionError(f"malformed action: seat must be an int, not "
                                   f"{short_repr(seat)}", phase=phase)
    if not 0 <= seat < seats:
        raise IllegalActionError(f"no seat {short_repr(seat)} at this table (0-{seats - 1})",
                                 code=ErrorCode.NO_SUCH_SEAT,
                                 seat=seat if -2**63 <= seat < 2**63 else None, phase=phase)
    kind = action.type
    if type(kind) is not str and type(kind) is not ActionType:
        raise MalformedActionError(f"malformed action: type must be a string, not "
                                   f"{short_repr(kind)}", seat=seat, phase=phase)
    if kind not in types:
        raise MalformedActionError(f"unknown action type {short_repr(kind)}",
                                   code=ErrorCode.UNKNOWN_TYPE, seat=seat, phase=phase)
    tile = action.tile
    if tile is not None and not _tile_ok(tile):
        raise MalformedActionError(f"malformed action: tile must be a tile id "
                                   f"0-{NUM_TILE_IDS - 1} or None, not {short_repr(tile)}",
                                   seat=seat, phase=phase)
    tiles = action.tiles
    if type(tiles) is not tuple or len(tiles) > MAX_TILES or not all(map(_tile_ok, tiles)):
        raise MalformedActionError(f"malformed action: tiles must be a tuple of at most "
                                   f"{MAX_TILES} tile ids, not {short_repr(tiles)}",
                                   seat=seat, phase=phase)
