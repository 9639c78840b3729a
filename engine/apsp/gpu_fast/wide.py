"""``phase3_lanes_wide``: phase 3 on 16-bit lanes with output tiles twice as wide as
``phase3_lanes``' (``Tuning.lanes_wide``): B rows × 2B words (4B cells), each thread keeping
4 rows × 8 words — two quads of 4 words, B words apart, so every operand and cell access is a
16-byte one, contiguous across the warp. Per relaxation the left operand tile, the tile's index
arithmetic, its barrier and its wait on memory are halved (phase 3's late rounds issue add-mins
at ~80% of the lanes' ceiling: the rest is that per-tile work; docs/gpu-notes.md). The three
operand tiles, unpadded B × B words each, fill the 48 KB of static shared memory; they are
filled by 16-byte stores. The stores' old words are read from D again after the product, not
held: 80 registers a thread, three blocks an SM (held, 112 registers and two blocks an SM:
phase 3 took 204.7 ms at n = 16,384 against 193.0 for ``phase3_lanes``, H100)."""

from .source import lanes_origin, lookahead_closure, quad_store, read, thread_cells, write

QUADS = 2  # a thread's quads of words a row


def words(t):
    """A thread's words: (row r, word q) for d{r}_{q}, at word column col0 + j + (q // 4)·B + q % 4."""
    return [(r, q) for r in range(t.cells) for q in range(4 * QUADS)]


def vector_tile(t, copies, in_flight=8):
    """Straight-line code filling B × B shared tiles by 16-byte loads and stores: ``copies``
    lists (shared array, first row, first column in words, twice): a plain tile takes B words
    a row as they are; a ``twice`` one takes B/2 words a row and puts each lane in both halves
    of a word (the left operands of ``addmin2``), eight tile columns a load."""
    threads = t.threads * t.threads
    loads = []
    for name, row0, col0, twice in copies:
        width = 8 if twice else 4  # tile columns one load fills
        rows = threads * width // t.b
        loads += [(name, row0, col0, twice, f"er{width} + {rows * c}") for c in range(t.b // rows)]
    out = [line for width in (4, 8) for line in (f"    er{width} = tid // {t.b // width}",
                                                  f"    ew{width} = tid % {t.b // width} * 4")]
    for start in range(0, len(loads), in_flight):
        chunk = list(enumerate(loads[start:start + in_flight]))
        for n, (_, row0, col0, twice, row) in chunk:
            out += read([f"x{n}_{m}" for m in range(4)], "D", f"{row0} + {row}", f"{col0} + ew{8 if twice else 4}")
        for n, (name, _, _, twice, row) in chunk:
            if not twice:
                out += write([f"x{n}_{m}" for m in range(4)], name, row, "ew4")
                continue
            halves = [f"int32(({f'x{n}_{m // 2}'} {'& 0xFFFF' if m % 2 == 0 else '>> 16'}) * 0x10001)"
                      for m in range(8)]
            out += write(halves, name, row, "2 * ew8")
    return out


def phase3_wide_source(t) -> str:
    """The kernel: grid (nb/4 word-column tiles, nb − 1 row tiles; the k-block's own row
    skipped, its columns taken: phase 2 closed them, nothing there changes)."""
    src = ["@lazy_kernel(SIG_ROUND, cache=CACHE, launch_bounds=(THREADS, 3))",
           "def phase3_lanes_wide(D, V, kb, nb):",
           "    X = cuda.shared.array(SQUARE, int32, alignment=16)",
           "    Y0 = cuda.shared.array(SQUARE, int32, alignment=16)",
           "    Y1 = cuda.shared.array(SQUARE, int32, alignment=16)",
           *lanes_origin(t, 4),
           "    base = kb * B", "    mark = int32(-2 - kb)",
           "    tid = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x"]
    src += thread_cells(t)
    for r in range(t.cells):
        for h in range(QUADS):
            src += read([f"d{r}_{4 * h + m}" for m in range(4)], "D", f"row0 + i{r}", f"col0 + j + {h} * B")
    src += vector_tile(t, [("X", "row0", "base // 2", True), ("Y0", "base", "col0", False),
                           ("Y1", "base", "col0 + B", False)])
    src += ["    cuda.syncthreads()"]
    src += [f"    for k in range(0, B, {t.unroll}):"]
    for step in range(t.unroll):
        if step % 4 == 0:
            src += [line for r in range(t.cells) for line in read(
                [f"a{r}_{s}" for s in range(step, step + 4)], "X", f"i{r}", f"k + {step}", " " * 8)]
        for h in range(QUADS):
            src += read([f"b{4 * h + m}" for m in range(4)], f"Y{h}", f"k + {step}", "j", " " * 8)
        src += [f"        d{r}_{q} = addmin2(d{r}_{q}, a{r}_{step}, b{q})" for r, q in words(t)]
    return "\n".join(src + stores(t) + lookahead_closure(t, 4)) + "\n"


def stores(t):
    """Each thread row's quad with a changed word: its 4 words in one 16-byte store and its 8
    cells' marks (``source.quad_store``), the old words read from D again first, every load in
    flight before the first test."""
    out = [line for r in range(t.cells) for h in range(QUADS) for line in
                read([f"o{r}_{4 * h + m}" for m in range(4)], "D", f"row0 + i{r}", f"col0 + j + {h} * B")]
    return out + [line for r in range(t.cells) for h in range(QUADS)
                  for line in quad_store(t, r, range(4 * h, 4 * h + 4), f"col0 + j + {h} * B")]

