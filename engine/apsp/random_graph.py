"""The paper's random graph generator (``GenerateRandomGraph``), seeded and vectorised."""

import numpy as np


def paper_random_graph(n: int, density: int, weight_range: int = 100, seed: int = 0) -> np.ndarray:
    """n×n costs: each directed edge exists with probability ``1 / (100 // density)`` and
    costs ``1..weight_range``; ``np.inf`` elsewhere; 0 on the diagonal (as the paper's code)."""
    if not 0 < density <= 100:
        raise ValueError(f"density is a percentage in 1..100, got {density}")
    rng = np.random.default_rng(seed)
    prange = 100 // density
    edge = rng.integers(0, prange, size=(n, n), dtype=np.int16) == 0
    weights = rng.integers(1, weight_range + 1, size=(n, n), dtype=np.int32)
    cost = np.where(edge, weights, np.inf)
    np.fill_diagonal(cost, 0.0)
    return cost
