# Sourced by scripts/play.sh, serve.sh and test.sh (from the repository's root):
#   ensure_venv VENV SPEC
# creates the virtual environment VENV on the first run and installs laizi into it
# (pip install -e SPEC, e.g. '.[server]') only when needed: the first time, or when
# pyproject.toml, setup.py or the build backend changed since SPEC was installed (a
# stamp file in VENV holds their checksum with each SPEC). The code itself is an
# editable install: editing it needs no reinstall. LAIZI_REINSTALL=1 forces one.

laizi_checksum() {
  cat pyproject.toml setup.py build_backend/*.py 2>/dev/null | cksum | cut -d' ' -f1
}

# Whether the stamp says SPEC (or more: '.[dev]' holds '.[server]', any holds '.') was
# installed from the packaging whose checksum is SUM.
laizi_installed() {
  local stamp="$1" sum="$2" spec="$3"
  [ -f "$stamp" ] || return 1
  grep -qxF -- "$sum $spec" "$stamp" && return 0
  grep -qxF -- "$sum .[dev]" "$stamp" && return 0
  [ "$spec" = "." ] && grep -qF -- "$sum " "$stamp" && return 0
  return 1
}

ensure_venv() {
  local venv="$1" spec="$2" stamp sum
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
  fi
  stamp="$venv/.laizi-installed"
  sum="$(laizi_checksum)"
  if [ -n "${LAIZI_REINSTALL:-}" ] || [ ! -x "$venv/bin/laizi" ] \
      || ! laizi_installed "$stamp" "$sum" "$spec"; then
    echo "installing laizi ($spec) into $venv …" >&2
    "$venv/bin/python" -m pip install -q --upgrade pip
    "$venv/bin/python" -m pip install -q -e "$spec"
    { grep -F -- "$sum " "$stamp" 2>/dev/null || true; echo "$sum $spec"; } | sort -u > "$stamp.new"
    mv "$stamp.new" "$stamp"
  fi
}
