#!/usr/bin/env bash
# Set up a virtual environment (first run only) and run lint, types and the test suite.
#
# LAIZI_COMPILE=1 runs the suite on the compiled build instead (docs/build.md): laizi is
# installed into .venv-compiled with its hot modules compiled by mypyc (not editable, so
# the source tree stays pure), and the tests import that install.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${LAIZI_COMPILE:-}" in
  1|true|yes|on) compiled=1 ;;
  *) compiled=0 ;;
esac
venv=.venv
[ "$compiled" = 1 ] && venv=.venv-compiled
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install -q --upgrade pip
if [ "$compiled" = 0 ]; then
  LAIZI_COMPILE= "$venv/bin/python" -m pip install -q -e '.[dev]'
  "$venv/bin/ruff" check src tests benchmarks scripts build_backend setup.py
  "$venv/bin/mypy"
  LAIZI_EXPECT_BUILD=pure "$venv/bin/pytest" "$@"
else
  # the dependencies (from a quick pure build), then laizi itself compiled
  LAIZI_COMPILE= "$venv/bin/python" -m pip install -q '.[dev]'
  LAIZI_COMPILE=1 "$venv/bin/python" -m pip install -q --no-deps --force-reinstall .
  "$venv/bin/python" -c 'import laizi.buildinfo as b; print("laizi build:", b.build())'
  LAIZI_EXPECT_BUILD=compiled "$venv/bin/pytest" "$@"
fi
