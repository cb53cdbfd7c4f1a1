#!/usr/bin/env bash
# Set up a virtual environment (first run only) and run lint, types and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[dev]'
.venv/bin/ruff check src tests benchmarks scripts
.venv/bin/mypy
.venv/bin/pytest "$@"
