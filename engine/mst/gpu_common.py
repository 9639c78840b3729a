"""What both GPU spanning-forest variants share: the graph's device copy (made once, kept on the
graph), the union-find ``find``, and the forest itself — one bit per edge, set by atomic or as
edges are chosen, turned into ascending edge ids on the device (popcount, scan, write) so that
only the k chosen ids travel back to the host (int32, into pinned memory)."""

import numpy as np
from numba import cuda

from ..gpu_launch import THREADS, blocks_for, marker_event
from ..gpu_memory import kept_buffer, kept_pinned
from .gpu_primitives import Scratch, exclusive_scan

NO_KEY = np.int64(2**63 - 1)  # above every order_keys key: "no edge yet"
WORD = 32                     # edges per word of the forest's bit set


def upload(g):
    """(u, v, key) of every edge on the device; copied once and kept on the graph."""
    if "edges" not in g.device:
        g.device["edges"] = tuple(cuda.to_device(a) for a in (g.u, g.v, g.key))
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
    with the buffers that turn it into ids; kept on the graph between solves."""

    def __init__(self, g):
        words = -(-g.m // WORD)
        self.bits = kept_buffer(g, "forest_bits", words, np.uint32)
        self.counts = kept_buffer(g, "forest_counts", words, np.int64)
        self.offsets = kept_buffer(g, "forest_offsets", words, np.int64)
        id_type = np.int32 if g.m < 2**31 else np.int64  # half the copy back on any real graph
        self.ids = kept_buffer(g, "forest_ids", max(g.n - 1, 1), id_type)
        self.host_ids = kept_pinned(g, "forest_ids", self.ids.size, id_type)
        self.chosen = kept_buffer(g, "forest_size", 1, np.int64)
        self.chosen_host = kept_pinned(g, "forest_size", 1, np.int64)
        self.words = words
        self.size = 0
        self.scratch = scratch(g)

    def clear(self):
        fill_with(self.bits, 0)

    def compact(self) -> int:
        """Write the chosen edges' ids, ascending, to ``ids`` on the device; returns how many
        (waits for the device: the count comes back, once the ids are written)."""
        blocks = blocks_for(self.words)
        _count_bits[blocks, THREADS](self.bits, self.counts)
        exclusive_scan(self.counts, self.offsets, self.scratch, total=False)
        _write_ids[blocks, THREADS](self.bits, self.offsets, self.ids, self.chosen)
        self.chosen.copy_to_host(self.chosen_host)
        self.size = int(self.chosen_host[0])
        if self.size > self.ids.size:  # a forest has at most n − 1 edges: a kernel misbehaved
            raise RuntimeError(f"{self.size} edges chosen on {self.ids.size + 1} vertices: not a forest")
        return self.size

    def ids_to_host(self) -> np.ndarray:
        """The ids ``compact`` wrote, copied to the host: a view of pinned memory kept on the graph
        (k ints, no n- or m-sized host pass; the next solve of this graph overwrites it)."""
        if self.size:
            self.ids[:self.size].copy_to_host(self.host_ids[:self.size])
        return self.host_ids[:self.size]


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
def _write_ids(bits, offsets, ids, chosen):
    """Each word's set bits' edge ids from its offset on; none past the end of ``ids`` (a
    misbehaving kernel's extra edges are counted and refused by ``compact``, not written);
    chosen[0] ← how many bits are set (the last word's offset and its own bits)."""
    for w in range(cuda.grid(1), bits.size, cuda.gridsize(1)):
        word, place = bits[w], offsets[w]
        if w == bits.size - 1:
            chosen[0] = place + cuda.popc(word)
        for b in range(WORD):
            if (word >> np.uint32(b)) & np.uint32(1) and place < ids.size:
                ids[place] = w * WORD + b
                place += 1


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
