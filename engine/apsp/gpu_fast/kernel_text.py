"""The kernels of gpu-fast that only schedule (padding, transposes, the via recovery's launch,
the one-launch loop, the lanes' pack and widen): fixed kernel text, completed by
``source.generated_source`` with the tuning's constants and the launch signatures."""

SCHEDULE_SOURCE = '''
@cuda.jit(device=True, inline=True)
def peripheral_origin(kb, t, nb):
    """Phase 2 tile number t: t < nb-1 is a row tile, else a column tile (diagonal skipped)."""
    j = t % (nb - 1)
    j += 1 if j >= kb else 0
    if t < nb - 1:
        return kb * B, j * B
    return j * B, kb * B


@cuda.jit(device=True, inline=True)
def pad_cell(W, D, V, i, j):
    """D = W grown with isolated vertices (INF rows and columns, 0 diagonal); V = -1."""
    n = W.shape[0]
    if i < n and j < n:
        D[i, j] = W[i, j]
    else:
        D[i, j] = 0 if i == j else INF
    V[i, j] = -1


@cuda.jit(device=True)
def pad_cells(W, D, V, first, step):
    size = D.shape[0]
    for e in range(first, size * size, step):
        pad_cell(W, D, V, e // size, e % size)


@cuda.jit(device=True)
def transpose_tile(D, T, row0, col0, S, tid):
    """T's tile (col0, row0) = D's tile (row0, col0) transposed, through shared S (rows skewed
    so both the writes and the column reads hit distinct banks)."""
    for e in range(tid, B * B, THREADS):
        r = e // B
        c = e % B
        S[r, (c + r) % B] = D[row0 + r, col0 + c]
    cuda.syncthreads()
    for e in range(tid, B * B, THREADS):
        r = e // B
        c = e % B
        T[col0 + r, row0 + c] = S[c, (r + c) % B]
    cuda.syncthreads()


@lazy_kernel(SIG_PAD, cache=CACHE)
def pad(W, D, V):
    """Row blockIdx.x, columns from blockIdx.y · blockDim.x: no division per cell."""
    j = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    if j < D.shape[1]:
        pad_cell(W, D, V, cuda.blockIdx.x, j)


@lazy_kernel(SIG_DT, cache=CACHE)
def transpose(D, T):
    S = cuda.shared.array(SQUARE, int32)
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    transpose_tile(D, T, cuda.blockIdx.y * B, cuda.blockIdx.x * B, S, tid)


@lazy_kernel(SIG_DVT, cache=CACHE)
def recover(D, V, T):
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    i = cuda.blockIdx.y * RECOVER_ROWS + tid // B
    recover_cells(D, V, T, i, cuda.blockIdx.x * RECOVER_COLUMNS, tid % B)


@lazy_kernel(SIG_DVTO, cache=CACHE)
def recover_export(D, V, T, O):
    """``recover``, then the block's cells of the unpadded answer written out: O[0] the
    distances, O[1] the vias (O in mapped host memory: the writes cross PCIe while other
    blocks still recover)."""
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    i0 = cuda.blockIdx.y * RECOVER_ROWS
    j0 = cuda.blockIdx.x * RECOVER_COLUMNS
    recover_cells(D, V, T, i0 + tid // B, j0, tid % B)
    cuda.syncthreads()
    n = O.shape[2]
    for e in range(tid, 2 * RECOVER_ROWS * RECOVER_COLUMNS, THREADS):
        half = e // (RECOVER_ROWS * RECOVER_COLUMNS)
        i = i0 + e // RECOVER_COLUMNS % RECOVER_ROWS
        j = j0 + e % RECOVER_COLUMNS
        if i < n and j < n:
            O[half, i, j] = D[i, j] if half == 0 else V[i, j]


@lazy_kernel(SIG_VN, cache=CACHE)
def narrow(V, N):
    """N = V in int16 (half the bytes to copy back), row blockIdx.x. (Written into by the
    recovery itself instead, the recovery ran 3.5 times slower on the H100.)"""
    j = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    if j < V.shape[1]:
        N[cuda.blockIdx.x, j] = V[cuda.blockIdx.x, j]


def one_launch(W, D, V, nb):
    """Every k-block in one persistent launch, one grid barrier per k-block: every block
    closes the diagonal tile itself, and a block with a phase-3 tile also computes the row and
    column tiles it needs (values equal to those their owners write, so reading a mix of old
    and new is harmless)."""
    grid = cuda.cg.this_grid()
    C = cuda.shared.array(SQUARE, int32, alignment=16)
    As = cuda.shared.array(SQUARE, int32, alignment=16)
    Bs = cuda.shared.array(SQUARE, int32, alignment=16)
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    pad_cells(W, D, V, cuda.blockIdx.x * THREADS + tid, cuda.gridDim.x * THREADS)
    grid.sync()
    for kb in range(nb):
        base = kb * B
        mark = int32(-2 - kb)
        closure(D, V, base, mark, C, cuda.blockIdx.x == (kb * nb + kb) % cuda.gridDim.x)
        for t in range(cuda.blockIdx.x, nb * nb, cuda.gridDim.x):
            i = t // nb * B
            j = t % nb * B
            if i == base and j != base:
                load_tile(D, base, j, Bs)
                mul_global(D, V, base, j, mark, C, Bs)
            elif j == base and i != base:
                load_tile(D, i, base, As)
                mul_global(D, V, i, base, mark, As, C)
            elif i != base:
                load_tiles(D, i, base, As, base, j, Bs)
                mul_shared(As, As, C)
                mul_shared(Bs, C, Bs)
                mul_global(D, V, i, j, mark, As, Bs)
            cuda.syncthreads()
        grid.sync()
'''



