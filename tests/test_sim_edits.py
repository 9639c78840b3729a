"""What-if edits to a running day: bags conserved across every edit, closed roads never entered,
closed gates sent no more bags, undo restoring the exact graph, edited layouts saved as files."""

import numpy as np
import pytest

from engine.airport.layout_io import LayoutError, bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from engine.sim.bags import DELIVERED, MISCONNECTED, PENDING
from engine.sim.edits import (AddTugs, CloseGate, CloseRoad, EditError, MoveTugs, OpenGate,
                              OpenRoad, RetireTugs, SetCapacity, SetSpeed, apply_edit,
                              edited_layout, nearest_free_gate, save_edited)
from engine.sim.tugs import DRIVING, IDLE


@pytest.fixture(scope="module")
def regional():
    return load_airport(bundled_airports()["regional"])


def day(airport, until=7200.0, hours=8, **kw):
    sim = Simulation(airport, SimConfig(hours=hours, seed=0, variant="cpu-blocked", **kw))
    sim.run_until(until, check=True)
    return sim


def record_legs(sim):
    """Every leg started from now on: (tug id, path), as a checked run (``run_until(...,
    check=True)``) shows them after each due time (a leg that drives a road outlasts it)."""
    legs = []
    started = {t.id: float(t.times[0]) for t in sim.tugs if t.activity == DRIVING}
    check = sim.check

    def checked():
        check()
        for tug in sim.tugs:
            if tug.activity == DRIVING and started.get(tug.id) != float(tug.times[0]):
                started[tug.id] = float(tug.times[0])
                legs.append((tug.id, tug.path.copy()))

    sim.check = checked
    return legs


def busy_road(sim):
    """A road some driving tug has yet to enter (so closing it must turn that tug)."""
    for tug in sim.tugs:
        if tug.activity == DRIVING:
            s = int(np.searchsorted(tug.times, sim.t, side="left"))
            if len(tug.path) - s >= 3:
                return tug, int(tug.path[s + 1]), int(tug.path[s + 2])
    raise AssertionError("no driving tug with two roads ahead")


def uses(path, u, v):
    return any(int(a) == u and int(b) == v for a, b in zip(path[:-1], path[1:]))


def graph_state(sim):
    n, k = sim.net, sim.tables.keys
    return (n.indptr.copy(), n.indices.copy(), n.seconds.copy(), n.length_m.copy(),
            sim.tables.plain.copy(), k.dj_from.copy(), k.dj_to.copy(), k.key_nodes.copy())


def assert_same_graph(a, b):
    for x, y in zip(a, b):
        assert np.array_equal(x, y)


def test_a_closed_road_is_never_entered_after_the_edit(regional):
    sim = day(regional)
    tug, u, v = busy_road(sim)
    ids = regional.node_ids
    applied = apply_edit(sim, CloseRoad(ids[u], ids[v]))
    s = int(np.searchsorted(tug.times, sim.t, side="left"))
    assert not uses(tug.path[s:], u, v)       # the tug that was heading for it turned off
    assert tug.busy_until == tug.times[-1] and np.all(np.diff(tug.times) >= 0)
    for other in sim.tugs:
        if other.activity == DRIVING:
            s = int(np.searchsorted(other.times, sim.t, side="left"))
            assert not uses(other.path[s:], u, v)
    legs = record_legs(sim)
    sim.run_until(sim.end_time, check=True)
    assert len(legs) > 50
    assert not any(uses(path, u, v) for _, path in legs)
    assert {applied.edit.a, applied.edit.b} == {ids[u], ids[v]}   # named as in the layout


def test_a_road_edit_solves_the_junction_all_pairs_again_and_says_which_variant(regional):
    sim = day(regional)
    before = len(sim.tables.log)
    applied = apply_edit(sim, CloseRoad(regional.roads[0].a, regional.roads[0].b))
    kinds = {r.kind: r for r in applied.solves}
    assert set(kinds) == {"junctions", "travel-time"}
    assert kinds["junctions"].variant == "cpu-blocked" and kinds["junctions"].seconds > 0
    assert kinds["junctions"].t == sim.t
    assert applied.sizes["junctions"] == len(sim.tables.keys.junctions)
    assert sim.tables.log[before:] == applied.solves    # the day's recompute log keeps them
    line = applied.report()
    assert "junction all-pairs" in line and "cpu-blocked" in line and "02:00:00" in line


