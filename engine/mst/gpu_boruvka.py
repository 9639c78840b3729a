"""GPU Borůvka from data-parallel primitives: the seed's algorithm, step by step, recursing on
ever smaller graphs (vertex list ``start``, edge list ``head``/``key`` grouped by tail):

 1. minimum outgoing edge per vertex — a segmented min over each vertex's edges; keys order by
    (weight, edge id), which in the first graph is the seed's "ties to the smaller vertex id";
 2. successor S(u) = the vertex that edge leads to; cycle removal — where S(S(u)) = u the smaller
    of the two becomes a representative (S(u) = u); every other vertex's edge is in the forest;
 3. representatives by pointer doubling, S(u) ← S(S(u)) until nothing changes;
 4. supervertex ids by an exclusive scan of the representative flags;
 5. self-edge removal: edges relabelled to supervertex ids (a self-edge flagged out);
 6. duplicate-edge removal by split: edges split (stable radix) on (tail, head) supervertex ids,
    the lightest of each run of equal pairs kept — or, at a level that skips this optional step
    (``Duplicates``), the seed's merge of the vertices into supervertices by a split of the
    vertices (O(V)) on their supervertex ids, each vertex's edges moving with it;
 7. the new vertex list by a scan (supervertices with no edges left are whole trees and drop
    out);
 8. recursion until no edge is left.

Every vertex of a level with an edge is joined to another (edges are distinct by key, so the
successor graph's only cycles are the mutual pairs step 2 breaks), so the vertices with edges
at least halve each level, and a successor tree of depth below 2^b is flat after b doublings:
both host loops are bounded by the bit length of n (``bounded_rounds``).

Speed without leaving those steps: every array a level needs comes from the graph's
``Scratch`` (the first level's allocations serve all later levels and solves); pointer doubling
learns whether a step changed anything one step late (``LaggedCounts``), so it queues steps
without draining the GPU each time; and the split is a tiled radix sort whose writes coalesce
(``gpu_primitives``).

Where duplicates are removed (``contract``), steps 5–7 share one compaction, as in the seed's
own figure (self-edges marked, split, first of each distinct pair picked, compacted): a
self-edge's tail becomes ``supervertices`` (no supervertex's id), so the split puts the
self-edges last and the compaction drops them, and the scan that places the kept edges also
numbers the new vertices (its flags packed: kept | first of its tail << 32). Where they are
not (``merge_vertices``), no edge is sorted at all: a scan places each vertex's kept edges
among its own, the vertices are split by supervertex, a scan of their kept-edge counts in that
order says where each vertex's edges go and where each supervertex's run begins, and one pass
moves every kept edge there, its head renumbered. Either way a level drains the GPU twice (the
supervertex count; the new edge and vertex counts), not four times. Duplicate removal is
optional in the seed ("done in initial iterations only"): on a uniform random graph the first
levels find almost none, while a grid's neighbouring supervertices share many edges from the
start; ``Duplicates`` says which levels do it. The segmented min of step 1, the relabelling
and the per-vertex passes of ``merge_vertices`` share a vertex's edges among several threads
where lists are long (``lanes_per_vertex``). The edge list's keys (the seed's weight list) are
made once with the adjacency and kept on the graph (``resident``).
"""

import numpy as np
from numba import cuda, int64

from ..gpu_device import simulated
from ..gpu_launch import THREADS, blocks_for, bounded_rounds, ceil_div, timed_on_device
from .gpu_common import NO_KEY, Forest, LaggedCounts, halving_rounds, mark_in_forest, scratch
from .result import forest_arrays
from .gpu_primitives import exclusive_scan, split

EDGE_MASK = 0xFFFFFFFF
FIRST = 1 << 32  # a kept edge's flag when it is the first of its tail (packed above "kept")
EDGES_PER_LANE = 1 if simulated() else 4  # the simulator's tiny graphs still share vertices
DUPLICATES_WORTH = 0.01  # a duplicate removal that found fewer is skipped at the next level
DENSE = 2  # m ≥ s² / DENSE: duplicates are removed whatever the last level found
FIRST_LOOK = None  # the level that removes them to see how many there are (None: only where
                   # dense; H100 probe_mst: uniform 5 M / 30 M 88.2 -> 80.1 ms, 2048² grid
                   # 66.9 -> 60.5 ms against a look at level 1 and DENSE = 8)


