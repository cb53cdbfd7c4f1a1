"""One concrete hand prepared for the fast calculator (:mod:`.calculator`).

:class:`Prepared` holds the concealed tiles' counts as bytes and works out, on first need,
what every reading shares: the fans of the situational flags and of the tiles present
(:meth:`Prepared.base_from`), the waits, the tiles' masks. :class:`PreparedMelds` is what
the melds bring to every reading, kept per set of melds (a player's melds stay the same
over many questions, and golden tiles' candidates share them).
"""

from __future__ import annotations

from operator import mul
from typing import Final

from .common import FanTable, Flags, Sources, flag_fans
from .groups import EVEN, FIVE, OUTSIDE, TILE_BITS, TRAITS, other_wait, tile_code, tile_fans_of
from .masks import masks, tile_fans
from .shapes import ALL_PACKS, CHOW, KONG, ORDER, PACK_TILES, PAIR, Pack

__all__ = ["NONE", "NO_MELDS", "PACK_ORDER", "SINGLE_PUNG", "Prepared", "PreparedMelds",
           "held_four", "hog_fans", "tiles_of"]

SINGLE_PUNG: Final[tuple[str, ...]] = tuple(
    "dragon_pung" if t >= 31 else
    "pung_of_terminals_or_honours" if t >= 27 or t % 9 in (0, 8) else ""
    for t in range(34))
"""The fan a pung (or kong) of tile t earns alone: 箭刻, 幺九刻 or none."""
PACK_ORDER: Final = {p: ORDER[p[1]] for p in ALL_PACKS}

