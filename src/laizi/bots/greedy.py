"""``greedy``: tile efficiency with each variant's goals and a little defence.

For every discard the bot measures the hand left behind:

1. **shanten** (向听数) over the shapes its variant profile aims for
   (:mod:`laizi.bots.profiles`), wildcards counted as wild;
2. when ready (听牌), the unseen copies of the waits that are *legal wins* in the
   variant — the variant's own ``win_refusal`` judges each wait on a probe state built
   from the view, so Jingzhou's 开口 and 8-point minimum, 晃晃's two-laizi rule and the
   golden / MCR 8-fan minimum are respected — otherwise the count of unseen tiles that
   lower the shanten (有效牌);
3. a goal bonus (one suit for the flush hands);
4. a defence penalty: for each opponent that looks ready (exposed melds, few concealed
   tiles, a late wall) the risk of the tile, weighed more the further the bot's own hand
   is from ready — so a far hand folds to safe tiles (ones the threat discarded itself,
   dead honours).

Claims are taken when they bring the hand closer (Jingzhou: also to open, 开口); variants
that value a concealed hand (晃晃 大刀, 门清) claim only near ready. Wins are always taken,
中 and extra laizi are played out as kongs, other kongs when they cost no shanten.
"""

from __future__ import annotations

import math
import random
from bisect import insort
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from mypy_extensions import mypyc_attr

from laizi import tiles as T
from laizi.analysis import WinRules, shanten
from laizi.analysis.incremental import shanten_minus, shanten_plus
from laizi.bots.determinize import DeterminizeError, sample_world
from laizi.bots.hold import passes_discard_win
from laizi.bots.knowledge import danger, hand_counts, is_open, threats, unseen_counts
from laizi.bots.near import near_mask, near_set
from laizi.bots.profiles import Profile, profile
from laizi.bots.protocol import View
from laizi.core.jsondata import JSON
from laizi.core.records import SELF_DRAW
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECLARE,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    SPECIAL_KONG,
    WIN,
    WINNING_TYPES,
    Action,
)
from laizi.engine.game import TURN, Game
from laizi.vocab import Phase, TurnStart

__all__ = ["GreedyBot", "HandContext", "posed_self_draws"]

STEP = 100.0
"""Score of one shanten step; 有效牌 counts and bonuses are added in tile units."""

DECLARE_LIVE = 2
"""A ready hand is declared (Taiwan 天听 / 地听: 8 / 4 台, but locked for the rest of the
hand) when at least this many unseen tiles complete it: locked on a single live tile, it
would more likely die than win."""

SHANTEN_CACHE: dict[int, dict[bytes, int]] = {}
"""The best shanten over a profile's rule set, by the set (its id: the profiles keep
their rule sets), then by counts + wildcards as bytes. Shared by every decision of the
greedy bot and the search's playouts in the process. Big caches keep to bytes, strings
and numbers, which the garbage collector does not track, so they add nothing to its
pauses."""
_SHANTEN_OLD: dict[int, dict[bytes, int]] = {}
"""The previous generation of :data:`SHANTEN_CACHE`: a full cache becomes the old one
and a fresh one starts, and a hand found only in the old one moves back. So the hands in
use stay cached (a full clear threw them away every dozen searched hands) and at most
two generations are held."""
_SHANTEN_MAX = 500_000
_shanten_size = 0
"""The hands in :data:`SHANTEN_CACHE` (summed over its tables), counted as they are
added: the sum was taken at every decision."""


def trim_shanten_cache() -> None:
    """Start a new generation of :data:`SHANTEN_CACHE` once it holds more than half a
    million hands (the old generation is dropped)."""
    global SHANTEN_CACHE, _SHANTEN_OLD, _shanten_size
    if _shanten_size > _SHANTEN_MAX:
        _SHANTEN_OLD = SHANTEN_CACHE
        SHANTEN_CACHE = {}
        _shanten_size = 0


_WILD_BYTE = tuple(bytes((w,)) for w in range(256))
"""The wildcard count as the last byte of a shanten cache key."""


