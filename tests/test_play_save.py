"""``laizi play VARIANT --save LOG``: every variant plays at the one table and its log
passes ``laizi verify``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from laizi.cli import build_parser, main
from laizi.commands.play import run
from laizi.table.table import Table
from laizi.variants import BUILTIN, ids
from test_terminal_input import FirstChoice

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]


def test_every_variant_is_covered() -> None:
    assert set(VARIANTS) == set(BUILTIN) and set(VARIANTS) <= set(ids())


@pytest.mark.parametrize("variant", VARIANTS)
def test_auto_hands_save_a_log_that_verify_accepts(
        variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A deep directory: the line naming the log is wider than the console, which wraps it
    # (tests/test_terminal_screens.py holds every line to the width), anywhere, the path
    # included (a CI run's longer temporary directory once had it cut in the middle): the
    # words are compared without the breaks.
    deep = tmp_path / ("a-rather-long-directory-name-" * 3) / "and-another-one-below-it"
    deep.mkdir(parents=True)
    log = deep / f"{variant}.jsonl"
    assert main(["play", variant, "--auto", "--hands", "3", "--save", str(log)]) == 0
    out = capsys.readouterr().out
    assert "secret deals (commitment" in out
    said = f"Table log written to {log} (check it: laizi verify {log}; watch it again: " \
        f"laizi play {variant} --replay {log})."
    assert "".join(said.split()) in "".join(out.split()), out[-600:]
    lines = log.read_text("utf-8").splitlines()
    kinds = [json.loads(line)["type"] for line in lines]
    assert kinds[0] == "table" and kinds[-1] == "close"
    assert kinds.count("hand") == kinds.count("hand_end") == 3
    head, close = json.loads(lines[0]), json.loads(lines[-1])
    assert "commitment" in head and "seed" not in head and "secret" in close
    assert main(["verify", str(log)]) == 0
    verdict = capsys.readouterr().out
    assert verdict.startswith(f"ok: {variant}, 3 hand(s)")
    # one action changed: refused
    i = kinds.index("action")
    bad = list(lines)
    del bad[i]
    log.write_text("\n".join(bad) + "\n", encoding="utf-8")
    assert main(["verify", str(log)]) == 1
    assert "REJECTED" in capsys.readouterr().err


def test_a_public_seed_gives_the_same_log(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert main(["play", "jingzhou", "--auto", "--seed", "4", "--hands", "2",
                     "--save", str(path)]) == 0
    assert a.read_text("utf-8") == b.read_text("utf-8")
    assert json.loads(a.read_text("utf-8").splitlines()[0])["seed"] == 4
    capsys.readouterr()
    assert main(["verify", str(a)]) == 0
    assert "public seed" in capsys.readouterr().out


def test_quitting_mid_hand_closes_and_saves_the_table(tmp_path: Path) -> None:
    log = tmp_path / "quit.jsonl"
    args = build_parser().parse_args(["play", "taiwan", "--hands", "4", "--save", str(log)])
    out = io.StringIO()
    assert run(args, io.StringIO("1\n1\nq\n"), out) == 0
    text = out.getvalue()
    assert "your choice" in text and "You leave the table." in text
    table = Table.from_log(log.read_text("utf-8").splitlines())
    assert table.closed and table.log[-1].get("abandoned") == 0
    assert main(["verify", str(log)]) == 0


def test_a_person_plays_every_variant_to_the_end(tmp_path: Path) -> None:
    for variant in VARIANTS:
        log = tmp_path / f"{variant}.jsonl"
        args = build_parser().parse_args(["play", variant, "--hands", "1", "--seed", "2",
                                          "--save", str(log)])
        out = io.StringIO()
        assert run(args, FirstChoice(out), out) == 0, variant
        text = out.getvalue()
        assert "your choice" in text and "1)" in text, variant
        table = Table.from_log(log.read_text("utf-8").splitlines())
        assert table.number == 1 and "you" in table.people
        assert [e for e in table.log if e["type"] == "hand_end"], variant


def test_an_unwritable_log_is_a_user_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no" / "such" / "dir" / "x.jsonl"
    assert main(["play", "jingzhou", "--auto", "--save", str(target)]) == 2
    captured = capsys.readouterr()
    assert "cannot write" in captured.err and captured.err.count("\n") == 1
    assert captured.out == ""  # refused before any hand was dealt
