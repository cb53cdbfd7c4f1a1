"""Reading opponents' claims (读牌): what a claim says about the claimer's hand.

A uniform determinization deals an opponent who has claimed a pung or chow a random
hand, usually two or three tiles from ready. Where concealment pays (晃晃's 大刀, 门清 in
golden, MCR and Taiwan), players open a concealed hand only when the claim leaves it
close to ready — the greedy bot's rule is ``closed_max`` in its profile (晃晃 1, the others
2) and a human does much the same. Shanten only falls from there. So a sample in which
such an opponent is further away is unlikely, and playouts on it under-rate both the
opponent's speed and the danger of feeding it.

:func:`claim_limits` reads the limit per opponent from the view; :func:`redeal_near_ready`
re-deals a limited opponent's concealed tiles from its own and the live wall's until the
hand is within the limit (the best of a few tries otherwise) — that is sampling from the
uniform deal conditioned on the limit, one seat at a time.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from laizi import tiles as T
from laizi.analysis import WinRules
from laizi.bots.knowledge import OPEN_KINDS
from laizi.bots.profiles import Profile, profile
from laizi.bots.protocol import View
from laizi.engine.game import Game

__all__ = ["claim_limits", "redeal_near_ready"]

ShantenFn = Callable[[list[int], int, tuple[WinRules, ...]], int]
"""Shanten of (counts without wildcards, wildcards, shapes): the caller's cached one."""


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


def redeal_near_ready(limits: dict[int, int], prof: Profile, sh: ShantenFn,
                      tries: int = 12) -> Callable[[Game, random.Random], None]:
    """A ``condition`` for :func:`laizi.bots.determinize.sample_world`."""

    def condition(g: Game, rng: random.Random) -> None:
        for s, limit in limits.items():
            _redeal(g, s, limit, prof, sh, rng, tries)

    return condition


def _redeal(g: Game, s: int, limit: int, prof: Profile, sh: ShantenFn,
            rng: random.Random, tries: int) -> None:
    rules = prof.rules_for_kinds(tuple(m.kind for m in g.melds[s]))
    wild = g.wildcard

    def shanten_of(hand: list[int]) -> int:
        counts = list(hand)
        w = 0
        if wild is not None:
            w, counts[wild] = counts[wild], 0
        return sh(counts, w, rules)

    best_sh = shanten_of(g.hands[s])
    if best_sh <= limit:
        return
    live = g.wall[g.head:g.tail]
    pool = [t for t in live if t < T.NUM_KINDS]
    for t in range(T.NUM_KINDS):
        pool.extend([t] * g.hands[s][t])
    size = sum(g.hands[s])
    best: list[int] | None = None
    for _ in range(tries):
        hand = [0] * T.NUM_KINDS
        for t in rng.sample(pool, size):
            hand[t] += 1
        x = shanten_of(hand)
        if x < best_sh:
            best, best_sh = hand, x
            if x <= limit:
                break
    if best is None:
        return
    rest = [t for t in live if t >= T.NUM_KINDS]  # flowers stay in the wall
    left = [0] * T.NUM_KINDS
    for t in pool:
        left[t] += 1
    for t in range(T.NUM_KINDS):
        rest.extend([t] * (left[t] - best[t]))
    rng.shuffle(rest)
    g.wall = rest
    g.head = 0
    g.tail = len(rest)
    g.hands[s] = best
