"""``laizi connect``: the terminal client of the hall plays a match, and comes back by
itself when its connection is lost (here: the server is killed and started again on the
same port mid-match)."""

from __future__ import annotations

import argparse
import io
import json
import threading
from pathlib import Path

import pytest

from laizi.commands import connect
from server_helpers import FAST, HTTP, Server, sqlite_url, stored_table


class _Typing(io.StringIO):
    """A person who presses Enter to start, then always takes the first action. With
    ``hold``: before typing answer number ``hold`` they wait until ``go`` is set
    (``holding`` says they are waiting), so a test can take the server away mid-match,
    at a point it knows, without counting on how fast anybody plays."""

    def __init__(self, hold: int | None = None) -> None:
        super().__init__()
        self.lines = 0
        self.hold = hold
        self.holding = threading.Event()
        self.go = threading.Event()

    def readline(self, size: int | None = -1) -> str:
        self.lines += 1
        if self.hold is not None and self.lines == self.hold + 1:
            self.holding.set()
            assert self.go.wait(60), "the test never let the person answer"
        return "\n" if self.lines == 1 else "1\n"


def _run(url: str, stdin: io.StringIO, out: io.StringIO, result: list[int]) -> None:
    args = argparse.Namespace(url=url, new=None, name=None, watch=False, bots="greedy",
                              hands=None, clock=None, option=[])
    result.append(connect.run(args, stdin=stdin, stdout=out))


def test_connect_plays_to_the_end_across_a_server_restart(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "hall.db")
    server = Server(db, tmp_path).start()
    try:
        made = HTTP.post(f"{server.http}/api/rooms", json={
            "name": "阿明", "settings": {"variant": "jingzhou", "hands": 2, **FAST,
                                         "bot_delay": 0.02}}).json()
        stdin, out = _Typing(hold=3), io.StringIO()
        result: list[int] = []
        thread = threading.Thread(target=_run, args=(made["link"], stdin, out, result),
                                  daemon=True)
        thread.start()
        # The person has answered twice and is about to answer again: mid-match.
        assert stdin.holding.wait(60), out.getvalue()[-2000:]
        assert len(stored_table(db, made["code"]).log) > 2
        server.kill()
        server.start()
        stdin.go.set()  # the answer goes to a connection that is gone: connect again
        thread.join(120)
        assert not thread.is_alive(), out.getvalue()[-2000:]
        text = out.getvalue()
        assert result == [0], text[-2000:]
        assert "connecting again" in text
        assert "the match is over" in text
        table = stored_table(db, made["code"])
        assert table.closed and table.number == 2
        assert f"ledger: {dict(table.ledger)}" in text
    finally:
        server.stop()


def test_connect_tells_every_move_and_how_each_hand_ended(tmp_path: Path) -> None:
    """Others' moves are printed as they come (every discard of the bots, not only the
    last ones before one's own turn), and each hand's end: who won how (or the drawn
    hand), the payments and everyone's net, by name (``you`` for oneself); the client
    never answers a pass-only window itself (the server does)."""
    db = sqlite_url(tmp_path / "hall.db")
    server = Server(db, tmp_path).start()
    try:
        made = HTTP.post(f"{server.http}/api/rooms", json={
            "name": "阿明", "settings": {"variant": "jingzhou", "hands": 2, **FAST}}).json()
        stdin, out = _Typing(), io.StringIO()
        result: list[int] = []
        _run(made["link"], stdin, out, result)
        text = out.getvalue()
        assert result == [0], text[-2000:]
        table = stored_table(db, made["code"])
        lines = [json.loads(line) for line in table.dumps().splitlines()]
        for seat, bot in ((1, "🤖 1"), (2, "🤖 2")):
            discards = [e for e in lines if e["type"] == "action"
                        and e["action"]["seat"] == seat and e["action"]["type"] == "discard"]
            assert text.count(f"{bot}: 打 discard") == len(discards) > 0, (bot, len(discards))
        ends = [e for e in lines if e["type"] == "hand_end"]
        assert len(ends) == 2
        for end in ends:
            nets = " · ".join(f"{'you' if p == '阿明' else p} {v:+d}"
                              for p, v in end["net"].items())
            assert f"hand {end['number'] + 1} over: {nets}" in text, text[-3000:]
            record = end["record"]
            if record["outcome"] == "win":
                (w,) = record["winners"]
                assert ("you win" if w == 0 else f"🤖 {w} wins") in text
            else:
                assert "黄庄" in text
            for p in end["payments"]:
                payer = "you pay" if p["from"] == "阿明" else f"{p['from']} pays"
                assert f"{payer} " in text
        # Nobody typed an answer to a pass-only window: the host's passes were the server's.
        assert "your choice" in text and "seat 0" not in text
    finally:
        server.stop()


