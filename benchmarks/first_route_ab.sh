#!/usr/bin/env bash
# The app's first route on the hub from empty caches, from the app process's launch (its imports
# included) and from the window's construction, for this tree and another checkout, alternated:
# this, other, this, ... (the first run on a fresh machine also meets a cold disk). Each run is a
# fresh process with fresh, empty cache folders (Numba's, XDG's, CUDA's). From the repo root:
#   bash benchmarks/first_route_ab.sh QT_BUNDLE.tar.xz OTHER_TREE [ROUNDS] [VARIANT] [TIMEOUT_S]
set -uo pipefail
bundle=${1:?usage: first_route_ab.sh QT_BUNDLE.tar.xz OTHER_TREE [ROUNDS] [VARIANT] [TIMEOUT_S]}
other=$(cd "${2:?}" && pwd) rounds=${3:-1} variant=${4:-gpu-fast} timeout=${5:-20}
here=$PWD base_path=${PYTHONPATH:-}
source "$(dirname "$0")/qt_env.sh" "$bundle" || exit $?
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc; date -u
launch='import subprocess, sys, time; sys.exit(subprocess.run([sys.executable, "-m",
    "benchmarks.first_use", *sys.argv[1:], "--app-only", "--launched", repr(time.monotonic())]).returncode)'
one() {   # $1 label, $2 tree
    local c; c=$(mktemp -d)
    echo "### $1 ($2)"
    (cd "$2" && PYTHONPATH=/tmp/bagroute-qt/site:$base_path:$2 XDG_CACHE_HOME=$c XDG_CONFIG_HOME=$c \
        NUMBA_CACHE_DIR=$c/numba CUDA_CACHE_PATH=$c/nv python3 -c "$launch" hub-atl \
        --variant "$variant" --timeout "$timeout")
}
one this "$here"
for _ in $(seq "$rounds"); do one other "$other"; one this "$here"; done
