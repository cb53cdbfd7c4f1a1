"""A finished hand's replay during the match (issue 38, Deliver 3; docs/deals.md).

Each hand's wall comes from its own hand key, ``HMAC-SHA256(secret, "laizi-hand/v1" ||
u64(hand) || entropy digest)``. A finished hand is replayed while the match goes on with
its wall and that key, so anyone checks the wall; the hand in play and later hands are
refused, and the table secret is never in the answer. Once the match is over the revealed
secret confirms every hand key.

* :func:`laizi.server.records.hand_replay` on a table log (secret mode, entropy added
  between hands);
* the hall over the wire: a real ``laizi serve``, a match against bots stopped after its
  first hand.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laizi.bots.registry import make_bot
from laizi.errors import ErrorCode, TableError
from laizi.server.records import hand_deal, hand_replay, replay_steps
from laizi.table import deals
from laizi.table.table import Table
from laizi.variants import get


def _play_hand(table: Table) -> None:
    bots = [make_bot("greedy", i) for i in range(table.variant.seats)]
    table.start_hand()
    while table.in_hand:
        seat = table.to_act()[0]
        game = table.game
        assert game is not None
        table.act(bots[seat].choose(game.view(seat), table.legal_actions(seat)))


def _check_deal(deal: dict[str, Any], log: list[dict[str, Any]], number: int) -> None:
    """What anyone can check of a replayed hand's deal without the secret."""
    key = bytes.fromhex(deal["key"])
    assert deal["wall"] == deals.shuffle(sorted(deal["tiles"]), key)
    assert deal["entropy_digest"] == deals.mix(deal["entropy"]).hex()
    assert deal["commitment"] == log[0]["commitment"]
    hand = next(e for e in log if e["type"] == "hand" and e["number"] == number)
    variant = get(log[0]["variant"])
    assert sorted(deal["tiles"]) == sorted(variant.tile_set(
        variant.options_from_json(hand["options"])))


@pytest.fixture
def table() -> Iterator[Table]:
    """A 荆州 table in secret mode: two hands over (entropy added before each), the third
    in play."""
    t = Table("jingzhou", people=["甲", "乙", "丙"], max_hands=5)
    t.add_entropy("甲", "first")
    _play_hand(t)
    t.add_entropy("乙", "second")
    _play_hand(t)
    t.start_hand()
    assert t.in_hand
    yield t


def test_a_finished_hand_replays_mid_match_and_its_wall_checks(table: Table) -> None:
    secret = table._secret
    log = table.log
    for number in (0, 1):
        hand = hand_replay(log, number, secret)
        _check_deal(hand["deal"], log, number)
        end = next(e for e in log if e["type"] == "hand_end" and e["number"] == number)
        assert hand["deal"]["wall"] == end["wall"]  # the wall the table dealt
        assert hand["end"]["net"] == end["net"] and "wall" not in hand["end"]
        steps = replay_steps(hand["log"])
        assert steps[-1]["result"]["record"] == end["record"]
    # Each hand's key has the entropy logged before it, and only that.
    assert hand_deal(log, 0, secret)["entropy"] == ["first"]
    assert hand_deal(log, 1, secret)["entropy"] == ["first", "second"]
    # Nothing of the secret in what is served.
    text = json.dumps([hand_replay(log, n, secret) for n in (0, 1)])
    assert deals.secret_hex(secret) not in text and "secret" not in text


def test_the_hand_in_play_and_later_hands_are_refused(table: Table) -> None:
    with pytest.raises(TableError) as info:
        hand_replay(table.log, 2, table._secret)
    assert info.value.code == ErrorCode.HAND_IN_PROGRESS
    for later in (3, 4, 99):
        with pytest.raises(TableError) as info:
            hand_replay(table.log, later, table._secret)
        assert info.value.code == ErrorCode.NO_HAND


def test_the_secret_revealed_at_the_end_confirms_every_hand_key(table: Table) -> None:
    keys = [hand_deal(table.log, n, table._secret)["key"] for n in (0, 1)]
    table.close()
    closing = table.log[-1]
    assert deals.check_secret(closing["secret"], table.log[0]["commitment"])
    secret = deals.parse_secret(closing["secret"])
    for n, key in enumerate(keys):
        deal = hand_deal(table.log, n, secret)
        assert deals.hand_key(secret, n, deals.mix(deal["entropy"])).hex() == key
    # The hand abandoned by the close has no replay.
    with pytest.raises(TableError):
        hand_replay(table.log, 2, secret)


# --------------------------------------------------------------------------- over the wire


