"""GPU shared: the paper's shared-memory kernel — row k staged in shared memory, one launch per k.

Each thread block takes SH_TILE_WIDTH (256, the paper's ``SH_TILE_WIDTH``) consecutive columns
u of one row v. The block first copies its 256-wide piece of row k (costs and Path) into
shared memory, then every thread relaxes (v, u) through k from there. Row k cannot change
during step k (the diagonal is 0), so no launch races with itself.
"""

from numba import cuda, int32

from .gpu_common import SIMULATED, ceil_div, device_cost_and_path, empty_result, timed_on_device
from .routes import RouteMatrix

# Compiled into the kernel's shared-memory size: set before this module is imported.
SH_TILE_WIDTH = 8 if SIMULATED else 256


@cuda.jit("void(int32[:, ::1], int32[:, ::1], int32, int32)", cache=not SIMULATED)
def cuda_kernel_shared(matrix, path, size, k):
    row_k = cuda.shared.array(SH_TILE_WIDTH, int32)
    path_k = cuda.shared.array(SH_TILE_WIDTH, int32)
    v = cuda.blockIdx.y
    u = SH_TILE_WIDTH * cuda.blockIdx.x + cuda.threadIdx.x
    # load row k's tile from global memory to shared memory
    if u < size:
        row_k[cuda.threadIdx.x] = matrix[k, u]
        path_k[cuda.threadIdx.x] = path[k, u]
    cuda.syncthreads()
    if u < size:
        candidate = int32(matrix[v, k] + row_k[cuda.threadIdx.x])
        if candidate < matrix[v, u]:
            matrix[v, u] = candidate
            path[v, u] = path_k[cuda.threadIdx.x]


def run(w):
    n = w.shape[0]
    if n == 0:
        return empty_result(w)
    matrix, path = device_cost_and_path(w)
    grid, block = (ceil_div(n, SH_TILE_WIDTH), n), SH_TILE_WIDTH

    def all_k():
        for k in range(n):
            cuda_kernel_shared[grid, block](matrix, path, n, k)

    seconds = timed_on_device(all_k)
    return matrix.copy_to_host(), RouteMatrix("predecessor", path.copy_to_host()), seconds
