#!/usr/bin/env bash
# Set up a virtual environment (first run only) and start the terminal game.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q -e .
exec .venv/bin/laizi play "${@:-jingzhou}"
