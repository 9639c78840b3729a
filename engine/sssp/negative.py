"""Where negative costs stop a variant: Dijkstra-family variants refuse them; label-correcting
ones name a vertex on a reachable negative cycle."""

from .errors import NegativeWeightError

ACCEPTS_NEGATIVE = ("cpu-bellman-ford", "gpu-bellman-ford", "gpu-spmv-csr", "gpu-spmv-ell",
                    "gpu-fast-sssp")


def require_nonnegative(g, variant: str) -> None:
    """NegativeWeightError naming the first negative edge, if ``g`` has one."""
    if g.min_weight >= 0:
        return
    u, v, c = g.negative_edge()
    raise NegativeWeightError(f"{variant} needs non-negative costs, but edge {u}→{v} costs {c}; "
                              f"use one of {', '.join(ACCEPTS_NEGATIVE)}")


def raise_negative_cycle(g, sources) -> None:
    """A GPU variant saw distances still falling after n rounds: name a cycle vertex (found by
    cpu-bellman-ford's pass from each source in turn) in a NegativeCycleError."""
    from .cpu_bellman_ford import run as cpu_bellman_ford
    for s in sources:
        cpu_bellman_ford(g, s.reshape(1))  # raises for the first source that reaches the cycle
    raise RuntimeError("a GPU variant reported a negative cycle that cpu-bellman-ford did not find")
