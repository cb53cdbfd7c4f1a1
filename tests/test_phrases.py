"""Quick phrases and emoji at the table (快捷语 / 表情): a person sends one of a fixed set
by its id; the room sends it to everybody in it, players and spectators, as a ``phrase``
frame (no log line, no state frame); an unknown id is refused ``malformed`` and a person
over their rate ``rate_limited``, and then nobody is sent anything.

In process, on the fake clock (tests/test_room_parts.py builds the room), and once over a
real hall's websockets (``laizi serve``, tests/server_helpers.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from laizi.server.room_dispatch import PHRASE_BURST, PHRASE_EVERY
from laizi.server.room_messages import Phrase, Refused, parse_message
from laizi.vocab import QuickPhrase
from server_helpers import Client, Server, create_room, join, sqlite_hall
from test_room_parts import Frames, World, make_room, run


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # The hall's own limit on phrases, not the tests' generous message limits, applies.
    with sqlite_hall(tmp_path_factory, "phrases") as server:
        yield server


def phrases(frames: Frames) -> list[dict[str, Any]]:
    return [f for f in frames.sent if f["op"] == "phrase"]


async def with_spectator(w: World) -> tuple[Frames, Frames, Any]:
    """The host's and a spectator's connections, attached."""
    host, watcher = Frames(), Frames()
    async with w.room.lock:
        spectator = await w.room.add_member("sam", "spectator")
    await w.room.attach(w.host, host.conn)
    await w.room.attach(spectator, watcher.conn)
    return host, watcher, spectator


def test_a_phrase_is_typed_by_its_id_and_nothing_else() -> None:
    assert parse_message({"op": "phrase", "id": "nice"}).message == Phrase(QuickPhrase.NICE)
    for bad in ({"op": "phrase", "id": "free text"}, {"op": "phrase", "id": 3},
                {"op": "phrase"}, {"op": "phrase", "id": ["nice"]},
                {"op": "phrase", "id": "nice", "text": "hi"}):
        assert isinstance(parse_message(bad).message, Refused), bad


def test_a_phrase_goes_to_every_player_and_spectator() -> None:
    async def go() -> None:
        w = await make_room()
        host, watcher, spectator = await with_spectator(w)
        states = len(host.sent), len(watcher.sent)
        log = len(w.room.table.log)
        answer = await w.room.handle(spectator, {"op": "phrase", "seq": 1, "id": "hello"})
        assert answer == {"op": "ack", "seq": 1}
        want = [{"op": "phrase", "who": "sam", "id": "hello"}]
        assert phrases(host) == want and phrases(watcher) == want
        # Not a game action: no state frame, nothing in the table's log or storage.
        assert (len(host.sent), len(watcher.sent)) == (states[0] + 1, states[1] + 1)
        assert len(w.room.table.log) == log
        answer = await w.room.handle(w.host, {"op": "phrase", "seq": 2, "id": "thumbs"})
        assert answer is not None and answer["op"] == "ack"
        assert phrases(watcher)[-1] == {"op": "phrase", "who": "ann", "id": "thumbs"}

    run(go)


@pytest.mark.parametrize("bad", ["shout", "", 7, None])
def test_an_unknown_phrase_is_refused_and_sent_to_nobody(bad: object) -> None:
    async def go() -> None:
        w = await make_room()
        host, watcher, _ = await with_spectator(w)
        answer = await w.room.handle(w.host, {"op": "phrase", "seq": 1, "id": bad})
        assert answer is not None and answer["op"] == "error"
        assert answer["error"]["code"] == "malformed"
        assert phrases(host) == [] and phrases(watcher) == []

    run(go)


def test_phrases_are_rate_limited_per_person_on_the_rooms_clock() -> None:
    """A burst of 3, then one every 3 s; one person's limit is not another's."""
    async def go() -> None:
        w = await make_room()
        host, watcher, spectator = await with_spectator(w)
        seq = iter(range(1, 100))

        async def say(member: Any, pid: str = "nice") -> str:
            answer = await w.room.handle(member, {"op": "phrase", "seq": next(seq), "id": pid})
            assert answer is not None
            return answer["error"]["code"] if answer["op"] == "error" else "ack"

        assert [await say(w.host) for _ in range(int(PHRASE_BURST))] == ["ack"] * 3
        assert await say(w.host) == "rate_limited"
        sent = len(phrases(watcher))
        assert sent == PHRASE_BURST
        assert await say(spectator) == "ack"  # somebody else's own bucket
        await w.clock.advance(PHRASE_EVERY * 0.9)
        assert await say(w.host) == "rate_limited"
        await w.clock.advance(PHRASE_EVERY * 0.2)
        assert await say(w.host) == "ack"
        assert await say(w.host) == "rate_limited"
        # Refused phrases went to nobody.
        assert [f["who"] for f in phrases(host)] == ["ann"] * 3 + ["sam", "ann"]
        await w.clock.advance(PHRASE_EVERY * 100)  # the burst refills, never beyond
        assert [await say(w.host, "cry") for _ in range(4)] == ["ack"] * 3 + ["rate_limited"]

    run(go)


def test_a_phrase_sent_again_with_its_seq_is_not_broadcast_twice() -> None:
    async def go() -> None:
        w = await make_room()
        host, _, _ = await with_spectator(w)
        msg = {"op": "phrase", "seq": 9, "id": "again"}
        first = await w.room.handle(w.host, msg)
        assert await w.room.handle(w.host, dict(msg)) == first
        assert len(phrases(host)) == 1

    run(go)


def test_over_the_websocket_a_spectator_gets_it_and_a_flood_is_refused(hall: Server) -> None:
    """A real hall: the spectator and the other player get the host's phrase as a frame of
    its own (no answer, no state); the fourth at once is ``rate_limited`` and sent to
    nobody; a state frame is unchanged by any of it."""
    async def go() -> None:
        room = create_room(hall, "ann", variant="jingzhou", clock=None)
        bob = join(hall, room["code"], "bob")
        sam = join(hall, room["code"], "sam", "spectator")
        clients = [Client(hall, room["code"], room["token"], "ann"),
                   Client(hall, room["code"], bob["token"], "bob"),
                   Client(hall, room["code"], sam["token"], "sam", spectator=True)]
        for c in clients:
            await c.connect()
        ann, bob_c, sam_c = clients
        versions = [c.version for c in clients]
        answers = [await ann.request("phrase", id=pid)
                   for pid in ("hello", "nice", "thumbs", "again")]
        assert [a["op"] for a in answers] == ["ack", "ack", "ack", "error"]
        assert answers[3]["error"]["code"] == "rate_limited"
        assert (await sam_c.request("phrase", id="flower"))["op"] == "ack"
        unknown = await bob_c.request("phrase", id="<b>hi</b>")
        assert unknown["op"] == "error" and unknown["error"]["code"] == "malformed"
        for c in clients:
            await c.wait(lambda c=c: len(c.phrases) == 4)
            assert [(f["who"], f["id"]) for f in c.phrases] == [
                ("ann", "hello"), ("ann", "nice"), ("ann", "thumbs"), ("sam", "flower")]
        assert [c.version for c in clients] == versions
        for c in clients:
            await c.close()

    asyncio.run(go())
