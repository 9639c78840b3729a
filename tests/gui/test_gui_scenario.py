"""Issue 33, "scenarios that replay": a day edited in the app, saved with File ▸ Save scenario,
replays headless (``python main.py simulate SCENARIO.toml --no-timings``, run in-process: the
same code) with the KPIs the app showed, and File ▸ Open scenario replays it in the app."""

import argparse
import json

from engine.sim.dispatch import DEFAULT_POLICY
from engine.commands import simulate
from engine.sim.edits import CloseGate, CloseRoad
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until
from tests.gui.test_gui_whatif import EDIT_TIMEOUT_MS, edit_and_wait

HOURS = 3


def replay_headless(path, out):
    parser = argparse.ArgumentParser()
    simulate.add_arguments(parser)
    args = parser.parse_args([str(path), "--no-timings", "--quiet", "--out", str(out)])
    assert simulate.run(args) == 0
    return json.loads(out.read_text())


def shown_kpis(w) -> dict:
    k = w.player.shown.snapshot.kpis
    return {"created": k["created"], "waiting": k["waiting"], "on_tug": k["on_tug"],
            "delivered": k["delivered"], "misconnected": k["misconnected"]}


def replayed_kpis(summary) -> dict:
    return {"created": summary["bags_created"], **summary["bags_by_state"]}


def test_a_day_edited_in_the_app_replays_headless_with_the_kpis_the_app_showed(
        qtbot, sim_window, tmp_path):
    w = sim_window
    w.sim_panel.hours_spin.setValue(HOURS)
    assert w.sim_panel.pending() == ["hours"]
    with qtbot.waitSignal(w.player.loaded, timeout=SIM_TIMEOUT_MS):
        w.actions.action("sim.restart").trigger()       # no edits yet: no question
    assert w.sim_panel.pending() == [] and w.player.end_time == HOURS * 3600
    play_until(qtbot, w, 1800)
    edit_and_wait(qtbot, w, CloseRoad("SORT", "Wh14"))
    play_until(qtbot, w, 3600)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        w.sim_panel.fleet_spin.setValue(sum(f.count for f in w.airport.fleets) + 4)
    play_until(qtbot, w, 5400)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        w.sim_panel.set_policy("baseline")
    play_until(qtbot, w, 7200)
    edit_and_wait(qtbot, w, CloseGate("G5"))
    play_until(qtbot, w, HOURS * 3600)
    assert w.player.shown.snapshot.finished
    app = shown_kpis(w)
    app_series = {row["t"]: row for row in w.kpi_plots.series}
    edits = [f"{a.t:.3f} {a.text}" for a in w.whatif.log]
    assert len(edits) == 4

    path = w.scenarios.save(tmp_path / "day.toml")
    assert path is not None and "[[edits]]" in path.read_text()
    replayed = replay_headless(path, tmp_path / "kpis.json")
    assert replayed_kpis(replayed["summary"]) == app
    assert replayed["summary"]["flights"] > 0
    # the headless series samples less often: each of its samples is the app's at that time
    assert replayed["series"] and all(app_series[row["t"]] == row for row in replayed["series"])
    assert len(replayed["summary"]["edits"]) == 4

    # File ▸ Open scenario: the same day, its edits applied as it plays
    with qtbot.waitSignal(w.player.loaded, timeout=SIM_TIMEOUT_MS):
        assert w.scenarios.open(path)
    assert w.whatif.log == [] and w.sim_panel.policy() == DEFAULT_POLICY
    play_until(qtbot, w, HOURS * 3600)
    assert shown_kpis(w) == app
    assert [f"{a.t:.3f} {a.text}" for a in w.whatif.log] == edits
    assert w.sim_panel.policy() == "baseline"          # the dock follows the replayed edits


def test_a_bad_scenario_is_named_and_the_day_on_screen_stays(qtbot, sim_window, tmp_path):
    w = sim_window
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nlayout = "regional"\n\n[[edits]]\nat = "0:10"\ndo = "close-road"\n'
                   'a = "SORT"\n', encoding="utf-8")
    airport = w.airport
    assert not w.scenarios.open(bad)
    assert "bad.toml" in w.last_error and "'b'" in w.last_error
    assert w.airport is airport
