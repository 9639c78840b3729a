# Issue 35 on the GPU machine: the MST GPU tests; warm spanning_forest calls on the resident goal
# graphs timed with this tree's code ("after", forests checked against cpu-kruskal) and, when
# BEFORE_ROOT names another checkout (main), with that one's on the very same graphs ("before");
# then the benchmark's goal lines (python main.py bench, each forest checked against scipy).
# Run from anywhere after the pip line of shared/gpu/README.md (PYTHONPATH starting /tmp/site:);
# reports under $OUT (8 files). The device tool, from /work/main with this tree in .xfer/mstmem:
#   python3 -m pip install ... --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site:$PWD;
#   BEFORE_ROOT=$PWD bash .xfer/mstmem/benchmarks/mst_host.sh
here=$(cd "$(dirname "$0")/.." && pwd)
site=${PYTHONPATH%%:*}
cd "$here" || exit 1
export PYTHONUNBUFFERED=1 PYTHONPATH="$site:$here"
timeout -s ABRT 170 python3 -m pytest -q -x -p no:cacheprovider -p no:benchmark tests/test_mst_gpu.py \
    tests/test_mst_gpu_fast.py > "$OUT/tests.txt" 2>&1
grep -E "passed|failed|error|Fatal Python error|File .*/tests/test_" "$OUT/tests.txt" | tail -8
timeout 220 python3 benchmarks/probe_mst_host.py after > "$OUT/after.txt" 2>&1
tail -n 4 "$OUT/after.txt"
if [ -n "$BEFORE_ROOT" ]; then
    (cd "$BEFORE_ROOT" && PYTHONPATH="$site:$BEFORE_ROOT" timeout 150 python3 "$here/benchmarks/probe_mst_host.py" \
        before > "$OUT/before.txt" 2>&1)
    tail -n 4 "$OUT/before.txt"
fi
for goal in "uniform 5000000" "grid 4194304"; do
    set -- $goal
    echo "python main.py bench --problem mst --variants gpu-fast-mst --mst-families $1 --no-airports --sizes $2 --budget 30"
    timeout 150 python3 main.py bench --problem mst --variants gpu-fast-mst --mst-families "$1" --no-airports \
        --sizes "$2" --budget 30 --out "/tmp/bench-$1" 2> "/tmp/bench-$1.err" || tail -c 2000 "/tmp/bench-$1.err"
    cp "/tmp/bench-$1/bench.json" "$OUT/bench-$1.json"
done 2>&1 | tee "$OUT/bench.txt"
