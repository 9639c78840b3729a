# The spanning-forest checks and benchmark run on the H100 host (README "Minimum spanning trees"):
# the GPU tests without the simulator, then the benchmark (uniform random up to GTgraph's 5 M / 30 M,
# then road-like grids up to 2048² and R-MAT, then the airports). Results under $OUT.
timeout 150 python3 -m pytest -q -x -p no:cacheprovider tests/test_mst_gpu.py > "$OUT/pytest.txt" 2>&1
tail -3 "$OUT/pytest.txt"
timeout 220 python3 main.py bench --problem mst --mst-families uniform --no-airports \
    --sizes 1024 65536 1048576 5000000 --out "$OUT/uniform" 2> "$OUT/uniform.err"
tail -c 1500 "$OUT/uniform.err"
timeout 200 python3 main.py bench --problem mst --mst-families grid rmat \
    --sizes 1024 65536 1048576 4194304 --out "$OUT/grid_rmat" 2> "$OUT/grid_rmat.err"
tail -c 1500 "$OUT/grid_rmat.err"
