"""The two ways a graph's costs can make a shortest-path question unanswerable by a variant."""


class NegativeWeightError(ValueError):
    """A Dijkstra-family variant met a negative edge; the message names the edge and the
    variants that accept negative costs."""


class NegativeCycleError(ValueError):
    """A negative cycle is reachable from a source: distances are unbounded there.
    ``vertex`` lies on that cycle, ``source`` reaches it."""

    def __init__(self, vertex: int, source: int):
        self.vertex, self.source = int(vertex), int(source)
        super().__init__(f"vertex {self.vertex} lies on a negative cycle reachable from source "
                         f"{self.source}: its distance has no lower bound")