_ALL_TRAITS = OUTSIDE | FIVE | EVEN
NONE: Final[list[int]] = []  # (never mutated)
_HALF: Final = bytes(n // 2 for n in range(256))  # bytes.translate: the pairs of a count



def _pack_mask(p: Pack) -> int:
    mask = 0
    for t in PACK_TILES[p]:
        mask |= 1 << t
    return mask


_MELD_PACKS: Final = tuple(p for p in ALL_PACKS if p in TRAITS and p[0] != PAIR)
_PACK_MASK: Final = {p: _pack_mask(p) for p in _MELD_PACKS}
"""A meld's tiles as a mask."""
_PACK_COUNTS: Final = {p: sum(1 << 8 * t for t in PACK_TILES[p]) for p in _MELD_PACKS}
"""A meld's tiles as counts, a byte per tile."""
_PACK_HOG: Final = {p: 0 if p[0] == KONG else _PACK_COUNTS[p] for p in _MELD_PACKS}
"""A meld's tiles that count toward 四归一 (a kong's do not), as counts, a byte a tile."""


class PreparedMelds:
    """What the melds bring to every reading, worked out once per hand."""

    __slots__ = ("bits", "chows", "ck", "claimed", "code", "concealed_sets", "counts",
                 "hog_counts", "kong_sets", "kongs", "mk", "ordered_chows", "ordered_pungs",
                 "pungs", "singles", "tiles", "traits")

    def __init__(self, fixed: list[Pack]) -> None:
        chows: list[Pack] = []
        pungs: list[Pack] = []
        tiles: list[tuple[int, ...]] = []
        kong_sets: list[tuple[int, ...]] = []
        concealed_sets: list[tuple[int, ...]] = []  # concealed kongs
        singles: list[tuple[str, tuple[int, ...]]] = []  # 箭刻 / 幺九刻 with their sets
        mk = ck = claimed = 0
        traits = _ALL_TRAITS
        bits = hog = 0
        for p in fixed:
            pt = PACK_TILES[p]
            tiles.append(pt)
            traits &= TRAITS[p]
            bits |= _PACK_MASK[p]
            if p[0] == CHOW:
                chows.append(p)
                claimed += 1
                hog += _PACK_HOG[p]
                continue
            pungs.append(p)
            single = SINGLE_PUNG[p[1]]
            if single:
                singles.append((single, pt))
            if p[0] == KONG:
                kong_sets.append(pt)
                if p[2]:
                    mk += 1
                    claimed += 1
                else:
                    ck += 1
                    concealed_sets.append(pt)
            else:
                claimed += 1
                hog += _PACK_HOG[p]
        self.tiles = tuple(tiles)
        self.traits = traits
        self.bits = bits
        # (the code of the melds' tiles: OR-ed with the concealed groups' codes it gives
        # every bit tile_fans_of reads; only the knitted bits need the tiles together)
        self.code = tile_code(bits)
        self.hog_counts = hog  # the tiles that count toward 四归一, a byte per tile
        self.counts = sum(map(_PACK_COUNTS.__getitem__, fixed))  # all their tiles
        self.claimed = claimed
        self.mk = mk
        self.ck = ck
        self.kongs = mk + ck
        self.chows = tuple(chows)
        self.pungs = tuple(pungs)
        # (in search order, as the set-combination fans take them: a reading without
        # concealed pungs, or without concealed chows, need not sort)
        self.ordered_chows = sorted(chows, key=PACK_ORDER.__getitem__)
        self.ordered_pungs = sorted(pungs, key=PACK_ORDER.__getitem__)
        self.kong_sets = kong_sets
        self.concealed_sets = concealed_sets
        self.singles = singles


NO_MELDS: Final = PreparedMelds([])
_MELDS: Final[dict[tuple[Pack, ...], PreparedMelds]] = {}
"""PreparedMelds by the melds (a table over a part of the hand: a player's melds stay the same
over many questions, and golden tiles' candidates share them); kept bounded."""
_MELDS_MAX: Final = 1 << 14


class Prepared:
    """One concrete hand: fixed packs, standing tiles (without the winning tile).

    ``counts`` are the concealed tiles' counts with the winning tile, as bytes; ``base``
    holds the fans every sets-and-pair reading shares (situational fans, 门前清 / 不求人 /
    全求人, suits, tile traits, number ranges, 四归一); everything is computed on first
    need.
    """

    __slots__ = ("_base", "_masks", "_standing", "_waits", "counts", "fixed", "fl", "hog",
                 "melds", "tiles", "win", "winds")

    def __init__(self, fixed: list[Pack], standing: tuple[int, ...] | None, win: int,
                 fl: Flags, full_masks: tuple[int, int, int, int] | None = None,
                 counts: bytes | None = None, melds: PreparedMelds | None = None,
                 hog: bool = True, tiles: bytes | None = None) -> None:
        """``standing``: counts of the standing tiles, winning tile excluded; or ``None``
        when ``counts`` are given. ``full_masks`` (of the whole hand) may be given when
        the caller has them already; ``melds``, what the melds bring, likewise; ``hog``
        false when the caller knows that no tile is held four times but as a kong; ``tiles``
        the concealed tiles (winning tile included) in any order, when the caller has them."""
        self.hog = hog
        self.tiles = tiles
        self.fixed = fixed
        self.win = win
        self.fl = fl
        if counts is None:
            assert standing is not None
            c = bytearray(standing)
            c[win] += 1
            counts = bytes(c)
        self.counts = counts
        self._standing = standing
        self._waits: bool | None = None
        self._base: tuple[FanTable, Sources] | None = None
        self._masks = full_masks
        if melds is not None:
            self.melds = melds
        elif fixed:
            key = tuple(fixed)
            ml = _MELDS.get(key)
            if ml is None:
                if len(_MELDS) >= _MELDS_MAX:
                    _MELDS.clear()
                ml = _MELDS[key] = PreparedMelds(fixed)
            self.melds = ml
        else:
            self.melds = NO_MELDS
        self.winds = True  # whether the hand may hold a wind pung (圈风刻 / 门风刻)

    @property
    def standing(self) -> tuple[int, ...]:
        """Counts of the standing tiles, the winning tile excluded."""
        if self._standing is None:
            c = list(self.counts)
            c[self.win] -= 1
            self._standing = tuple(c)
        return self._standing

    def sorted_tiles(self) -> tuple[int, ...]:
        """The concealed tiles, winning tile included, sorted."""
        if self.tiles is not None:
            return tuple(sorted(self.tiles))
        return tiles_of(self.counts)

    @property
    def standing_counts(self) -> tuple[int, ...]:
        """Counts of the concealed tiles, the winning tile included."""
        return tuple(self.counts)

    def single_wait(self) -> bool:
        """Whether the hand waited on its winning tile alone (seven pairs included when
        nothing is melded); only called once a reading has shown the hand complete."""
        if self._waits is None:
            win = self.win
            single = not other_wait(self.counts, win)
            if single and not self.fixed:
                # (shapes.seven_pairs_waits(standing) <= {win}, on bytes: the standing
                # 13 tiles wait on seven pairs when they hold six pairs, a four counting
                # as two, and then on their one odd tile)
                standing = bytearray(self.counts)
                standing[win] -= 1
                single = sum(standing.translate(_HALF)) != 6 or bool(standing[win] & 1)
            self._waits = single
        return self._waits

    def masks(self) -> tuple[int, int, int, int]:
        """Masks of the tiles the whole hand (melds included) holds >= 1, 2, 3, 4 times."""
        if self._masks is None:
            if self.fixed:
                whole = int.from_bytes(self.counts, "little") + self.melds.counts
                self._masks = masks(whole.to_bytes(34, "little"))
            else:
                self._masks = masks(self.counts)
        return self._masks

    def base(self) -> tuple[FanTable, Sources]:
        if self._base is None:
            ft = dict(flag_fans(self.fl, self.melds.claimed))
            src: Sources = {}
            m1, _, _, m4 = self.masks()
            tile_fans(m1, m4, self.melds.kongs, ft, src)
            self._base = (ft, src)
        return self._base

    def base_from(self, code: int, fours: list[int]) -> tuple[FanTable, Sources]:
        """:meth:`base` from the OR of the groups' codes (melds included) and the tiles
        held four times not as a kong. The table returned is shared: callers copy it."""
        fl = self.fl
        # (one lookup by an int for the union of flag_fans and tile_fans_of: both are
        # tables already, and their union per hand was a new dict and two tuple keys)
        claimed = self.melds.claimed
        key = (code & TILE_BITS) << 7 | claimed << 4 | fl[0] | fl[1] << 1 | fl[2] << 2 \
            | fl[3] << 3
        ft = _BASES.get(key)
        if ft is None:
            if len(_BASES) >= _BASES_MAX:
                _BASES.clear()
            ft = _BASES[key] = flag_fans(fl, claimed) | tile_fans_of(code)
        if fours:
            ft = ft.copy()
            src: Sources = {}
            hog_fans(ft, src, fours, self.fixed)
            self._base = (ft, src)
        else:
            self._base = (ft, _NO_SOURCES)
        return self._base


_BASES: Final[dict[int, FanTable]] = {}
"""flag_fans | tile_fans_of by (tile code, claimed melds, the four win flags they read) as
one int: a table over parts of a hand (at most 2^16 codes, 80 flag values); bounded."""
_BASES_MAX: Final = 1 << 15
_NO_SOURCES: Final[Sources] = {}  # (never mutated: calculator._basic copies a base's sources)


def held_four(b: bytes, ml: PreparedMelds) -> list[int]:
    """Tiles held four times, not as a kong (四归一), in tile order."""
    full = (int.from_bytes(b, "little") + ml.hog_counts).to_bytes(34, "little") \
        if ml.hog_counts else b
    if not full.count(4):
        return NONE
    fours = []
    t = full.find(4)
    while t >= 0:
        fours.append(t)
        t = full.find(4, t + 1)
    return fours


def hog_fans(ft: FanTable, src: Sources, fours: list[int], fixed: list[Pack]) -> None:
    """四归一 for ``fours``; its sets list every tile held four times, kongs too (as
    masks.tile_fans lists them)."""
    ft["tile_hog"] = len(fours)
    held = sorted([*fours, *(p[1] for p in fixed if p[0] == KONG)])
    src["tile_hog"] = [(t,) * 4 for t in held]


_ONE_TILE: Final = tuple(bytes((t,)) for t in range(34))


def tiles_of(c: bytes | tuple[int, ...]) -> tuple[int, ...]:
    """The tiles of the counts ``c``, sorted (in C: a copy of each tile's byte per count)."""
    return tuple(b"".join(map(mul, _ONE_TILE, c)))

