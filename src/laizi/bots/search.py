"""``search``: determinized Monte Carlo over the greedy bot's best few actions.

At a decision with more than one sensible action the bot takes the greedy bot's top
``k`` candidates, then repeatedly

1. samples the hidden tiles consistently with its view
   (:func:`laizi.bots.determinize.sample_world`), replaying each opponent's draws so it
   is as close to ready as its play suggests (:mod:`laizi.bots.reading`),
2. for every candidate, on its own copy of that same sample (common random numbers;
   with ``coupled`` every seat draws from its own stream of the wall, so a claim that
   changes the turn order does not reshuffle who gets which tile), applies the
   candidate and plays the hand out with the fast playout policy
   (:mod:`laizi.bots.rollout`) for every seat,
3. records the seat's points at the end of the hand.

Only close calls are searched: candidates whose greedy score is within ``window`` of the
best (a shanten step is worth 100); with ``guard``, never a discard riskier than greedy's
choice; with ``discards`` off (Jingzhou, golden and Taiwan by default, see
:attr:`laizi.bots.profiles.Profile.search_discards`), never one discard against another,
only claims, kongs and wins. A win on a discard is weighed against passing
(``decline``), since a self-draw may pay much more; a self-drawn win is always taken.
It stops at ``budget_ms`` (wall clock from the start of the decision, default 85 ms so a
decision stays within 100 ms) or after ``rollouts`` samples, whichever comes first.
The greedy choice is kept unless another candidate beats it on the paired differences
(same samples) by more than ``margin`` standard errors (2; 3 in MCR, see
:attr:`laizi.bots.profiles.Profile.search_margin`).
With ``budget_ms=0`` only the rollout count limits the search and the bot is
deterministic given its seed and the view. With ``stage`` the samples come in looks
(``stage``, twice that, … up to ``rollouts``) and stop once the best rival's ``z`` is
below ``extend`` (or, with ``accept``, once it reaches ``accept``): the close calls get
many samples, the clear ones few (the 高手 level, :mod:`laizi.bots.levels`).
"""

from __future__ import annotations

import gc
import math
import random
import time
import zlib
from collections.abc import Sequence
from multiprocessing.connection import Connection

from laizi.bots.greedy import GreedyBot
from laizi.bots.helpers import Decision, default_procs, helpers, run_share
from laizi.bots.profiles import profile
from laizi.bots.protocol import View
from laizi.engine.actions import DISCARD, FLOWER_WIN, PASS, ROB_FLOWER, WIN, Action
from laizi.vocab import Phase

__all__ = ["SearchBot"]


