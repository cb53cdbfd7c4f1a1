"""Why an action is refused: the message of an illegal action, never the decision.

:meth:`Game.apply <laizi.engine.game.Game.apply>` decides legality by membership in the
seat's legal actions alone; when that refuses a well-typed action, :func:`refusal` names
the reason (the error code first, then the rule broken, the variant's own
:meth:`~laizi.engine.variant.Variant.action_refusal` first). It reads the state and
changes nothing.
"""

from __future__ import annotations

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
    TYPES,
    WIN,
    Action,
    IllegalActionError,
)
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.errors import ErrorCode
from laizi.vocab import Phase, TurnStart

__all__ = ["refusal", "wrong_win_refusal"]

TURN, CLAIM, ROB, OVER, DECIDE = Phase.TURN, Phase.CLAIM, Phase.ROB, Phase.OVER, Phase.DECIDE
CLAIMED = TurnStart.CLAIMED
_CORE_TURN = frozenset({DISCARD, WIN, CONCEALED_KONG, ADDED_KONG, SPECIAL_KONG})
_CORE_TYPES = frozenset(TYPES)
_ANSWER_TYPES = frozenset({CHOW, PUNG, KONG})
_MELD_SIZE: dict[str, int] = {CHOW: 3, PUNG: 3, KONG: 4}


def refusal(game: HandState, v: Variant, action: Action) -> IllegalActionError:
    """The refusal of a well-typed action that is not among its seat's legal actions.

    Only called once membership has refused the action, so it never decides legality:
    it names the reason (the code first: the hand is over, not the seat's turn, no
    decision of the seat in this window, already answered; else ``illegal`` with the
    rule broken, the variant's :meth:`Variant.action_refusal` first). It reads the
    state and changes nothing."""
    seat, phase = action.seat, game.phase

    def refuse(message: str, code: ErrorCode = ErrorCode.ILLEGAL) -> IllegalActionError:
        return IllegalActionError(message, code=code, seat=seat, phase=phase)

    if phase == OVER:
        return refuse(f"the hand is over: {action} is not possible", ErrorCode.HAND_OVER)
    if phase == TURN:
        if seat != game.turn:
            return refuse(f"it is seat {game.turn}'s turn, not seat {seat}'s",
                          ErrorCode.NOT_YOUR_TURN)
    elif seat not in game.pending:
        what = {CLAIM: "discard", ROB: "added kong"}.get(phase, "decision")
        return refuse(f"seat {seat} has no decision on this {what}", ErrorCode.NO_DECISION)
    elif seat in game.responses:
        return refuse(f"seat {seat} has already answered", ErrorCode.ALREADY_ANSWERED)
    return refuse(_why_illegal(game, v, action))

def wrong_win_refusal(game: HandState, v: Variant, action: Action) -> IllegalActionError | None:
    """Why a 错和 (``wrong_win``) is refused at a game whose rules settle it, or ``None``.
    As Botzone's judge hears a 胡 only as an answer, the seat must have a decision now
    (else the usual code: ``hand_over``, ``not_your_turn`` …); it names no tile; and it
    may not be able to win, for then its 胡 is a win (``win``), not a 错和."""
    legal = game.legal_actions(action.seat)
    if not legal:
        return refusal(game, v, action)
    why = None
    if action.tile is not None or action.tiles:
        why = "wrong_win (错和) takes no tile and no tiles"
    elif any(a.type == WIN for a in legal):
        why = f"seat {action.seat} can win: its 胡 is a win, not a 错和"
    if why is None:
        return None
    return IllegalActionError(why, code=ErrorCode.ILLEGAL, seat=action.seat, phase=game.phase)

def _options_text(game: HandState, seat: int) -> str:
    return ", ".join(str(a) for a in game.legal_actions(seat)) or "none"

def _why_illegal(game: HandState, v: Variant, action: Action) -> str:
    """The rule a well-typed, illegal action of the seat whose decision it is breaks."""
    seat, kind, t, phase = action.seat, action.type, action.tile, game.phase
    core = kind in _CORE_TYPES
    # 1. the kind of action does not fit the phase
    if phase == TURN and (kind == PASS or kind in _ANSWER_TYPES):
        return f"{kind} answers a discard; there is no discard to answer (seat {seat}'s turn)"
    if phase != TURN and kind in _CORE_TURN and not (kind == WIN and phase != DECIDE):
        what = {CLAIM: "a discard", ROB: "an added kong"}.get(phase, "a decision")
        return (f"{kind} is not an answer to {what}; seat {seat}'s options are "
                + _options_text(game, seat))
    if phase == ROB and kind in _ANSWER_TYPES:
        return "only win (抢杠) or pass answer an added kong"
    if phase == DECIDE and kind in _ANSWER_TYPES:
        return f"{kind} is not an answer to this decision; seat {seat}'s options are " \
               + _options_text(game, seat)
    # 2. the shape of a core action
    if core:
        why = _shape_refusal(action)
        if why:
            return why
    # 3. what the variant knows better
    why = v.action_refusal(game, action)
    if why:
        return why
    if not core or phase == DECIDE:
        return f"{kind} is not possible now; seat {seat}'s options are " \
               + _options_text(game, seat)
    if phase == TURN:
        assert t is not None
        return _why_not_in_turn(game, v, seat, kind, t)
    return _why_not_answer(game, v, action)

