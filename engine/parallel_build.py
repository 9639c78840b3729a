"""A Numba pass built twice, serial and threaded, and the build that suits an input's size:
threads pay off only on large inputs."""

import types

import numba


def serial_and_parallel(pass_function, parallel_from: int):
    """``pass_function`` (its loop a ``numba.prange``) compiled serial and parallel; the result
    calls the parallel build when its first argument has at least ``parallel_from`` elements,
    unless called with ``threads=False`` (the serial build compiles in a fraction of the time).
    The parallel one is built from a renamed copy of the function: Numba's disk cache keys a
    build by the function's name and line, not its options, so two builds of one function
    would share one entry, and whichever was compiled first would run for both."""
    renamed = types.FunctionType(pass_function.__code__, pass_function.__globals__,
                                 f"{pass_function.__name__}_parallel")
    renamed.__qualname__ = renamed.__name__
    serial = numba.njit(cache=True, nogil=True)(pass_function)
    parallel = numba.njit(cache=True, nogil=True, parallel=True)(renamed)
    return lambda first, *rest, threads=True: (
        parallel if threads and first.size >= parallel_from else serial)(first, *rest)
