"""GPU fast: blocked Floyd–Warshall tuned for the H100 — exact int32, a route for every pair.

The schedule is the blocked algorithm's (gpu_blocked.py): per k-block of B vertices, phase 1
(the self-dependent diagonal tile), phase 2 (its row and column tiles), phase 3 (the rest).
What makes it fast:

- the matrix is padded to a multiple of B with isolated vertices, so no kernel tests bounds;
- 64×64 tiles, 16×16 threads, each keeping 4×4 cells in scalar registers (the source is
  generated: Numba has no register arrays; tiles are loaded by straight-line code so the
  loads overlap), and every sum is ``int32(a + b)``: Numba would do
  ``int32 + int32`` in 64 bits otherwise, three times slower; ptxas then fuses each add-min
  into one Hopper ``VIADDMNMX``;
- every operand comes in a 16-byte load (``gpu_vector_load.load4``): a thread's four cells of
  a row are side by side, so a k-row's four right operands are one load, and four steps' left
  operands another — 16 shared loads per 128 add-mins instead of 40; the shared tiles' rows
  are padded 4 words apart so a warp's two rows of left operands fall in different banks;
- phase 1 closes the diagonal tile in shared memory k after k, fully unrolled; every block
  that needs the closed tile computes it itself (one of them writes it back), so phases 1 and
  2 are one launch;
- phase 2 is phase 3's product too: with the diagonal tile closed, a row tile is
  min(itself, diagonal ⊗ itself) and a column tile min(itself, itself ⊗ diagonal);
- routes are a "via" matrix, kept out of the hot loop: the products run the bare add-min and
  only mark an improved cell with its round; after the last round ``recover`` finds, for each
  marked cell, a k of that round's block with d(i, k) + d(k, j) = d(i, j) in the final
  distances (64 candidates, not n);
- one launch for every k-block where the graph is small (a persistent cooperative kernel, one
  grid barrier per k-block: a block with a phase-3 tile also computes the row and column tiles
  it needs), two launches per k-block where it is large; the via recovery after either.
- small graphs (padded ≤ ``MAPPED_MAX``) have no copy calls: the kernels read the input from
  page-locked host memory mapped into the device (``solve`` converts the costs straight into
  it: ``input_array``), and the via recovery writes the unpadded
  answer (distances and vias) into a mapped buffer from a pool (``buffer_pool``), handed out
  as views;
- larger graphs copy, through page-locked buffers from pools: the input up before the solve,
  the distances back on a second stream while the vias are recovered, the vias narrowed to
  int16 (half the bytes) and back last.
- larger graphs are solved with two distances in each int32 word first, 16-bit lanes capped
  at 32,767 (``gpu_lanes16``): phase 3 relaxes both with one Hopper ``VIADDMNMX.U16x2``, twice
  the relaxations per instruction; phases 1 and 2 unpack their tiles into shared memory and
  work in int32. The capped arithmetic is exact for every distance below the cap; where some
  pair ends at the cap (a distance of 32,767 or more, or no path) the graph is solved again in
  int32. ``LANES16`` turns the first attempt off.

Tile and cell sizes are module constants chosen by ``gpu_device.simulated()``: Numba's CUDA
simulator runs each GPU thread as a Python thread, so it gets 16×16 tiles of 4×4 threads.
Measurements and the versions that lost: GPU_NOTES.md.
"""

import functools
import hashlib
import importlib.util
import os
import re
import tempfile
import threading
import time

import numpy as np
from numba import cuda

from ..gpu_graph import LaunchGraph
from ..gpu_launch import THREADS as ROW_THREADS  # few under the simulator, 256 on a GPU
from .buffer_pool import BufferPool
from .gpu_common import SIMULATED, ceil_div, empty_result, mapped_host, timed_on_device
from .gpu_lanes16 import CAP
from .matrix import INF
from .routes import RouteMatrix

# B: tile and k-block. Every tile kernel runs THREADS×THREADS threads, each keeping CELLS×CELLS
# cells in registers (THREADS·CELLS = B), the k-loop of a product unrolled UNROLL times. Operands
# come four at a time in 16-byte loads: CELLS and UNROLL are multiples of 4.
B, THREADS, CELLS, UNROLL = (16, 4, 4, 4) if SIMULATED else (64, 16, 4, 8)
# Shared tiles' rows lie B + TILE_PAD words apart (a multiple of 4: 16-byte loads): a warp reads
# its left operands X[i, k] from 32/THREADS rows at once, in the same banks unless padded apart.
# (Not in the one-launch kernel: its three tiles must fit in 48 KB of static shared memory.)
TILE_PAD = 4
# The via recovery: a block takes RECOVER_ROWS rows × RECOVER_COLUMNS cells, one thread per
# candidate k and row; each thread loads RECOVER_BATCH cells' operands before testing any.
RECOVER_ROWS = THREADS * THREADS // B
RECOVER_COLUMNS, RECOVER_BATCH = (8, 4) if SIMULATED else (32, 2)
# Largest padded size solved by the single persistent launch (0: never; -1: always).
ONE_LAUNCH_MAX = 10**9 if SIMULATED else 1536


