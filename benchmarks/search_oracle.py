"""Where the search bot leaves greedy's choice, and what that is worth with the truth known.

Plays ``--seeds`` deals with one search bot (``--spec``) among greedy bots, once per seat
rotation. At every decision where the search picks something other than greedy's choice,
both actions are valued on the *true* state: the live wall is reshuffled ``--oracle``
times (the same shuffles for both actions) and each copy is played out by the playout
policy (``laizi.bots.rollout``) for every seat. The mean difference is that deviation's
gain in the playout world; summed over all hands it is a cheap, low-noise proxy for what
the arena measures (it ignores how greedy itself would go on).

    .venv/bin/python benchmarks/search_oracle.py jingzhou --seeds 100
    .venv/bin/python benchmarks/search_oracle.py huanghuang --seeds 100 --spec search:guard=true
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable

from laizi.bots import make_bot
from laizi.bots.rollout import FastPolicy, playout
from laizi.bots.search import SearchBot
from laizi.engine import Game
from laizi.engine.actions import Action
from laizi.sim.hands import bot_seed
from laizi.variants import get as get_variant


def oracle_gain(game: Game, seat: int, chosen: Action, greedy: Action, shuffles: int,
                play_on: Callable[[Game], None]) -> float:
    """Mean of (points after ``chosen``) − (points after ``greedy``) over reshuffled
    live walls, on the true hands, each copy played to the end by ``play_on``."""
    rng = random.Random(12345)
    total = 0.0
    for _ in range(shuffles):
        base = copy.deepcopy(game)
        base.keep_log = False
        live = base.wall[base.head:base.tail]
        rng.shuffle(live)
        base.wall[base.head:base.tail] = live
        vals = []
        for a in (chosen, greedy):
            g = copy.deepcopy(base)
            g.apply(a)
            play_on(g)
            vals.append(float(g.net[seat]))
        total += vals[0] - vals[1]
    return total / shuffles


def greedy_play(g: Game) -> None:
    """Every seat plays on as the greedy bot (slower than the playout policy, and
    closer to the arena, where the search bot's opponents are greedy)."""
    bots = [make_bot("greedy", s) for s in range(g.n)]
    while not g.over:
        s = g.to_act()[0]
        g.apply(bots[s].choose(g.view(s), g.legal_actions(s)))


def summary(label: str, gains: list[float], hands: int) -> str:
    """Mean gain per deviation and per hand, each with its 95% interval."""
    n = len(gains)
    mean = sum(gains) / n if n else 0.0
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1)) if n > 1 else 0.0
    return (f"{label} per deviation {mean:+.2f} ± {1.96 * sd / math.sqrt(max(1, n)):.2f}, "
            f"per hand {sum(gains) / hands:+.3f} ± {1.96 * sd * math.sqrt(n) / hands:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variant")
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--spec", default="search")
    ap.add_argument("--oracle", type=int, default=64, help="wall reshuffles per deviation")
    ap.add_argument("--greedy", type=int, default=0,
                    help="also value each deviation with greedy play after it, over this "
                         "many reshuffles (0: off)")
    ap.add_argument("--verbose", action="store_true", help="print every deviation")
    args = ap.parse_args()
    v = get_variant(args.variant)
    policy = FastPolicy(args.variant)
    gains: list[float] = []
    ggains: list[float] = []
    kinds: Counter[tuple[str, str]] = Counter()
    searched = 0
    t0 = time.perf_counter()
    for seed in range(args.first, args.first + args.seeds):
        for me in range(v.seats):
            bots = [make_bot(args.spec if s == me else "greedy", bot_seed(seed, s))
                    for s in range(v.seats)]
            search = bots[me]
            assert isinstance(search, SearchBot)
            game = Game(v, None, seed=seed, dealer=0)
            while not game.over:
                seat = game.to_act()[0]
                legal = game.legal_actions(seat)
                view = game.view(seat)
                action = bots[seat].choose(view, legal)
                if seat == me:
                    searched += bool(search.last_stats)
                    top = search.greedy.rank(view, legal)[0][1]
                    if action != top:
                        gain = oracle_gain(game, me, action, top, args.oracle,
                                           lambda g: playout(g, [policy] * g.n))
                        gains.append(gain)
                        kinds[(action.type, top.type)] += 1
                        row = {"seed": seed, "seat": me, "chose": action.type,
                               "greedy": top.type, "gain": gain,
                               "z": search.last_stats.get("z"),
                               "rollouts": search.last_stats.get("rollouts")}
                        if args.greedy:
                            ggain = oracle_gain(game, me, action, top, args.greedy,
                                                greedy_play)
                            ggains.append(ggain)
                            row["greedy_gain"] = ggain
                        if args.verbose:
                            print(json.dumps(row), flush=True)
                game.apply(action)
    hands = args.seeds * v.seats
    print(f"{args.variant} {args.spec}: {hands} hands, {searched} searched decisions, "
          f"{len(gains)} deviations ({time.perf_counter() - t0:.0f} s)")
    print(summary("with playouts after:", gains, hands))
    if ggains:
        print(summary("with greedy play after:", ggains, hands))
    print("deviations (chosen, greedy's):", dict(kinds.most_common()))


if __name__ == "__main__":
    main()
