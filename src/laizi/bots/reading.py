"""Reading opponents (读牌): what their play says about their hidden hands.

A uniform determinization deals every opponent a hand nobody has played. Real players
have been drawing and keeping what helps for the whole hand: in Jingzhou greedy
self-play an opponent with six or more discards is about 0.6 tiles from ready, a uniform
sample of its tiles about 2.4. Playouts on such samples think the table slow and safe.
:func:`replay_draws` gives every sampled opponent the draws it has had: its hand is
played forward, one draw per discard it has made, by the playout policy.

Claims say more where concealment pays (晃晃's 大刀, 门清 in golden, MCR and Taiwan):
players open a concealed hand only when the claim leaves it close to ready — the greedy
bot's rule is ``closed_max`` in its profile (晃晃 1, the others 2) and a human does much
the same. :func:`claim_limits` reads that limit per opponent from the view, and the
replay keeps drawing for a limited opponent until it is within its limit.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from laizi import tiles as T
from laizi.bots.knowledge import OPEN_KINDS
from laizi.bots.profiles import profile
from laizi.bots.protocol import View
from laizi.bots.rollout import FastPolicy
from laizi.engine.game import Game

__all__ = ["claim_limits", "replay_draws"]


def claim_limits(view: View) -> dict[int, int]:
    """Per opponent that has claimed a meld: the most shanten its concealed tiles can
    have, in variants that reward a concealed hand (none elsewhere: Jingzhou must open,
    so its claims say little)."""
    prof = profile(view["variant"])
    if prof.closed_max is None or prof.must_open:
        return {}
    me = int(view["seat"])
    return {s: prof.closed_max for s, melds in enumerate(view["melds"])
            if s != me and any(m["kind"] in OPEN_KINDS for m in melds)}


def replay_draws(view: View, policy: FastPolicy, limits: dict[int, int] | None = None,
                 extra: int = 12) -> Callable[[Game, random.Random], None]:
    """A ``condition`` for :func:`laizi.bots.determinize.sample_world` that gives every
    opponent the draws it has had (its pace).

    Each opponent's sampled hand is played forward by as many draws as it has discards:
    draw a random tile of the live wall, give back the discard the playout policy
    would make (wildcards kept, the profile's dead tiles never kept). Tiles only move
    between the hand and the live wall, so the sample stays consistent with the view;
    the live wall is shuffled afterwards. With ``limits`` (:func:`claim_limits`) a
    limited opponent keeps drawing, up to ``extra`` more times, until it is within
    its limit."""
    prof = policy.profile
    sh = policy.shanten
    me = int(view["seat"])
    steps = {s: len(d) for s, d in enumerate(view["discards"]) if s != me}
    lim = dict(limits or {})

    def condition(g: Game, rng: random.Random) -> None:
        live = g.wall[g.head:g.tail]
        slots = [i for i, t in enumerate(live) if t < T.NUM_KINDS]
        if not slots:
            return
        wild = g.wildcard
        dead = prof.dead
        for s, n in steps.items():
            limit = lim.get(s)
            if n == 0 and limit is None and not any(g.hands[s][t] for t in dead):
                continue
            counts = list(g.hands[s])
            w = 0
            if wild is not None:
                w, counts[wild] = counts[wild], 0
            rules = prof.rules_for_kinds(tuple(m.kind for m in g.melds[s]))
            # Dead tiles (Jingzhou's 中) are played out the moment they are drawn:
            # an opponent never holds one between turns.
            for t in dead:
                while counts[t]:
                    swaps = [i for i in slots if live[i] not in dead]
                    if not swaps:  # a live wall of dead tiles only: nothing to swap
                        break
                    i = rng.choice(swaps)
                    counts[t] -= 1
                    got, live[i] = live[i], t
                    if got == wild:
                        w += 1
                    else:
                        counts[got] += 1
            step = 0
            while step < n + (extra if limit is not None else 0):
                if step >= n and (limit is None or sh(counts, w, rules) <= limit):
                    break
                step += 1
                i = rng.choice(slots)
                t = live[i]
                if t in dead:
                    continue
                if t == wild:
                    w += 1
                else:
                    counts[t] += 1
                allowed = [x for x in range(T.NUM_KINDS) if counts[x] and x not in dead]
                out = policy.pick_discard(counts, w, rules, allowed)
                if out is None:  # only wildcards in hand: give one back
                    w -= 1
                    out = wild if wild is not None else t
                else:
                    counts[out] -= 1
                live[i] = out
            if wild is not None:
                counts[wild] = w
            g.hands[s] = counts
        rng.shuffle(live)
        g.wall[g.head:g.tail] = live

    return condition
