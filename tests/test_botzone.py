"""The Botzone bridge (``botzone:`` bot spec): the protocol's requests retold from a
seat's events, stub programs of ours in the arena, the simulator and ``laizi play``,
and a misbehaving program's errors counted with the table's default played."""

from __future__ import annotations

import importlib.util
import io
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

from laizi.bots.botzone import BotzoneBot, split_params
from laizi.bots.botzone_protocol import ProtocolError, Transcript, answer_action
from laizi.bots.greedy import GreedyBot
from laizi.bots.registry import BotSpecError, make_bot, parse_spec
from laizi.cli import main
from laizi.core.jsondata import JSON
from laizi.engine.actions import CHOW, DISCARD, PASS, PUNG, Action
from laizi.sim.arena import run_arena
from laizi.sim.simulate import simulate
from laizi.table.driver import BotController, play_hand
from laizi.table.table import Table

FIXTURES = Path(__file__).parent / "fixtures"
STUB = f"{sys.executable} {FIXTURES / 'botzone_stub.py'}"
BAD = f"{sys.executable} {FIXTURES / 'botzone_bad_stub.py'}"


def _stub_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("botzone_stub", FIXTURES / "botzone_stub.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- the spec


def test_the_spec_takes_its_command_last_colons_and_all() -> None:
    assert split_params("io=json:keep=1:cmd=python3 C:/bots/a.py --x:y") == [
        "io=json", "keep=1", "cmd=python3 C:/bots/a.py --x:y"]
    name, kw = parse_spec("botzone:keep=1:timeout=2.5:io=json:cmd=python3 a.py 7")
    assert name == "botzone"
    assert kw == {"keep": True, "timeout": 2.5, "io": "json", "cmd": "python3 a.py 7"}
    bot = make_bot("botzone:cmd=python3 a.py --names W1%2CW2 '%25 x'")
    assert isinstance(bot, BotzoneBot)
    assert bot.argv == ["python3", "a.py", "--names", "W1,W2", "% x"]
    for bad in ("botzone:io=xml:cmd=a", "botzone:timeout=0:cmd=a", "botzone:keep=1",
                "botzone:cmd=", "botzone:color=1:cmd=a"):
        with pytest.raises(BotSpecError):
            make_bot(bad)


def test_only_mcr_is_played(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "jingzhou", "--bots", f"botzone:cmd={STUB},greedy",
                 "--no-progress"]) == 2
    assert "plays only mcr" in capsys.readouterr().err


# ---------------------------------------------------------------- the protocol


def test_answers_map_to_legal_actions_or_are_refused() -> None:
    legal = [Action(PASS, 1), Action(PUNG, 1, 31, (31, 31, 31)),
             Action(CHOW, 1, 4, (3, 4, 5)), Action(CHOW, 1, 4, (4, 5, 6))]
    assert answer_action("PASS", legal) == (legal[0], None)
    assert answer_action("PENG W9", legal) == (legal[1], 8)
    assert answer_action("CHI W6 J1", legal) == (legal[3], 33)
    for text, kind in (("", "unparsable"), ("PLAY", "unparsable"), ("PLAY X9", "unparsable"),
                       ("CHI W5", "unparsable"), ("HU", "illegal"), ("CHI W4 W1", "illegal"),
                       ("GANG", "illegal"), ("pass", "unparsable")):
        with pytest.raises(ProtocolError) as info:
            answer_action(text, legal)
        assert info.value.kind == kind, text
    turn = [Action(DISCARD, 0, t) for t in (0, 9, 33)]
    assert answer_action("PLAY J1", turn)[0] == turn[2]
    with pytest.raises(ProtocolError):
        answer_action("PLAY W2", turn)


def _events(seat: int) -> list[JSON]:
    """A made-up stretch of a hand, from the events seat 1 is shown."""
    n = None

    def act(kind: str, who: int, tile: int | None = None, answer: bool = False) -> JSON:
        a: JSON = {"type": kind, "seat": who}
        if tile is not None:
            a["tile"] = tile
        return {"type": "action", "action": a, **({"answer": True} if answer else {})}

    def draw(who: int, tile: int | None, replacement: bool = False) -> JSON:
        return {"type": "draw", "seat": who, "tile": tile if who == seat else n,
                "replacement": replacement}

    return [
        {"type": "hand", "number": 0},
        {"type": "start", "dealer": 0, "options": {"prevalent_wind": "S"}},
        {"type": "deal", "hands": [[n] * 14, [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, 34],
                                   [n] * 13, [n] * 13]},
        {"type": "flower", "seat": 1, "tile": 34}, draw(1, 5, True),
        {"type": "flower", "seat": 2, "tile": 35}, draw(2, 7, True),
        act("discard", 0, 27), act("pung", 1, 27, answer=True),
        {"type": "claim", "seat": 1, "meld": {"kind": "pung", "tiles": [27, 27, 27]}},
        act("discard", 1, 31), draw(2, 6), act("added_kong", 2, 6), draw(2, 6, True),
        act("concealed_kong", 2, 9), draw(2, 6, True), act("discard", 2, 3),
        act("pass", 1, answer=True),
        {"type": "claim", "seat": 3, "meld": {"kind": "chow", "tiles": [2, 3, 4]}},
        act("discard", 3, 30), draw(0, 8), {"type": "flower", "seat": 0, "tile": 36},
        draw(0, 8), act("discard", 0, 8), draw(1, 12), act("concealed_kong", 1, 0),
        draw(1, 13, True), act("win", 1),
    ]


