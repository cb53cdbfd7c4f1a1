"""Tiles: canonical ids, notation dialects and count vectors.

Every part of laizi speaks of a tile by one small integer, the **tile id**:

====== ===================================================
ids    tiles
====== ===================================================
0-8    1-9 万 (characters, ``m``)
9-17   1-9 筒/饼 (dots, ``p``)
18-26  1-9 条/索 (bamboo, ``s``)
27-30  东 南 西 北 (winds, ``1z``-``4z``)
31-33  白 发 中 (dragons, ``5z``-``7z``, Tenhou order)
34-41  春 夏 秋 冬 梅 兰 竹 菊 (flowers, ``1f``-``8f``)
====== ===================================================

The four notation dialects are read by :func:`parse` and written by :func:`format`.
A dialect is always named by the caller, never guessed: several tools read ``5z 6z 7z``
as 中 发 白, the opposite of Tenhou.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Literal

__all__ = [
    "DIALECTS",
    "EAST",
    "FLOWERS",
    "GREEN",
    "HONOURS",
    "NORTH",
    "NUM_FLOWERS",
    "NUM_KINDS",
    "NUM_TILE_IDS",
    "RED",
    "SOUTH",
    "WEST",
    "WHITE",
    "Dialect",
    "NotationError",
    "format",
    "from_counts",
    "is_flower",
    "is_honour",
    "is_suited",
    "is_terminal",
    "is_terminal_or_honour",
    "name",
    "parse",
    "parse_tile",
    "rank",
    "suit",
    "tile",
    "to_counts",
]

# Final, one name per line: a compiled build (mypyc) inlines these constants.
NUM_KINDS: Final = 34
"""Number of distinct non-flower tiles; the length of a count vector."""
NUM_FLOWERS: Final = 8
NUM_TILE_IDS: Final = NUM_KINDS + NUM_FLOWERS

# Suit numbers, as returned by :func:`suit`.
MAN: Final = 0
PIN: Final = 1
SOU: Final = 2
HONOUR: Final = 3
FLOWER: Final = 4

EAST: Final = 27
SOUTH: Final = 28
WEST: Final = 29
NORTH: Final = 30
WHITE: Final = 31
GREEN: Final = 32
RED: Final = 33
HONOURS: Final[tuple[int, ...]] = tuple(range(27, 34))
FLOWERS: Final[tuple[int, ...]] = tuple(range(34, 42))

Dialect = Literal["mpsz", "chinese", "unicode", "gb"]
DIALECTS: tuple[Dialect, ...] = ("mpsz", "chinese", "unicode", "gb")

_SUIT_LETTERS = "mpszf"


class NotationError(ValueError):
    """A tile string could not be read.

    ``position`` is the 0-based index of the offending character in the input and
    ``char`` the character itself (empty when the text ended too early).
    """

    def __init__(self, message: str, text: str, position: int) -> None:
        self.text = text
        self.position = position
        self.char = text[position] if 0 <= position < len(text) else ""
        where = f"position {position}" + (f" ({self.char!r})" if self.char else " (end of text)")
        super().__init__(f"{message} at {where} in {text!r}")


# ---------------------------------------------------------------- classification


def suit(t: int) -> int:
    """Suit number of tile ``t``: 0 万, 1 筒, 2 条, 3 honour, 4 flower."""
    if t < 27:
        return t // 9
    return HONOUR if t < 34 else FLOWER


def rank(t: int) -> int:
    """Face value: 1-9 for suited tiles, 1-7 for honours (东=1 … 中=7), 1-8 for flowers."""
    if t < 27:
        return t % 9 + 1
    return t - 26 if t < 34 else t - 33


def tile(suit_no: int, rank_no: int) -> int:
    """The id of the tile of ``suit_no`` (0-4) and face value ``rank_no``."""
    limits = (9, 9, 9, 7, 8)
    if not 0 <= suit_no <= 4 or not 1 <= rank_no <= limits[suit_no]:
        raise ValueError(f"no tile with suit {suit_no} and rank {rank_no}")
    if suit_no < 3:
        return suit_no * 9 + rank_no - 1
    return (27 if suit_no == HONOUR else 34) + rank_no - 1


def is_suited(t: int) -> bool:
    """True for 万, 筒 and 条 (序数牌)."""
    return 0 <= t < 27


def is_honour(t: int) -> bool:
    """True for winds and dragons (字牌)."""
    return 27 <= t < 34


def is_flower(t: int) -> bool:
    """True for the eight flowers (花牌)."""
    return 34 <= t < 42


def is_terminal(t: int) -> bool:
    """True for a 1 or 9 of a suit (老头牌)."""
    return t < 27 and t % 9 in (0, 8)


def is_terminal_or_honour(t: int) -> bool:
    """True for terminals and honours (幺九牌)."""
    return is_honour(t) or is_terminal(t)


# ---------------------------------------------------------------- names per dialect

_CN_DIGITS = "一二三四五六七八九"
_CN_SUITS = ("万", "筒", "条")
_CN_HONOURS = ("东", "南", "西", "北", "白", "发", "中")
_CN_FLOWERS = ("春", "夏", "秋", "冬", "梅", "兰", "竹", "菊")

# Every spelling the Chinese reader accepts, mapped to an id. Longest spellings are tried
# first so that 红中 is not read as an unknown 红 followed by 中.
_CN_READ: dict[str, int] = {}
_SUIT_ALIASES = (("万", "萬", "w"), ("筒", "饼", "餅"), ("条", "索", "條"))
for _s, _aliases in enumerate(_SUIT_ALIASES):
    for _r in range(9):
        for _alias in _aliases:
            _CN_READ[_CN_DIGITS[_r] + _alias] = _s * 9 + _r
            if _alias != "w":
                _CN_READ[str(_r + 1) + _alias] = _s * 9 + _r
for _i, _n in enumerate(_CN_HONOURS):
    _CN_READ[_n] = 27 + _i
for _alias, _t in (
    ("東", EAST), ("東风", EAST), ("东风", EAST), ("南风", SOUTH), ("西风", WEST),
    ("北风", NORTH), ("白板", WHITE), ("發", GREEN), ("发财", GREEN), ("發財", GREEN),
    ("红中", RED), ("紅中", RED),
):
    _CN_READ[_alias] = _t
for _i, _n in enumerate(_CN_FLOWERS):
    _CN_READ[_n] = 34 + _i
_CN_READ["蘭"] = 39
_CN_MAX = max(len(k) for k in _CN_READ)

# Unicode Mahjong Tiles block: winds, dragons (中 发 白), 万, 条, 筒, plants, seasons.
_UNICODE: list[str] = [""] * NUM_TILE_IDS
for _r in range(9):
    _UNICODE[_r] = chr(0x1F007 + _r)
    _UNICODE[18 + _r] = chr(0x1F010 + _r)
    _UNICODE[9 + _r] = chr(0x1F019 + _r)
for _i in range(4):
    _UNICODE[27 + _i] = chr(0x1F000 + _i)
_UNICODE[RED], _UNICODE[GREEN], _UNICODE[WHITE] = "\U0001F004", "\U0001F005", "\U0001F006"
for _i in range(4):
    _UNICODE[34 + _i] = chr(0x1F026 + _i)  # seasons 春夏秋冬
    _UNICODE[38 + _i] = chr(0x1F022 + _i)  # plants 梅兰竹菊
_UNICODE_READ = {c: t for t, c in enumerate(_UNICODE)}

# PyMahjongGB: W 万, T 条, B 饼, F winds, J 中发白, H flowers.
_GB: list[str] = [""] * NUM_TILE_IDS
for _r in range(9):
    _GB[_r] = f"W{_r + 1}"
    _GB[9 + _r] = f"B{_r + 1}"
    _GB[18 + _r] = f"T{_r + 1}"
for _i in range(4):
    _GB[27 + _i] = f"F{_i + 1}"
_GB[RED], _GB[GREEN], _GB[WHITE] = "J1", "J2", "J3"
for _i in range(8):
    _GB[34 + _i] = f"H{_i + 1}"
_GB_READ = {c: t for t, c in enumerate(_GB)}


def name(t: int, dialect: Dialect = "chinese") -> str:
    """The name of one tile in ``dialect`` (``"5p"``, ``"五筒"``, ``"🀝"``, ``"B5"``)."""
    if not 0 <= t < NUM_TILE_IDS:
        raise ValueError(f"tile id {t} out of range 0-{NUM_TILE_IDS - 1}")
    if dialect == "mpsz":
        return f"{rank(t)}{_SUIT_LETTERS[suit(t)]}"
    if dialect == "chinese":
        if t < 27:
            return _CN_DIGITS[t % 9] + _CN_SUITS[t // 9]
        return (_CN_HONOURS + _CN_FLOWERS)[t - 27]
    if dialect == "unicode":
        return _UNICODE[t]
    if dialect == "gb":
        return _GB[t]
    raise ValueError(f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}")


# ---------------------------------------------------------------- parsing

_SEPARATORS = " \t\n,，、;"


def _parse_mpsz(text: str) -> list[int]:
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    limits = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}
    for i, ch in enumerate(text):
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), i))
        elif ch in limits:
            if not pending:
                raise NotationError(f"suit letter {ch!r} with no digits before it", text, i)
            s = _SUIT_LETTERS.index(ch)
            for digit, pos in pending:
                if not 1 <= digit <= limits[ch]:
                    raise NotationError(f"no tile {digit}{ch}", text, pos)
                out.append(tile(s, digit))
            pending = []
        elif ch in _SEPARATORS:
            if pending:
                raise NotationError("digits with no suit letter after them", text, i)
        else:
            raise NotationError("unexpected character", text, i)
    if pending:
        raise NotationError("digits with no suit letter after them", text, len(text))
    return out


def _parse_chinese(text: str) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(text):
        if text[i] in _SEPARATORS:
            i += 1
            continue
        for size in range(min(_CN_MAX, len(text) - i), 0, -1):
            t = _CN_READ.get(text[i : i + size])
            if t is not None:
                out.append(t)
                i += size
                break
        else:
            raise NotationError("not a Chinese tile name", text, i)
    return out


def _parse_unicode(text: str) -> list[int]:
    out: list[int] = []
    for i, ch in enumerate(text):
        if ch in _SEPARATORS or ch in "\ufe0e\ufe0f":
            continue
        t = _UNICODE_READ.get(ch)
        if t is None:
            raise NotationError("not a Unicode mahjong tile", text, i)
        out.append(t)
    return out


def _parse_gb(text: str) -> list[int]:
    out: list[int] = []
    i = 0
    while i < len(text):
        if text[i] in _SEPARATORS:
            i += 1
            continue
        code = text[i : i + 2]
        t = _GB_READ.get(code)
        if t is None:
            bad = i if code[:1] not in "WTBFJH" else i + 1
            raise NotationError("not a PyMahjongGB tile code", text, min(bad, len(text)))
        out.append(t)
        i += 2
    return out


_PARSERS = {
    "mpsz": _parse_mpsz,
    "chinese": _parse_chinese,
    "unicode": _parse_unicode,
    "gb": _parse_gb,
}


def parse(text: str, dialect: Dialect = "mpsz") -> list[int]:
    """Read a string of tiles in ``dialect`` and return their ids in order.

    >>> parse("123m 7z")
    [0, 1, 2, 33]
    >>> parse("一万 红中 春", dialect="chinese")
    [0, 33, 34]

    Raises :class:`NotationError` naming the position and character that could not be read.
    """
    try:
        parser = _PARSERS[dialect]
    except KeyError:
        raise ValueError(
            f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}"
        ) from None
    return parser(text)


def parse_tile(text: str, dialect: Dialect = "mpsz") -> int:
    """Read exactly one tile."""
    tiles = parse(text, dialect)
    if len(tiles) != 1:
        raise NotationError(f"expected exactly one tile, found {len(tiles)}", text, 0)
    return tiles[0]


def format(tiles: Iterable[int], dialect: Dialect = "mpsz", *, sort: bool = False) -> str:
    """Write tiles in ``dialect``; order is kept unless ``sort`` is true.

    MPSZ groups each run of one suit under one letter (``123m45p``); the other dialects
    separate tiles by a space (Chinese, PyMahjongGB) or write them side by side (Unicode).
    ``parse(format(ts, d), d) == ts`` for every dialect.
    """
    seq = sorted(tiles) if sort else list(tiles)
    for t in seq:
        if not 0 <= t < NUM_TILE_IDS:
            raise ValueError(f"tile id {t} out of range 0-{NUM_TILE_IDS - 1}")
    if dialect == "mpsz":
        parts: list[str] = []
        for j, t in enumerate(seq):
            parts.append(str(rank(t)))
            if j + 1 == len(seq) or suit(seq[j + 1]) != suit(t):
                parts.append(_SUIT_LETTERS[suit(t)])
        return "".join(parts)
    if dialect == "unicode":
        return "".join(_UNICODE[t] for t in seq)
    if dialect in ("chinese", "gb"):
        return " ".join(name(t, dialect) for t in seq)
    raise ValueError(f"unknown dialect {dialect!r}; expected one of {', '.join(DIALECTS)}")


# ---------------------------------------------------------------- count vectors


def to_counts(tiles: Iterable[int], size: int = NUM_KINDS) -> list[int]:
    """Count vector of ``tiles``: ``counts[t]`` copies of tile ``t``.

    ``size`` is 34 (the analysis vector, flowers refused) or 42 (flowers counted too).
    """
    counts = [0] * size
    for t in tiles:
        if not 0 <= t < size:
            raise ValueError(f"tile id {t} does not fit a count vector of size {size}")
        counts[t] += 1
    return counts


def from_counts(counts: Sequence[int]) -> list[int]:
    """The sorted tile ids of a count vector (inverse of :func:`to_counts`)."""
    # Three times faster than a nested comprehension: most counts are 0 or 1, and every
    # hand record (the 听牌 hints write hundreds a turn) reads each seat's tiles so.
    out: list[int] = []
    for t, c in enumerate(counts):
        if c == 1:
            out.append(t)
        elif c > 0:
            out.extend([t] * c)
    return out