def best_shanten(counts: list[int], wilds: int, rules: tuple[WinRules, ...]) -> int:
    """The best shanten over ``rules`` (wildcards already out of ``counts``), through
    :data:`SHANTEN_CACHE`."""
    global _shanten_size
    table = SHANTEN_CACHE.get(id(rules))
    if table is None:
        table = SHANTEN_CACHE[id(rules)] = {}
    key = bytes(counts) + _WILD_BYTE[wilds]
    got = table.get(key)
    if got is None:
        old = _SHANTEN_OLD.get(id(rules))
        if old is not None:
            got = old.get(key)
        if got is None:
            got = (shanten(counts, wilds, rules[0]) if len(rules) == 1
                   else min(shanten(counts, wilds, r) for r in rules))
        table[key] = got
        _shanten_size += 1
    return got


def best_shanten_plus(counts: list[int], wilds: int, rules: tuple[WinRules, ...],
                      tiles: list[int]) -> list[int]:
    """``[best_shanten(counts + t, wilds, rules) for t in tiles]`` (real tiles, none of
    them the wildcard) in one pass per rule set (:func:`shanten_plus`): a hand's 有效牌
    differ from it by one tile, so three of its four group shapes are looked up once."""
    if not tiles:
        return []
    got = shanten_plus(counts, wilds, rules[0], tiles)
    for r in rules[1:]:
        got = [a if a < b else b for a, b in
               zip(got, shanten_plus(counts, wilds, r, tiles), strict=True)]
    return got


def prime_discards(counts: list[int], wilds: int, rules: tuple[WinRules, ...],
                   tiles: list[int]) -> None:
    """Put the best shanten of the hand left by each discard of ``tiles`` (real tiles
    held, none the wildcard) into :data:`SHANTEN_CACHE` in one pass per rule set
    (:func:`shanten_minus`), where :func:`best_shanten` will find it."""
    global _shanten_size
    if not tiles:
        return
    got = shanten_minus(counts, wilds, rules[0], tiles)
    for r in rules[1:]:
        got = [a if a < b else b for a, b in
               zip(got, shanten_minus(counts, wilds, r, tiles), strict=True)]
    table = SHANTEN_CACHE.get(id(rules))
    if table is None:
        table = SHANTEN_CACHE[id(rules)] = {}
    b = bytearray(counts)
    tail = _WILD_BYTE[wilds]
    for t, value in zip(tiles, got, strict=True):
        b[t] -= 1
        key = bytes(b) + tail
        b[t] += 1
        if key not in table:
            table[key] = value
            _shanten_size += 1


def _within(counts: list[int], wilds: int, rules: tuple[WinRules, ...], s: int
            ) -> tuple[WinRules, ...]:
    """The rules of ``rules`` under which the hand is ``s`` from ready or nearer, and
    those with knitted shapes (the ones whose shanten after one more tile can be below
    ``s``: a tile covers one more tile of a set, a pair or 十三幺 at most)."""
    kept = tuple(r for r in rules if r.knitted or shanten(counts, wilds, r) <= s)
    return kept if len(kept) != len(rules) else rules


@contextmanager
def posed_self_draws(g: Game, seat: int) -> Iterator[Callable[[list[int], int], str | None]]:
    """``refusal(hand, tile)``: the variant's ``win_refusal`` for ``seat`` self-drawing
    ``tile`` into ``hand`` (tile counts, the tile included), posed on ``g``. The seat's
    hand and melds and the turn are put back afterwards. Only ``win_refusal`` (and
    settlement) may be asked meanwhile: the game's cached legal actions are not
    refreshed for the posed hands."""
    saved = (g.hands[seat], g.sizes[seat], g.melds[seat], g.turn, g.phase, g.turn_kind,
             g.last_tile, g.after_kong)

    def refusal(hand: list[int], tile: int) -> str | None:
        g.hands[seat] = hand
        g.sizes[seat] = sum(hand)
        g.turn, g.phase, g.turn_kind, g.last_tile, g.after_kong = (
            seat, TURN, TurnStart.DRAWN, tile, False)
        return g.variant.win_refusal(g, seat, tile, SELF_DRAW)

    try:
        yield refusal
    finally:
        (g.hands[seat], g.sizes[seat], g.melds[seat], g.turn, g.phase, g.turn_kind,
         g.last_tile, g.after_kong) = saved


