"""The seed's three rules for Δ-stepping's bucket width (§5.6), and the one the GPU variant uses."""

import numpy as np

RULES = {
    "median": "the seed's rule 1: the median edge cost",
    "mean": "the seed's rule 2: the mean edge cost",
    "max/degree": "the seed's rule 3: the largest edge cost over the largest out-degree",
}
RULE = "mean"  # fewest buckets of the three on road grids and random graphs: fewer phases


def choose_delta(g, rule: str = RULE) -> int:
    """Δ ≥ 1 for the graph ``g`` (costs ≥ 0) by ``rule``; kept on the graph, as each rule is a
    host pass over every cost (~20 ms on 30 M edges) and a prepared graph is solved many times."""
    if rule not in g.deltas:
        g.deltas[rule] = _delta(g, rule)
    return g.deltas[rule]


def _delta(g, rule: str) -> int:
    if not g.m:
        return 1
    w = g.weights
    if rule == "median":
        delta = np.median(w)
    elif rule == "mean":
        delta = w.mean()
    elif rule == "max/degree":
        delta = w.max() / np.diff(g.indptr).max()
    else:
        raise ValueError(f"unknown Δ rule {rule!r}; choose one of {', '.join(RULES)}")
    return max(1, int(round(float(delta))))
