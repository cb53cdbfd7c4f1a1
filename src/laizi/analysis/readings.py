"""Every reading (拆牌) of a complete hand: :func:`decompositions`.

A reading is a multiset of concrete groups plus, sorted, the tiles the wildcards stand
for. Which physical copy is "the wildcard" does not matter, so a reading is enumerated
once: the lowest tile still unread must belong to some group; every group that can hold it
is tried, its other members taken from the real tiles when present and from wildcards
otherwise. Wildcards left when no real tile remains form whole groups of any tile.
Finally the 4-copy rule is checked on the whole reading.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement

from laizi.analysis._special import HONOUR_IDS, KNITTED, ORPHANS
from laizi.analysis.compiled_rules import DEFAULT_RULES, counts_key
from laizi.analysis.types import Decomposition, Group, GroupKind, Shape, WinRules

__all__ = ["decompositions"]

_Raw = tuple[GroupKind, tuple[int, ...]]
_Key = tuple[Shape, tuple[_Raw, ...], tuple[int, ...]]


def _melds(rules: WinRules) -> list[_Raw]:
    out: list[_Raw] = [(GroupKind.PUNG, (t, t, t)) for t in range(34)]
    for s in sorted(rules.chow_suits):
        if 0 <= s < 3:
            out.extend(
                (GroupKind.CHOW, (s * 9 + r, s * 9 + r + 1, s * 9 + r + 2)) for r in range(7)
            )
    return out


def _pair_ok(rules: WinRules, t: int) -> bool:
    return rules.pair_tiles is None or t in rules.pair_tiles


def _groups_holding(t: int, rules: WinRules, need_pair: bool) -> Iterator[_Raw]:
    yield (GroupKind.PUNG, (t, t, t))
    if need_pair and _pair_ok(rules, t):
        yield (GroupKind.PAIR, (t, t))
    if t < 27 and t // 9 in rules.chow_suits:
        r = t % 9
        for s in (r - 2, r - 1, r):
            if 0 <= s <= 6:
                lo = t - r + s
                yield (GroupKind.CHOW, (lo, lo + 1, lo + 2))


def _standard(
    rem: list[int], wilds: int, need_pair: bool, rules: WinRules, melds: list[_Raw]
) -> Iterator[list[_Raw]]:
    """Group lists covering ``rem`` exactly plus ``wilds`` wildcards (no 4-copy check)."""
    i = 0
    while i < 34 and rem[i] == 0:
        i += 1
    if i == 34:
        left = wilds - (2 if need_pair else 0)
        if left < 0 or left % 3:
            return
        pairs: list[_Raw | None] = (
            [(GroupKind.PAIR, (t, t)) for t in range(34) if _pair_ok(rules, t)]
            if need_pair
            else [None]
        )
        for pair in pairs:
            for combo in combinations_with_replacement(melds, left // 3):
                yield [*combo] if pair is None else [*combo, pair]
        return
    for group in _groups_holding(i, rules, need_pair):
        taken: list[int] = []
        used = 0
        for t in group[1]:
            if rem[t] > 0:
                rem[t] -= 1
                taken.append(t)
            else:
                used += 1
        if used <= wilds:
            still_pair = need_pair and group[0] is not GroupKind.PAIR
            for rest in _standard(rem, wilds - used, still_pair, rules, melds):
                yield [group, *rest]
        for t in taken:
            rem[t] += 1


def _finish(shape: Shape, groups: Sequence[_Raw], c: bytes, wilds: int) -> _Key | None:
    """The canonical key of a reading, or None if it breaks the 4-copy rule."""
    total = [0] * 34
    for _kind, tiles in groups:
        for t in tiles:
            total[t] += 1
    wild_as: list[int] = []
    for t in range(34):
        extra = total[t] - c[t]
        if extra < 0:
            return None
        if extra:
            if total[t] > 4:
                return None
            wild_as.extend([t] * extra)
    if len(wild_as) != wilds:
        return None
    ordered = tuple(sorted(groups, key=lambda g: (g[1], g[0])))
    return (shape, ordered, tuple(wild_as))


def decompositions(
    counts: Sequence[int], wilds: int = 0, rules: WinRules = DEFAULT_RULES
) -> list[Decomposition]:
    """Every distinct reading of a complete hand (empty when it is not complete).

    Readings differ by their groups or by what the wildcards stand for; a wildcard never
    makes a fifth copy of a tile. Sorted by shape, then groups, then wildcard assignment.
    """
    c = counts_key(counts)
    if wilds < 0:
        raise ValueError(f"wilds must be >= 0, got {wilds}")
    total = sum(c) + wilds
    if total % 3 != 2:
        return []
    keys: set[_Key] = set()
    melds = _melds(rules)

    def add(shape: Shape, groups: Sequence[_Raw]) -> None:
        got = _finish(shape, groups, c, wilds)
        if got is not None:
            keys.add(got)

    for groups in _standard(list(c), wilds, True, rules, melds):
        add(Shape.STANDARD, groups)

    if total == 14:
        if rules.seven_pairs:
            for groups in _seven_pairs(c, wilds):
                add(Shape.SEVEN_PAIRS, groups)
        if rules.thirteen_orphans:
            for e in ORPHANS:
                add(
                    Shape.THIRTEEN_ORPHANS,
                    [
                        (GroupKind.SINGLES, tuple(t for t in ORPHANS if t != e)),
                        (GroupKind.PAIR, (e, e)),
                    ],
                )
        if rules.knitted:
            for groups in _knitted_singles(c, wilds):
                add(Shape.HONOURS_AND_KNITTED, groups)
    if rules.knitted and total >= 11:
        for ks in KNITTED:
            rem = list(c)
            used = 0
            for t in ks:
                if rem[t]:
                    rem[t] -= 1
                else:
                    used += 1
            if used > wilds:
                continue
            for groups in _standard(rem, wilds - used, True, rules, melds):
                add(Shape.KNITTED_STRAIGHT, [(GroupKind.KNITTED, ks), *groups])

    order = list(Shape)
    result = sorted(keys, key=lambda k: (order.index(k[0]), k[1], k[2]))
    return [
        Decomposition(shape, tuple(Group(kind, tiles) for kind, tiles in groups), wild_as)
        for shape, groups, wild_as in result
    ]


def _seven_pairs(c: bytes, wilds: int) -> Iterator[list[_Raw]]:
    base: list[_Raw] = []
    used = 0
    for t in range(34):
        x = c[t]
        if x:
            base.extend([(GroupKind.PAIR, (t, t))] * ((x + 1) // 2))
            used += x & 1
    left = wilds - used
    if left < 0 or left % 2:
        return
    for extra in combinations_with_replacement(range(34), left // 2):
        yield base + [(GroupKind.PAIR, (t, t)) for t in extra]


def _knitted_singles(c: bytes, wilds: int) -> Iterator[list[_Raw]]:
    held = [t for t in range(34) if c[t]]
    for ks in KNITTED:
        allowed = sorted(set(ks) | set(HONOUR_IDS))
        if any(t not in allowed or c[t] > 1 for t in held):
            continue
        free = [t for t in allowed if not c[t]]
        for pick in combinations(free, wilds):
            tiles = tuple(sorted(held + list(pick)))
            if len(tiles) == 14:
                yield [(GroupKind.SINGLES, tiles)]
