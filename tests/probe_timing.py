"""What the measuring scripts (``tests/probe_*.py``, ``benchmarks/``) share: a median."""
import statistics
import time


def median_ms(step, reps: int = 15) -> float:
    """Median wall milliseconds of ``step()`` over ``reps`` calls, after one untimed call."""
    step()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)