def _cells():
    return [(r, q) for r in range(CELLS) for q in range(CELLS)]


def _thread_cells():
    """A thread's cells: rows i0 ... (ty + THREADS·r) and columns j + q (j = tx·CELLS) of the
    tile: a row's cells side by side, so their operands Y[k, j ...] come in 16-byte loads."""
    return (["    ty = cuda.threadIdx.y", "    tx = cuda.threadIdx.x", f"    j = tx * {CELLS}"]
            + [f"    i{r} = ty + {THREADS * r}" for r in range(CELLS)])


def _read(targets, array, row, column, indent="    "):
    """Lines reading array[row, column + c] into targets[c], four per 16-byte load."""
    return [f"{indent}{', '.join(targets[c:c + 4])} = load4({array}, {row}, {column} + {c})"
            for c in range(0, len(targets), 4)]


def _read_cells(array, row0, col0):
    """Lines reading a thread's cells d{r}_{q} of the tile at (row0, col0) of array."""
    return [line for r in range(CELLS)
            for line in _read([f"d{r}_{q}" for q in range(CELLS)], array, f"{row0} + i{r}", f"{col0} + j")]


def _tile_loads(copies, in_flight=8):
    """Straight-line code filling B×B shared tiles: ``copies`` lists (shared array, first row,
    first column[, lanes]) of D to copy, four words per 16-byte load. With ``lanes`` the source
    is a matrix of 16-bit lane pairs (``gpu_lanes16``; its first column in words) and each word
    fills two tile columns: "unpack" puts a lane in each, "twice" puts each lane in both of a
    word's halves (the left operands of ``addmin2``). Each thread issues up to ``in_flight``
    loads before its first shared store, so a tile costs a few memory latencies, not one per
    load (a loop waits for each load in turn)."""
    loads = []
    for name, row0, col0, *lanes in copies:
        width = 8 if lanes else 4  # tile columns one load fills
        rows = THREADS * THREADS * width // B  # rows one pass of the block covers
        loads += [(name, f"{row0} + er{width} + {rows * c}", f"{col0} + ew{width}", f"er{width} + {rows * c}",
                   lanes[0] if lanes else None) for c in range(B // rows)]
    out = []
    for width in sorted({8 if copy[3:] else 4 for copy in copies}):
        out += [f"    er{width} = (cuda.threadIdx.y * {THREADS} + cuda.threadIdx.x) // {B // width}",
                f"    ew{width} = (cuda.threadIdx.y * {THREADS} + cuda.threadIdx.x) % {B // width} * 4"]
    for start in range(0, len(loads), in_flight):
        chunk = list(enumerate(loads[start:start + in_flight]))
        for n, (_, row, col, _, _) in chunk:
            out += _read([f"x{n}_{m}" for m in range(4)], "D", row, col)
        for n, (name, _, _, tile_row, lanes) in chunk:
            out += [f"    {name}[{tile_row}, {column}] = {value}"
                    for m in range(4) for column, value in _tile_words(f"x{n}_{m}", m, lanes)]
    return out


def _tile_words(word, m, lanes):
    """(tile column, value) pairs the m-th word of a load fills (see ``_tile_loads``)."""
    if lanes is None:
        return [(f"ew4 + {m}", word)]
    low, high = f"({word} & 0xFFFF)", f"({word} >> 16)"
    if lanes == "twice":
        low, high = f"int32({low} * 0x10001)", f"int32({high} * 0x10001)"
    return [(f"2 * ew8 + {2 * m}", low), (f"2 * ew8 + {2 * m + 1}", high)]


def _loader_source(name, count, lanes=False):
    """A device function copying ``count`` tiles of D into shared arrays, then a barrier (with
    ``lanes``, D holds 16-bit lane pairs, unpacked into the tiles)."""
    args = ", ".join(f"row{c}, col{c}, X{c}" for c in range(count))
    src = ["@cuda.jit(device=True)", f"def {name}(D, {args}):"]
    src += _tile_loads([(f"X{c}", f"row{c}", f"col{c} // 2", "unpack") if lanes else (f"X{c}", f"row{c}", f"col{c}")
                        for c in range(count)])
    return "\n".join(src + ["    cuda.syncthreads()"]) + "\n"


def _store_marked(lanes=None):
    """Improved cells (below their old value o) go to D, the round's mark to V. ``lanes``: D
    holds 16-bit lane pairs (columns in words: col0 and j count words), the cells are either
    such words ("words": a changed word is stored, and each changed lane's cell marked) or
    int32 cells stored two to a word ("pairs")."""
    out = []
    if lanes == "words":
        for r, q in _cells():
            out += [f"    if d{r}_{q} != o{r}_{q}:",
                    f"        D[row0 + i{r}, col0 + j + {q}] = d{r}_{q}",
                    f"        c = 2 * (col0 + j + {q})",
                    f"        if (d{r}_{q} ^ o{r}_{q}) & 0xFFFF:",
                    f"            V[row0 + i{r}, c] = mark",
                    f"        if (d{r}_{q} ^ o{r}_{q}) >> 16:",
                    f"            V[row0 + i{r}, c + 1] = mark"]
        return out
    for r, q in _cells():
        if lanes == "pairs" and q % 2 == 0:
            out += [f"    if d{r}_{q} < o{r}_{q} or d{r}_{q + 1} < o{r}_{q + 1}:",
                    f"        D[row0 + i{r}, (col0 + j) // 2 + {q // 2}] = int32(d{r}_{q} | d{r}_{q + 1} << 16)"]
        out += [f"    if d{r}_{q} < o{r}_{q}:"]
        if lanes is None:
            out += [f"        D[row0 + i{r}, col0 + j + {q}] = d{r}_{q}"]
        out += [f"        V[row0 + i{r}, col0 + j + {q}] = mark"]
    return out


def _product_steps(x, y, relax="min({d}, int32({a} + {b}))"):
    """The bare add-min d = min(d, X[i, k] + Y[k, j]) over the k-block, unrolled UNROLL times:
    each row's X operands four steps at a time, each step's Y operands four cells at a time.
    (``relax``: the add-min's code, ``addmin2`` for 16-bit lane pairs.)"""
    src = [f"    for k in range(0, {B}, {UNROLL}):"]
    for step in range(UNROLL):
        if step % 4 == 0:
            src += [line for r in range(CELLS) for line in _read(
                [f"a{r}_{s}" for s in range(step, step + 4)], x, f"i{r}", f"k + {step}", " " * 8)]
        src += _read([f"b{q}" for q in range(CELLS)], y, f"k + {step}", "j", " " * 8)
        src += [f"        d{r}_{q} = " + relax.format(d=f"d{r}_{q}", a=f"a{r}_{step}", b=f"b{q}")
                for r, q in _cells()]
    return src


def _product_stored(lanes=None):
    """Lines: the thread's cells d (read already) = min(d, X ⊗ Y), improved ones stored marked
    (``lanes``: as ``_store_marked``)."""
    relax = ["addmin2({d}, {a}, {b})"] if lanes == "words" else []
    return ([f"    o{r}_{q} = d{r}_{q}" for r, q in _cells()] + _product_steps("X", "Y", *relax)
            + _store_marked(lanes))


def _mul_global_source(lanes=None):
    """Tile (row0, col0) of D = min(itself, X ⊗ Y) for shared X, Y already loaded; improved
    cells are written with their marks. With ``lanes`` ("pairs") D holds 16-bit lane pairs and
    the tile's int32 cells are read from the shared tile Z holding them unpacked."""
    if lanes:
        src = ["@cuda.jit(device=True)", "def mul_pairs(D, V, row0, col0, mark, X, Y, Z):"]
        src += _thread_cells() + _read_cells("Z", "0", "0")
    else:
        src = ["@cuda.jit(device=True)", "def mul_global(D, V, row0, col0, mark, X, Y):"]
        src += _thread_cells() + _read_cells("D", "row0", "col0")
    return "\n".join(src + _product_stored(lanes)) + "\n"


def _phase3_source(lanes=False, tiles=False):
    """Phase 3: every tile off the k-block's row and column = min(itself, its row's column
    tile ⊗ its column's row tile). The thread's cells are read before the operand tiles, so
    all of a block's loads wait on memory together. With ``lanes``, D holds 16-bit lane pairs
    (``phase3_lanes``): a tile is B rows by B words (2B columns), every column tile is taken
    (the k-block's own columns do not change: phase 2 closed them), and X holds each left
    operand twice, in both halves of a word, for ``addmin2``. With ``tiles`` (``phase3_tiles``)
    a block whose tile is not marked in M returns at once (the tile holds final distances)."""
    name, args = ("phase3_lanes", "") if lanes else ("phase3_tiles", ", M") if tiles else ("phase3", "")
    src = [f"@lazy_kernel(SIG_{'TILES' if tiles else 'ROUND'}, cache=CACHE)", f"def {name}(D, V, kb, nb{args}):",
           "    X = cuda.shared.array(TILE, int32, alignment=16)",
           "    Y = cuda.shared.array(TILE, int32, alignment=16)",
           "    row0 = (cuda.blockIdx.y + (1 if cuda.blockIdx.y >= kb else 0)) * B",
           "    col0 = cuda.blockIdx.x * B" if lanes else
           "    col0 = (cuda.blockIdx.x + (1 if cuda.blockIdx.x >= kb else 0)) * B",
           "    base = kb * B", "    mark = int32(-2 - kb)"]
    if tiles:
        src += ["    if M[row0 // B, col0 // B] == 0:", "        return"]
    src += _thread_cells() + _read_cells("D", "row0", "col0")
    operands = [("X", "row0", "base // 2", "twice")] if lanes else [("X", "row0", "base")]
    src += _tile_loads(operands + [("Y", "base", "col0")]) + ["    cuda.syncthreads()"]
    return "\n".join(src + _product_stored("words" if lanes else None)) + "\n"


def _phase2_source(lanes=False):
    """Phases 1 and 2: each block closes the diagonal tile itself (block 0 writes it back),
    then its row tile becomes min(itself, diagonal ⊗ itself) or its column tile
    min(itself, itself ⊗ diagonal) — phase 3's product, nothing sequential left. With
    ``lanes`` (``phase2_lanes``) D holds 16-bit lane pairs: the tiles are unpacked into shared
    memory, the products run in int32 there (lanes are at most CAP: sums fit) and improved
    cells are packed back."""
    name, closure, load, mul, cells = (("phase2_lanes", "closure_pairs", "load_tile_unpacked", "mul_pairs", ", P")
                                       if lanes else ("phase2", "closure", "load_tile", "mul_global", ""))
    return f"""@lazy_kernel(SIG_ROUND, cache=CACHE)
def {name}(D, V, kb, nb):
    C = cuda.shared.array(TILE, int32, alignment=16)
    P = cuda.shared.array(TILE, int32, alignment=16)
    mark = int32(-2 - kb)
    {closure}(D, V, kb * B, mark, C, cuda.blockIdx.x == 0)
    if nb > 1:
        row0, col0 = peripheral_origin(kb, cuda.blockIdx.x, nb)
        {load}(D, row0, col0, P)
        if row0 == kb * B:
            {mul}(D, V, row0, col0, mark, C, P{cells})
        else:
            {mul}(D, V, row0, col0, mark, P, C{cells})
"""


def _mul_shared_source():
    """Shared tile Z = min(Z, X ⊗ Y), where Z is X or Y (a row or column tile against the
    closed diagonal): computed in registers, written back after every thread has read."""
    src = ["@cuda.jit(device=True)", "def mul_shared(Z, X, Y):"] + _thread_cells()
    src += _read_cells("Z", "0", "0")
    src += _product_steps("X", "Y") + ["    cuda.syncthreads()"]
    src += [f"    Z[i{r}, j + {q}] = d{r}_{q}" for r, q in _cells()]
    return "\n".join(src + ["    cuda.syncthreads()"]) + "\n"


def _closure_step(k):
    """Closure step k (unrolled: every index a constant): relax every cell through k, then the
    threads holding row and column k+1 store them to C, where step k+1 reads them (no other
    cell is read before it is stored again)."""
    src = [f"    a{r} = C[i{r}, {k}]" for r in range(CELLS)]
    src += _read([f"b{q}" for q in range(CELLS)], "C", k, "j")
    src += [f"    d{r}_{q} = min(d{r}_{q}, int32(a{r} + b{q}))" for r, q in _cells()]
    if k + 1 < B:
        line, holder = divmod(k + 1, THREADS)
        src += [f"    if ty == {holder}:"] + [f"        C[i{line}, j + {q}] = d{line}_{q}" for q in range(CELLS)]
        holder, q = divmod(k + 1, CELLS)
        src += [f"    if tx == {holder}:"] + [f"        C[i{r}, j + {q}] = d{r}_{q}" for r in range(CELLS)]
    return src + ["    cuda.syncthreads()"]


def _closure_source(lanes=None):
    """Phase 1: diagonal tile (base, base) closed in shared C, k after k (each step depends on
    the last). Every block that needs it computes it; the owner also writes it back, marked.
    (``lanes`` = "pairs": D holds 16-bit lane pairs, unpacked into C and packed back.)"""
    src = ["@cuda.jit(device=True)", f"def closure{'_pairs' if lanes else ''}(D, V, base, mark, C, owner):",
           "    row0 = base", "    col0 = base"]
    copy = ("C", "base", "base // 2", "unpack") if lanes else ("C", "base", "base")
    src += _thread_cells() + _tile_loads([copy]) + ["    cuda.syncthreads()"]
    src += _read_cells("C", "0", "0")
    src += [f"    o{r}_{q} = d{r}_{q}" for r, q in _cells()]
    for k in range(B):
        src += _closure_step(k)
    src += [f"    C[i{r}, j + {q}] = d{r}_{q}" for r, q in _cells()] + ["    cuda.syncthreads()"]
    src += ["    if owner:"] + ["    " + line for line in _store_marked(lanes)]
    return "\n".join(src) + "\n"


def _recover_source():
    """Cells (i, j0 ...) marked with their last improving round get their via: a k of that
    round's block on a shortest path, d(i, k) + d(k, j) = d(i, j), k != i, j (T is D
    transposed, so both rows are read contiguously). Such a k exists: the improving k satisfied
    it then, and distances only fell since. Each thread tests one candidate of every cell, its
    loads for RECOVER_BATCH cells issued before any is used; several threads may find a k: each
    is correct, and one write remains. (Sizes are multiples of B: no bounds to test.)"""
    src = ["@cuda.jit(device=True)", "def recover_cells(D, V, T, i, j0, candidate):"]
    for first in range(0, RECOVER_COLUMNS, RECOVER_BATCH):
        cells = range(first, first + RECOVER_BATCH)
        src += [f"    v{c} = V[i, j0 + {c}]" for c in cells]
        src += [f"    e{c} = D[i, j0 + {c}]" for c in cells]
        src += [f"    k{c} = (-2 - v{c}) * B + candidate if v{c} <= -2 else candidate" for c in cells]
        src += [f"    s{c} = int32(D[i, k{c}] + T[j0 + {c}, k{c}])" for c in cells]
        for c in cells:
            src += [f"    if v{c} <= -2 and k{c} != i and k{c} != j0 + {c} and s{c} == e{c}:",
                    f"        V[i, j0 + {c}] = k{c}"]
    return "\n".join(src) + "\n"


def _kernels_source():
    """Device functions for both launch shapes, and the kernels that schedule them."""
    parts = [
        f"from numba import cuda, int32\nfrom {__package__}.gpu_vector_load import load4\n"
        f"from {__package__.rpartition('.')[0]}.gpu_launch import lazy_kernel\n"
        f"from {__package__}.gpu_lanes16 import addmin2\n",
        f"B = {B}\nTILE = ({B}, {B + TILE_PAD})\nSQUARE = ({B}, {B})\nINF = int32({int(INF)})\nTHREADS = {THREADS * THREADS}\n"
        f"CAP = {CAP}\n"
        f"RECOVER_COLUMNS = {RECOVER_COLUMNS}\nRECOVER_ROWS = {RECOVER_ROWS}\n",
        _loader_source("load_tile", 1),
        _loader_source("load_tiles", 2),
        _closure_source(),
        _mul_global_source(),
        _mul_shared_source(),
        _recover_source(),
        _phase3_source(),
        _phase3_source(tiles=True),
        _loader_source("load_tile_unpacked", 1, lanes=True),
        _closure_source("pairs"),
        _mul_global_source("pairs"),
        _phase3_source(lanes=True),
        _SCHEDULE_SOURCE,
        _phase2_source(),
        _LANES_SCHEDULE_SOURCE,
        _phase2_source(lanes=True),
    ]
    return "\n\n".join(parts)


_SCHEDULE_SOURCE = '''
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



_LANES_SCHEDULE_SOURCE = '''
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


def _generated_source() -> str:
    """The kernels' module source, with this configuration's signatures and tile choices."""
    matrix, answer, index = "int32[:, ::1]", "int32[:, :, ::1]", "int32"
    signatures = {"SIG_PAD": [matrix] * 3, "SIG_ROUND": [matrix, matrix, index, index],
                  "SIG_DT": [matrix] * 2, "SIG_DVT": [matrix] * 3, "SIG_DVTO": [matrix] * 3 + [answer],
                  "SIG_VN": [matrix, "int16[:, ::1]"],
                  "SIG_PACK": [matrix] * 4,
                  "SIG_WIDEN": [matrix] * 4 + ["int32[::1]", index], "SIG_TILES": [matrix, matrix, index, index, matrix]}
    source = re.sub(r"\bSIG_\w+\b", lambda m: repr(f"void({', '.join(signatures[m.group()])})"),
                    _kernels_source()).replace("CACHE", repr(not SIMULATED))
    return source.replace(", alignment=16", "") if SIMULATED else source  # the simulator takes none


@functools.cache
def _kernels():
    """The compiled kernels (compiled on first use, before any timing; cached on disk on a GPU)."""
    return module_from_source(_generated_source())


def module_from_source(source: str):
    """Import generated kernel source as a module, written to a file named by its digest in
    ``kernel_cache_dir()``, so Numba's disk cache (beside it) keys on it and the compiled
    kernels outlive the process: only the first solve on a machine compiles (the GPU probes
    load variants of the kernels this way too)."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]
    folder = kernel_cache_dir()
    path = os.path.join(folder, f"fw_fast_{digest}.py")
    if not os.path.exists(path):
        with open(path + f".{os.getpid()}.tmp", "w") as f:
            f.write(source)
        os.replace(path + f".{os.getpid()}.tmp", path)
    spec = importlib.util.spec_from_file_location(f"bagroute_fw_fast_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernel_cache_dir() -> str:
    """Where the generated kernels and their compiled code are kept: ``$BAGROUTE_KERNEL_CACHE``,
    else the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``)/bagroute/gpu_fast, which
    survives restarts (the temporary folder does not, everywhere); the temporary folder only
    where that cannot be written."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    for folder in (os.environ.get("BAGROUTE_KERNEL_CACHE"), os.path.join(base, "bagroute", "gpu_fast"),
                   os.path.join(tempfile.gettempdir(), "bagroute_gpu_fast")):
        if folder:
            try:
                os.makedirs(folder, exist_ok=True)
                if os.access(folder, os.W_OK):
                    return folder
            except OSError:
                continue
    raise OSError("no writable folder for the compiled GPU kernels")


