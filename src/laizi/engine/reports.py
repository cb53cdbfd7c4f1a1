"""What a hand shows: its full state as JSON, one seat's view, and its record.

Pure functions of the state and the variant (:class:`~laizi.engine.game.Game` calls them
for :meth:`~laizi.engine.game.Game.to_json`, :meth:`~laizi.engine.game.Game.view` and
:meth:`~laizi.engine.game.Game.make_record`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.records import DRAW, ROBBED_KONG, SELF_DRAW, HandRecord, SeatRecord
from laizi.core.records import WIN as WON
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.vocab import Phase, TurnStart

__all__ = ["copy_json", "hand_record", "seat_view", "state_to_json"]

_TURN: Final = Phase.TURN
_CLAIM: Final = Phase.CLAIM
_ROB: Final = Phase.ROB
_OVER: Final = Phase.OVER
_CLAIMED: Final = TurnStart.CLAIMED


def copy_json(value: Any) -> Any:
    """A copy of JSON data (dicts and lists copied at every depth), cheaper than
    ``copy.deepcopy``: views hand out cached parts that their callers may change."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def hand_record(game: HandState, v: Variant, winners: Sequence[int], how: str | None,
                source: int | None, tile: int | None,
                known: Mapping[int, SeatRecord] | None = None) -> HandRecord:
    """The hand record if the hand ended now this way. ``known``: the records of seats
    that are neither a winner nor a robbed kong's source, made by this function of the
    same tiles, melds and flowers (the 听牌 hints pose many wins of one seat, the other
    seats as they are: a test holds the records to those made without)."""
    seats = []
    for s in range(game.n):
        if known is not None and s in known:
            seats.append(known[s])
            continue
        counts = game.hands[s]
        if (how == SELF_DRAW and s in winners) or (how == ROBBED_KONG and s == source):
            counts = counts.copy()
            counts[tile] -= 1  # type: ignore[index]
        seats.append(SeatRecord(tuple(T.from_counts(counts)), tuple(game.melds[s]),
                                tuple(sorted(game.flowers[s]))))
    return HandRecord(
        variant=v.id, options=game.options, dealer=game.dealer, seats=tuple(seats),
        outcome=WON if winners else DRAW, winners=tuple(winners), how=how,
        source=source, win_tile=tile, after_kong=bool(winners) and how == SELF_DRAW
        and game.after_kong, indicators=tuple(game.indicators), wildcard=game.wildcard,
        extra=v.record_extra(game, winners, how, source) if winners else {},
        seed=game.seed,
    )


def state_to_json(game: HandState, v: Variant) -> JSON:
    """The complete state (wall included): equal states give equal JSON."""
    return {
        "variant": v.id,
        "options": v.options_to_json(game.options),
        "seed": game.seed,
        "dealer": game.dealer,
        "scores": list(game.scores),
        "wall": list(game.wall),
        "head": game.head,
        "tail": game.tail,
        "hands": [game.concealed(s) for s in range(game.n)],
        "melds": [[m.to_json() for m in ms] for ms in game.melds],
        "discards": [list(d) for d in game.discards],
        "flowers": [list(f) for f in game.flowers],
        "indicators": list(game.indicators),
        "wildcard": game.wildcard,
        "turn": game.turn,
        "phase": game.phase,
        "turn_kind": game.turn_kind,
        "after_kong": game.after_kong,
        "last_tile": game.last_tile,
        "pending": {str(s): [a.to_json() for a in acts] for s, acts in game.pending.items()},
        "responses": {str(s): a.to_json() for s, a in game.responses.items()},
        "passed_win": list(game.passed_win),
        "taken": list(game.taken),
        "extra": game.extra,
        "payments": [p.to_json() for p in game.payments],
        **({"context": game.context} if game.context else {}),
        **({"suspended": game.suspended} if game.suspended is not None else {}),
        **({"seat_streams": [list(st) for st in game.seat_streams]}
           if game.seat_streams is not None else {}),
    }

def seat_view(game: HandState, v: Variant, seat: int, options_json: JSON
              ) -> JSON:
    """What ``seat`` may know: its own concealed tiles and everything public."""
    last_discard = None
    phase = game.phase
    if phase == _CLAIM and game.last_tile is not None:
        last_discard = {"seat": game.turn, "tile": game.last_tile}
    robbing = None
    if phase == _ROB:
        robbing = {"seat": game.turn, "tile": game.last_tile}
    drawn = None
    if phase == _TURN and game.turn == seat and game.turn_kind != _CLAIMED:
        drawn = game.last_tile
    out: JSON = {
        "variant": v.id,
        "options": copy_json(options_json),
        "seat": seat,
        "seats": game.n,
        "dealer": game.dealer,
        "phase": game.phase,
        "turn": game.turn,
        "hand": game.concealed(seat),
        "drawn": drawn,
        "melds": [[m.to_json() for m in ms] for ms in game.melds],
        "discards": [list(d) for d in game.discards],
        "flowers": [list(f) for f in game.flowers],
        "hand_sizes": list(game.sizes),
        "indicators": list(game.indicators),
        "wildcard": game.wildcard,
        "wall": game.tail - game.head,
        "reserve": game.reserve,
        "scores": list(game.scores),
        "last_discard": last_discard,
        "robbing": robbing,
        "passed_win": game.passed_win[seat],
        "to_act": seat in game.to_act(),
    }
    shown = v.view_extra(game, seat)
    if shown:
        out["extra"] = shown
    if phase == _OVER and game.record is not None and game.keep_log:
        out["result"] = copy_json(game.log[-1])  # the caller's own: the log stays as is
    return out
