"""Readings and waits of a Taiwan hand (no wildcards): five melds + a pair, or 八对半.

The standard shape comes from ``laizi.analysis`` (variant-free); 八对半 (seven pairs and
a pung, item 36) is Taiwan's own and is read here.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi import tiles as T
from laizi.analysis import GroupKind, WinRules, decompositions
from laizi.analysis import waits as standard_waits
from laizi.scoring.taiwan.words import PartKind, ReadingShape

__all__ = ["RULES", "concealed_splits", "hand_waits"]

RULES = WinRules(seven_pairs=False)
"""Taiwan's standard shape: melds and a pair, any pair, chows in the three suits."""

Split = tuple[tuple[PartKind, tuple[int, ...]], ...]
"""A split of the concealed tiles into ``(kind, tiles)`` groups, kind chow/pung/pair."""

_KIND = {GroupKind.CHOW: PartKind.CHOW, GroupKind.PUNG: PartKind.PUNG,
         GroupKind.PAIR: PartKind.PAIR}


def standard_splits(counts: Sequence[int]) -> list[Split]:
    """Every way to read ``counts`` (3n+2 tiles) as n melds and a pair."""
    out: list[Split] = []
    for d in decompositions(list(counts), 0, RULES):
        out.append(tuple(sorted((_KIND[g.kind], tuple(g.tiles)) for g in d.groups)))
    return sorted(set(out))


def eight_pairs_splits(counts: Sequence[int]) -> list[Split]:
    """八对半: 17 concealed tiles as seven pairs and one pung (four of a kind = two pairs)."""
    if sum(counts) != 17:
        return []
    out: list[Split] = []
    for t in range(T.NUM_KINDS):
        if counts[t] < 3:
            continue
        rest = list(counts)
        rest[t] -= 3
        if any(c % 2 for c in rest):
            continue
        pairs = [(PartKind.PAIR, (u, u)) for u in range(T.NUM_KINDS) for _ in range(rest[u] // 2)]
        out.append(tuple(sorted([(PartKind.PUNG, (t, t, t)), *pairs])))
    return out


def concealed_splits(counts: Sequence[int], *, eight_pairs: bool
                     ) -> list[tuple[ReadingShape, Split]]:
    """All readings of the concealed tiles as ``(shape, split)``; 八对半 only if enabled."""
    found: list[tuple[ReadingShape, Split]] = [
        (ReadingShape.STANDARD, s) for s in standard_splits(counts)]
    if eight_pairs:
        found.extend((ReadingShape.EIGHT_PAIRS, s) for s in eight_pairs_splits(counts))
    return found


def hand_waits(before: Sequence[int], held: Sequence[int], *, eight_pairs: bool) -> frozenset[int]:
    """Tile kinds that complete ``before`` (the concealed tiles without the winning tile).

    A kind of which the player already holds all four copies (``held``: every tile of the
    hand, declared melds included) is not a wait: it cannot be drawn.
    """
    found = set(standard_waits(list(before), 0, RULES))
    if eight_pairs and sum(before) == 16:
        for t in range(T.NUM_KINDS):
            if t not in found:
                after = list(before)
                after[t] += 1
                if eight_pairs_splits(after):
                    found.add(t)
    return frozenset(t for t in found if held[t] < 4)
