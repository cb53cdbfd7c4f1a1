"""What a person types at ``laizi play``: numbers that stay put within a turn, tiles in
any notation, and a scripted player (:class:`FirstChoice`) for the other terminal tests."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from rich.console import Console

from laizi.cli import build_parser
from laizi.commands.play import run
from laizi.engine.actions import Action
from laizi.table.driver import Decision
from laizi.table.table import Table
from laizi.ui.player import Display, Screen, TerminalController, read_tile

_MENU = re.compile(r"^ +(\d+)\) ", re.M)


class FirstChoice:
    """A keyboard that reads the screen: it answers every prompt with the lowest number
    on offer (Enter when none is), up to ``limit`` answers, then ends the input.

    Typing ``1`` blindly is not a script any more: numbers stay the same for a whole
    turn, so after a kong the first number may be gone."""

    def __init__(self, screen: io.StringIO, limit: int = 5000) -> None:
        self.screen = screen
        self.limit = limit
        self.answers = 0
        self.pos = 0

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        if self.answers >= self.limit:
            return ""
        self.answers += 1
        shown = self.screen.getvalue()
        numbers = _MENU.findall(shown, self.pos)
        self.pos = len(shown)
        return f"{min(map(int, numbers))}\n" if numbers else "\n"


def play(argv: list[str], keys: str | None = None, limit: int = 5000) -> tuple[int, str]:
    """``laizi play ARGV`` with ``keys`` typed (``None``: :class:`FirstChoice`)."""
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    stdin = io.StringIO(keys) if keys is not None else FirstChoice(out, limit)
    return run(args, stdin, out), out.getvalue()


def _decision(table: Table, legal: tuple[Action, ...], discards: int) -> Decision:
    view = {"phase": "turn", "turn": 0, "discards": [[0] * discards, [], []]}
    return Decision(table, 0, "you", legal, _view=view)


def test_numbers_stay_put_within_a_turn_and_start_afresh_after_a_discard() -> None:
    table = Table("jingzhou", None, ["you", "bot 1", "bot 2"], seed=1)
    console = Console(file=io.StringIO())
    person = TerminalController(Screen(table, "you", Display(), console), io.StringIO())
    kong = Action("special_kong", 0, 33)
    a, b, c, d = (Action("discard", 0, t) for t in (9, 12, 20, 27))
    first = person.numbered(_decision(table, (kong, a, b, c), 0))
    assert first == [(1, kong), (2, a), (3, b), (4, c)]
    # after the 红中杠: the tiles keep their numbers, the replacement takes a free one
    after = person.numbered(_decision(table, (a, b, c, d), 0))
    assert dict((x, n) for n, x in after) == {a: 2, b: 3, c: 4, d: 1}
    # the next turn (a discard since) is numbered afresh
    fresh = person.numbered(_decision(table, (b, c, d), 1))
    assert fresh == [(1, b), (2, c), (3, d)]


def test_tiles_are_read_in_every_notation() -> None:
    assert read_tile("4z") == read_tile("北") == read_tile("北风") == read_tile("🀃") \
        == read_tile("F4") == read_tile("4Z") == 30
    assert read_tile("五筒") == read_tile("5p") == read_tile("B5") == 13
    assert read_tile("zz") is None and read_tile("") is None


def _first_actions(log: Path) -> list[dict[str, Any]]:
    lines = [json.loads(x) for x in log.read_text("utf-8").splitlines()]
    return [e["action"] for e in lines if e["type"] == "action"
            and e["action"]["seat"] == 0 and e["action"]["type"] != "pass"]


def test_a_person_discards_by_typing_the_tile(tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    # seed 5: the dealer (you) holds 北 4z and 西 3z; then 4z is typed in MPSZ
    code, out = play(["jingzhou", "--seed", "5", "--save", str(log)], "北\n西\nq\n")
    assert code == 0 and "your choice: 北" in out
    acts = _first_actions(log)
    assert [(a["type"], a["tile"]) for a in acts[:2]] == [("discard", 30), ("discard", 29)]
    code, out = play(["jingzhou", "--seed", "5", "--save", str(log)], "5m\n4z\nq\n")
    assert "五万 5m is not in your choices." in out
    assert [(a["type"], a["tile"]) for a in _first_actions(log)[:1]] == [("discard", 30)]


def test_the_scripted_keyboard_plays_hands_to_their_end() -> None:
    code, out = play(["jingzhou", "--seed", "2", "--hands", "2"])
    assert code == 0 and "your choice: " in out and "after 2 hands" in out
