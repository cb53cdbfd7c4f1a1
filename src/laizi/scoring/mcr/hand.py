"""Input and output types of the MCR fan calculator (plain, frozen, JSON-serialisable)."""

from __future__ import annotations

from dataclasses import dataclass

from laizi import tiles as T
from laizi.copying import rebuild_from_fields
from laizi.vocab import MeldKind

from .fans import FAN_BY_KEY

__all__ = [
    "MELD_KINDS",
    "FanItem",
    "FanResult",
    "HandError",
    "Meld",
    "WinContext",
]

MELD_KINDS: tuple[str, ...] = tuple(
    k.value for k in (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.CONCEALED_KONG))
"""吃, 碰, 明杠 (on a discard or added to a pung) and 暗杠 (their words, as plain strings)."""


class HandError(ValueError):
    """The input cannot describe a hand at all (wrong tile count, a fifth copy, …)."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A set laid down in front of the player.

    ``kind`` is ``"chow"`` (吃), ``"pung"`` (碰), ``"kong"`` (明杠: claimed or added) or
    ``"concealed_kong"`` (暗杠); ``tile`` is the lowest tile of the set (for a chow the
    first of its three tiles).
    """

    kind: str
    tile: int

    def __post_init__(self) -> None:
        if self.kind not in MELD_KINDS:
            raise HandError(f"unknown meld kind {self.kind!r}; expected one of "
                            f"{', '.join(MELD_KINDS)}")
        if not 0 <= self.tile < T.NUM_KINDS:
            raise HandError(f"meld tile {self.tile} is not a tile id 0-33")
        if self.kind == MeldKind.CHOW and (not T.is_suited(self.tile) or T.rank(self.tile) > 7):
            raise HandError(f"no chow starts at {T.name(self.tile, 'mpsz')}")

    @property
    def tiles(self) -> tuple[int, ...]:
        t = self.tile
        if self.kind == MeldKind.CHOW:
            return (t, t + 1, t + 2)
        return (t,) * (3 if self.kind == MeldKind.PUNG else 4)

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_claimed(self) -> bool:
        """Claimed from another player (明): everything except a concealed kong."""
        return self.kind != MeldKind.CONCEALED_KONG

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "tiles": T.format(self.tiles)}


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the hand was won; the situational fans come from here.

    Winds are tile ids (``laizi.tiles.EAST`` … ``NORTH``).

    * ``self_drawn`` 自摸; ``last_tile_of_wall`` 妙手回春 (needs ``self_drawn``);
      ``last_discard`` 海底捞月 (needs a discard win);
    * ``kong_replacement`` 杠上开花 (self-drawn after a kong); ``robbed_kong`` 抢杠和;
    * ``last_copy`` 和绝张: the winning tile is the last unseen copy.
    """

    self_drawn: bool = False
    last_tile_of_wall: bool = False
    last_discard: bool = False
    kong_replacement: bool = False
    robbed_kong: bool = False
    last_copy: bool = False
    seat_wind: int = T.EAST
    prevalent_wind: int = T.EAST
    flowers: int = 0

    def __post_init__(self) -> None:
        for name in ("seat_wind", "prevalent_wind"):
            w = getattr(self, name)
            if w not in (T.EAST, T.SOUTH, T.WEST, T.NORTH):
                raise HandError(f"{name} must be a wind tile id 27-30, got {w!r}")
        if not 0 <= self.flowers <= 8:
            raise HandError(f"flowers must be 0-8, got {self.flowers}")
        if self.last_tile_of_wall and not self.self_drawn:
            raise HandError("妙手回春 (last tile of the wall) is a self-drawn win")
        if self.last_discard and self.self_drawn:
            raise HandError("海底捞月 (last discard) is not a self-drawn win")
        if self.kong_replacement and not self.self_drawn:
            raise HandError("杠上开花 (kong replacement) is a self-drawn win")
        if self.robbed_kong and self.self_drawn:
            raise HandError("抢杠和 (robbing a kong) is not a self-drawn win")
        if self.robbed_kong and self.last_discard:
            raise HandError("抢杠和 wins on a kong, not on the last discard")

    def to_json(self) -> dict[str, object]:
        return {
            "self_drawn": self.self_drawn,
            "last_tile_of_wall": self.last_tile_of_wall,
            "last_discard": self.last_discard,
            "kong_replacement": self.kong_replacement,
            "robbed_kong": self.robbed_kong,
            "last_copy": self.last_copy,
            "seat_wind": T.name(self.seat_wind, "mpsz"),
            "prevalent_wind": T.name(self.prevalent_wind, "mpsz"),
            "flowers": self.flowers,
        }


@dataclass(frozen=True, slots=True)
class FanItem:
    """One fan counted ``count`` times, with the sets (or tiles) that earn it."""

    key: str
    count: int
    groups: tuple[tuple[int, ...], ...] = ()

    @property
    def value(self) -> int:
        return FAN_BY_KEY[self.key].value

    @property
    def points(self) -> int:
        return self.value * self.count

    @property
    def zh(self) -> str:
        return FAN_BY_KEY[self.key].zh

    @property
    def en(self) -> str:
        return FAN_BY_KEY[self.key].en

    def to_json(self) -> dict[str, object]:
        return {
            "key": self.key,
            "zh": self.zh,
            "en": self.en,
            "value": self.value,
            "count": self.count,
            "points": self.points,
            "groups": [T.format(g) for g in self.groups],
        }


@dataclass(frozen=True, slots=True)
class FanResult:
    """The scored hand.

    ``total`` includes flowers; ``fan_without_flowers`` is what the 8-fan minimum (起和)
    is checked against. ``reading`` is the chosen decomposition (sets and pair, concrete
    tiles), ``golden_as`` what each golden tile stood for, ``notes`` context flags that
    were ignored because the hand contradicts them. When ``is_win`` is false, ``why_not``
    says why and the other fields are empty.
    """

    is_win: bool
    total: int = 0
    fans: tuple[FanItem, ...] = ()
    shape: str = ""
    reading: tuple[tuple[int, ...], ...] = ()
    win_tile: int | None = None
    golden_as: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    why_not: str | None = None

    @property
    def fan_without_flowers(self) -> int:
        return sum(f.points for f in self.fans if f.key != "flower_tiles")

    def qualifies(self, minimum: int = 8) -> bool:
        """A win that reaches the minimum (起和, flowers excluded)."""
        return self.is_win and self.fan_without_flowers >= minimum

    def counts(self) -> dict[str, int]:
        """``{fan key: count}``, handy for comparisons."""
        return {f.key: f.count for f in self.fans}

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"is_win": self.is_win}
        if not self.is_win:
            out["why_not"] = self.why_not
            return out
        out.update({
            "total": self.total,
            "fan_without_flowers": self.fan_without_flowers,
            "shape": self.shape,
            "win_tile": T.name(self.win_tile, "mpsz") if self.win_tile is not None else None,
            "reading": [T.format(g) for g in self.reading],
            "fans": [f.to_json() for f in self.fans],
            "golden_as": [T.name(t, "mpsz") for t in self.golden_as],
            "notes": list(self.notes),
        })
        return out


# Fast construction of the two result types. A frozen dataclass's ``__init__`` sets each
# field through ``object.__setattr__`` (to get past the class's own ``__setattr__``),
# which made building a result a fifth of the time of scoring a simple hand; the
# calculator builds one item per fan. It fills a *shell* instead: a plain class with the
# same slots (made by calling it, cheaper than ``object.__new__``), whose attributes are
# stored as any object's, and then makes it the frozen class by assigning ``__class__``
# (CPython allows that between classes of the same layout and slots: the object is then
# exactly what the constructor makes). That is about 40% cheaper than the constructor,
# and cheaper than calling the slots' setters one by one (result.result_from does it
# inline). Where the interpreter refuses the assignment, the ordinary constructor is
# used. The compiled build leaves this module interpreted (laizi.buildinfo): compiled,
# these classes have no slots of their own, and their constructor was slower than the
# shells.


class _ItemShell:
    # (in the dataclass's field order: the layouts must be the same)
    __slots__ = ("key", "count", "groups")  # noqa: RUF023
    key: str
    count: int
    groups: tuple[tuple[int, ...], ...]


class _ResultShell:
    __slots__ = ("is_win", "total", "fans", "shape", "reading", "win_tile",  # noqa: RUF023
                 "golden_as", "notes", "why_not")
    is_win: bool
    total: int
    fans: tuple[FanItem, ...]
    shape: str
    reading: tuple[tuple[int, ...], ...]
    win_tile: int | None
    golden_as: tuple[int, ...]
    notes: tuple[str, ...]
    why_not: str | None


def _shell_works(cls: type, shell: type) -> bool:
    if getattr(cls, "__slots__", None) != getattr(shell, "__slots__", ()):
        return False
    probe: object = object.__new__(shell)
    try:
        probe.__class__ = cls
    except TypeError:
        return False
    return type(probe) is cls


ITEM_SHELL = _ItemShell if _shell_works(FanItem, _ItemShell) else None
"""The shell a :class:`FanItem` may be built in (see above), or ``None``: use the
constructor."""
RESULT_SHELL = _ResultShell if _shell_works(FanResult, _ResultShell) else None
"""The same for :class:`FanResult`."""


def _fast_item(key: str, count: int, groups: tuple[tuple[int, ...], ...]) -> FanItem:
    item = _ItemShell()
    item.key = key
    item.count = count
    item.groups = groups
    item.__class__ = FanItem  # type: ignore[assignment]
    return item  # type: ignore[return-value]


fan_item = FanItem if ITEM_SHELL is None else _fast_item
"""``FanItem(key, count, groups)``, built faster."""


rebuild_from_fields(Meld, WinContext, FanItem, FanResult)  # copy and pickle, compiled too
