"""Helper processes that take a share of a search's samples (root parallelism).

A searched decision is a batch of independent samples (:class:`Decision.sample`). With
``procs`` processes the deciding process and ``procs - 1`` helpers split the sample
indices round-robin and run them against the same clock; the results are merged by
index, so without a clock the merged samples, and the choice, are exactly those of a
single process (the tests hold it to that).

Helpers are started once per process, the first time a search asks for them, and live
as long as it does. Where ``fork`` is available (and no other thread runs) they are forked,
so they start with the process's warm analysis tables; otherwise they are spawned.
A process that cannot have children (a worker of a ``multiprocessing`` pool, which is
daemonic) gets none: :func:`default_procs` is then 1.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.context
import os
import random
import threading
import time
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from laizi.bots.determinize import DeterminizeError, clone_world, sample_world
from laizi.bots.protocol import View
from laizi.bots.reading import claim_limits, replay_draws
from laizi.bots.rollout import FastPolicy, playout_together
from laizi.engine.actions import Action
from laizi.engine.game import DECIDE

__all__ = ["Decision", "Helpers", "default_procs", "helpers"]

MAX_AUTO_PROCS = 4
"""The most processes :func:`default_procs` hands a search (one per core)."""

ENV = "LAIZI_SEARCH_PROCS"
"""Environment variable that overrides :func:`default_procs` (e.g. ``1`` where every
core already runs a game)."""


def default_procs() -> int:
    """Processes a search decision uses when its bot does not say: the variable
    :data:`ENV` if set, else 1 in a daemonic process (it may not start helpers), else
    one per core up to :data:`MAX_AUTO_PROCS`."""
    got = os.environ.get(ENV)
    if got:
        try:
            return max(1, int(got))
        except ValueError:
            raise ValueError(f"{ENV} must be a whole number, not {got!r}") from None
    if multiprocessing.current_process().daemon:
        return 1
    return max(1, min(MAX_AUTO_PROCS, os.cpu_count() or 1))


_POLICIES: dict[tuple[str, bool], FastPolicy] = {}
"""One playout policy per (variant, value_waits) and process; the policies are stateless."""


def policy(variant: str, value_waits: bool = False) -> FastPolicy:
    key = (variant, value_waits)
    got = _POLICIES.get(key)
    if got is None:
        got = _POLICIES[key] = FastPolicy(variant, value_waits=value_waits)
    return got


class Decision:
    """One searched decision: everything a sample needs, built from the view alone.

    ``sample(seed, stop)`` deals a world consistent with the view from ``seed``, plays
    every candidate out on its own copy (common random numbers) and returns the seat's
    points after each, or ``None`` when the clock ran out first."""

    def __init__(self, view: View, cands: Sequence[Action], *, read: bool,
                 value_waits: bool, coupled: bool) -> None:
        self.view = view
        self.cands = list(cands)
        self.seat = int(view["seat"])
        self.coupled = coupled
        variant = view["variant"]
        base = policy(variant)
        self.policies = [base] * int(view["seats"])
        if value_waits:
            self.policies[self.seat] = policy(variant, True)
        self.condition = replay_draws(view, base, claim_limits(view)) if read else None

    def sample(self, seed: int, stop: float | None) -> tuple[float, ...] | None:
        """Raises :class:`~laizi.bots.determinize.DeterminizeError` if the view cannot
        be completed."""
        world = sample_world(self.view, random.Random(seed), condition=self.condition)
        world.keep_log = False
        if world.phase == DECIDE:
            # The sample asks every seat with pass only (who may do what in a window is
            # secret); the seat deciding has its candidates (天听 / pass).
            world.pending[self.seat] = tuple(self.cands)
        if self.coupled:
            world.split_wall()
        games = []
        for a in self.cands:
            g = clone_world(world)
            g.apply(a)
            games.append(g)
        nets = playout_together(games, self.policies, deadline=stop)
        if nets is None:
            return None  # an unfinished sample is dropped (common numbers)
        return tuple(float(net[self.seat]) for net in nets)


def run_share(decision: Decision, share: Sequence[tuple[int, int]], deadline: float,
              sample_s: float) -> tuple[list[tuple[int, tuple[float, ...]]], float]:
    """Run the samples ``share`` (index, seed) in order until ``deadline``
    (``math.inf``: no clock), skipping the rest once a sample could not finish in time.
    ``sample_s`` is the running estimate of a sample's duration; returns the finished
    samples and the updated estimate."""
    out: list[tuple[int, tuple[float, ...]]] = []
    timed = deadline != float("inf")
    stop = deadline if timed else None
    for i, seed in share:
        t0 = time.perf_counter()
        if timed and t0 + sample_s > deadline:
            if not out:
                # The estimate kept this share from sampling at all: let it shrink, so
                # one slow sample cannot stop every later search.
                sample_s *= 0.5
            break
        try:
            vals = decision.sample(seed, stop)
        except DeterminizeError:
            break
        if vals is None:
            break
        out.append((i, vals))
        took = time.perf_counter() - t0
        # A sample slowed by something else (the OS, a cold table) counts at most twice
        # the estimate, so the estimate follows real trends only.
        sample_s = (took if sample_s == 0.0
                    else 0.7 * sample_s + 0.3 * min(took, 2.0 * sample_s))
    return out, sample_s


def _serve(conn: Connection) -> None:
    """A helper's loop: answer search shares until the pipe closes."""
    sample_s = 0.0
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        ident, view, cands, settings, share, until = msg
        # ``until`` is wall-clock time (the one clock processes surely share).
        deadline = (time.perf_counter() + (until - time.time()) if until != float("inf")
                    else float("inf"))
        enabled = gc.isenabled()
        gc.disable()
        try:
            decision = Decision(view, cands, **settings)
            got, sample_s = run_share(decision, share, deadline, sample_s)
        except Exception as exc:  # a helper never dies of one decision
            got = []
            conn.send((ident, got, sample_s, f"{type(exc).__name__}: {exc}"))
            continue
        finally:
            if enabled:
                gc.enable()
        conn.send((ident, got, sample_s, None))