def test_connect_tells_a_huanghuang_hand_with_horses_and_xiazhuo() -> None:
    """A 晃晃 table of five (one waiting): the story of a hand as a seated person's frames
    tell it names people (``you`` for oneself), and its end has the horses, the nets and
    who leaves (下桌) — for the waiting person too."""
    from rich.console import Console

    from laizi.bots.registry import make_bot
    from laizi.table.driver import BotController, play
    from laizi.table.table import Table

    table = Table("huanghuang", people=["阿明", "小红", "老王", "阿强", "阿丽"], seed=4)
    play(table, lambda person: BotController(make_bot("greedy")), hands=1)
    (end,) = [e for e in table.log if e["type"] == "hand_end"]
    for me in ("阿明", "阿丽"):  # seated, waiting
        out = io.StringIO()
        story = connect._Story(Console(file=out, highlight=False, width=100), me)
        frame = {"view": table.view_for(me), "snapshot": False,
                 "events": table.events(me), "room": {"settings": {"variant": "huanghuang"}}}
        story.show(frame)
        text = out.getvalue()
        nets = " · ".join(f"{'you' if p == me else p} {v:+d}" for p, v in end["net"].items())
        assert f"hand 1 over: {nets}" in text, text[-2000:]
        assert "your horse" in text and f"{me}'s horse" not in text
        if end["left"]:
            assert "下桌 leaves" in text
        else:
            assert "nobody leaves the table" in text


def test_connect_gives_up_on_an_unknown_room(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "hall.db"), tmp_path).start()
    try:
        out: io.StringIO = io.StringIO()
        result: list[int] = []
        _run(f"{server.http}/r/999999?t=nope", io.StringIO(""), out, result)
        assert result == [1]
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connect, "RECONNECT_FOR", 30.0)


def test_connect_new_prints_the_link_the_hall_shares(tmp_path: Path) -> None:
    """``--new`` on a hall typed as 127.0.0.1 that listens on 0.0.0.0 prints the link
    the hall gives for sharing (``GET /api/share``: its LAN address), not the loopback
    address friends cannot open (issue 38, item 4)."""
    server = Server(sqlite_url(tmp_path / "hall.db"), tmp_path,
                    extra_args=("--host", "0.0.0.0")).start()
    try:
        shared = HTTP.get(f"{server.http}/api/share").json()
        base = shared["base"]
        out = io.StringIO()
        args = argparse.Namespace(url=server.http, new="jingzhou", name="阿明", watch=False,
                                  bots="greedy", hands=1, clock=None, option=[])
        assert connect.run(args, stdin=io.StringIO(""), stdout=out) == 0  # no Enter: leaves
        text = out.getvalue()
        (line,) = [x for x in text.splitlines() if "friends join with" in x]
        code = line.split()[1].rstrip(":")
        assert f"laizi connect {base}/r/{code} --name NAME" in line, (line, shared)
        if shared["lan"]:  # a machine with a network: never the loopback address
            assert "127.0.0.1" not in line and base == shared["lan"][0]
        assert HTTP.get(f"{base}/api/rooms/{code}").status_code == 200
    finally:
        server.stop()


def test_connect_new_keeps_the_typed_address_when_the_hall_does_not_say(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An older hall without ``GET /api/share`` (or an unreadable answer): the address
    typed."""
    import httpx

    class Answer:
        status_code = 404

        def json(self) -> dict[str, str]:
            return {"error": "not found"}

    monkeypatch.setattr(httpx, "get", lambda *a, **k: Answer())
    assert connect._share_base("http://192.168.1.5:8000") == "http://192.168.1.5:8000"

    class Bad(Answer):
        status_code = 200

        def json(self) -> dict[str, str]:
            raise ValueError("not JSON")

    monkeypatch.setattr(httpx, "get", lambda *a, **k: Bad())
    assert connect._share_base("http://h:1") == "http://h:1"
