"""Summaries of many hands: rates, means, spreads and 95% confidence intervals.

Intervals use the normal approximation over independent *groups*: all hands dealt from
one seed form a group (in the arena, the rotations of the bots over that deal), so deal
luck shared inside a group does not count as independent evidence.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from laizi.core.records import DRAW, WIN, WRONG_WIN
from laizi.sim.results import BotStats, BridgeStats, HandResult, SeatStats, Summary
from laizi.vocab import WinHow

__all__ = ["Z95", "bridge_stats", "mean_ci", "percentile", "summarise"]

Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, sample standard deviation, half-width of the 95% interval of the mean)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, 0.0, math.inf
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    sd = math.sqrt(var)
    return m, sd, Z95 * sd / math.sqrt(n)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank (0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def bridge_stats(rows: Sequence[HandResult]) -> list[BridgeStats]:
    """Per outside program (bot spec): requests, protocol errors, fallbacks and the
    median and 99th percentile of its latency per request."""
    per: dict[str, list[float]] = defaultdict(list)
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        for s, hand in enumerate(r.get("bridge") or ()):
            if hand is None:
                continue
            b = _bot_name(r["bots"][s])
            per[b].extend(hand["latency_ms"])
            counts[b].update(hands=1, requests=hand["requests"], fallbacks=hand["fallbacks"])
            kinds[b].update(hand["errors"])
    return [{"bot": b, "hands": counts[b]["hands"], "requests": counts[b]["requests"],
             "errors": sum(kinds[b].values()), "error_kinds": dict(sorted(kinds[b].items())),
             "fallbacks": counts[b]["fallbacks"], "median_ms": percentile(per[b], 0.5),
             "p99_ms": percentile(per[b], 0.99)} for b in sorted(counts)]


def _bot_name(spec: str) -> str:
    return spec


def summarise(results: Iterable[HandResult]) -> Summary:
    """The summary of hand results (:func:`laizi.sim.hands.play_hand` dicts), as JSON."""
    rows = list(results)
    hands = len(rows)
    if not hands:
        return {"hands": 0}
    n = len(rows[0]["net"])
    wins = [r for r in rows if r["outcome"] == WIN]
    wrong = sum(1 for r in rows if r["outcome"] == WRONG_WIN)
    seat_vals: list[list[float]] = [[] for _ in range(n)]
    seat_wins = [0] * n
    seat_feeds = [0] * n
    bot_hands: Counter[str] = Counter()
    bot_wins: Counter[str] = Counter()
    bot_feeds: Counter[str] = Counter()
    bot_all: dict[str, list[float]] = defaultdict(list)
    groups: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    items: Counter[str] = Counter()
    how: Counter[str] = Counter()
    for r in rows:
        for s in range(n):
            v = float(r["net"][s])
            seat_vals[s].append(v)
            b = _bot_name(r["bots"][s])
            bot_hands[b] += 1
            bot_all[b].append(v)
            groups[b][int(r["seed"])].append(v)
            if s in r["winners"]:
                seat_wins[s] += 1
                bot_wins[b] += 1
            if r["outcome"] == WIN and r.get("how") == WinHow.DISCARD and r.get("source") == s:
                seat_feeds[s] += 1
                bot_feeds[b] += 1
        if r["outcome"] == WIN:
            items.update(r["items"])
            how[str(r.get("how"))] += 1
    seats: list[SeatStats] = []
    for s in range(n):
        m, sd, ci = mean_ci(seat_vals[s])
        seats.append({"seat": s, "mean": m, "sd": sd, "ci95": ci,
                      "win_rate": seat_wins[s] / hands, "deal_in_rate": seat_feeds[s] / hands})
    bots: list[BotStats] = []
    for b in sorted(bot_hands):
        per_group = [sum(vs) / len(vs) for _, vs in sorted(groups[b].items())]
        m, _, ci = mean_ci(per_group)
        _, sd, _ = mean_ci(bot_all[b])
        bots.append({"bot": b, "hands": bot_hands[b], "groups": len(per_group), "mean": m,
                     "sd": sd, "ci95": ci, "win_rate": bot_wins[b] / bot_hands[b],
                     "deal_in_rate": bot_feeds[b] / bot_hands[b]})
    out: Summary = {
        "hands": hands,
        "seats": n,
        "win_rate": len(wins) / hands,
        # Spelt as ever when no 错和 ended a hand, so figures stay the same to the bit.
        "draw_rate": (1 - len(wins) / hands) if not wrong else
        sum(1 for r in rows if r["outcome"] == DRAW) / hands,
        "how": {k: v / hands for k, v in sorted(how.items())},
        "per_seat": seats,
        "per_bot": bots,
        "items": {k: {"count": c, "per_win": c / max(1, len(wins))}
                  for k, c in items.most_common()},
        "mean_actions": sum(r["actions"] for r in rows) / hands,
        "mean_turns": sum(r["turns"] for r in rows) / hands,
    }
    if wrong:  # 错和 ended hands (MCR profile=botzone): only then, older summaries unchanged
        out["wrong_win_rate"] = wrong / hands
    bridge = bridge_stats(rows)
    if bridge:
        out["bridge"] = bridge
    if all("choices" in r for r in rows):
        # Of the actions, those a bot chose: uniform claim windows ask every other seat
        # after every discard, most of them with ``pass`` as their only answer.
        out["mean_choices"] = sum(sum(r["choices"]) for r in rows) / hands
    return out
