"""``laizi play huanghuang --people N``: a room at the terminal (bots, scripted input)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from laizi.cli import build_parser, main
from laizi.commands.play import run
from laizi.table.table import Table
from test_terminal_input import FirstChoice


def _run(argv: list[str], text: str | None = None) -> tuple[int, str]:
    """``laizi play`` with ``text`` typed (``None``: the lowest number at every prompt)."""
    args = build_parser().parse_args(argv)
    stdout = io.StringIO()
    code = run(args, io.StringIO(text) if text is not None else FirstChoice(stdout), stdout)
    return code, stdout.getvalue()


def test_auto_room_of_six_shows_horses_rotation_and_scores(capsys: Any) -> None:
    assert main(["play", "huanghuang", "--people", "6", "--hands", "3", "--auto",
                 "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count(" horse: ") == 18  # six people buy a horse in each of three hands
    assert "waiting 2" in out
    assert "下桌 leaves" in out or "nobody leaves" in out


def test_a_person_plays_from_the_keyboard() -> None:
    code, out = _run(["play", "huanghuang", "--people", "5", "--hands", "2", "--seed", "11"])
    assert code == 0
    assert "your choice" in out and "Room after 1 hand" in out


def test_a_person_in_a_room_of_six_plays_waits_and_saves(tmp_path: Path) -> None:
    log = tmp_path / "room.jsonl"
    code, out = _run(["play", "huanghuang", "--people", "6", "--hands", "6", "--seat", "1",
                      "--save", str(log)])
    assert code == 0
    assert "your choice" in out and "Room after 6 hands" in out
    assert out.count(" horse: ") == 36 and "secret deals (commitment" in out
    table = Table.from_log(log.read_text("utf-8").splitlines())
    assert table.closed and table.number == 6 and len(table.people) == 6
    assert "you" in table.people and sum(table.ledger.values()) == 0
    hands = [e for e in table.log if e["type"] == "hand"]
    assert hands[0]["seats"][1] == "you" and len(hands[0]["waiting"]) == 2
    # someone waits every hand; whenever it is the person, they are told so
    for h in hands:
        assert len(h["waiting"]) == 2
    if any("you" in h["waiting"] for h in hands):
        assert "You are waiting" in out
    assert main(["verify", str(log)]) == 0


def test_leaving_at_the_prompt_and_bad_arguments(capsys: Any) -> None:
    code, out = _run(["play", "huanghuang", "--people", "4", "--hands", "2", "--seed", "3"],
                     "q\n")
    assert code == 0 and "You leave the room." in out
    assert main(["play", "huanghuang", "--people", "9", "--auto"]) == 2
    assert "4-8" in capsys.readouterr().err
    assert main(["play", "jingzhou", "--people", "6", "--auto"]) == 2
    assert "--people" in capsys.readouterr().err
    assert main(["play", "huanghuang", "--option", "horses=1", "--auto"]) == 2
    assert "set by the room" in capsys.readouterr().err
