"""The table options (house rules, 规则选项) of 荆州麻将, 荆州晃晃, ``golden`` and ``mcr``.

Each is a frozen dataclass that checks its values when made. They stay plain Python in
the compiled build (``laizi.buildinfo``): their values come from people and files, and
the check must see a wrong type to name it, where a compiled class would refuse it
first with a bare ``TypeError``. The variant modules re-export them. (Taiwan's are in
:mod:`laizi.scoring.taiwan.options`.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["MAX_PARTIES", "MCR_PROFILES", "PRIORITIES", "WIND_LETTERS", "GBOptions",
           "GoldenOptions", "HuanghuangOptions", "JingzhouOptions", "MCROptions"]

MAX_PARTIES = 8
"""荆州晃晃: four seats and up to four waiting people."""

WIND_LETTERS = "ESWN"
"""Option spelling of the winds: E 东, S 南, W 西, N 北."""
MCR_PROFILES = ("standard", "botzone")
"""``mcr``'s rule profiles: laizi's own, and Botzone's "Chinese Standard Mahjong"."""
PRIORITIES = ("nearest", "dealer")
"""Who wins when several seats win on one discard (一炮单响): the nearest after the
discarder (default), or the nearest counted from the dealer (the seed's literal
"以庄家逆时针为序")."""


@dataclass(frozen=True, slots=True)
class JingzhouOptions:
    """Table options (house rules) of 荆州麻将.

    * ``kou_kou_fan`` (口口翻): every open meld doubles, instead of one doubling for having
      opened at all. Default off.
    * ``reserve``: tiles left in the wall when the hand is drawn (黄庄); default 10 (5 墩).
    * ``cap`` (封顶): the most one loser's line pays; default 300.
    * ``gold`` (金顶): what every loser pays when every line reached the cap, and for
      将一色 / 风一色; default 400.
    * ``base``: the base unit every amount is multiplied by; default 1.
    """

    kou_kou_fan: bool = False
    reserve: int = 10
    cap: int = 300
    gold: int = 400
    base: int = 1

    def __post_init__(self) -> None:
        for name in ("reserve", "cap", "gold", "base"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name} must be a whole number, got {value!r}")
        if not isinstance(self.kou_kou_fan, bool):
            raise ValueError(f"option kou_kou_fan must be true or false, got {self.kou_kou_fan!r}")
        if not 0 <= self.reserve <= 40:
            raise ValueError(f"option reserve must be 0-40 tiles, got {self.reserve}")
        if self.cap < 1 or self.gold < 1 or self.base < 1:
            raise ValueError("options cap, gold and base must be at least 1")


@dataclass(frozen=True, slots=True)
class HuanghuangOptions:
    """Table options of 荆州晃晃.

    * ``base`` (底分): the unit every payment is multiplied by; default 1.
    * ``horses``: who bought a horse this hand, as parties in the order the horse tiles are
      dealt (0-3 a seat, 4-7 the waiting people front first); default none. The room sets
      it every hand (see ``docs/rooms.md``).
    """

    base: int = 1
    horses: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        if isinstance(self.base, bool) or not isinstance(self.base, int) or self.base < 1:
            raise ValueError(f"option base must be a whole number >= 1, got {self.base!r}")
        if not isinstance(self.horses, (tuple, list)):
            raise ValueError(f"option horses must be a list of parties, got {self.horses!r}")
        holders = tuple(self.horses)
        for h in holders:
            if isinstance(h, bool) or not isinstance(h, int) or not 0 <= h < MAX_PARTIES:
                raise ValueError(f"option horses: {h!r} is not a party 0-{MAX_PARTIES - 1}")
        if len(set(holders)) != len(holders):
            raise ValueError("option horses: each person may buy only one horse")
        object.__setattr__(self, "horses", holders)


@dataclass(frozen=True, slots=True)
class GBOptions:
    """Table options of ``golden`` and ``mcr``.

    * ``minimum`` (起和): fan needed to win, flowers excluded; default 8 (0 = any win).
    * ``priority``: several seats win on one discard → only one wins (一炮单响):
      ``"nearest"`` after the discarder (default) or ``"dealer"``: the first in play order
      counted from the dealer (the seed's literal "以庄家逆时针为序").
    * ``prevalent_wind`` (圈风) of this hand: ``"E"``, ``"S"``, ``"W"`` or ``"N"``; a match
      sets it per hand (4 hands each).
    """

    minimum: int = 8
    priority: str = "nearest"
    prevalent_wind: str = "E"

    def __post_init__(self) -> None:
        if isinstance(self.minimum, bool) or not isinstance(self.minimum, int):
            raise ValueError(f"option minimum must be a whole number, got {self.minimum!r}")
        if not 0 <= self.minimum <= 88:
            raise ValueError(f"option minimum must be 0-88 fan, got {self.minimum}")
        if self.priority not in PRIORITIES:
            raise ValueError(f"option priority must be one of {', '.join(PRIORITIES)}, "
                             f"got {self.priority!r}")
        if not isinstance(self.prevalent_wind, str) or len(self.prevalent_wind) != 1 \
                or self.prevalent_wind not in WIND_LETTERS:
            raise ValueError(f"option prevalent_wind must be one of E, S, W, N, "
                             f"got {self.prevalent_wind!r}")


@dataclass(frozen=True, slots=True)
class GoldenOptions(GBOptions):
    """Table options of ``golden``: those of ``mcr`` (:class:`GBOptions`) and

    * ``concealed_and_melded_kong``: one concealed and one melded kong score 明暗杠 (5 fan),
      as PyMahjongGB counts them; default false: the seed's 81-fan table, which has no
      明暗杠, gives 暗杠 2 + 明杠 1 (docs/rules/golden.md, decision 16). ``mcr`` always
      counts 明暗杠.
    """

    concealed_and_melded_kong: bool = False

    def __post_init__(self) -> None:
        GBOptions.__post_init__(self)  # (no zero-argument super() in a slots dataclass)
        if not isinstance(self.concealed_and_melded_kong, bool):
            raise ValueError("option concealed_and_melded_kong must be true or false, got "
                             f"{self.concealed_and_melded_kong!r}")


@dataclass(frozen=True, slots=True)
class MCROptions(GBOptions):
    """Table options of ``mcr``: those of :class:`GBOptions` and

    * ``profile``: ``"standard"`` (default: 144 tiles, one shared wall, a 16-hand match)
      or ``"botzone"``, Botzone's "Chinese Standard Mahjong" (docs/datasets.md): 136
      tiles without flowers, per-seat walls of 21 draws, every hand a game of its own
      in the prevalent wind it is given, 错和 -30 / +10.
    """

    profile: str = "standard"

    def __post_init__(self) -> None:
        GBOptions.__post_init__(self)  # (no zero-argument super() in a slots dataclass)
        if self.profile not in MCR_PROFILES:
            raise ValueError(f"option profile must be one of {', '.join(MCR_PROFILES)}, "
                             f"got {self.profile!r}")
