"""The buffer pool: a buffer is reused only once no view of it is alive, whatever the view."""

import gc

import numpy as np
import pytest

from engine.gpu_memory import BufferPool


class Mapped(np.ndarray):
    """Stands in for Numba's MappedNDArray: an ndarray subclass over memory it does not own."""


def owned(shape):
    host = np.empty(shape, np.int32)  # the simulator's case: one array, owning its memory
    return host, host


def mapped(shape):
    """The GPU's case: a subclass view of foreign memory, and a plain host view of it."""
    memory = bytearray(4 * int(np.prod(shape)))
    kernel_arg = np.frombuffer(memory, np.int32).reshape(shape).view(Mapped)
    return kernel_arg, np.asarray(kernel_arg)


@pytest.mark.parametrize("allocate", [owned, mapped])
def test_a_buffer_is_reused_only_when_no_view_of_it_is_alive(allocate):
    pool = BufferPool(allocate, max_bytes=10**6)
    _, first = pool.take((2, 3, 3))
    dist, via = first[0], first[1]
    del first
    _, second = pool.take((2, 3, 3))
    assert not np.shares_memory(second, dist), "a buffer still viewed was handed out again"
    row = via[1]             # a view of a view keeps the buffer busy too
    del dist, via
    _, third = pool.take((2, 3, 3))
    assert not np.shares_memory(third, row)
    del row, third
    gc.collect()
    _, again = pool.take((2, 3, 3))
    assert pool.kept() == 3, "a free kept buffer should have been reused, not a new one made"
    assert not np.shares_memory(again, second), "second is still held"


@pytest.mark.parametrize("allocate", [owned, mapped])
def test_free_buffers_are_reused_not_reallocated(allocate):
    calls = []

    def counting(shape):
        calls.append(shape)
        return allocate(shape)

    pool = BufferPool(counting, max_bytes=10**6)
    for _ in range(5):
        _, host = pool.take((2, 4, 4))
        copy = host[1].copy()  # a copy does not hold the buffer
        del host
    assert len(calls) == 1 and copy.shape == (4, 4)


def test_another_shape_lets_the_kept_buffers_go():
    pool = BufferPool(owned, max_bytes=10**6)
    _, small = pool.take((2, 3, 3))
    view = small[0]
    del small
    pool.take((2, 5, 5))
    assert pool.kept() == 1
    view[...] = 7            # the old answer is still the caller's, untouched by the pool
    assert (view == 7).all()


def test_beyond_the_byte_limit_the_pool_lends_nothing():
    pool = BufferPool(owned, max_bytes=2 * 3 * 3 * 4)
    taken = pool.take((2, 3, 3))
    assert pool.take((2, 3, 3)) is None        # the first is still held: no room for a second
    assert pool.take((2, 4, 4)) is None        # one buffer of this shape alone is over the limit
    del taken
    assert pool.take((2, 3, 3)) is not None and pool.kept() == 1