def test_undo_restores_the_exact_road_graph(regional):
    sim = day(regional)
    before, airport = graph_state(sim), sim.airport
    r = regional.roads[40]
    closed = apply_edit(sim, CloseRoad(r.a, r.b))
    assert len(sim.airport.roads) == len(regional.roads) - 1
    sim.run_until(sim.t + 900, check=True)
    reopened = apply_edit(sim, closed.inverse)
    assert reopened.inverse == closed.edit
    assert sim.airport == airport == regional
    assert_same_graph(graph_state(sim), before)
    slower = apply_edit(sim, SetSpeed("DEPOT", 5.0))    # below the roads' 24 km/h: times change
    assert slower.solves and not np.array_equal(sim.tables.plain, before[4])
    apply_edit(sim, slower.inverse)
    assert sim.airport == regional
    assert_same_graph(graph_state(sim), before)
    sim.run_until(sim.end_time, check=True)


def test_bags_are_conserved_across_every_edit(regional):
    sim = day(regional, until=3600.0)
    g = regional.gates()
    r = regional.roads[100]
    edits = [CloseRoad(r.a, r.b), CloseGate(g[2].id), CloseGate(g[5].id, g[7].id),
             AddTugs("DEPOT", 3), RetireTugs("DEPOT", 4), SetCapacity("DEPOT", 6),
             SetSpeed("DEPOT", 3.5), OpenGate(g[2].id)]
    undo = []
    for edit in edits:
        undo.append(apply_edit(sim, edit))
        sim.check()
        sim.run_until(sim.t + 600, check=True)
        created = sim.bags.created
        assert created == sum(sim.bags.count(s) for s in range(4))
    for applied in reversed(undo):
        apply_edit(sim, applied.inverse)
        sim.check()
        sim.run_until(sim.t + 300, check=True)
    sim.run_until(sim.end_time, check=True)
    b = sim.bags
    assert b.created == len(b.set) == b.count(DELIVERED) + b.count(MISCONNECTED)
    assert sim.kpis()["bags_add_up"]


def test_a_closed_gate_receives_no_more_bags_and_its_flights_move(regional):
    sim = day(regional)
    g_id = regional.gates()[3].id
    g = regional.index(g_id)
    going = [f for f in sim.schedule.flights if f.gate == g and f.departure > sim.t]
    assert going
    applied = apply_edit(sim, CloseGate(g_id))
    h = regional.index(applied.edit.to)
    assert applied.edit.to != g_id and applied.inverse == OpenGate(g_id)
    assert sim.airport.node(g_id).kind == "junction"
    moved = [f for f in sim.schedule.flights if f.id in {x.id for x in going}]
    assert all(f.gate == h for f in moved)
    b = sim.bags
    open_ = b.state <= 1
    assert not (b.set.dest[open_] == g).any()
    assert not (b.set.origin[b.state == PENDING] == g).any()
    waiting = b.at_node[g]
    while not sim.finished:
        sim.run_until(sim.t + 120, check=True)
        assert b.at_node[g] <= waiting          # bags already there leave; none arrive
        waiting = b.at_node[g]
    delivered_late = (b.state == DELIVERED) & (b.done_time > applied.t)
    assert not (b.set.dest[delivered_late] == g).any()


def test_the_nearest_free_gate_has_no_flight_on_the_ground_meanwhile(regional):
    sim = day(regional)
    g = regional.index(regional.gates()[3].id)
    h = nearest_free_gate(sim, g)
    going = [f for f in sim.schedule.flights if f.gate == g and f.departure > sim.t]
    theirs = [f for f in sim.schedule.flights if f.gate == h and f.departure > sim.t]
    assert sim.airport.nodes[h].kind == "gate" and h != g
    assert not any(f.arrival < m.departure and m.arrival < f.departure
                   for f in theirs for m in going)