def test_a_transcript_says_every_kind_of_request() -> None:
    t = Transcript(1)
    for e in _events(1):
        t.feed(e)
    assert t.requests == [
        "0 1 1", "1 0 1 1 0 W1 W2 W3 W6 B1 B2 B3 T1 T2 T3 F1 F1 J3 H1 H2",
        "3 0 PLAY F1", "3 1 PENG J3", "3 2 DRAW", "3 2 BUGANG W7", "3 2 DRAW", "3 2 GANG",
        "3 2 DRAW", "3 2 PLAY W4", "3 3 CHI W4 F4", "3 0 DRAW", "3 0 BUHUA H3", "3 0 DRAW",
        "3 0 PLAY W9", "2 B4", "3 1 GANG", "2 B5"]
    assert t.responses == ["PASS", "PASS", "PENG J3", *["PASS"] * 6, "PASS", "PASS",
                           "PASS", "PASS", "PASS", "PASS", "GANG W1", "PASS", "HU"]
    dealer = Transcript(0)
    for e in _events(0)[:3]:
        dealer.feed(e)
    dealer.hand = [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 31, 33, 5]
    dealer.finish_opening()
    assert dealer.requests[0] == "0 0 1" and dealer.requests[2] == "2 W6"
    assert len(dealer.requests[1].split()) == 1 + 4 + 13


class _Checker:
    """Greedy's choices, while checking at every decision that the requests so far,
    read by the stub program's own hand keeping, give the seat's concealed tiles."""

    name = "checker"

    def __init__(self, seed: int) -> None:
        self.greedy = GreedyBot(seed)
        self.transcript: Transcript | None = None
        self.checked = 0
        self.stub = _stub_module()

    def observe(self, seat: int, events: Sequence[JSON]) -> None:
        for e in events:
            if e.get("type") == "start":
                self.transcript = Transcript(seat)
            if self.transcript is not None:
                self.transcript.feed(e)

    def choose(self, view: JSON, legal: Sequence[Action]) -> Action:
        t = self.transcript
        assert t is not None
        t.finish_opening()
        if not t.after_my_claim:
            stub = self.stub.Stub()
            for req, resp in zip(t.requests, t.responses, strict=True):
                stub.update(req)
                stub.last_answer = resp
            assert sorted(stub.hand) == sorted(view["hand"]), t.requests[-6:]
            assert len(stub.melds) == len(view["melds"][view["seat"]])
            self.checked += 1
        action = self.greedy.choose(view, legal)
        return action


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_the_requests_retell_the_hand(seed: int) -> None:
    table = Table("mcr", None, seed=seed, dealer=seed % 4)
    checkers = [_Checker(seed * 4 + s) for s in range(4)]
    table.start_hand()
    play_hand(table, [BotController(c) for c in checkers])
    assert all(c.checked > 3 for c in checkers)
    t = checkers[1].transcript
    assert t is not None
    assert t.requests[0] == f"0 {(1 - seed % 4) % 4} 0"
    assert t.requests[1].startswith("1 ") and len(t.requests[1].split()) >= 18
    assert all(r is not None for r in t.responses[:-1])
    kinds = {r.split()[2] for r in t.requests if r.startswith("3 ")}
    assert {"PLAY", "DRAW"} <= kinds


# ---------------------------------------------------------------- programs at the table


@pytest.mark.parametrize(("io_mode", "keep", "hands"),
                         [("simple", True, 20), ("json", True, 4), ("json", False, 1)])
def test_the_stub_plays_whole_hands_without_a_protocol_error(io_mode: str, keep: bool,
                                                               hands: int) -> None:
    flags = (" --json" if io_mode == "json" else "") + (" --keep" if keep else "")
    spec = f"botzone:io={io_mode}:keep={int(keep)}:cmd={STUB}{flags}"
    # the arena's rotations where there is time for them; fresh runs cost a start each
    summary = run_arena("mcr", [spec, "greedy"], hands, seed=11) if hands >= 4 else \
        simulate("mcr", [spec, "greedy"], hands, seed=11)[0]
    assert summary["hands"] == hands
    (record,) = summary["bridge"]
    assert record["bot"] == spec and record["hands"] == hands
    assert record["errors"] == 0 and record["fallbacks"] == 0, record
    assert record["requests"] > (60 if keep else 10) * hands
    assert 0 < record["median_ms"] <= record["p99_ms"]


