"""The start scripts (issue 38, item 8), run in a copy of the repository's packaging files
with a stand-in virtual environment whose ``python`` only logs how it was called:

* ``scripts/serve.sh`` and ``scripts/play.sh`` run pip on the first start and when
  pyproject.toml changes, never on every start;
* ``scripts/test.sh`` says loudly, before and after the run, when the browser tests are
  skipped and how to install chromium; in CI it says they must run (and no banner);
* the hall's default database (and its -wal / -shm) is ignored by git.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

if shutil.which("bash") is None:  # pragma: no cover - depends on the machine
    pytest.skip("needs bash", allow_module_level=True)

FAKE = """#!/bin/sh
echo "$(basename "$0") $*" >> "$LAIZI_FAKE_LOG"
case "$1" in -c) exit 1 ;; esac
exit 0
"""


def _repo(tmp: Path) -> Path:
    """A copy of the scripts and the packaging, with a stand-in .venv."""
    repo = tmp / "repo"
    shutil.copytree(ROOT / "scripts", repo / "scripts")
    for name in ("pyproject.toml", "setup.py"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, repo / name)
    shutil.copytree(ROOT / "build_backend", repo / "build_backend")
    bin_ = repo / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for tool in ("python", "laizi", "ruff", "mypy", "pytest", "pip"):
        (bin_ / tool).write_text(FAKE)
        (bin_ / tool).chmod(stat.S_IRWXU)
    return repo


def _run(repo: Path, script: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # (the suite may itself run under test.sh's compiled mode, LAIZI_COMPILE=1, whose
    # stand-in venv is another one: the scripts run here in their plain mode)
    full = {k: v for k, v in os.environ.items()
            if k not in ("CI", "LAIZI_REINSTALL", "LAIZI_COMPILE", "LAIZI_EXPECT_BUILD")}
    full.update(LAIZI_FAKE_LOG=str(repo / "calls.log"), **env)
    return subprocess.run(["bash", f"scripts/{script}", *args], cwd=repo, env=full,
                          capture_output=True, text=True, timeout=60)


def _pip_runs(repo: Path) -> int:
    log = repo / "calls.log"
    lines = log.read_text().splitlines() if log.exists() else []
    return sum(1 for line in lines if "pip install" in line and "-e" in line)


@pytest.mark.parametrize("script", ["serve.sh", "play.sh"])
def test_start_scripts_install_only_when_the_packaging_changes(tmp_path: Path,
                                                               script: str) -> None:
    repo = _repo(tmp_path)
    for _ in range(3):
        r = _run(repo, script, "--help")
        assert r.returncode == 0, r.stderr
    assert _pip_runs(repo) == 1  # the first start only
    assert "laizi " + ("serve" if script == "serve.sh" else "play") + " --help" in \
        (repo / "calls.log").read_text()
    with open(repo / "pyproject.toml", "a") as f:
        f.write("\n# a new dependency\n")
    _run(repo, script, "--help")
    _run(repo, script, "--help")
    assert _pip_runs(repo) == 2  # once more after the change
    _run(repo, script, "--help", LAIZI_REINSTALL="1")
    assert _pip_runs(repo) == 3


def test_play_after_serve_needs_no_install(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    _run(repo, "serve.sh", "--help")
    _run(repo, "play.sh", "--help")
    assert _pip_runs(repo) == 1  # '.[server]' holds '.'


def test_test_script_says_loudly_that_browser_tests_are_skipped(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    r = _run(repo, "test.sh", "-q", LAIZI_CHROMIUM=str(tmp_path / "no-chromium"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("THE BROWSER TESTS ARE SKIPPED") == 2  # before and after
    assert "apt-get install chromium fonts-noto-cjk" in r.stderr
    assert "no chromium at" in r.stderr and "playwright is not installed" in r.stderr
    calls = (repo / "calls.log").read_text()
    assert "pytest -q" in calls
    # the banner comes before pytest's output and again after it
    assert r.stderr.index("SKIPPED") < r.stderr.rindex("SKIPPED")


def test_test_script_in_ci_has_no_banner_but_says_the_tests_must_run(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    r = _run(repo, "test.sh", LAIZI_CHROMIUM=str(tmp_path / "no-chromium"), CI="true")
    assert "THE BROWSER TESTS ARE SKIPPED" not in r.stderr
    assert "CI: the browser tests must run" in r.stderr


def test_hall_database_is_ignored_by_git() -> None:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = ["laizi-hall.db", "laizi-hall.db-wal", "laizi-hall.db-shm"]
    r = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.stdout.split() == names