def test_reopening_a_gate_sends_its_flights_and_bags_back(regional):
    sim = day(regional)
    plan = sim.bags.set.dest.copy()
    g_id = regional.gates()[3].id
    closed = apply_edit(sim, CloseGate(g_id, regional.gates()[4].id))
    sim.run_until(sim.t + 600, check=True)
    apply_edit(sim, closed.inverse)
    b = sim.bags
    open_ = b.state <= 1
    assert np.array_equal(b.set.dest[open_], plan[open_])
    assert sim.airport == regional and sim.gate_map == {}
    with pytest.raises(EditError, match="not closed"):
        apply_edit(sim, OpenGate(g_id))


def test_added_tugs_work_and_retired_ones_take_no_new_job(regional):
    sim = day(regional)
    added = apply_edit(sim, AddTugs("DEPOT", 2))
    new = [sim.tugs[k] for k in added.edit.tugs]
    assert len(sim.tugs) == regional.tugs() + 2 and all(t.node == regional.index("DEPOT") for t in new)
    sim.run_until(sim.t + 1800, check=True)
    assert all(t.distance_m > 0 for t in new)
    retired = apply_edit(sim, RetireTugs("DEPOT", 3))
    out = [sim.tugs[k] for k in retired.edit.tugs]
    legs = record_legs(sim)
    sim.run_until(sim.t + 3600, check=True)
    for tug in out:
        assert tug.activity == IDLE and not len(tug.pickup) and sim.bags.on_tug[tug.id] == 0
    assert {k for k, _ in legs} - set(retired.edit.tugs)     # the others kept working
    back = apply_edit(sim, retired.inverse)
    assert back.edit.tugs == retired.edit.tugs and not any(t.retired for t in out)
    sim.run_until(sim.end_time, check=True)
    assert len(edited_layout(sim).fleets) == 1 and edited_layout(sim).fleets[0].count == regional.tugs() + 2


def test_moved_tugs_drive_to_their_new_depot(tmp_path):
    hub = load_airport(bundled_airports()["hub-atl"])
    sim = Simulation(hub, SimConfig(hours=2, seed=0, variant="cpu-blocked", tugs=8))
    sim.run_until(300, check=True)
    moved = apply_edit(sim, MoveTugs("GSE-NW", "GSE-SE", 2))
    se = hub.index("GSE-SE")
    tugs = [sim.tugs[k] for k in moved.edit.tugs]
    assert all(t.depot == se for t in tugs)
    assert moved.inverse == MoveTugs("GSE-SE", "GSE-NW", 2, moved.edit.tugs)
    for t in tugs:
        assert t.activity != IDLE or t.node == se   # idle ones set off for GSE-SE
    counts = {f.depot: f.count for f in edited_layout(sim).fleets}
    assert counts == {"GSE-NW": 0, "GSE-SW": 2, "GSE-NE": 2, "GSE-SE": 4}
    saved = save_edited(edited_layout(sim), tmp_path / "moved.json", [moved.text])
    assert [f.depot for f in saved.fleets] == ["GSE-SW", "GSE-NE", "GSE-SE"]   # none left at NW
    sim.run_until(sim.t + 1800, check=True)


def test_less_capacity_never_puts_bags_down_and_applies_once_they_fit(regional):
    sim = day(regional, until=4 * 3600.0)
    while sim.bags.on_tug.max() <= 3 and not sim.finished:   # a tug with more than 3 bags aboard
        sim.run_until(sim.t + 30, check=True)
    loaded = max(sim.tugs, key=lambda t: sim.bags.on_tug[t.id])
    assert sim.bags.on_tug[loaded.id] > 3
    apply_edit(sim, SetCapacity("DEPOT", 3))
    aboard = sim.bags.on_tug[loaded.id]
    while not sim.finished:
        sim.run_until(sim.t + 60, check=True)
        now = sim.bags.on_tug[loaded.id]
        assert now <= max(3, aboard)          # never loads while over the new capacity
        aboard = min(aboard, now) if now > 3 else 3
    assert all(t.capacity == 3 for t in sim.tugs)


