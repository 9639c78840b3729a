"""The via recovery alone at n = 8192 (PROBE_N) for several RECOVER_BATCH values (cells whose operands a
thread loads before testing any), each compiled on its own from gpu_fast's generator; gpu-fast
as it is checked first. Runs on the code as committed."""
from dataclasses import replace

import numpy as np

from engine.apsp import gpu_fast

from .common import TUNING, checked, event_ms, marked_rounds, registers, strict_bad

KERNEL = '''
@cuda.jit("void(int32[:, ::1], int32[:, ::1], int32[:, ::1])")
def recover(D, V, T):
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    i = cuda.blockIdx.y * RECOVER_ROWS + tid // B
    recover_cells(D, V, T, i, cuda.blockIdx.x * RECOVER_COLUMNS, tid % B)
'''


def recover_kernel(batch: int):
    t = replace(TUNING, recover_batch=batch)
    source = (f"from numba import cuda, int32\nB = {t.b}\n"
              f"RECOVER_COLUMNS = {t.recover_columns}\nRECOVER_ROWS = {t.recover_rows}\n"
              + gpu_fast.recover_source(t) + KERNEL)
    namespace = {}
    exec(compile(source, f"<recover batch {batch}>", "exec"), namespace)
    return namespace["recover"]


def main():
    rng = np.random.default_rng(0)
    w, dist, pairs = checked(rng)
    D, V, T, marks, size = marked_rounds(w)
    tile = (TUNING.threads,) * 2
    grid = (size // TUNING.recover_columns, size // TUNING.recover_rows)
    for batch in [b for b in (2, 4, 8, 16) if TUNING.recover_columns % b == 0]:
        kernel = recover_kernel(batch)
        ms = event_ms(lambda: kernel[grid, tile](D, V, T), before=lambda: V.copy_to_device(marks))
        via = V.copy_to_host()
        print(f"  recover batch {batch}: {ms:.2f} ms, regs {registers(kernel)}, "
              f"left-marked {int((via <= -2).sum())}, strict-bad {strict_bad(w, dist, via, pairs)}",
              flush=True)


if __name__ == "__main__":
    main()
