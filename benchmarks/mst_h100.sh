# The spanning-forest checks and benchmark run on the H100 host (README "Minimum spanning trees"):
# the GPU tests without the simulator; the benchmark on uniform random graphs up to GTgraph's
# 5 M / 30 M, on road-like grids up to 2048² and R-MAT with the airports; then the goal
# graphs for the two GPU variants alone with a budget that lets gpu-boruvka reach them.
# Reports under $OUT (JSON only: the device returns at most 8 files).
# A hung test is named with its stack (tests/hang_guard.py; past 150 s SIGABRT makes pytest's
# faulthandler dump every thread).
timeout -s ABRT 150 python3 -m pytest -q -x -p no:cacheprovider tests/test_mst_gpu.py tests/test_mst_gpu_fast.py 2>&1 \
    | grep -E "passed|failed|error|still running|Fatal Python error|File .*/tests/test_"
bench() {  # OUT_NAME ARGS…: one report, its table printed, its errors shown if it failed
    local name=$1; shift
    timeout 200 python3 main.py bench --problem mst --out "/tmp/$name" "$@" 2> "/tmp/$name.err" \
        || tail -c 2000 "/tmp/$name.err"
    cp "/tmp/$name/bench.json" "$OUT/$name.json"
}
bench uniform --mst-families uniform --no-airports --sizes 1024 65536 1048576 5000000
bench grid_rmat --mst-families grid rmat --sizes 1024 65536 1048576 4194304
bench goal_uniform --variants gpu-fast-mst gpu-boruvka --mst-families uniform --no-airports \
    --sizes 5000000 --budget 30
bench goal_grid --variants gpu-fast-mst gpu-boruvka --mst-families grid --no-airports \
    --sizes 4194304 --budget 30
