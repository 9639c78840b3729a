"""The loop's Numba cache forgotten where any source it compiles changed.

Numba keys each cached function on its own file's time stamp only, but a cached ``advance`` holds
the machine code of every callee (the other loop modules, and the bag, network, route and tug
kernels it calls) and of the argument types the driver builds. After one of those files changes
in a checkout, the old ``advance`` would still load: stale code, or a cache that looks warm for
argument types no day uses any more. So a digest of every such source is kept beside the cache,
and where it differs the loop's index entries are dropped: the next day compiles them anew. An
install writes every file anew, so users never met this; developers and tests did.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import pkgutil
from pathlib import Path

from numba.core.registry import CPUDispatcher

from ...variant_warmup import cached_kernels

HERE = Path(__file__).resolve()
LOOP = HERE.parent
SIM = LOOP.parent                      # callees are followed within engine/sim only
STAMP = "bagroute-loop-sources.sha256"


def sources() -> list[Path]:
    """Every file whose text the compiled loop may depend on: the loop's modules (this one's
    text aside) and, transitively, every module of ``engine.sim`` they import from (the kernels,
    constants and rules they call: bags, network, the fleet's orders, the stops…)."""
    found, todo = set(), [(p, __package__) for p in LOOP.glob("*.py") if p != HERE]
    while todo:
        path, package = todo.pop()
        if path in found:
            continue
        found.add(path)
        for name in _imported(path, package):
            spec = importlib.util.find_spec(name)
            origin = Path(spec.origin).resolve() if spec and spec.origin else None
            if origin and origin.suffix == ".py" and origin.is_relative_to(SIM) and origin != HERE:
                todo.append((origin, name if origin.name == "__init__.py"
                             else name.rpartition(".")[0]))
    return sorted(found)


def _imported(path: Path, package: str) -> set[str]:
    """The modules a file's relative imports name (``from .x import y``: ``x`` and ``x.y``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            module = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names
                         if importlib.util.find_spec(module).submodule_search_locations)
    return names


def digest() -> str:
    """The loop's sources' text, hashed (~0.1 s: read only where ``quick_key`` changed)."""
    h = hashlib.sha256()
    for path in sources():
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def watched() -> list[Path]:
    """Every file ``sources`` can name: engine/sim's modules."""
    return sorted(SIM.rglob("*.py"))


def quick_key() -> str:
    """The watched files' paths, sizes and modification times (~1 ms): where it is unchanged,
    so are the sources, and nothing is read or parsed."""
    h = hashlib.sha256()
    for path in watched():
        st = path.stat()
        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def cached_functions() -> list[CPUDispatcher]:
    """The loop modules' own ``njit(cache=True)`` functions."""
    found = []
    for info in pkgutil.iter_modules([str(LOOP)]):
        module = importlib.import_module(f"{__package__}.{info.name}")
        found += [f for f in cached_kernels(module) if f.__module__ == module.__name__]
    return found


_checked = False


def check_once() -> None:
    """``forget_if_stale``, once per process, before its first day loads the loop: every way
    into a day (``DayLoop``, ``loop_warmup.cold``) calls this."""
    global _checked
    if not _checked:
        _checked = True
        forget_if_stale()


def forget_if_stale() -> bool:
    """Drop the loop's cache entries where the sources changed since they were written; True when
    it did. A cache folder that cannot be read or written is left as Numba finds it."""
    functions = cached_functions()
    try:
        stamp = Path(functions[0]._cache.cache_path) / STAMP
        kept = stamp.read_text().split() if stamp.exists() else []
        quick = quick_key()
        if kept[:1] == [quick]:
            return False
        now = digest()
        stamp.write_text(f"{quick}\n{now}\n")   # first: a folder it cannot write is not touched
        if kept[1:2] == [now]:
            return False                         # touched, not changed: the cache stays
        for f in functions:
            f._cache.flush()
    except (OSError, IndexError, AttributeError):
        return False
    return True
