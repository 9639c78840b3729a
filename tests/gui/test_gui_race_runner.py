"""Race mode behind the simulation: one problem raced at a time, after the step, one variant
solve per look at whether a step is asked for; a newer recompute replaces one still waiting; the
panel says how many recomputes raced. Driven by hand, as the worker drives it: nothing is timed."""

from contextlib import contextmanager

import numpy as np
import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from gui.day.live_plots import TimingPlot
from engine.sim.race import RaceJob, RaceRunner, SimActivity, Timing

VARIANTS = ("cpu-linear", "cpu-blocked")


class FakeProblem:
    """A solved problem whose raced solves are recorded (any variant gives ``dist``)."""

    def __init__(self, dist):
        self.dist = dist
        self.solved: list[str] = []

    def __call__(self, variant):
        self.solved.append(variant)
        return type("R", (), {"dist": self.dist.copy(), "variant": variant, "seconds": 0.001})


def job(round_, problem, variants=VARIANTS, generation=1):
    return RaceJob(generation, round_, 60.0 * round_, len(problem.dist), "cpu-blocked",
                   problem.dist, problem, "all-pairs", tuple(variants))


class Engine:
    """The worker's engine lock, counted."""

    def __init__(self):
        self.turns = 0

    @contextmanager
    def __call__(self):
        self.turns += 1
        yield


@pytest.fixture
def runner():
    delivered: list[tuple[int, int, list]] = []
    r = RaceRunner(lambda generation: generation == 1,
                   lambda *outcome: delivered.append(outcome))
    r.delivered, r.engine = delivered, Engine()
    return r


def test_a_newer_recompute_replaces_one_waiting_to_race(runner):
    problems = [FakeProblem(np.arange(4.0).reshape(2, 2) + k) for k in range(3)]
    for k, problem in enumerate(problems, start=1):
        runner.submit(job(k, problem))      # three recomputes in one step: none raced yet
    assert runner.delivered == [(1, 1, []), (1, 2, [])]   # replaced, reported at once
    runner.run(lambda: True, runner.engine)
    (generation, round_, timings), = runner.delivered[2:]
    assert (generation, round_) == (1, 3) and not runner.pending
    assert [t.variant for t in timings] == ["cpu-linear"]   # every variant but the dispatcher's
    assert all(t.raced and t.agrees and t.round == 3 and t.n == 2 for t in timings)
    assert problems[0].solved == problems[1].solved == [] and problems[2].solved == ["cpu-linear"]
    assert runner.engine.turns == 1


def test_a_race_gives_way_to_a_step_after_each_solve_and_then_goes_on(runner):
    problem = FakeProblem(np.zeros((3, 3)))
    runner.submit(job(1, problem, variants=("cpu-linear", "cpu-blocked", "gpu-fast")))
    activity = SimActivity()
    activity.ask()                          # a step is asked for: no solve
    runner.run(lambda: activity.idle, runner.engine)
    assert problem.solved == [] and runner.pending
    activity.done()
    solves = iter([True, False])            # one solve, then a step is asked for again
    runner.run(lambda: next(solves), runner.engine)
    assert problem.solved == ["cpu-linear"] and runner.delivered == []
    runner.submit(job(2, FakeProblem(np.zeros((3, 3)))))   # waits: the started one goes on
    runner.run(lambda: True, runner.engine)
    assert problem.solved == ["cpu-linear", "gpu-fast"]      # the same problem, every variant
    assert [(r, [t.variant for t in ts]) for _, r, ts in runner.delivered] == [
        (1, ["cpu-linear", "gpu-fast"]), (2, ["cpu-linear"])]


def test_a_raced_solve_that_disagrees_or_fails_is_reported_not_raised(runner):
    problem = FakeProblem(np.zeros((2, 2)))

    def solve_again(variant):
        if variant == "gpu-fast":
            raise RuntimeError("no device")
        return type("R", (), {"dist": np.ones((2, 2)), "variant": variant, "seconds": 0.002})

    runner.submit(RaceJob(1, 7, 420.0, 2, "cpu-blocked", problem.dist, solve_again, "all-pairs",
                          ("cpu-linear", "gpu-fast")))
    runner.run(lambda: True, runner.engine)
    (_, _, timings), = runner.delivered
    assert [(t.variant, t.agrees) for t in timings] == [("cpu-linear", False), ("gpu-fast", False)]
    assert np.isnan(timings[1].seconds)


def test_a_stale_days_recompute_is_neither_raced_nor_reported(runner):
    problem = FakeProblem(np.zeros((2, 2)))
    runner.submit(job(1, problem, generation=0))   # a replaced day's: not wanted
    runner.submit(job(2, problem, generation=1))
    runner.run(lambda: True, runner.engine)
    assert [r for _, r, _ in runner.delivered] == [2] and problem.solved == ["cpu-linear"]


def test_a_racer_solves_its_own_recompute_after_later_ones():
    """The race runs behind the simulation: the problem it is handed must not move on."""
    sim = Simulation(load_airport(bundled_airports()["regional"]), SimConfig(hours=1))
    sim.run_until(600)
    keys = sim.tables.keys
    racer, then = keys.racer(), keys.dk.copy()
    counts = sim.pickups.live.copy()        # what the bag-aware costs count
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