def run(g):
    if g.m == 0:
        return forest_arrays(g, np.zeros(0, np.int64)), 0.0, None
    levels = Levels(g)
    seconds = timed_on_device(levels.solve)
    return levels.forest.to_host(), seconds, f"{len(levels.sizes)} levels"


def resident(g):
    """The graph on the device as the seed's levels read it, made once and kept on the graph:
    vertex list, edge list (both directions, grouped by tail) and a key per edge-list entry
    (the seed's weight list)."""
    if "adjacency" not in g.device:
        g.device["adjacency"] = tuple(cuda.to_device(a) for a in g.adjacency())
    if "adjacency_key" not in g.device:
        g.device["adjacency_key"] = cuda.to_device(g.key[g.adjacency()[2]])
    start, head, _ = g.device["adjacency"]
    return start, head, g.device["adjacency_key"]


class Levels:
    """One solve of graph ``g``: its device arrays and the recursion. ``after(step)`` is called
    after each step is queued (the numbered steps' names), for a probe's CUDA events."""

    def __init__(self, g, after=None):
        self.g = g
        self.start, self.head, self.key = resident(g)  # the key is never written (see contract)
        self.forest = Forest(g)
        self.scratch = scratch(g)
        self.changed = LaggedCounts(g, "doubling", halving_rounds(g.n) + 1)
        self.after = after or (lambda step: None)
        self.sizes = []  # (vertices, edges) of each level
        self.removed_duplicates = []  # whether each level removed duplicate edges

    def solve(self):
        start, head = self.start, self.head
        self.forest.clear()
        self.duplicates = Duplicates()
        self.sizes.clear()
        self.removed_duplicates.clear()
        self.after("start")
        graph = (self.g.n, start, head, self.key)
        for _ in bounded_rounds(halving_rounds(self.g.n), "gpu-boruvka's levels"):
            if not graph[2].size:
                break
            self.sizes.append((graph[0], graph[2].size))
            graph = contract(*graph, self)
        self.forest.compact()
        self.after("compact")

    def array(self, name, size):
        return self.scratch.get(name, size)


def contract(n, start, head, key, level):
    """One level of the recursion: the forest edges this level adds, and the contracted graph."""
    lightest, successor = level.array("lightest", n), level.array("successor", n)
    vertex_blocks = ceil_div(n, THREADS)
    lanes = lanes_per_vertex(head.size, n)
    min_outgoing_edge[ceil_div(n * lanes, THREADS), THREADS](start, head, key, lightest, successor,
                                                             lanes)                     # 1
    level.after("1 min edge")
    remove_cycles[vertex_blocks, THREADS](successor, lightest, level.forest.bits)       # 2
    level.after("2 cycles")
    double_pointers(n, successor, level)                                               # 3
    flags, supervertex = level.array("flags", n), level.array("supervertex", n)
    flag_representatives[vertex_blocks, THREADS](successor, flags)
    supervertices = exclusive_scan(flags, supervertex, level.scratch)                   # 4
    level.after("4 scan")
    head_bits = max(1, int(supervertices - 1).bit_length())
    tail_bits = int(supervertices).bit_length()  # room for the self-edges' tail, ``supervertices``
    m = head.size
    label = level.array("label", n)
    supervertex_of[vertex_blocks, THREADS](successor, supervertex, label)
    dedup = level.duplicates.wanted(m, supervertices)
    level.removed_duplicates.append(dedup)
    if not dedup:
        return merge_vertices(n, start, head, key, label, supervertices, head_bits, lanes, level)
    if key is level.key:  # the graph's own keys: the split below would use them as scratch
        key = level.array("edge_key", m)
        key.copy_to_device(level.key)
    pair = level.array("pair", m)
    relabel_edges[ceil_div(n * lanes, THREADS), THREADS](start, head, label, supervertices, head_bits,
                                                         lanes, pair)                   # 5
    level.after("5 self-edges")
    pair, key = split(pair, key, tail_bits + head_bits, level.scratch)                    # 6
    level.after("6 split")
    kept, between = level.array("kept", m), level.array("between", 1)
    lightest_of_runs[blocks_for(m), THREADS](pair, key, head_bits, supervertices, kept, between)
    level.after("6 duplicates")
    graph = new_vertex_list(pair, key, kept, head_bits, supervertices, between, level)     # 7
    level.after("7 vertex list")
    return graph


