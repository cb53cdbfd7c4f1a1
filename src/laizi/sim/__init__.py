"""Simulation: play many hands with bots, in parallel, and summarise them.

* :mod:`laizi.sim.hands` — one hand with bots, as a plain result dict (a pure function of
  its task).
* :mod:`laizi.sim.parallel` — run tasks in-process, over ``multiprocessing`` or a Ray
  cluster, results always in task order (so every path gives identical summaries).
* :mod:`laizi.sim.stats` — means, spreads, 95% intervals, hand-type frequencies.
* :mod:`laizi.sim.arena` — duplicate-style matches (every seed with the bots rotated).
"""

from laizi.sim.hands import HandTask, play_hand
from laizi.sim.parallel import run_tasks

__all__ = ["HandTask", "play_hand", "run_tasks"]
