"""Sweeps on a process pool (``engine.sweep.pool``, for machines without Dask) and the scaling
benchmark built on it: the same rows as the days run one by one, stopping keeps the finished days,
a failing day is reported, and benchmarks/sweep_scaling.py writes its files — whole or cut."""

import json
import time

import numba
import pandas as pd
import pytest

from benchmarks import sweep_scaling
from engine.sweep import pool, results
from engine.sweep.day import run_day
from engine.sweep.pool import run_pool, seed_major
from engine.sweep.results import summarise
from engine.sweep.save import save_outcome
from engine.sweep.scenario import load_sweep
from tests.sweep_tiny import exits_on_run_3, killed_on_run_3, raises_on_run_3, tiny
from tools.sweep_table import report, table

SAFETY_S = 240.0   # generous: a lost day would keep the sweep waiting this long

@pytest.fixture
def sweep(tmp_path):
    return load_sweep(tiny(tmp_path))


def one_by_one(sweep):
    return {r.index: run_day(sweep.airports[r.scenario.layout], r, sweep.variant)[0]
            for r in sweep.runs()}


def test_the_pool_gives_the_rows_of_the_days_run_one_by_one_and_writes_the_sweep_files(
        sweep, tmp_path):
    heard = []
    outcome = run_pool(sweep, seed_major(sweep.runs()), workers=2,
                       on_result=lambda run, row, wall: heard.append(run.index))
    assert outcome.rows == one_by_one(sweep)
    assert sorted(heard) == list(range(8)) and not outcome.failures and not outcome.interrupted
    df, info = save_outcome(tmp_path / "out", sweep, sweep.runs(), outcome, 2, None, 1.0,
                            runner="pool")
    assert pd.read_csv(tmp_path / "out" / "runs.csv")["run"].tolist() == list(range(8))
    assert info["runner"] == "pool" and info["runs_finished"] == 8
    assert json.loads((tmp_path / "out" / "sweep.json").read_text())["runner"] == "pool"


def test_seed_major_order_gives_every_scenario_its_first_seeds_first(sweep):
    order = seed_major(sweep.runs())
    assert [r.seed for r in order] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert [r.scenario.index for r in order[:4]] == [0, 1, 2, 3]


def test_stopping_keeps_the_days_already_finished(sweep):
    heard = []
    outcome = run_pool(sweep, sweep.runs(), workers=2, stop=lambda: len(heard) >= 1,
                       on_result=lambda run, row, wall: heard.append(run))
    assert outcome.interrupted and len(outcome.rows) == 1
    (index, row), = outcome.rows.items()
    assert row == one_by_one(sweep)[index]


def test_a_day_that_raises_is_a_failure_and_the_others_still_run(sweep):
    outcome = run_pool(sweep, sweep.runs(), workers=2, day=raises_on_run_3)
    assert sorted(outcome.rows) == [0, 1, 2, 4, 5, 6, 7]
    assert [(f.run.index, f.error) for f in outcome.failures] == [(3, "ValueError: no such road")]


def safety_stop():
    """A stop() that ends a sweep hung on a lost day (the pool used to wait for its deadline)."""
    deadline = time.monotonic() + SAFETY_S
    return lambda: time.monotonic() > deadline


@pytest.mark.parametrize("start_method, day, death", [
    ("fork", exits_on_run_3, "exit status 3"),
    ("spawn", killed_on_run_3, "killed by SIGKILL")])
def test_a_worker_that_dies_fails_its_day_at_once_and_the_others_still_run(
        sweep, start_method, day, death):
    heard = []
    outcome = run_pool(sweep, sweep.runs(), workers=2, stop=safety_stop(),
                       on_result=lambda run, row, wall: heard.append((run.index, row is None)),
                       start_method=start_method, day=day)
    assert not outcome.interrupted                    # not left waiting for the safety stop
    rows = one_by_one(sweep)
    del rows[3]
    assert outcome.rows == rows                       # the others: the same rows as one by one
    (failure,) = outcome.failures
    assert failure.run.index == 3 and failure.error == (
        f"the worker process died ({death}) while running day 3 "
        f"(paper-5, 1 tug, baseline, load 1, 1 h, seed 1)")
    assert sorted(heard) == [(i, i == 3) for i in range(8)]


def scaling(tmp_path, *extra):
    path = tiny(tmp_path)
    out = tmp_path / "out"
    assert sweep_scaling.main([str(out), "--runner", "pool", "--workers", "1,2",
                               "--scaling-sweep", str(path), "--scaling-seeds", "1",
                               "--study-sweep", str(path), *extra]) == 0
    return out


