"""Records of a room's hands for the browser client: the settlements and the replays.

==========================================  ============================================
``GET /api/rooms/{code}/me?token=T``        who holds the token: name, role, host
``GET /api/rooms/{code}/records``           every finished hand: who sat where, the
                                            dealer, the ``hand_end`` line (record,
                                            settlement between people, horses, ledger)
``GET /api/rooms/{code}/replay``            once the match is over: the hands that can
                                            be replayed (number, seats, steps)
``GET /api/rooms/{code}/replay/{number}``   once the match is over: hand ``number`` step
                                            by step, every seat's concealed tiles at
                                            every step (the client shows one seat's view
                                            or all hands open)
==========================================  ============================================

``records`` holds only what every member of the room has already been sent (the table's
``hand`` and ``hand_end`` lines, the finished hand's wall left out). A replay shows every
concealed tile, so it is published, like the table log, only when the match is over: it
is rebuilt from the log (``Table.replay``, the table secret revealed by its ``close``
line) and each hand's engine events are played again from its ``start`` event.

A replay step is the state after one move: ``events`` (the engine events since the step
before, unredacted: a client hides other seats' draws and secret answers for a seat's
view), ``phase``, ``turn``, ``hands`` (every seat's concealed tiles), ``drawn`` (per
seat), ``melds``, ``discards``, ``flowers``, ``hand_sizes``, ``wall``, ``indicators``,
``wildcard``, ``last_discard``, ``robbing``, ``extra`` and, at the last step, ``result``
(the ``end`` event). Answers to a window that is still open are folded into the step
that closes it, so every step changes what the table shows.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.engine.actions import Action
from laizi.engine.game import Game
from laizi.engine.log import _start
from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.table.table import Table, canonical

__all__ = ["hand_records", "replay_hands", "replay_steps", "routes"]

_SHARED = ("phase", "turn", "dealer", "melds", "discards", "flowers", "hand_sizes",
           "indicators", "wildcard", "wall", "reserve", "last_discard", "robbing", "extra",
           "scores")
_WINDOWS = ("claim", "rob", "decide")


def hand_records(log: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every finished hand of a table log: ``{"number", "seats", "dealer", "context",
    "end"}`` (``end``: the ``hand_end`` line without the wall)."""
    out: list[dict[str, Any]] = []
    hand: dict[str, Any] | None = None
    for entry in log:
        kind = entry.get("type")
        if kind == "hand":
            hand = entry
        elif kind == "hand_end" and hand is not None:
            out.append({"number": entry["number"], "seats": list(hand["seats"]),
                        "dealer": hand["dealer"], "context": hand.get("context", {}),
                        "end": {k: v for k, v in entry.items() if k != "wall"}})
            hand = None
    return out


