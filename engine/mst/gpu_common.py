"""What both GPU spanning-forest variants share: the graph's device copy (made once, kept on the
graph), the union-find ``find``, and the forest itself — one bit per edge, set by atomic or as
edges are chosen, turned into the answer on the device (popcount, scan, then one thread an edge
writes a chosen edge's id, ends and weight at its place, and the total's first steps are summed)
so that only the k chosen edges travel back to the host: one copy each of ids, ends and weights
into a page-locked buffer kept on the graph, which the answer's arrays are views of."""

import numpy as np
from numba import cuda

from ..gpu_launch import THREADS, blocks_for, ceil_div, marker_event
from ..gpu_memory import BufferPool, kept_buffer, kept_pinned, pinned, pinned_pool_bytes
from .gpu_primitives import Scratch, exclusive_scan
from .result import SUM_RUN, ForestArrays, forest_total, id_dtype

NO_KEY = np.int64(2**63 - 1)  # above every order_keys key: "no edge yet"
WORD = 32                     # edges per word of the forest's bit set


def upload(g):
    """(u, v, key, w) of every edge on the device; copied once and kept on the graph."""
    if "edges" not in g.device:
        g.device["edges"] = tuple(cuda.to_device(a) for a in (g.u, g.v, g.key, g.w))
    return g.device["edges"]


def scratch(g) -> Scratch:
    """The graph's reusable device buffers for scans, splits and levels (see ``Scratch``)."""
    if "scratch" not in g.device:
        g.device["scratch"] = Scratch()
    return g.device["scratch"]


def halving_rounds(n) -> int:
    """A bound on the host rounds of a Borůvka loop over n vertices: each round joins every tree
    that still has an edge out to another tree, so those trees at least halve and at most
    bit_length(n) − 1 rounds join anything (pointer doubling likewise flattens a tree of depth
    below 2^b in b steps); then one round that finds nothing left, and one to spare."""
    return int(n).bit_length() + 2