LANES_SCHEDULE_SOURCE = '''
@cuda.jit(device=True, inline=True)
def lane_cost(W, i, j):
    """W[i, j] as a lane (at most CAP); padding as isolated vertices (0 on the diagonal)."""
    n = W.shape[0]
    if i < n and j < n:
        return min(W[i, j], CAP)
    return 0 if i == j else CAP


@lazy_kernel(SIG_PACK, cache=CACHE)
def pack(W, D, V, M):
    """D = W grown and capped, as 16-bit lane pairs (row blockIdx.x); V = -1; M = 0."""
    w = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    i = cuda.blockIdx.x
    if i < M.shape[0] and w < M.shape[1]:
        M[i, w] = 0
    if w < D.shape[1]:
        D[i, w] = int32(lane_cost(W, i, 2 * w) | lane_cost(W, i, 2 * w + 1) << 16)
        V[i, 2 * w] = -1
        V[i, 2 * w + 1] = -1


@lazy_kernel(SIG_DT, cache=CACHE)
def transpose_lanes(L, TL):
    """TL = L transposed lane by lane (TL[j, w] holds the distances from 2w and 2w + 1 to j):
    tile (blockIdx.y, blockIdx.x) of B × B cells, unpacked through shared S."""
    S = cuda.shared.array(SKEWED, int32)
    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    row0 = cuda.blockIdx.y * B
    col0 = cuda.blockIdx.x * B
    for e in range(tid, B * B // 2, THREADS):
        r = e // (B // 2)
        w = e % (B // 2)
        x = L[row0 + r, col0 // 2 + w]
        S[r, 2 * w] = x & 0xFFFF
        S[r, 2 * w + 1] = x >> 16
    cuda.syncthreads()
    for e in range(tid, B * B // 2, THREADS):
        c = e // (B // 2)
        u = e % (B // 2)
        TL[col0 + c, row0 // 2 + u] = int32(S[2 * u, c] | S[2 * u + 1, c] << 16)


@lazy_kernel(SIG_WIDEN, cache=CACHE)
def widen(D, wide, W, M, capped, token):
    """wide = D's lanes as int32 (row blockIdx.x). A lane of the unpadded answer at CAP is a
    pair whose distance is CAP or more, or none: its cell gets W's cost instead (the length of
    a path, where int32 rounds can start from), its tile is marked in M and capped[0] = token.
    (The other cells are final, and padding is INF off the diagonal.)"""
    w = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    i = cuda.blockIdx.x
    n = W.shape[0]
    if w < D.shape[1]:
        x = D[i, w]
        for half in range(2):
            j = 2 * w + half
            lane = x >> (16 * half) & 0xFFFF
            if lane < CAP:
                wide[i, j] = lane
            elif i < n and j < n:
                wide[i, j] = W[i, j]
                M[i // B, j // B] = 1
                capped[0] = token
            else:
                wide[i, j] = INF
'''



MARKS_SOURCE = '''
@cuda.jit(device=True, inline=True)
def mark16(word, half):
    """The int16 mark in half ``half`` (0 low, 1 high) of an int16 pair's word, sign-extended."""
    return ((word >> (16 * half) & 0xFFFF) ^ 0x8000) - 0x8000


@cuda.jit(device=True, inline=True)
def widen_mark(VL, V, i, w):
    """V[i, 2w], V[i, 2w + 1] = the int16 marks of VL[i, w], sign-extended."""
    m = VL[i, w]
    V[i, 2 * w] = mark16(m, 0)
    V[i, 2 * w + 1] = mark16(m, 1)


@lazy_kernel(SIG_DT, cache=CACHE)
def widen_marks(VL, V):
    """V = VL's marks as int32 (row blockIdx.x), where ``widen`` left them in VL
    (``Tuning.lanes_vias16``) and the int32 recovery reads V."""
    w = cuda.blockIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    if w < VL.shape[1]:
        widen_mark(VL, V, cuda.blockIdx.x, w)
'''


def lanes_schedule_source(marks16: bool, vias16: bool = False) -> str:
    """``LANES_SCHEDULE_SOURCE``; with ``Tuning.lanes_marks16`` the lanes rounds' marks are
    int16, two a word (VL, given to ``pack`` and the rounds as their V): ``pack`` sets VL's words
    to -1, and ``widen`` also writes V's int32 marks from VL's, sign-extended (``widen_mark``) —
    unless ``vias16`` (``Tuning.lanes_vias16``), where ``widen_marks`` does it only if needed."""
    if not marks16:
        return LANES_SCHEDULE_SOURCE
    changes = {"        V[i, 2 * w] = -1\n        V[i, 2 * w + 1] = -1\n": "        V[i, w] = -1\n"}
    if not vias16:
        changes.update({"def widen(D, wide, W, M, capped, token):": "def widen(D, wide, W, M, capped, token, VL, V):",
                        "        x = D[i, w]\n": "        x = D[i, w]\n        widen_mark(VL, V, i, w)\n"})
    source = LANES_SCHEDULE_SOURCE
    for old, new in changes.items():
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    return source + MARKS_SOURCE
