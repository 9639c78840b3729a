"""Names for Numba's compiled code in ``perf``: run a Python script (e.g. ``main.py simulate``)
with a hook that keeps the object code of every function Numba loads from its cache, and at exit
write ``/tmp/perf-PID.map`` (start, size, symbol per function, from ``nm``), which ``perf report``
reads for the JIT's addresses. Functions compiled in the run (not loaded) stay unnamed: run once
to fill the cache first.

    perf record -F 1999 -o perf.data python benchmarks/perf_map.py main.py simulate hub-atl --seed 0 --quiet
    perf report -i perf.data --no-children --sort sym
"""

import atexit
import os
import runpy
import subprocess
import sys
import tempfile

import engine.commands  # noqa: F401  (first: its settings are read as numpy loads, below)
from numba.core import codegen

_loaded: list = []   # (library, its object code)
_unserialize = codegen.JITCodeLibrary._unserialize.__func__


def _keep(cls, cg, state):
    library = _unserialize(cls, cg, state)
    if state[1] == "object":
        _loaded.append((library, state[2][0]))
    return library


def _symbols(obj: bytes) -> list[tuple[int, int, str]]:
    """(offset, size, name) of the functions in an object file, by ``nm``."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(["nm", "-S", "--defined-only", f.name], capture_output=True,
                             text=True, check=True).stdout
    rows = [line.split() for line in out.splitlines()]
    return [(int(r[0], 16), int(r[1], 16), r[3]) for r in rows if len(r) == 4 and r[2] in "tTWw"]


def _address(library, name: str) -> int:
    try:
        return library.get_pointer_to_function(name) or 0
    except Exception:   # a local symbol the engine does not export
        return 0


def write_map() -> None:
    rows = set()
    for library, obj in _loaded:
        symbols = _symbols(obj)
        base = next((_address(library, n) - off for off, _, n in symbols if _address(library, n)),
                    None)
        if base is None:
            continue
        for off, size, name in symbols:
            rows.add((_address(library, name) or base + off, size, name))
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        f.writelines(f"{a:x} {s:x} {n}\n" for a, s, n in sorted(rows))


if __name__ == "__main__":
    codegen.JITCodeLibrary._unserialize = classmethod(_keep)
    atexit.register(write_map)
    script, sys.argv = sys.argv[1], sys.argv[1:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