def test_the_scaling_benchmark_writes_both_steps_and_their_tables(tmp_path):
    out = scaling(tmp_path)
    info = json.loads((out / "scaling.json").read_text())
    assert [r["workers"] for r in info["rows"]] == [1, 2]
    assert all(r["finished"] == r["days"] == 4 and not r["cut"] for r in info["rows"])
    assert info["rows"][0]["speedup"] == 1.0
    assert info["rows_identical_across_worker_counts"] and info["days_compared"] == 4
    study = out / sweep_scaling.STUDY
    runs = pd.read_csv(study / "runs.csv")
    assert len(runs) == 8 and set(runs["policy"]) == {"shortest-path", "baseline"}
    manifest = json.loads((study / "sweep.json").read_text())
    assert manifest["workers"] == 2 and not manifest["interrupted"]
    assert (study / "mbr-vs-fleet.png").exists()
    text = (out / "sweeps.md").read_text()
    assert text == report([out / "scaling.json", study])      # regenerated, not edited
    assert "| 2 | " in text and "8 of 8 days" in text and "| paper-5 | 2 |" in text
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == sorted(
        ["scaling.json", "sweeps.md", "runs.csv", "runs.parquet", "summary.csv", "sweep.json",
         "mbr-vs-fleet.png"])


def test_a_run_out_of_time_still_writes_its_files_and_says_it_was_cut(tmp_path):
    out = scaling(tmp_path, "--budget-s", "0")
    info = json.loads((out / "scaling.json").read_text())
    assert all(r["cut"] and r["finished"] == 0 for r in info["rows"])
    manifest = json.loads((out / sweep_scaling.STUDY / "sweep.json").read_text())
    assert manifest["interrupted"] and manifest["runs_finished"] == 0
    text = (out / "sweeps.md").read_text()
    assert "(cut)" in text and "**cut** at the time budget" in text and "No day finished." in text


def test_workers_get_no_more_numba_threads_than_numba_allows(sweep, monkeypatch):
    monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", 1)   # as NUMBA_NUM_THREADS=1 sets it
    assert pool.worker_threads(1) == 1
    assert len(run_pool(sweep, sweep.runs()[:2], workers=1).rows) == 2   # no worker fails to start


def test_one_seed_has_no_interval_and_without_the_default_policy_there_is_no_verdict(sweep):
    sweep.seeds = [0]
    outcome = run_pool(sweep, sweep.runs(), workers=1)
    text = table(summarise(results.table(list(outcome.rows.values()))))
    assert text.count("± —") == 4 and text.splitlines()[-1].endswith("| — |")


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_a_cold_loop_compiles_once_in_a_child_before_the_workers_start(sweep, monkeypatch,
                                                                       tmp_path, start_method):
    """Not once in each worker, and not in the parent: a day there would start GNU OpenMP's
    threads, and OpenMP ends a forked worker that uses them."""
    import sys

    from engine import loop_warmup
    marks = tmp_path / "compiled"
    monkeypatch.setattr(loop_warmup, "_thread", None)
    monkeypatch.setattr(loop_warmup, "failed", None)
    monkeypatch.setattr(loop_warmup, "cold", lambda: not marks.exists())
    monkeypatch.setattr(loop_warmup, "short_day", lambda: marks.write_text("parent"))
    monkeypatch.setattr(loop_warmup, "child_command", lambda: [
        sys.executable, "-c", f"open({str(marks)!r}, 'a').write('child')"])
    outcome = run_pool(sweep, sweep.runs()[:2], workers=2, start_method=start_method)
    assert marks.read_text() == "child" and len(outcome.rows) == 2 and not outcome.failures


FORKED_AFTER_A_COLD_START = """
import sys
from pathlib import Path
from engine import loop_warmup
from engine.sweep.pool import run_pool
from engine.sweep.scenario import load_sweep
from tests.sweep_tiny import parallel_sum_day, tiny
loop_warmup.cold = lambda: loop_warmup._thread is None   # as on an empty cache: one warm-up
sweep = load_sweep(tiny(Path(sys.argv[1])))
outcome = run_pool(sweep, sweep.runs()[:2], workers=2, start_method="fork", day=parallel_sum_day)
print(len(outcome.rows), [failure.error for failure in outcome.failures])
"""


def test_forked_workers_run_parallel_code_after_a_cold_start(tmp_path):
    """A fresh process (as ``tools/sweep_pool.py`` on a new machine): the pool's warm-up leaves
    it free of OpenMP, so its forked workers' parallel loops run. Warmed in the parent, OpenMP
    ended each worker at its first parallel loop, and no day finished."""
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", FORKED_AFTER_A_COLD_START, str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.splitlines()[-1] == "2 []", done.stdout + done.stderr[-2000:]
