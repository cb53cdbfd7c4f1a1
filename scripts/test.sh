#!/usr/bin/env bash
# Set up a virtual environment (pip on the first run and when the packaging changes:
# scripts/venv.sh) and run lint, types and the test suite.
#
# The browser tests (tests/test_browser*.py) need playwright (in '.[dev]') and Debian's
# chromium: without them they are skipped, and this script says so loudly at the start
# and again at the end, with how to install them. In CI (CI=true) they must run: there a
# missing browser fails the suite.
#
# LAIZI_COMPILE=1 runs the suite on the compiled build instead (docs/build.md): laizi is
# installed into .venv-compiled with its hot modules compiled by mypyc (not editable, so
# the source tree stays pure), and the tests import that install; the browser tests
# (marked `browser`, tests/conftest.py) are left out there, and it says so.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${LAIZI_COMPILE:-}" in
  1|true|yes|on) compiled=1 ;;
  *) compiled=0 ;;
esac
venv=.venv
[ "$compiled" = 1 ] && venv=.venv-compiled
# shellcheck source=scripts/venv.sh
. scripts/venv.sh

# Why the browser tests would be skipped here ("" when they can run), as they decide it.
browser_missing() {
  local chromium why=""
  chromium="${LAIZI_CHROMIUM:-$(command -v chromium || echo /usr/bin/chromium)}"
  [ -e "$chromium" ] || why="no chromium at $chromium"
  if ! "$venv/bin/python" -c 'import playwright.sync_api' 2>/dev/null; then
    why="${why:+$why; }playwright is not installed in $venv"
  fi
  echo "$why"
}

browser_banner() {
  local line="########################################################################"
  {
    echo "$line"
    echo "##  THE BROWSER TESTS ARE SKIPPED: $1"
    echo "##  (tests/test_browser*.py: the table, replays and the score-keeper in chromium)"
    echo "##  Install them:  sudo apt-get install chromium fonts-noto-cjk"
    echo "##                 $venv/bin/pip install -e '.[dev]'   (playwright; never"
    echo "##                 'playwright install': Debian's chromium is used)"
    echo "$line"
  } >&2
}

# Before pytest, and again at its end: whether the browser tests will be skipped.
warn_browser() {
  missing="$(browser_missing)"
  [ -z "$missing" ] && return 0
  if [ "${CI:-}" = "true" ]; then
    echo "CI: the browser tests must run, and will fail: $missing" >&2
  else
    browser_banner "$missing"
    trap 'browser_banner "$missing"' EXIT  # again at the end, after pytest's output
  fi
}

if [ "$compiled" = 0 ]; then
  LAIZI_COMPILE= ensure_venv "$venv" '.[dev]'
  warn_browser
  "$venv/bin/ruff" check src tests benchmarks scripts build_backend setup.py
  "$venv/bin/mypy"
  LAIZI_EXPECT_BUILD=pure "$venv/bin/pytest" "$@"
else
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  "$venv/bin/python" -m pip install -q --upgrade pip
  # the dependencies (from a quick pure build), then laizi itself compiled
  LAIZI_COMPILE= "$venv/bin/python" -m pip install -q '.[dev]'
  LAIZI_COMPILE=1 "$venv/bin/python" -m pip install -q --no-deps --force-reinstall .
  "$venv/bin/python" -c 'import laizi.buildinfo as b; print("laizi build:", b.build())'
  # The browser tests drive the JS client, which the compiled build does not change; the
  # hall behind them is tested here by the websocket tests. Left out, and said so loudly.
  note="THE COMPILED PASS LEAVES OUT THE BROWSER TESTS (-m 'not browser'): they test the"
  note="$note JS client, the same in both builds, and run on the pure package (scripts/test.sh)"
  echo "## $note" >&2
  trap 'echo "## $note" >&2' EXIT
  LAIZI_EXPECT_BUILD=compiled "$venv/bin/pytest" -m "not browser" "$@"
fi
