#!/usr/bin/env bash
# Set up a virtual environment with the hall's packages (pip runs on the first start and
# when the packaging changes, not on every start: scripts/venv.sh) and start the hall on
# an embedded SQLite database (./laizi-hall.db); it prints the URLs to open (with
# --host 0.0.0.0 also the addresses a phone on the same wifi opens).
# Arguments go to `laizi serve`, e.g. `bash scripts/serve.sh --host 0.0.0.0 --port 8000`.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/venv.sh
. scripts/venv.sh
ensure_venv .venv '.[server]'  # pip runs only when pyproject.toml / setup.py changed
exec .venv/bin/laizi serve "$@"
