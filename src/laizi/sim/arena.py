"""Duplicate-style matches: every seed is played once per rotation of the bots.

With bots ``[A, B, C]`` on a 3-seat variant, seed ``k`` is played three times: A B C,
then C A B, then B C A (seat order), so every bot meets the same deal from every seat
and deal luck cancels. Points per hand per bot come with a 95% interval over seeds.

With ``streams`` every hand is dealt with per-seat draw streams (``Game(...,
streams=True)``), so a seat draws the same tiles in every rotation even after the bots'
claims differ. It did not narrow the intervals where it was measured (docs/bots.md), so
it is off by default.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from laizi.sim.hands import HandTask
from laizi.sim.parallel import Progress, run_tasks
from laizi.sim.results import HandResult, Summary
from laizi.sim.stats import summarise
from laizi.variants import get as get_variant

__all__ = ["arena_summary", "arena_tasks", "fill_bots", "run_arena"]


def fill_bots(bots: Sequence[str], seats: int) -> list[str]:
    """Bots for every seat: a shorter list is padded with its last entry."""
    if not bots:
        raise ValueError("no bots given")
    if len(bots) > seats:
        raise ValueError(f"{len(bots)} bots for {seats} seats")
    return [*bots, *[bots[-1]] * (seats - len(bots))]


def arena_tasks(variant: str, bots: Sequence[str], hands: int, seed: int = 0,
                options: dict[str, object] | None = None, *,
                streams: bool = False) -> list[HandTask]:
    """``ceil(hands / seats)`` seeds, each with every rotation of the bots."""
    n = get_variant(variant).seats
    lineup = fill_bots(bots, n)
    seeds = max(1, math.ceil(hands / n))
    opts = tuple(sorted((options or {}).items()))
    tasks = []
    for k in range(seeds):
        for r in range(n):
            seating = tuple(lineup[(s - r) % n] for s in range(n))
            tasks.append(HandTask(variant, seed + k, seating, opts, 0, r, streams))
    return tasks


def arena_summary(variant: str, tasks: Sequence[HandTask],
                  results: Sequence[HandResult]) -> Summary:
    """The arena's summary of ``results`` (the hands of ``tasks``): the simulator's
    statistics plus the variant, the lineup, the number of seeds and ``streams``."""
    summary = summarise(results)
    summary["variant"] = variant
    summary["bots"] = list(tasks[0].bots)  # rotation 0 seats the lineup as given
    summary["seeds"] = len({t.seed for t in tasks})
    summary["streams"] = tasks[0].streams
    return summary


def run_arena(variant: str, bots: Sequence[str], hands: int, seed: int = 0, *,
              workers: int = 1, ray: str | bool | None = None,
              options: dict[str, object] | None = None, streams: bool = False,
              progress: Progress | None = None) -> Summary:
    tasks = arena_tasks(variant, bots, hands, seed, options, streams=streams)
    results = run_tasks(tasks, workers=workers, ray=ray, progress=progress)
    return arena_summary(variant, tasks, results)
