"""``simple``: win when legal, claim, and discard to keep the lowest shanten (向听数).

A baseline that plays like a careful beginner: it always wins, always makes kongs and
special kongs of fixed tiles (Jingzhou 中), claims a pung or chow when that does not leave
the hand further from ready, and discards the tile whose removal leaves the fewest
shanten, preferring isolated honours and terminals on ties. It sees only its view.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi import tiles as T
from laizi.analysis import WinRules, shanten
from laizi.bots.base import View
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    SPECIAL_KONG,
    WINNING_TYPES,
    Action,
)

__all__ = ["SimpleBot"]

_RULES = WinRules(seven_pairs=True)


def _isolation(counts: Sequence[int], t: int) -> int:
    """How useless a tile looks alone: honours and terminals without neighbours first."""
    if t >= 27:
        return 3 if counts[t] == 1 else 0
    r = t % 9
    near = sum(counts[x] for x in range(max(t - 2, t - r), min(t + 3, t - r + 9)) if x != t)
    return (2 if r in (0, 8) else 1) - min(near, 1) * 2 + (counts[t] == 1)


class SimpleBot:
    """Greedy shanten bot (deterministic: no randomness)."""

    name = "simple"

    def __init__(self, rules: WinRules = _RULES) -> None:
        self.rules = rules

    def _shanten(self, counts: list[int], wild: int | None) -> int:
        c = list(counts)
        wilds = 0
        if wild is not None:
            wilds, c[wild] = c[wild], 0
        if (sum(c) + wilds) % 3 == 0:
            return 9
        return shanten(c, wilds, self.rules)

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        by_type: dict[str, list[Action]] = {}
        for a in legal_actions:
            by_type.setdefault(a.type, []).append(a)
        for a in legal_actions:
            if a.type in WINNING_TYPES:
                return a
        wild = view.get("wildcard")
        counts = T.to_counts(view["hand"])
        if DISCARD in by_type or SPECIAL_KONG in by_type:
            return self._turn(by_type, counts, wild)
        return self._claim(by_type, counts, wild)

    def _turn(self, by_type: dict[str, list[Action]], counts: list[int],
              wild: int | None) -> Action:
        for a in by_type.get(SPECIAL_KONG, []):
            if a.tile != wild or DISCARD not in by_type:
                return a  # fixed kong tiles (中) go out at once; the laizi is kept
        for kind in (CONCEALED_KONG, ADDED_KONG):
            if kind in by_type:
                return by_type[kind][0]
        best: tuple[int, int, int] | None = None
        choice = by_type[DISCARD][0]
        for a in by_type[DISCARD]:
            t = a.tile
            assert t is not None
            counts[t] -= 1
            key = (self._shanten(counts, wild), -_isolation(counts, t), -t)
            counts[t] += 1
            if best is None or key < best:
                best, choice = key, a
        return choice

    def _claim(self, by_type: dict[str, list[Action]], counts: list[int],
               wild: int | None) -> Action:
        before = self._shanten(counts, wild)
        for kind in (KONG, PUNG, CHOW):
            for a in by_type.get(kind, []):
                c = list(counts)
                rest = list(a.tiles)
                rest.remove(a.tile)  # type: ignore[arg-type]
                for x in rest:
                    c[x] -= 1
                # best shanten after the claim and a discard
                after = min((self._after_discard(c, x, wild) for x in range(T.NUM_KINDS)
                             if c[x] and x != wild), default=9) if kind != KONG else 0
                if kind == KONG or after <= before:
                    return a
        return by_type.get(PASS, [next(iter(by_type.values()))[0]])[0]

    def _after_discard(self, counts: list[int], t: int, wild: int | None) -> int:
        counts[t] -= 1
        s = self._shanten(counts, wild)
        counts[t] += 1
        return s
