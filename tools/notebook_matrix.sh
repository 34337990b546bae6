#!/usr/bin/env bash
# The lessons under nbval on other supported Pythons (`make test-notebooks-matrix`):
#
#   bash tools/notebook_matrix.sh 3.10 3.13
#
# For each version: its interpreter from pyenv (`pyenv root`/versions/<version>.*, the
# newest patch release), else python<version> on PATH; a virtual environment .venv-<version>
# with minigrad, the lessons' packages, nbval and ipykernel, but not PyTorch (made by
# tools/setup_env.sh, so it is reused until pyproject.toml changes); then nbval on the
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

run_one() {
    local version=$1 python=$2 venv=".venv-$1" started=$SECONDS
    echo "== notebook tests on Python $version ($python)"
    VENV=$venv PYTHON=$python bash tools/setup_env.sh notebooks || return 1
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
    echo "(Python $version: $((SECONDS - started)) s with its environment)"
    return $rc
}

[ $# -gt 0 ] || { echo "usage: $0 VERSION..." >&2; exit 2; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
pids=() versions=() failed=""
for version in "$@"; do
    python=$(find_python "$version")
    if [ -z "$python" ]; then
        echo "== notebook tests on Python $version: no python$version under pyenv or on PATH"
        if [ $strict = 1 ]; then failed="$failed $version(missing)"; else echo "(skipped: install it, e.g. pyenv install $version)"; fi
        continue
    fi
    run_one "$version" "$python" >"$logs/$version.log" 2>&1 &
    pids+=($!) versions+=("$version")
done
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"; rc=$?
    cat "$logs/${versions[$i]}.log"
    [ $rc -eq 0 ] || failed="$failed ${versions[$i]}"
done
if [ -n "$failed" ]; then echo "notebook tests failed on Python:$failed"; exit 1; fi
