"""GPU Borůvka from data-parallel primitives: the seed's algorithm, step by step, recursing on
ever smaller graphs (vertex list ``start``, edge list ``head``/``key`` grouped by tail):

 1. minimum outgoing edge per vertex — a segmented min over each vertex's edges; keys order by
    (weight, edge id), which in the first graph is the seed's "ties to the smaller vertex id";
 2. successor S(u) = the vertex that edge leads to; cycle removal — where S(S(u)) = u the smaller
    of the two becomes a representative (S(u) = u); every other vertex's edge is in the forest;
 3. representatives by pointer doubling, S(u) ← S(S(u)) until nothing changes;
 4. supervertex ids by an exclusive scan of the representative flags;
 5. self-edge removal: edges relabelled to supervertex ids, those inside one compacted away;
 6. duplicate-edge removal by split: edges split (stable radix) on (tail, head) supervertex ids,
    the lightest of each run of equal pairs kept;
 7. the new vertex list by a scan over the edge list (supervertices with no edges left are
    whole trees and drop out);
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
"""

import numpy as np
from numba import cuda

from ..gpu_launch import THREADS, blocks_for, bounded_rounds, ceil_div, timed_on_device
from .gpu_common import NO_KEY, Forest, LaggedCounts, halving_rounds, mark_in_forest, scratch, upload
from .gpu_primitives import exclusive_scan, split

EDGE_MASK = 0xFFFFFFFF


def run(g):
    if g.m == 0:
        return np.zeros(0, np.int64), 0.0, None
    levels = Levels(g)
    seconds = timed_on_device(levels.solve)
    return levels.forest.ids_to_host(), seconds, f"{len(levels.sizes)} levels"


class Levels:
    """One solve of graph ``g``: its device arrays and the recursion. ``after(step)`` is called
    after each step is queued (the numbered steps' names), for a probe's CUDA events."""

    def __init__(self, g, after=None):
        self.g = g
        if "adjacency" not in g.device:
            g.device["adjacency"] = tuple(cuda.to_device(a) for a in g.adjacency())
        self.key = upload(g)[2]
        self.forest = Forest(g)
        self.scratch = scratch(g)
        self.changed = LaggedCounts(g, "doubling", halving_rounds(g.n) + 1)
        self.after = after or (lambda step: None)
        self.sizes = []  # (vertices, edges) of each level

    def solve(self):
        start, head, edge = self.g.device["adjacency"]
        self.forest.clear()
        edge_key = self.scratch.get("edge_key", head.size)
        gather[blocks_for(head.size), THREADS](edge, self.key, edge_key)
        self.after("start")
        graph = (self.g.n, start, head, edge_key)
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
    min_outgoing_edge[vertex_blocks, THREADS](start, head, key, lightest, successor)   # 1
    level.after("1 min edge")
    remove_cycles[vertex_blocks, THREADS](successor, lightest, level.forest.bits)       # 2
    level.after("2 cycles")
    double_pointers(n, successor, level)                                               # 3
    flags, supervertex = level.array("flags", n), level.array("supervertex", n)
    flag_representatives[vertex_blocks, THREADS](successor, flags)
    supervertices = exclusive_scan(flags, supervertex, level.scratch)                   # 4
    level.after("4 scan")
    bits = max(1, int(supervertices - 1).bit_length())
    m = head.size
    label = level.array("label", n)
    tail, pair, keep = level.array("tail", m), level.array("pair", m), level.array("keep", m)
    supervertex_of[vertex_blocks, THREADS](successor, supervertex, label)
    tail_labels[vertex_blocks, THREADS](start, label, tail)
    relabel_edges[blocks_for(m), THREADS](tail, head, label, bits, pair, keep)          # 5
    pair, key = compact(pair, key, keep, level, "relabelled")
    level.after("5 self-edges")
    pair, key = split(pair, key, 2 * bits, level.scratch)                                # 6
    level.after("6 split")
    keep = level.array("keep", pair.size)
    lightest_of_runs[blocks_for(pair.size), THREADS](pair, key, keep)
    pair, key = compact(pair, key, keep, level, "distinct")
    level.after("6 duplicates")
    graph = new_vertex_list(pair, key, bits, level)                                     # 7
    level.after("7 vertex list")
    return graph


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


