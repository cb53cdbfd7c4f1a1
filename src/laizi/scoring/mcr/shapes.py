"""Hand shapes for MCR scoring: sets (packs), readings of the concealed tiles and waits.

A *pack* is ``(kind, tile, claimed)``: ``kind`` one of :data:`CHOW` :data:`PUNG`
:data:`KONG` :data:`PAIR`; ``tile`` the middle tile of a chow, else the tile; ``claimed``
whether it was claimed from another player (明). Readings are listed in a fixed order
(:func:`readings`) so that, between readings of equal value, the same one is chosen every
time: the order of the standard calculator's search (suits 万 条 筒, then 东南西北中发白).
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "CHOW",
    "KONG",
    "ORDER",
    "PAIR",
    "PUNG",
    "Pack",
    "basic_waits",
    "is_basic_complete",
    "pack_tiles",
    "readings",
    "seven_pairs_waits",
]

CHOW, PUNG, KONG, PAIR = 1, 2, 3, 4
Pack = tuple[int, int, bool]

# Search order of tiles: 万, 条, 筒, winds, 中 发 白 (the reference calculator's tile codes).
ORDER: tuple[int, ...] = tuple(
    t if t < 9 else t + 9 if t < 18 else t - 9 if t < 27 else t if t < 31 else 64 - t
    for t in range(34)
)
BY_ORDER: tuple[int, ...] = tuple(sorted(range(34), key=ORDER.__getitem__))


def pack_tiles(p: Pack) -> tuple[int, ...]:
    kind, t, _ = p
    if kind == CHOW:
        return (t - 1, t, t + 1)
    return (t,) * (3 if kind == PUNG else 4 if kind == KONG else 2)


def _melds(c: list[int], need: int, acc: list[Pack], out: list[tuple[Pack, ...]]) -> None:
    if need == 0:
        out.append(tuple(acc))
        return
    i = 0
    while c[i] == 0:
        i += 1
    if c[i] >= 3:
        c[i] -= 3
        acc.append((PUNG, i, False))
        _melds(c, need - 1, acc, out)
        acc.pop()
        c[i] += 3
    if i < 27 and i % 9 < 7 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append((CHOW, i + 1, False))
        _melds(c, need - 1, acc, out)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def _search_key(p: Pack) -> tuple[int, int]:
    kind, t, _ = p
    return (ORDER[t - 1], 1) if kind == CHOW else (ORDER[t], 0)


@lru_cache(maxsize=1 << 16)
def readings(counts: tuple[int, ...]) -> tuple[tuple[Pack, ...], ...]:
    """Every reading of ``counts`` (34 counts, 3n + 2 tiles) as n sets + a pair.

    Each reading is its sets (in search order) followed by the pair. Readings are
    distinct and listed in search order (see the module docstring).
    """
    total = sum(counts)
    if total % 3 != 2:
        return ()
    need = (total - 2) // 3
    found: dict[tuple[Pack, ...], tuple[tuple[int, int], ...]] = {}
    c = [*counts, 0, 0]
    for p in range(34):
        if c[p] < 2:
            continue
        c[p] -= 2
        sets: list[tuple[Pack, ...]] = []
        if need == 0:
            sets.append(())
        else:
            _melds(c, need, [], sets)
        c[p] += 2
        for s in sets:
            ordered = tuple(sorted(s, key=_search_key))
            reading = (*ordered, (PAIR, p, False))
            found[reading] = tuple(_search_key(x) for x in ordered)
    return tuple(sorted(found, key=found.__getitem__))


@lru_cache(maxsize=1 << 16)
def _suit_ok(c: tuple[int, ...]) -> bool:
    """Nine counts of one suit split into chows and pungs only."""
    i = 0
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return True
    lst = list(c)
    if lst[i] >= 3:
        lst[i] -= 3
        if _suit_ok(tuple(lst)):
            return True
        lst[i] += 3
    if i < 7 and lst[i + 1] and lst[i + 2]:
        lst[i] -= 1
        lst[i + 1] -= 1
        lst[i + 2] -= 1
        return _suit_ok(tuple(lst))
    return False


def is_basic_complete(counts: list[int]) -> bool:
    """Sets and exactly one pair, counts unconstrained (a fifth copy is allowed)."""
    pair = False
    for h in range(27, 34):
        n = counts[h] % 3
        if n == 1:
            return False
        if n == 2:
            if pair:
                return False
            pair = True
    for s in range(0, 27, 9):
        suit = counts[s : s + 9]
        r = sum(suit) % 3
        if r == 1:
            return False
        if r == 0:
            if not _suit_ok(tuple(suit)):
                return False
        else:
            if pair:
                return False
            pair = True
            for i in range(9):
                if suit[i] >= 2:
                    suit[i] -= 2
                    ok = _suit_ok(tuple(suit))
                    suit[i] += 2
                    if ok:
                        break
            else:
                return False
    return pair


@lru_cache(maxsize=1 << 16)
def _status(group: tuple[int, ...]) -> int:
    """0: sets only; 1: sets and one pair; -1: neither. Honours (7 counts) form no chows."""
    if len(group) == 7:
        pairs = 0
        for n in group:
            if n % 3 == 1:
                return -1
            pairs += n % 3 == 2
        return pairs if pairs <= 1 else -1
    r = sum(group) % 3
    if r == 0:
        return 0 if _suit_ok(group) else -1
    if r == 1:
        return -1
    lst = list(group)
    for i in range(9):
        if lst[i] >= 2:
            lst[i] -= 2
            ok = _suit_ok(tuple(lst))
            lst[i] += 2
            if ok:
                return 1
    return -1


_GROUPS = ((0, 9), (9, 18), (18, 27), (27, 34))


@lru_cache(maxsize=1 << 16)
def basic_waits(standing: tuple[int, ...]) -> frozenset[int]:
    """Tiles completing ``standing`` (3n + 1 tiles) as sets and a pair, copies unlimited."""
    groups = [standing[a:b] for a, b in _GROUPS]
    status = [_status(g) for g in groups]
    out = []
    for k, (a, _b) in enumerate(_GROUPS):
        others = [st for j, st in enumerate(status) if j != k]
        if min(others) < 0 or sum(others) > 1:
            continue
        need = 1 - sum(others)
        g = list(groups[k])
        for i in range(len(g)):
            g[i] += 1
            if _status(tuple(g)) == need:
                out.append(a + i)
            g[i] -= 1
    return frozenset(out)


def seven_pairs_waits(standing: tuple[int, ...]) -> frozenset[int]:
    """The tile completing seven pairs (a four counts as two pairs), if 13 tiles wait."""
    pairs = sum(n // 2 for n in standing)
    if sum(standing) != 13 or pairs != 6:
        return frozenset()
    return frozenset(t for t, n in enumerate(standing) if n % 2)
