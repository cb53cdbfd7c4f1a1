"""Rooms with nobody present pause (issue 38): with ``pause_empty`` (the default) a room
whose players have all gone finishes its hand and deals no other, its ledger stays where
it is (a spectator alone does not keep the bots playing), ``info()["idle"]`` says so, and
the room plays on by itself when a player's connection comes back; and bots that gave
up their seats before they played a hand are not listed in the ledger.

A real ``laizi serve`` on SQLite, websocket clients of :mod:`server_helpers`. What needs
time to pass (a paused room whose next deal's time comes and goes; an idle room however
long it waits) is in tests/test_room_parts.py, on a fake clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from server_helpers import (
    FAST,
    HTTP,
    Client,
    Server,
    create_room,
    join,
    room_info,
    settle,
    sqlite_hall,  # skips this module without the server extras (not in CI)
    stored_lines,
    stored_table,
    unique,
    wait_for_info,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "idle") as srv:
        yield srv


def test_a_room_everybody_left_waits_for_people(server: Server) -> None:
    """The host leaves mid-hand: the bots finish the hand (托管 after ``grace``) and no
    other is dealt — nothing more is stored, the ledger does not move, a spectator alone
    changes nothing, ``idle`` is true; the host's connection brings the next hand."""
    host = unique("ann")
    room = create_room(server, host, variant="jingzhou", **{**FAST, "grace": 0})
    code = room["code"]
    sue_name = unique("sue")
    sue = join(server, code, sue_name, "spectator")

    async def first() -> None:
        c = Client(server, code, room["token"], host, seed=3)
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        await c.play(until=lambda c: len(c.acked) >= 2)
        await c.close()

    asyncio.run(first())
    info = wait_for_info(server, code, lambda i: i["idle"])
    left = info["hands"]  # 1, or more when a bot won before the host's answers were in
    assert left >= 1 and not info["in_hand"] and info["started"]
    lines = settle(server.db_url, code, quiet=0.5)
    ledger = room_info(server, code)["ledger"]

    async def watch() -> None:
        s = Client(server, code, sue["token"], sue_name, spectator=True)
        frame = await s.connect()
        assert frame["room"]["idle"] is True
        # between = 0: a hand the spectator's connection started would be dealt before
        # the room reads the next message (the deal waits for the room's lock first), so
        # its frame would come before the answer to a ping.
        assert (await s.request("ping"))["op"] == "ack"
        assert s.latest is not None and s.latest["room"]["idle"] is True
        assert s.latest["room"]["hands"] == left
        await s.close()

    asyncio.run(watch())
    assert stored_lines(server.db_url, code) == lines
    info = room_info(server, code)
    assert info["idle"] and info["hands"] == left and info["ledger"] == ledger

    async def back() -> None:
        c = Client(server, code, room["token"], host, seed=4)
        await c.connect()
        await c.wait(lambda: bool(c.latest and c.latest["room"]["hands"] > left))
        assert c.latest is not None and c.latest["room"]["idle"] is False
        assert (await c.request("end"))["op"] == "ack"
        await c.wait(lambda: c.over)
        await c.close()

    asyncio.run(back())
    assert stored_table(server.db_url, code).number > left


def test_spectators_are_told_at_once_when_the_last_player_leaves(server: Server) -> None:
    """The last player leaves between hands (a long pause before the next deal): the
    spectator is told at once that the room waits for people, not when the hand would
    have been dealt."""
    host = unique("fay")
    room = create_room(server, host, variant="jingzhou", **{**FAST, "between": 60})
    code = room["code"]
    sue_name = unique("sue")
    sue = join(server, code, sue_name, "spectator")

    async def go() -> None:
        c = Client(server, code, room["token"], host, seed=12)
        s = Client(server, code, sue["token"], sue_name, spectator=True)
        await c.connect()
        await s.connect()
        assert (await c.request("start"))["op"] == "ack"
        await c.play(until=lambda c: c.latest is not None and c.latest["room"]["hands"] == 1
                     and not c.latest["room"]["in_hand"])
        assert s.latest is not None and not s.latest["room"]["idle"]
        await c.close()
        await s.wait(lambda: bool(s.latest and s.latest["room"]["idle"]), 3)
        await s.close()

    asyncio.run(go())
    info = room_info(server, code)
    assert info["idle"] and info["hands"] == 1


