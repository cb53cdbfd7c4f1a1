#!/usr/bin/env bash
# Set up a virtual environment (first run only) with the hall's packages and start the
# hall on an embedded SQLite database (./laizi-hall.db); it prints the URL to open.
# Arguments go to `laizi serve`, e.g. `bash scripts/serve.sh --host 0.0.0.0 --port 8000`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q -e '.[server]'
exec .venv/bin/laizi serve "$@"
