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

import hashlib
import importlib
import pkgutil
from pathlib import Path

from numba.core.registry import CPUDispatcher

LOOP = Path(__file__).resolve().parent
CALLEES = ("bags.py", "network.py", "keygraph.py", "tugs.py")   # in engine/sim, called by the loop
STAMP = "bagroute-loop-sources.sha256"


def sources() -> list[Path]:
    """Every file whose text the compiled loop depends on (this one's does not)."""
    return ([p for p in sorted(LOOP.glob("*.py")) if p.name != Path(__file__).name]
            + [LOOP.parent / name for name in CALLEES])


def digest() -> str:
    h = hashlib.sha256()
    for path in sources():
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def cached_functions() -> list[CPUDispatcher]:
    """The loop modules' ``njit(cache=True)`` functions."""
    found = []
    for info in pkgutil.iter_modules([str(LOOP)]):
        module = importlib.import_module(f"{__package__}.{info.name}")
        found += [f for f in vars(module).values()
                  if isinstance(f, CPUDispatcher) and f.__module__ == module.__name__
                  and getattr(f, "_cache", None) is not None and f._cache.cache_path]
    return found


def forget_if_stale() -> bool:
    """Drop the loop's cache entries where the sources changed since they were written; True when
    it did. A cache folder that cannot be read or written is left as Numba finds it."""
    functions = cached_functions()
    try:
        stamp = Path(functions[0]._cache.cache_path) / STAMP
        now = digest()
        if stamp.exists() and stamp.read_text() == now:
            return False
        stamp.write_text(now)            # first: a folder it cannot write is not touched
        for f in functions:
            f._cache.flush()
    except (OSError, IndexError, AttributeError):
        return False
    return True