def test_the_hall_serves_a_finished_hand_mid_match(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    from server_helpers import (
        FAST,
        HTTP,
        Client,
        Server,
        create_room,
        sqlite_url,
        stored_room,
        unique,
    )

    srv = Server(sqlite_url(tmp_path / "hall.db"), tmp_path).start()
    try:
        host = unique("ann")
        room = create_room(srv, host, variant="jingzhou", hands=4, **FAST)
        code = room["code"]
        base = f"{srv.http}/api/rooms/{code}"

        def ended(c: Client) -> bool:
            return any(e["type"] == "hand_end" for f in c.frames for e in f["events"])

        async def match() -> None:
            client = Client(srv, code, room["token"], host, seed=3)
            await client.connect()
            assert (await client.request("start"))["op"] == "ack"
            await client.play(until=ended, timeout=60)
            stored = await stored_room(srv.db_url, code)
            _mid_match(base, stored)
            assert (await client.request("end"))["op"] == "ack"
            await client.wait(lambda: client.over)
            await client.close()
            over = HTTP.get(f"{base}/replay").json()
            assert over["over"] is True and over["secret"] == stored.secret
            assert deals.check_secret(over["secret"], over["commitment"])

        asyncio.run(match())
    finally:
        srv.kill()


def _mid_match(base: str, stored: Any) -> None:
    from server_helpers import HTTP

    index = HTTP.get(f"{base}/replay")
    assert index.status_code == 200, index.text
    assert index.json()["over"] is False and "secret" not in index.json()
    assert [h["number"] for h in index.json()["hands"]][:1] == [0]
    r = HTTP.get(f"{base}/replay/0")
    assert r.status_code == 200, r.text
    hand = r.json()
    assert hand["steps"][-1]["result"]["record"] == hand["end"]["record"]
    log = [json.loads(x) for x in stored.lines]
    _check_deal(hand["deal"], log, 0)
    assert bytes.fromhex(hand["deal"]["key"]) == deals.hand_key(
        deals.parse_secret(stored.secret), 0, deals.mix(hand["deal"]["entropy"]))
    served = [index.text, r.text]
    # The hand in play and every later hand: refused.
    current = len(index.json()["hands"])
    refused = HTTP.get(f"{base}/replay/{current}")
    served.append(refused.text)
    assert refused.status_code in (404, 409), refused.text
    assert refused.json()["error"]["code"] in ("hand_in_progress", "no_hand")
    later = HTTP.get(f"{base}/replay/{current + 1}")
    served.append(later.text)
    assert later.status_code == 404 and later.json()["error"]["code"] == "no_hand"
    assert HTTP.get(f"{base}/replay/x").status_code == 404
    assert all(stored.secret not in text for text in served)


# --------------------------------------------------------------------------- in process


def _hall_room(tmp_path: Path) -> Any:
    """A hall in this process (Starlette's TestClient) with one 荆州 room, not started:
    nothing moves unless the test moves it."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from laizi.server.app import create_app

    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", bot_processes=1)
    return TestClient(app, base_url="http://127.0.0.1:8765", client=("127.0.0.1", 50000))


def test_a_replay_of_a_hand_number_not_in_ascii_digits_is_refused(tmp_path: Path) -> None:
    """``²`` is a digit to ``str.isdigit`` but not to ``int`` (it was a 500), ``٣`` is
    one to both; a number of 60,000 digits is refused before it is read."""
    with _hall_room(tmp_path) as client:
        r = client.post("/api/rooms", json={"name": "阿明",
                                            "settings": {"variant": "jingzhou"}})
        code = r.json()["code"]
        for raw in ("%C2%B2", "%D9%A3", "x", "-1", "1" * 10, "9" * 60_000):
            r = client.get(f"/api/rooms/{code}/replay/{raw}")
            assert r.status_code == 404, (raw[:12], r.status_code, r.text[:200])
            assert r.json()["error"]["code"] == "no_hand"


def test_a_hand_applied_but_not_stored_is_not_served(tmp_path: Path) -> None:
    """A line is applied, then stored (``Room._apply`` awaits ``Room._store``); if storing
    fails the room takes it back (``Room._reload``). Until it is stored, a finished hand
    is not in the records, the replay index or a replay (its wall unpublished, nothing
    cached); once stored, it is."""
    with _hall_room(tmp_path) as client:
        r = client.post("/api/rooms", json={"name": "阿明",
                                            "settings": {"variant": "jingzhou"}})
        code = r.json()["code"]
        hall = client.app.state.context.hall  # type: ignore[attr-defined]
        room = hall.rooms[code]
        assert client.portal is not None
        client.portal.call(_play_hand, room.table)  # on the hall's loop, nothing stored
        assert room.stored < len(room.table.log)
        assert any(e["type"] == "hand_end" for e in room.table.log)
        base = f"/api/rooms/{code}"
        assert client.get(f"{base}/records").json()["hands"] == []
        assert client.get(f"{base}/replay").json()["hands"] == []
        r = client.get(f"{base}/replay/0")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_hand", r.text
        assert "wall" not in r.text
        client.portal.call(room._store)  # stored now: served
        assert [h["number"] for h in client.get(f"{base}/records").json()["hands"]] == [0]
        assert [h["number"] for h in client.get(f"{base}/replay").json()["hands"]] == [0]
        r = client.get(f"{base}/replay/0")
        assert r.status_code == 200, r.text
        end = next(e for e in room.table.log if e["type"] == "hand_end")
        assert r.json()["deal"]["wall"] == end["wall"]
