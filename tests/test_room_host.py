"""The host's powers over people (房主): ``kick`` (a bot plays the seat from now on; the
person's token and name are refused for good), ``host`` (hand the role over), ``lock``
(no newcomers). In process on the fake clock (tests/test_room_parts.py builds the room),
then over a real hall: the refusals on the websocket and over HTTP, and a lock and a kick
that survive a restart."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator
from typing import Any

import pytest
import websockets

from laizi.errors import ErrorCode, TableError
from laizi.server.room_host import CLOSE_KICKED
from laizi.server.room_messages import HandOver, Kick, Lock, parse_message
from laizi.server.rooms import BOT_PREFIX, Connection, Member, Room
from laizi.table import deals
from laizi.table.events import canonical
from laizi.table.table import Table
from server_helpers import (
    FAST,
    HTTP,
    Client,
    Server,
    check_clean,
    create_room,
    join,
    room_info,
    sqlite_url,
    wait_for_info,
)
from test_room_parts import Frames, ListStore, World, make_room, run, until


class Closing(Frames):
    """A connection that keeps its frames and the close code it was closed with."""

    def __init__(self) -> None:
        super().__init__()
        self.closed: list[int] = []

        async def close(code: int) -> None:
            self.closed.append(code)

        self.conn = Connection(deliver=lambda text: self.sent.append(json.loads(text)),
                               close=close)


async def ask(room: Room, member: Member, op: str, seq: int, **fields: Any) -> dict[str, Any]:
    answer = await room.handle(member, {"op": op, "seq": seq, **fields})
    assert answer is not None
    return dict(answer)


def code_of(answer: dict[str, Any]) -> str:
    return str(answer["error"]["code"]) if answer["op"] == "error" else "ack"


def replays(room: Room) -> None:
    """The room's log, as stored, rebuilds the same table (``Table.from_log``)."""
    lines = [canonical(e) for e in room.table.log]
    again = Table.from_log(lines, secret=deals.parse_secret(room.secret))
    assert [canonical(e) for e in again.log] == lines
    assert again.seats == room.table.seats and again.standing == room.table.standing


async def with_bob(w: World) -> tuple[Member, Closing, Closing]:
    """``bob`` joins before the match (he takes a bot's seat); both connect."""
    async with w.room.lock:
        bob = await w.room.add_member("bob", "player")
    host, his = Closing(), Closing()
    await w.room.attach(w.host, host.conn)
    await w.room.attach(bob, his.conn)
    return bob, host, his


def test_the_host_messages_are_typed() -> None:
    assert parse_message({"op": "kick", "person": "bob"}).message == Kick("bob")
    assert parse_message({"op": "host", "person": "bob"}).message == HandOver("bob")
    assert parse_message({"op": "lock", "locked": True}).message == Lock(True)


def test_only_the_host_kicks_hands_over_or_locks_and_a_refusal_changes_nothing() -> None:
    async def go() -> None:
        w = await make_room()
        room = w.room
        bob, _, _ = await with_bob(w)
        before = (json.dumps(room.info(), sort_keys=True), len(room.table.log),
                  set(room.members))
        for seq, (op, fields) in enumerate((("kick", {"person": "ann"}),
                                            ("host", {"person": "bob"}),
                                            ("lock", {"locked": True}))):
            answer = await ask(room, bob, op, seq, **fields)
            assert code_of(answer) == ErrorCode.NOT_HOST, answer
        # The host cannot kick themselves, nor anybody who is not here; bad fields.
        for seq, (op, fields, code) in enumerate((
                ("kick", {"person": "ann"}, ErrorCode.TABLE_RULE),
                ("kick", {"person": "zed"}, ErrorCode.TABLE_RULE),
                ("kick", {"person": 3}, ErrorCode.MALFORMED),
                ("host", {"person": "ann"}, ErrorCode.TABLE_RULE),
                ("lock", {"locked": "yes"}, ErrorCode.MALFORMED)), start=10):
            assert code_of(await ask(room, w.host, op, seq, **fields)) == code
        after = (json.dumps(room.info(), sort_keys=True), len(room.table.log),
                 set(room.members))
        assert after == before
        await room.stop()

    run(go)


