"""GPU fast: blocked Floyd–Warshall tuned for the H100 — exact int32, a route for every pair.

The schedule is the blocked algorithm's (gpu_blocked.py): per k-block of B vertices, phase 1
(the self-dependent diagonal tile), phase 2 (its row and column tiles), phase 3 (the rest).
What makes it fast:

- the matrix is padded to a multiple of B with isolated vertices, so no kernel tests bounds;
- 64×64 tiles, 16×16 threads, each keeping 4×4 cells in scalar registers (the source is
  generated: Numba has no register arrays; tiles are loaded by straight-line code so the
  loads overlap), and every relaxation is ``addmin`` (``addmin.py``), a 32-bit add and min:
  Numba would do ``int32 + int32`` in 64 bits otherwise, three times slower; ptxas then fuses
  each add-min into one Hopper ``VIADDMNMX``;
- every operand comes in a 16-byte load (``gpu_vector_load.load4``): a thread's four cells of
  a row are side by side, so a k-row's four right operands are one load, and four steps' left
  operands another — 16 shared loads per 128 add-mins instead of 40; the shared tiles' rows
  are padded 4 words apart so a warp's two rows of left operands fall in different banks;
- phase 1 closes the diagonal tile in shared memory k after k (a run-time loop, four steps
  written out per turn: fully unrolled it cost most of the compile and no run time); every block
  that needs the closed tile computes it itself (one of them writes it back), so phases 1 and
  2 are one launch (``Tuning.lanes_lookahead``, on lanes: one phase-3 block closes the next
  round's diagonal tile after its own, and phase 2 only loads it);
- phase 2 is phase 3's product too: with the diagonal tile closed, a row tile is
  min(itself, diagonal ⊗ itself) and a column tile min(itself, itself ⊗ diagonal);
- routes are a "via" matrix, kept out of the hot loop: the products run the bare add-min and
  only mark an improved cell with its round; after the last round ``recover`` finds, for each
  marked cell, a k of that round's block with d(i, k) + d(k, j) = d(i, j) in the final
  distances (64 candidates, not n; after an exact 16-bit lanes solve, ``recover_lanes`` tests
  them two a word on the lanes, eight a thread from two 16-byte loads, a block per row);
- one launch for every k-block where the graph is small (a persistent cooperative kernel, one
  grid barrier per k-block: a block with a phase-3 tile also computes the row and column tiles
  it needs), two launches per k-block where it is large; the via recovery after either.
- small graphs (padded ≤ ``Tuning.mapped_max``) have no copy calls: the kernels read the input from
  page-locked host memory mapped into the device (``solve`` converts the costs straight into
  it: ``input_array``), and the via recovery writes the unpadded
  answer (distances and vias) into a mapped buffer from a pool (``engine.gpu_memory``), handed out
  as views;
- larger graphs copy, through page-locked buffers from pools: the input up before the solve,
  the distances back on a second stream while the vias are recovered, the vias narrowed to
  int16 (half the bytes) and back last.
- larger graphs are solved with two distances in each int32 word first, 16-bit lanes capped
  at 32,767 (``gpu_lanes16``): phase 3 relaxes both with one Hopper ``VIADDMNMX.U16x2``, twice
  the relaxations per instruction (``wide``: tiles of 64 rows × 128 words, 4 × 8 words a
  thread); phases 1 and 2 unpack their tiles into shared memory and work in int32; the round
  marks and the vias are int16 (``Tuning.lanes_marks16``, ``lanes_vias16``). The capped
  arithmetic is exact for every distance below the cap; where some
  pair ends at the cap (a distance of 32,767 or more, or no path) the graph is solved again in
  int32. ``Tuning.lanes16`` turns the first attempt off.

The package: ``tuning`` (the sizes and thresholds, one frozen ``Tuning`` a ``Solver`` is given;
under Numba's CUDA simulator, which runs each GPU thread as a Python thread, 16×16 tiles of 4×4
threads), ``source`` and ``kernel_text`` (the kernels' source, generated for a tuning),
``launch`` (compiling and queueing them), ``buffers`` (device buffers and host pools) and
``solver`` (the ``Solver``: the runs). The names below are its public face, for the registry, the tests and
the GPU probes (benchmarks/gpu). Measurements and the versions that lost: docs/gpu-notes.md.
"""

from .buffers import device_buffers
from .launch import (by_rows, kernel_cache_dir, kernels, lanes_marks, lanes_phase3, launch_all, launch_recovery, launch_rounds,
                     launch_widen, module_from_source, one_launch)
from .solver import Solver
from .source import generated_source, recover_source
from .tuning import SIMULATOR, Tuning, default_tuning

__all__ = ["SIMULATOR", "SOLVER", "Solver", "Tuning", "by_rows", "default_tuning", "device_buffers", "generated_source",
           "input_array", "kernel_cache_dir", "kernels", "lanes_marks", "lanes_phase3", "launch_all", "launch_recovery", "launch_rounds",
           "launch_widen", "module_from_source", "one_launch", "recover_source", "run"]

SOLVER = Solver()  # the registry's gpu-fast: this machine's tuning


def run(w):
    """The registry's runner: ``SOLVER.run``."""
    return SOLVER.run(w)


def input_array(n: int):
    """The registry's input buffer: ``SOLVER.input_array``."""
    return SOLVER.input_array(n)
