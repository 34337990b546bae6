#!/usr/bin/env bash
# Prepare what a make target needs, and nothing more when it is already there:
#
#   bash tools/setup_env.sh lab    # make lab, bench, figures: what the lessons need
#   bash tools/setup_env.sh test   # make test, student, site: + test tools and PyTorch
#   bash tools/setup_env.sh notebooks  # test-notebooks-matrix: the lessons' packages,
#                                      # nbval and ipykernel (no JupyterLab, no PyTorch)
#
#   1. Graphviz's `dot` program, checked first: installed with apt-get when
#      running as root on Debian/Ubuntu, otherwise a message saying how to
#      install it (the lessons still run; drawings then show that message);
#   2. .venv (python -m venv) if it does not exist;
#   3. `pip install -e .[course]` (lab) or `-e .[test]` (test, which includes
#      the course extra), or for `notebooks` minigrad with the course extra
#      minus JupyterLab plus nbval and ipykernel (versions as pyproject.toml's
#      test extra asks) -- only when pyproject.toml or this script changed
#      since the last successful install (a stamp file inside .venv);
#   4. for `test` only: PyTorch 2.13.0, the CPU build, for the differential
#      tests (a few hundred MB; the default Linux build would be several GB).
#
# Settings (environment variables):
#   VENV                  where the virtual environment lives (default .venv)
#   PYTHON                interpreter used to create it (default python3)
#   MINIGRAD_TORCH        pip requirement for PyTorch (default torch==2.13.0);
#                         set it empty to skip PyTorch (its tests then skip).
#   MINIGRAD_TORCH_INDEX  package index of PyTorch's CPU builds (default
#                         https://download.pytorch.org/whl/cpu; empty: PyPI).
#   MINIGRAD_PIN          one more pip requirement installed with the packages, e.g.
#                         numpy==2.0.2 for the oldest numpy pyproject.toml allows (what
#                         Google Colab ships; the notebook matrix's 3.12:numpy==2.0.2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

MODE=${1:-lab}
case "$MODE" in lab|test|notebooks) ;; *) echo "usage: $0 lab|test|notebooks" >&2; exit 2 ;; esac
VENV=${VENV:-.venv}
PYTHON=${PYTHON:-python3}
MINIGRAD_TORCH=${MINIGRAD_TORCH-torch==2.13.0}
MINIGRAD_TORCH_INDEX=${MINIGRAD_TORCH_INDEX-https://download.pytorch.org/whl/cpu}
MINIGRAD_PIN=${MINIGRAD_PIN:-}
LOG="$VENV/pip-install.log"

say() { printf 'setup: %s\n' "$*"; }
die() { printf '\nsetup: ERROR: %s\n' "$*" >&2; exit 1; }

# pip, run against a local package mirror, warns once per package that the
# mirror has no page for it ("Location ... is ignored"). The warnings are
# harmless; keep the output for when something really fails.
quiet_pip() {
    if ! "$VENV/bin/python" -m pip --disable-pip-version-check "$@" >"$LOG" 2>&1; then
        grep -v -e "is ignored: it is" "$LOG" | tail -n 40 >&2 || true
        return 1
    fi
}

is_debian_like() {
    [ -r /etc/os-release ] || return 1
    # shellcheck disable=SC1091
    (. /etc/os-release; case " ${ID:-} ${ID_LIKE:-} " in
        *" debian "*|*" ubuntu "*) exit 0 ;;
        *) exit 1 ;;
    esac)
}

