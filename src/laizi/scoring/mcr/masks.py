"""Tile sets as bitmasks over tile ids (bit ``t`` = tile ``t``), and the per-hand fans
that depend only on which tiles are present (suits, tile traits, number ranges, 四归一).

A hand's counts become four masks, the tiles held at least 1, 2, 3 and 4 times; a
property of every tile (断幺, 绿一色, 缺一门 …) is then one ``and``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

__all__ = ["bits", "masks", "presence", "tile_fans"]


def bits(ts: Iterable[int]) -> int:
    """The mask of the tiles ``ts``."""
    return sum(1 << t for t in set(ts))


# count n -> ASCII "1" when n >= k, else "0": bytes.translate makes a mask's binary digits
_AT_LEAST: Final = tuple(bytes(48 + (n >= k) for n in range(256)) for k in (1, 2, 3, 4))


def masks(counts: Sequence[int]) -> tuple[int, int, int, int]:
    """Masks of the tiles held at least 1, 2, 3 and 4 times (``counts``: 34 counts)."""
    b = bytes(counts)[::-1]
    return (int(b.translate(_AT_LEAST[0]), 2), int(b.translate(_AT_LEAST[1]), 2),
            int(b.translate(_AT_LEAST[2]), 2), int(b.translate(_AT_LEAST[3]), 2))


def presence(b: bytes) -> int:
    """The mask of the tiles present in ``b`` (34 counts as bytes): ``masks(b)[0]``."""
    return int(b[::-1].translate(_AT_LEAST[0]), 2)


_SUIT: Final = (bits(range(9)), bits(range(9, 18)), bits(range(18, 27)))
_HONOUR: Final = bits(range(27, 34))
_WIND: Final = bits(range(27, 31))
_DRAGON: Final = bits(range(31, 34))
_TERMINAL: Final = bits((0, 8, 9, 17, 18, 26))
_ORPHAN = _TERMINAL | _HONOUR
_ALL: Final = (1 << 34) - 1
_NOT_REVERSIBLE: Final = _ALL & ~bits((9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31))
_NOT_GREEN: Final = _ALL & ~bits((19, 20, 21, 23, 25, 32))
_NOT_TERMINAL: Final = _ALL & ~_TERMINAL
_NOT_ORPHAN: Final = _ALL & ~_ORPHAN


def tile_fans(m1: int, m4: int, kongs: int, ft: dict[str, int],
              src: dict[str, list[tuple[int, ...]]]) -> None:
    """Suits (无字, 缺一门, 混一色, 清一色, 五门齐), tile traits (断幺, 推不倒, 绿一色, 字一色,
    清幺九, 混幺九), number ranges (全小 … 小于五) and 四归一, for a hand holding the tiles
    of ``m1``, four copies of those of ``m4``, and ``kongs`` kongs."""
    honours = m1 & _HONOUR
    if not honours:
        ft["no_honours"] = 1
    voided = sum(1 for s in _SUIT if not m1 & s)
    if voided == 2:
        ft["half_flush" if honours else "full_flush"] = 1
    elif voided:
        ft["one_voided_suit"] = voided
    elif m1 & _WIND and m1 & _DRAGON:
        ft["all_types"] = 1
    simples = not m1 & _ORPHAN
    if simples:
        ft["all_simples"] = 1
    if not m1 & _NOT_REVERSIBLE:
        ft["reversible_tiles"] = 1
    if not m1 & _NOT_GREEN:
        ft["all_green"] = 1
    if not simples:
        if not m1 & ~_HONOUR:
            ft["all_honours"] = 1
        elif not m1 & _NOT_TERMINAL:
            ft["all_terminals"] = 1
        elif not m1 & _NOT_ORPHAN:
            ft["all_terminals_and_honours"] = 1
    if not honours:
        ranks = (m1 | m1 >> 9 | m1 >> 18) & 0x1FF  # bit r-1 = rank r present
        if not ranks & ~0b1111:
            ft["lower_four" if ranks & 0b1000 else "lower_tiles"] = 1
        elif not ranks & ~0b111100000:
            ft["upper_four" if ranks & 0b100000 else "upper_tiles"] = 1
        elif not ranks & ~0b111000:
            ft["middle_tiles"] = 1
    n = m4.bit_count() - kongs
    if n > 0:
        ft["tile_hog"] = n
        src["tile_hog"] = [(t,) * 4 for t in range(34) if m4 >> t & 1]
