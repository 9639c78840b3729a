"""What one grid barrier costs: Numba's ``cuda.cg.this_grid().sync()`` (through cudadevrt)
against a barrier built from two atomic counters (arrivals, generation) — the pattern CUDA C's
cooperative groups inline — each in a cooperative kernel of 256-thread blocks doing nothing
else, GPU time by CUDA events over ROUNDS barriers, minus the same kernel with none.
The one-launch kernel of gpu-fast pays one barrier per k-block (eight at n = 500): it is then
rebuilt with the atomic barrier instead and timed against itself at PROBE_N (500), with its
distances and marks compared.
Runs on the code as committed: ``python3 -m benchmarks.probe_barrier``."""
import inspect
import os

import numpy as np
from numba import cuda, int32

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import SIMULATED

from .common import TUNING, event_ms, graph, on_device

N = int(os.environ.get("PROBE_N", 500))

ROUNDS = 8 if SIMULATED else 1000
GRIDS = (1,) if SIMULATED else (64, 132)


@cuda.jit(device=True)
def atomic_barrier(sync, tid):
    """Every block of the grid arrives before any leaves: sync[0] counts arrivals, sync[1] is
    the generation the last arrival moves on (it also resets the count, for the next one)."""
    cuda.syncthreads()
    if tid == 0:
        generation = cuda.atomic.add(sync, 1, 0)
        cuda.threadfence()
        if cuda.atomic.add(sync, 0, 1) == cuda.gridDim.x - 1:
            cuda.atomic.exch(sync, 0, 0)
            cuda.threadfence()
            cuda.atomic.add(sync, 1, 1)
        else:
            while cuda.atomic.add(sync, 1, 0) == generation:
                pass
        cuda.threadfence()
    cuda.syncthreads()


@cuda.jit
def numba_syncs(rounds, out):
    grid = cuda.cg.this_grid()
    for _ in range(rounds):
        grid.sync()
    out[cuda.blockIdx.x] = rounds


@cuda.jit
def atomic_syncs(rounds, sync, out):
    cuda.cg.this_grid()  # a cooperative launch: every block resident at once
    tid = cuda.threadIdx.x
    for _ in range(rounds):
        atomic_barrier(sync, tid)
    out[cuda.blockIdx.x] = rounds


def per_barrier_us(launch) -> float:
    """Microseconds per barrier: (ROUNDS barriers − none) / ROUNDS."""
    return 1e3 * (event_ms(lambda: launch(ROUNDS)) - event_ms(lambda: launch(0))) / ROUNDS


def one_launch_with_atomic_barrier():
    """gpu-fast's one-launch kernel with every ``grid.sync()`` replaced by ``atomic_barrier``
    (one more argument: the two counters)."""
    source = gpu_fast.generated_source(TUNING)
    source = source.replace("def one_launch(W, D, V, nb):", "def one_launch(W, D, V, nb, sync):")
    source = source.replace("grid.sync()", "atomic_barrier(sync, tid)")
    source += "\n\n" + inspect.getsource(atomic_barrier.py_func)
    module = gpu_fast.module_from_source(source)
    return cuda.jit("void(int32[:, ::1], int32[:, ::1], int32[:, ::1], int32, int32[::1])")(module.one_launch)


def compare_one_launch(sync):
    """The committed one-launch kernel against its atomic-barrier twin at n = N."""
    kernel, most, _ = gpu_fast.one_launch(TUNING)
    twin = one_launch_with_atomic_barrier()
    w = graph(N, seed=5)
    W, D, V, _, nb = on_device(w)
    blocks, tile = max(1, min(most, nb * nb)), (TUNING.threads, TUNING.threads)
    answers = []
    for name, launch in (("grid.sync", lambda: kernel[blocks, tile](W, D, V, nb)),
                         ("atomic", lambda: twin[blocks, tile](W, D, V, nb, sync))):
        ms = event_ms(launch, reps=21)
        answers.append((D.copy_to_host(), V.copy_to_host()))
        print(f"n={N} one launch, {name} barriers: {ms:.3f} ms GPU", flush=True)
    same = all(np.array_equal(a, b) for a, b in zip(*answers))
    print(f"   distances and marks identical: {same}", flush=True)


def main():
    sync = cuda.to_device(np.zeros(2, np.int32))
    for blocks in GRIDS:
        out = cuda.device_array(blocks, np.int32)
        numba = per_barrier_us(lambda r: numba_syncs[blocks, 256](int32(r), out))
        atomic = per_barrier_us(lambda r: atomic_syncs[blocks, 256](int32(r), sync, out))
        atomic_syncs[blocks, 256](int32(ROUNDS), sync, out)
        done = bool((out.copy_to_host() == ROUNDS).all())
        print(f"{blocks} blocks: cg grid.sync {numba:.2f} µs, atomic barrier {atomic:.2f} µs "
              f"(every block done: {done}; arrivals left counted: {sync.copy_to_host()[0]})", flush=True)
    compare_one_launch(sync)


if __name__ == "__main__":
    main()