DOT_HELP="Graphviz's 'dot' program was not found; the course draws its graphs with it.
The lessons still run, but each drawing shows this advice instead of a picture.
Install Graphviz, then restart the notebook's kernel:
    Debian/Ubuntu:    sudo apt-get install graphviz
    macOS:            brew install graphviz
    no root / conda:  conda install -c conda-forge graphviz   (or micromamba / mamba;
                      then run make with that environment's bin folder on PATH)
    Windows:          winget install graphviz, then put its bin folder on PATH"

ensure_dot() {
    if command -v dot >/dev/null 2>&1; then
        return
    fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 && is_debian_like; then
        say "Graphviz's 'dot' program is missing: installing it with apt-get ..."
        export DEBIAN_FRONTEND=noninteractive
        if apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends graphviz >/dev/null \
            && command -v dot >/dev/null 2>&1; then
            say "installed $(dot -V 2>&1)"
            return
        fi
        say "'apt-get install graphviz' failed."
    fi
    [ "${MINIGRAD_CI:-}" = 1 ] && die "$DOT_HELP"
    printf '\nsetup: WARNING: %s\n\n' "$DOT_HELP" >&2
}

ensure_venv() {
    if [ -x "$VENV/bin/python" ]; then
        "$VENV/bin/python" -c 'import sys' 2>/dev/null \
            || die "$VENV exists but its python does not run (was the system Python upgraded?). Remove it with 'rm -rf $VENV' and run make again."
        return
    fi
    command -v "$PYTHON" >/dev/null 2>&1 \
        || die "'$PYTHON' not found. Install Python 3.10 or newer (or run: make PYTHON=/path/to/python3 ...)."
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
        || die "$("$PYTHON" --version 2>&1) is too old: the course needs Python 3.10 or newer."
    say "creating $VENV with $("$PYTHON" --version 2>&1)"
    "$PYTHON" -m venv "$VENV" \
        || die "'$PYTHON -m venv' failed. On Debian/Ubuntu install it with: apt-get install python3-venv"
}

fingerprint() {
    # Anything that changes what `$1` installs goes in here.
    "$VENV/bin/python" - "$1" "$MINIGRAD_TORCH" "$MINIGRAD_TORCH_INDEX" "$MINIGRAD_PIN" <<'PY'
import hashlib, sys
h = hashlib.sha256()
for name in ("pyproject.toml", "tools/setup_env.sh"):
    with open(name, "rb") as f:
        h.update(f.read())
h.update(repr(sys.argv[1:] + [sys.version]).encode())
print(h.hexdigest())
PY
}

# What the lessons import, and what runs them under nbval: the course extra without
# JupyterLab (the editor, not a lesson's import), nbval and ipykernel, each as
# pyproject.toml writes it. Read with a pattern, as Python 3.10 has no tomllib.
notebook_requirements() {
    "$VENV/bin/python" - <<'PY'
import re
text = open("pyproject.toml").read()
def extra(name):
    body = re.search(r"^%s = \[(.*?)^\]" % name, text, re.M | re.S).group(1)
    return re.findall(r'^\s*"([^"]+)"', body, re.M)
wanted = [r for r in extra("course") if not r.startswith("jupyterlab")]
wanted += [r for r in extra("test") if re.match(r"(nbval|ipykernel)\b", r)]
print("\n".join(wanted))
PY
}

stamp_ok() { [ -f "$VENV/.minigrad-$1.stamp" ] && [ "$(cat "$VENV/.minigrad-$1.stamp")" = "$(fingerprint "$1")" ]; }

install_torch() {
    [ -n "$MINIGRAD_TORCH" ] || { say "MINIGRAD_TORCH is empty: PyTorch not installed (its tests skip)"; return; }
    local index=() from="the default package index"
    # macOS wheels on PyPI are CPU builds already; elsewhere ask PyTorch's CPU index if it answers.
    if [ -n "$MINIGRAD_TORCH_INDEX" ] && [ "$(uname -s)" != Darwin ] \
        && "$VENV/bin/python" -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + '/torch/', timeout=10)" \
            "$MINIGRAD_TORCH_INDEX" 2>/dev/null; then
        index=(--index-url "$MINIGRAD_TORCH_INDEX" --extra-index-url https://pypi.org/simple)
        from=$MINIGRAD_TORCH_INDEX
    elif [ -n "$MINIGRAD_TORCH_INDEX" ] && [ "$(uname -s)" != Darwin ]; then
        say "$MINIGRAD_TORCH_INDEX did not answer; the default index may offer a larger (CUDA) build."
    fi
    say "installing $MINIGRAD_TORCH from $from ..."
    if ! quiet_pip install --quiet "${index[@]}" "$MINIGRAD_TORCH"; then
        [ "${MINIGRAD_CI:-}" = 1 ] && die "pip could not install $MINIGRAD_TORCH (log: $LOG)"
        say "WARNING: no $MINIGRAD_TORCH for this platform or Python; the tests that compare with PyTorch skip."
        return 1
    fi
}

ensure_packages() {
    # A test setup includes everything lab needs.
    if stamp_ok "$MODE" || { [ "$MODE" = lab ] && stamp_ok test; }; then
        return
    fi
    local started=$SECONDS extra=".[course]" more=() pin=()
    [ "$MODE" = test ] && extra=".[test]"
    # (the pin goes into every install below, so that no step brings in another version)
    [ -n "$MINIGRAD_PIN" ] && pin=("$MINIGRAD_PIN")
    if [ "$MODE" = notebooks ]; then
        extra="."
        mapfile -t more < <(notebook_requirements)
        [ ${#more[@]} -ge 3 ] || die "could not read the course and test extras from pyproject.toml"
        more+=("${pin[@]}")
    fi
    if [ ${#more[@]} -gt 0 ]; then
        say "installing ${more[*]} into $VENV ..."
        quiet_pip install --quiet "${more[@]}" || die "pip install ${more[*]} failed (full log: $LOG)"
    fi
    say "installing minigrad (editable) with $extra into $VENV ..."
    # The editable build writes minigrad_course.egg-info into the source tree: one
    # environment at a time (the notebook matrix sets up several side by side).
    local lock
    exec {lock}<pyproject.toml
    if command -v flock >/dev/null 2>&1; then flock "$lock"; fi
    quiet_pip install --quiet -e "$extra" "${pin[@]}" || die "pip install -e $extra ${pin[*]} failed (full log: $LOG)"
    exec {lock}<&-
    if [ "$MODE" = test ]; then
        install_torch || { say "packages installed in $((SECONDS - started)) s"; return; }
    fi
    fingerprint "$MODE" >"$VENV/.minigrad-$MODE.stamp"
    say "packages installed in $((SECONDS - started)) s"
}

ensure_dot
ensure_venv
ensure_packages
