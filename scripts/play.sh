#!/usr/bin/env bash
# Set up a virtual environment (pip runs on the first start and when the packaging
# changes, not on every start: scripts/venv.sh) and start the terminal game.
# With no arguments: 荆州麻将 (jingzhou), a match of 8 hands against two bots.
# Otherwise the arguments go to `laizi play`, e.g. `bash scripts/play.sh taiwan`.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
ensure_venv .venv .  # pip runs only when pyproject.toml / setup.py changed
if [ $# -eq 0 ]; then
  set -- jingzhou --hands 8
fi
exec .venv/bin/laizi play "$@"