class SearchBot:
    """Determinization + Monte Carlo playouts on top of the greedy bot."""

    name = "search"

    def __init__(self, seed: int = 0, *, budget_ms: float = 85.0, rollouts: int = 200,
                 k: int = 2, margin: float | None = None, min_rollouts: int = 4,
                 window: float = 40.0, read: bool = True, guard: bool = False,
                 decline: bool = True, discards: bool | None = None,
                 value_waits: bool | None = None, coupled: bool = True,
                 procs: int | None = None, stage: int = 0, extend: float = 1.0,
                 accept: float = math.inf, fold: float | None = 1.0) -> None:
        if budget_ms < 0 or rollouts < 1 or k < 1 or (procs is not None and procs < 1):
            raise ValueError("budget_ms >= 0, rollouts >= 1, k >= 1 and procs >= 1 are "
                             "required")
        self.seed = seed
        self.budget_ms = budget_ms
        self.rollouts = rollouts
        self.k = k
        self.margin = margin
        """Standard errors a rival must win by; ``None``: the variant profile's
        ``search_margin`` (2, MCR 3)."""
        self.min_rollouts = min_rollouts
        self.window = window
        self.read = read
        """Read opponents' pace and claims into the samples (:mod:`laizi.bots.reading`)."""
        self.guard = guard
        """Never search a discard riskier (greedy's defence penalty) than greedy's choice
        (the default until samples replayed opponents' draws)."""
        self.decline = decline
        """Also search passing on a discard win (for a self-drawn one worth more)."""
        self.discards = discards
        """Weigh one discard against another; ``None``: as the variant's profile says
        (``search_discards``)."""
        self.value_waits = value_waits
        """In the playouts the bot's own seat prefers a ready hand that can win legally
        (``FastPolicy(value_waits=True)``); ``None``: the profile's
        ``search_value_waits``."""
        self.coupled = coupled
        """Every seat of a sample draws from its own stream of the wall
        (:meth:`laizi.engine.Game.split_wall`), so a claim in one candidate's playout
        does not hand the other seats different tiles than in the other's: with one
        shared wall, from the claim on the two hands are unrelated and their difference
        is mostly noise. In MCR searches the paired differences' standard error fell by
        about a fifth (docs/bots.md)."""
        self.greedy = GreedyBot(seed, fold=fold, hold=0.0)
        """The base policy: its choice stands unless a rival wins on the samples. It
        takes every win: whether to pass on a discard win is the search's own question
        (``decline``), answered on the samples. ``fold`` is its defence weight: 1, the
        full penalty that every figure of the search (and the 高手 level) was measured
        with; ``None``, the variant profile's lighter weight that made greedy itself
        stronger (docs/bots.md, "Defence, measured"), not yet measured inside the
        search."""
        self.last_stats: dict[str, object] = {}
        """The last searched decision: samples (``rollouts``), ``candidates``, ``ms``,
        ``values`` (per sample, the seat's points after each candidate), and
        (once ``min_rollouts`` samples were taken) ``z``, the best rival's mean paired
        gain over its standard error (the choice switches only above ``margin``).
        Empty when nothing was searched."""
        self.procs = procs
        """Processes a searched decision uses, this one included (helpers take a share
        of the samples, :mod:`laizi.bots.helpers`); ``None``: one per core
        (:func:`~laizi.bots.helpers.default_procs`), 1 inside a worker of a pool."""
        self.stage = stage
        """Staged sampling: look at the figures after ``stage`` samples, then after twice
        as many each time, and go on only while the best rival's ``z`` is at least
        ``extend`` (0: no stages, ``rollouts`` samples at once)."""
        self.extend = extend
        self.accept = accept
        """Staged sampling stops at a look where the best rival's ``z`` is at least this:
        the rival has won clearly, and more samples would mostly confirm it
        (``math.inf``: never; the 高手 level stops at 3, MCR's margin)."""
        self._sample_s = 0.0
        """Running estimate of one sample's duration (all candidates), across decisions,
        so the clock is respected from the first sample on."""

    def choose(self, view: View, legal_actions: Sequence[Action]) -> Action:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        start = time.perf_counter()
        if self.budget_ms <= 0 or not gc.isenabled():
            return self._choose(view, legal_actions, start)
        # A full pass of the garbage collector can take tens of milliseconds (the
        # process's caches are large): it is held off while the clock runs, and runs
        # after the decision.
        gc.disable()
        try:
            return self._choose(view, legal_actions, start)
        finally:
            gc.enable()

    def _choose(self, view: View, legal_actions: Sequence[Action], start: float) -> Action:
        self.last_stats = {}
        ranked = self.greedy.rank(view, legal_actions)
        top = ranked[0][1]
        if len(ranked) == 1 or top.type in (FLOWER_WIN, ROB_FLOWER):
            return top  # a flower win (花胡) is never worth declining
        if top.type == WIN:
            # A self-draw can pay far more than a discard (晃晃: all three pay double,
            # and a concealed hand is 大刀 only when self-drawn), so passing on a
            # discard win is worth a look; a self-drawn win is always taken.
            passes = [a for a in legal_actions if a.type == PASS]
            if not (self.decline and passes and view["phase"] != Phase.TURN):
                return top
            cands = [top, passes[0]]
        else:
            cands = self._candidates(ranked)
            if (all(a.type == DISCARD for a in cands)
                    and not self._search_discards(view["variant"])):
                return top
        if len(cands) == 1:
            return top
        return self._search(view, cands, start)

    def _value_waits(self, variant: str) -> bool:
        return (profile(variant).search_value_waits if self.value_waits is None
                else self.value_waits)

    def _search_discards(self, variant: str) -> bool:
        return profile(variant).search_discards if self.discards is None else self.discards

    def _candidates(self, ranked: list[tuple[float, Action]]) -> list[Action]:
        top = ranked[0][1]
        # Only close calls are searched: candidates within ``window`` of greedy's best
        # score (a shanten step is worth 100), so clear decisions cost nothing.
        best_score = ranked[0][0]
        # With ``guard`` a discard riskier than greedy's choice is never searched. It was
        # needed while samples dealt opponents hands nobody had played (far from ready,
        # so playouts under-rated danger); samples now replay opponents' draws
        # (``read``), and searching riskier discards won more (docs/bots.md).
        risk = self.greedy.last_risk
        top_risk = risk.get(top, 0.0)
        cands = [a for sc, a in ranked[: self.k]
                 if best_score - sc <= self.window
                 and (not self.guard or risk.get(a, 0.0) <= top_risk + 1e-9)]
        return cands

    def _procs(self) -> int:
        return self.procs if self.procs is not None else default_procs()

    def _looks(self) -> list[int]:
        """The sample counts after which the search looks at its figures: ``rollouts``
        alone, or with ``stage`` that many, then twice as many each time, up to
        ``rollouts``."""
        if self.stage <= 0 or self.stage >= self.rollouts:
            return [self.rollouts]
        looks = []
        n = self.stage
        while n < self.rollouts:
            looks.append(n)
            n *= 2
        return [*looks, self.rollouts]

    def _search(self, view: View, cands: list[Action], start: float) -> Action:
        """Greedy's choice ``cands[0]`` unless a rival beats it on the samples."""
        top = cands[0]
        # Stable per-decision seed: the same view and bot seed give the same samples.
        rng = random.Random((self.seed * 1_000_003) ^ zlib.crc32(repr(sorted(
            (k, str(v)) for k, v in view.items())).encode()))
        seeds = [rng.getrandbits(64) for _ in range(self.rollouts)]
        settings = {"read": self.read, "value_waits": self._value_waits(view["variant"]),
                    "coupled": self.coupled}
        decision = Decision(view, cands, **settings)
        timed = self.budget_ms > 0
        deadline = start + self.budget_ms / 1000.0 if timed else math.inf
        margin = (profile(view["variant"]).search_margin if self.margin is None
                  else self.margin)
        conns = self._conns()
        merged: dict[int, tuple[float, ...]] = {}
        lo = 0
        best, z = 0, -math.inf
        for hi in self._looks():
            merged.update(self._sample(view, cands, settings, decision, conns,
                                       seeds[lo:hi], lo, deadline))
            lo = hi
            if len(merged) < self.min_rollouts:
                continue
            best, z = _verdict([merged[i] for i in sorted(merged)], margin)
            # Staged: samples go on only while a rival looks promising (``extend``) and
            # has not yet won clearly (``accept``): most rivals are clearly worse after a
            # few, and stop there.
            if (z < self.extend or z >= self.accept
                    or (timed and time.perf_counter() >= deadline)):
                break
        values = [merged[i] for i in sorted(merged)]
        n = len(values)
        self.last_stats = {"rollouts": n, "candidates": len(cands),
                           "procs": 1 + len(conns),
                           "ms": (time.perf_counter() - start) * 1000, "values": values}
        if n < self.min_rollouts:
            return top
        self.last_stats["z"] = z
        return cands[best]

    def _conns(self) -> list[Connection]:
        return helpers().get(self._procs() - 1) if self._procs() > 1 else []

    def _sample(self, view: View, cands: list[Action], settings: dict[str, bool],
                decision: Decision, conns: list[Connection], seeds: list[int], lo: int,
                deadline: float) -> dict[int, tuple[float, ...]]:
        """The samples of ``seeds`` (sample ``lo`` first) by index, shared with the
        helper processes ``conns``: sample i goes to process i mod width, so without a
        clock every index is run and the merged samples are exactly one process's."""
        timed = deadline != math.inf
        pool = helpers()
        width = 1 + len(conns)
        shares = [[(lo + j, sd) for j, sd in enumerate(seeds) if (lo + j) % width == k]
                  for k in range(width)]
        ident = pool.next_ident()
        sent: list[Connection] = []
        for conn, share in zip(conns, shares[1:], strict=True):
            until = time.time() + (deadline - time.perf_counter()) if timed else math.inf
            try:
                conn.send((ident, view, cands, settings, share, until))
            except OSError:
                continue
            sent.append(conn)
        got, self._sample_s = run_share(decision, shares[0], deadline, self._sample_s)
        merged = dict(got)
        for conn in sent:
            merged.update(_collect(conn, ident, deadline if timed else None))
        return merged


