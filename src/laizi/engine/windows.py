"""The options the rules give: a seat's turn, and the windows after a discard or an added
kong.

Each function reads the state and the variant and writes nothing: the game opens the
window they return. Actions come from one shared cache (:func:`interned`), so legal-action
lists hold the same objects wherever they are built (fast membership).
"""

from __future__ import annotations

from typing import Final

from laizi import tiles as T
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    SPECIAL_KONG,
    WIN,
    Action,
    check_action,
)
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.vocab import TurnStart

__all__ = ["PASS_ONLY", "discard_window", "interned", "rob_window", "turn_options"]

_ACTIONS: dict[tuple[str, int, int | None, tuple[int, ...]], Action] = {}


def interned(kind: str, seat: int, tile: int | None = None,
             tiles: tuple[int, ...] = ()) -> Action:
    """The engine's own copy of an action: legal-action lists reuse the same objects
    (fast membership), and code that builds actions itself (the search's playouts) gets
    those objects too."""
    key = (kind, seat, tile, tiles)
    a = _ACTIONS.get(key)
    if a is None:
        a = Action(kind, seat, tile, tiles)
        # The cache is shared by every game: never let a garbage action (seat=True, which
        # equals 1 as a dict key) stand in for a real one.
        check_action(a, frozenset((kind,)))
        a = _ACTIONS[key] = a
    return a


_CLAIMED: Final = TurnStart.CLAIMED


_DISCARDS = [[interned(DISCARD, s, t) for t in range(T.NUM_KINDS)] for s in range(8)]
PASS_ONLY = [(interned(PASS, s),) for s in range(8)]
"""The options of a seat asked in a window it can do nothing in (uniform windows)."""


def discard_window(game: HandState, v: Variant, seat: int, t: int
                   ) -> dict[int, tuple[Action, ...]]:
    """Every other seat's options on ``seat``'s discard ``t`` (win, kong, pung, chow and
    pass; ``pass`` alone for a seat without an option in uniform windows), nearest first.
    Empty: nobody is asked, the next seat draws."""
    blocked = v.meld_blocked(game)
    claim_types = game.claim_types
    pending: dict[int, tuple[Action, ...]] = {}
    n = game.n
    suited = t < 27
    for i in range(1, n):
        s = (seat + i) % n
        hand = game.hands[s]
        opts: list[Action] = []
        if not game.passed_win[s] and v.win_refusal(game, s, t, DISCARD_WIN) is None:
            opts.append(interned(WIN, s, t))
        if t not in blocked:
            c = hand[t]
            if c >= 3 and KONG in claim_types:
                opts.append(interned(KONG, s, t, (t, t, t, t)))
            if c >= 2 and PUNG in claim_types:
                opts.append(interned(PUNG, s, t, (t, t, t)))
            if i == 1 and suited and CHOW in claim_types:
                r = t % 9
                for lo in (t - 2, t - 1, t):
                    if lo < t - r or lo + 2 > t - r + 8:
                        continue
                    ok = True
                    for x in (lo, lo + 1, lo + 2):
                        if x != t and (not hand[x] or x in blocked):
                            ok = False
                            break
                    if ok:
                        opts.append(interned(CHOW, s, t, (lo, lo + 1, lo + 2)))
        if opts:
            opts = v.restrict(game, s, opts)
        if opts:
            opts.append(interned(PASS, s))
            pending[s] = tuple(opts)
        elif game.uniform:
            pending[s] = PASS_ONLY[s]
    return pending


def rob_window(game: HandState, v: Variant, seat: int, t: int
               ) -> dict[int, tuple[Action, ...]]:
    """Every other seat's options on ``seat``'s added kong of ``t`` (抢杠: win or pass)."""
    pending: dict[int, tuple[Action, ...]] = {}
    for i in range(1, game.n):
        s = (seat + i) % game.n
        if not game.passed_win[s] and v.win_refusal(game, s, t, ROBBED_KONG) is None:
            opts = v.restrict(game, s, [interned(WIN, s, t)])
            if opts:
                pending[s] = (*opts, interned(PASS, s))
        if game.uniform and s not in pending:
            pending[s] = PASS_ONLY[s]
    return pending


def turn_options(game: HandState, v: Variant, seat: int) -> list[Action]:
    """The options of ``seat`` on its turn: the engine's (win, kongs, discards) and
    the variant's own, as the variant restricts them."""
    hand = game.hands[seat]
    out: list[Action] = []
    drawn = game.turn_kind != _CLAIMED
    if drawn:
        t = game.last_tile
        assert t is not None
        if v.win_refusal(game, seat, t, SELF_DRAW) is None:
            out.append(interned(WIN, seat, t))
        blocked = v.meld_blocked(game)
        for m in game.melds[seat]:
            if m.kind == PUNG and hand[m.tiles[0]]:
                out.append(interned(ADDED_KONG, seat, m.tiles[0]))
    for x in v.special_kongs(game):
        if hand[x]:
            out.append(interned(SPECIAL_KONG, seat, x))
    refused = v.undiscardable(game, seat)
    discards = _DISCARDS[seat]
    for x in range(T.NUM_KINDS):
        c = hand[x]
        if c:
            if x not in refused:
                out.append(discards[x])
            if c == 4 and drawn and x not in blocked:
                out.append(interned(CONCEALED_KONG, seat, x))
    out.extend(v.turn_actions(game, seat))
    return v.restrict(game, seat, out)