def test_a_kick_between_hands_seats_a_bot_and_bars_the_person() -> None:
    """Before the first hand: bob's seat goes to a new bot at once (``leave``, ``join``
    in the table's log, which replays); his connection is told ``kicked`` and closed
    4410; his token and his name are refused from then on."""
    async def go() -> None:
        w = await make_room()
        room = w.room
        bob, host, his = await with_bob(w)
        seat = room.table.seats.index("bob")
        known = set(room.table.standing)  # 🤖 1, whose seat bob took, is in the ledger
        assert code_of(await ask(room, w.host, "kick", 1, person="bob")) == "ack"
        new = room.table.seats[seat]
        assert new is not None and new.startswith(BOT_PREFIX)
        assert new not in known  # a new bot: a bot that left keeps its own score
        assert [e["type"] for e in room.table.log[-2:]] == ["leave", "join"]
        assert w.store.lines == [canonical(e) for e in room.table.log]  # stored
        replays(room)
        await until(lambda: his.closed == [CLOSE_KICKED])
        assert his.sent[-1]["op"] == "error" and his.sent[-1]["error"]["code"] == "kicked"
        assert host.latest["room"]["seats"][seat] == new
        with pytest.raises(TableError) as refused:
            room.member(bob.token)
        assert refused.value.code == ErrorCode.KICKED
        async with room.lock:
            with pytest.raises(TableError) as again:
                await room.add_member("bob", "spectator")
        assert again.value.code == ErrorCode.KICKED
        # A message that was on its way when he was kicked is refused too.
        assert code_of(await ask(room, bob, "ready", 2)) == ErrorCode.KICKED
        await room.stop()

    run(go)


def test_a_kick_during_a_hand_hands_the_seat_to_a_bot_until_the_hand_ends() -> None:
    """Mid-hand the table does not change: bob's seat is played by a bot (shown as
    ``auto``), the hand plays to its end, then he leaves the table and a bot sits; the
    log replays."""
    async def go() -> None:
        w = await make_room(clock=20)
        room = w.room
        _, host, his = await with_bob(w)
        room.auto.add("ann")  # the host's seat plays itself: only bob's clock could stall
        assert code_of(await ask(room, w.host, "start", 1)) == "ack"
        await until(lambda: room.table.in_hand)
        number, log = room.table.number, len(room.table.log)
        assert code_of(await ask(room, w.host, "kick", 2, person="bob")) == "ack"
        assert "bob" in room.table.seats and "bob" in host.latest["room"]["auto"]
        # ... and listed as kicked: the host's panel offers him no more (room.js)
        assert host.latest["room"]["kicked"] == ["bob"]
        # Nothing of the hand changed: no line but the hand's own actions since.
        assert {e["type"] for e in room.table.log[log:]} <= {"action"}
        assert room.persons_seated() == ["ann"]
        await until(lambda: room.table.number > number or not room.table.in_hand)
        await until(lambda: "bob" not in room.table.seats)
        assert room.info()["kicked"] == []  # his seat is a bot's now
        assert "bob" in room.table.standing  # his score stays in the ledger
        assert any(e["type"] == "leave" and e["person"] == "bob" for e in room.table.log)
        assert his.closed == [CLOSE_KICKED] and not w.reports.errors
        # The fake clock never moved: had bob's 20 s clock been left running, his seat
        # would have waited for it, and the hand would never have ended.
        replays(room)
        await room.stop()

    run(go)


