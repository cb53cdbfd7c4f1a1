"""Run hand tasks in-process, over worker processes, or over a Ray cluster.

Results always come back in task order, whatever the path, so a summary is identical
for ``workers=1``, ``workers=K`` and ``ray`` given the same tasks (and deterministic bots).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence

from laizi.bots.helpers import ENV as PROCS_ENV
from laizi.sim.hands import HandTask, play_hand
from laizi.sim.results import HandResult

__all__ = ["RayMissingError", "run_tasks"]

Progress = Callable[[int], None]
"""Called with the number of hands just finished."""


class RayMissingError(RuntimeError):
    """``--ray`` was asked for but Ray is not installed."""


def _batch(tasks: Sequence[HandTask]) -> list[HandResult]:
    return [play_hand(t) for t in tasks]


def _ray_batch(tasks: Sequence[HandTask]) -> list[HandResult]:
    # Ray runs one worker per core already; a search bot there must not start a helper
    # process per core as well (laizi.bots.helpers), unless the user set the count.
    os.environ.setdefault(PROCS_ENV, "1")
    return _batch(tasks)


def _chunks(tasks: Sequence[HandTask], size: int) -> list[list[HandTask]]:
    return [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]


def run_tasks(
    tasks: Sequence[HandTask],
    *,
    workers: int = 1,
    ray: str | bool | None = None,
    progress: Progress | None = None,
    chunk: int = 0,
) -> list[HandResult]:
    """Play every task; results in task order.

    ``workers``: processes (1 = in this process). ``ray``: ``True`` (a local cluster) or
    an address (``"auto"``, ``"ray://host:10001"``); Ray must be installed (extra
    ``cluster``)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    tick = progress or (lambda k: None)
    if ray:
        return _run_ray(tasks, ray, tick, chunk)
    if workers == 1 or len(tasks) <= 1:
        out = []
        for t in tasks:
            out.append(play_hand(t))
            tick(1)
        return out
    size = chunk or max(1, min(16, len(tasks) // (workers * 4) or 1))
    batches = _chunks(tasks, size)
    results: list[HandResult] = []
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ctx.Pool(workers) as pool:
        for got in pool.imap(_batch, batches):
            results.extend(got)
            tick(len(got))
    return results


def _run_ray(tasks: Sequence[HandTask], address: str | bool, tick: Progress,
             chunk: int) -> list[HandResult]:
    try:
        import ray as ray_mod
    except ImportError:
        raise RayMissingError(
            "--ray needs Ray: pip install 'laizi[cluster]' (or pip install ray)") from None
    if not ray_mod.is_initialized():
        if address is True or address in ("", "local"):
            ray_mod.init(ignore_reinit_error=True, log_to_driver=False)
        else:
            ray_mod.init(address=str(address), ignore_reinit_error=True, log_to_driver=False)
    remote = ray_mod.remote(_ray_batch)
    size = chunk or max(1, min(32, len(tasks) // 64 or 1))
    batches = _chunks(tasks, size)
    refs = [remote.remote(b) for b in batches]
    index = {r: i for i, r in enumerate(refs)}
    done: dict[int, list[HandResult]] = {}
    pending = list(refs)
    while pending:
        ready, pending = ray_mod.wait(pending, num_returns=1)
        for r in ready:
            got = ray_mod.get(r)
            done[index[r]] = got
            tick(len(got))
    out: list[HandResult] = []
    for i in range(len(batches)):
        out.extend(done[i])
    return out
