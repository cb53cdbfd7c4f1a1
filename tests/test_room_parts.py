"""The hall's room in parts, in process: typed client messages, the injected clock (a
:class:`FakeClock` moves time, so nothing here waits in real time), and the bot-failure
rule (a bot that raises or answers an illegal action is a reported error and the table's
default action is played for it, never a silent substitute).

A room is built on fake ports (:mod:`laizi.server.room_ports`): storage in a list, bots
that answer as a test says, a reporter that records."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import pytest

from laizi.engine.actions import Action
from laizi.errors import MalformedActionError
from laizi.server.room_messages import (
    Act,
    Dismiss,
    Ping,
    Refused,
    Start,
    parse_message,
)
from laizi.server.room_ports import BotRoom, RoomPorts, RoomRef
from laizi.server.rooms import (
    BOT_PREFIX,
    BotError,
    Connection,
    FakeClock,
    Member,
    Room,
    RoomSettings,
)
from laizi.table import deals
from laizi.table.events import canonical
from laizi.table.table import Table
from laizi.variants import get
from laizi.vocab import ActionType, ClientOp, Phase


@dataclasses.dataclass
class _Stored:
    lines: tuple[str, ...]
    secret: str


class ListStore:
    """Storage in memory (the room's store port)."""

    def __init__(self, secret: str) -> None:
        self.lines: list[str] = []
        self.secret = secret
        self.statuses: list[str] = []

    async def append(self, room: str, first: int, lines: Sequence[str],
                     hands: Sequence[tuple[int, str]] = (), status: str | None = None,
                     settings: dict[str, Any] | None = None) -> None:
        assert first == len(self.lines)
        self.lines.extend(lines)
        if status is not None:
            self.statuses.append(status)

    async def room(self, code: str) -> _Stored | None:
        return _Stored(tuple(self.lines), self.secret)

    async def add_member(self, token: str, room: str, name: str, role: str) -> None:
        return None


Choose = Callable[[Room, int, Sequence[Action]], Action]


class TestBots:
    """Bots that answer what ``answer`` says (the first legal action by default)."""

    __test__ = False

    def __init__(self, answer: Choose | None = None) -> None:
        self.answer = answer
        self.calls = 0

    async def choose(self, room: BotRoom, person: str, view: dict[str, Any],
                     legal: Sequence[Action]) -> Action:
        self.calls += 1
        if self.answer is None:
            return legal[0]
        assert isinstance(room, Room)
        return self.answer(room, room.table.seats.index(person), legal)


class Reports:
    """The reporter port: what went wrong, as told."""

    def __init__(self) -> None:
        self.errors: list[BaseException] = []
        self.bots: list[tuple[str, int, str, BaseException]] = []

    def report(self, room: RoomRef | None, exc: BaseException) -> None:
        self.errors.append(exc)

    def bot_failed(self, room: RoomRef, seat: int, bot: str, exc: BaseException) -> None:
        self.bots.append((room.code, seat, bot, exc))


@dataclasses.dataclass
class World:
    room: Room
    clock: FakeClock
    store: ListStore
    bots: TestBots
    reports: Reports
    host: Member


QUICK = {"clock": None, "claim_min": 0, "bot_delay": 0, "between": 0, "grace": 0}


async def make_room(answer: Choose | None = None, secret: bytes | None = None,
                    variant: str = "jingzhou", **settings: Any) -> World:
    """A room (Jingzhou by default): the host ``ann`` at seat 0, bots in the others (its
    deals from ``secret``, a new one by default)."""
    options = {"variant": variant, **QUICK, **settings}
    config = RoomSettings.from_json(options)
    secret = deals.new_secret() if secret is None else secret
    people = ["ann", *[f"{BOT_PREFIX}{i}" for i in range(1, get(variant).seats)]]
    table = Table(variant, config.options, people, secret=secret, max_hands=config.hands)
    clock, store, bots, reports = (FakeClock(), ListStore(deals.secret_hex(secret)),
                                   TestBots(answer), Reports())
    store.lines = [canonical(e) for e in table.log]  # as the hall stores a new room
    room = Room(RoomPorts(store=store, bots=bots, reporter=reports, clock=clock), "424242",
                config, table, deals.secret_hex(secret), "")
    async with room.lock:
        host = await room.add_member("ann", "player")
        room.host = host.token
        await room._store(settings=True)
    return World(room, clock, store, bots, reports, host)


class Frames:
    """A connection that keeps what it was sent (a remote one: no writer task)."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.conn = Connection(deliver=lambda text: self.sent.append(json.loads(text)))

    @property
    def latest(self) -> dict[str, Any]:
        return next(f for f in reversed(self.sent) if f["op"] == "state")


async def until(ok: Callable[[], bool], turns: int = 200_000) -> None:
    """Let the room's tasks run (no real time passes: nothing here sleeps but the fake
    clock) until ``ok`` holds."""
    for _ in range(turns):
        if ok():
            return
        await asyncio.sleep(0)
    raise AssertionError("the room never got there")


async def host_turn(w: World) -> tuple[Frames, dict[str, Any]]:
    """The host's connection attached, the room started and its first turn come (the room
    waits on it: no clock): the frames it keeps, and that turn's state frame."""
    host = Frames()
    await w.room.attach(w.host, host.conn)
    assert (await w.room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
    await until(lambda: bool(host.latest["legal"])
                and host.latest["view"]["phase"] == Phase.TURN)
    return host, host.latest


def run(coro: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(coro())


# --------------------------------------------------------------------------- messages


def test_client_messages_are_typed_once() -> None:
    e = parse_message({"op": "act", "seq": 3, "action": {"type": "pass", "seat": 1},
                       "version": 7})
    assert e.seq == 3 and e.op == ClientOp.ACT
    assert e.message == Act({"type": "pass", "seat": 1}, 7)
    assert parse_message({"op": "dismiss"}).message == Dismiss(True)
    assert parse_message({"op": "ping", "seq": 0}).message == Ping()
    assert isinstance(parse_message({"op": "start"}).message, Start)
    # The same message in another key order is the same message (a resent one).
    assert parse_message({"seq": 1, "op": "ping"}).said == parse_message(
        {"op": "ping", "seq": 1}).said


@pytest.mark.parametrize("op", list(ClientOp))
def test_every_op_parses_into_its_own_type_with_its_fields(op: ClientOp) -> None:
    """Every op has a message type (its ``op``), whose fields a message fills by name; a
    field left out takes the type's default."""
    bare = parse_message({"op": op.value, "id": "nice"} if op == ClientOp.PHRASE
                         else {"op": op.value}).message
    assert not isinstance(bare, Refused) and bare.op == op
    names = [f.name for f in dataclasses.fields(bare)]
    sent = {name: "nice" if op == ClientOp.PHRASE else [name] for name in names}
    full = parse_message({"op": op.value, **sent}).message
    assert type(full) is type(bare)
    assert {name: getattr(full, name) for name in names} == sent


@pytest.mark.parametrize(("msg", "text"), [
    ({"op": "fly"}, "unknown op 'fly'; ops: act, start, pause, resume, end, dismiss, back, "
                    "horse, entropy, ready, ping, sit"),
    ({"op": 3}, "unknown op 3; ops: act"),
    ({"op": "ping", "x": 1, "a": 2}, "unknown field(s) a, x for 'ping'"),
    ({"op": "horse", "value": "x"}, "unknown field(s) value for 'horse'"),
])
def test_unknown_ops_and_fields_are_refused_as_before(msg: dict[str, Any],
                                                      text: str) -> None:
    refused = parse_message(msg).message
    assert isinstance(refused, Refused)
    assert refused.error.message.startswith(text)


@pytest.mark.parametrize(("msg", "text"), [
    ([1], "a message is a JSON object"), ({"op": "ping", "seq": True}, "seq must be an int"),
    ({"op": "ping", "seq": -1}, "seq must be an int"),
])
def test_what_is_no_message_is_refused_at_once(msg: object, text: str) -> None:
    with pytest.raises(MalformedActionError, match=text):
        parse_message(msg)


def test_a_closed_room_refuses_all_but_ping_first() -> None:
    """A room that is over answers ``table_over`` before it looks at the op (an unknown
    op too), and ``ping`` is still read (its unknown fields refused)."""
    async def go() -> None:
        w = await make_room()
        assert (await w.room.handle(w.host, {"op": "end", "seq": 1}))["op"] == "ack"
        for msg, code in (({"op": "fly", "seq": 2}, "table_over"),
                          ({"op": "ready", "seq": 3}, "table_over"),
                          ({"op": "ping", "seq": 4, "x": 1}, "malformed")):
            answer = await w.room.handle(w.host, msg)
            assert answer is not None and answer["error"]["code"] == code, answer
        pong = await w.room.handle(w.host, {"op": "ping", "seq": 5})
        assert pong == {"op": "ack", "seq": 5, "pong": True}

    run(go)


# --------------------------------------------------------------------------- the clock


def test_the_fake_clock_wakes_sleepers_in_order() -> None:
    async def go() -> None:
        clock = FakeClock()
        woke: list[str] = []

        async def nap(name: str, seconds: float) -> None:
            await clock.sleep(seconds)
            woke.append(name)

        tasks = [asyncio.create_task(nap("b", 2)), asyncio.create_task(nap("a", 1))]
        await asyncio.sleep(0)
        assert clock.sleepers == 2
        await clock.advance(0.5)
        assert woke == []
        await clock.advance(1)
        assert woke == ["a"]
        tasks[0].cancel()
        await clock.advance(10)
        assert woke == ["a"] and clock.monotonic() == 1011.5

    run(go)


def test_a_person_cannot_send_a_wrong_win_even_where_the_rules_settle_one() -> None:
    """错和 (``wrong_win``) is a Botzone program's answer at an MCR ``profile=botzone``
    table, never a person's: the hall refuses it (``unknown_type``) on the host's turn,
    no button offers it, and nothing changes."""
    async def go() -> None:
        w = await make_room(variant="mcr", options={"profile": "botzone"})
        room = w.room
        _, frame = await host_turn(w)
        assert all(a["type"] != ActionType.WRONG_WIN for a in frame["legal"])
        log, stored = list(room.table.log), list(w.store.lines)
        answer = await room.handle(w.host, {"op": "act", "seq": 2, "version": frame["version"],
                                            "action": {"type": "wrong_win", "seat": 0}})
        assert answer is not None and answer["op"] == "error", answer
        assert answer["error"]["code"] == "unknown_type"
        assert (room.table.log, w.store.lines) == (log, stored)
        await room.stop()

    run(go)


def test_a_room_paused_mid_hand_plays_no_bot_turn_when_its_time_comes() -> None:
    """The host discards and pauses at once: the bots' turns (``bot_delay`` 1 s) come and
    go on the fake clock and none is played or stored; resuming plays them."""
    async def go() -> None:
        w = await make_room(bot_delay=1)
        room = w.room
        _, frame = await host_turn(w)
        discard = next(a for a in frame["legal"] if a["type"] == ActionType.DISCARD)
        answer = await room.handle(w.host, {"op": "act", "seq": 2, "action": discard,
                                            "version": frame["version"]})
        assert answer is not None and answer["op"] == "ack"
        assert (await room.handle(w.host, {"op": "pause", "seq": 3}))["op"] == "ack"
        log, stored = len(room.table.log), len(w.store.lines)
        await w.clock.advance(5)  # five bot delays came and went
        assert (len(room.table.log), len(w.store.lines)) == (log, stored)
        assert (await room.handle(w.host, {"op": "resume", "seq": 4}))["op"] == "ack"
        await w.clock.advance(5)
        await until(lambda: len(room.table.log) > log)
        assert not w.reports.errors
        await room.stop()

    run(go)


def test_a_paused_room_deals_no_hand_when_its_time_comes() -> None:
    """The host pauses between hands (``between`` 3 s): the next deal's time comes and
    goes (on the fake clock), none is dealt; the host leaves: the spectator is told at
    once that the room waits for people."""
    async def go() -> None:
        w = await make_room(between=3)
        room = w.room
        async with room.lock:
            sue = await room.add_member("sue", "spectator")
        host, watch = Frames(), Frames()
        await room.attach(w.host, host.conn)
        await room.attach(sue, watch.conn)
        room.auto.add("ann")  # a bot plays the host's seat: the hand plays by itself
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        await until(lambda: room.table.number == 1 and not room.table.in_hand)
        assert (await room.handle(w.host, {"op": "pause", "seq": 2}))["op"] == "ack"
        await w.clock.advance(3.5)  # the next deal's time came and went
        assert room.table.number == 1 and not room.table.in_hand
        state = watch.latest["room"]
        assert state["paused"] and not state["in_hand"] and not state["idle"]
        await room.detach(w.host, host.conn)
        await until(lambda: bool(watch.latest["room"]["idle"]))
        assert room.table.number == 1 and watch.latest["room"]["paused"]
        assert not w.reports.errors
        await room.stop()

    run(go)


def test_a_room_everybody_left_deals_nothing_however_long_it_waits() -> None:
    """The host leaves mid-hand: the bots finish it (托管 after ``grace``, on the fake
    clock), then the room waits for people however much time passes; the host's
    connection brings the next hand."""
    async def go() -> None:
        w = await make_room()
        room = w.room
        host = Frames()
        await room.attach(w.host, host.conn)
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        await until(lambda: room.table.in_hand)
        await room.detach(w.host, host.conn)
        await w.clock.advance(0)  # grace 0: 托管 at once
        await until(lambda: "ann" in room.auto)
        await until(lambda: not room.table.in_hand)
        await until(room.waits_for_people)
        hands, lines = room.table.number, len(w.store.lines)
        await w.clock.advance(3600)
        assert room.table.number == hands and len(w.store.lines) == lines
        assert room.info()["idle"]
        back = Frames()
        await room.attach(w.host, back.conn)
        await until(lambda: room.table.number > hands)
        assert "ann" not in room.auto and not room.info()["idle"]
        await room.stop()

    run(go)


def test_a_person_clock_runs_out_on_the_fake_clock() -> None:
    """A person's turn clock (``clock`` 20 s) counts on the room's clock: the frame's
    deadline is read from it, and when it runs out the default action is played and
    the person is on 托管."""
    async def go() -> None:
        w = await make_room(clock=20)
        room = w.room
        host = Frames()
        await room.attach(w.host, host.conn)
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"

        def asked() -> bool:
            g = room.table.game
            return (g is not None and g.phase == Phase.TURN and 0 in room.table.to_act()
                    and bool(host.latest["legal"]))

        for _ in range(50):  # a claim prompt of the host's may come first: it runs out (过)
            await until(lambda: 0 in room._deadlines)
            if asked():
                break
            await w.clock.advance(20)
        assert asked() and host.latest["deadline"] == 20.0
        await w.clock.advance(19)
        assert "ann" not in room.auto
        await w.clock.advance(1)
        await until(lambda: "ann" in room.auto)
        await room.stop()

    run(go)


# --------------------------------------------------------------------------- bots


def _other_seat(room: Room, seat: int, legal: Sequence[Action]) -> Action:
    # Another seat's action: never legal for this seat.
    return dataclasses.replace(legal[0], seat=(seat + 1) % len(room.table.seats))


def _raises(room: Room, seat: int, legal: Sequence[Action]) -> Action:
    raise RuntimeError("a bot's bug")


@pytest.mark.parametrize("answer", [_other_seat, _raises])
def test_a_failing_bot_is_reported_and_the_default_action_played(answer: Choose) -> None:
    """A bot that answers an illegal action, or raises: the failure is reported with the
    room, the seat and the bot, and the seat plays the table's default action (not the
    first legal one in silence)."""
    async def go() -> None:
        w = await make_room(answer)
        room = w.room
        t = room.table
        room.started = True
        t.start_hand()
        seat = next(s for s in t.to_act() if len(t.legal_actions(s)) > 1)
        default = t.default_action(seat)
        choice = await room._bot_choice(seat)
        assert choice == default and w.bots.calls == 1
        ((code, where, bot, exc),) = w.reports.bots
        assert (code, where, bot) == ("424242", seat, t.person_at(seat))
        if answer is _other_seat:
            assert isinstance(exc, BotError)
            assert exc.seat == seat and "illegal" in exc.message
        else:
            assert isinstance(exc, RuntimeError)

    run(go)


def test_a_match_of_failing_bots_ends_with_every_failure_reported() -> None:
    """Every bot answers illegally for a whole hand: the hand ends, each failure was
    reported (none silent), and every action in the log is legal (the table took it)."""
    async def go() -> None:
        w = await make_room(_other_seat, hands=1, pause_empty=False)
        room = w.room
        room.auto.add("ann")
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        await until(lambda: room.closed)
        assert w.bots.calls > 10 and len(w.reports.bots) == w.bots.calls
        assert not w.reports.errors
        assert any(e["type"] == "action" and e["action"]["type"] == ActionType.DISCARD
                   for e in room.table.log)

    run(go)


def test_the_bot_pool_hands_back_an_illegal_answer_and_the_hall_counts_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The hall's bot pool no longer puts ``legal[0]`` in place of an illegal answer: the
    room sees it, and the hall logs the failure with the seat and the bot, and counts
    it."""
    from laizi.server import hall as hall_module
    from laizi.server.hall import BotPool, Hall

    class Wrong:
        def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
            return Action(ActionType.PASS, 3)

    monkeypatch.setattr(hall_module, "make_bot", lambda spec, seed=0: Wrong())

    async def go() -> None:
        pool = BotPool()
        w = await make_room()
        legal = [Action(ActionType.DISCARD, 0, 5), Action(ActionType.DISCARD, 0, 6)]
        assert await pool.choose(w.room, "🤖 1", {}, legal) == Action(ActionType.PASS, 3)
        hall = Hall(w.store, pool)  # a list is store enough here
        hall.bot_failed(w.room, 2, "🤖 2", BotError("the bot answered an illegal action"))
        assert hall.errors == hall.bot_failures == 1

    run(go)
    err = capsys.readouterr().err
    assert "room 424242: seat 2, bot '🤖 2'" in err and "default action" in err
