"""Records of a room's hands for the browser client: the settlements and the replays.

==========================================  ============================================
``GET /api/rooms/{code}/me``                who holds the token (``X-Laizi-Token``, or ``?token=T``)
``GET /api/rooms/{code}/records``           every finished hand: who sat where, the
                                            dealer, the ``hand_end`` line (record,
                                            settlement between people, horses, ledger)
``GET /api/rooms/{code}/replay``            the finished hands, during the match too
                                            (number, seats, dealer, outcome, net), the
                                            table's commitment and, once the match is
                                            over, its secret
``GET /api/rooms/{code}/replay/{number}``   finished hand ``number`` step by step, every
                                            seat's concealed tiles at every step (the
                                            client shows one seat's view or all hands
                                            open), with its ``deal``: the hand key and
                                            the wall it gives
==========================================  ============================================

``records`` holds only what every member of the room has already been sent (the table's
``hand`` and ``hand_end`` lines, the finished hand's wall left out). Every reason of a
payment carries its ``parts`` (:func:`laizi.reasons.with_parts`), so the page names the
people of the seats, and every 买马 horse its ``seat``: the seat of the hand its tile
landed on (:func:`laizi.table.horses.horse_seat`), so the page words the rule without
knowing it. The logged lines themselves never change.

A replay shows every concealed tile of one hand, so only a **finished** hand is
replayed, while the match goes on: the hand in play and later hands are refused
(``409 hand_in_progress`` / ``404 no_hand``). Its wall comes from its own hand key,
``HMAC-SHA256(secret, "laizi-hand/v1" || u64(hand) || entropy digest)`` (docs/deals.md),
which the replay gives away together with the wall, the entropy that went into it and
the table's commitment: anyone checks ``wall = shuffle(sorted(tile set), key)``. The
key of one hand tells nothing of another's (HMAC is a pseudo-random function of the
secret), so later deals stay secret; the table secret itself is revealed only by the
table's ``close`` line, and then confirms every hand key and the commitment. The hand is
played again from its ``hand`` line, that wall and its ``action`` lines (the very
``Game`` the table dealt), and must end in the logged settlement.

A replay step is the state after one move: ``events`` (the engine events since the step
before, unredacted: a client hides other seats' draws and secret answers for a seat's
view), ``phase``, ``turn``, ``hands`` (every seat's concealed tiles), ``drawn`` (per
seat), ``melds``, ``discards``, ``flowers``, ``hand_sizes``, ``wall``, ``indicators``,
``wildcard``, ``last_discard``, ``robbing``, ``extra`` and, at the last step, ``result``
(the ``end`` event). Answers to a window that is still open are folded into the step
that closes it, so every step changes what the table shows.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypedDict, cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from laizi.core.records import record_to_json
from laizi.engine.actions import Action
from laizi.engine.game import Game
from laizi.engine.log import start as _start
from laizi.errors import ErrorCode, LaiziError, TableError
from laizi.reasons import payments_with_parts
from laizi.server.context import context_of
from laizi.server.headers import TOKEN_HEADER
from laizi.server.ledgers import shown_ledger, shown_ledgers
from laizi.table import deals
from laizi.table.table import Entry, Table
from laizi.vocab import GameEventType, Phase, TableEventType

__all__ = ["hand_deal", "hand_records", "hand_replay", "replay_steps", "routes",
           "shown_ledger", "shown_ledgers"]

_SHARED = ("phase", "turn", "dealer", "melds", "discards", "flowers", "hand_sizes",
           "indicators", "wildcard", "wall", "reserve", "last_discard", "robbing", "extra",
           "scores")
_WINDOWS = (Phase.CLAIM, Phase.ROB, Phase.DECIDE)


class HandRecord(TypedDict):
    """A finished hand as the settlements page reads it (:func:`hand_records`)."""

    number: int
    seats: list[str]
    dealer: int
    context: dict[str, object]
    end: Entry


class Deal(TypedDict):
    """The deal of a finished hand (:func:`hand_deal`)."""

    hand: int
    key: str
    entropy: list[str]
    entropy_digest: str
    commitment: str | None
    tiles: list[int]
    wall: list[int]


class Replay(HandRecord):
    """A finished hand played again (:func:`hand_replay`)."""

    variant: str
    deal: Deal
    log: list[Entry]


def hand_records(log: Iterable[Entry]) -> list[HandRecord]:
    """Every finished hand of a table log: ``{"number", "seats", "dealer", "context",
    "end"}`` (``end``: the ``hand_end`` line without the wall, its ledger as shown:
    :func:`shown_ledger`)."""
    out: list[HandRecord] = []
    hand: Entry | None = None
    played: set[str] = set()
    for entry in log:
        kind = entry.get("type")
        if kind == TableEventType.HAND:
            hand = entry
        elif kind == TableEventType.HAND_END and hand is not None:
            played.update(entry.get("net", {}))
            end = _public_end(entry, hand["dealer"])
            if "ledger" in end:
                end["ledger"] = shown_ledger(end["ledger"], played)
            out.append({"number": entry["number"], "seats": list(hand["seats"]),
                        "dealer": hand["dealer"], "context": hand.get("context", {}),
                        "end": end})
            hand = None
    return out


def _public_end(entry: Entry, dealer: int) -> Entry:
    """A ``hand_end`` line as the client reads it: no wall, reasons with their parts,
    each horse with the seat it landed on (``dealer``: the hand's dealer)."""
    from laizi import tiles
    from laizi.table.horses import horse_seat

    end = {k: v for k, v in entry.items() if k != "wall"}
    end["payments"] = payments_with_parts(end.get("payments", []))
    if end.get("horses"):
        end["horses"] = [{**h, "seat": horse_seat(tiles.parse_tile(str(h["tile"])), dealer)}
                         for h in end["horses"]]
    return end


def _finished(log: Sequence[Entry], number: int) -> tuple[int, Entry, int]:
    """Where hand ``number`` starts in the log, its ``hand`` line and where its
    ``hand_end`` line is; :class:`TableError` unless the hand is over."""
    start = next((i for i, e in enumerate(log)
                  if e.get("type") == TableEventType.HAND and e.get("number") == number), None)
    if start is None:
        raise TableError(f"hand {number + 1} has not been dealt", code=ErrorCode.NO_HAND)
    end = next((i for i in range(start + 1, len(log))
                if log[i].get("type") == TableEventType.HAND_END
                and log[i].get("number") == number), None)
    if end is None:
        raise TableError(f"hand {number + 1} is not over: it is replayed once it ends",
                         code=ErrorCode.HAND_IN_PROGRESS)
    return start, log[start], end


def hand_deal(log: Sequence[Entry], number: int, secret: bytes) -> Deal:
    """The deal of finished hand ``number`` (docs/deals.md): ``{"hand", "key" (hex),
    "entropy" (the contributions before the hand), "entropy_digest" (hex), "commitment",
    "tiles" (the hand's tile set, sorted), "wall"}`` with ``wall = shuffle(tiles, key)``
    and ``key = HMAC-SHA256(secret, "laizi-hand/v1" || u64(hand) || entropy_digest)``.
    The secret itself is not in it."""
    from laizi.variants import get

    start, hand, _ = _finished(log, number)
    head = log[0]
    variant = get(head["variant"])
    entropy = [e["value"] for e in log[:start] if e.get("type") == TableEventType.ENTROPY]
    digest = deals.mix(entropy)
    key = deals.hand_key(secret, number, digest)
    tiles = sorted(variant.tile_set(variant.options_from_json(hand["options"])))
    if head.get("walls") is not None:  # an imported match: its walls are given, not keyed
        return Deal(hand=number, key="", entropy=entropy, entropy_digest=digest.hex(),
                    commitment=None, tiles=tiles, wall=list(head["walls"][number]))
    return Deal(hand=number, key=key.hex(), entropy=entropy, entropy_digest=digest.hex(),
                commitment=head.get("commitment"), tiles=tiles,
                wall=deals.shuffle(tiles, key))


def hand_replay(log: Sequence[Entry], number: int, secret: bytes) -> Replay:
    """Finished hand ``number`` of a table log, played again from its ``hand`` line,
    the wall of its hand key and its ``action`` lines: ``{"number", "seats", "dealer",
    "context", "variant", "end", "deal", "log"}`` (``log``: the hand's engine log;
    ``deal``: :func:`hand_deal`). :class:`TableError` for a hand not dealt or not over;
    :class:`~laizi.errors.LogError` if the hand does not end as the log says."""
    from laizi.errors import LogError
    from laizi.variants import get

    start, hand, end = _finished(log, number)
    deal = hand_deal(log, number, secret)
    head = log[0]
    variant = get(head["variant"])
    game = Game(variant, variant.options_from_json(hand["options"]), seed=None,
                dealer=hand["dealer"], scores=hand["scores"], wall=deal["wall"],
                context=hand.get("context") or None, streams=bool(head.get("streams")))
    types = game.action_types()
    for entry in log[start + 1:end]:
        if entry.get("type") == TableEventType.ACTION:
            game.apply(Action.from_json(entry["action"], types=types))
    if not game.over or game.record is None or \
            record_to_json(game.record, variant) != log[end]["record"]:
        raise LogError(f"hand {number + 1} does not replay to the settlement its log holds")
    return Replay(number=number, seats=list(hand["seats"]), dealer=hand["dealer"],
                  context=hand.get("context", {}), variant=variant.id,
                  end=_public_end(log[end], hand["dealer"]), deal=deal, log=list(game.log))


def _state(game: Game, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    views = [game.view(s) for s in range(game.n)]
    step = {k: views[0][k] for k in _SHARED if k in views[0]}
    step["hands"] = [v["hand"] for v in views]
    step["drawn"] = [v["drawn"] for v in views]
    step["events"] = [e for e in events if e.get("type") != GameEventType.START]
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
        if ev.get("type") != GameEventType.ACTION:
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


_CACHE: OrderedDict[tuple[str, str, int], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 32
"""Replays of finished hands (a finished hand never changes), by room, commitment and
hand number."""


def _error(exc: LaiziError) -> JSONResponse:
    status = {ErrorCode.UNKNOWN_ROOM: 404, ErrorCode.UNKNOWN_TOKEN: 404,
              ErrorCode.NO_HAND: 404, ErrorCode.TABLE_OVER: 409,
              ErrorCode.HAND_IN_PROGRESS: 409, ErrorCode.KICKED: 403}.get(exc.code, 400)
    return JSONResponse({"error": dict(exc.to_json())}, status_code=status)


class _Holder(Protocol):
    """A member of a room as :func:`me` shows it."""

    @property
    def token(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def role(self) -> str: ...


class RecordedRoom(Protocol):
    """What the records of a room read of it (:class:`laizi.server.rooms.Room`)."""

    @property
    def code(self) -> str: ...

    @property
    def table(self) -> Table: ...

    @property
    def stored(self) -> int: ...

    @property
    def secret(self) -> str: ...

    @property
    def host(self) -> str: ...

    def member(self, token: str) -> _Holder: ...


async def _room(request: Request) -> RecordedRoom:
    """The room of the request's ``code`` (:meth:`laizi.server.hall.Hall.room`)."""
    return cast(RecordedRoom, await context_of(request).hall.room(request.path_params["code"]))


def _stored_log(room: RecordedRoom) -> list[Entry]:
    """The room's log lines that are stored: a line is applied before it is stored, and
    a line storage refused is taken back (``Room._reload``), so it is never served (nor
    a wall of a hand that did not end, nor its replay cached)."""
    return room.table.log[:room.stored]


async def records(request: Request) -> Response:
    try:
        room = await _room(request)
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse({"code": room.code, "variant": room.table.variant.id,
                         "hands": hand_records(_stored_log(room))})


async def replay_index(request: Request) -> Response:
    try:
        room = await _room(request)
    except LaiziError as exc:
        return _error(exc)
    log = _stored_log(room)
    closing = log[-1] if log and log[-1].get("type") == TableEventType.CLOSE else None
    out: dict[str, Any] = {
        "code": room.code, "variant": room.table.variant.id, "over": closing is not None,
        "commitment": log[0].get("commitment"),
        "hands": [{"number": h["number"], "seats": h["seats"], "dealer": h["dealer"],
                   "outcome": h["end"]["record"]["outcome"], "net": h["end"]["net"]}
                  for h in hand_records(log)]}
    if closing is not None and "secret" in closing:
        out["secret"] = closing["secret"]  # the close line is public: the match is over
    return JSONResponse(out)


async def replay_hand(request: Request) -> Response:
    raw = request.path_params["number"]
    try:
        room = await _room(request)
        if len(raw) > 9 or not (raw.isascii() and raw.isdigit()):  # not "²", not 10**6 digits
            raise TableError(f"no hand {raw[:12]!r} in room {room.code}",
                             code=ErrorCode.NO_HAND)
        number = int(raw)
        log = _stored_log(room)
        key = (room.code, str(log[0].get("commitment")), number)
        got = _CACHE.get(key)
        if got is None:
            hand = hand_replay(log, number, deals.parse_secret(room.secret))
            got = {"code": room.code, **{k: v for k, v in hand.items() if k != "log"},
                   "steps": replay_steps(hand["log"])}
            _CACHE[key] = got
            while len(_CACHE) > _CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
    except LaiziError as exc:
        return _error(exc)
    return JSONResponse(got)


async def me(request: Request) -> Response:
    """Who holds a seat token: ``{"name", "role", "host"}`` (the page of a person who
    came back by their link on another device)."""
    try:
        room = await _room(request)
        # the header (the page's way: a token in a URL reaches access logs) or ?token=
        member = room.member(request.headers.get(TOKEN_HEADER)
                             or request.query_params.get("token", ""))
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