def compact(pair, key, keep, level, name):
    """The elements whose ``keep`` flag is 1, in order (a scan gives each its place)."""
    place = level.array("place", pair.size)
    size = exclusive_scan(keep, place, level.scratch)
    pair_out, key_out = level.array(f"{name}_pair", size), level.array(f"{name}_key", size)
    if size:
        scatter_kept[blocks_for(pair.size), THREADS](pair, key, keep, place, pair_out, key_out)
    return pair_out, key_out


def new_vertex_list(pair, key, bits, level):
    m = pair.size
    first, place = level.array("first", m), level.array("place", m)
    flag_first_of_tail[blocks_for(m), THREADS](pair, bits, first)
    n = exclusive_scan(first, place, level.scratch)
    start = level.array("start", n + 1)
    renumber = level.array("renumber", 1 << bits)
    vertex_starts[blocks_for(m), THREADS](pair, bits, first, place, start, renumber)
    head = level.array("head", m)
    new_heads[blocks_for(m), THREADS](pair, bits, renumber, head)
    return n, start, head, key


@cuda.jit
def gather(edge, key, out):
    for j in range(cuda.grid(1), out.size, cuda.gridsize(1)):
        out[j] = key[edge[j]]


@cuda.jit
def min_outgoing_edge(start, head, key, lightest, successor):
    u = cuda.grid(1)
    if u < lightest.size:
        best, to = NO_KEY, u
        for j in range(start[u], start[u + 1]):
            if key[j] < best:
                best, to = key[j], head[j]
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
def tail_labels(start, label, tail):
    """tail[j]: the supervertex id of edge j's tail (the edges of u are start[u] … start[u+1])."""
    u = cuda.grid(1)
    if u < start.size - 1:
        a = label[u]
        for j in range(start[u], start[u + 1]):
            tail[j] = a


@cuda.jit
def relabel_edges(tail, head, label, bits, pair, keep):
    """Each edge as (tail, head) supervertex ids packed in one key; self-edges flagged out."""
    for j in range(cuda.grid(1), head.size, cuda.gridsize(1)):
        a, b = tail[j], label[head[j]]
        pair[j] = (a << bits) | b
        keep[j] = 1 if a != b else 0


@cuda.jit
def scatter_kept(pair, key, keep, place, pair_out, key_out):
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        if keep[j]:
            pair_out[place[j]], key_out[place[j]] = pair[j], key[j]


@cuda.jit
def lightest_of_runs(pair, key, keep):
    """Parallel edges between two supervertices lie together after the split: the first of each
    run takes the run's lightest key and is kept, the rest are not."""
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        keep[j] = 0
        if j == 0 or pair[j] != pair[j - 1]:
            best, i = key[j], j + 1
            while i < pair.size and pair[i] == pair[j]:
                best = min(best, key[i])
                i += 1
            key[j], keep[j] = best, 1


@cuda.jit
def flag_first_of_tail(pair, bits, first):
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        first[j] = 1 if j == 0 or (pair[j] >> bits) != (pair[j - 1] >> bits) else 0


@cuda.jit
def vertex_starts(pair, bits, first, place, start, renumber):
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        if first[j]:
            start[place[j]] = j
            renumber[pair[j] >> bits] = place[j]
        if j == pair.size - 1:
            start[start.size - 1] = pair.size


@cuda.jit
def new_heads(pair, bits, renumber, head):
    for j in range(cuda.grid(1), pair.size, cuda.gridsize(1)):
        head[j] = renumber[pair[j] & ((1 << bits) - 1)]
