"""The facts a Taiwan 台 calculation starts from: the hand (手牌), its melds and the win.

A finished Taiwan hand holds 17 tiles (kongs count as three, flowers not at all): five
melds and a pair. The calculator takes

* ``concealed``: the concealed tiles (暗牌), the winning tile included;
* ``melds``: the declared melds, typed chow (吃) / pung (碰) / 明杠 (on a discard or added to
  a pung) / 暗杠;
* ``flowers``: the flowers held (花牌);
* ``winning_tile`` and a :class:`WinContext` (how and when the hand was won).

Anything with a string ``kind`` and a tuple ``tiles`` is accepted as a meld, so the engine's
``laizi.core.melds.Meld`` can be passed unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from laizi import tiles as T
from laizi.vocab import MeldKind

__all__ = [
    "TAIWAN_MELD_KINDS",
    "Declaration",
    "HandError",
    "MeldKind",
    "MeldLike",
    "TaiwanHand",
    "TaiwanMeld",
    "WinContext",
    "parse_hand",
]

WINDS = "东南西北"


class HandError(ValueError):
    """The hand or its context breaks a rule of the game (message names the rule)."""


TAIWAN_MELD_KINDS: tuple[MeldKind, ...] = (
    MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG, MeldKind.CONCEALED_KONG)
"""The meld kinds of a Taiwan hand (:class:`laizi.vocab.MeldKind` has the other variants'
one-tile kongs too): 吃, 碰, 明杠 on a discard, 加杠 / 补杠 (also 明杠), 暗杠."""


class MeldLike(Protocol):
    """What the calculator needs to know of a meld."""

    @property
    def kind(self) -> str: ...

    @property
    def tiles(self) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class TaiwanMeld:
    """A declared meld. ``tiles`` are sorted on creation."""

    kind: str
    tiles: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))
        _check_meld(self)

    @classmethod
    def chow(cls, first: int) -> TaiwanMeld:
        return cls(MeldKind.CHOW, (first, first + 1, first + 2))

    @classmethod
    def pung(cls, t: int) -> TaiwanMeld:
        return cls(MeldKind.PUNG, (t, t, t))

    @classmethod
    def kong(cls, t: int, *, concealed: bool = False) -> TaiwanMeld:
        return cls(MeldKind.CONCEALED_KONG if concealed else MeldKind.KONG, (t,) * 4)

    def to_json(self) -> dict[str, object]:
        return {"kind": str(self.kind), "tiles": list(self.tiles)}


def _check_meld(m: MeldLike) -> None:
    if m.kind not in TAIWAN_MELD_KINDS:
        raise HandError(
            f"unknown meld kind {m.kind!r}; expected one of "
            f"{', '.join(k.value for k in TAIWAN_MELD_KINDS)}")
    kind = MeldKind(m.kind)
    ts = sorted(m.tiles)
    for t in ts:
        if not 0 <= t < T.NUM_KINDS:
            raise HandError(f"meld {kind.value} holds {t!r}, which is not a non-flower tile id")
    if kind is MeldKind.CHOW:
        ok = (
            len(ts) == 3
            and T.is_suited(ts[0])
            and ts[1] == ts[0] + 1
            and ts[2] == ts[0] + 2
            and T.suit(ts[2]) == T.suit(ts[0])
        )
        if not ok:
            raise HandError(f"a chow is three consecutive tiles of one suit, not {T.format(ts)}")
    else:
        size = 3 if kind is MeldKind.PUNG else 4
        if len(ts) != size or len(set(ts)) != 1:
            raise HandError(f"a {kind.value} is {size} identical tiles, not {T.format(ts)}")


def is_open(m: MeldLike) -> bool:
    """Chow, pung and 明杠 open the hand (破门清); a 暗杠 does not."""
    return MeldKind(m.kind) is not MeldKind.CONCEALED_KONG


def is_set_of_same(m: MeldLike) -> bool:
    """A pung or a kong (坎子 / 杠子)."""
    return MeldKind(m.kind) is not MeldKind.CHOW


Declaration = Literal["heavenly", "earthly"]
"""天听 (a non-dealer ready right after the deal) / 地听 (ready at one's first discard)."""


@dataclass(frozen=True, slots=True)
class WinContext:
    """How and when the hand was won. Only the facts; the calculator draws conclusions.

    * ``self_drawn``: 自摸 (else the winning tile was a discard, or a robbed kong tile).
    * ``seat_wind`` / ``prevalent_wind``: 0 东, 1 南, 2 西, 3 北 (开门序 / 圈序).
    * The winner is the dealer (庄家) exactly when their seat wind is 东 (开门序: the
      dealer is 东). ``dealer_streak``: N of 连N拉N, the current dealer's consecutive
      continuations (0 on a fresh deal); it applies to the dealer's payments whoever wins.
    * ``robbed_kong``: 抢杠 (a discard-like win on a tile added to an exposed pung).
    * ``kong_replacement`` / ``flower_replacement``: self-drawn on a replacement tile from
      the tail after a kong / a flower (杠上开花).
    * ``last_tile``: won on the last drawable tile (海底) — self-drawn it is 海底捞月; on
      the last discard it is 河底撈魚 (only counted when that option is on).
    * ``declaration``: ``"heavenly"`` (天听) or ``"earthly"`` (地听) if declared, and
      ``passed_win_since_declaring``: the player passed a win (过水) since the declaration,
      which voids its 台 (seed 31-32).
    * ``first_draw``: self-drawn on the winner's first draw of the hand (for the dealer:
      the dealt 17 tiles, after flower replacement) — 天胡 / 地胡.
    * ``discarders_first_discard``: the winning discard was its discarder's first discard
      of the hand — 地胡.
    * ``first_go_round_after_declaration``: after declaring 地听, the winning tile is a
      player's first discard after the declaration, or the winner's next draw — 人胡.
    """

    self_drawn: bool
    seat_wind: int
    prevalent_wind: int = 0
    dealer_streak: int = 0
    robbed_kong: bool = False
    kong_replacement: bool = False
    flower_replacement: bool = False
    last_tile: bool = False
    declaration: Declaration | None = None
    passed_win_since_declaring: bool = False
    first_draw: bool = False
    discarders_first_discard: bool = False
    first_go_round_after_declaration: bool = False

    def __post_init__(self) -> None:
        for name in ("seat_wind", "prevalent_wind"):
            v = getattr(self, name)
            if not isinstance(v, int) or not 0 <= v <= 3:
                raise HandError(f"{name} must be 0-3 (东南西北), not {v!r}")
        if not isinstance(self.dealer_streak, int) or self.dealer_streak < 0:
            raise HandError(f"dealer_streak (连N) must be an int >= 0, not {self.dealer_streak!r}")
        if self.robbed_kong and self.self_drawn:
            raise HandError("a robbed kong (抢杠) is won on another player's tile, not self-drawn")
        if (self.kong_replacement or self.flower_replacement) and not self.self_drawn:
            raise HandError("a win on a replacement tile (杠上开花) is self-drawn")
        if self.first_draw and not self.self_drawn:
            raise HandError("first_draw describes a self-drawn win on one's first draw")
        if self.discarders_first_discard and self.self_drawn:
            raise HandError("discarders_first_discard describes a win on a discard")
        if self.declaration not in (None, "heavenly", "earthly"):
            raise HandError(f"declaration must be 'heavenly', 'earthly' or None, "
                            f"not {self.declaration!r}")
        if self.declaration == "heavenly" and self.dealer:
            raise HandError("天听 is declared by a non-dealer; a dealer declaring at the first "
                            "discard declares 地听 (seed 32)")
        if self.first_go_round_after_declaration and self.declaration != "earthly":
            raise HandError("first_go_round_after_declaration needs a 地听 declaration (人胡)")
        if self.passed_win_since_declaring and self.declaration is None:
            raise HandError("passed_win_since_declaring needs a declaration (天听/地听)")

    @property
    def dealer(self) -> bool:
        """The winner is the dealer (seat wind 东)."""
        return self.seat_wind == 0

    @property
    def seat_wind_tile(self) -> int:
        return T.EAST + self.seat_wind

    @property
    def prevalent_wind_tile(self) -> int:
        return T.EAST + self.prevalent_wind

    def to_json(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> WinContext:
        return cls(**data)


@dataclass(frozen=True, slots=True)
class TaiwanHand:
    """A winning Taiwan hand: concealed tiles (winning tile included), melds, flowers."""

    concealed: tuple[int, ...]
    melds: tuple[TaiwanMeld, ...] = ()
    flowers: tuple[int, ...] = ()
    winning_tile: int = -1

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))
        object.__setattr__(self, "melds", tuple(
            m if isinstance(m, TaiwanMeld) else TaiwanMeld(m.kind, tuple(m.tiles))
            for m in self.melds
        ))
        object.__setattr__(self, "flowers", tuple(sorted(self.flowers)))
        for t in self.concealed:
            if not 0 <= t < T.NUM_KINDS:
                raise HandError(f"concealed tile {t!r} is not a non-flower tile id "
                                "(flowers go in `flowers`)")
        for f in self.flowers:
            if not T.is_flower(f):
                raise HandError(f"{f!r} is not a flower tile id (34-41)")
        if len(set(self.flowers)) != len(self.flowers):
            raise HandError("each flower exists once")
        need = 17 - 3 * len(self.melds)
        if len(self.melds) > 5:
            raise HandError(f"a hand has at most five melds, not {len(self.melds)}")
        if len(self.concealed) != need:
            raise HandError(
                f"with {len(self.melds)} declared melds the concealed part of a finished hand "
                f"holds {need} tiles (17 in all, kongs counting three), not {len(self.concealed)}"
            )
        if self.winning_tile not in self.concealed:
            raise HandError(f"the winning tile {self.winning_tile!r} is not among the concealed "
                            "tiles (it must be included)")
        for t, c in enumerate(T.to_counts(self.all_tiles)):
            if c > 4:
                raise HandError(f"{c} copies of {T.name(t)}; there are only four")

    @property
    def all_tiles(self) -> tuple[int, ...]:
        """Every non-flower tile of the hand, kongs with all four tiles (sorted)."""
        every = list(self.concealed)
        for m in self.melds:
            every.extend(m.tiles)
        return tuple(sorted(every))

    @property
    def is_concealed(self) -> bool:
        """门清: no chow, pung or 明杠 (暗杠 allowed)."""
        return not any(is_open(m) for m in self.melds)

    def to_json(self) -> dict[str, object]:
        return {
            "concealed": list(self.concealed),
            "melds": [m.to_json() for m in self.melds],
            "flowers": list(self.flowers),
            "winning_tile": self.winning_tile,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TaiwanHand:
        return cls(
            tuple(int(t) for t in data["concealed"]),
            tuple(TaiwanMeld(str(m["kind"]), tuple(int(t) for t in m["tiles"]))
                  for m in data.get("melds", ())),
            tuple(int(f) for f in data.get("flowers", ())),
            int(data["winning_tile"]),
        )


_MELD_PREFIX = {"c": MeldKind.CHOW, "p": MeldKind.PUNG, "k": MeldKind.KONG,
                "a": MeldKind.CONCEALED_KONG}


def parse_hand(concealed: str, win: str, melds: Sequence[str] = (), flowers: str = "",
               dialect: T.Dialect = "mpsz") -> TaiwanHand:
    """Build a hand from notation, e.g. ``parse_hand("123m 55z", "5z", ["c456p", "p777s"])``.

    Each meld is a kind letter followed by its tiles: ``c`` chow, ``p`` pung, ``k`` 明杠,
    ``a`` 暗杠. ``flowers`` uses ``1f``-``8f`` (春夏秋冬梅兰竹菊).
    """
    built: list[TaiwanMeld] = []
    for i, text in enumerate(melds):
        kind = _MELD_PREFIX.get(text[:1])
        if kind is None:
            raise HandError(f"meld {i} ({text!r}) must start with c (chow), p (pung), k (明杠) "
                            "or a (暗杠)")
        built.append(TaiwanMeld(kind, tuple(T.parse(text[1:], dialect))))
    return TaiwanHand(
        tuple(T.parse(concealed, dialect)),
        tuple(built),
        tuple(T.parse(flowers, dialect)) if flowers else (),
        T.parse_tile(win, dialect),
    )