_LEGAL_WAIT: dict[str, float] = {}
"""Probe verdicts by (variant facts, hand, melds, tile), written out as a string — 0 for
a refused win, else the wait's weight: a seat's hand changes by a tile a turn, so the
same candidate hands come back decision after decision."""


class HandContext:
    """One decision's facts, computed once from the view."""

    def __init__(self, view: View, probe: bool = True) -> None:
        self.view = view
        self.seat = int(view["seat"])
        self.profile: Profile = profile(view["variant"])
        self.wild: int | None = view["wildcard"]
        self.unseen = unseen_counts(view)
        self.threats = threats(view)
        self.melds: list[JSON] = view["melds"][self.seat]
        self.opened = is_open(self.melds)
        counts = hand_counts(view)
        self.wilds = 0
        if self.wild is not None:
            self.wilds = counts[self.wild]
            counts[self.wild] = 0
        self.counts = counts
        self.rules = self.profile.rules(self.melds)
        trim_shanten_cache()
        self._probe_enabled = probe
        self._probe: Game | None = None
        meld_tiles = [t for m in self.melds for t in m["tiles"] if t < T.NUM_KINDS]
        self.meld_suits = [0, 0, 0, 0]
        for t in meld_tiles:
            self.meld_suits[T.suit(t)] += 1
        self.draw_tiles = [t for t in range(T.NUM_KINDS)
                           if self.unseen[t] and t not in self.profile.dead]

    # ------------------------------------------------------------------ shanten

    def sh(self, counts: list[int], wilds: int, rules: tuple[WinRules, ...] | None = None) -> int:
        return best_shanten(counts, wilds, self.rules if rules is None else rules)

    def improvers(
        self, counts: list[int], wilds: int, s: int, rules: tuple[WinRules, ...] | None = None
    ) -> list[int]:
        """Tiles whose draw lowers the shanten of a 3n+1 hand (the waits when s = 0).

        Without wildcards only a tile next to (or equal to) a held tile can help — a lone
        new tile could simply be discarded again — except for 十三幺's terminals and
        honours; with a wildcard any tile can join it."""
        rs = self.rules if rules is None else rules
        tiles = self.draw_tiles
        wild = self.wild
        if wilds == 0:
            near = near_mask(counts, rs)
            real = [t for t in tiles if near >> t & 1 and t != wild and counts[t] < 4]
        else:
            real = [t for t in tiles if t != wild and counts[t] < 4]
        if len(rs) > 1:
            # A tile lowers a shape's shanten by one at most, so a shape further than
            # ``s`` now cannot bring the best below ``s`` (knitted shapes always asked).
            rs = _within(counts, wilds, rs, s)
        # draw_tiles are in tile order, so the improvers come out in tile order
        out = [t for t, got in zip(real, best_shanten_plus(counts, wilds, rs, real),
                                   strict=True) if got < s] if rs else []
        if wild is not None and wild in tiles and self.sh(counts, wilds + 1, rules) < s:
            insort(out, wild)
        return out

    def improvers_reference(
        self, counts: list[int], wilds: int, s: int, rules: tuple[WinRules, ...] | None = None
    ) -> list[int]:
        """:meth:`improvers` asked tile by tile through :func:`best_shanten` (the
        reference its one-pass :func:`best_shanten_plus` is tested against)."""
        out = []
        tiles = self.draw_tiles
        if wilds == 0:
            tiles = [t for t in tiles if t in near_set(counts, self.rules if rules is None
                                                    else rules) or t == self.wild]
        for t in tiles:
            if t == self.wild:
                if self.sh(counts, wilds + 1, rules) < s:
                    out.append(t)
                continue
            if counts[t] >= 4:
                continue
            counts[t] += 1
            if self.sh(counts, wilds, rules) < s:
                out.append(t)
            counts[t] -= 1
        return out

    # ------------------------------------------------------------------ probe

    def legal_waits(self, counts: list[int], wilds: int, waits: list[int],
                    melds: list[JSON] | None = None) -> list[tuple[int, float]]:
        """The waits on which the variant allows a (self-drawn) win, each with a weight
        from what the win would pay (1 at the profile's typical value, +0.5 per
        doubling), judged and settled by the variant on a probe state built from the
        view — so 大刀 / 硬胡, big hands, fan and 台 all count."""
        if not self._probe_enabled or not waits:
            return [(t, 1.0) for t in waits]
        if self._probe is None:
            try:
                self._probe = sample_world(self.view, random.Random(0), enter=False)
            except DeterminizeError:
                self._probe_enabled = False
                return [(t, 1.0) for t in waits]
        g = self._probe
        me = self.seat
        base = list(counts)
        if self.wild is not None:
            base[self.wild] += wilds
        mkey = repr(melds if melds is not None else self.melds)
        v = self.view
        fixed = repr((v["variant"], me, v["dealer"], self.wild, len(v["flowers"][me]), mkey,
                      bytes(base)))
        todo = [t for t in waits if f"{fixed}{t}" not in _LEGAL_WAIT]
        if not todo:
            return [(t, w) for t in waits if (w := _LEGAL_WAIT[f"{fixed}{t}"]) > 0]
        if len(_LEGAL_WAIT) > 200_000:
            _LEGAL_WAIT.clear()
        with posed_self_draws(g, me) as refusal:
            if melds is not None:
                from laizi.core.melds import Meld
                g.melds[me] = [Meld.from_json(m) for m in melds]
            for t in todo:
                h = list(base)
                h[t] += 1
                weight = 0.0
                if refusal(h, t) is None:
                    weight = self._weight(g, me, t)
                _LEGAL_WAIT[f"{fixed}{t}"] = weight
        return [(t, w) for t in waits if (w := _LEGAL_WAIT[f"{fixed}{t}"]) > 0]

    def _weight(self, g: Game, me: int, t: int) -> float:
        """What a self-drawn win on ``t`` would pay, on a log scale around the profile's
        typical value (never below 0.25: a legal win is always worth having)."""
        try:
            pays = g.variant.settle(g.make_record([me], SELF_DRAW, None, t))
        except Exception:  # a probe state the settlement refuses: count the win plainly
            return 1.0
        got = sum(p.amount for p in pays if p.payee == me) - sum(
            p.amount for p in pays if p.payer == me)
        ref = max(1.0, self.profile.value_ref)
        return max(0.25, 1.0 + 0.5 * math.log2(max(1.0, float(got)) / ref))

    # ------------------------------------------------------------------ values

    def hand_value(self, counts: list[int], wilds: int,
                   melds: list[JSON] | None = None) -> tuple[float, int]:
        """(score, effective shanten) of a 3n+1 hand."""
        rules = self.rules if melds is None else self.profile.rules(melds)
        s = self.sh(counts, wilds, rules)
        imp = self.improvers(counts, wilds, s, rules)
        if s == 0:
            legal = self.legal_waits(counts, wilds, imp, melds)
            if legal:
                quality = 4.0 + 1.5 * sum(self.unseen[t] * w for t, w in legal)
                return -STEP * 0 + quality + self.goal(counts, wilds), 0
            # Ready in shape only (no legal win on any wait): worth a one-away hand.
            s_eff = 1
            quality = 0.5 * sum(self.unseen[t] for t in imp)
            return -STEP * s_eff + quality + self.goal(counts, wilds), s_eff
        quality = float(sum(self.unseen[t] for t in imp))
        return -STEP * s + quality + self.goal(counts, wilds), s

    def live_waits(self, counts: list[int], wilds: int) -> int:
        """How many unseen tiles would complete a 3n+1 hand with a legal win (0 when it
        is not ready)."""
        s = self.sh(counts, wilds)
        if s != 0:
            return 0
        waits = self.improvers(counts, wilds, s)
        return sum(self.unseen[t] for t, _ in self.legal_waits(counts, wilds, waits))

    def goal(self, counts: list[int], wilds: int) -> float:
        w = self.profile.flush
        if not w:
            return 0.0
        per = list(self.meld_suits)
        for t in range(T.NUM_KINDS):
            if counts[t]:
                per[T.suit(t)] += counts[t]
        total = sum(per) + wilds
        if total == 0:
            return 0.0
        main = max(per[:3])
        if self.profile.honours_in_flush:
            main += per[3]
        share = (main + wilds) / total
        return w * max(0.0, share - 0.55) * 25.0

    def risk(self, tile: int, s_eff: int) -> float:
        if tile >= T.NUM_KINDS:
            return 0.0
        total = 0.0
        for o, th in enumerate(self.threats):
            if o != self.seat and th > 0:
                total += th * danger(self.view, tile, self.unseen, o)
        weight = 12.0 if s_eff <= 0 else (40.0 if s_eff == 1 else 120.0)
        return total * weight


