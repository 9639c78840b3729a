"""The add-min ceilings from Numba, registers only, every SM busy: int32 ``min(d, int32(a + b))``
(one relaxation an instruction) against ``gpu_lanes16.addmin2`` (two). Each thread keeps 16
registers, each relaxed through the next one every step (a loop-invariant operand would let the
compiler fold the int32 loop away); relaxations per second = threads · steps · 16 (· 2 for
lanes) / time.

    python3 -m benchmarks.probe_lanes_ceiling
"""

from numba import cuda, int32

from engine.apsp.gpu_lanes16 import addmin2
from benchmarks.common import median_launch_seconds

CHAINS = 16


def _kernel(relax: str):
    """A kernel relaxing CHAINS registers ``steps`` times with ``relax`` (source generated)."""
    lines = ["def spin(out, b, steps):",
             "    t = cuda.grid(1)",
             *[f"    d{c} = int32(t + {c})" for c in range(CHAINS)],
             "    y = (b[0], b[1], b[2], b[3])",
             "    for s in range(steps):",
             *[f"        d{c} = " + relax.format(d=f"d{c}", a=f"d{(c + 1) % CHAINS}", b=f"y[{c // 4}]")
               for c in range(CHAINS)],
             "    out[t] = " + " ^ ".join(f"d{c}" for c in range(CHAINS))]
    scope = {"cuda": cuda, "int32": int32, "addmin2": addmin2}
    exec("\n".join(lines), scope)
    return cuda.jit("void(int32[::1], int32[::1], int32)")(scope["spin"])


def main():
    blocks, threads, steps = 132 * 16, 256, 4096
    out = cuda.device_array(blocks * threads, "int32")
    b = cuda.to_device([5 | 5 << 16, 6 | 6 << 16, 7 | 7 << 16, 8 | 8 << 16])
    for name, relax, per in (("int32 min(d, a + b)", "min({d}, int32({a} + {b}))", 1),
                             ("lanes16 addmin2", "addmin2({d}, {a}, {b})", 2)):
        kernel = _kernel(relax)[blocks, threads]
        kernel(out, b, steps)
        seconds = median_launch_seconds(lambda: kernel(out, b, steps))
        rate = blocks * threads * steps * CHAINS * per / seconds
        print(f"{name:22s} {rate / 1e12:6.2f} x10^12 relaxations/s", flush=True)


if __name__ == "__main__":
    main()
