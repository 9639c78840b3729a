"""Every spanning-forest variant by its stable name, with the reason it cannot run here, if any."""

from dataclasses import dataclass

from ..registry import Registry, Variant as _Variant


@dataclass(frozen=True)
class Variant(_Variant):
    def run(self, graph):
        """(the forest in host arrays, a ``result.ForestArrays``; kernel seconds; note or None)."""
        return self.runner_function()(graph)


_P = "engine.mst."
REGISTRY = Registry("minimum spanning forest", (
    Variant("cpu-kruskal", "CPU Kruskal: edges sorted by (weight, id), a union-find with path "
            "halving, Numba-compiled", "cpu", _P + "cpu_kruskal:run", one_thread=True),
    Variant("cpu-boruvka", "CPU Borůvka: each round every component's lightest edge out, found "
            "in parallel over vertices then components (Numba), hooked and pointer-jumped", "cpu",
            _P + "cpu_boruvka:run"),
    Variant("gpu-boruvka", "GPU Borůvka from data-parallel primitives, the seed's algorithm: "
            "segmented min, cycle removal S(S(u)) = u, pointer doubling, scan, split, recursion",
            "gpu", _P + "gpu_boruvka:run"),
    Variant("gpu-fast-mst", "GPU fast (ours, after ECL-MST): light edges first, then the heavy "
            "ones a filter keeps; edge-centric and data-driven — a shrinking edge worklist, each "
            "component's lightest edge by 64-bit atomic min, lock-free union-find; no sorting; "
            "every round in one cooperative launch",
            "gpu", _P + "gpu_fast:run"),
))


def variants() -> list[Variant]:
    """Every variant, available on this machine or not."""
    return REGISTRY.variants()


def get_variant(name: str) -> Variant:
    """The variant called ``name``; ``ValueError`` listing the names when there is none."""
    return REGISTRY.get(name)
