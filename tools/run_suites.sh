#!/usr/bin/env bash
# `make test`: the test suites side by side, so that CI waits for the longest one rather
# than for all of them one after another:
#
#   bash tools/run_suites.sh FOREGROUND -- BACKGROUND...
#
# e.g. `bash tools/run_suites.sh test-lib -- test-notebooks test-browser test-notebooks-matrix`.
# Each name is a make target. The BACKGROUND suites start first, each writing into its own
# log; then FOREGROUND runs with its output shown as it comes. When it has finished, each
# background suite's log is printed whole, in the order given, once that suite has ended.
#
# Why this pays on two cores: the library tests keep both cores busy for most of the run,
# while the other suites mostly wait -- on a browser and JupyterLab to draw a page, on
# kernels to start, on pip to unpack packages -- and so take little from them.
#
# Every suite runs even when another fails; the exit status says if any did, and which.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

MAKE=${MAKE:-make}
[ $# -ge 2 ] && [ "$2" = "--" ] || { echo "usage: $0 FOREGROUND -- BACKGROUND..." >&2; exit 2; }
foreground=$1
shift 2
suites=("$@")

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
started=$SECONDS
pids=()
for suite in "${suites[@]}"; do
    echo "== $suite: started alongside $foreground (its output follows when it ends)"
    {
        suite_started=$SECONDS
        $MAKE --no-print-directory "$suite"
        rc=$?
        echo "($suite: $((SECONDS - suite_started)) s, exit status $rc)"
        exit $rc
    } </dev/null >"$logs/$suite.log" 2>&1 &
    pids+=($!)
done

failed=""
$MAKE --no-print-directory "$foreground" || failed="$failed $foreground"
echo "($foreground: $((SECONDS - started)) s)"

for i in "${!pids[@]}"; do
    suite=${suites[$i]}
    wait "${pids[$i]}" || failed="$failed $suite"
    echo
    cat "$logs/$suite.log"
done

if [ -n "$failed" ]; then echo; echo "make test: FAILED:$failed"; exit 1; fi
echo; echo "make test: all suites passed ($((SECONDS - started)) s)"
