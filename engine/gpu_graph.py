"""A fixed sequence of kernel launches replayed as one CUDA graph.

Each Numba launch costs 30–60 µs of Python on the host; a solve of a few thousand vertices
queues ~75 of them while the GPU needs only ~40 µs for each round's work, so the host, not
the GPU, sets its pace. Captured once into a graph (the stream records the launches instead
of running them), the whole sequence is one driver call. A graph keeps the addresses its
launches were given: whoever replays it must pass the same buffers, so callers key their
graphs by those buffers.

Capture must not load a kernel's module or free memory (both are forbidden inside a capture):
capture a sequence only after it has run once plainly in the process, and Numba's deferred
frees are held off while capturing.
"""

from numba import cuda


class GraphError(RuntimeError):
    """The driver refused to capture, build or launch a graph: the caller launches plainly."""


def _driver():
    from cuda.bindings import driver  # numba-cuda's own driver bindings; GPU only
    return driver


def _checked(result, what: str):
    """The values after the status of a driver call's result; GraphError if it failed."""
    status, *values = result
    if status != _driver().CUresult.CUDA_SUCCESS:
        raise GraphError(f"{what}: {status.name}")
    return values


class LaunchGraph:
    """The launches ``queue(stream)`` makes on ``stream``, captured once; ``launch()`` replays
    them on that stream (asynchronously, as the launches themselves would be)."""

    def __init__(self, queue, stream):
        cu = self._cu = _driver()  # kept: at interpreter exit __del__ may no longer import
        self._stream = stream
        handle = stream.handle
        with cuda.defer_cleanup():
            _checked(cu.cuStreamBeginCapture(
                handle, cu.CUstreamCaptureMode.CU_STREAM_CAPTURE_MODE_THREAD_LOCAL), "begin capture")
            try:
                queue(stream)
            except BaseException:
                cu.cuStreamEndCapture(handle)
                raise
            (graph,) = _checked(cu.cuStreamEndCapture(handle), "end capture")
        self._graph = graph
        (self._exec,) = _checked(cu.cuGraphInstantiate(graph, 0), "instantiate")

    def launch(self):
        _checked(self._cu.cuGraphLaunch(self._exec, self._stream.handle), "launch graph")

    def __del__(self):
        cu = getattr(self, "_cu", None)
        if cu is not None and getattr(self, "_exec", None) is not None:
            cu.cuGraphExecDestroy(self._exec)
        if cu is not None and getattr(self, "_graph", None) is not None:
            cu.cuGraphDestroy(self._graph)