def _minus(counts: list[int], wilds: int, wild: int | None, tiles: Sequence[int]
           ) -> tuple[list[int], int] | None:
    c = list(counts)
    w = wilds
    for t in tiles:
        if t == wild:
            if w <= 0:
                return None
            w -= 1
        else:
            if c[t] <= 0:
                return None
            c[t] -= 1
    return c, w


# Subclassed in plain Python (other policies, tests) in the compiled build too.
@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyBot:
    """Tile efficiency + variant goals + defence; deterministic given the view."""

    name = "greedy"

    def __init__(self, seed: int = 0, *, defence: bool = True, probe: bool = True,
                 fold: float | None = None, hold: float | None = None) -> None:
        self.seed = seed
        self.defence = defence
        self.fold = fold
        """The defence penalty's weight; ``None``: the variant profile's ``fold``."""
        self.hold = hold
        """Pass on a discard win for a likelier-paying self-draw
        (:func:`~laizi.bots.hold.passes_discard_win`; 0: never); ``None``: the profile's
        ``hold``."""
        self.probe = probe
        self.last_risk: dict[Action, float] = {}
        """The defence penalty of each discard at the last decision (for the search bot)."""

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return self.rank(view, legal_actions)[0][1]

    def rank(self, view: View, legal_actions: Sequence[Action]) -> list[tuple[float, Action]]:
        """Every legal action with its score, best first (ties: the engine's order)."""
        for a in legal_actions:
            if a.type in WINNING_TYPES:
                first = a
                hold = profile(view["variant"]).hold if self.hold is None else self.hold
                if a.type == WIN and a.tile is not None and passes_discard_win(view, a.tile, hold):
                    first = next((b for b in legal_actions if b.type == PASS), a)
                others = [(0.0, b) for b in legal_actions if b is not first]
                return [(1e9, first), *others]
        if len(legal_actions) == 1:
            return [(0.0, legal_actions[0])]
        ctx = HandContext(view, self.probe)
        self.last_risk = {}
        if view["phase"] == Phase.TURN:
            scored = self._turn(ctx, legal_actions)
        else:
            scored = self._claims(ctx, legal_actions)
        order = {a: i for i, a in enumerate(legal_actions)}
        scored.sort(key=lambda sa: (-sa[0], order[sa[1]]))
        return scored

    # ------------------------------------------------------------------ own turn

    def _turn(self, ctx: HandContext, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        out: list[tuple[float, Action]] = []
        discards = [a for a in legal if a.type == DISCARD]
        best = -1e18
        best_s = 99
        fold = ctx.profile.fold if self.fold is None else self.fold
        ready_live = 0  # the most live waits a ready discard leaves (when 地听 is offered)
        declarable = any(a.type == DECLARE for a in legal)
        prime_discards(ctx.counts, ctx.wilds, ctx.rules,
                       [t for a in discards if (t := a.tile) is not None and t != ctx.wild
                        and ctx.counts[t]])
        for a in discards:
            t = a.tile
            assert t is not None
            got = _minus(ctx.counts, ctx.wilds, ctx.wild, [t])
            if got is None:
                continue
            value, s_eff = ctx.hand_value(*got)
            if s_eff == 0 and declarable:
                ready_live = max(ready_live, ctx.live_waits(*got))
            if t == ctx.wild:
                value -= 30.0  # a wildcard thrown away (晃晃: doubles every payment)
            if self.defence and fold > 0:
                r = ctx.risk(t, s_eff) * fold
                self.last_risk[a] = r
                value -= r
            out.append((value, a))
            if value > best:
                best, best_s = value, s_eff
        for a in legal:
            if a.type == DISCARD:
                continue
            if a.type == DECLARE:
                # 地听: declared with the first discard, which must keep the hand ready.
                out.append((best + 1.0 if ready_live >= DECLARE_LIVE else best - 1e6, a))
                continue
            t = a.tile
            if t is None:  # a variant's action this policy does not know: never taken
                out.append((best - 1e6, a))
                continue
            if a.type == SPECIAL_KONG:
                if t in ctx.profile.dead or t != ctx.wild:
                    out.append((1e8, a))
                    continue
                # The laizi: play it out when the hand does not need it (or holds two).
                got = _minus(ctx.counts, ctx.wilds, ctx.wild, [t])
                if got is None:
                    continue
                value, s_eff = ctx.hand_value(*got)
                keep = ctx.wilds <= 1 and s_eff > best_s
                out.append((best + 1.0 if not keep else best - 1e6, a))
            elif a.type == CONCEALED_KONG:
                got = _minus(ctx.counts, ctx.wilds, ctx.wild, [t] * 4)
                if got is None:
                    continue
                melds = [*ctx.melds, {"kind": "concealed_kong", "tiles": [t] * 4}]
                value, s_eff = ctx.hand_value(*got, melds)
                out.append((best + 2.0 if s_eff <= best_s else best - 50.0, a))
            elif a.type == ADDED_KONG:
                got = _minus(ctx.counts, ctx.wilds, ctx.wild, [t])
                if got is None:
                    continue
                value, s_eff = ctx.hand_value(*got)
                out.append((best + 2.0 if s_eff <= best_s else best - 50.0, a))
            else:
                out.append((best - 1e6, a))
        return out

    # ------------------------------------------------------------------ claims

    def _claims(self, ctx: HandContext, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        s0 = ctx.sh(ctx.counts, ctx.wilds)
        base = 0.0
        out: list[tuple[float, Action]] = []
        prof = ctx.profile
        for a in legal:
            if a.type == PASS:
                out.append((base, a))
                continue
            if a.type == DECLARE:  # 天听, right after the deal: the 16 tiles as they are
                live = ctx.live_waits(ctx.counts, ctx.wilds)
                out.append((base + 1.0 if live >= DECLARE_LIVE else base - 1e6, a))
                continue
            if a.type not in (CHOW, PUNG, KONG):
                out.append((base - 1e6, a))
                continue
            rest = list(a.tiles)
            rest.remove(a.tile)  # type: ignore[arg-type]
            got = _minus(ctx.counts, ctx.wilds, ctx.wild, rest)
            if got is None:
                out.append((base - 1e6, a))
                continue
            counts, wilds = got
            melds = [*ctx.melds, {"kind": a.type, "tiles": list(a.tiles)}]
            if a.type == KONG:
                rules = prof.rules(melds)
                s1 = ctx.sh(counts, wilds, rules)
                ok = s1 <= s0
            else:
                s1 = 99
                for t in range(T.NUM_KINDS):
                    if counts[t] and t not in prof.dead:
                        counts[t] -= 1
                        s1 = min(s1, ctx.sh(counts, wilds, prof.rules(melds)))
                        counts[t] += 1
                ok = s1 < s0 or (prof.must_open and not ctx.opened and s1 <= s0)
            if ok and not ctx.opened and prof.closed_max is not None and not prof.must_open:
                ok = s1 <= prof.closed_max
            if ok and prof.flush and a.type == CHOW and ctx.goal(ctx.counts, ctx.wilds) > 0:
                ok = _suit_major(ctx, a.tile)  # type: ignore[arg-type]
            out.append((base + (10.0 + s0 - s1 if ok else -10.0), a))
        return out


def _suit_major(ctx: HandContext, tile: int) -> bool:
    """Is ``tile`` of the suit the hand is gathering?"""
    per = list(ctx.meld_suits)
    for t in range(27):
        per[T.suit(t)] += ctx.counts[t]
    return T.suit(tile) == max(range(3), key=lambda s: per[s])
