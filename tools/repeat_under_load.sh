#!/usr/bin/env bash
# Run pytest on TESTS N times in a row while a busy loop runs on every core, to show a test does
# not depend on timing or on what else the machine does. Prints each run's result and the load.
#   bash tools/repeat_under_load.sh 20 tests/test_sweep_cluster.py
set -u
runs=${1:?usage: repeat_under_load.sh N TESTS...}; shift
loops=()
for _ in $(seq "$(nproc)"); do bash -c 'while :; do :; done' & loops+=($!); done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT
date -u
clean=0
for i in $(seq "$runs"); do
    out=$(python -m pytest -q -p no:cacheprovider "$@" 2>&1 | tail -1)
    case $out in *failed*|*error*|"") ;; *passed*) clean=$((clean + 1)) ;; esac
    echo "run $i: $out | $(uptime | sed 's/.*load/load/')"
done
echo "$clean of $runs runs clean"; date -u