def _state(game: Game, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    views = [game.view(s) for s in range(game.n)]
    step = {k: views[0][k] for k in _SHARED if k in views[0]}
    step["hands"] = [v["hand"] for v in views]
    step["drawn"] = [v["drawn"] for v in views]
    step["events"] = [e for e in events if e.get("type") != "start"]
    if "result" in views[0]:
        step["result"] = views[0]["result"]
    return step


def replay_steps(log: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A hand's engine log (``game.log``) as replay steps: the state after the deal,
    then after every move (see the module's docstring)."""
    game = _start(log[0])
    types = game.action_types()
    seen = len(game.log)
    steps = [_state(game, game.log[:seen])]
    pending: list[dict[str, Any]] = []
    for ev in log[1:]:
        if ev.get("type") != "action":
            continue
        game.apply(Action.from_json(ev["action"], types=types))
        pending.extend(game.log[seen:])
        seen = len(game.log)
        if ev.get("answer") and game.phase in _WINDOWS:
            continue  # the window is still open: nothing shows yet
        steps.append(_state(game, pending))
        pending = []
    if pending:
        steps.append(_state(game, pending))
    return steps


def replay_hands(lines: Sequence[str]) -> list[dict[str, Any]]:
    """Every finished hand of a closed table's log, with its engine log: ``{"number",
    "seats", "dealer", "context", "end", "log"}``."""
    out: list[dict[str, Any]] = []
    done: set[int] = set()
    hand: dict[str, Any] | None = None
    entries = [json.loads(line) for line in lines]
    for n, table in Table.replay(lines):
        if entries[n - 1].get("type") == "hand":
            hand = entries[n - 1]
        g = table.game
        if g is None or not g.over or hand is None or hand["number"] in done:
            continue
        ends = [e for e in table.log if e.get("type") == "hand_end"
                and e.get("number") == hand["number"]]
        if not ends:
            continue
        done.add(hand["number"])
        out.append({"number": hand["number"], "seats": list(hand["seats"]),
                    "dealer": hand["dealer"], "context": hand.get("context", {}),
                    "end": {k: v for k, v in ends[0].items() if k != "wall"},
                    "log": list(g.log)})
    return out


_CACHE: OrderedDict[tuple[str, int], list[dict[str, Any]]] = OrderedDict()
_CACHE_SIZE = 8


def _cached_hands(code: str, lines: Sequence[str]) -> list[dict[str, Any]]:
    key = (code, len(lines))
    got = _CACHE.get(key)
    if got is None:
        got = replay_hands(lines)
        _CACHE[key] = got
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return got


def _error(exc: LaiziError) -> JSONResponse:
    status = {ErrorCode.UNKNOWN_ROOM: 404, ErrorCode.UNKNOWN_TOKEN: 404,
              ErrorCode.TABLE_OVER: 409}.get(exc.code, 400)
    return JSONResponse({"error": dict(exc.to_json())}, status_code=status)


async def _closed_lines(request: Request) -> tuple[str, list[str]]:
    hall = request.app.state.hall
    room = await hall.room(request.path_params["code"])
    if not room.closed:
        raise TableError("a replay shows every hand, so it is published when the match is "
                         "over", code=ErrorCode.TABLE_OVER)
    return room.code, [canonical(e) for e in room.table.log]


async def records(request: Request) -> Response:
    try:
        room = await request.app.state.hall.room(request.path_params["code"])
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"code": room.code, "variant": room.table.variant.id,
                         "hands": hand_records(room.table.log)})


async def replay_index(request: Request) -> Response:
    try:
        code, lines = await _closed_lines(request)
        hands = _cached_hands(code, lines)
    except LaiziError as exc:
        return _error(exc)
    variant = hands[0]["log"][0]["variant"] if hands else None
    return JSONResponse({"code": code, "variant": variant, "hands": [
        {"number": h["number"], "seats": h["seats"], "dealer": h["dealer"],
         "outcome": h["end"]["record"]["outcome"], "net": h["end"]["net"]}
        for h in hands]})


async def replay_hand(request: Request) -> Response:
    raw = request.path_params["number"]
    try:
        code, lines = await _closed_lines(request)
        hands = _cached_hands(code, lines)
        hand = next((h for h in hands if str(h["number"]) == raw), None)
        if hand is None:
            raise TableError(f"no finished hand {raw!r} in room {code}",
                             code=ErrorCode.UNKNOWN_ROOM)
        steps = replay_steps(hand["log"])
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"code": code, "number": hand["number"], "seats": hand["seats"],
                         "dealer": hand["dealer"], "context": hand["context"],
                         "variant": hand["log"][0]["variant"], "end": hand["end"],
                         "steps": steps})


async def me(request: Request) -> Response:
    """Who holds a seat token: ``{"name", "role", "host"}`` (the page of a person who
    came back by their link on another device)."""
    try:
        room = await request.app.state.hall.room(request.path_params["code"])
        member = room.member(request.query_params.get("token", ""))
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"name": member.name, "role": member.role,
                         "host": member.token == room.host})


def routes() -> list[Route]:
    return [
        Route("/api/rooms/{code}/me", me),
        Route("/api/rooms/{code}/records", records),
        Route("/api/rooms/{code}/replay", replay_index),
        Route("/api/rooms/{code}/replay/{number}", replay_hand),
    ]
