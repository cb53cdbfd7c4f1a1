"""What each variant's bots aim for (by variant id), as data the greedy bot reads.

The shapes come from ``laizi.analysis.WinRules``; which shapes a hand may still reach
depends on its melds (Jingzhou: 碰碰胡 needs no chow, 七对 no meld at all). Anything not
listed here gets :data:`DEFAULT`: any pair, chows in all suits, 七对.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from laizi import tiles as T
from laizi.analysis import WinRules
from laizi.core.jsondata import JSON

__all__ = ["DEFAULT", "PROFILES", "Profile", "profile"]

_TWO_FIVE_EIGHT = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))
_STD_KINDS = frozenset({"chow", "pung", "kong", "added_kong", "concealed_kong"})


@dataclass(frozen=True, slots=True)
class Profile:
    """A variant's goals as the greedy bot sees them.

    * ``rules_open`` / ``rules_closed``: shapes aimed for (the best shanten over them
      counts); ``rules_closed`` are added while the hand has no set meld (七对).
    * ``pung_rules``: extra shapes that need no chow meld (碰碰胡 in Jingzhou, where its
      any-pair shape is not covered by the 2/5/8 rule); while the hand has no set meld
      ``rules_closed`` covers them. (A shape that is a special case of ``rules_open``
      adds nothing to the minimum shanten, so other variants list none.)
    * ``must_open``: the hand cannot win without a claimed meld (Jingzhou 开口).
    * ``closed_max``: stay concealed (大刀 / 门清 value) unless a claim leaves the hand at
      most this many tiles from ready; ``None``: claim whenever it helps.
    * ``flush``: weight of keeping one suit (清一色 / 混一色 value); ``honours_in_flush``:
      honours count toward it (混一色).
    * ``dead``: tiles that never stay in a hand (played out as special kongs).
    """

    id: str
    rules_open: tuple[WinRules, ...]
    rules_closed: tuple[WinRules, ...] = ()
    pung_rules: tuple[WinRules, ...] = ()
    must_open: bool = False
    closed_max: int | None = None
    flush: float = 0.0
    honours_in_flush: bool = True
    dead: frozenset[int] = field(default_factory=frozenset)
    value_ref: float = 8.0
    """A typical self-drawn win's takings: waits paying more weigh more (log scale)."""
    fold: float = 0.25
    """Weight of greedy's defence penalty (1: the penalty as
    :meth:`~laizi.bots.greedy.HandContext.risk` reckons it, 0: no defence). At the full
    weight greedy folded more than folding paid: every variant scored at least as well
    with a quarter of it or none, MCR best with none (docs/bots.md, "Defence,
    measured")."""
    hold: float = 0.0
    """Greedy passes on a discard win when ``hold`` × the chance of self-drawing × the
    self-draw's takings beat the win's (:mod:`laizi.bots.hold`; 0: every win taken)."""
    search_discards: bool = True
    """Does the search bot weigh one discard against another? Its playouts play for
    speed and know nothing of fan, 台 or points, so where value decides (Jingzhou,
    golden, Taiwan) their verdicts on discards were worth less than greedy's choice
    (docs/bots.md), and the search keeps to claims, kongs and wins."""
    search_value_waits: bool = False
    """In the search bot's playouts its own seat prefers ready hands that can win
    legally (MCR: 8 fan), as greedy does."""
    search_margin: float = 2.0
    """Standard errors by which a rival must beat greedy's choice on the search bot's
    samples. MCR's hands pay little next to their spread, and its deviations that won
    by less than 3 were worth about nothing (docs/bots.md): they only added noise."""

    def rules(self, melds: Sequence[JSON]) -> tuple[WinRules, ...]:
        """The shapes still reachable with these melds (JSON melds of the view)."""
        return self.rules_for_kinds(tuple(m["kind"] for m in melds))

    def rules_for_kinds(self, kinds: tuple[str, ...]) -> tuple[WinRules, ...]:
        """The shapes still reachable with melds of these kinds (cached)."""
        key = (self.id, kinds)
        got = _RULES_CACHE.get(key)
        if got is not None:
            return got
        set_kinds = [k for k in kinds if k in _STD_KINDS]
        out = list(self.rules_open)
        if not set_kinds:
            out.extend(self.rules_closed)
        if self.pung_rules and "chow" not in set_kinds and (set_kinds or not self.rules_closed):
            out.extend(self.pung_rules)
        got = _undominated(out)
        # One tuple for equal rule sets (melds in another order, another profile with
        # the same shapes): the shanten caches are kept by the tuple's identity.
        got = _RULES_CACHE[key] = _CANONICAL.setdefault(tuple(map(id, got)), got)
        return got


