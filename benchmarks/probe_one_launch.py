"""Where the one-launch kernel's GPU time goes at n = 500 (PROBE_N): the committed kernel timed
back to back (CUDA events) against copies of it with one part taken out each — the diagonal
closure, the row and column products a phase-3 block makes for itself, every tile's work, the
padding of the input — so each part's cost is the difference (those copies compute wrong
answers: only their time is read), and against other schedules, whose distances and marks
must equal the first variant's (the committed kernel's, unless other names come first). The input
is in device memory, and in mapped host memory for the committed kernel. Runs on the code as committed:
``python3 -m benchmarks.probe_one_launch [NAME ...]`` (the named variants only)."""
import os
import sys

import numpy as np

from numba import cuda

from engine.apsp import gpu_fast

from .common import TUNING, event_ms, graph, on_device

N = int(os.environ.get("PROBE_N", 500))

CLOSURE = "closure(D, V, base, mark, C, cuda.blockIdx.x == (kb * nb + kb) % cuda.gridDim.x)"
OWN_PRODUCTS = "                mul_shared(As, As, C)\n                mul_shared(Bs, C, Bs)\n"
TILE_LOOP = "for t in range(cuda.blockIdx.x, nb * nb, cuda.gridDim.x):"
PAD = "pad_cells(W, D, V, cuda.blockIdx.x * THREADS + tid, cuda.gridDim.x * THREADS)"
PHASE3_AND_BARRIER = """            elif i != base:
                load_tiles(D, i, base, As, base, j, Bs)
                mul_shared(As, As, C)
                mul_shared(Bs, C, Bs)
                mul_global(D, V, i, j, mark, As, Bs)
            cuda.syncthreads()
        grid.sync()
"""
# The row and column tiles first, a grid barrier, then phase 3 reading them from D: each block
# does one product per round instead of three, for one more barrier.
PHASE3_AFTER_A_BARRIER = """            cuda.syncthreads()
        grid.sync()
        for t in range(cuda.blockIdx.x, nb * nb, cuda.gridDim.x):
            i = t // nb * B
            j = t % nb * B
            if i != base and j != base:
                load_tiles(D, i, base, As, base, j, Bs)
                mul_global(D, V, i, j, mark, As, Bs)
            cuda.syncthreads()
        grid.sync()
"""

ABLATIONS = {
    "as committed": [],
    "closure replaced by a tile load": [(CLOSURE, "load_tile(D, base, base, C)")],
    "phase-3 blocks without their own row/column products": [(OWN_PRODUCTS, "")],
    "no tile work (closure and barrier only)": [(TILE_LOOP, "for t in range(0):")],
    "no tile work, no closure (barriers only)": [
        (TILE_LOOP, "for t in range(0):"), (CLOSURE, "load_tile(D, base, base, C)")],
    "no padding": [(PAD, "pass")],
    "two barriers per round": [(PHASE3_AND_BARRIER, PHASE3_AFTER_A_BARRIER)],
}


def variant(replacements):
    """The one-launch kernel compiled from the generated source with ``replacements`` made."""
    source = gpu_fast.generated_source(TUNING)
    for old, new in replacements:
        assert old in source, old
        source = source.replace(old, new)
    module = gpu_fast.module_from_source(source)
    return cuda.jit("void(int32[:, ::1], int32[:, ::1], int32[:, ::1], int32)")(module.one_launch)


def main():
    w = graph(N, seed=5)
    W, D, V, T, nb = on_device(w)
    _, most, _ = gpu_fast.one_launch(TUNING)
    grid, tile = max(1, min(most, nb * nb)), (TUNING.threads,) * 2
    buf = gpu_fast.Solver(TUNING).buffers.small(N, nb * TUNING.b)
    buf["w"][...] = w
    committed = None
    for name in sys.argv[1:] or ABLATIONS:
        kernel = variant(ABLATIONS[name])
        device_ms = event_ms(lambda: kernel[grid, tile](W, D, V, nb), reps=21)
        answer = D.copy_to_host(), V.copy_to_host()
        committed = committed or answer
        line = f"   {name}: {device_ms:.3f} ms, same distances and marks: " + str(
            all(np.array_equal(a, b) for a, b in zip(answer, committed)))
        if not ABLATIONS[name]:
            line += f" (input mapped: {event_ms(lambda: kernel[grid, tile](buf['W'], D, V, nb), reps=21):.3f})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
