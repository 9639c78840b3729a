"""CPU linear: the paper's Fig. 3 — for every k, relax every (v, u) through k, keeping Path."""

import time

import numba
import numpy as np

from .routes import RouteMatrix
from .paths import initial_path


@numba.njit(cache=True, nogil=True)
def _floyd_warshall(cost, path):
    n = cost.shape[0]
    for k in range(n):
        for v in range(n):
            cost_vk = cost[v, k]
            for u in range(n):
                candidate = cost_vk + cost[k, u]
                if candidate < cost[v, u]:
                    cost[v, u] = candidate
                    path[v, u] = path[k, u]


def run(w: np.ndarray):
    cost = w.copy()
    path = initial_path(w)
    start = time.perf_counter()
    _floyd_warshall(cost, path)
    return cost, RouteMatrix("predecessor", path), time.perf_counter() - start