@functools.cache
def _one_launch():
    """(kernel, most co-resident blocks), or None where cooperative launches cannot be built
    (grid barriers need the CUDA toolkit's cudadevrt library); then every size takes the
    many-launch path."""
    try:
        kernel = cuda.jit("void(int32[:, ::1], int32[:, ::1], int32[:, ::1], int32)",
                          cache=not SIMULATED)(_kernels().one_launch)
        if SIMULATED:
            return kernel, 1  # the simulator runs cooperative grids of one block only
        compiled = next(iter(kernel.overloads.values()))
        return kernel, int(compiled.max_cooperative_grid_blocks((THREADS, THREADS)))
    except Exception as exc:  # noqa: BLE001 — any build failure means: use the other path
        global ONE_LAUNCH_ERROR
        ONE_LAUNCH_ERROR = f"{exc.__class__.__name__}: {str(exc)[:200]}"
        return None


ONE_LAUNCH_ERROR = None  # why the one-launch path could not be built, if it could not


def launch_all(W, D, V, T, nb: int, O=None, stream=0, after=lambda step: None):
    """Queue the whole solve: pad W into D (V = -1), every k-block, then the via recovery (T:
    scratch for D transposed), with it, if O (2×n×n) is given, the unpadded answer into it. D and
    V are nb·B square and 16-byte aligned (``load4`` reads them), as ``_device_buffers`` makes
    them; W and O may be mapped host memory. ``after(step)`` is called once each launch is
    queued (the GPU probes time the steps with it)."""
    launch_rounds(W, D, V, nb, stream=stream, after=after)
    launch_recovery(D, V, T, nb, O, stream=stream, after=after)


