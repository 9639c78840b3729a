"""gpu-fast's runs: a ``Solver`` holds a ``Tuning``, its buffers and what its last solve did, and
solves small graphs through mapped host memory (one launch sequence, replayed as a CUDA graph
once its buffers are known) and large ones through copies, in 16-bit lanes first."""

import threading
import time

import numpy as np
from numba import cuda

from ...gpu_graph import LaunchGraph
from ...gpu_launch import ceil_div, timed_on_device
from ..gpu_common import empty_result
from ..routes import RouteMatrix
from .buffers import Buffers
from .launch import lanes_marks, lanes_multiple, launch_all, launch_recovery, launch_rounds, launch_widen
from .source import SIMULATED
from .tuning import Tuning, default_tuning


class Solver:
    """``run(w)`` solves the validated int32 matrix w: (distances, via routes, kernel seconds).
    ``input_array(n)`` is where w is best written first. One solve at a time uses the buffers."""

    def __init__(self, tuning: Tuning | None = None):
        self.tuning = tuning if tuning is not None else default_tuning()
        self.buffers = Buffers(self.tuning)
        self.lock = threading.Lock()
        self.last_arithmetic = None  # how the last copied solve ran: "int32", "lanes16", "lanes16, then int32"
        self.graph_error = None      # why launches could not be replayed as a graph, if they could not

    def input_array(self, n: int) -> np.ndarray | None:
        """A page-locked n×n int32 buffer for ``run``'s input, or None: the caller converts its
        costs straight into it, and ``run`` reads it where it is (small graphs: mapped) or
        copies it up at full speed (large ones)."""
        if n == 0:
            return None
        with self.lock:
            return self.buffers.input_array(n)

    def run(self, w):
        n = w.shape[0]
        if n == 0:
            return empty_result(w, "via")
        with self.lock:
            run = self._run_mapped if self.buffers.is_mapped(n) else self._run_copied
            return run(w, n, ceil_div(n, self.tuning.b))

    def _run_mapped(self, w, n: int, nb: int):
        t, pools = self.tuning, self.buffers
        buf = pools.small(n, nb * t.b)
        W = pools.inputs.kernel_arg(w)  # w given by input_array: the kernels read it where it is
        if W is None:
            buf["w"][...] = w
            W = buf["W"]
        # The answer straight into a pooled mapped buffer; with every one still in use, on the
        # device and copied back.
        O, answer = pools.answers.take((2, n, n)) or (cuda.device_array((2, n, n), np.int32), None)

        def queue(stream=0):
            launch_all(t, W, buf["D"], buf["V"], buf["T"], nb, O, stream=stream)

        replay = self.replayed(buf, (W, O), queue) if answer is not None else None
        seconds = timed_on_device(replay or queue)
        if answer is None:
            answer = O.copy_to_host()
        return answer[0], RouteMatrix("via", answer[1]), seconds

    def replayed(self, buf: dict, buffers: tuple, queue):
        """A launcher replaying ``queue``'s launches as one CUDA graph (``gpu_graph``; the hub's
        ~75 launches cost more host time than GPU time), or None to launch plainly: under the
        simulator, where the driver refused a graph once, and on the first sight of these
        buffers (a graph keeps their addresses; the first run also loads the kernels, which a
        capture may not). Graphs are kept per buffer pair, the oldest dropped beyond
        ``graphs_kept``."""
        if SIMULATED or self.graph_error is not None:
            return None
        graphs = buf.setdefault("graphs", {})
        key = tuple(a.__cuda_array_interface__["data"][0] for a in buffers)
        if key not in graphs:
            graphs[key] = None
            if len(graphs) > self.tuning.graphs_kept:
                graphs.pop(next(iter(graphs)))
            return None
        if graphs[key] is None:
            try:
                graphs[key] = LaunchGraph(queue, buf.setdefault("stream", cuda.stream()))
            except Exception as exc:  # noqa: BLE001 — any refusal: launch plainly from now on
                self.graph_error = f"{exc.__class__.__name__}: {str(exc)[:200]}"
                return None
        return graphs[key].launch

    def _run_copied(self, w, n: int, nb: int):
        """The input up on one stream, the k-blocks, then the distances back on a second stream
        while the first recovers the vias and brings them back; the kernels timed by events.
        The k-blocks run on 16-bit lanes first where the tuning allows: exact unless some pair
        ends at CAP (a distance of CAP or more, or none); then int32 rounds follow from there,
        on the tiles holding such pairs only."""
        t = self.tuning
        if t.lanes16:
            nb = ceil_div(nb, lanes_multiple(t)) * lanes_multiple(t)  # whole column tiles of lane pairs
        buf = self.buffers.copied(n, nb * t.b)
        main, side, N, D, V = buf["main"], buf["side"], buf["N"], buf["D"], buf["V"]
        dist, via = self.buffers.host_answer(nb * t.b, np.int16 if N is not None else np.int32)
        buf["W"].copy_to_device(np.ascontiguousarray(w, dtype=np.int32), stream=main)
        buf["start"].record(main)
        host_start = time.perf_counter()
        lanes = VL = None  # (L, TL) for the recovery after an exact lanes solve, VL to read its marks there
        if not t.lanes16:
            self.last_arithmetic = "int32"
            launch_rounds(t, buf["W"], D, V, nb, stream=main)
        elif self._lanes_exact(buf, nb):
            self.last_arithmetic = "lanes16"
            lanes, VL = (buf["L"], buf["TL"]), lanes_marks(t, buf, True, main)
        else:
            self.last_arithmetic = "lanes16, then int32"
            lanes_marks(t, buf, False, main)
            launch_rounds(t, buf["W"], D, V, nb, stream=main, tiles=buf["M"])
        buf["rounds"].record(main)
        buf["rounds"].wait(side)
        D.copy_to_host(dist, stream=side)
        launch_recovery(t, D, V, buf["T"], nb, N=N, stream=main, lanes=lanes, VL=VL)
        buf["end"].record(main)
        (V if N is None else N).copy_to_host(via, stream=main)
        main.synchronize()
        side.synchronize()
        # (The simulator's events keep no time; its launches and copies run as they are queued.)
        seconds = (time.perf_counter() - host_start if SIMULATED
                   else buf["start"].elapsed_time(buf["end"]) / 1e3)
        return dist[:n, :n], RouteMatrix("via", via[:n, :n]), seconds

    def _lanes_exact(self, buf: dict, nb: int) -> bool:
        """Run the k-blocks on 16-bit lanes and widen the answer into D; whether it is exact
        (else ``widen`` has marked in M the tiles where some pair ended at CAP). Waits for the
        GPU."""
        t = self.tuning
        if buf["L"] is None:
            buf["L"], buf["TL"] = (cuda.device_array((nb * t.b, nb * t.b // 2), np.int32) for _ in range(2))
        L, main = buf["L"], buf["main"]
        buf["token"] += 1
        launch_rounds(t, buf["W"], L, buf["VL"], nb, stream=main, lanes=True, tiles=buf["M"])
        launch_widen(t, buf, buf["token"], main)
        capped = buf["capped"].copy_to_host(stream=main)
        main.synchronize()
        return capped[0] != buf["token"]