def test_keep_running_and_fresh_runs_play_alike() -> None:
    """Retold from the whole history or told one request at a time, the program's
    decisions are the same: the hands come out identical."""
    kept, kept_hands = simulate("mcr", [f"botzone:keep=1:cmd={STUB} --keep", "greedy"], 2,
                                seed=5)
    fresh, fresh_hands = simulate("mcr", [f"botzone:cmd={STUB}", "greedy"], 2, seed=5)
    assert kept["bridge"][0]["errors"] == fresh["bridge"][0]["errors"] == 0
    assert [r["net"] for r in kept_hands] == [r["net"] for r in fresh_hands]
    assert [r["decisions"] for r in kept_hands] == [r["decisions"] for r in fresh_hands]


@pytest.mark.parametrize(("mode", "keep", "kind"),
                         [("garbage", False, "unparsable"), ("illegal", True, "illegal"),
                          ("exit", False, "crash"), ("exit", True, "crash"),
                          ("sleep", True, "timeout")])
def test_a_misbehaving_program_is_counted_and_the_default_played(
        mode: str, keep: bool, kind: str, caplog: pytest.LogCaptureFixture) -> None:
    # a short clock only where it is the point: a loaded machine may start a run slowly
    timeout = "timeout=0.25:startup=0.5" if mode == "sleep" else "timeout=5"
    spec = f"botzone:keep={int(keep)}:{timeout}:cmd={BAD} {mode}" + (
        " --keep" if keep else "")
    with caplog.at_level(logging.WARNING, logger="laizi.table"):
        summary, results = simulate("mcr", [spec, "greedy"], 1, seed=3)
    (record,) = summary["bridge"]
    assert record["error_kinds"].get(kind, 0) >= 3, record
    # every turn it was asked fell back to the table's default discard, reported
    assert record["fallbacks"] == record["errors"]
    reported = [r for r in caplog.records if "seat 0" in r.getMessage()]
    assert len(reported) == record["fallbacks"]
    assert results[0]["outcome"] in ("win", "draw")


def test_a_program_without_the_marker_is_rerun_with_the_history() -> None:
    spec = f"botzone:keep=1:timeout=0.5:startup=5:cmd={BAD} nomarker --keep"
    summary, _ = simulate("mcr", [spec, "greedy"], 1, seed=3)
    (record,) = summary["bridge"]
    assert record["error_kinds"].get("marker", 0) >= 3
    assert record["fallbacks"] == 0  # its answers stood


def test_the_arena_command_reports_the_protocol_record(
        capsys: pytest.CaptureFixture[str]) -> None:
    spec = f"botzone:keep=1:cmd={STUB} --keep"
    assert main(["arena", "mcr", "--bots", f"{spec},greedy", "--hands", "4",
                 "--no-progress", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bridge"][0]["errors"] == 0 and data["bridge"][0]["requests"] > 100
    assert main(["arena", "mcr", "--bots", f"{spec},greedy", "--hands", "4",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "outside programs (Botzone protocol)" in out and "p99 ms" in out


def test_laizi_play_seats_programs_hand_after_hand(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with caplog.at_level(logging.WARNING, logger="laizi.table"):
        code = main(["play", "mcr", "--seed", "4", "--auto", "--hands", "2", "--bots",
                     f"botzone:keep=1:cmd={STUB} --keep"])
    assert code == 0
    assert "after 2 hands" in capsys.readouterr().out
    assert not [r for r in caplog.records if "failed" in r.getMessage()]


def test_a_hall_room_cannot_seat_an_outside_program() -> None:
    """A room's host picks a level of ``BOT_LEVELS``; a command line is never one."""
    from laizi.errors import LaiziError
    from laizi.server.room_settings import BOT_LEVELS, RoomSettings

    assert not any(level.startswith("botzone") for level in BOT_LEVELS)
    with pytest.raises(LaiziError):
        RoomSettings.from_json({"variant": "mcr", "bots": f"botzone:cmd={STUB}"})


def test_the_tables_show_a_program_by_its_short_command() -> None:
    from laizi.sim.report import label

    assert label("botzone:keep=1:cmd=/usr/bin/python3 /x/y/stub.py --keep") == \
        "botzone:keep=1:cmd=python3 stub.py --keep"
    assert label("search:k=3") == "search:k=3"
