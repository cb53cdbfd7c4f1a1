#!/usr/bin/env bash
# Install the hall from a built wheel into a virtual environment: the one set of install
# steps that the container image (Dockerfile) and CI's wheel smoke test (.ci/run) both run.
#
#   bash scripts/install-hall.sh WHEEL VENV
#
# WHEEL: a laizi-*.whl (`python3 -m pip wheel --no-deps -w dist .`); VENV: the virtual
# environment to create (or reuse). Installs the wheel with its `server` extra
# (Starlette, uvicorn, SQLAlchemy, asyncpg, Redis, prometheus-client, …) and checks that
# the command starts: VENV/bin/laizi is then the hall (`laizi serve`, docs/deploy.md).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 WHEEL VENV" >&2
  exit 2
fi
wheel="$1"
venv="$2"
[ -f "$wheel" ] || { echo "install-hall: no wheel at $wheel" >&2; exit 2; }
python="${PYTHON:-python3}"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --no-cache-dir --upgrade pip
# the wheel's own path with the extra: pip resolves the dependencies from the registry
"$venv/bin/python" -m pip install -q --no-cache-dir "$(realpath "$wheel")[server]"
"$venv/bin/laizi" --version
"$venv/bin/laizi" serve --help >/dev/null
