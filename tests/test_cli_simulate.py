"""``laizi simulate`` / ``arena``: a bad --plot or --bots is refused before any hand is
played, in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from laizi.bots.registry import BotSpecError, make_bot, parse_spec
from laizi.cli import main


@pytest.fixture
def no_hands(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Fails the test if a hand is played; counts the attempts."""
    played: list[int] = []

    def run_tasks(tasks: Any, **kw: Any) -> Any:
        played.append(len(tasks))
        raise AssertionError("a hand was played before the arguments were checked")

    monkeypatch.setattr("laizi.sim.parallel.run_tasks", run_tasks)
    return played


@pytest.mark.parametrize(("plot", "message"), [
    ("/no/such/dir/x.png", "no directory '/no/such/dir'"),
    (".", "is a directory"),
    ("figure.txt", "expected a .png"),
])
def test_plot_path_is_checked_first(plot: str, message: str, no_hands: list[int],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "jingzhou", "--hands", "50", "--no-progress",
                 "--plot", plot]) == 2
    err = capsys.readouterr().err
    assert err.startswith("laizi simulate: ") and len(err.splitlines()) == 1
    assert message in err and not no_hands


def test_plot_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "jingzhou.png"
    assert main(["simulate", "jingzhou", "--hands", "3", "--no-progress",
                 "--plot", str(out)]) == 0
    assert out.stat().st_size > 1000 and "figure written" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["simulate", "arena"])
@pytest.mark.parametrize(("bots", "message"), [
    ("search:budget_ms=abc", "parameter budget_ms: expected a number, got 'abc'"),
    ("search:budget_ms=-1", "bad parameters for bot 'search'"),
    ("search:budgetms=3", "has no parameter 'budgetms'"),
    ("greedy:defence=maybe", "parameter defence: expected true or false"),
    ("random:x=1", "bot 'random' has no parameter 'x'"),
    ("greed", "unknown bot 'greed'"),
])
def test_bad_bot_specs_are_one_line(command: str, bots: str, message: str,
                                    no_hands: list[int],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "jingzhou", "--hands", "3", "--no-progress", "--bots", bots]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"laizi {command}: ") and len(err.splitlines()) == 1
    assert message in err and not no_hands


def test_spec_values_take_the_parameters_types() -> None:
    assert parse_spec("search:budget_ms=0:rollouts=8:margin=none") == \
        ("search", {"budget_ms": 0, "rollouts": 8, "margin": None})
    assert parse_spec("greedy:defence=0") == ("greedy", {"defence": False})
    with pytest.raises(BotSpecError, match="rollouts: expected a whole number"):
        parse_spec("search:rollouts=2.5")
    assert make_bot("search:budget_ms=0:rollouts=2").name == "search"
