"""gpu-fast's tuning: tile and cell sizes, the via recovery's shape, and where each path takes
over, as one frozen object a ``Solver`` is given (defaults: the H100's measured best; under
Numba's CUDA simulator, which runs each GPU thread as a Python thread, small tiles).
Measurements and the versions that lost: docs/gpu-notes.md."""

from dataclasses import dataclass

import numpy as np

from ...gpu_device import simulated


@dataclass(frozen=True)
class Tuning:
    # b: tile and k-block. Every tile kernel runs threads×threads threads, each keeping cells×cells
    # cells in registers (threads·cells = b), the k-loop of a product unrolled ``unroll`` times.
    # Operands come four at a time in 16-byte loads: cells and unroll are multiples of 4.
    b: int = 64
    threads: int = 16
    cells: int = 4
    unroll: int = 8
    # The same for the products of phases 1–2 and of the one-launch kernel (mul_global,
    # mul_shared): a few of them per k-block, not phase 3's hot loop, and compiled on a small
    # graph's first solve, where each step written out costs compile time (issue 30).
    small_unroll: int = 4
    # Shared tiles' rows lie b + tile_pad words apart (a multiple of 4: 16-byte loads): a warp
    # reads its left operands X[i, k] from 32/threads rows at once, in the same banks unless
    # padded apart. (Not in the one-launch kernel: its three tiles must fit in 48 KB of static
    # shared memory.)
    tile_pad: int = 4
    # The via recovery: a block takes recover_rows rows × recover_columns cells, one thread per
    # candidate k and row; each thread loads recover_batch cells' operands before testing any.
    recover_columns: int = 32
    recover_batch: int = 2
    # The same on an exact lanes solve (``recover_lanes``): a block per row and
    # lanes_recover_chunk of its cells (a multiple of threads²), each thread loading
    # lanes_recover_batch cells' operands before testing any; with lanes_recover_staged, the
    # row is first copied to shared memory where it fits lanes_row_words words
    # (``recover_lanes_rows``). (H100, n = 16,384, transpose + recovery: batch 1 15.1 ms,
    # 2 18.0, 4 22.3; the row read where it is 18.9 at batch 2.)
    lanes_recover_batch: int = 1
    lanes_recover_chunk: int = 16384
    lanes_recover_staged: bool = True
    lanes_row_words: int = 8192
    # Largest padded size solved by the single persistent launch (0: never; -1: always).
    one_launch_max: int = 1536
    # Padded sizes up to mapped_max read their input from, and write their answer into,
    # page-locked host memory mapped into the device: no copy calls (measured on the H100, end
    # to end: n = 500 1.5 → 0.8 ms, the 2,253-node hub 24.7 → 8.0 ms; at n = 4,000 no gain and
    # a slower solve, as the answer crosses PCIe inside the kernels). Larger ones copy, through
    # page-locked host buffers kept for the next call: the input up before the solve, the
    # distances back while the vias are recovered, the vias (int16 up to via16_max) last; the
    # answer is handed out as views of the padded copy.
    mapped_max: int = 3072
    via16_max: int = int(np.iinfo(np.int16).max)
    # The copied path solves in 16-bit lanes first (``gpu_lanes16``: twice the relaxations per
    # instruction), then in int32 only where some pair ended at the lanes' CAP (on its tiles).
    lanes16: bool = True
    # Phase 3 on lanes in tiles of B rows × 2B words, 4 × 8 words a thread (``wide``: per
    # relaxation half the tile's fixed work; nb padded to a multiple of 4). H100, n = 16,384:
    # 187.1 ms of phase 3 against 192.9 (docs/gpu-notes.md).
    lanes_wide: bool = True
    # Look-ahead closure: the phase-3 block whose tile holds the next round's diagonal tile
    # (kb + 1, kb + 1), started in the first wave, closes it after its stores (phase 1 of round
    # kb + 1, done once), so phase 2 of rounds kb ≥ 1 (``phase2_lanes_closed``) only loads it
    # and does its products, in one wave. H100, n = 16,384: phases 1+2 9.19 → 4.95 ms.
    lanes_lookahead: bool = True
    # A lanes solve's round marks kept as int16, two a word like the distances' lanes (VL: the
    # first half of T, free until the recovery), in place of V's int32: half the marks' bytes
    # (the early rounds, where most cells improve, are bound by them), each changed cell's mark
    # written alone by a 16-bit store, no old mark read (``source.word_marks``); ``widen``
    # writes them to V as int32 for everything after the lanes rounds. H100, n = 16,384: phase
    # 3 187.1 → 182.8 ms with the pair's word read and rebuilt, → 172.7 with 16-bit stores.
    lanes_marks16: bool = True
    # With lanes_marks16: an exact lanes solve whose vias fit int16 recovers them from VL's
    # marks straight into N (``recover_lanes16``: 2 bytes a cell read and written, not 4 + 4,
    # and no ``narrow``); ``widen`` leaves V alone, and where the int32 recovery follows
    # (pairs at the cap, or int32 vias) ``widen_marks`` writes V from VL first. H100,
    # n = 16,384: widen 1.22 → 0.74 ms, narrow's 0.88 gone. (docs/gpu-notes.md, all three.)
    lanes_vias16: bool = True
    answer_pool_bytes: int = 256 << 20  # mapped answer buffers kept, at most (beyond: copied back)
    graphs_kept: int = 8  # launch graphs kept per size (one per pair of input and answer buffers)

    def __post_init__(self):
        if self.lanes_vias16 and not self.lanes_marks16:
            raise ValueError("Tuning: lanes_vias16 needs lanes_marks16 (the vias are recovered from VL's int16 marks)")

    @property
    def recover_rows(self) -> int:
        return self.threads * self.threads // self.b

    def kernel_part(self) -> "Tuning":
        """This tuning with only what the kernels' source depends on kept (the rest at the
        defaults): tunings that differ only in thresholds share their compiled kernels."""
        return Tuning(b=self.b, threads=self.threads, cells=self.cells, unroll=self.unroll,
                      small_unroll=self.small_unroll,
                      tile_pad=self.tile_pad, recover_columns=self.recover_columns,
                      recover_batch=self.recover_batch, lanes_recover_batch=self.lanes_recover_batch,
                      lanes_row_words=self.lanes_row_words,
                      lanes_lookahead=self.lanes_lookahead, lanes_marks16=self.lanes_marks16,
                      lanes_vias16=self.lanes_vias16)


SIMULATOR = Tuning(b=16, threads=4, cells=4, unroll=4, recover_columns=8, recover_batch=4,
                   lanes_recover_chunk=32, lanes_row_words=64, one_launch_max=10**9)


def default_tuning() -> Tuning:
    """The tuning for this machine: small tiles under the simulator."""
    return SIMULATOR if simulated() else Tuning()
