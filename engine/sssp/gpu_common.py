"""What every GPU SSSP variant shares: the graph's device copy (made once, kept on the graph),
buffers kept between calls, launch sizes.

Launch sizes are small under Numba's CUDA simulator, where every GPU thread is a Python thread.
"""

from numba import cuda

from ..gpu_device import simulated
# the variants import these from here
from ..gpu_launch import THREADS, blocks_for, bounded_rounds, co_resident_blocks, timed_on_device  # noqa: F401
from ..gpu_memory import kept_buffer  # noqa: F401
from .graph import INF

SIMULATED = simulated()
INF64 = INF


def upload(g, transposed: bool = False):
    """(indptr, indices, weights) on the device, of ``g`` or of its reverse; copied once."""
    key = "reverse" if transposed else "forward"
    if key not in g.device:
        h = g.transpose() if transposed else g
        g.device[key] = tuple(cuda.to_device(a) for a in (h.indptr, h.indices, h.weights))
    return g.device[key]


@cuda.jit
def fill(a, value):
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


@cuda.jit
def set_value(a, i, value):
    if cuda.grid(1) == 0:
        a[i] = value


def reset_distances(d, source):
    """d ← INF everywhere, 0 at ``source`` (the seed's Initial phase)."""
    fill[blocks_for(d.size), THREADS](d, INF64)
    set_value[1, 1](d, source, 0)


@cuda.jit(device=True)
def pulled_label(indptr, indices, weights, d, v):
    """min(d[v], d[u] + c(u, v) over v's in-edges): row v of the reversed graph (indptr,
    indices, weights), one min-plus product row."""
    best = d[v]
    for e in range(indptr[v], indptr[v + 1]):
        du = d[indices[e]]
        if du < INF64 and du + weights[e] < best:
            best = du + weights[e]
    return best
