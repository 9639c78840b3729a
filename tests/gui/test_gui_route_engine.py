"""The route engine choice in the window: from the tugs (SSSP on the full road graph) or all
pairs on key nodes (Floyd–Warshall). The timing panel plots the chosen family's variants and
race mode races them; the day itself is the same."""

from engine.sim.route_engine import ALL_PAIRS, FROM_TUGS
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until

CPU_SSSP = ["cpu-dijkstra", "cpu-bellman-ford"]   # the simulator's GPU variants do not race


def choose(qtbot, w, engine):
    combo = w.route_engine.combo                # the toolbar's combo box, as a user would
    combo.setCurrentIndex(combo.findData(engine))
    qtbot.waitUntil(lambda: w.player.ready and w.sim_facts.get("route_engine") == engine,
                    timeout=SIM_TIMEOUT_MS)


def test_choosing_from_the_tugs_plots_sssp_solves_on_the_full_road_graph(qtbot, sim_window):
    w = sim_window
    assert w.route_engine.engine() == ALL_PAIRS and not w.route_engine.sssp_picker.isVisible()
    w.route_engine.sssp_picker.set_current_variant("cpu-bellman-ford")
    choose(qtbot, w, FROM_TUGS)
    assert w.route_engine.sssp_picker.isVisible()
    assert w.sim_config().route_engine == FROM_TUGS
    assert w.sim_config().variant == "cpu-bellman-ford"
    title = w.timing_plot.plot.titleLabel.text
    assert "SSSP from the tugs" in title and f"all {len(w.airport.nodes)} road nodes" in title
    assert "road nodes from the tugs" in w.sim_panel.facts_label.text()
    play_until(qtbot, w, 900)
    rows = [t for t in w.timing_plot.rows if not t.raced]
    assert rows and {t.variant for t in rows} == {"cpu-bellman-ford"}
    assert all(t.n == len(w.airport.nodes) for t in rows)   # solved on the full road graph
    assert w.settings.value("sim/route_engine", type=str) == FROM_TUGS


def test_both_engines_show_the_same_day(qtbot, sim_window):
    w = sim_window
    samples = lambda: [row for row in w.kpi_plots.series if row["t"] <= 1800]  # noqa: E731
    play_until(qtbot, w, 1800)
    floyd = samples()
    choose(qtbot, w, FROM_TUGS)
    play_until(qtbot, w, 1800)
    assert len(floyd) >= 6 and samples() == floyd   # every KPI sample of the first half hour
    choose(qtbot, w, ALL_PAIRS)
    assert "Floyd–Warshall" in w.timing_plot.plot.titleLabel.text


def test_race_mode_races_the_sssp_variants_on_the_same_solves(qtbot, sim_window):
    w = sim_window
    choose(qtbot, w, FROM_TUGS)
    assert w.player.runner.worker.race_with == CPU_SSSP
    w.sim_panel.race_check.setChecked(True)
    play_until(qtbot, w, 900)
    qtbot.waitUntil(lambda: len(w.timing_plot.variants_seen()) == 2, timeout=SIM_TIMEOUT_MS)
    assert set(w.timing_plot.variants_seen()) == set(CPU_SSSP)
    raced = [t for t in w.timing_plot.rows if t.raced]
    assert raced and all(t.agrees for t in raced)   # the same distances from the same tugs
