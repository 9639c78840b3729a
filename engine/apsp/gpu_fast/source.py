"""gpu-fast's kernel source, generated for a ``Tuning``: Numba has no register arrays, so each
thread's cells are scalar variables and the loops that touch them are written out, line by line
(see the package's docstring for the design). The kernels that only schedule are fixed text
(``kernel_text``); ``generated_source(t)`` joins both with the launch signatures."""

import re

from ...gpu_device import simulated
from ..gpu_lanes16 import CAP
from ..matrix import INF
from .kernel_text import SCHEDULE_SOURCE, lanes_schedule_source
from .tuning import Tuning

SIMULATED = simulated()
_APSP = "engine.apsp"  # where the kernels' device functions are imported from


def cells(t):
    return [(r, q) for r in range(t.cells) for q in range(t.cells)]


def thread_cells(t, rows_together=False):
    """A thread's cells: rows i0 ... (ty + THREADS·r) and columns j + q (j = tx·CELLS) of the
    tile: a row's cells side by side, so their operands Y[k, j ...] come in 16-byte loads.
    (``rows_together``: rows ty·CELLS + r, the closure's: see ``closure_steps``.)"""
    return (["    ty = cuda.threadIdx.y", "    tx = cuda.threadIdx.x", f"    j = tx * {t.cells}"]
            + [f"    i{r} = {f'ty * {t.cells} + {r}' if rows_together else f'ty + {t.threads * r}'}"
               for r in range(t.cells)])


def read(targets, array, row, column, indent="    "):
    """Lines reading array[row, column + c] into targets[c], four per 16-byte load."""
    return [f"{indent}{', '.join(targets[c:c + 4])} = load4({array}, {row}, {column} + {c})"
            for c in range(0, len(targets), 4)]


def read_cells(t, array, row0, col0):
    """Lines reading a thread's cells d{r}_{q} of the tile at (row0, col0) of array."""
    return [line for r in range(t.cells)
            for line in read([f"d{r}_{q}" for q in range(t.cells)], array, f"{row0} + i{r}", f"{col0} + j")]


