"""The simulator's tasks: hands from consecutive seeds with a fixed (or rotating) lineup."""

from __future__ import annotations

from collections.abc import Sequence

from laizi.sim.arena import fill_bots
from laizi.sim.hands import HandTask
from laizi.sim.parallel import Progress, run_tasks
from laizi.sim.results import HandResult, Summary
from laizi.sim.stats import summarise
from laizi.variants import get as get_variant

__all__ = ["simulate", "simulate_tasks"]


def simulate_tasks(variant: str, bots: Sequence[str], hands: int, seed: int = 0,
                   options: dict[str, object] | None = None, rotate: bool = False
                   ) -> list[HandTask]:
    """Hand ``i`` is dealt from seed ``seed + i``; with ``rotate`` the lineup turns by one
    seat every hand."""
    n = get_variant(variant).seats
    lineup = fill_bots(bots, n)
    opts = tuple(sorted((options or {}).items()))
    tasks = []
    for i in range(hands):
        r = i % n if rotate else 0
        tasks.append(HandTask(variant, seed + i, tuple(lineup[(s - r) % n] for s in range(n)),
                              opts, 0, r))
    return tasks


def simulate(variant: str, bots: Sequence[str], hands: int, seed: int = 0, *,
             workers: int = 1, ray: str | bool | None = None,
             options: dict[str, object] | None = None, rotate: bool = False,
             progress: Progress | None = None) -> tuple[Summary, list[HandResult]]:
    """(summary, per-hand results)."""
    tasks = simulate_tasks(variant, bots, hands, seed, options, rotate)
    results = run_tasks(tasks, workers=workers, ray=ray, progress=progress)
    summary = summarise(results)
    summary["variant"] = variant
    summary["bots"] = list(tasks[0].bots)
    return summary, results
