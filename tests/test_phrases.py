"""Quick phrases and emoji at the table (快捷语 / 表情): a person sends one of a fixed set
by its id; the room sends it to everybody in it, players and spectators, as a ``phrase``
frame (no log line, no state frame); an unknown id is refused ``malformed`` and a person
over their rate ``rate_limited``, and then nobody is sent anything.

In process, on the fake clock (tests/test_room_parts.py builds the room)."""

from __future__ import annotations

from typing import Any

import pytest

from laizi.server.room_dispatch import PHRASE_BURST, PHRASE_EVERY
from laizi.server.room_messages import Phrase, Refused, parse_message
from laizi.vocab import QuickPhrase
from test_room_parts import Frames, World, make_room, run


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
