"""Race mode behind the simulation: one problem raced at a time, a newer recompute replaces one
still waiting, a race starts only while the simulation is asked for nothing, and the panel says
how many recomputes raced. Held back deterministically: the test holds the engine lock or keeps
the simulation asked for a step, as the worker would; nothing is timed."""

import threading
import time

import numpy as np
import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from gui.live_plots import TimingPlot
from gui.race_runner import RaceJob, RaceRunner, SimActivity
from gui.sim_worker import Timing

WAIT_S = 30.0


class FakeProblem:
    """A solved problem whose raced solves are recorded (any variant gives ``dist``)."""

    def __init__(self, dist):
        self.dist = dist
        self.solved: list[str] = []

    def __call__(self, variant):
        self.solved.append(variant)
        return type("R", (), {"dist": self.dist.copy(), "variant": variant, "seconds": 0.001})


def job(round_, problem, variants=("cpu-linear", "cpu-blocked"), generation=1):
    return RaceJob(generation, round_, 60.0 * round_, len(problem.dist), "cpu-blocked",
                   problem.dist, problem, "all-pairs", tuple(variants))


@pytest.fixture
def runner():
    delivered: list[tuple[int, int, list]] = []
    done = threading.Condition()

    def deliver(generation, round_, timings):
        with done:
            delivered.append((generation, round_, timings))
            done.notify_all()

    lock = threading.RLock()
    r = RaceRunner(SimActivity(), lock, lambda generation: generation == 1, deliver, Timing)
    r.delivered, r.lock = delivered, lock

    def wait_for(count):
        with done:
            assert done.wait_for(lambda: len(delivered) >= count, WAIT_S)
        return delivered

    def wait_busy():   # until the race thread has taken the job (a wait, not a timing)
        deadline = time.monotonic() + WAIT_S
        while not r.busy and time.monotonic() < deadline:
            time.sleep(0.002)
        assert r.busy

    r.wait_for, r.wait_busy = wait_for, wait_busy
    yield r
    r.stop()
    assert r.join(WAIT_S)


def test_a_newer_recompute_replaces_one_waiting_to_race(runner):
    problems = [FakeProblem(np.arange(4.0).reshape(2, 2) + k) for k in range(3)]
    with runner.lock:                      # the simulation holds the engine: nothing races yet
        runner.submit(job(1, problems[0]))
        runner.wait_busy()                 # round 1 started: it will race in full
        runner.submit(job(2, problems[1]))
        runner.submit(job(3, problems[2]))  # replaces round 2, still waiting
        assert runner.delivered == [(1, 2, [])]   # reported at once: round 2 never races
    got = runner.wait_for(3)
    assert [(g, r) for g, r, _ in got] == [(1, 2), (1, 1), (1, 3)]
    for _, round_, timings in got[1:]:
        assert [t.variant for t in timings] == ["cpu-linear"]   # every variant but the dispatcher's
        assert all(t.raced and t.agrees and t.round == round_ for t in timings)
    assert problems[1].solved == [] and problems[0].solved == problems[2].solved == ["cpu-linear"]


def test_a_race_starts_only_while_the_simulation_is_asked_for_nothing(runner):
    problem = FakeProblem(np.zeros((3, 3)))
    runner.activity.ask()                  # a step asked for and not finished
    runner.submit(job(1, problem, variants=("cpu-linear", "cpu-blocked", "gpu-fast")))
    runner.wait_busy()
    assert problem.solved == [] and runner.delivered == []
    runner.activity.done()                 # the step is done: the race takes its turn
    (generation, round_, timings), = runner.wait_for(1)
    assert round_ == 1 and problem.solved == ["cpu-linear", "gpu-fast"]
    assert [t.variant for t in timings] == ["cpu-linear", "gpu-fast"]


def test_a_raced_solve_that_disagrees_or_fails_is_reported_not_raised(runner):
    problem = FakeProblem(np.zeros((2, 2)))

    def solve_again(variant):
        if variant == "gpu-fast":
            raise RuntimeError("no device")
        return type("R", (), {"dist": np.ones((2, 2)), "variant": variant, "seconds": 0.002})

    runner.submit(RaceJob(1, 7, 420.0, 2, "cpu-blocked", problem.dist, solve_again, "all-pairs",
                          ("cpu-linear", "gpu-fast")))
    (_, _, timings), = runner.wait_for(1)
    assert [(t.variant, t.agrees) for t in timings] == [("cpu-linear", False), ("gpu-fast", False)]
    assert np.isnan(timings[1].seconds)


def test_stopping_ends_a_race_waiting_for_its_turn(runner):
    runner.activity.ask()
    runner.submit(job(1, FakeProblem(np.zeros((2, 2)))))
    runner.wait_busy()
    runner.stop()
    assert runner.join(WAIT_S) and runner.delivered == []


def test_a_stale_days_recompute_is_neither_raced_nor_reported(runner):
    problem = FakeProblem(np.zeros((2, 2)))
    with runner.lock:
        runner.submit(job(1, problem, generation=1))
        runner.wait_busy()
        runner.submit(job(2, problem, generation=0))   # a replaced day's: not wanted
        runner.submit(job(3, problem, generation=1))
    got = runner.wait_for(2)
    assert [r for _, r, _ in got] == [1, 3]


def test_a_racer_solves_its_own_recompute_after_later_ones():
    """The race runs behind the simulation: the problem it is handed must not move on."""
    sim = Simulation(load_airport(bundled_airports()["regional"]), SimConfig(hours=1))
    sim.run_until(600)
    keys = sim.tables.keys
    racer, then = keys.racer(), keys.dk.copy()
    counts = sim.tables.bag_counts.copy()
    counts[keys.key_nodes[:5]] += 40        # many more bags waiting: other bag-aware costs
    keys.update(counts, "cpu-blocked")
    assert not np.array_equal(keys.dk, then)
    assert np.array_equal(racer("cpu-linear").dist, then)


def test_the_timing_panel_says_how_many_recomputes_raced(qtbot):
    plot = TimingPlot()
    qtbot.addWidget(plot)
    assert plot.race_note() == ""
    for round_ in (1, 2, 3):
        plot.add([Timing(round_, 120.0 * round_, "cpu-blocked", 0.002, 30)])
    plot.add_race(1, [Timing(1, 120.0, "cpu-linear", 0.006, 30, raced=True)])
    plot.add_race(2, [])                    # replaced before it raced
    plot.add_race(3, [Timing(3, 360.0, "cpu-linear", 0.005, 30, raced=True)])
    plot.flush()
    assert plot.race_summary() == (2, 3)
    assert "raced 2 of 3 recomputes" in plot.plot.titleLabel.text
    assert [r for r, _ in plot.data["cpu-linear"]] == [1, 3]
    plot.reset()
    assert plot.race_note() == "" and "raced" not in plot.plot.titleLabel.text