class Forest:
    """The chosen edges of one graph as a device bit set (edge e is bit e % 32 of word e // 32),
    with the buffers that turn it into the answer; kept on the graph between solves."""

    def __init__(self, g):
        self.g = g
        self.words = -(-g.m // WORD)
        self.bits = kept_buffer(g, "forest_bits", self.words, np.uint32)
        self.counts = kept_buffer(g, "forest_counts", self.words, np.int64)
        self.offsets = kept_buffer(g, "forest_offsets", self.words, np.int64)
        self.most = max(g.n - 1, 1)  # edges a forest can have
        self.ids = kept_buffer(g, "forest_ids", self.most, id_dtype(g.m))
        self.ends = kept_buffer(g, "forest_ends", (self.most, 2), g.u.dtype)
        self.weights = kept_buffer(g, "forest_weights", self.most, g.w.dtype)
        self.sums = tuple(kept_buffer(g, f"forest_sums{i}", ceil_div(self.most, SUM_RUN), np.float64)
                          for i in (0, 1))
        self.sums_host = kept_pinned(g, "forest_sums", SUM_RUN, np.float64)
        self.chosen = kept_buffer(g, "forest_size", 1, np.int64)
        self.chosen_host = kept_pinned(g, "forest_size", 1, np.int64)
        self.size = 0
        self.steps = 0  # the total's steps taken on the device
        self.scratch = scratch(g)

    def clear(self):
        fill_with(self.bits, 0)

    def compact(self) -> int:
        """Write the chosen edges' ids (ascending), ends and weights on the device, and queue the
        total's first steps; returns how many edges (waits for the device: the count comes back,
        once all of that is written)."""
        u, v, _, w = upload(self.g)
        _count_bits[blocks_for(self.words), THREADS](self.bits, self.counts)
        exclusive_scan(self.counts, self.offsets, self.scratch, total=False)
        _write_forest[blocks_for(self.words * WORD), THREADS](self.bits, self.offsets, u, v, w, self.ids,
                                                              self.ends, self.weights, self.chosen)
        self.steps = self._queue_sums()
        self.chosen.copy_to_host(self.chosen_host)
        self.size = int(self.chosen_host[0])
        if self.size > self.most:  # a forest has at most n − 1 edges: a kernel misbehaved
            raise RuntimeError(f"{self.size} edges chosen on {self.most + 1} vertices: not a forest")
        return self.size

    def _queue_sums(self) -> int:
        """Queue ``result.run_sums`` steps over the weights while more than ``SUM_RUN`` values
        could be left (each launch reads the real count on the device: no wait for it); returns
        how many."""
        x, most, step = self.weights, self.most, 0
        while most > SUM_RUN:
            out = self.sums[step % 2]
            most = ceil_div(most, SUM_RUN)
            _run_sums[blocks_for(most), THREADS](x, self.chosen, self.most, step, out)
            x, step = out, step + 1
        return step

    def to_host(self) -> ForestArrays:
        """The answer ``compact`` wrote, copied into a page-locked buffer from a pool kept on the
        graph (reused only once no view of it is alive: an answer the caller keeps is never
        overwritten), and its total (the device's last sums finished on the host)."""
        k = self.size
        a = k * self.weights.dtype.itemsize
        b = a + 2 * k * self.ends.dtype.itemsize
        raw = answer_buffer(self.g, b + k * self.ids.dtype.itemsize)
        weights, edges, ids = (raw[:a].view(self.weights.dtype), raw[a:b].view(self.ends.dtype).reshape(k, 2),
                               raw[b:].view(self.ids.dtype))
        if not k:
            return ForestArrays(edges, weights, 0.0, ids)
        partial, left = (self.sums[(self.steps - 1) % 2] if self.steps else self.weights), k
        for _ in range(self.steps):
            left = ceil_div(left, SUM_RUN)
        stream = cuda.default_stream()
        self.weights[:k].copy_to_host(weights, stream=stream)
        self.ends[:k].copy_to_host(edges, stream=stream)
        self.ids[:k].copy_to_host(ids, stream=stream)
        partial[:left].copy_to_host(self.sums_host[:left], stream=stream)
        stream.synchronize()
        return ForestArrays(edges, weights, forest_total(self.sums_host[:left]), ids)

    def ids_to_host(self) -> np.ndarray:
        """The ids ``compact`` wrote, copied to a fresh host array (for checks and probes)."""
        return self.ids[:self.size].copy_to_host()


def answer_buffer(g, nbytes: int) -> np.ndarray:
    """``nbytes`` of page-locked host memory from graph ``g``'s pool of answers (ordinary memory
    when every pooled buffer is held and the pool is full)."""
    if ("pool", "answers") not in g.device:
        g.device[("pool", "answers")] = BufferPool(pinned(np.uint8), pinned_pool_bytes(), np.uint8)
    taken = g.device[("pool", "answers")].take((nbytes,)) if nbytes else None
    return taken[1] if taken is not None else np.empty(nbytes, np.uint8)


class LaggedCounts:
    """Counters on the device, one a round (kernels of round s add to slot s), each copied to
    pinned host memory as soon as its round is queued and read by the host only when it must
    decide: a host loop that asks for round s − 2's count before queueing round s keeps the GPU
    busy with round s − 1 meanwhile, instead of draining the queue every round. Kept on the
    graph between solves."""

    def __init__(self, g, name: str, slots: int):
        self.device = kept_buffer(g, name, slots, np.int64)
        self.host = kept_pinned(g, name, slots, np.int64)
        self.events = {}

    def reset(self):
        """Every slot back to 0 (queued)."""
        fill_with(self.device, 0)
        self.events.clear()

    def queued(self, s: int):
        """Slot s's round is queued: queue its copy to the host."""
        self.device[s:s + 1].copy_to_host(self.host[s:s + 1], stream=cuda.default_stream())
        self.events[s] = marker_event()
        self.events[s].record()

    def value(self, s: int) -> int:
        """Slot s's count, once its round is done (waits for that round only)."""
        self.events[s].synchronize()
        return int(self.host[s])


@cuda.jit(device=True)
def mark_in_forest(bits, e):
    cuda.atomic.or_(bits, e // WORD, np.uint32(1) << np.uint32(e % WORD))


@cuda.jit
def _count_bits(bits, counts):
    for w in range(cuda.grid(1), bits.size, cuda.gridsize(1)):
        counts[w] = cuda.popc(bits[w])


@cuda.jit
def _write_forest(bits, offsets, u, v, w, ids, ends, weights, chosen):
    """One thread an edge: a chosen edge writes its id, ends and weight at its place (its word's
    offset and the set bits below it), so a warp's reads and writes are consecutive; none past
    the end of ``ids`` (a misbehaving kernel's extra edges are counted and refused by
    ``compact``, not written); chosen[0] ← how many bits are set."""
    for e in range(cuda.grid(1), bits.size * WORD, cuda.gridsize(1)):
        i, b = e // WORD, np.uint32(e % WORD)
        word = bits[i]
        if b == 0 and i == bits.size - 1:
            chosen[0] = offsets[i] + cuda.popc(word)
        if (word >> b) & np.uint32(1):
            place = offsets[i] + cuda.popc(word & ((np.uint32(1) << b) - np.uint32(1)))
            if place < ids.size:
                ids[place] = e
                ends[place, 0] = u[e]
                ends[place, 1] = v[e]
                weights[place] = w[e]


@cuda.jit
def _run_sums(x, chosen, most, step, out):
    """``result.run_sums``'s step number ``step`` of the total on the device: x holds the values
    of that step (the weights, min(chosen[0], most) of them, made ⌈/ SUM_RUN⌉ fewer each step)."""
    size = min(chosen[0], most)
    for _ in range(step):
        size = (size + SUM_RUN - 1) // SUM_RUN
    for i in range(cuda.grid(1), (size + SUM_RUN - 1) // SUM_RUN, cuda.gridsize(1)):
        lo = i * SUM_RUN
        hi = min(lo + SUM_RUN, size)
        s = x[lo]
        for j in range(lo + 1, hi):
            s += x[j]
        out[i] = s


@cuda.jit
def fill(a, value):
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


def fill_with(a, value):
    fill[blocks_for(a.size), THREADS](a, value)


@cuda.jit(device=True)
def find(parent, x):
    """The root of x's tree, halving the path on the way (racing halvings only ever point a
    vertex at an ancestor, so they are safe). A vertex already pointing at its root is not
    written: many threads find through the same few vertices of a big tree, and their stores
    to one address would queue one after another."""
    p = parent[x]
    while p != x:
        grand = parent[p]
        if grand == p:
            return p
        parent[x] = grand
        x, p = grand, parent[grand]
    return x
