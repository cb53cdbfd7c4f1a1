"""What people are shown of a ledger follows :attr:`Table.standing`'s rule everywhere: a
bot that gave its seat to a person before any hand was dealt is no 0 column in 战绩
(``GET /api/me/history``), in ``GET /api/rooms/CODE/hands`` nor in the records'
settlements (issue 38, item 8), while the logged lines keep the whole ledger (a log
replays byte for byte)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from laizi.bots.registry import make_bot
from laizi.server.records import hand_records, shown_ledgers
from laizi.table.table import Table
from server_helpers import (
    FAST,
    HTTP,
    Client,
    Server,
    create_room,
    join,
    my_history,
    new_person,
    sqlite_url,
    stored_lines,
    unique,
)


def _play_hand(table: Table) -> None:
    bot = make_bot("greedy", 0)
    table.start_hand()
    while table.in_hand:
        seat = table.to_act()[0]
        game = table.game
        assert game is not None
        table.act(bot.choose(game.view(seat), table.legal_actions(seat)))


def test_shown_ledgers_follow_the_standing_rule() -> None:
    table = Table("jingzhou", people=["阿明", "🤖 1", "🤖 2"], seed=3)
    table.leave("🤖 1")  # gives its seat to a person before the first deal
    table.join("小红")
    for _ in range(3):
        _play_hand(table)
        if table.number == 2:  # a bot that played a hand and leaves stays, even at 0
            table.leave("🤖 2")
            table.join("老王")
    ends = [e for e in table.log if e["type"] == "hand_end"]
    assert all("🤖 1" in e["ledger"] for e in ends)  # the log keeps the whole ledger
    shown = shown_ledgers(ends)
    assert shown[-1]["ledger"] == table.standing
    assert all("🤖 1" not in e["ledger"] for e in shown)
    assert all("🤖 2" in e["ledger"] for e in shown)
    assert [r["end"]["ledger"] for r in hand_records(table.log)] == \
        [e["ledger"] for e in shown]
    assert ends[0]["ledger"]["🤖 1"] == 0  # the lines given are not changed
    # The log still replays byte for byte.
    assert Table.from_log(table.dumps().splitlines()).dumps() == table.dumps()


def test_history_and_hands_leave_out_a_bot_that_left_before_any_hand(
        tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "hall.db")
    server = Server(db, tmp_path).start()
    try:
        host, guest = unique("阿明"), unique("小红")
        person = new_person(server, host)
        room = create_room(server, host, person=person, variant="jingzhou", hands=1, **FAST)
        code = room["code"]
        joined = join(server, code, guest)
        assert joined["role"] == "player"

        async def play() -> Client:
            a = Client(server, code, room["token"], host, seed=1)
            b = Client(server, code, joined["token"], guest, seed=2)
            await a.connect()
            await b.connect()
            assert (await a.request("start"))["op"] == "ack"
            await asyncio.gather(a.play(timeout=60), b.play(timeout=60))
            await a.close()
            await b.close()
            return a

        final = asyncio.run(play()).latest
        assert final is not None and final["room"]["over"]
        standing = final["room"]["ledger"]
        lines = [json.loads(x) for x in stored_lines(db, code)]
        (end,) = [e for e in lines if e["type"] == "hand_end"]
        gone = sorted(set(end["ledger"]) - set(standing))
        assert gone and all(p.startswith("🤖") and end["ledger"][p] == 0 for p in gone), \
            (end["ledger"], standing)  # the logged line keeps it

        (h,) = my_history(server, person)
        assert h["ledger"] == standing and h["score"] == standing[host]
        (hand,) = HTTP.get(f"{server.http}/api/rooms/{code}/hands").json()
        assert hand["ledger"] == standing
        (rec,) = HTTP.get(f"{server.http}/api/rooms/{code}/records").json()["hands"]
        assert rec["end"]["ledger"] == standing
    finally:
        server.stop()
