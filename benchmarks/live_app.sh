#!/usr/bin/env bash
# The live app on the GPU host, in race mode with every variant that runs there, offscreen:
# frames/s, each variant's time per recompute, the latency from a change of the bags to the new
# routes drawn, and a screenshot — then the same with race mode off and a GPU variant as the
# dispatcher's (the latency a user of the GPU sees); first of all, on a fresh machine, the GPU's
# first use (benchmarks/first_use.py). Run from the repository root:
#   bash benchmarks/live_app.sh QT_BUNDLE.tar.xz OUTDIR [SECONDS] [GPU_VARIANT]
set -uo pipefail
bundle=${1:?usage: live_app.sh QT_BUNDLE.tar.xz OUTDIR [SECONDS] [GPU_VARIANT]}
out=${2:?} seconds=${3:-12} gpu_variant=${4:-gpu-blocked}
mkdir -p "$out"
source "$(dirname "$0")/qt_env.sh" "$bundle" || exit $?
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc
# first use on this machine (run it on a fresh one): the cold first call and the app's first route
python3 -m benchmarks.first_use hub-atl --variant "$gpu_variant" | tee "$out/first-use.json"
python3 main.py frame-rate airports/hub-atl.json --speeds 600 --race off --seconds "$seconds" \
    --variant "$gpu_variant" --json "$out/gpu-alone.json"
if [ "$SECONDS" -lt 330 ]; then
    python3 main.py frame-rate airports/hub-atl.json --speeds 600 --race on --seconds "$seconds" \
        --screenshot "$out/gpu-race.png" --json "$out/gpu-race.json"
else
    echo "skipped the race run: ${SECONDS}s used"
fi
echo "done in ${SECONDS}s"
