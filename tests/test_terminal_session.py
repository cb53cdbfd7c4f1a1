"""``laizi play``: the opponents' bots (``--bots``), a watched game's pace (``--delay``),
the hand records of a table (``--records``) for ``laizi score``, a saved table shown
again (``--replay``), and 晃晃's horse asked of the person."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from laizi.bots.greedy import GreedyBot
from laizi.bots.random_bot import RandomBot
from laizi.cli import build_parser, main
from laizi.commands.play import _setup, run
from test_terminal_input import FirstChoice, play

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text("utf-8").splitlines()]


def test_bots_choose_the_opponents_in_seat_order() -> None:
    args = build_parser().parse_args(["play", "golden", "--bots", "greedy,random",
                                      "--seat", "1"])
    setup = _setup(args)
    assert setup.table.people == ("bot 1", "you", "bot 2", "bot 3")
    kinds = {p: type(b) for p, b in setup.bots.items()}
    assert kinds == {"bot 1": GreedyBot, "bot 2": RandomBot, "bot 3": RandomBot}
    code, out = play(["jingzhou", "--auto", "--bots", "greedy", "--seed", "3"])
    assert code == 0 and "Running ledger" in out


@pytest.mark.parametrize(("bots", "message"), [
    ("search:budget_ms=abc", "budget_ms"),
    ("nosuch", "unknown bot"),
    ("greedy,greedy,greedy", "3 bots for 2 other players"),
])
def test_bad_bots_are_one_line(bots: str, message: str,
                               capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "jingzhou", "--auto", "--bots", bots]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_auto_is_paced_by_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    naps: list[float] = []
    monkeypatch.setattr("time.sleep", naps.append)
    code, out = play(["jingzhou", "--auto", "--seed", "3", "--delay", "0.05"])
    # one pause after each move shown: the lines between the hand's rule and its board
    play_lines = out.split("hand 1 · dealer you")[1].split("\njingzhou · ")[0]
    moves = len(play_lines.strip().splitlines()) - 1
    assert code == 0 and naps == [0.05] * moves and moves > 10
    naps.clear()
    play(["jingzhou", "--auto", "--seed", "3"])  # not a terminal: no pause by default
    assert naps == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_hand_records_are_settled_by_laizi_score_as_at_the_table(
        variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log, records = tmp_path / "t.jsonl", tmp_path / "records.jsonl"
    argv = [variant, "--auto", "--seed", "6", "--hands", "3", "--save", str(log),
            "--records", str(records)]
    if variant == "huanghuang":
        argv += ["--people", "6"]
    code, out = play(argv)
    assert code == 0 and f"3 hand records written to {records}" in " ".join(out.split())
    entries = _lines(log)
    hands = [e for e in entries if e["type"] == "hand"]
    ends = [e for e in entries if e["type"] == "hand_end"]
    lines = records.read_text("utf-8").splitlines()
    assert len(lines) == 3
    for i, line in enumerate(lines):
        one = tmp_path / f"hand{i}.json"
        one.write_text(line, encoding="utf-8")
        capsys.readouterr()
        assert main(["score", "--json", str(one)]) == 0, capsys.readouterr().err
        settled = json.loads(capsys.readouterr().out)
        parties = [*hands[i]["seats"], *hands[i]["waiting"]]
        assert settled["net"] == [ends[i]["net"].get(p, 0)
                                  for p in parties]
        assert json.loads(line) == ends[i]["record"]


@pytest.mark.parametrize("variant", ["jingzhou", "taiwan", "huanghuang"])
def test_a_saved_table_is_replayed_as_it_was_seen(variant: str, tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    argv = [variant, "--auto", "--seed", "4", "--hands", "2", "--save", str(log)]
    code, live = play(argv)
    assert code == 0
    code, again = play([variant, "--replay", str(log)])
    assert code == 0 and f"Replay of {log}, as you saw it." in again

    def body(out: str) -> str:
        start = out.index("hand 1 ·")
        return out[out.rindex("\n", 0, start) + 1:].split("Table log written")[0]

    assert body(again).rstrip() == body(live).rstrip()
    code, seat1 = play([variant, "--replay", str(log), "--seat", "1"])
    assert code == 0 and "as bot 1 saw it" in seat1


def test_a_replay_refuses_another_variant_s_log(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "t.jsonl"
    play(["jingzhou", "--auto", "--seed", "4", "--save", str(log)])
    assert main(["play", "taiwan", "--replay", str(log)]) == 2
    assert "not a taiwan table log" in capsys.readouterr().err
    # an action left out: the replay stops at the line that differs, as verify does
    text = log.read_text("utf-8").splitlines()
    first = next(i for i, line in enumerate(text) if '"type":"action"' in line)
    del text[first]
    log.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert main(["play", "jingzhou", "--replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"laizi play: {log}: line ") and err.count("\n") == 1


def _horses(log: Path) -> list[list[int]]:
    return [e["options"]["horses"] for e in _lines(log)
            if e["type"] == "hand"]


def test_the_person_is_asked_whether_to_buy_a_horse(tmp_path: Path) -> None:
    log = tmp_path / "room.jsonl"
    code, out = play(["huanghuang", "--people", "5", "--seed", "11", "--hands", "2",
                      "--save", str(log)])
    assert code == 0 and out.count("Buy a horse this hand") == 2
    assert all(len(h) == 5 for h in _horses(log))  # 1) buys: everyone has a horse
    # 2) no horse
    code, out = play(["huanghuang", "--people", "5", "--seed", "11", "--hands", "1",
                      "--save", str(log)], "2\n" + "1\n" * 2000)
    assert code == 0 and "Buy a horse this hand" in out
    table = _lines(log)[0]
    me = table["people"].index("you")
    first = _horses(log)[0]
    assert me not in first and len(first) == 4  # the four bots buy, you do not
    assert "\nyour horse:" not in out and out.count("'s horse: ") == 4
    assert "no horse: you" in out
    assert main(["verify", str(log)]) == 0


class HorseKeys(FirstChoice):
    """:class:`FirstChoice`, but the horse questions get ``answers`` in turn."""

    def __init__(self, screen: io.StringIO, answers: list[str]) -> None:
        super().__init__(screen)
        self.answers_left = list(answers)

    def readline(self) -> str:
        shown = self.screen.getvalue()
        if shown.endswith("(Enter: as last hand): "):
            self.pos = len(shown)
            return self.answers_left.pop(0) + "\n"
        return super().readline()


def test_a_horse_answer_holds_until_it_is_changed(tmp_path: Path) -> None:
    log = tmp_path / "room.jsonl"
    args = build_parser().parse_args(["play", "huanghuang", "--seed", "3", "--hands", "3",
                                      "--save", str(log)])
    out = io.StringIO()
    # hand 1: no horse; hand 2: Enter keeps that; hand 3: a horse again
    assert run(args, HorseKeys(out, ["2", "", "y"]), out) == 0
    me = _lines(log)[0]["people"].index("you")
    assert [me in h for h in _horses(log)] == [False, False, True]
    assert "(as last hand)" in out.getvalue()
