"""The launch guards every GPU family shares (engine/gpu_launch.py): host loops end at the bound
their algorithm proves, and a persistent kernel's grid never holds more blocks than can be
resident at once (a grid barrier would wait for ever on the rest)."""

import pytest

from engine import gpu_launch
from engine.gpu_launch import RoundLimitError, bounded_rounds, co_resident_blocks


def test_bounded_rounds_gives_its_rounds_then_raises_naming_the_loop():
    rounds = bounded_rounds(3, "a test's loop")
    assert [next(rounds) for _ in range(3)] == [0, 1, 2]
    with pytest.raises(RoundLimitError, match="a test's loop not done after 3 rounds"):
        next(rounds)


def test_a_loop_that_ends_in_time_raises_nothing():
    for r in bounded_rounds(3, "a test's loop"):
        if r == 2:
            break
    assert r == 2


class Compiled:
    """A compiled kernel as Numba's dispatcher holds it, reporting ``blocks`` co-resident."""
    def __init__(self, blocks):
        self.blocks = blocks

    def max_cooperative_grid_blocks(self, blockdim):
        return self.blocks


class Kernel:
    def __init__(self, blocks):
        self.overloads = {"void(int64[::1])": Compiled(blocks)}


def test_a_persistent_grid_is_exactly_the_blocks_that_fit_and_never_empty(monkeypatch):
    monkeypatch.setattr(gpu_launch, "simulated", lambda: False)
    assert co_resident_blocks(Kernel(264), 256) == 264
    with pytest.raises(ValueError, match="not one block of 256 threads"):
        co_resident_blocks(Kernel(0), 256)
    monkeypatch.setattr(gpu_launch, "simulated", lambda: True)
    assert co_resident_blocks(Kernel(264), 256) == 1  # the simulator runs one block


def test_a_persistent_launch_takes_at_most_the_blocks_per_multiprocessor_asked_for(monkeypatch):
    monkeypatch.setattr(gpu_launch, "multiprocessors", lambda: 132)
    assert gpu_launch.at_most_per_multiprocessor(528) == 528      # None: every co-resident block
    assert gpu_launch.at_most_per_multiprocessor(528, 2) == 264
    assert gpu_launch.at_most_per_multiprocessor(100, 2) == 100   # never more than are co-resident