def merge_vertices(n, start, head, key, label, supervertices, head_bits, lanes, level):
    """Steps 5–7 at a level that keeps duplicates: the seed's merge of vertices into
    supervertices by a split of the *vertices* on their supervertex ids (O(V)), the edges then
    moved with their tail vertex — no split of the edges. Self-edges are flagged (5) and a scan
    places each vertex's other edges among its own; the vertices split by supervertex (6) and a
    scan of their kept edge counts in that order gives each vertex where its edges go, each
    supervertex where its run starts; a scan over the supervertices that have edges numbers
    them (7), and one pass moves every kept edge, its head renumbered, to its place."""
    m = head.size
    lane_blocks, vertex_blocks = ceil_div(n * lanes, THREADS), ceil_div(n, THREADS)
    kept, place = level.array("kept", m), level.array("place", m)
    flag_between[lane_blocks, THREADS](start, head, label, lanes, kept)                  # 5
    exclusive_scan(kept, place, level.scratch, total=False)
    level.after("5 self-edges")
    vertex_keys, vertex_ids = level.array("vertex_keys", n), level.array("vertex_ids", n)
    keys_and_ids[vertex_blocks, THREADS](label, vertex_keys, vertex_ids)
    by_supervertex, order = split(vertex_keys, vertex_ids, head_bits, level.scratch)      # 6
    level.after("6 split")
    degree, base = level.array("degree", n), level.array("base", n)
    first = level.array("first_vertex", supervertices + 1)
    sorted_degrees[vertex_blocks, THREADS](order, by_supervertex, start, kept, place, degree, first)
    exclusive_scan(degree, base, level.scratch, total=False)
    has, rank = level.array("has_edges", supervertices), level.array("rank", supervertices)
    edge_total = level.array("edge_total", 1)
    super_blocks = ceil_div(supervertices, THREADS)
    supervertex_has_edges[super_blocks, THREADS](first, base, kept, place, has, edge_total)
    n_new = exclusive_scan(has, rank, level.scratch)                                      # 7
    edges = int(edge_total.copy_to_host()[0])
    parity = len(level.sizes) % 2
    start_new = level.array(f"start{parity}", n_new + 1)
    head_new, key_new = level.array(f"head{parity}", edges), level.array(f"key{parity}", edges)
    if n_new:
        supervertex_starts[super_blocks, THREADS](first, base, has, rank, edge_total, start_new)
        move_edges[lane_blocks, THREADS](order, base, start, head, key, kept, place, label, rank, lanes,
                                         head_new, key_new)
    level.after("7 vertex list")
    return n_new, start_new, head_new, key_new


def lanes_per_vertex(m, n) -> int:
    """Threads that share one vertex's segmented min: a power of two near its mean edges over
    ``EDGES_PER_LANE``, at most a warp (and a block); 1 while lists are short."""
    lanes = 1
    while 2 * lanes <= min(32, THREADS) and 2 * lanes * EDGES_PER_LANE * n <= m:
        lanes *= 2
    return lanes


class Duplicates:
    """Whether a level removes duplicate edges (optional in the seed, which does it in its first
    levels only). Always where the edges are dense among the supervertices (m ≥ s² / ``DENSE``:
    many pairs must repeat); otherwise not before level ``FIRST_LOOK`` (parallel edges between
    the first level's supervertices of a few vertices each are rare, save on meshes), at that
    level to see, and then only while the last level that removed them found more than
    ``DUPLICATES_WORTH`` of its edges between supervertices to be duplicates. A level that
    skips the step leaves parallel edges to the next level's segmented min, which sees past
    them; the answer is the same."""

    def __init__(self):
        self.levels = 0
        self.last = None  # fraction of duplicates the last removing level found; None: none yet

    def wanted(self, m, supervertices) -> bool:
        if m * DENSE >= supervertices**2:
            want = True
        elif self.last is None:
            want = self.levels == FIRST_LOOK
        else:
            want = self.last > DUPLICATES_WORTH
        self.levels += 1
        return want

    def found(self, between: int, distinct: int):
        """A removing level had ``between`` edges between supervertices, ``distinct`` pairs."""
        self.last = (between - distinct) / max(between, 1)


def double_pointers(n, successor, level):
    """S(u) ← S(S(u)) until a step changes nothing; the host asks whether step j − 2 changed
    anything before queueing step j, so one step past the last is queued and finds nothing."""
    level.changed.reset()
    for j in bounded_rounds(halving_rounds(n) + 1, "gpu-boruvka's pointer doubling"):
        if j >= 2 and not level.changed.value(j - 2):
            break
        pointer_double[ceil_div(n, THREADS), THREADS](successor, level.changed.device, j)
        level.changed.queued(j)
    level.after("3 doubling")