def _by_rows(kernel, rows: int, columns: int, stream):
    """``kernel`` launched over rows × columns cells: row blockIdx.x, ROW_THREADS columns a block."""
    return kernel[(rows, ceil_div(columns, ROW_THREADS)), ROW_THREADS, stream]


def launch_rounds(W, D, V, nb: int, stream=0, after=lambda step: None, lanes=False, tiles=None):
    """Queue the padding of W into D and every k-block: D holds the final distances after.
    With ``lanes`` D is (nb·B)×(nb·B/2) and holds them as 16-bit lane pairs, each at most CAP
    (``gpu_lanes16``; nb even): twice the relaxations per instruction in phase 3; ``tiles``
    (nb×nb) is zeroed for ``widen``. With ``tiles`` alone D already holds ``widen``'s start
    (no padding) and phase 3 takes only the tiles marked in it: the others are final."""
    k = _kernels()
    size = nb * B
    tile = (THREADS, THREADS)
    one = (_one_launch() if not lanes and tiles is None and (ONE_LAUNCH_MAX < 0 or size <= ONE_LAUNCH_MAX)
           else None)
    if one is not None:
        kernel, most = one
        kernel[max(1, min(most, nb * nb)), tile, stream](W, D, V, nb)
        after("one launch")
        return
    grid = (nb - 1, nb - 1), tile, stream
    if lanes:
        _by_rows(k.pack, size, D.shape[1], stream)(W, D, V, tiles)
        after("pack")
        peripheral, inner = k.phase2_lanes, k.phase3_lanes[(nb // 2, nb - 1), tile, stream]
    elif tiles is None:
        _by_rows(k.pad, size, size, stream)(W, D, V)
        after("pad")
        peripheral, inner = k.phase2, k.phase3[grid]
    else:
        peripheral, marked = k.phase2, k.phase3_tiles[grid]

        def inner(D, V, kb, nb):
            marked(D, V, kb, nb, tiles)
    peripheral = peripheral[max(1, 2 * (nb - 1)), tile, stream]
    for kb in range(nb):
        peripheral(D, V, kb, nb)
        after("phases 1+2")
        if nb > 1:
            inner(D, V, kb, nb)
            after("phase 3")


def launch_recovery(D, V, T, nb: int, O=None, N=None, stream=0, after=lambda step: None):
    """Queue the via recovery (reads D, writes V; launched apart even after the persistent
    kernel: at full occupancy, not its register budget). With O (2×n×n) the unpadded answer is
    written into it as well; with N (padded, int16) the vias narrowed into it."""
    k = _kernels()
    tile = (THREADS, THREADS)
    k.transpose[(nb, nb), tile, stream](D, T)
    after("transpose")
    size = nb * B
    recovery = (size // RECOVER_COLUMNS, size // RECOVER_ROWS), tile, stream
    if O is not None:
        k.recover_export[recovery](D, V, T, O)
    else:
        k.recover[recovery](D, V, T)
    after("recover")
    if N is not None:
        _by_rows(k.narrow, size, size, stream)(V, N)
        after("narrow")


# Padded sizes up to this read their input from, and write their answer into, page-locked host
# memory mapped into the device: no copy calls (measured on the H100, end to end: n = 500
# 1.5 → 0.8 ms, the 2,253-node hub 24.7 → 8.0 ms; at n = 4,000 no gain and a slower solve, as
# the answer crosses PCIe inside the kernels). Larger ones copy, through page-locked host
# buffers kept for the next call: the input up before the solve, the distances back while
# the vias are recovered, the vias (int16 up to VIA16_MAX) last; the answer is handed out as
# views of the padded copy.
MAPPED_MAX = 3072
VIA16_MAX = np.iinfo(np.int16).max
# The copied path solves in 16-bit lanes first (``gpu_lanes16``: twice the relaxations per
# instruction), then in int32 only where some pair ended at the lanes' CAP (on its tiles).
LANES16 = True
LAST_ARITHMETIC = None  # how the last copied solve ran: "int32", "lanes16", "lanes16, then int32"
ANSWER_POOL_BYTES = 256 << 20  # mapped answer buffers kept, at most (beyond: copied back)
_LOCK = threading.Lock()  # one solve at a time uses the kept buffers
_BUFFERS: dict = {}       # the last size's device buffers (and mapped input, or streams)


def _device_buffers(size: int) -> dict:
    """DV (distances and vias side by side: one copy brings both back), its halves D and V
    (sliced here once: slicing a device array costs Python time) and T, padded."""
    DV = cuda.device_array((2, size, size), np.int32)
    return dict(DV=DV, D=DV[0], V=DV[1], T=cuda.device_array((size, size), np.int32))


def _pinned(dtype):
    """An allocator for a pool: (no kernel argument, a host array for copies)."""
    def allocate(shape) -> tuple:
        return None, host_array(shape, dtype)
    return allocate


def host_array(shape, dtype) -> np.ndarray:
    """Page-locked host memory (copies at full speed) where the driver gives it; ordinary memory
    where it refuses (a large answer is better copied slowly than solved on the CPU)."""
    if not SIMULATED:
        try:
            return cuda.pinned_array(shape, dtype)
        except Exception:  # noqa: BLE001 — any refusal to lock memory: ordinary memory works
            pass
    return np.empty(shape, dtype)


def _pinned_pool_bytes() -> int:
    """Page-locked memory the copied path keeps, at most: an eighth of the host's memory per
    pool (answers, inputs) — enough for the answer a caller holds and the next one at n = 25,600
    on a 128 GB host; beyond it, ordinary memory (slower copies)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 8
    except (ValueError, OSError):
        return 1 << 30


_ANSWERS = BufferPool(mapped_host, ANSWER_POOL_BYTES)
_INPUTS = BufferPool(mapped_host, ANSWER_POOL_BYTES // 2)  # the inputs of as many answers
_COPIED_ANSWERS = BufferPool(_pinned(np.uint8), _pinned_pool_bytes(), np.uint8)  # distances + vias
_COPIED_INPUTS = BufferPool(_pinned(np.int32), _pinned_pool_bytes())


def _is_mapped(n: int) -> bool:
    return ceil_div(n, B) * B <= MAPPED_MAX


def input_array(n: int) -> np.ndarray | None:
    """A page-locked n×n int32 buffer for ``run``'s input, or None: the caller converts its
    costs straight into it, and ``run`` reads it where it is (small graphs: mapped) or copies it
    up at full speed (large ones)."""
    if n == 0:
        return None
    with _LOCK:
        taken = (_INPUTS if _is_mapped(n) else _COPIED_INPUTS).take((n, n))
    return None if taken is None else taken[1]


def _small_buffers(n: int, size: int) -> dict:
    """Device buffers and the mapped input W (host view w) for this size, kept for the next
    call (the app solves the same airport again and again; only the last size is kept)."""
    if _BUFFERS.get("key") != ("mapped", n, size):
        _BUFFERS.clear()
        _BUFFERS.update(key=("mapped", n, size), **_device_buffers(size))
        _BUFFERS["W"], _BUFFERS["w"] = mapped_host((n, n))
    return _BUFFERS


def _copied_buffers(n: int, size: int) -> dict:
    """Device buffers for a large size (the input W, N for narrow vias, L for the distances in
    16-bit lanes, made on first use, ``capped``, the flag ``widen`` raises, and M, the tiles it
    marks), two streams and the events that order and time them, kept for the next call of
    this size."""
    narrow = size <= VIA16_MAX
    if _BUFFERS.get("key") != ("copied", n, size, narrow):
        _BUFFERS.clear()
        _BUFFERS.update(key=("copied", n, size, narrow), **_device_buffers(size),
                        W=cuda.device_array((n, n), np.int32), L=None,
                        M=cuda.device_array((size // B, size // B), np.int32),
                        capped=cuda.to_device(np.zeros(1, np.int32)), token=0,
                        N=cuda.device_array((size, size), np.int16) if narrow else None,
                        main=cuda.stream(), side=cuda.stream(),
                        start=cuda.event(), rounds=cuda.event(), end=cuda.event())
    return _BUFFERS


def _host_answer(size: int, via_dtype) -> tuple[np.ndarray, np.ndarray]:
    """Padded host arrays for the distances and the vias, in one page-locked buffer from the pool
    (ordinary memory when every kept one is still in use and the pool is full)."""
    cells = size * size
    nbytes = cells * (4 + np.dtype(via_dtype).itemsize)
    taken = _COPIED_ANSWERS.take((nbytes,))
    raw = taken[1] if taken is not None else np.empty(nbytes, np.uint8)
    return (raw[:4 * cells].view(np.int32).reshape(size, size),
            raw[4 * cells:].view(via_dtype).reshape(size, size))


def run(w):
    n = w.shape[0]
    if n == 0:
        return empty_result(w, "via")
    with _LOCK:
        return (_run_mapped if _is_mapped(n) else _run_copied)(w, n, ceil_div(n, B))


def _run_mapped(w, n: int, nb: int):
    buf = _small_buffers(n, nb * B)
    W = _INPUTS.kernel_arg(w)  # w given by input_array: the kernels read it where it is
    if W is None:
        buf["w"][...] = w
        W = buf["W"]
    # The answer straight into a pooled mapped buffer; with every one still in use, on the
    # device and copied back.
    O, answer = _ANSWERS.take((2, n, n)) or (cuda.device_array((2, n, n), np.int32), None)

    def queue(stream=0):
        launch_all(W, buf["D"], buf["V"], buf["T"], nb, O, stream=stream)

    replay = _replayed(buf, (W, O), queue) if answer is not None else None
    seconds = timed_on_device(replay or queue)
    if answer is None:
        answer = O.copy_to_host()
    return answer[0], RouteMatrix("via", answer[1]), seconds


GRAPHS_KEPT = 8        # graphs kept per size (one per pair of input and answer buffers)
GRAPH_ERROR = None     # why launches could not be replayed as a graph, if they could not


def _replayed(buf: dict, buffers: tuple, queue):
    """A launcher replaying ``queue``'s launches as one CUDA graph (``gpu_graph``; the hub's
    ~75 launches cost more host time than GPU time), or None to launch plainly: under the
    simulator, where the driver refused a graph once, and on the first sight of these buffers
    (a graph keeps their addresses; the first run also loads the kernels, which a capture may
    not). Graphs are kept per buffer pair, the oldest dropped beyond ``GRAPHS_KEPT``."""
    global GRAPH_ERROR
    if SIMULATED or GRAPH_ERROR is not None:
        return None
    graphs = buf.setdefault("graphs", {})
    key = tuple(a.__cuda_array_interface__["data"][0] for a in buffers)
    if key not in graphs:
        graphs[key] = None
        if len(graphs) > GRAPHS_KEPT:
            graphs.pop(next(iter(graphs)))
        return None
    if graphs[key] is None:
        try:
            graphs[key] = LaunchGraph(queue, buf.setdefault("stream", cuda.stream()))
        except Exception as exc:  # noqa: BLE001 — any refusal: launch plainly from now on
            GRAPH_ERROR = f"{exc.__class__.__name__}: {str(exc)[:200]}"
            return None
    return graphs[key].launch


def _run_copied(w, n: int, nb: int):
    """The input up on one stream, the k-blocks, then the distances back on a second stream
    while the first recovers the vias and brings them back; the kernels timed by events.
    The k-blocks run on 16-bit lanes first where ``LANES16`` allows: exact unless some pair
    ends at CAP (a distance of CAP or more, or none); then int32 rounds follow from there, on
    the tiles holding such pairs only."""
    global LAST_ARITHMETIC
    if LANES16:
        nb += nb % 2  # lane pairs: an even number of k-blocks
    buf = _copied_buffers(n, nb * B)
    main, side, N, D, V = buf["main"], buf["side"], buf["N"], buf["D"], buf["V"]
    dist, via = _host_answer(nb * B, np.int16 if N is not None else np.int32)
    buf["W"].copy_to_device(np.ascontiguousarray(w, dtype=np.int32), stream=main)
    buf["start"].record(main)
    host_start = time.perf_counter()
    if not LANES16:
        LAST_ARITHMETIC = "int32"
        launch_rounds(buf["W"], D, V, nb, stream=main)
    elif _lanes_exact(buf, nb):
        LAST_ARITHMETIC = "lanes16"
    else:
        LAST_ARITHMETIC = "lanes16, then int32"
        launch_rounds(buf["W"], D, V, nb, stream=main, tiles=buf["M"])
    buf["rounds"].record(main)
    buf["rounds"].wait(side)
    D.copy_to_host(dist, stream=side)
    launch_recovery(D, V, buf["T"], nb, N=N, stream=main)
    buf["end"].record(main)
    (V if N is None else N).copy_to_host(via, stream=main)
    main.synchronize()
    side.synchronize()
    # (The simulator's events keep no time; its launches and copies run as they are queued.)
    seconds = (time.perf_counter() - host_start if SIMULATED
               else buf["start"].elapsed_time(buf["end"]) / 1e3)
    return dist[:n, :n], RouteMatrix("via", via[:n, :n]), seconds


def _lanes_exact(buf: dict, nb: int) -> bool:
    """Run the k-blocks on 16-bit lanes and widen the answer into D; whether it is exact (else
    ``widen`` has marked in M the tiles where some pair ended at CAP). Waits for the GPU."""
    if buf["L"] is None:
        buf["L"] = cuda.device_array((nb * B, nb * B // 2), np.int32)
    L, main = buf["L"], buf["main"]
    buf["token"] += 1
    launch_rounds(buf["W"], L, buf["V"], nb, stream=main, lanes=True, tiles=buf["M"])
    _by_rows(_kernels().widen, nb * B, L.shape[1], main)(L, buf["D"], buf["W"], buf["M"], buf["capped"], buf["token"])
    capped = buf["capped"].copy_to_host(stream=main)
    main.synchronize()
    return capped[0] != buf["token"]
