#!/usr/bin/env bash
# Prepare everything `make lab`, `make test`, `make bench` and `make figures`
# need, and nothing more when it is already there:
#
#   1. .venv (python3 -m venv) if it does not exist;
#   2. `pip install -e .[course,test]` plus PyTorch (CPU build, for the
#      differential tests) -- only when pyproject.toml or this script changed
#      since the last successful install (a stamp file inside .venv);
#   3. Graphviz's `dot` program: installed with apt-get when running as root
#      on Debian/Ubuntu, otherwise a clear message saying how to install it.
#
# Settings (environment variables):
#   VENV            where the virtual environment lives (default .venv)
#   PYTHON          interpreter used to create it (default python3)
#   MINIGRAD_TORCH  pip requirement for PyTorch (default torch==2.13.0);
#                   set it empty to skip PyTorch (its tests then skip).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}
MINIGRAD_TORCH=${MINIGRAD_TORCH-torch==2.13.0}
EXTRAS=".[course,test]"
STAMP="$VENV/.minigrad-setup.stamp"
LOG="$VENV/pip-install.log"

say() { printf 'setup: %s\n' "$*"; }
die() { printf '\nsetup: ERROR: %s\n' "$*" >&2; exit 1; }

# pip, run against a local package mirror, warns once per package that the
# mirror has no page for it ("Location ... is ignored"). The warnings are
# harmless; keep the output for when something really fails.
quiet_pip() {
    if ! "$VENV/bin/python" -m pip --disable-pip-version-check "$@" >"$LOG" 2>&1; then
        grep -v -e "is ignored: it is" "$LOG" | tail -n 40 >&2 || true
        die "pip $* failed (full log: $LOG)"
    fi
}

ensure_venv() {
    if [ -x "$VENV/bin/python" ]; then
        "$VENV/bin/python" -c 'import sys' 2>/dev/null \
            || die "$VENV exists but its python does not run (was the system Python upgraded?). Remove it with 'rm -rf $VENV' and run make again."
        return
    fi
    command -v "$PYTHON" >/dev/null 2>&1 \
        || die "'$PYTHON' not found. Install Python 3.9 or newer (or run: make PYTHON=/path/to/python3 ...)."
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 9))' \
        || die "$("$PYTHON" --version 2>&1) is too old: the course needs Python 3.9 or newer."
    say "creating $VENV with $("$PYTHON" --version 2>&1)"
    "$PYTHON" -m venv "$VENV" \
        || die "'$PYTHON -m venv' failed. On Debian/Ubuntu install it with: apt-get install python3-venv"
}

install_fingerprint() {
    # Anything that changes what gets installed goes in here.
    "$VENV/bin/python" - "$MINIGRAD_TORCH" "$EXTRAS" <<'EOF'
import hashlib, sys
h = hashlib.sha256()
for name in ("pyproject.toml", "tools/setup_env.sh"):
    with open(name, "rb") as f:
        h.update(f.read())
h.update(repr(sys.argv[1:] + [sys.version]).encode())
print(h.hexdigest())
EOF
}

ensure_packages() {
    local want
    want=$(install_fingerprint)
    if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
        return
    fi
    say "installing minigrad (editable) with the course and test tools into $VENV ..."
    local started=$SECONDS
    local reqs=(-e "$EXTRAS")
    if [ -n "$MINIGRAD_TORCH" ]; then
        reqs+=("$MINIGRAD_TORCH")
    fi
    quiet_pip install --quiet "${reqs[@]}"
    printf '%s\n' "$want" >"$STAMP"
    say "packages installed in $((SECONDS - started)) s"
}

is_debian_like() {
    [ -r /etc/os-release ] || return 1
    # shellcheck disable=SC1091
    (. /etc/os-release; case " ${ID:-} ${ID_LIKE:-} " in
        *" debian "*|*" ubuntu "*) exit 0 ;;
        *) exit 1 ;;
    esac)
}

ensure_dot() {
    if command -v dot >/dev/null 2>&1; then
        return
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && is_debian_like; then
        say "Graphviz's 'dot' program is missing: installing it with apt-get ..."
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq >/dev/null \
            || die "'apt-get update' failed; install Graphviz by hand: apt-get install -y graphviz"
        apt-get install -y -qq --no-install-recommends graphviz >/dev/null \
            || die "'apt-get install graphviz' failed; install Graphviz by hand."
        command -v dot >/dev/null 2>&1 || die "graphviz was installed but 'dot' is still not on PATH."
        say "installed $(dot -V 2>&1)"
        return
    fi
    die "Graphviz's 'dot' program was not found; the course draws its graphs with it.
Install Graphviz, then run make again:
    Debian/Ubuntu:  sudo apt-get install graphviz
    macOS:          brew install graphviz
    conda:          conda install -c conda-forge graphviz
    (Windows:       winget install graphviz, then put its bin folder on PATH)"
}

ensure_venv
ensure_packages
ensure_dot