def new_vertex_list(pair, key, kept, head_bits, supervertices, between, level):
    """Step 7 with step 6's compaction: one scan of the packed flags (kept | first of its tail
    << 32) gives every kept edge its place and every first edge of a tail its new vertex id;
    one kernel writes the kept edges and the vertex list, one renumbers the heads. ``between``:
    the device count of edges between supervertices, read while the scan's total has the GPU
    drained anyway. Outputs alternate between two buffers a name by level, so that none is
    an input of the same level."""
    m = pair.size
    place = level.array("place", m)
    total = exclusive_scan(kept, place, level.scratch)
    edges, n = total & EDGE_MASK, total >> 32
    level.duplicates.found(int(between.copy_to_host()[0]), edges)
    parity = len(level.sizes) % 2
    pair_out, key_out = level.array("distinct_pair", edges), level.array(f"key{parity}", edges)
    start, renumber = level.array(f"start{parity}", n + 1), level.array("renumber", supervertices)
    head = level.array(f"head{parity}", edges)
    if edges:
        write_kept[blocks_for(m), THREADS](pair, key, kept, place, head_bits, pair_out, key_out, start,
                                           renumber)
        new_heads[blocks_for(edges), THREADS](pair_out, head_bits, renumber, head)
    return n, start, head, key_out


@cuda.jit
def min_outgoing_edge(start, head, key, lightest, successor, lanes):
    """The segmented min: ``lanes`` consecutive threads share vertex u's edges (lane l takes
    every lanes-th from the l-th), their minima meet in shared memory, the first lane writes."""
    best_key = cuda.shared.array(THREADS, int64)
    best_to = cuda.shared.array(THREADS, int64)
    tid = cuda.threadIdx.x
    u = (cuda.blockIdx.x * THREADS + tid) // lanes
    best, to = NO_KEY, u
    if u < lightest.size:
        for j in range(start[u] + tid % lanes, start[u + 1], lanes):
            if key[j] < best:
                best, to = key[j], head[j]
    best_key[tid], best_to[tid] = best, to
    cuda.syncthreads()
    if tid % lanes == 0 and u < lightest.size:
        for t in range(tid + 1, tid + lanes):
            if best_key[t] < best:
                best, to = best_key[t], best_to[t]
        lightest[u], successor[u] = best, to


@cuda.jit
def remove_cycles(successor, lightest, in_forest):
    """S(S(u)) = u: u and S(u) picked the same edge; the smaller becomes the representative,
    the larger puts the edge in the forest (only u's own entry is written)."""
    u = cuda.grid(1)
    if u < successor.size:
        s = successor[u]
        if s != u:
            if successor[s] == u and u < s:
                successor[u] = u
            else:
                mark_in_forest(in_forest, lightest[u] & EDGE_MASK)


@cuda.jit
def pointer_double(successor, changed, j):
    u = cuda.grid(1)
    if u < successor.size:
        s = successor[u]
        ss = successor[s]
        if ss != s:
            successor[u] = ss
            changed[j] = 1


@cuda.jit
def flag_representatives(successor, flags):
    u = cuda.grid(1)
    if u < successor.size:
        flags[u] = 1 if successor[u] == u else 0


@cuda.jit
def supervertex_of(successor, supervertex, label):
    """label[u]: the supervertex id of u's representative (one gather per vertex, not two per
    edge end)."""
    u = cuda.grid(1)
    if u < label.size:
        label[u] = supervertex[successor[u]]


@cuda.jit
def relabel_edges(start, head, label, supervertices, head_bits, lanes, pair):
    """Each edge as (tail, head) supervertex ids packed in one key (``lanes`` threads a vertex,
    as in the segmented min); a self-edge's tail becomes ``supervertices`` (no supervertex's
    id), so the split puts them all last and the compaction of step 7 drops them."""
    t = cuda.grid(1)
    u = t // lanes
    if u < label.size:
        a = label[u]
        for j in range(start[u] + t % lanes, start[u + 1], lanes):
            b = label[head[j]]
            pair[j] = ((a if a != b else supervertices) << head_bits) | b


