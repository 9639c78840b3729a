"""The paper's initial Path matrix (Table 1): ``v`` where an edge v→u exists, else -1."""

import numpy as np

from .matrix import INF


def initial_path(w: np.ndarray) -> np.ndarray:
    """Path₀: the predecessor of ``u`` on the one-edge route from ``v``; -1 where there is none.

    The diagonal holds ``v`` itself (a zero-length route), which keeps route walks uniform.
    """
    n = w.shape[0]
    rows = np.broadcast_to(np.arange(n, dtype=np.int32)[:, None], (n, n))
    return np.where(w < INF, rows, np.int32(-1)).astype(np.int32)