class Helpers:
    """The helper processes of this process (see the module docstring)."""

    def __init__(self) -> None:
        self._procs: list[tuple[BaseProcess, Connection]] = []
        self._failed = False
        self._ident = 0

    def get(self, count: int) -> list[Connection]:
        """Up to ``count`` helpers' pipes (fewer if they cannot be started)."""
        if self._failed:
            return []
        self._procs = [(p, c) for p, c in self._procs if p.is_alive()]
        while len(self._procs) < count:
            try:
                self._procs.append(self._start())
            except (OSError, AssertionError, ValueError):
                # e.g. "daemonic processes are not allowed to have children"
                self._failed = True
                break
        return [c for _, c in self._procs[:count]]

    @staticmethod
    def _start() -> tuple[BaseProcess, Connection]:
        methods = multiprocessing.get_all_start_methods()
        use_fork = "fork" in methods and threading.active_count() == 1
        ctx: multiprocessing.context.ForkContext | multiprocessing.context.SpawnContext = (
            multiprocessing.get_context("fork") if use_fork
            else multiprocessing.get_context("spawn"))
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child,), daemon=True,
                           name="laizi-search-helper")
        proc.start()
        child.close()
        return proc, parent

    def next_ident(self) -> int:
        self._ident += 1
        return self._ident

    def close(self) -> None:
        for p, c in self._procs:
            try:
                c.send(None)
                c.close()
            except OSError:
                pass
            p.join(timeout=1.0)
            if p.is_alive():
                p.terminate()
        self._procs = []


_HELPERS: Helpers | None = None
_OWNER = -1


def helpers() -> Helpers:
    """This process's helpers (a forked child gets its own, never its parent's)."""
    global _HELPERS, _OWNER
    if _HELPERS is None or os.getpid() != _OWNER:
        _HELPERS = Helpers()
        _OWNER = os.getpid()
    return _HELPERS