def test_an_edit_that_cannot_apply_changes_nothing(regional):
    sim = day(regional)
    before, airport = graph_state(sim), sim.airport
    for edit, why in ((CloseRoad("G1", "NOPE"), "no open road"),
                      (CloseGate("DEPOT"), "not an open gate"),
                      (MoveTugs("DEPOT", "SORT"), "no tug fleet at SORT"),
                      (RetireTugs("DEPOT", regional.tugs()), "at least one tug"),
                      (RetireTugs("DEPOT", regional.tugs() + 1), f"cannot take {regional.tugs() + 1}"),
                      (SetSpeed("DEPOT", 0), "above 0"),
                      (SetCapacity("DEPOT", 0), ">= 1"),
                      (OpenRoad(regional.roads[0]), "open already")):
        with pytest.raises(EditError, match=why):
            apply_edit(sim, edit)
    assert sim.airport is airport
    assert_same_graph(graph_state(sim), before)
    assert not any(t.retired for t in sim.tugs)


def test_every_edit_reads_as_one_line(regional):
    r = regional.roads[0]
    for edit in (CloseRoad("A", "B"), OpenRoad(r, 0), CloseGate("G1"), CloseGate("G1", "G2"),
                 OpenGate("G1"), MoveTugs("D1", "D2", 2), AddTugs("D1"), RetireTugs("D1", 3),
                 SetSpeed("D1", 6.5), SetCapacity("D1", 25)):
        assert edit.text and "\n" not in edit.text
    assert MoveTugs("D1", "D2", 2).text == "move 2 tugs from D1 to D2"
    assert CloseGate("G1", "G2").text == "close gate G1 (flights to G2)"


def test_an_edited_layout_saves_as_a_valid_file_that_reads_back(regional, tmp_path):
    sim = day(regional)
    history = []
    g = regional.gates()
    for edit in (CloseRoad(regional.roads[100].a, regional.roads[100].b), CloseGate(g[2].id),
                 AddTugs("DEPOT", 2), SetCapacity("DEPOT", 24)):
        history.append(apply_edit(sim, edit).text)
    layout = edited_layout(sim)
    path = tmp_path / "regional-edited.json"
    saved = save_edited(layout, path, history)
    again = load_airport(path)
    assert again == saved
    assert len(again.roads) == len(regional.roads) - 1
    assert again.node(g[2].id).kind == "junction" and len(again.gates()) == len(g) - 1
    assert again.fleets[0].count == regional.tugs() + 2 and again.fleets[0].capacity == 24
    assert "What-if edits: close road" in again.description
    assert again.name == "Regional (edited)" and "a scenario file replays" in again.description
    assert save_edited(edited_layout(Simulation(again, SimConfig(hours=1))), path, []).name == \
        "Regional (edited)"                      # saved again: named once
    day_on_it = Simulation(again, SimConfig(hours=2, seed=0, variant="cpu-blocked"))
    day_on_it.run_until(day_on_it.end_time, check=True)


def test_saving_refuses_an_edit_that_leaves_a_gate_unreachable(tmp_path):
    paper5 = load_airport(bundled_airports()["paper-5"])
    sim = Simulation(paper5, SimConfig(hours=2, seed=0, variant="cpu-blocked"))
    sim.run_until(600, check=True)
    for r in [r for r in paper5.roads if "A5" in (r.a, r.b)]:
        apply_edit(sim, CloseRoad(r.a, r.b))
    path = tmp_path / "cut.json"
    with pytest.raises(LayoutError, match="A5.*no tug can reach it"):
        save_edited(edited_layout(sim), path, ["cut A5 off"])
    assert not path.exists()
    sim.run_until(sim.end_time, check=True)      # the day runs on without A5


def test_the_day_reports_every_bag_aware_recompute_also_after_a_road_edit(regional):
    sim = Simulation(regional, SimConfig(hours=8, seed=0, variant="cpu-blocked"))
    heard = []
    sim.on_recompute = lambda keys, r, started: heard.append((sim.t, r.variant, keys.solved_n))
    sim.run_until(3600.0)
    r = regional.roads[0]
    apply_edit(sim, CloseRoad(r.a, r.b))          # new route tables: still reported
    sim.set_variant("cpu-linear")
    sim.run_until(7200.0)
    bag_aware = [(rc.t, rc.variant) for rc in sim.tables.log if rc.kind == "bag-aware"]
    assert [(t, v) for t, v, _ in heard] == bag_aware
    assert {v for t, v, _ in heard if t > 3600.0} == {"cpu-linear"}
    assert all(n == len(sim.tables.keys.key_nodes) for _, _, n in heard)
