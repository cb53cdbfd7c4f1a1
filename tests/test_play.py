"""``laizi play``: the terminal game driven through stdin (no keyboard needed)."""

from __future__ import annotations

import io

import pytest

from laizi.cli import main


def run(argv: list[str], text: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_auto_hand_runs_to_the_settlement(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "jingzhou", "--seed", "3", "--auto"], "", monkeypatch, capsys)
    assert code == 0
    assert "seed 3" in out and "赖子" in out and "Running ledger" in out
    assert "after 1 hand " in out


def test_person_plays_by_numbers(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "jingzhou", "--seed", "5", "--hands", "2"], "1\n" * 400,
                       monkeypatch, capsys)
    assert code == 0
    assert "your choice" in out and "1)" in out
    assert "hand 2 · dealer" in out and "after 2 hands" in out
    assert "seed 6" not in out  # no per-hand seeds: the table deals from its own key


def test_bad_input_is_asked_again_and_end_of_input_leaves(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["play", "jingzhou", "--seed", "5"], "zz\n99\n?\n", monkeypatch, capsys)
    assert code == 0 and err == ""
    assert out.count("Please type a number") == 2
    assert "marked *" in out  # the help text
    assert "You leave the table." in out


def test_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["play", "jingzhou", "--seed", "1"], "q\n", monkeypatch, capsys)
    assert code == 0 and "You leave the table." in out


def test_same_seed_same_deal(monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    a = run(["play", "jingzhou", "--seed", "9", "--auto"], "", monkeypatch, capsys)[1]
    b = run(["play", "jingzhou", "--seed", "9", "--auto"], "", monkeypatch, capsys)[1]
    assert a == b


@pytest.mark.parametrize(("argv", "message"), [
    (["play", "nosuch"], "unknown variant"),
    (["play", "jingzhou", "--seat", "3"], "--seat must be 0-2"),
    (["play", "jingzhou", "--option", "cap"], "NAME=VALUE"),
    (["play", "jingzhou", "--option", "nope=1"], "unknown jingzhou option"),
])
def test_user_errors_exit_2(argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(argv, "", monkeypatch, capsys)
    assert code == 2 and message in err and err.count("\n") == 1


@pytest.mark.parametrize(("variant", "wild", "other"), [
    ("jingzhou", "赖子 laizi", "黄金牌"),
    ("huanghuang", "癞子 laizi", "黄金牌"),
    ("golden", "黄金牌 golden tile", "赖子"),
])
def test_view_panel_names_the_wild_tile_in_the_variant_s_words(
        variant: str, wild: str, other: str) -> None:
    from laizi.engine import Game
    from laizi.ui.terminal import board_title

    title = " ".join(board_title(Game(variant, seed=3).view(0), ["you", "bot 1", "bot 2",
                                                                  "bot 3"]))
    assert wild in title and other not in title
