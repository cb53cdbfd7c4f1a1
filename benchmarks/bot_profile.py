"""How a bot's self-play hands go, per variant: draws, melds, how hands are won, and
the fan / 台 items of the wins — the profile issue 43 asks to set beside an open
heuristic MCR bot's self-play (about 2.5% draws; its wall conventions are not ours).

    .venv/bin/python benchmarks/bot_profile.py                       # greedy, every variant
    .venv/bin/python benchmarks/bot_profile.py --bots greedy:fold=1:hold=0 --hands 2000
    .venv/bin/python benchmarks/bot_profile.py --variant mcr --json

Every seat plays the same spec, hands with seeds ``SEED``, ``SEED+1``, …, each dealt and
driven as ``laizi simulate`` plays it (:func:`laizi.sim.hands.hand_table`, the table's
driver). Per hand it counts
the draws (黄庄), the claimed melds (吃 / 碰 / 明杠, 开口) per seat, the wins by a hand
with a claimed meld, the wins by self-draw and the items the settlement names (its
reasons, :func:`laizi.sim.hands.hand_items`), and the winner's takings.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from multiprocessing import Pool

from laizi.bots import make_bot
from laizi.bots.knowledge import OPEN_KINDS
from laizi.sim.hands import HandTask, bot_seed, hand_items, hand_table
from laizi.table.driver import BotController
from laizi.table.driver import play_hand as drive_hand
from laizi.variants import BUILTIN
from laizi.variants import get as get_variant
from laizi.vocab import GameEventType, Outcome, WinHow


@dataclass(frozen=True)
class HandCounts:
    """One self-play hand, counted."""

    seats: int
    win: bool
    how: str | None
    claimed: list[int]
    """Claimed melds per seat."""
    open_win: bool
    items: list[str]
    takings: int
    """The winners' net result (0 for a draw)."""


def play(job: tuple[str, str, int]) -> HandCounts:
    """One hand of ``spec`` in every seat, as ``laizi simulate`` deals and drives it (the
    first hand of its own table): its counts."""
    variant, spec, seed = job
    task = HandTask(variant, seed, (spec,) * get_variant(variant).seats)
    table = hand_table(task)
    table.start_hand()
    drive_hand(table, [BotController(make_bot(spec, bot_seed(seed, s)))
                       for s in range(len(task.bots))])
    g = table.game
    assert g is not None and g.over
    end = g.log[-1]
    assert end["type"] == GameEventType.END
    record = end["record"]
    winners = list(record.get("winners", []))
    claimed = [sum(1 for m in g.melds[s] if m.kind in OPEN_KINDS) for s in range(g.n)]
    return HandCounts(g.n, record["outcome"] == Outcome.WIN, record.get("how"), claimed,
                      any(claimed[w] for w in winners), hand_items(end["payments"]),
                      sum(end["net"][w] for w in winners))


def profile(variant: str, spec: str, hands: int, seed: int, workers: int) -> dict[str, object]:
    jobs = [(variant, spec, seed + k) for k in range(hands)]
    with Pool(workers) as pool:
        got = pool.map(play, jobs, chunksize=8)
    wins = [h for h in got if h.win]
    items: Counter[str] = Counter()
    for h in wins:
        items.update(h.items)
    n_wins = max(1, len(wins))
    return {
        "variant": variant, "bots": spec, "hands": hands, "seed": seed,
        "draw_rate": 1 - len(wins) / hands,
        "melds_per_seat_hand": sum(sum(h.claimed) for h in got) / sum(h.seats for h in got),
        "open_wins": sum(1 for h in wins if h.open_win) / n_wins,
        "self_drawn_wins": sum(1 for h in wins if h.how == WinHow.SELF_DRAW) / n_wins,
        "mean_takings": statistics.fmean(h.takings for h in wins) if wins else 0.0,
        "items_per_win": {k: round(v / n_wins, 3) for k, v in items.most_common(10)},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", action="append", choices=sorted(BUILTIN))
    ap.add_argument("--bots", default="greedy", help="the spec every seat plays")
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for variant in args.variant or sorted(BUILTIN):
        p = profile(variant, args.bots, args.hands, args.seed, args.workers)
        if args.json:
            print(json.dumps(p, ensure_ascii=False))
            continue
        per_win = p["items_per_win"]
        assert isinstance(per_win, dict)
        top = ", ".join(f"{k} {v:.2f}" for k, v in per_win.items())
        print(f"{variant:10} {args.bots}: draws {p['draw_rate']:.1%}, claimed melds "
              f"{p['melds_per_seat_hand']:.2f} a seat-hand, wins with a claimed meld "
              f"{p['open_wins']:.0%}, self-drawn {p['self_drawn_wins']:.0%}, winner's "
              f"takings {p['mean_takings']:.1f}; items per win: {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
