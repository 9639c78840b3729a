"""Every SSSP variant by its stable name, with the reason it cannot run here, if any."""

from dataclasses import dataclass

from ..registry import Registry, Variant as _Variant


@dataclass(frozen=True)
class Variant(_Variant):
    negative_costs: bool = False  # accepts negative edges (and names a reachable negative cycle)

    def run(self, graph, sources):
        """(len(sources)×n int64 distances with the INF sentinel — or int32 with INF32, or
        float64 with ``np.inf``, then the caller's to keep — kernel seconds, note)."""
        return self.runner_function()(graph, sources)


_P = "engine.sssp."
REGISTRY = Registry("single-source shortest paths", (
    Variant("cpu-dijkstra", "CPU Dijkstra: binary heap with decrease-key, Numba-compiled; one "
            "thread per source, sources spread over all cores", "cpu", _P + "cpu_dijkstra:run"),
    Variant("cpu-bellman-ford", "CPU Bellman-Ford: FIFO queue of changed vertices with the "
            "seed's SLF and LLL rules (§4.3); negative costs allowed", "cpu",
            _P + "cpu_bellman_ford:run", True),
    Variant("gpu-dijkstra", "GPU Dijkstra, the seed's Algorithm 1: ExtractMin by parallel "
            "reduction, the minimum's edges relaxed in parallel; O(n²)", "gpu",
            _P + "gpu_dijkstra:run"),
    Variant("gpu-bellman-ford", "GPU Bellman-Ford, the seed's Algorithm 2: each round relaxes "
            "the edges of a device-side work queue of the vertices changed in the last", "gpu",
            _P + "gpu_bellman_ford:run", True),
    Variant("gpu-delta-stepping", "GPU Δ-stepping, the seed's Algorithm 3: buckets of width Δ "
            "(BIndex), light edges relaxed per bucket, heavy ones once, through request sets",
            "gpu", _P + "gpu_delta_stepping:run"),
    Variant("gpu-spmv-csr", "GPU Bellman-Ford as repeated min-plus sparse matrix-vector "
            "products, one thread per row of the transposed graph in CSR (the seed's §6)", "gpu",
            _P + "gpu_spmv:run_csr", True),
    Variant("gpu-spmv-ell", "GPU Bellman-Ford as min-plus SpMV over the transposed graph in ELL "
            "(rows padded to the largest in-degree, read column by column)", "gpu",
            _P + "gpu_spmv:run_ell", True),
    Variant("gpu-fast-sssp", "GPU fast (ours): many sources in one launch — one block per "
            "source with distances in shared memory on small graphs, a persistent grid-wide "
            "near–far frontier over (source, vertex) pairs on large ones, each block relaxing "
            "the labels it lowered again before each grid barrier", "gpu",
            _P + "gpu_fast:run", True),
))


def variants() -> list[Variant]:
    """Every variant, available on this machine or not."""
    return REGISTRY.variants()


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ``ValueError`` listing the names when there is none."""
    return REGISTRY.get(name)
