"""The event heap as arrays pops in the order ``heapq`` pops the day's event tuples."""

import heapq

import numpy as np
import pytest

from engine.sim.loop.heap import EventHeap, pop


def test_random_pushes_pops_and_drops_match_heapq():
    rng = np.random.default_rng(1)
    for _ in range(20):
        heap, ref, seq = EventHeap(64), [], 0
        for _ in range(400):
            op = rng.integers(0, 5)
            if op < 2 and len(ref) < 64:
                seq += 1
                e = (float(rng.integers(0, 20)), seq, int(rng.integers(0, 2)),
                     int(rng.integers(0, 10)))     # equal times: the sequence decides
                heapq.heappush(ref, e)
                heap.push(*e)
            elif op < 4 and ref:
                assert pop(*heap.arrays()) == heapq.heappop(ref)
            elif ref:
                k = int(rng.integers(0, 10))
                ref = [e for e in ref if e[3] != k]
                heapq.heapify(ref)
                heap.drop_tug(k)
            assert heap.size[0] == len(ref)
        while ref:
            assert pop(*heap.arrays()) == heapq.heappop(ref)


def test_an_empty_or_full_heap_says_so():
    heap = EventHeap(1)
    with pytest.raises(IndexError):
        pop(*heap.arrays())
    heap.push(1.0, 1, 0, 0)
    with pytest.raises(IndexError):
        heap.push(2.0, 2, 0, 1)
    heap.grow(2)
    heap.push(2.0, 2, 0, 1)
    assert pop(*heap.arrays()) == (1.0, 1, 0, 0)
