"""GPU blocked: Venkataraman's three-phase Floyd–Warshall with 32×32 shared-memory tiles.

For every k-block (``stages`` of them), in order:

- phase 1: the self-dependent block — the diagonal tile relaxes itself through its own k's;
- phase 2: the tiles on the same row and column as it, each against the finished diagonal tile;
- phase 3: every other tile, against its row's and its column's phase-2 tiles.

Every tile keeps the paper's Path matrix beside its costs. Cells beyond n load as INF (no edge),
so n need not be a multiple of the tile: such a cell never improves anything and is never stored.
"""

from numba import cuda, int32

from .gpu_common import SIMULATED, ceil_div, device_cost_and_path, empty_result, timed_on_device
from .matrix import INF
from .routes import RouteMatrix

# Compiled into the kernels' shared-memory size: set before this module is imported.
BLCK_TILE_WIDTH = 4 if SIMULATED else 32

_INF = int32(INF)
_SIG = "void(int32[:, ::1], int32[:, ::1], int32, int32, int32)"


@cuda.jit(device=True, inline=True)
def _load(matrix, path, size, v, u, sub_matrix, sub_path):
    """subMatrix[ty][tx] = matrix[v, u] (INF and -1 beyond the graph)."""
    ty, tx = cuda.threadIdx.y, cuda.threadIdx.x
    if v < size and u < size:
        sub_matrix[ty, tx] = matrix[v, u]
        sub_path[ty, tx] = path[v, u]
    else:
        sub_matrix[ty, tx] = _INF
        sub_path[ty, tx] = -1


@cuda.jit(device=True, inline=True)
def _load_cost(matrix, size, v, u, sub_matrix):
    """subMatrix[ty][tx] = matrix[v, u] (INF beyond the graph)."""
    if v < size and u < size:
        sub_matrix[cuda.threadIdx.y, cuda.threadIdx.x] = matrix[v, u]
    else:
        sub_matrix[cuda.threadIdx.y, cuda.threadIdx.x] = _INF


@cuda.jit(_SIG, cache=not SIMULATED)
def phase1(matrix, path, size, k_block, base):
    """The self-dependent block: plain Floyd–Warshall inside the diagonal tile."""
    sub_matrix = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    sub_path = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    ty, tx = cuda.threadIdx.y, cuda.threadIdx.x
    v, u = base + ty, base + tx
    _load(matrix, path, size, v, u, sub_matrix, sub_path)
    cuda.syncthreads()
    for k in range(BLCK_TILE_WIDTH):
        total = int32(sub_matrix[ty, k] + sub_matrix[k, tx])
        if total < sub_matrix[ty, tx]:
            sub_matrix[ty, tx] = total
            sub_path[ty, tx] = sub_path[k, tx]
        cuda.syncthreads()
    if v < size and u < size:
        matrix[v, u] = sub_matrix[ty, tx]
        path[v, u] = sub_path[ty, tx]


@cuda.jit(_SIG, cache=not SIMULATED)
def phase2(matrix, path, size, k_block, base):
    """The diagonal tile's row (blockIdx.y == 0) and column (== 1) tiles, against the diagonal."""
    if cuda.blockIdx.x == k_block:
        return
    primary_matrix = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    primary_path = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    own_matrix = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    own_path = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    ty, tx = cuda.threadIdx.y, cuda.threadIdx.x
    _load(matrix, path, size, base + ty, base + tx, primary_matrix, primary_path)
    in_row = cuda.blockIdx.y == 0
    if in_row:
        v, u = base + ty, BLCK_TILE_WIDTH * cuda.blockIdx.x + tx
    else:
        v, u = BLCK_TILE_WIDTH * cuda.blockIdx.x + ty, base + tx
    _load(matrix, path, size, v, u, own_matrix, own_path)
    cuda.syncthreads()
    for k in range(BLCK_TILE_WIDTH):
        if in_row:  # v -> k inside the diagonal tile, then k -> u along this row tile
            total = int32(primary_matrix[ty, k] + own_matrix[k, tx])
            via_path = own_path[k, tx]
        else:       # v -> k along this column tile, then k -> u inside the diagonal tile
            total = int32(own_matrix[ty, k] + primary_matrix[k, tx])
            via_path = primary_path[k, tx]
        if total < own_matrix[ty, tx]:
            own_matrix[ty, tx] = total
            own_path[ty, tx] = via_path
        cuda.syncthreads()
    if v < size and u < size:
        matrix[v, u] = own_matrix[ty, tx]
        path[v, u] = own_path[ty, tx]


@cuda.jit(_SIG, cache=not SIMULATED)
def phase3(matrix, path, size, k_block, base):
    """Every remaining tile: v -> k along its row's column tile, k -> u along the row tile."""
    if cuda.blockIdx.x == k_block or cuda.blockIdx.y == k_block:
        return
    col_matrix = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    row_matrix = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    row_path = cuda.shared.array((BLCK_TILE_WIDTH, BLCK_TILE_WIDTH), int32)
    ty, tx = cuda.threadIdx.y, cuda.threadIdx.x
    v = BLCK_TILE_WIDTH * cuda.blockIdx.y + ty
    u = BLCK_TILE_WIDTH * cuda.blockIdx.x + tx
    _load_cost(matrix, size, v, base + tx, col_matrix)
    _load(matrix, path, size, base + ty, u, row_matrix, row_path)
    inside = v < size and u < size
    v_u = _INF
    p_u = -1
    if inside:
        v_u = matrix[v, u]
        p_u = path[v, u]
    cuda.syncthreads()
    for k in range(BLCK_TILE_WIDTH):
        total = int32(col_matrix[ty, k] + row_matrix[k, tx])
        if total < v_u:
            v_u = total
            p_u = row_path[k, tx]
    if inside:
        matrix[v, u] = v_u
        path[v, u] = p_u


def run(w):
    n = w.shape[0]
    if n == 0:
        return empty_result(w)
    matrix, path = device_cost_and_path(w)
    stages = ceil_div(n, BLCK_TILE_WIDTH)
    block = (BLCK_TILE_WIDTH, BLCK_TILE_WIDTH)

    def all_k_blocks():
        for k in range(stages):
            base = BLCK_TILE_WIDTH * k
            phase1[1, block](matrix, path, n, k, base)
            phase2[(stages, 2), block](matrix, path, n, k, base)
            phase3[(stages, stages), block](matrix, path, n, k, base)

    seconds = timed_on_device(all_k_blocks)
    return matrix.copy_to_host(), RouteMatrix("predecessor", path.copy_to_host()), seconds
