"""Checks every sparse-graph family (``sssp``, ``mst``) makes of a user's graph the same way."""


def require_square(shape) -> None:
    """``ValueError`` unless ``shape`` is that of an n×n matrix (an adjacency matrix)."""
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"graph must be a square n×n matrix, got shape {tuple(shape)}")


def dense_entries(graph, what: str = "costs"):
    """(rows, cols, values, shape) of every entry other than +inf (no edge) of a dense n×n
    matrix; ``ValueError`` for a non-square matrix or one whose entries are not numbers."""
    import numpy as np
    dense = np.asarray(graph)
    require_square(dense.shape)
    if dense.dtype == object or not np.issubdtype(dense.dtype, np.number):
        raise ValueError(f"graph {what} must be numbers, got dtype {dense.dtype}")
    rows, cols = np.nonzero(~np.isposinf(dense))
    return rows, cols, dense[rows, cols], dense.shape


def require_real(values, what: str = "costs") -> None:
    """``ValueError`` unless ``values`` are real numbers (no strings, no complex)."""
    import numpy as np
    if not np.issubdtype(values.dtype, np.number) or np.issubdtype(values.dtype, np.complexfloating):
        raise ValueError(f"graph {what} must be real numbers, got dtype {values.dtype}")
