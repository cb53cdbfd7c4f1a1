#!/usr/bin/env bash
# Set up a virtual environment (first run only) and start the terminal game.
# With no arguments: 荆州麻将 (jingzhou), a match of 8 hands against two bots.
# Otherwise the arguments go to `laizi play`, e.g. `bash scripts/play.sh taiwan`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q -e .
if [ $# -eq 0 ]; then
  set -- jingzhou --hands 8
fi
exec .venv/bin/laizi play "$@"
