"""Determinization: a full game state sampled to agree with one seat's view.

The search bot cannot see the other hands or the wall. It samples them: every tile the
seat cannot see (:func:`laizi.bots.knowledge.unseen_counts`) is dealt at random to the
other hands (their known sizes) and the live wall (its known length). The result is an
ordinary :class:`laizi.engine.Game` — built only through the engine's public constructor
and state fields — that the engine can play on.

How it is built:

1. A *template* game per (variant, options, dealer, indicators): a real ``Game`` on an
   arranged wall whose setup reveals the view's indicators, so the variant's own
   ``setup`` fills ``game.wildcard`` and ``game.extra`` exactly as in the real game.
2. A copy of the template gets the view's public state (melds, discards, flowers,
   scores, turn) and the sampled hidden tiles.
3. A pending decision (claims on a discard, robbing an added kong) is re-entered by
   applying the discard (or added kong) again on the sampled state, so the engine itself
   computes every seat's options.

Limits: facts the view does not show are reset (``after_kong`` is false; other seats'
过水 flags are clear; variant history kept in ``game.extra`` beyond the setup is forgotten
unless the variant shows it in the view and restores it (``Variant.restore_extra``:
Taiwan's declarations and discard counts) — e.g. Jingzhou's 清一色 包牌 feeder is
forgotten).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from laizi import tiles as T
from laizi.bots.knowledge import unseen_counts
from laizi.bots.protocol import View
from laizi.core.melds import Meld
from laizi.engine.actions import ADDED_KONG, DISCARD, PASS, Action
from laizi.engine.game import CLAIM, DECIDE, OVER, ROB, TURN, Game, interned
from laizi.engine.walls import arrange_wall
from laizi.variants import get as get_variant
from laizi.vocab import TurnStart

__all__ = ["DeterminizeError", "clone_world", "sample_world", "template"]

_TEMPLATES: dict[tuple[object, ...], Game] = {}


class DeterminizeError(ValueError):
    """The view cannot be completed into a full state (inconsistent tile counts)."""


def template(view: View) -> Game:
    """A game of the view's variant whose setup revealed the view's indicators."""
    inds = tuple(view["indicators"])
    key = (view["variant"], json.dumps(view["options"], sort_keys=True), view["dealer"],
           inds, view["wildcard"])
    got = _TEMPLATES.get(key)
    if got is not None:
        return got
    v = get_variant(view["variant"])
    options = v.options_from_json(view["options"])
    dealer = int(view["dealer"])
    pool = sorted(t for t in v.tile_set(options) if t < T.NUM_KINDS)
    for t in inds:
        if t in pool:
            pool.remove(t)
    step = max(1, len(pool) // (v.seats * v.hand_size + 1))
    picked: list[int] = []
    rest = list(pool)
    i = 0
    while len(picked) < v.seats * v.hand_size + 1:
        picked.append(rest.pop(i % len(rest)))
        i += step
    hands = []
    for s in range(v.seats):
        size = v.hand_size + (s == dealer)
        hands.append(picked[:size])
        picked = picked[size:]
    game: Game | None = None
    for where in ("tail", "head"):
        wall = arrange_wall(v, hands, draws=inds if where == "head" else (),
                            tail=inds if where == "tail" else (), dealer=dealer,
                            options=options)
        game = Game(v, options, seed=0, dealer=dealer, wall=wall)
        if tuple(game.indicators) == inds and game.wildcard == view["wildcard"]:
            break
    assert game is not None
    if tuple(game.indicators) != inds or game.wildcard != view["wildcard"]:
        # The variant reveals its indicators in a way we could not reproduce: keep the
        # public facts at least.
        game.indicators = list(inds)
        game.wildcard = view["wildcard"]
    if len(_TEMPLATES) > 512:
        _TEMPLATES.clear()
    _TEMPLATES[key] = game
    return game


def clone_world(g: Game) -> Game:
    """An independent copy of a game state (:meth:`~laizi.engine.state.HandState.copy`),
    much cheaper than ``copy.deepcopy``: used to play several candidate actions from one
    sample."""
    return g.copy()


def sample_world(view: View, rng: random.Random, *, enter: bool = True,
                 condition: Callable[[Game, random.Random], None] | None = None) -> Game:
    """A full state consistent with ``view``: the hidden tiles dealt at random.

    With ``enter``, a pending claim (or rob) decision is re-created through the engine,
    so ``game.legal_actions(view["seat"])`` offers the seat its options again.
    ``condition`` may then re-deal hidden tiles among the other hands and the live wall
    (e.g. :func:`laizi.bots.reading.redeal_near_ready`) before the decision is re-entered;
    it must keep every hand's size (it is not called while a kong is being robbed)."""
    if view["phase"] == OVER:
        raise DeterminizeError("the hand is over")
    g = template(view).copy()
    _deal_hidden(g, view, rng)
    _set_public(g, view)
    phase = view["phase"]
    if condition is not None and phase != ROB:
        condition(g, rng)
    _enter_phase(g, view, enter)
    if phase != TURN and view.get("extra"):
        # Re-entering replayed the discard (or kong) through the variant's hooks, which
        # may count it a second time: the view's facts are the truth.
        g.variant.restore_extra(g, view["extra"])
    return g


