"""One reading of a winning hand and the facts the 台 items are judged on.

A :class:`Reading` lists the hand's groups: the declared melds plus one way of splitting
the concealed tiles, with the winning tile placed in one group. Whether a pung counts as
暗坎 (concealed) is decided here: a pung formed in the concealed tiles is concealed unless
the winning tile completing it was a discard (or a robbed kong tile); a 暗杠 is concealed;
a declared pung or 明杠 is not (seed 16-18: 配得或摸得之坎子 — dealt or drawn).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from laizi import tiles as T
from laizi.scoring.taiwan.hand import MeldKind, TaiwanHand, WinContext
from laizi.scoring.taiwan.words import PartKind, ReadingShape

__all__ = ["Facts", "Part", "Reading", "RuleSwitches"]


class RuleSwitches(Protocol):
    """The options an item looks at (:class:`~laizi.scoring.taiwan.options.TaiwanOptions`
    has them; named here so that the facts do not import the options, whose check of the
    ``tai`` keys reads the item table)."""

    @property
    def flower_replacement_bloom(self) -> bool: ...

    @property
    def last_discard(self) -> bool: ...



@dataclass(frozen=True, slots=True)
class Part:
    """A group of a reading.

    ``declared``: a declared meld (吃/碰/杠). ``concealed``: counts as 暗 (for 暗坎).
    ``has_win``: the winning tile was placed in this group.
    """

    kind: PartKind
    tiles: tuple[int, ...]
    declared: bool = False
    concealed: bool = True
    has_win: bool = False

    @property
    def is_pung(self) -> bool:
        """A 坎子: pung or kong."""
        return self.kind in (PartKind.PUNG, PartKind.KONG)

    @property
    def tile(self) -> int:
        return self.tiles[0]

    def describe(self) -> str:
        text = T.format(self.tiles, "chinese").replace(" ", "")
        if self.declared:
            label = {"chow": "吃", "pung": "碰", "kong": "杠"}[self.kind]
            text = f"{label}{text}" if self.concealed is False else f"暗杠{text}"
        return text

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "tiles": list(self.tiles), "declared": self.declared,
                "concealed": self.concealed, "winning_tile": self.has_win}


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read the hand: ``parts`` = declared melds + the concealed split."""

    shape: ReadingShape
    parts: tuple[Part, ...]

    def to_json(self) -> dict[str, object]:
        return {"shape": self.shape, "groups": [p.to_json() for p in self.parts]}

    def describe(self) -> str:
        return " ".join(p.describe() for p in self.parts)


@dataclass(frozen=True)
class Facts:
    """Everything an item predicate may look at, for one reading of one hand."""

    hand: TaiwanHand
    ctx: WinContext
    options: RuleSwitches
    reading: Reading
    waits: frozenset[int]
    tai: Callable[[str], int]
    """The value of a 台 key, with the options' overrides applied."""

    # ------------------------------------------------------------ groups

    @cached_property
    def pungs(self) -> tuple[Part, ...]:
        return tuple(p for p in self.reading.parts if p.is_pung)

    @cached_property
    def chows(self) -> tuple[Part, ...]:
        return tuple(p for p in self.reading.parts if p.kind == PartKind.CHOW)

    @cached_property
    def pairs(self) -> tuple[Part, ...]:
        return tuple(p for p in self.reading.parts if p.kind == PartKind.PAIR)

    @property
    def standard(self) -> bool:
        return self.reading.shape == ReadingShape.STANDARD

    @cached_property
    def pair_tile(self) -> int | None:
        """The pair (将) of a standard reading."""
        return self.pairs[0].tile if self.standard else None

    def pungs_of(self, kinds: tuple[int, ...]) -> tuple[Part, ...]:
        return tuple(p for p in self.pungs if p.tile in kinds)

    @cached_property
    def wind_pungs(self) -> tuple[Part, ...]:
        return self.pungs_of((T.EAST, T.SOUTH, T.WEST, T.NORTH))

    @cached_property
    def dragon_pungs(self) -> tuple[Part, ...]:
        return self.pungs_of((T.WHITE, T.GREEN, T.RED))

    @cached_property
    def concealed_pungs(self) -> tuple[Part, ...]:
        return tuple(p for p in self.pungs if p.concealed)

    # ------------------------------------------------------------ tiles

    @cached_property
    def suits(self) -> frozenset[int]:
        """Suits (0-2) of the suited tiles held."""
        return frozenset(T.suit(t) for t in self.hand.all_tiles if T.is_suited(t))

    @cached_property
    def has_honours(self) -> bool:
        return any(T.is_honour(t) for t in self.hand.all_tiles)

    # ------------------------------------------------------------ the win

    @property
    def menqing(self) -> bool:
        """门清: no chow, pung or 明杠 (暗杠 allowed)."""
        return self.hand.is_concealed

    @property
    def no_melds(self) -> bool:
        return not self.hand.melds

    @property
    def all_claimed(self) -> bool:
        """Every one of the five melds declared, and none of them a 暗杠 (a 暗杠 is not 求)."""
        return len(self.hand.melds) == 5 and all(
            MeldKind(m.kind) is not MeldKind.CONCEALED_KONG for m in self.hand.melds
        )

    @property
    def single_wait(self) -> bool:
        """独听: the hand without the winning tile waited on one tile kind only."""
        return len(self.waits) == 1

    @cached_property
    def winning_part(self) -> Part:
        return next(p for p in self.reading.parts if p.has_win)

    def wait_shape(self) -> str:
        """How the winning tile fits the reading: 单钓 / 卡张 / 边张 / 两面 / 对倒."""
        part, w = self.winning_part, self.hand.winning_tile
        if part.kind == PartKind.PAIR:
            return "单钓"
        if part.is_pung:
            return "对倒"
        lo = part.tiles[0]
        if w == lo + 1:
            return "卡张"
        if (w == lo and T.rank(lo) == 7) or (w == lo + 2 and T.rank(lo) == 1):
            return "边张"
        return "两面"