def tile_loads(t, copies, in_flight=8):
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
        rows = t.threads * t.threads * width // t.b  # rows one pass of the block covers
        loads += [(name, f"{row0} + er{width} + {rows * c}", f"{col0} + ew{width}", f"er{width} + {rows * c}",
                   lanes[0] if lanes else None) for c in range(t.b // rows)]
    out = []
    for width in sorted({8 if copy[3:] else 4 for copy in copies}):
        out += [f"    er{width} = (cuda.threadIdx.y * {t.threads} + cuda.threadIdx.x) // {t.b // width}",
                f"    ew{width} = (cuda.threadIdx.y * {t.threads} + cuda.threadIdx.x) % {t.b // width} * 4"]
    for start in range(0, len(loads), in_flight):
        chunk = list(enumerate(loads[start:start + in_flight]))
        for n, (_, row, col, _, _) in chunk:
            out += read([f"x{n}_{m}" for m in range(4)], "D", row, col)
        for n, (name, _, _, tile_row, lanes) in chunk:
            out += [f"    {name}[{tile_row}, {column}] = {value}"
                    for m in range(4) for column, value in tile_words(f"x{n}_{m}", m, lanes)]
    return out


def tile_words(word, m, lanes):
    """(tile column, value) pairs the m-th word of a load fills (see ``_tile_loads``)."""
    if lanes is None:
        return [(f"ew4 + {m}", word)]
    low, high = f"({word} & 0xFFFF)", f"({word} >> 16)"
    if lanes == "twice":
        low, high = f"int32({low} * 0x10001)", f"int32({high} * 0x10001)"
    return [(f"2 * ew8 + {2 * m}", low), (f"2 * ew8 + {2 * m + 1}", high)]


def loader_source(t, name, count, lanes=False):
    """A device function copying ``count`` tiles of D into shared arrays, then a barrier (with
    ``lanes``, D holds 16-bit lane pairs, unpacked into the tiles)."""
    args = ", ".join(f"row{c}, col{c}, X{c}" for c in range(count))
    src = ["@cuda.jit(device=True)", f"def {name}(D, {args}):"]
    src += tile_loads(t, [(f"X{c}", f"row{c}", f"col{c} // 2", "unpack") if lanes else (f"X{c}", f"row{c}", f"col{c}")
                        for c in range(count)])
    return "\n".join(src + ["    cuda.syncthreads()"]) + "\n"


def store_marked(t, lanes=None):
    """Improved cells (below their old value o) go to D, the round's mark to V. ``lanes``: D
    holds 16-bit lane pairs (columns in words: col0 and j count words), the cells are either
    such words ("words": a changed word is stored, and each changed lane's cell marked) or
    int32 cells stored two to a word ("pairs"; with ``Tuning.lanes_marks16`` V holds the marks
    as int16 pairs too, each changed cell's written alone: ``gpu_vector_load.store_marks``)."""
    if lanes == "words":
        return store_words(t)
    out = []
    for r, q in cells(t):
        if lanes == "pairs" and q % 2 == 0:
            out += [f"    if d{r}_{q} < o{r}_{q} or d{r}_{q + 1} < o{r}_{q + 1}:",
                    f"        D[row0 + i{r}, (col0 + j) // 2 + {q // 2}] = int32(d{r}_{q} | d{r}_{q + 1} << 16)"]
            if t.lanes_marks16:
                at = f"row0 + i{r}, (col0 + j) // 2 + {q // 2}"
                pair = f"(d{r}_{q} ^ o{r}_{q}) | (d{r}_{q + 1} ^ o{r}_{q + 1}) << 16"  # (cells below CAP)
                out += [f"        store_marks(V, {at}, mark, (int32({pair}),))"]
        if lanes == "pairs" and t.lanes_marks16:
            continue
        out += [f"    if d{r}_{q} < o{r}_{q}:"]
        if lanes is None:
            out += [f"        D[row0 + i{r}, col0 + j + {q}] = d{r}_{q}"]
        out += [f"        V[row0 + i{r}, col0 + j + {q}] = mark"]
    return out


def store_words(t):
    """``store_marked`` for cells that are 16-bit lane pairs, in 16-byte accesses: each thread
    row with a changed word stores its words in one, and its cells' marks (``word_marks``).
    (Stored cell by cell, the early rounds, where most cells improve, took up to 4.5 times a
    late one's time at n = 16,384; with every row's old marks read at once, the registers they
    took slowed every round.)"""
    return [line for r in range(t.cells) for line in quad_store(t, r, range(t.cells), "col0 + j")]


def quad_store(t, r, quad, column):
    """Lines storing thread row r's words d{r}_{q} (q in ``quad``, four) at D[row0 + i{r},
    column ...] in one 16-byte store if any differs from its old value o{r}_{q}, and their
    changed cells' marks (``word_marks``)."""
    row = f"row0 + i{r}"
    return ([f"    if {' | '.join(f'(d{r}_{q} ^ o{r}_{q})' for q in quad)}:"]
            + write([f"d{r}_{q}" for q in quad], "D", row, column, " " * 8)
            + word_marks(t, [(f"d{r}_{q}", f"o{r}_{q}") for q in quad], row, column))


def word_marks(t, words, row, column):
    """Lines marking the changed lanes of a thread row's 4 words (``words``: their new and old
    values' names) at D[row, column ...]: each changed lane's cell gets the round's mark, the
    others keep theirs. V holds int32 marks (read first; two 16-byte loads and stores), or with
    ``Tuning.lanes_marks16`` int16 marks two a word at D's word columns, each changed one
    written alone by a predicated 16-bit store (``gpu_vector_load.store_marks``: no read; H100,
    n = 16,384: phase 3's late rounds 0.681 → 0.649 ms against the word read, rebuilt and
    written whole, the first rounds 0.83 → 0.97; docs/gpu-notes.md)."""
    changed = [f"({new} ^ {old})" for new, old in words]
    if t.lanes_marks16:
        return [f"        store_marks(V, {row}, {column}, mark, ({', '.join(changed)}))"]
    column = f"2 * ({column})"
    marks = [f"m{c}" for c in range(2 * len(words))]
    values = [f"mark if {changed[c // 2]} {'& 0xFFFF' if c % 2 == 0 else '>> 16'} else m{c}" for c in range(len(marks))]
    return read(marks, "V", row, column, " " * 8) + write(values, "V", row, column, " " * 8)


def write(values, array, row, column, indent="    "):
    """Lines writing values[c] to array[row, column + c], four per 16-byte store."""
    return [f"{indent}store4({array}, {row}, {column} + {c}, {', '.join(values[c:c + 4])})"
            for c in range(0, len(values), 4)]


def product_steps(t, x, y, relax="addmin({d}, {a}, {b})", unroll=None):
    """The bare add-min d = min(d, X[i, k] + Y[k, j]) over the k-block, unrolled UNROLL times:
    each row's X operands four steps at a time, each step's Y operands four cells at a time.
    (``relax``: the add-min's code, ``addmin2`` for 16-bit lane pairs; ``unroll``: phase 3's
    ``t.unroll`` unless given.)"""
    unroll = unroll or t.unroll
    src = [f"    for k in range(0, {t.b}, {unroll}):"]
    for step in range(unroll):
        if step % 4 == 0:
            src += [line for r in range(t.cells) for line in read(
                [f"a{r}_{s}" for s in range(step, step + 4)], x, f"i{r}", f"k + {step}", " " * 8)]
        src += read([f"b{q}" for q in range(t.cells)], y, f"k + {step}", "j", " " * 8)
        src += [f"        d{r}_{q} = " + relax.format(d=f"d{r}_{q}", a=f"a{r}_{step}", b=f"b{q}")
                for r, q in cells(t)]
    return src


def product_stored(t, lanes=None, unroll=None):
    """Lines: the thread's cells d (read already) = min(d, X ⊗ Y), improved ones stored marked
    (``lanes``: as ``_store_marked``)."""
    relax = ["addmin2({d}, {a}, {b})"] if lanes == "words" else []
    return ([f"    o{r}_{q} = d{r}_{q}" for r, q in cells(t)] + product_steps(t, "X", "Y", *relax, unroll=unroll)
            + store_marked(t, lanes))


def mul_global_source(t, lanes=None):
    """Tile (row0, col0) of D = min(itself, X ⊗ Y) for shared X, Y already loaded; improved
    cells are written with their marks. With ``lanes`` ("pairs") D holds 16-bit lane pairs and
    the tile's int32 cells are read from the shared tile Z holding them unpacked."""
    if lanes:
        src = ["@cuda.jit(device=True)", "def mul_pairs(D, V, row0, col0, mark, X, Y, Z):"]
        src += thread_cells(t) + read_cells(t, "Z", "0", "0")
    else:
        src = ["@cuda.jit(device=True)", "def mul_global(D, V, row0, col0, mark, X, Y):"]
        src += thread_cells(t) + read_cells(t, "D", "row0", "col0")
    return "\n".join(src + product_stored(t, lanes, t.small_unroll)) + "\n"


ROW_PAST_KB = "    row0 = (cuda.blockIdx.y + (1 if cuda.blockIdx.y >= kb else 0)) * B"  # phase 3's row tile: kb's skipped


def phase3_source(t, lanes=False, tiles=False):
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
           "    Y = cuda.shared.array(TILE, int32, alignment=16)"]
    src += lanes_origin(t, 2) if lanes else [ROW_PAST_KB, "    col0 = (cuda.blockIdx.x + (1 if cuda.blockIdx.x >= kb else 0)) * B"]
    src += ["    base = kb * B", "    mark = int32(-2 - kb)"]
    if tiles:
        src += ["    if M[row0 // B, col0 // B] == 0:", "        return"]
    src += thread_cells(t) + read_cells(t, "D", "row0", "col0")
    operands = [("X", "row0", "base // 2", "twice")] if lanes else [("X", "row0", "base")]
    src += tile_loads(t, operands + [("Y", "base", "col0")]) + ["    cuda.syncthreads()"]
    src += product_stored(t, "words" if lanes else None) + (lookahead_closure(t, 2) if lanes else [])
    return "\n".join(src) + "\n"


def lanes_origin(t, blocks):
    """Lines placing a lanes phase-3 block: its tile's first row row0 and first word column col0
    (column tiles ``blocks`` k-blocks wide; the k-block's row of tiles skipped). With
    ``Tuning.lanes_lookahead`` the row tiles are rotated so blocks of blockIdx.y = 0, which
    start first (every one in the first wave: nb / blocks of them), take row tile kb + 1: one
    of them also closes the next diagonal tile (``lookahead_closure``). (Rotating the columns
    too, to start it first of all, held one more value through the product: 16 bytes spilled.)"""
    width = "B" if blocks == 2 else f"{blocks // 2} * B"  # words
    if not t.lanes_lookahead:
        return [ROW_PAST_KB, f"    col0 = cuda.blockIdx.x * {width}"]
    return ["    row = kb + 1 + cuda.blockIdx.y",  # below 2·nb, never kb + nb (blockIdx.y < nb − 1)
            "    row0 = (row - nb if row >= nb else row) * B",
            f"    col0 = cuda.blockIdx.x * {width}"]


def lookahead_closure(t, blocks):
    """With ``Tuning.lanes_lookahead``, lines ending a lanes phase-3 block: the block of row tile
    kb + 1 (see ``lanes_origin``) whose column tile (``blocks`` k-blocks wide) holds k-block
    kb + 1 closes diagonal tile (kb + 1, kb + 1) after its stores, as phase 1 of round kb + 1
    would, in its left operand tile X (free once every thread is past the barrier, which also
    makes the block's stores visible to its loads). Round kb touches that tile nowhere else
    (phase 2 only row and column kb), so it is final for phase 1 here. (``closure_ahead``, not
    ``closure_pairs``: the latter's thread indices, merged with the product's by LLVM, held
    values through the product and spilled 8 bytes of ``phase3_lanes_wide``.)"""
    if not t.lanes_lookahead:
        return []
    return [f"    if cuda.blockIdx.y == 0 and cuda.blockIdx.x == (kb + 1) // {blocks} and kb + 1 < nb:",
            "        cuda.syncthreads()",
            "        closure_ahead(D, V, (kb + 1) * B, int32(-3 - kb), X, True)"]


def phase2_source(t, lanes=False, closed=False):
    """Phases 1 and 2: each block closes the diagonal tile itself (block 0 writes it back),
    then its row tile becomes min(itself, diagonal ⊗ itself) or its column tile
    min(itself, itself ⊗ diagonal) — phase 3's product, nothing sequential left. With
    ``lanes`` (``phase2_lanes``) D holds 16-bit lane pairs: the tiles are unpacked into shared
    memory, the products run in int32 there (lanes are at most CAP: sums fit) and improved
    cells are packed back. ``closed``
    (``phase2_lanes_closed``, rounds kb ≥ 1 with ``Tuning.lanes_lookahead``): the diagonal tile
    was closed already, so it is loaded with the block's tile instead, and the kernel holds no
    closure's code: few enough registers for four blocks an SM, every tile in one wave at
    n = 16,384."""
    name, closure, load, mul, cells = (("phase2_lanes", "closure_pairs", "load_tile_unpacked", "mul_pairs", ", P")
                                       if lanes else ("phase2", "closure", "load_tile", "mul_global", ""))
    close = f"{closure}(D, V, kb * B, mark, C, cuda.blockIdx.x == 0)"
    if closed:  # closed by round kb − 1's phase 3 (``Tuning.lanes_lookahead``): loaded with the tile
        name, close, load = "phase2_lanes_closed", "", "load_tiles_unpacked"
    bounds = ", launch_bounds=(THREADS, 4)" if closed else ""  # closed: four blocks an SM, one wave at nb ≤ 264
    return f"""@lazy_kernel(SIG_ROUND, cache=CACHE{bounds})
def {name}(D, V, kb, nb):
    C = cuda.shared.array(TILE, int32, alignment=16)
    P = cuda.shared.array(TILE, int32, alignment=16)
    mark = int32(-2 - kb)
    {close}
    if nb > 1:
        row0, col0 = peripheral_origin(kb, cuda.blockIdx.x, nb)
        {load}(D, {"kb * B, kb * B, C, " if closed else ""}row0, col0, P)
        if row0 == kb * B:
            {mul}(D, V, row0, col0, mark, C, P{cells})
        else:
            {mul}(D, V, row0, col0, mark, P, C{cells})
"""


def mul_shared_source(t):
    """Shared tile Z = min(Z, X ⊗ Y), where Z is X or Y (a row or column tile against the
    closed diagonal): computed in registers, written back after every thread has read."""
    src = ["@cuda.jit(device=True)", "def mul_shared(Z, X, Y):"] + thread_cells(t)
    src += read_cells(t, "Z", "0", "0")
    src += product_steps(t, "X", "Y", unroll=t.small_unroll) + ["    cuda.syncthreads()"]
    src += [f"    Z[i{r}, j + {q}] = d{r}_{q}" for r, q in cells(t)]
    return "\n".join(src + ["    cuda.syncthreads()"]) + "\n"


def closure_steps(t):
    """The closure's k-loop: step k relaxes every cell through k, then the threads holding row
    and column k+1 store them to C, where step k+1 reads them (no other cell is read before it
    is stored again). A thread holds rows ty·CELLS + r and columns tx·CELLS + q, so row and
    column k+1 are its register row and column (k+1) mod CELLS: a run-time loop over k with
    CELLS steps written out per turn makes both constants, and only the holders (ty or tx =
    (k+1) // CELLS; none once k+1 = B) are found at run time. (All 64 steps written out were
    most of the one-launch kernel's Numba compile: ~9 of its ~16 s of CPU on the development
    machine.)"""
    src = [f"    for k0 in range(0, {t.b}, {t.cells}):"]
    for s in range(t.cells):
        k, line = f"k0 + {s}", (s + 1) % t.cells
        src += [f"        a{r} = C[i{r}, {k}]" for r in range(t.cells)]
        src += read([f"b{c}" for c in range(t.cells)], "C", k, "j", " " * 8)
        src += [f"        d{r}_{c} = addmin(d{r}_{c}, a{r}, b{c})" for r, c in cells(t)]
        src += [f"        holder = ({k} + 1) // {t.cells}", "        if ty == holder:"]
        src += [f"            C[i{line}, j + {c}] = d{line}_{c}" for c in range(t.cells)]
        src += ["        if tx == holder:"] + [f"            C[i{r}, j + {line}] = d{r}_{line}" for r in range(t.cells)]
        src += ["        cuda.syncthreads()"]
    return src


def closure_source(t, lanes=None):
    """Phase 1: diagonal tile (base, base) closed in shared C, k after k (each step depends on
    the last). Every block that needs it computes it; the owner also writes it back, marked.
    (``lanes`` = "pairs": D holds 16-bit lane pairs, unpacked into C and packed back.)"""
    src = ["@cuda.jit(device=True)", f"def closure{'_pairs' if lanes else ''}(D, V, base, mark, C, owner):",
           "    row0 = base", "    col0 = base"]
    copy = ("C", "base", "base // 2", "unpack") if lanes else ("C", "base", "base")
    src += thread_cells(t, rows_together=True) + tile_loads(t, [copy]) + ["    cuda.syncthreads()"]
    src += read_cells(t, "C", "0", "0")
    src += [f"    o{r}_{q} = d{r}_{q}" for r, q in cells(t)]
    src += closure_steps(t)
    src += [f"    C[i{r}, j + {q}] = d{r}_{q}" for r, q in cells(t)] + ["    cuda.syncthreads()"]
    src += ["    if owner:"] + ["    " + line for line in store_marked(t, lanes)]
    return "\n".join(src) + "\n"


def lookahead_closure_source(t):
    """With ``Tuning.lanes_lookahead``, ``closure_ahead``: ``closure_pairs`` reading the thread's
    index again (``fresh``), for the end of phase 3 (``lookahead_closure``); none without."""
    if not t.lanes_lookahead:
        return []
    closure = closure_source(t, "pairs").replace("def closure_pairs(", "def closure_ahead(")
    return [f"from {_APSP}.gpu_fast.fresh import thread_x, thread_y\n\n\n"
            + closure.replace("cuda.threadIdx.x", "thread_x()").replace("cuda.threadIdx.y", "thread_y()")]


def recover_source(t):
    """Cells (i, j0 ...) marked with their last improving round get their via: a k of that
    round's block on a shortest path, d(i, k) + d(k, j) = d(i, j), k != i, j (T is D
    transposed, so both rows are read contiguously). Such a k exists: the improving k satisfied
    it then, and distances only fell since. Each thread tests one candidate of every cell, its
    loads for RECOVER_BATCH cells issued before any is used; several threads may find a k: each
    is correct, and one write remains. (Sizes are multiples of B: no bounds to test.) A run-time
    loop over the batches: written out, the 32 cells cost ~2 s of Numba compile."""
    cells = range(t.recover_batch)
    src = ["@cuda.jit(device=True)", "def recover_cells(D, V, T, i, j0, candidate):",
           f"    for j in range(j0, j0 + {t.recover_columns}, {t.recover_batch}):"]
    src += candidate_loads(cells, "V[i, j + {c}]", "D[i, j + {c}]", "B", "candidate",
                           "int32(D[i, k{c}] + T[j + {c}, k{c}])")
    for c in cells:
        src += [f"        if v{c} <= -2 and k{c} != i and k{c} != j + {c} and s{c} == e{c}:",
                f"            V[i, j + {c}] = k{c}"]
    return "\n".join(src) + "\n"


def candidate_loads(cells, mark, distance, block, candidate, total):
    """A recovery's batch, lines for each cell c (the arguments: code, c as {c}): its mark v{c}
    and distance e{c}, k{c}, the candidate in the mark's round (``block`` of them a round; just
    ``candidate`` if unmarked), and s{c}, the ``total`` through it, every load before any use."""
    return ([f"        v{c} = {mark.format(c=c)}" for c in cells]
            + [f"        e{c} = {distance.format(c=c)}" for c in cells]
            + [f"        k{c} = (-2 - v{c}) * {block} + {candidate} if v{c} <= -2 else {candidate}" for c in cells]
            + [f"        s{c} = {total.format(c=c)}" for c in cells])


def recover_lanes_source(t, staged=False, into16=False):
    """``recover`` on an exact lanes solve's L (every distance below CAP) and TL, L transposed
    lane by lane: a block takes row i and ``chunk`` of its cells (a launch argument, a multiple
    of the block's threads), in passes of one cell a thread: their marks and distances (from L)
    staged in shared memory, tested, the vias found written over the staged marks, which go
    back to V whole (a valid k, or the mark where none was found). A cell's 64 candidates are
    tested by B/8 threads, eight a thread: one 16-byte load of L's row and one of TL's (the
    candidates' lanes summed two a word: below CAP, no carry between them), the loads for
    ``lanes_recover_batch`` cells issued before any is used. With ``staged``
    (``recover_lanes_rows``), L's row is first copied to shared memory R, and the cells read it
    there. (n = 16,384 on the H200, transpose + recovery: two candidates a thread, a warp a
    cell, 30.3 ms, bound by instructions; eight, L's row staged: 17.9 ms; docs/gpu-notes.md.)
    With ``into16`` (``recover_lanes16``, ``Tuning.lanes_vias16``) the marks are VL's int16
    ones (``mark16``, with ``widen_mark`` in kernel_text's marks source) and the vias go to N, int16."""
    words, threads = t.b // 2, t.threads * t.threads
    team = words // 4  # threads a cell
    per = threads // team  # cells a step
    batch = range(min(t.lanes_recover_batch, team))  # a pass holds threads = per · team cells
    row, r = ("R", "0") if staged else ("L", "i")
    name = f"recover_lanes{'16' if into16 else ''}{'_rows' if staged else ''}"
    marks, vias = ("VL", "N") if into16 else ("V", "V")
    src = [f"@lazy_kernel(SIG_LVTC{'N' if into16 else ''}, cache=CACHE)",
           f"def {name}(L, {marks}, TL, chunk{', N' if into16 else ''}):",
           f"    SV = cuda.shared.array({threads}, int32)",
           f"    SE = cuda.shared.array({threads}, int32)",
           "    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x",
           f"    w = tid % {team} * 4",
           "    i = cuda.blockIdx.x", f"    size = {vias}.shape[1]"]
    if staged:
        src += [f"    R = cuda.shared.array((1, {t.lanes_row_words}), int32, alignment=16)",
                f"    for x in range(4 * tid, L.shape[1], {4 * threads}):",
                "        x0, x1, x2, x3 = load4(L, i, x)", "        store4(R, 0, x, x0, x1, x2, x3)",
                "    cuda.syncthreads()"]
    src += ["    j0 = cuda.blockIdx.y * chunk",
            f"    for c0 in range(j0, min(j0 + chunk, size), {threads}):",
            "        cell = c0 + tid",
            "        SV[tid] = " + ("mark16(VL[i, cell // 2], cell % 2)" if into16 else "V[i, cell]")
            + " if cell < size else -1",
            "        if cell < size:",
            f"            SE[tid] = {row}[{r}, cell // 2] >> (16 * (cell % 2)) & 0xFFFF",
            "        cuda.syncthreads()"]
    cells = [f"c1 + {per * b}" for b in batch]
    src += [f"        for c1 in range(tid // {team}, {threads}, {per * len(batch)}):"]
    src += [f"            v{b} = SV[{c}]" for b, c in enumerate(cells)]
    src += [f"            e{b} = SE[{c}]" for b, c in enumerate(cells)]
    src += [f"            k{b} = (-2 - v{b}) * {words} + w if v{b} <= -2 else w" for b in batch]
    src += [f"            a{b}_0, a{b}_1, a{b}_2, a{b}_3 = load4({row}, {r}, k{b})" for b in batch]
    # (A pass past the last row of TL — size not a multiple of the threads — reads its last row.)
    src += [f"            t{b}_0, t{b}_1, t{b}_2, t{b}_3 = load4(TL, min(c0 + {c}, size - 1), k{b})"
            for b, c in enumerate(cells)]
    for b, c in enumerate(cells):
        for m in range(4):
            src += [f"            if v{b} <= -2:",
                    f"                s = int64(a{b}_{m}) + t{b}_{m}", f"                j = c0 + {c}",
                    f"                k = 2 * (k{b} + {m})",
                    f"                if (s & 0xFFFF) == e{b} and k != i and k != j:",
                    f"                    SV[{c}] = k",
                    f"                elif (s >> 16) == e{b} and k + 1 != i and k + 1 != j:",
                    f"                    SV[{c}] = k + 1"]
    src += ["        cuda.syncthreads()", "        if cell < size:", f"            {vias}[i, cell] = SV[tid]"]
    return "\n".join(src) + "\n"


def kernels_source(t):
    """Device functions for both launch shapes, and the kernels that schedule them."""
    from .wide import phase3_wide_source  # (it builds on this module's helpers)
    parts = [
        f"from numba import cuda, int32, int64\nfrom {_APSP}.gpu_vector_load import load4, store4, store_marks\n"
        "from engine.gpu_launch import lazy_kernel\n"
        f"from {_APSP}.gpu_fast.addmin import addmin\n"
        f"from {_APSP}.gpu_lanes16 import addmin2\n",
        f"B = {t.b}\nTILE = ({t.b}, {t.b + t.tile_pad})\nSQUARE = ({t.b}, {t.b})\nSKEWED = ({t.b}, {t.b + 1})\nINF = int32({int(INF)})\nTHREADS = {t.threads * t.threads}\n"
        f"CAP = {CAP}\n"
        f"RECOVER_COLUMNS = {t.recover_columns}\nRECOVER_ROWS = {t.recover_rows}\n",
        loader_source(t, "load_tile", 1),
        loader_source(t, "load_tiles", 2),
        closure_source(t),
        mul_global_source(t),
        mul_shared_source(t),
        recover_source(t),
        phase3_source(t),
        phase3_source(t, tiles=True),
        loader_source(t, "load_tile_unpacked", 1, lanes=True),
        loader_source(t, "load_tiles_unpacked", 2, lanes=True),
        closure_source(t, "pairs"),
        *lookahead_closure_source(t),
        mul_global_source(t, "pairs"),
        phase3_source(t, lanes=True),
        phase3_wide_source(t),
        recover_lanes_source(t),
        recover_lanes_source(t, staged=True),
        *([recover_lanes_source(t, into16=True), recover_lanes_source(t, staged=True, into16=True)]
          if t.lanes_vias16 else []),
        SCHEDULE_SOURCE,
        phase2_source(t),
        lanes_schedule_source(t.lanes_marks16, t.lanes_vias16),
        phase2_source(t, lanes=True),
        phase2_source(t, lanes=True, closed=True),
    ]
    return "\n\n".join(parts)


def generated_source(t: Tuning) -> str:
    """The kernels' module source, with this configuration's signatures and tile choices."""
    matrix, answer, index = "int32[:, ::1]", "int32[:, :, ::1]", "int32"
    signatures = {"SIG_PAD": [matrix] * 3, "SIG_ROUND": [matrix, matrix, index, index],
                  "SIG_DT": [matrix] * 2, "SIG_DVT": [matrix] * 3, "SIG_DVTO": [matrix] * 3 + [answer],
                  "SIG_VN": [matrix, "int16[:, ::1]"],
                  "SIG_PACK": [matrix] * 4, "SIG_LVTC": [matrix] * 3 + [index],
                  "SIG_WIDEN": [matrix] * 4 + ["int32[::1]", index] + [matrix] * (2 if t.lanes_marks16 and not t.lanes_vias16 else 0),
                  "SIG_LVTCN": [matrix] * 3 + [index, "int16[:, ::1]"],
                  "SIG_TILES": [matrix, matrix, index, index, matrix]}
    source = re.sub(r"\bSIG_\w+\b", lambda m: repr(f"void({', '.join(signatures[m.group()])})"),
                    kernels_source(t)).replace("CACHE", repr(not SIMULATED))
    return source.replace(", alignment=16", "") if SIMULATED else source  # the simulator takes none