def _deal_hidden(g: Game, view: View, rng: random.Random) -> None:
    """Deal every tile the seat cannot see at random: the other hands (their sizes), then
    the live wall (its length). A kong being robbed keeps its tile in the robbed hand."""
    n = g.n
    me = int(view["seat"])
    unseen = unseen_counts(view)
    robbing = view.get("robbing")
    forced: dict[int, list[int]] = {}
    if robbing is not None and robbing["seat"] != me:
        x = int(robbing["tile"])
        if unseen[x] <= 0:
            raise DeterminizeError("the robbed tile is nowhere unseen")
        unseen[x] -= 1
        forced[int(robbing["seat"])] = [x]
    suited = [t for t in range(T.NUM_KINDS) for _ in range(unseen[t])]
    flowers = [t for t in range(T.NUM_KINDS, T.NUM_TILE_IDS) for _ in range(unseen[t])]
    rng.shuffle(suited)
    sizes = [int(s) for s in view["hand_sizes"]]
    hands = [[0] * T.NUM_KINDS for _ in range(n)]
    for t in view["hand"]:
        hands[me][t] += 1
    pos = 0
    for s in range(n):
        if s == me:
            continue
        for t in forced.get(s, ()):
            hands[s][t] += 1
        need = sizes[s] - len(forced.get(s, ()))
        if pos + need > len(suited):
            raise DeterminizeError("fewer unseen tiles than the other hands hold")
        for t in suited[pos:pos + need]:
            hands[s][t] += 1
        pos += need
    rest = suited[pos:] + flowers
    rng.shuffle(rest)
    live = int(view["wall"])
    if len(rest) < live:
        raise DeterminizeError(f"{len(rest)} unseen tiles left for a live wall of {live}")
    g.wall = rest[:live]
    g.head = 0
    g.tail = live
    g.hands = hands
    g.sizes = sizes


def _set_public(g: Game, view: View) -> None:
    """The view's public facts; the hand's history beyond them is reset."""
    n = g.n
    g.melds = [[Meld.from_json(m) for m in ms] for ms in view["melds"]]
    g.discards = [list(d) for d in view["discards"]]
    g.flowers = [list(f) for f in view["flowers"]]
    g.indicators = list(view["indicators"])
    g.wildcard = view["wildcard"]
    g.scores = list(view["scores"])
    g.passed_win = [False] * n
    g.passed_win[int(view["seat"])] = bool(view["passed_win"])
    g.pending = {}
    g.responses = {}
    g.taken = []
    g.record = None
    g.payments = []
    g.log = [dict(g.log[0])] if g.log else []
    g.clear_legal()
    g.after_kong = False
    g.turn = int(view["turn"])
    if view.get("extra"):
        g.variant.restore_extra(g, view["extra"])


def _enter_phase(g: Game, view: View, enter: bool) -> None:
    """The view's phase: a turn as it stands, a pending claim (or rob) re-entered through
    the engine, a variant's decision window with every seat still to answer."""
    phase = view["phase"]
    me = int(view["seat"])
    if phase == TURN:
        g.phase = TURN
        g.turn_kind = (TurnStart.DRAWN if view["drawn"] is not None or g.turn != me
                       else TurnStart.CLAIMED)
        g.last_tile = view["drawn"] if view["drawn"] is not None else None
        if g.last_tile is None and g.turn_kind != TurnStart.CLAIMED:
            g.last_tile = next((t for t in range(T.NUM_KINDS) if g.hands[g.turn][t]), 0)
    elif phase == CLAIM:
        d, t = int(view["last_discard"]["seat"]), int(view["last_discard"]["tile"])
        g.discards[d].pop()
        g.hands[d][t] += 1
        g.sizes[d] += 1
        _reenter(g, d, Action(DISCARD, d, t), enter)
    elif phase == ROB:
        r, t = int(view["robbing"]["seat"]), int(view["robbing"]["tile"])
        _reenter(g, r, Action(ADDED_KONG, r, t), enter)
    elif phase == DECIDE:
        # A variant's decision window asks every seat; who has answered is secret, so
        # the sample has every seat still to answer, with pass (its own options are
        # the bot's business: the sample only plays on after the window).
        g.phase = DECIDE
        g.pending = {s: (interned(PASS, s),) for s in range(g.n)}
        g.responses = {}


def _reenter(g: Game, seat: int, action: Action, enter: bool) -> None:
    g.phase = TURN
    g.turn = seat
    g.turn_kind = TurnStart.DRAWN
    g.last_tile = action.tile
    if enter:
        g.clear_legal()
        g.apply(action)
