"""What the CPU SSSP variants share: when many sources are worth spreading over all cores."""

THREADS_MIN_WORK = 1 << 18  # sources × (n + m) below which waking the thread pool costs more


def spread_over_cores(g, sources) -> bool:
    """True when the sources go to a parallel loop, False when one thread runs them in turn."""
    return len(sources) > 1 and len(sources) * (g.n + g.m) >= THREADS_MIN_WORK
