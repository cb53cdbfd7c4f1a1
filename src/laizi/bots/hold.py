"""Passing on a discard win to wait for the self-draw (放弃点炮, 等自摸): greedy's rule.

A self-drawn win can pay far more than a win on a discard. In 晃晃 all three losers pay
double on a self-draw, and a concealed hand is 大刀 (double again) only when self-drawn,
so a 门清 self-draw brings twelve times a plain 点炮 (docs/rules/huanghuang.md). Taking
every win at once, as greedy did, gives that up.

The rule weighs the win now against the self-draws the hand waits on, all worked out by
the engine's 听牌 hints (:mod:`laizi.engine.hints`: the variant's own ``win_refusal`` and
``settle``, from what the seat sees):

* ``now``: what winning on this discard brings;
* ``later``: the self-drawn wins' mean takings over the live copies of the waits;
* ``p``: the chance of drawing one of those copies in the seat's remaining draws, as if
  every unseen tile were equally likely to come (``1 - (1 - live / unseen) ** draws``).

The win is passed when ``hold × p × later > now``. ``hold`` (0-1) discounts what the
estimate leaves out: another seat may win first, and the seat may then pay. A variant
where a self-draw pays little more than a discard win hardly ever passes (MCR: ``later``
is at most about 1.5 × ``now``). Each variant's ``hold`` is its profile's
(:class:`~laizi.bots.profiles.Profile`), measured in docs/bots.md ("Passing on a discard
win").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from laizi.bots.determinize import DeterminizeError, sample_world
from laizi.bots.knowledge import unseen_counts
from laizi.bots.protocol import View
from laizi.engine.hints import hints
from laizi.vocab import Phase

__all__ = ["WinOdds", "passes_discard_win", "win_odds"]


@dataclass(frozen=True, slots=True)
class WinOdds:
    """A discard win now against the self-draws it gives up (点炮 or 等自摸)."""

    now: float
    """What winning on the discard brings the seat (net; the mean of the least and the
    most over the seats that could have discarded it)."""
    later: float
    """The self-drawn wins' mean net takings over the live copies of the waits."""
    live: int
    """Copies of the waits the seat has not seen that would win self-drawn."""
    p: float
    """The chance of drawing one of them in the seat's remaining draws."""


def win_odds(view: View, tile: int) -> WinOdds | None:
    """The odds of the discard win on ``tile`` in ``view``'s claim window (``None``: not
    a claim window, no such win, or no self-draw to wait for)."""
    if view["phase"] != Phase.CLAIM:
        return None
    try:
        probe = sample_world(view, random.Random(0), enter=False)
    except DeterminizeError:
        return None
    waits = hints(probe, probe.variant, int(view["seat"]), view).waits
    now = next((w.on_discard for w in waits if w.tile == tile), None)
    paying = [(w.unseen, w.self_draw) for w in waits
              if w.self_draw is not None and w.self_draw > 0 and w.unseen > 0]
    live = sum(n for n, _ in paying)
    unseen = sum(unseen_counts(view))
    if now is None or live == 0 or unseen <= 0:
        return None
    draws = int(view["wall"]) // int(view["seats"])
    p = 1.0 - (1.0 - min(1.0, live / unseen)) ** draws
    return WinOdds((now[0] + now[1]) / 2, sum(n * v for n, v in paying) / live, live, p)


def passes_discard_win(view: View, tile: int, hold: float) -> bool:
    """Should the seat pass on winning on the discard ``tile`` (the claim window open in
    ``view``) to wait for a self-draw? Never when ``hold`` is 0."""
    if hold <= 0:
        return False
    odds = win_odds(view, tile)
    return odds is not None and hold * odds.p * odds.later > odds.now
