"""``laizi play huanghuang --people N``: a room at the terminal (bots, scripted input)."""

from __future__ import annotations

import argparse
import io
from typing import Any

from laizi.cli import main
from laizi.ui.huanghuang import play_room


def test_auto_room_of_six_shows_horses_rotation_and_scores(capsys: Any) -> None:
    assert main(["play", "huanghuang", "--people", "6", "--hands", "3", "--auto",
                 "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert out.count("horse of ") == 18  # six people buy a horse in each of three hands
    assert "waiting 2" in out
    assert "下桌 leaves" in out or "nobody leaves" in out


def test_a_person_plays_from_the_keyboard() -> None:
    args = argparse.Namespace(people=5, hands=2, seat=0, dealer=0, seed=11, auto=False,
                              option=[], variant="huanghuang")
    stdout = io.StringIO()
    code = play_room(args, io.StringIO("1\n" * 400), stdout)
    assert code == 0
    out = stdout.getvalue()
    assert "your choice" in out and "Room after 1 hand(s)" in out


def test_leaving_at_the_prompt_and_bad_arguments(capsys: Any) -> None:
    args = argparse.Namespace(people=4, hands=2, seat=0, dealer=0, seed=3, auto=False,
                              option=[], variant="huanghuang")
    stdout = io.StringIO()
    assert play_room(args, io.StringIO("q\n"), stdout) == 0
    assert "You leave the room." in stdout.getvalue()
    assert main(["play", "huanghuang", "--people", "9", "--auto"]) == 2
    assert "4-8" in capsys.readouterr().err
    assert main(["play", "jingzhou", "--people", "6", "--auto"]) == 2
    assert "--people" in capsys.readouterr().err
    assert main(["play", "huanghuang", "--option", "horses=1", "--auto"]) == 2
