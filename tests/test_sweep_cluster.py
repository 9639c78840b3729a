"""Sweeps on a real Dask ``LocalCluster`` of two worker processes: the table, summary and plot are
written, a rerun gives the same table, an existing cluster is used by address, and stopping early
(``stop()`` or Ctrl-C) keeps the days already finished."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from engine.sweep.runner import _CtrlC, open_client, run_sweep
from engine.sweep.scenario import load_sweep
from main import main
from tests.sweep_tiny import TINY, tiny

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def client():
    with open_client(workers=2) as c:
        yield c


def test_sweep_writes_table_summary_and_plot_and_a_rerun_gives_the_same_table(client, tmp_path,
                                                                               capsys):
    path = tiny(tmp_path)
    assert main(["sweep", str(path), "--workers", "2", "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr()
    assert "8/8 days" in out.err and "8 of 8 day(s)" in out.out
    a = tmp_path / "a"
    runs = pd.read_csv(a / "runs.csv")
    assert len(runs) == 8 and runs["run"].tolist() == list(range(8))
    assert set(runs["fleet"]) == {1, 2} and set(runs["policy"]) == {"shortest-path", "baseline"}
    assert (runs["bags_created"] == runs[["bags_waiting", "bags_on_tug", "delivered_on_time",
                                          "misconnected"]].sum(axis=1)).all()
    assert not {"bags_delivered", "bags_misconnected"} & set(runs.columns)   # no column twice
    pd.testing.assert_frame_equal(pd.read_parquet(a / "runs.parquet"), runs)
    summary = pd.read_csv(a / "summary.csv")
    assert summary["runs"].tolist() == [2, 2, 2, 2]
    first = runs[runs["scenario"] == 0]["mbr_per_1000"]
    assert summary.loc[summary["scenario"] == 0, "mbr_per_1000_mean"].item() == pytest.approx(first.mean())
    assert (a / "mbr-vs-fleet.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    manifest = json.loads((a / "sweep.json").read_text())
    assert manifest["workers"] == 2 and manifest["runs_finished"] == 8
    assert not manifest["interrupted"] and not manifest["failed"]

    # the same sweep again, on another cluster (an existing one, by address): the same bytes
    address = client.scheduler.address
    assert main(["sweep", str(path), "--scheduler", address, "--quiet",
                 "--out", str(tmp_path / "b")]) == 0
    assert address in capsys.readouterr().err
    assert (tmp_path / "b" / "runs.csv").read_bytes() == (a / "runs.csv").read_bytes()
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "b" / "runs.parquet"), runs)


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, capsys):
    assert main(["sweep", str(tiny(tmp_path)), "--scheduler", "tcp://127.0.0.1:9", "--timeout", "1",
                 "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Dask cluster tcp://127.0.0.1:9" in err and "Traceback" not in err


def test_stopping_keeps_the_finished_days_and_cancels_the_rest(client, tmp_path):
    sweep = load_sweep(tiny(tmp_path, TINY.replace("seeds = 2", "seeds = 12")))
    heard = []
    outcome = run_sweep(client, sweep, on_result=lambda run, row, wall: heard.append(run.index),
                        stop=lambda: len(heard) >= 3)
    assert outcome.interrupted and 3 <= len(outcome.rows) < 48
    assert sorted(heard) == sorted(outcome.rows)


def test_ctrl_c_stops_the_command_cleanly_and_writes_what_finished(tmp_path):
    path = tiny(tmp_path, TINY.replace("hours = 1", "hours = 4"))
    proc = subprocess.Popen(
        [sys.executable, "main.py", "sweep", str(path), "--seeds", "100", "--workers", "2",
         "--out", str(tmp_path / "d")],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = b""
    deadline = time.monotonic() + 60
    while b"] 2/400 days" not in seen and time.monotonic() < deadline and proc.poll() is None:
        seen += os.read(proc.stderr.fileno(), 4096)
    os.killpg(proc.pid, signal.SIGINT)   # what Ctrl-C in a terminal does: the whole process group
    out, err = proc.communicate(timeout=60)
    err = (seen + err).decode()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    runs = pd.read_csv(tmp_path / "d" / "runs.csv")
    assert 2 <= len(runs) < 400
    manifest = json.loads((tmp_path / "d" / "sweep.json").read_text())
    assert manifest["interrupted"] and manifest["runs_finished"] == len(runs)


def test_a_swallowed_ctrl_c_still_stops_the_sweep_after_the_next_day(client, tmp_path):
    # Python ignores exceptions raised in some callbacks (weakref ones): a KeyboardInterrupt
    # landing there is lost, but the handler's flag still stops the sweep.
    sweep = load_sweep(tiny(tmp_path, TINY.replace("seeds = 2", "seeds = 12")))
    heard = []

    def swallowed_ctrl_c(run, row, wall):
        heard.append(run.index)
        if len(heard) == 2:
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:
                pass  # what a weakref callback does with it

    # Ctrl-C as a terminal gives it, whatever this run inherited: a test run started in the
    # background (`cmd &`, nohup, some CI runners) starts with SIGINT ignored, where the sweep
    # rightly leaves it ignored and this raise_signal would be lost.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        outcome = run_sweep(client, sweep, on_result=swallowed_ctrl_c)
        assert outcome.interrupted and 2 <= len(outcome.rows) < 48
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    finally:
        signal.signal(signal.SIGINT, inherited)


def test_where_ctrl_c_is_ignored_the_sweep_leaves_it_ignored():
    inherited = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ctrl_c = _CtrlC()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        ctrl_c.restore()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, inherited)


def test_the_shipped_edits_sweep_runs_its_edits_factor_from_a_fresh_clone(client, tmp_path,
                                                                          capsys):
    """airports/sweep-regional-edits.toml: the bag hall's road closed for the morning wave
    against the same days without, as a factor; the closure's days apply both edits."""
    path = ROOT / "airports" / "sweep-regional-edits.toml"
    sweep = load_sweep(path)
    assert [len(sweep.edit_sets[s.edits]) for s in sweep.scenarios] == [0, 2, 0, 2]
    assert main(["sweep", str(path), "--scheduler", client.scheduler.address, "--quiet",
                 "--seeds", "2", "--out", str(tmp_path / "e")]) == 0
    runs = pd.read_csv(tmp_path / "e" / "runs.csv")
    assert runs.groupby(["edits", "fleet"]).size().to_dict() == {
        ("bag-hall-road-closed", 8): 2, ("bag-hall-road-closed", 16): 2, ("none", 8): 2,
        ("none", 16): 2}
    assert runs["bags_add_up"].all()
    # the same seed and fleet with and without the closure: the same flights, other days
    closed = runs[runs["edits"] != "none"].set_index(["fleet", "seed"])
    open_ = runs[runs["edits"] == "none"].set_index(["fleet", "seed"])
    assert (closed["flights"] == open_["flights"]).all()
    assert (closed["tug_distance_km"] != open_["tug_distance_km"]).any()
    summary = pd.read_csv(tmp_path / "e" / "summary.csv")
    assert (summary["mbr_per_1000_lo"] >= 0).all()
    assert "edits bag-hall-road-closed: MBR" in capsys.readouterr().out


def test_the_process_pool_gives_the_same_rows_as_dask(client, tmp_path):
    from engine.sweep.pool import run_pool
    sweep = load_sweep(tiny(tmp_path))
    assert run_pool(sweep, sweep.runs(), workers=2).rows == run_sweep(client, sweep).rows