def test_a_person_back_in_an_idle_room_plays_the_next_hand_not_tuoguan(
        server: Server) -> None:
    """The host left mid-hand and was put on 托管 (``grace`` 0) while the bots finished
    it; back in the idle room, the host plays the next hand: off 托管, asked for their
    own turn, without tapping 我回来了."""
    host = unique("gus")
    room = create_room(server, host, variant="jingzhou", **{**FAST, "grace": 0})
    code = room["code"]

    async def first() -> None:
        c = Client(server, code, room["token"], host, seed=21)
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        await c.play(until=lambda c: len(c.acked) >= 2)
        await c.close()

    asyncio.run(first())
    info = wait_for_info(server, code, lambda i: i["idle"])
    left = info["hands"]  # 1, or more when a bot won before the host's answers were in
    assert info["auto"] == [host] and left >= 1

    async def back() -> None:
        c = Client(server, code, room["token"], host, seed=22)
        frame = await c.connect()
        assert frame["room"]["auto"] == []
        await c.wait(lambda: bool(c.latest and c.latest["room"]["hands"] > left))
        assert c.latest is not None and c.latest["room"]["auto"] == []
        # Asked (a turn, or a real claim prompt that came first): not played by a bot.
        await c.wait(lambda: bool(c.latest and c.latest["legal"]), 30)
        # (the next hand, or a later one when a bot won it before the host was asked:
        # the host is here, so another is dealt at once)
        assert c.latest["room"]["hands"] > left and c.latest["room"]["auto"] == []
        assert (await c.request("end"))["op"] == "ack"
        await c.wait(lambda: c.over)
        await c.close()

    asyncio.run(back())


def test_a_room_may_play_on_without_people(server: Server) -> None:
    """``pause_empty: false``: the bots play the room out with nobody connected."""
    host = unique("bo")
    room = create_room(server, host, variant="jingzhou", hands=3,
                       **{**FAST, "grace": 0, "pause_empty": False})
    code = room["code"]
    assert room_info(server, code)["settings"]["pause_empty"] is False

    async def first() -> None:
        c = Client(server, code, room["token"], host, seed=5)
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        await c.close()

    asyncio.run(first())
    info = wait_for_info(server, code, lambda i: i["over"], timeout=60)
    assert info["hands"] == 3 and info["idle"] is False


def test_pause_empty_is_a_checked_setting(server: Server) -> None:
    r = HTTP.post(f"{server.http}/api/rooms", json={"name": unique("cy"), "settings": {
        "variant": "jingzhou", "pause_empty": "yes"}})
    assert r.status_code == 400 and r.json()["error"]["code"] == "malformed", r.text
    made = create_room(server, unique("cy"), variant="jingzhou")
    info = room_info(server, made["code"])
    assert info["settings"]["pause_empty"] is True and info["idle"] is False


def test_bots_who_gave_up_their_seats_leave_the_ledger(server: Server) -> None:
    """Two people take two bots' seats before the first hand: the ledger lists the people
    and the bot who plays, not the bots who never played a hand (they are 0 columns)."""
    host = unique("di")
    room = create_room(server, host, variant="jingzhou", hands=1, **FAST)
    code = room["code"]
    bob_name = unique("bob")
    bob = join(server, code, bob_name, "player")
    info = room_info(server, code)
    assert info["seats"] == [host, bob_name, "🤖 2"]
    gone = {"🤖 1"}  # the first bot's seat went to bob
    assert set(info["ledger"]) == {host, bob_name, "🤖 2"}, info["ledger"]

    async def go() -> Client:
        c = Client(server, code, room["token"], host, seed=6)
        b = Client(server, code, bob["token"], bob_name, seed=7)
        await c.connect()
        await b.connect()
        assert (await c.request("start"))["op"] == "ack"
        await asyncio.gather(c.play(), b.play())
        await c.close()
        await b.close()
        return c

    c = asyncio.run(go())
    assert c.latest is not None
    ledger = c.latest["room"]["ledger"]
    assert not gone & set(ledger) and sum(ledger.values()) == 0
    table = stored_table(server.db_url, code)
    assert "🤖 1" in table.ledger  # the table's own ledger (and its log) keep the entry
    assert ledger == {p: v for p, v in table.ledger.items() if p not in gone}
    assert c.latest["view"]["table"]["ledger"] == ledger

