"""Per-variant speed: random-agent hands (µs per applied action, µs per hand, hands/s, full
scoring) and bot decision times (greedy µs per decision, search ms per decision and samples
per searched decision).

    .venv/bin/python benchmarks/bench_bots.py                     # every variant
    .venv/bin/python benchmarks/bench_bots.py --variant jingzhou --hands 2000
    .venv/bin/python benchmarks/bench_bots.py --profile jingzhou  # hot spots, random agents

Every hand is played as ``laizi simulate`` plays it: the first hand of its own table in
the public seed mode (``Table(variant, seed=seed, dealer=…)``, its deal included) through
the driver loop (``laizi.table.driver.play_hand``). Claim windows are uniform: every other
seat answers every discard, most of them with their only legal action, ``pass``; such a
decision is answered without asking the agent (as ``BotController`` does), and it still
counts as an applied action. So compare µs per *hand* as well as per action.

Hand-analysis tables fill lazily on first use, so ``--warmup`` hands (other seeds) are
played first; the cold figure is printed too. Agents' choices are included in the random
figure (``rng.choice`` over the legal list). ``benchmarks/bench_games.py`` compares the
engine with RLCard; this file adds every variant's bots.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import time
from typing import Any

from laizi.bots import make_bot
from laizi.engine import Action
from laizi.table.driver import BotController, Decision, play_hand
from laizi.table.table import Table
from laizi.variants import BUILTIN, get

STUCK: dict[str, list[int]] = {}
"""Seeds whose hand reached a seat with a decision but no legal action (a rules bug)."""


class RandomAgent:
    """A seat controller choosing uniformly among the legal actions (``rng.choice``). Like
    ``BotController`` it has ``forced_shortcut``: the driver plays a lone legal action
    without asking it."""

    forced_shortcut = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, decision: Decision) -> Action:
        return self.rng.choice(decision.legal)


def random_hands(variant: str, seeds: range) -> tuple[int, int, float]:
    """(hands, applied actions, seconds) with uniformly random legal actions."""
    steps = 0
    n = get(variant).seats
    t0 = time.perf_counter()
    for seed in seeds:
        table = Table(variant, seed=seed, dealer=seed % n)
        agent = RandomAgent(random.Random(seed))
        table.start_hand()
        try:
            play_hand(table, [agent] * n)
        except RuntimeError:
            STUCK.setdefault(variant, []).append(seed)
        # every line of the log but table, hand and (once over) hand_end is an action
        steps += len(table.log) - (2 if table.in_hand else 3)
    return len(seeds), steps, time.perf_counter() - t0


SAMPLES: dict[str, list[int]] = {}
"""Per variant: samples of every decision the search bot searched (its ``last_stats``)."""


OVER: dict[str, int] = {}
"""Per bot spec: decisions that took more than 100 ms (the default budget's promise)."""


class TimedBot(BotController):
    """Seat 0's bot: times every decision it is asked (more than one legal action; the
    view is made before the clock starts)."""

    def __init__(self, bot: Any, times: list[float], samples: list[int] | None) -> None:
        super().__init__(bot)
        self.times = times
        self.samples = samples

    def decide(self, decision: Decision) -> Action | None:
        if len(decision.legal) == 1:
            return decision.legal[0]
        view = decision.view()
        t0 = time.perf_counter()
        a = self.bot.choose(view, decision.legal)
        self.times.append(time.perf_counter() - t0)
        stats = getattr(self.bot, "last_stats", None)
        if self.samples is not None and stats:
            self.samples.append(int(stats["rollouts"]))
        return a


def bot_decisions(variant: str, spec: str, seeds: range, others: str = "greedy"
                  ) -> tuple[int, float, float]:
    """(decisions, mean seconds, max seconds) of ``spec`` in seat 0 (others: ``others``),
    fresh bots every hand as in the arena."""
    times: list[float] = []
    samples = SAMPLES.setdefault(variant, []) if spec.startswith("search") else None
    n = get(variant).seats
    for seed in seeds:
        table = Table(variant, seed=seed)
        seats: list[BotController] = [TimedBot(make_bot(spec, seed * 10), times, samples)]
        seats += [BotController(make_bot(others, seed * 10 + s)) for s in range(1, n)]
        table.start_hand()
        play_hand(table, seats)
    OVER[spec] = OVER.get(spec, 0) + sum(1 for t in times if t > 0.1)
    return len(times), sum(times) / max(1, len(times)), max(times, default=0.0)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--variant", action="append", help="variant id (repeatable; default all)")
    p.add_argument("--hands", type=int, default=500, help="random-agent hands (default 500)")
    p.add_argument("--warmup", type=int, default=200, help="warm-up hands (default 200)")
    p.add_argument("--bot-hands", type=int, default=10, help="hands for bot timing")
    p.add_argument("--search-hands", type=int, default=2, help="hands for search timing")
    p.add_argument("--skip-bots", action="store_true", help="random agents only")
    p.add_argument("--profile", metavar="VARIANT", help="profile random-agent hands")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.profile:
        random_hands(args.profile, range(10_000, 10_000 + args.warmup))
        prof = cProfile.Profile()
        prof.enable()
        random_hands(args.profile, range(args.hands))
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        return
    variants = args.variant or [v for v in BUILTIN if _loads(v)]
    rows: list[dict[str, Any]] = []
    for v in variants:
        _, cold_steps, cold_s = random_hands(v, range(10_000, 10_000 + args.warmup))
        hands, steps, secs = random_hands(v, range(args.hands))
        row: dict[str, Any] = {
            "variant": v,
            "random_us_per_action_cold": cold_s / max(1, cold_steps) * 1e6,
            "random_us_per_action": secs / steps * 1e6,
            "random_us_per_hand": secs / hands * 1e6,
            "random_hands_per_s": hands / secs,
            "actions_per_hand": steps / hands,
        }
        rows.append(row)
        if args.skip_bots:
            if not args.json:
                print(f"{v:10s} random {row['random_us_per_action']:8.1f} µs/action "
                      f"(cold {row['random_us_per_action_cold']:8.1f}), "
                      f"{row['random_us_per_hand']:8.0f} µs/hand, "
                      f"{row['random_hands_per_s']:7.1f} hands/s, "
                      f"{row['actions_per_hand']:5.1f} actions/hand", flush=True)
            continue
        n, mean, mx = bot_decisions(v, "greedy", range(args.bot_hands))
        row.update(greedy_us_per_decision=mean * 1e6, greedy_max_ms=mx * 1e3, greedy_n=n)
        n, mean, mx = bot_decisions(v, "search", range(args.search_hands))
        row.update(search_ms_per_decision=mean * 1e3, search_max_ms=mx * 1e3, search_n=n,
                   search_over_100ms=OVER.pop("search", 0))
        searched = SAMPLES.get(v, [])
        row.update(search_searched=len(searched),
                   search_samples=sum(searched) / max(1, len(searched)))
        if not args.json:
            print(f"{v:10s} random {row['random_us_per_action']:8.1f} µs/action "
                  f"(cold {row['random_us_per_action_cold']:8.1f}), "
                  f"{row['random_us_per_hand']:8.0f} µs/hand, "
                  f"{row['random_hands_per_s']:7.1f} hands/s, "
                  f"{row['actions_per_hand']:5.1f} actions/hand | greedy "
                  f"{row['greedy_us_per_decision']:9.0f} µs/decision (max "
                  f"{row['greedy_max_ms']:.0f} ms) | search {row['search_ms_per_decision']:6.1f}"
                  f" ms/decision (max {row['search_max_ms']:.0f} ms, "
                  f"{row['search_over_100ms']} over 100 ms; {row['search_searched']}"
                  f" of {n} searched, {row['search_samples']:.1f} samples each)", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    for v, seeds in STUCK.items():
        print(f"warning: {v}: {len(seeds)} hand(s) stopped with no legal action "
              f"(seeds {seeds[:5]}…)")


def _loads(v: str) -> bool:
    try:
        get(v)
    except Exception:
        return False
    return True


if __name__ == "__main__":
    main()
