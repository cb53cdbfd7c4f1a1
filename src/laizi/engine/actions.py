"""Actions: what a seat can do, as small immutable JSON-serialisable values.

An action is ``Action(type, seat, tile, tiles)``; ``tile`` is the tile the action is about
(the discard, the claimed tile, the kong tile, the winning tile) and ``tiles`` the full
meld a claim forms (sorted). Every action is hashable so ``legal_actions`` can be checked
by set membership.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "ADDED_KONG",
    "CHOW",
    "CLAIM_TYPES",
    "CONCEALED_KONG",
    "DISCARD",
    "KONG",
    "PASS",
    "PUNG",
    "SPECIAL_KONG",
    "TYPES",
    "WIN",
    "Action",
    "IllegalActionError",
    "register_action_types",
]

DISCARD = "discard"  # 打牌
WIN = "win"  # 胡: self-drawn (自摸), on a discard (点炮) or robbing an added kong (抢杠)
CONCEALED_KONG = "concealed_kong"  # 暗杠
ADDED_KONG = "added_kong"  # 补杠 / 蓄杠: the fourth tile added to one's own exposed pung
SPECIAL_KONG = "special_kong"  # variant kongs of one tile (红中杠, 赖子杠); see Variant
CHOW = "chow"  # 吃
PUNG = "pung"  # 碰
KONG = "kong"  # 明杠 on a discard (直杠)
PASS = "pass"  # 过

TYPES = (DISCARD, WIN, CONCEALED_KONG, ADDED_KONG, SPECIAL_KONG, CHOW, PUNG, KONG, PASS)
CLAIM_TYPES = frozenset({CHOW, PUNG, KONG})

_VARIANT_TYPES: set[str] = set()


def register_action_types(types: frozenset[str] | set[str]) -> None:
    """Accept a variant's own action types in :meth:`Action.from_json` (the engine calls
    this with ``Variant.action_types()`` when a game of that variant is created)."""
    _VARIANT_TYPES.update(types)


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; the message names the rule broken.

    The game state is left untouched when this is raised.
    """


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat."""

    type: str
    seat: int
    tile: int | None = None
    tiles: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "seat": self.seat}
        if self.tile is not None:
            out["tile"] = self.tile
        if self.tiles:
            out["tiles"] = list(self.tiles)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        try:
            kind = str(data["type"])
            seat = int(data["seat"])
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalActionError(f"malformed action {data!r}: {exc}") from None
        if kind not in TYPES and kind not in _VARIANT_TYPES:
            raise IllegalActionError(f"unknown action type {kind!r}")
        tile = data.get("tile")
        tiles = data.get("tiles", ())
        return cls(kind, seat, None if tile is None else int(tile), tuple(int(t) for t in tiles))

    def __str__(self) -> str:
        from laizi.tiles import format as fmt

        parts = [f"seat {self.seat} {self.type}"]
        if self.tiles:
            parts.append(fmt(self.tiles))
        elif self.tile is not None:
            parts.append(fmt([self.tile]))
        return " ".join(parts)
