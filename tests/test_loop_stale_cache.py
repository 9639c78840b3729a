"""The loop's cache is dropped where a source it compiles changed (engine/sim/loop/stale_cache.py):
Numba alone would load a cached ``advance`` with its callees' old code."""

import os
from types import SimpleNamespace

from engine.sim.loop import stale_cache
from engine.sim.loop.step import advance


def test_every_loop_module_and_callee_is_in_the_digest():
    names = {p.name for p in stale_cache.sources()}
    assert {"step.py", "legs.py", "driver.py", "bags.py", "network.py", "keygraph.py", "fleet.py",
            "rules.py", "stops.py"} <= names and "stale_cache.py" not in names
    assert advance in stale_cache.cached_functions()


def test_the_cache_is_dropped_once_after_a_source_changes(tmp_path, monkeypatch):
    flushed = []
    functions = [SimpleNamespace(_cache=SimpleNamespace(cache_path=str(tmp_path),
                                                        flush=lambda i=i: flushed.append(i)))
                 for i in range(3)]
    monkeypatch.setattr(stale_cache, "cached_functions", lambda: functions)
    sources = [tmp_path / "legs.py", tmp_path / "bags.py"]
    for path in sources:
        path.write_text("x = 1\n")
    monkeypatch.setattr(stale_cache, "sources", lambda: sources)
    monkeypatch.setattr(stale_cache, "watched", lambda: sources)

    assert stale_cache.forget_if_stale() and flushed == [0, 1, 2]   # no stamp yet: unknown code
    assert not stale_cache.forget_if_stale() and len(flushed) == 3   # unchanged: kept
    sources[1].write_text("x = 2\n")                                  # a callee edited
    assert stale_cache.forget_if_stale() and len(flushed) == 6
    assert not stale_cache.forget_if_stale() and len(flushed) == 6
    sources[0].write_text("x = 1\n\n")                               # a blank line: touched
    sources[0].write_text("x = 1\n")                                 # and put back
    os.utime(sources[0], ns=(1, 1))
    assert not stale_cache.forget_if_stale() and len(flushed) == 6   # same text: kept


def test_a_cache_folder_it_cannot_write_is_left_alone(tmp_path, monkeypatch):
    missing = tmp_path / "gone" / "deeper"
    functions = [SimpleNamespace(_cache=SimpleNamespace(cache_path=str(missing), flush=lambda: None))]
    monkeypatch.setattr(stale_cache, "cached_functions", lambda: functions)
    assert stale_cache.forget_if_stale() is False