def _covers(a: WinRules, b: WinRules) -> bool:
    """Every hand complete under ``b`` is complete under ``a`` (so ``a``'s shanten is
    never above ``b``'s)."""
    pairs = a.pair_tiles is None or (b.pair_tiles is not None and a.pair_tiles >= b.pair_tiles)
    return (pairs and a.chow_suits >= b.chow_suits and (a.seven_pairs or not b.seven_pairs)
            and (a.thirteen_orphans or not b.thirteen_orphans) and (a.knitted or not b.knitted))


def _undominated(rules: Sequence[WinRules]) -> tuple[WinRules, ...]:
    """``rules`` without those another one covers: the best shanten over them is the
    same, for half the work where a closed hand's shapes include the open ones (MCR's
    七对 and 十三幺 besides four sets and a pair)."""
    out: list[WinRules] = []
    for i, r in enumerate(rules):
        if any(_covers(o, r) and (not _covers(r, o) or j < i)
               for j, o in enumerate(rules) if j != i):
            continue
        out.append(r)
    return tuple(out)


_RULES_CACHE: dict[tuple[str, tuple[str, ...]], tuple[WinRules, ...]] = {}
_CANONICAL: dict[tuple[int, ...], tuple[WinRules, ...]] = {}
"""Rule sets by the identities of their rules (each rule lives as long as its profile)."""

_ANY = WinRules()
DEFAULT = Profile("default", (_ANY,))

PROFILES: dict[str, Profile] = {
    # 屁胡: 2/5/8 pair, chows in 筒/条; big hands 碰碰胡 (no chow) and 七对 (closed).
    "jingzhou": Profile(
        "jingzhou",
        rules_open=(WinRules(pair_tiles=_TWO_FIVE_EIGHT, chow_suits=frozenset({1, 2}),
                             seven_pairs=False),),
        rules_closed=(WinRules(pair_tiles=None, chow_suits=frozenset(), seven_pairs=True),),
        pung_rules=(WinRules(pair_tiles=None, chow_suits=frozenset(), seven_pairs=False),),
        must_open=True, flush=1.0, honours_in_flush=False, dead=frozenset({T.RED}),
        value_ref=100.0, search_discards=False,
    ),
    # 大刀 (门清 self-draw, 七对, 碰碰胡) is worth double: claim only close to ready.
    "huanghuang": Profile(
        "huanghuang",
        rules_open=(WinRules(pair_tiles=None, seven_pairs=False),),
        rules_closed=(WinRules(pair_tiles=None, seven_pairs=True),),
        closed_max=1, value_ref=6.0, hold=0.18,
    ),
    # 8 fan minimum: the flush (混一色 6 / 清一色 24) and 碰碰和 are the common roads.
    "golden": Profile(
        "golden",
        rules_open=(WinRules(seven_pairs=False),),
        rules_closed=(WinRules(seven_pairs=True, thirteen_orphans=True),),
        closed_max=2, flush=2.0, value_ref=60.0, search_discards=False,
    ),
    "mcr": Profile(
        "mcr",
        rules_open=(WinRules(seven_pairs=False),),
        rules_closed=(WinRules(seven_pairs=True, thirteen_orphans=True),),
        closed_max=2, flush=2.0, value_ref=50.0, search_margin=3.0,
        search_value_waits=True, fold=0.0,
    ),
    # 台: 门清 and 自摸 are worth a 台 each, flushes and 碰碰胡 much more.
    "taiwan": Profile(
        "taiwan",
        rules_open=(WinRules(seven_pairs=False),),
        closed_max=2, flush=1.0, value_ref=400.0, search_discards=False,
    ),
}


def profile(variant_id: str) -> Profile:
    """The profile of ``variant_id`` (:data:`DEFAULT` for an unknown variant)."""
    return PROFILES.get(variant_id, DEFAULT)
