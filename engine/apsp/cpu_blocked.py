"""CPU blocked-parallel Floyd–Warshall, after Karasik & Prihozhy (seed 002).

The matrix is cut into B×B blocks D[i][j]. Block D[i][j] is computed M times, once per k-block
``l`` ("level" l+1): ``calc_block(D[i][j], D[i][l], D[l][j])``. Instead of the classic blocked
algorithm's global barrier after every phase, each thread owns whole block rows (row i belongs
to thread i mod P, keeping a row's data in one core's caches) and computes a block as soon as
the blocks it reads have reached the level it needs — tracked in the level matrix L, as in the
paper. Within a row, the column of the next pivot is computed first, so the next level's
central block is ready early: the critical path shrinks and no core idles at a barrier.
Reading a pivot block that is already at a higher level is correct (seed 002, after [3]).

Routes are kept as a "via" matrix: the k whose relaxation last improved each pair.
"""

import threading
import time

import numba
import numpy as np

from .matrix import INF
from .routes import RouteMatrix

UNROLL = 4  # k-steps a peripheral block applies per pass over its rows


def block_size(n: int, threads: int | None = None) -> int:
    """Block width for an n-vertex graph: 128–256 for large graphs (a few int32 blocks fit a
    core's L2; seed 002 found ~120 best on its caches), picked so that padding is small and the
    block rows share out evenly over the threads; the whole graph in one block when small."""
    if n < 384:
        return max(UNROLL, -(-n // UNROLL) * UNROLL)
    threads = threads or numba.get_num_threads()

    def work(b):  # relaxations the slowest thread does, padding included
        m = -(-n // b)
        return (m * b) ** 3 * (-(-m // threads) * threads) / m
    return min((256, 192, 128) if n >= 1024 else (128, 96), key=work)


@numba.njit(cache=True, nogil=True, boundscheck=False)
def calc_block(dist, via, i0, j0, k0, size):
    """Relax block (i0, j0) through every k of the k-block starting at k0 (seed 002, Fig. 2a).

    Row k's slice is copied to a private buffer first: it cannot change during step k (the
    diagonal is 0), and without aliasing the compiler vectorises the j-loop (SIMD min/select).
    """
    row_k = np.empty(size, np.int32)
    for k in range(k0, k0 + size):
        for j in range(size):
            row_k[j] = dist[k, j0 + j]
        kk = np.int32(k)
        for i in range(i0, i0 + size):
            row_i = dist[i, j0:j0 + size]
            via_i = via[i, j0:j0 + size]
            d_ik = dist[i, k]
            for j in range(size):
                s = np.int32(d_ik + row_k[j])
                current = row_i[j]
                row_i[j] = min(s, current)
                via_i[j] = kk if s < current else via_i[j]


@numba.njit(cache=True, nogil=True, boundscheck=False)
def calc_peripheral(dist, via, i0, j0, k0, size):
    """Relax a peripheral block (row and column both outside the k-block): its pivot blocks are
    final for this level, so this is a min-plus product and k can be unrolled — each pass over
    a row applies UNROLL k-steps, loading and storing the row once instead of UNROLL times."""
    pivot = np.empty((size, size), np.int32)  # rows k0.. of the pivot row block, private copy
    for k in range(size):
        for j in range(size):
            pivot[k, j] = dist[k0 + k, j0 + j]
    for i in range(i0, i0 + size):
        row_i = dist[i, j0:j0 + size]
        via_i = via[i, j0:j0 + size]
        for k in range(0, size, UNROLL):
            a0, a1 = dist[i, k0 + k], dist[i, k0 + k + 1]
            a2, a3 = dist[i, k0 + k + 2], dist[i, k0 + k + 3]
            p0, p1, p2, p3 = pivot[k], pivot[k + 1], pivot[k + 2], pivot[k + 3]
            k_0 = np.int32(k0 + k)
            for j in range(size):
                d = row_i[j]
                v = via_i[j]
                s = np.int32(a0 + p0[j])
                if s < d:
                    d, v = s, k_0
                s = np.int32(a1 + p1[j])
                if s < d:
                    d, v = s, k_0 + np.int32(1)
                s = np.int32(a2 + p2[j])
                if s < d:
                    d, v = s, k_0 + np.int32(2)
                s = np.int32(a3 + p3[j])
                if s < d:
                    d, v = s, k_0 + np.int32(3)
                row_i[j] = d
                via_i[j] = v


@numba.njit(cache=True, nogil=True, boundscheck=False)
def calc_whole(dist, via):
    """The whole matrix as one block, two k-steps per pass over the rows (half the memory
    traffic of ``calc_block``, which is bound by it on a matrix that fits L2). Rows k and k+1
    are brought through both steps first; every other row i then takes
    ``min(d[i, j], d[i, k] + d[k, j], d'[i, k+1] + d'[k+1, j])`` (d': after step k), compared in
    step order, so distances and via are exactly ``calc_block``'s. ``via=None``: distances only
    (Numba compiles that case without the via code, another third faster)."""
    n = dist.shape[0]
    row_k, row_1 = np.empty(n, np.int32), np.empty(n, np.int32)  # rows k, k+1 after step k
    for k in range(0, n - 1, 2):
        k0, k1 = np.int32(k), np.int32(k + 1)
        row_k[:] = dist[k]
        a = dist[k + 1, k]
        for j in range(n):  # row k+1, step k
            s = np.int32(a + row_k[j])
            if s < dist[k + 1, j]:
                dist[k + 1, j] = s
                if via is not None:
                    via[k + 1, j] = k0
        row_1[:] = dist[k + 1]
        c = row_k[k + 1]
        for j in range(n):  # row k, step k+1 (step k leaves it: d[k, k] = 0)
            s = np.int32(c + row_1[j])
            if s < dist[k, j]:
                dist[k, j] = s
                if via is not None:
                    via[k, j] = k1
        for i in range(n):
            if i == k or i == k + 1:
                continue
            row_i = dist[i]
            d_ik = row_i[k]
            s = np.int32(d_ik + c)  # (i, k+1) through step k
            if s < row_i[k + 1]:
                row_i[k + 1] = s
                if via is not None:
                    via[i, k + 1] = k0
            d_ik1 = row_i[k + 1]
            if via is None:
                for j in range(n):
                    row_i[j] = min(row_i[j], np.int32(d_ik + row_k[j]), np.int32(d_ik1 + row_1[j]))
            else:
                via_i = via[i]
                for j in range(n):
                    d, v = row_i[j], via_i[j]
                    s = np.int32(d_ik + row_k[j])
                    if s < d:
                        d, v = s, k0
                    s = np.int32(d_ik1 + row_1[j])
                    if s < d:
                        d, v = s, k1
                    row_i[j] = d
                    via_i[j] = v
    if n % 2:  # the last k alone
        k = n - 1
        row_k[:] = dist[k]
        for i in range(n):
            row_i = dist[i]
            d_ik = row_i[k]
            for j in range(n):
                s = np.int32(d_ik + row_k[j])
                if s < row_i[j]:
                    row_i[j] = s
                    if via is not None:
                        via[i, j] = np.int32(k)


def run(w: np.ndarray, block: int | None = None, threads: int | None = None,
        routes: bool = True):
    """(distances, via routes, kernel seconds); ``routes=False``: a graph of one block keeps
    no via matrix (routes None)."""
    n = w.shape[0]
    threads = threads or numba.get_num_threads()
    block = block or block_size(n, threads)
    if block % UNROLL:
        raise ValueError(f"block size must be a multiple of {UNROLL}, got {block}")
    if block >= n:  # one block: no schedule, no padding, one thread
        dist = w.copy()
        np.fill_diagonal(dist, 0)
        via = np.full((n, n), -1, dtype=np.int32) if routes else None
        start = time.perf_counter()
        calc_whole(dist, via)
        return dist, RouteMatrix("via", via) if routes else None, time.perf_counter() - start
    padded = -(-n // block) * block
    dist = np.full((padded, padded), INF, dtype=np.int32)
    dist[:n, :n] = w
    np.fill_diagonal(dist, 0)
    via = np.full((padded, padded), -1, dtype=np.int32)
    start = time.perf_counter()
    _LevelSchedule(dist, via, block, threads).run()
    seconds = time.perf_counter() - start
    return np.ascontiguousarray(dist[:n, :n]), RouteMatrix("via", np.ascontiguousarray(via[:n, :n])), seconds


class _LevelSchedule:
    """Threads that compute their own block rows level by level, waiting only on real dependencies."""

    def __init__(self, dist, via, block, threads):
        self.dist, self.via, self.block = dist, via, block
        self.m = dist.shape[0] // block
        self.threads = max(1, min(threads, self.m))
        self.level = np.zeros((self.m, self.m), dtype=np.int64)  # the paper's matrix L
        self.changed = threading.Condition()
        self.error: BaseException | None = None

    def run(self):
        if self.threads == 1:
            self._thread_routine(0)
            return
        workers = [threading.Thread(target=self._guarded, args=(t,), daemon=True)
                   for t in range(self.threads)]
        for t in workers:
            t.start()
        for t in workers:
            t.join()
        if self.error is not None:
            raise self.error

    def _guarded(self, t):
        try:
            self._thread_routine(t)
        except BaseException as exc:  # surface a kernel failure in the caller, wake the others
            with self.changed:
                self.error = exc
                self.changed.notify_all()

    def _row_tasks(self, i):
        """Block computations of row i in order: per level l, the pivot column first, then the
        next pivot's column, then the rest."""
        m = self.m
        for l in range(m):
            yield l, l
            for step in range(1, m):
                yield l, (l + step) % m

    def _ready(self, i, l, j):
        level = self.level
        if level[i, j] != l:
            return False
        if i == l and j == l:
            return True
        if i == l or j == l:  # horizontal or vertical: needs the central block
            return level[l, l] > l
        return level[i, l] > l and level[l, j] > l  # peripheral

    def _thread_routine(self, t):
        rows = {i: self._row_tasks(i) for i in range(t, self.m, self.threads)}
        pending = {i: next(tasks) for i, tasks in rows.items()}
        b = self.block
        while pending:
            with self.changed:
                while True:
                    if self.error is not None:
                        return
                    ready = [(l, (i - l) % self.m, i, j) for i, (l, j) in pending.items()
                             if self._ready(i, l, j)]
                    if ready:
                        l, _, i, j = min(ready)  # lowest level first, then the next pivot's row
                        break
                    self.changed.wait()
            kernel = calc_block if i == l or j == l else calc_peripheral
            kernel(self.dist, self.via, i * b, j * b, l * b, b)
            with self.changed:
                self.level[i, j] = l + 1
                self.changed.notify_all()
            pending[i] = next(rows[i], None)
            if pending[i] is None:
                del pending[i]
