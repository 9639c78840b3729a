"""A problem's own benchmark options, declared so that any front end can show them: the GUI
builds a control for each, the CLI has its flags (``add_arguments``). Each option is one keyword
argument of the problem's ``benchmark``; ``value(text)`` turns what a control shows into it
(``ValueError`` saying what to fix)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Choice:
    """One of a few named values (a drop-down)."""
    key: str                 # the keyword of ``benchmark``
    label: str
    setting: str             # where the window keeps the last choice
    choices: dict            # shown text -> value
    default: str
    tip: str = ""

    def value(self, text: str):
        return self.choices[text]


@dataclass(frozen=True)
class Steps:
    """A small whole number (a spin box); ``low`` is shown as ``off`` when ``off`` is given."""
    key: str
    label: str
    setting: str
    low: int
    high: int
    default: int
    tip: str = ""
    suffix: str = ""
    off: str = ""

    def value(self, text: str) -> int:
        return int(text)


@dataclass(frozen=True)
class Words:
    """Free text read by ``parse`` (a line edit)."""
    key: str
    label: str
    setting: str
    default: str
    parse: Callable[[str], object]
    tip: str = ""

    def value(self, text: str):
        return self.parse(text)


Option = Choice | Steps | Words
MAX_SIZE = 65536


def parse_sizes(text: str) -> tuple[int, ...]:
    """"64 128, 256" -> (64, 128, 256), sorted and unique; ValueError naming the bad entry."""
    sizes = []
    for token in text.replace(",", " ").split():
        try:
            n = int(token)
        except ValueError:
            raise ValueError(f"size {token!r} is not a whole number of vertices") from None
        if not 2 <= n <= MAX_SIZE:
            raise ValueError(f"size {n} is outside 2 … {MAX_SIZE}")
        sizes.append(n)
    if not sizes:
        raise ValueError("give at least one size (vertices), e.g. 64 128 256")
    return tuple(sorted(set(sizes)))


SPARSE_FAMILIES = Choice(
    "families", "Graphs:", "bench/families",
    {"grid, uniform, R-MAT": ("grid", "uniform", "rmat"), "road grid": ("grid",),
     "uniform random": ("uniform",), "R-MAT": ("rmat",)}, "grid, uniform, R-MAT",
    "Graph families: a size N is a road grid of isqrt(N)², N uniform random vertices (6 edges "
    "each), R-MAT of 2^log2 N")