@cuda.jit
def lightest_of_runs(pair, key, head_bits, supervertices, kept, between):
    """After the split, parallel edges between two supervertices lie together:
    the first of each run takes the run's lightest key and is kept, the rest are not; self-edges
    (last) are not kept either. kept[j] = 1 + FIRST if j is also its tail's first edge.
    between[0]: how many edges are not self-edges (where the self-edges begin)."""
    m = pair.size
    for j in range(cuda.grid(1), m, cuda.gridsize(1)):
        p = pair[j]
        a = p >> head_bits
        new_tail = j == 0 or (pair[j - 1] >> head_bits) != a
        if a == supervertices:
            kept[j] = 0
            if new_tail:
                between[0] = j
            continue
        if j == m - 1:
            between[0] = m
        if j == 0 or pair[j - 1] != p:
            best, i = key[j], j + 1
            while i < m and pair[i] == p:
                best = min(best, key[i])
                i += 1
            key[j], kept[j] = best, 1 + (FIRST if new_tail else 0)
        else:
            kept[j] = 0


@cuda.jit(device=True)
def kept_before(x, kept, place):
    """How many kept edges lie before edge x (x = m: all of them)."""
    m = kept.size
    return place[x] if x < m else place[m - 1] + kept[m - 1]


@cuda.jit
def flag_between(start, head, label, lanes, kept):
    """kept[j] = 1 unless edge j joins two vertices of one supervertex (``lanes`` threads a
    vertex, as in the segmented min)."""
    t = cuda.grid(1)
    u = t // lanes
    if u < label.size:
        a = label[u]
        for j in range(start[u] + t % lanes, start[u + 1], lanes):
            kept[j] = 1 if label[head[j]] != a else 0


@cuda.jit
def keys_and_ids(label, keys, ids):
    u = cuda.grid(1)
    if u < label.size:
        keys[u], ids[u] = label[u], u


@cuda.jit
def sorted_degrees(order, by_supervertex, start, kept, place, degree, first):
    """degree[i]: kept edges of the i-th vertex in supervertex order; first[s]: where
    supervertex s's vertices begin in that order (every supervertex has its representative),
    first[supervertices] = n."""
    i = cuda.grid(1)
    n = order.size
    if i < n:
        u = order[i]
        degree[i] = kept_before(start[u + 1], kept, place) - kept_before(start[u], kept, place)
        if i == 0 or by_supervertex[i - 1] != by_supervertex[i]:
            first[by_supervertex[i]] = i
        if i == n - 1:
            first[first.size - 1] = n


@cuda.jit
def supervertex_has_edges(first, base, kept, place, has, edge_total):
    """has[s] = 1 if supervertex s keeps an edge; edge_total[0]: the kept edges."""
    s = cuda.grid(1)
    total = kept_before(kept.size, kept, place)
    if s < has.size:
        end = base[first[s + 1]] if first[s + 1] < base.size else total
        has[s] = 1 if end > base[first[s]] else 0
    if s == 0:
        edge_total[0] = total


@cuda.jit
def supervertex_starts(first, base, has, rank, edge_total, start):
    s = cuda.grid(1)
    if s < has.size and has[s]:
        start[rank[s]] = base[first[s]]
    if s == 0:
        start[start.size - 1] = edge_total[0]


@cuda.jit
def move_edges(order, base, start, head, key, kept, place, label, rank, lanes, head_out, key_out):
    """The i-th vertex in supervertex order (``lanes`` threads) moves its kept edges, in order,
    to base[i] on; each head becomes its supervertex's new id."""
    t = cuda.grid(1)
    i = t // lanes
    if i < order.size:
        u = order[i]
        shift = base[i] - kept_before(start[u], kept, place)
        for j in range(start[u] + t % lanes, start[u + 1], lanes):
            if kept[j]:
                q = place[j] + shift
                head_out[q], key_out[q] = rank[label[head[j]]], key[j]


@cuda.jit
def write_kept(pair, key, kept, place, head_bits, pair_out, key_out, start, renumber):
    """The kept edges in order; each tail's first edge starts its new vertex (id from the scan)."""
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        f = kept[j]
        if f:
            q, v = place[j] & EDGE_MASK, place[j] >> 32
            pair_out[q], key_out[q] = pair[j], key[j]
            if f >= FIRST:
                start[v] = q
                renumber[pair[j] >> head_bits] = v
    if cuda.grid(1) == 0:
        start[start.size - 1] = pair_out.size


@cuda.jit
def new_heads(pair, head_bits, renumber, head):
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        head[j] = renumber[pair[j] & ((1 << head_bits) - 1)]
