"""The dispatch policies: the fleet-wide default beats every simple rule on small days of both
kinds, every policy is deterministic and conserves bags, and no policy delivers a bag the lower
bound calls unavoidable."""

import numba
import numpy as np
import pytest

from engine.airport.layout import ScheduleParams
from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import MISCONNECTED, SimConfig, Simulation
from engine.sim.dispatch import DEFAULT_POLICY, POLICIES
from engine.sim.kpi import deterministic
from engine.sim.loop.codes import OK
from engine.sim.loop.policies import _fleet_pickup
from engine.sim.loop.unowned import pack

RULES = [name for name in POLICIES if name != DEFAULT_POLICY]
TRANSFER_DAY = {"hours": 6, "seed": 0, "tugs": 6,
                "params": ScheduleParams(transfer_mean=20, checkin_mean=2)}
CHECKIN_DAY = {"hours": 6, "seed": 0, "tugs": 6}   # the calibrated day: one bag hall's check-in
TIGHT_DAY = {"hours": 6, "seed": 0, "tugs": 6, "params": ScheduleParams(loading_margin_s=1100)}


@pytest.fixture(scope="module")
def regional():
    return load_airport(bundled_airports()["regional"])


def run_day(airport, **kw):
    sim = Simulation(airport, SimConfig(**kw))
    sim.run_until(sim.end_time)
    return sim


def test_every_front_end_offers_every_policy_and_the_default_is_the_fleet_assignment():
    assert DEFAULT_POLICY == "fleet" and SimConfig().policy == DEFAULT_POLICY
    assert set(POLICIES) == {"fleet", "shortest-path", "earliest-deadline", "baseline"}
    assert all(cls.label and cls.description for cls in POLICIES.values())


@pytest.mark.parametrize("day", [TRANSFER_DAY, CHECKIN_DAY], ids=["transfer-heavy", "check-in-heavy"])
def test_the_default_misconnects_fewer_bags_than_every_simple_rule(regional, day):
    params = day.get("params", regional.schedule)
    assert (params.transfer_mean > params.checkin_mean) == (day is TRANSFER_DAY)
    best = run_day(regional, **day).kpis()
    assert best["policy"] == DEFAULT_POLICY and best["bags_created"] > 1000
    for rule in RULES:
        other = run_day(regional, policy=rule, **day).kpis()
        assert other["bags_created"] == best["bags_created"]
        assert best["mbr_per_1000"] < 0.85 * other["mbr_per_1000"], (rule, other["mbr_per_1000"])


@pytest.mark.parametrize("policy", ["fleet", "earliest-deadline"])
def test_the_new_policies_give_the_same_day_for_the_same_seed(regional, policy):
    a = deterministic(run_day(regional, hours=3, seed=5, tugs=8, policy=policy).kpis())
    b = deterministic(run_day(regional, hours=3, seed=5, tugs=8, policy=policy).kpis())
    c = deterministic(run_day(regional, hours=3, seed=6, tugs=8, policy=policy).kpis())
    assert a == b and a != c


@pytest.mark.parametrize("policy", list(POLICIES))
def test_no_policy_saves_a_bag_the_lower_bound_calls_unavoidable(regional, policy):
    sim = Simulation(regional, SimConfig(policy=policy, **TIGHT_DAY))
    sim.run_until(sim.end_time, check=True)      # bags conserved after every event
    k = sim.kpis()
    assert 0 < k["unavoidable"] <= k["misconnected"]
    assert k["unavoidable_per_1000"] == round(1000 * k["unavoidable"] / k["bags_created"], 3)
    assert (sim.bags.state[sim.unavoidable] == MISCONNECTED).all()


def test_a_bag_no_tug_can_reach_is_unavoidable():
    paper5 = load_airport(bundled_airports()["paper-5"])
    sim = run_day(paper5, hours=3, seed=0)
    from_a5 = sim.bags.set.origin == paper5.index("A5")      # a dead end: no tug gets out
    assert from_a5.any() and sim.unavoidable[from_a5].all()
    assert sim.kpis()["unavoidable"] >= int(np.sum(from_a5))


@numba.njit
def _one_pass(k, S):
    """The loop's one-pass job for tug ``k`` (its functions take the state tuple by pointer)."""
    return _fleet_pickup(k, pack(S))


@pytest.mark.parametrize("candidates", [3, 40])
def test_the_fleet_dispatchers_one_pass_job_is_the_general_paths_job(regional, candidates):
    sim = Simulation(regional, SimConfig(**TRANSFER_DAY))
    d = sim.dispatcher
    d.candidates = candidates        # 3: the k nearest are chosen among more, ties included
    compared = 0
    while not sim.finished:
        sim.step(300.0)
        for tug in sim.tugs:
            room = int(tug.capacity - sim.bags.on_tug[tug.id])
            if room <= 0:
                continue
            sim.loop._sync_in(sim, False)
            code, p, ids = _one_pass(tug.id, sim.loop.state(sim))   # the loop's one pass
            if code != OK:
                continue   # a tie at the k-th nearest: the loop asks the general path itself
            fast = None if p < 0 else (p, ids)
            general = d.best_job_tied(sim, tug, room)
            assert (fast is None) == (general is None)
            if fast is not None:
                assert fast[0] == general[0] and fast[1].tolist() == general[1].tolist()
                compared += 1
    assert compared > 50
