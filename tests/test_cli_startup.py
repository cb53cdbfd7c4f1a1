"""``laizi``: the command table, ``--help`` and ``--version``, and that a command imports
only its own module (``laizi analyze`` starts in well under 100 ms)."""

from __future__ import annotations

import argparse
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import laizi
import laizi.commands
from laizi.cli import COMMANDS, build_parser, main, version

ROOT = Path(__file__).resolve().parent.parent


def _subparsers(parser: argparse.ArgumentParser
                ) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))


def test_the_table_lists_every_command_module() -> None:
    modules = {m.name for m in pkgutil.iter_modules(laizi.commands.__path__)
               if not m.name.startswith("_")}
    assert {c.replace("-", "_") for c in COMMANDS} == modules  # verify-ledger: verify_ledger


def test_the_table_help_is_the_modules_own() -> None:
    # The full parser registers every module; its one-line helps must be the table's,
    # or --help would say something else than the command does.
    shown = {a.dest: a.help for a in _subparsers(build_parser())._choices_actions}
    assert shown == COMMANDS


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    for name, help_text in COMMANDS.items():
        assert name in out and help_text.split()[0] in out
    assert "--version" in out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"laizi {version()}"
    assert version() == laizi.__version__


def test_version_matches_pyproject() -> None:
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    assert meta["project"]["version"] == laizi.__version__
    assert meta["project"]["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text("utf-8")


def _imported_after(argv: list[str]) -> set[str]:
    code = ("import sys, io, contextlib\n"
            "from laizi.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    code = main({argv!r})\n"
            "print(code)\n"
            "print('\\n'.join(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.splitlines()
    assert out[0] == "0"
    return set(out[1:])


def test_analyze_imports_only_what_it_needs() -> None:
    mods = _imported_after(["analyze", "123m456p789s1122z"])
    assert {m for m in mods if m.startswith("laizi.commands.")} == {"laizi.commands.analyze"}
    for heavy in ("rich", "laizi.engine", "laizi.bots", "laizi.sim", "laizi.scoring",
                  "laizi.table", "importlib.metadata"):
        assert heavy not in mods, heavy


def test_score_imports_its_own_module_only() -> None:
    mods = _imported_after(["score", "docs/examples/jingzhou-hand.json", "--json"])
    assert {m for m in mods if m.startswith("laizi.commands.")} == {"laizi.commands.score"}


def test_an_unknown_command_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["analyse", "123m"])
    assert stop.value.code == 2
    assert "invalid choice: 'analyse'" in capsys.readouterr().err


def test_the_hall_loads_redis_only_with_redis() -> None:
    # A hall without --redis never imports redis-py: about 45 ms of every start (and
    # every `laizi serve` of the suite pays its start).
    probe = ("import sys, laizi.server.app\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'redis'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout.strip()
    assert out == "[]", out
