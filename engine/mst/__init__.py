"""Minimum spanning forests of undirected graphs (seed 003): Kruskal and Borůvka on the CPU, the
seed's primitive-based Borůvka and our edge-centric one on the GPU, behind one API.

    from engine.mst import variants, spanning_forest
    f = spanning_forest(graph, variant="auto")  # scipy.sparse or dense n×n (np.inf = no edge)
    f.edges, f.weights, f.total, f.components, f.variant, f.seconds, f.device, f.note
"""

from .graph import EdgeGraph, from_edges
from .registry import Variant, get_variant, variants
from .result import SpanningForest
from .solve import prepare, spanning_forest

__all__ = ["EdgeGraph", "SpanningForest", "Variant", "from_edges", "get_variant", "prepare",
           "spanning_forest", "variants"]