def _shape_refusal(action: Action) -> str | None:
    """A core action whose tile or tiles cannot be right whatever the state."""
    kind, t, tiles = action.type, action.tile, action.tiles
    if kind == PASS:
        if t is not None or tiles:
            return "pass takes no tile and no tiles"
        return None
    if t is None:
        return f"{kind} needs a tile" + (" (the discard)" if kind in _ANSWER_TYPES else "")
    if t >= T.NUM_KINDS:
        return (f"{kind} of {T.name(t, 'mpsz')}: a flower is set aside (and replaced) "
                "automatically, never played")
    if kind not in _ANSWER_TYPES:
        if tiles:
            return f"{kind} takes one tile, not a list of tiles"
        return None
    size = _MELD_SIZE[kind]
    if len(tiles) != size or t not in tiles or list(tiles) != sorted(tiles):
        return (f"{kind} needs tiles: the {size} tiles of the meld with the claimed tile, "
                "sorted")
    if kind == CHOW:
        lo = tiles[0]
        if lo >= 27 or tiles != (lo, lo + 1, lo + 2) or lo % 9 > 6:
            return "a chow is three consecutive tiles of one suit"
    elif tiles != (t,) * size:
        return f"a {kind} of {T.name(t, 'mpsz')} is {size} × {T.name(t, 'mpsz')}"
    return None

def _why_not_in_turn(game: HandState, v: Variant, seat: int, kind: str, t: int) -> str:
    hand = game.hands[seat]
    name = T.name(t, "mpsz")
    claimed = game.turn_kind == CLAIMED
    if kind == DISCARD:
        if not hand[t]:
            return f"cannot discard {name}: not in seat {seat}'s hand"
        return v.discard_refusal(game, seat, t) or f"cannot discard {name} now"
    if kind == WIN:
        if claimed:
            return "no self-drawn win right after a chow or pung: discard first"
        if t != game.last_tile:
            drawn = "?" if game.last_tile is None else T.name(game.last_tile, "mpsz")
            return f"a self-drawn win is on the drawn tile {drawn}, not {name}"
        why = v.win_refusal(game, seat, t, SELF_DRAW)
        return f"cannot win: {why}" if why else "cannot win now"
    if kind in (CONCEALED_KONG, ADDED_KONG) and claimed:
        return "no kong right after a chow or pung: discard first"
    if kind == CONCEALED_KONG:
        if hand[t] != 4:
            return (f"concealed kong of {name} needs four {name} in hand "
                    f"(seat {seat} holds {hand[t]})")
        if t in v.meld_blocked(game):
            return f"{name} cannot be konged in {v.id}"
        return f"concealed kong of {name} is not possible now"
    if kind == ADDED_KONG:
        if not any(m.kind == PUNG and m.tiles[0] == t for m in game.melds[seat]):
            return f"added kong of {name} needs an exposed pung of {name}"
        if not hand[t]:
            return f"added kong of {name} needs the fourth {name} in hand"
        return f"added kong of {name} is not possible now"
    # SPECIAL_KONG
    if t not in v.special_kongs(game):
        return f"{name} is not a special-kong tile in {v.id} now"
    if not hand[t]:
        return f"cannot play {name} out: not in seat {seat}'s hand"
    return f"special kong of {name} is not possible now"

def _why_not_answer(game: HandState, v: Variant, action: Action) -> str:
    """A core answer (win, chow, pung, kong, pass) in a claim or rob window."""
    seat, kind, t = action.seat, action.type, action.tile
    x = game.last_tile
    assert x is not None
    name = T.name(x, "mpsz")
    what = "the discard" if game.phase == CLAIM else "the added kong's tile"
    options = f"; seat {seat}'s options are " + _options_text(game, seat)
    if kind != PASS and t != x:
        return f"{kind} is on {what} {name}, not {T.name(t or 0, 'mpsz')}"
    if kind == WIN:
        if game.passed_win[seat]:
            return ("过水: a win on a discard was declined; no win on a discard or a "
                    "robbed kong before your next draw")
        how = DISCARD_WIN if game.phase == CLAIM else ROBBED_KONG
        why = v.win_refusal(game, seat, x, how)
        return f"cannot win: {why}" if why else f"cannot win on {name} now" + options
    if kind in _ANSWER_TYPES:
        if kind not in game.claim_types:
            return f"{v.id} has no {kind} on a discard"
        if kind == CHOW and seat != (game.turn + 1) % game.n:
            return "chow (吃) is only for the next seat after the discarder"
        if x in v.meld_blocked(game):
            return f"{name} takes part in no chow, pung or kong in {v.id}"
        rest = list(action.tiles)
        rest.remove(x)
        hand = game.hands[seat]
        need = {u: rest.count(u) for u in rest}
        short = [u for u, c in need.items() if hand[u] < c]
        if short:
            return (f"cannot {kind}: seat {seat}'s hand lacks "
                    + " ".join(T.name(u, "mpsz") for u in short))
        blocked = [u for u in need if u in v.meld_blocked(game)]
        if blocked:
            return (f"cannot {kind}: {' '.join(T.name(u, 'mpsz') for u in blocked)} "
                    f"takes part in no meld in {v.id}")
    return f"{action} is not possible now" + options