def _verdict(values: list[tuple[float, ...]], margin: float) -> tuple[int, float]:
    """The candidate to play (0, greedy's, unless a rival beats it on the paired
    differences by more than ``margin`` standard errors and has the best mean), and the
    best rival's ``z`` (mean paired gain over its standard error)."""
    n = len(values)
    k = len(values[0])
    sums = [0.0] * k
    diff = [0.0] * k  # paired differences to candidate 0 (common numbers)
    dsq = [0.0] * k
    for vals in values:
        for i, v in enumerate(vals):
            sums[i] += v
            d = v - vals[0]
            diff[i] += d
            dsq[i] += d * d
    means = [x / n for x in sums]
    best = 0
    zs = []
    for i in range(1, k):
        md = diff[i] / n
        var = max(0.0, dsq[i] / n - md * md)
        se = math.sqrt(var / n)
        zs.append(md / se if se > 0 else (math.inf if md > 0 else -math.inf))
        if md > margin * se and means[i] > means[best]:
            best = i
    return best, max(zs)


GRACE_S = 0.004
"""How long past the deadline a helper's samples are waited for (its playouts look at the
clock every few actions, so it answers within about a millisecond)."""


def _collect(conn: Connection, ident: int, deadline: float | None
             ) -> list[tuple[int, tuple[float, ...]]]:
    """The helper's samples for decision ``ident`` (``deadline``: perf_counter value past
    which, with :data:`GRACE_S`, they are given up; ``None``: wait). Answers to earlier
    decisions that came too late are skipped."""
    while True:
        wait = None if deadline is None else max(0.0, deadline + GRACE_S - time.perf_counter())
        try:
            if not conn.poll(wait):
                return []
            msg = conn.recv()
        except (EOFError, OSError):
            return []
        if msg[0] == ident:
            return list(msg[1])