def test_in_huanghuang_the_front_of_the_waiting_list_takes_the_kicked_seat() -> None:
    """晃晃: four people seated and one waiting; the host kicks a seated one between hands:
    the waiting person sits down (no bot), as when a person leaves; the log replays."""
    async def go() -> None:
        w = await make_room()
        secret = deals.new_secret()
        table = Table("huanghuang", {}, ["ann", *[f"{BOT_PREFIX}{i}" for i in (1, 2, 3)]],
                      secret=secret)
        store = ListStore(deals.secret_hex(secret))
        store.lines = [canonical(e) for e in table.log]
        ports = dataclasses.replace(w.room.ports, store=store)
        room = Room(ports, "515151", w.room.settings, table, deals.secret_hex(secret), "")
        async with room.lock:
            ann = await room.add_member("ann", "player")
            room.host = ann.token
            for name in ("bo", "cy", "di", "ed"):
                await room.add_member(name, "player")
        assert room.table.seats == ("ann", "bo", "cy", "di") and room.table.waiting == ("ed",)
        assert code_of(await ask(room, ann, "kick", 1, person="cy")) == "ack"
        assert room.table.seats == ("ann", "bo", "ed", "di") and room.table.waiting == ()
        assert room.table.log[-1] == {"type": "leave", "person": "cy"}
        assert store.lines == [canonical(e) for e in room.table.log]
        replays(room)
        await room.stop()

    run(go)


def test_a_dismiss_vote_waiting_only_for_the_kicked_person_passes() -> None:
    """Everybody else at the table agreed to dismiss (解散); the one left is kicked: the
    vote is complete and the room ends."""
    async def go() -> None:
        w = await make_room()
        room = w.room
        bob, _, _ = await with_bob(w)
        async with room.lock:
            cat = await room.add_member("cat", "player")
        room.auto.update({"ann", "bob", "cat"})  # the hand plays by itself
        assert code_of(await ask(room, w.host, "start", 1)) == "ack"
        await until(lambda: room.table.in_hand)
        assert code_of(await ask(room, w.host, "dismiss", 2)) == "ack"
        assert code_of(await ask(room, bob, "dismiss", 3)) == "ack"
        assert not room.closed
        assert code_of(await ask(room, w.host, "kick", 4, person="cat")) == "ack"
        assert room.closed and room.info()["over"]
        assert cat.token in room.kicked
        await room.stop()

    run(go)


def test_a_spectator_can_be_kicked() -> None:
    async def go() -> None:
        w = await make_room()
        room = w.room
        async with room.lock:
            sam = await room.add_member("sam", "spectator")
        watch = Closing()
        await room.attach(sam, watch.conn)
        log = len(room.table.log)
        assert code_of(await ask(room, w.host, "kick", 1, person="sam")) == "ack"
        assert room.info()["spectators"] == [] and len(room.table.log) == log
        await until(lambda: watch.closed == [CLOSE_KICKED])
        await room.stop()

    run(go)


def test_handing_over_moves_the_powers() -> None:
    async def go() -> None:
        w = await make_room()
        room = w.room
        bob, host, his = await with_bob(w)
        async with room.lock:
            await room.add_member("sam", "spectator")
        answer = await ask(room, w.host, "host", 1, person="sam")
        assert code_of(answer) == ErrorCode.TABLE_RULE  # a spectator is not made host
        assert code_of(await ask(room, w.host, "host", 2, person="bob")) == "ack"
        assert room.host == bob.token
        assert host.latest["room"]["host"] == his.latest["room"]["host"] == "bob"
        assert code_of(await ask(room, w.host, "lock", 3, locked=True)) == ErrorCode.NOT_HOST
        assert code_of(await ask(room, bob, "lock", 4, locked=True)) == "ack"
        assert code_of(await ask(room, bob, "kick", 5, person="ann")) == "ack"
        assert "ann" not in room.table.seats
        await room.stop()

    run(go)


