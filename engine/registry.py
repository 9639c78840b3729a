"""Variant registries shared by every algorithm family (``apsp``, ``sssp``, ``mst``): each variant
has a stable name, a description, a device family and, when it cannot run here, the reason why.

A family builds one ``Registry`` of its variants; a variant's code is imported on first use, so a
machine with no GPU never imports a CUDA kernel module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable, Generic, Iterator, TypeVar

from . import variant_warmup


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    family: str   # "cpu" or "gpu"
    runner: str   # "package.module:function", imported on first use
    one_thread: bool = field(default=False, kw_only=True)  # a CPU variant that never runs in parallel

    @property
    def reason(self) -> str | None:
        """Why this variant cannot run on this machine, or None when it can."""
        if self.family == "gpu":
            from .gpu_device import gpu_unavailable_reason
            return gpu_unavailable_reason()
        return None

    @property
    def available(self) -> bool:
        return self.reason is None

    @property
    def device(self) -> str:
        """What this variant runs on, for results and reports: "CPU (1 thread)", a GPU's name..."""
        from .gpu_device import device_name
        return device_name(self.family, 1 if self.one_thread else None)

    def runner_function(self) -> Callable:
        return load_function(self.runner)


def load_function(spec: str) -> Callable:
    """The function named by ``"package.module:function"``."""
    module, function = spec.split(":")
    return getattr(importlib.import_module(module), function)


V = TypeVar("V", bound=Variant)


class Registry(Generic[V]):
    """The variants of one problem (``"Floyd–Warshall"``, ...), in presentation order."""

    def __init__(self, problem: str, entries: tuple[V, ...]):
        names = [v.name for v in entries]
        if len(set(names)) != len(names):
            raise ValueError(f"duplicate {problem} variant names: {names}")
        self.problem = problem
        self._entries = entries

    def __iter__(self) -> Iterator[V]:
        return iter(self._entries)

    def variants(self) -> list[V]:
        """Every variant, available on this machine or not."""
        return list(self._entries)

    def get(self, name: str) -> V:
        """The variant called ``name``; ``ValueError`` listing the names when there is none."""
        for v in self._entries:
            if v.name == name:
                return v
        raise ValueError(f"unknown {self.problem} variant {name!r}; choose auto or one of: "
                         + ", ".join(v.name for v in self._entries))


def run_or_fall_back(chosen: Variant, fallback: Variant, run: Callable, keep: tuple = (),
                     meanwhile: Variant | None = None):
    """``run(chosen, None)``; when ``chosen`` cannot run here, is compiling in the background
    (``variant_warmup``: then ``meanwhile`` runs, if given; so where it cannot run and the fallback
    compiles), or is a GPU variant that raises anything
    but the ``keep`` exceptions, ``run(fallback, note)`` with a note saying why."""
    if not chosen.available:
        why = f"{chosen.name} unavailable ({chosen.reason})"
        if variant_warmup.compiling(fallback.name) and meanwhile is not None:
            return run(meanwhile, f"{why}; {fallback.name} compiling for this CPU (first use); "
                                  f"ran {meanwhile.name} on the CPU meanwhile")
        return run(fallback, f"{why}; ran {fallback.name} on the CPU")
    if variant_warmup.compiling(chosen.name):
        meanwhile = meanwhile or fallback
        return run(meanwhile, f"{chosen.name} compiling for this {chosen.family.upper()} (first "
                              f"use); ran {meanwhile.name} on the CPU meanwhile")
    try:
        return run(chosen, None)
    except keep:
        raise
    except Exception as exc:
        if chosen.family != "gpu":
            raise
        return run(fallback, f"{chosen.name} failed ({exc.__class__.__name__}: {str(exc)[:160]}); "
                             f"ran {fallback.name} on the CPU")
