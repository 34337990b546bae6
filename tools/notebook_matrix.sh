#!/usr/bin/env bash
# The lessons under nbval on other supported Pythons (`make test-notebooks-matrix`):
#
#   bash tools/notebook_matrix.sh 3.10 3.13 3.12:numpy==2.0.2
#
# Each argument is a Python version, optionally followed by one pip requirement after a
# colon that is installed with the other packages: 3.12:numpy==2.0.2 is Google Colab's Python
# with its numpy, the oldest numpy pyproject.toml allows.
# For each: its interpreter from pyenv (`pyenv root`/versions/<version>.*, the newest patch
# release), else python<version> on PATH; a virtual environment .venv-<version> (with a
# requirement: .venv-3.12-numpy2.0.2) with minigrad, the lessons' packages, nbval and
# ipykernel, but not PyTorch (made by tools/setup_env.sh, so it is reused until
# pyproject.toml changes); then nbval on the
# notebooks with the same options as `make test-notebooks` (NBVAL_ARGS, NOTEBOOKS).
# The versions run side by side, each into its own log, printed whole when it ends.
# A missing Python is skipped with a message, and is a failure under MINIGRAD_CI=1.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

NOTEBOOKS=${NOTEBOOKS:-notebooks}
read -r -a nbval_args <<<"${NBVAL_ARGS:---nbval --nbval-current-env --nbval-cell-timeout=300 --nbval-sanitize-with notebooks/sanitize.cfg -p no:cacheprovider}"
strict=0
[ "${MINIGRAD_CI:-}" != "" ] && [ "${MINIGRAD_CI:-}" != 0 ] && strict=1

find_python() {
    local version=$1 root candidate best=""
    if command -v pyenv >/dev/null 2>&1; then root=$(pyenv root); else root=${PYENV_ROOT:-$HOME/.pyenv}; fi
    for candidate in "$root"/versions/"$version".*/bin/python"$version"; do
        [ -x "$candidate" ] && best=$candidate      # the glob sorts; keep the last that runs
    done
    [ -z "$best" ] && best=$(command -v "python$version" 2>/dev/null)
    [ -n "$best" ] && printf '%s\n' "$best"
}

# .venv-3.10 for 3.10, .venv-3.12-numpy2.0.2 for 3.12:numpy==2.0.2
venv_of() {
    local version=${1%%:*} pin=""
    [ "$1" != "$version" ] && pin=${1#*:}
    if [ -n "$pin" ]; then printf '.venv-%s-%s\n' "$version" "${pin//[^A-Za-z0-9.]/}"; else printf '.venv-%s\n' "$version"; fi
}

run_one() {
    local version=${1%%:*} pin="" python=$2 venv started=$SECONDS
    [ "$1" != "$version" ] && pin=${1#*:}
    venv=$(venv_of "$1")
    echo "== notebook tests on Python $version${pin:+ with $pin} ($python)"
    VENV=$venv PYTHON=$python MINIGRAD_PIN=$pin bash tools/setup_env.sh notebooks || return 1
    # (importing what a kernel imports writes their bytecode once, before nbval starts a kernel:
    # in a new environment on a busy machine, the first kernel spent so long compiling that
    # its client gave it up, "Kernel died before replying to kernel_info")
    "$venv/bin/python" -c 'import sys, numpy, ipykernel.kernelapp, matplotlib.pyplot, graphviz, minigrad
print(f"Python {sys.version.split()[0]}, numpy {numpy.__version__}")'
    local out rc
    out=$(mktemp)
    "$venv/bin/python" -m pytest "${nbval_args[@]}" "$NOTEBOOKS" >"$out" 2>&1
    rc=$?
    cat "$out"
    if [ $rc -ne 0 ] && grep -q "Kernel died before replying to kernel_info" "$out"; then
        # a kernel that never started says nothing about the lessons: run them once more
        echo "(a kernel died while it started: the notebooks once more)"
        "$venv/bin/python" -m pytest "${nbval_args[@]}" "$NOTEBOOKS"
        rc=$?
    fi
    rm -f "$out"
    echo "(Python $version${pin:+ with $pin}: $((SECONDS - started)) s with its environment)"
    return $rc
}

[ $# -gt 0 ] || { echo "usage: $0 VERSION[:REQUIREMENT]..." >&2; exit 2; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=() entries=() failed=""
for entry in "$@"; do
    version=${entry%%:*}
    python=$(find_python "$version")
    if [ -z "$python" ]; then
        echo "== notebook tests on Python $version: no python$version under pyenv or on PATH"
        if [ $strict = 1 ]; then failed="$failed $entry(missing)"; else echo "(skipped: install it, e.g. pyenv install $version)"; fi
        continue
    fi
    run_one "$entry" "$python" >"$logs/${#pids[@]}.log" 2>&1 &
    pids+=($!) entries+=("$entry")
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"; rc=$?
    cat "$logs/$i.log"
    [ $rc -eq 0 ] || failed="$failed ${entries[$i]}"
done
if [ -n "$failed" ]; then echo "notebook tests failed on Python:$failed"; exit 1; fi