def test_a_locked_room_refuses_newcomers_not_its_members() -> None:
    async def go() -> None:
        w = await make_room()
        room = w.room
        bob, host, _ = await with_bob(w)
        assert code_of(await ask(room, w.host, "lock", 1, locked=True)) == "ack"
        assert host.latest["room"]["locked"] is True
        for role in ("player", "spectator"):
            async with room.lock:
                with pytest.raises(TableError) as refused:
                    await room.add_member("cat", role)
            assert refused.value.code == ErrorCode.ROOM_LOCKED
        assert code_of(await ask(room, bob, "ready", 2)) == "ack"  # members play on
        assert code_of(await ask(room, w.host, "lock", 3, locked=False)) == "ack"
        async with room.lock:
            await room.add_member("cat", "spectator")
        assert room.info()["locked"] is False
        await room.stop()

    run(go)


# --------------------------------------------------------------------------- a real hall


@pytest.fixture
def hall(tmp_path: Any) -> Iterator[Server]:
    server = Server(sqlite_url(tmp_path / "hall.db"), tmp_path).start()
    try:
        yield server
        check_clean(server)
    finally:
        server.kill()


def refused_everywhere(server: Server, code: str, token: str) -> None:
    """bob's token and name, and any newcomer, are refused by the room."""
    me = HTTP.get(f"{server.http}/api/rooms/{code}/me", headers={"X-Laizi-Token": token},
                  timeout=10)
    assert me.status_code == 403 and me.json()["error"]["code"] == "kicked"
    for name, why in (("bob", "kicked"), ("cat", "room_locked")):
        r = HTTP.post(f"{server.http}/api/rooms/{code}/join",
                      json={"name": name, "role": "spectator"}, timeout=10)
        assert r.status_code == 403 and r.json()["error"]["code"] == why, r.text

    async def socket() -> None:
        async with websockets.connect(f"{server.ws}/ws/{code}") as ws:
            await ws.send(json.dumps({"op": "hello", "token": token}))
            frame = json.loads(await ws.recv())
            assert frame["error"]["code"] == "kicked"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            assert ws.close_code == CLOSE_KICKED

    asyncio.run(socket())


def test_over_a_real_hall_a_kick_and_a_lock_hold_across_a_restart(hall: Server) -> None:
    """The host kicks bob over the websocket: bob's socket gets ``kicked`` and closes
    4410; his token is refused (``/me`` 403, a new socket closed 4410) and his name may
    not join again (403); the host locks the room: a newcomer is refused 403
    ``room_locked``. After a restart all of it still holds, and the host still plays."""
    room = create_room(hall, "ann", variant="jingzhou", **FAST)
    code = room["code"]
    bob = join(hall, code, "bob")

    async def go() -> None:
        ann = Client(hall, code, room["token"], "ann")
        his = Client(hall, code, bob["token"], "bob")
        await ann.connect()
        await his.connect()
        assert (await his.request("kick", person="ann"))["error"]["code"] == "not_host"
        assert (await ann.request("kick", person="bob"))["op"] == "ack"
        refusal = await his.answer()
        assert refusal["seq"] is None and refusal["error"]["code"] == "kicked"
        await asyncio.wait_for(his.closed.wait(), 10)
        assert his.ws.close_code == CLOSE_KICKED
        assert (await ann.request("lock", locked=True))["op"] == "ack"
        await ann.wait(lambda: ann.latest is not None and ann.latest["room"]["locked"])
        await ann.close()

    asyncio.run(go())
    refused_everywhere(hall, code, bob["token"])
    info = room_info(hall, code)
    assert info["locked"] and "bob" not in info["seats"]
    hall.kill()
    hall.start()
    info = wait_for_info(hall, code, lambda i: i["locked"])
    assert "bob" not in info["seats"] and info["host"] == "ann"
    refused_everywhere(hall, code, bob["token"])

    async def host_plays_on() -> None:
        ann = Client(hall, code, room["token"], "ann")
        first = await ann.connect()
        assert first["room"]["host"] == "ann"
        assert (await ann.request("start"))["op"] == "ack"
        await ann.close()

    asyncio.run(host_plays_on())
