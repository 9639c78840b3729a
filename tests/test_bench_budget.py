"""The benchmark's answer to "the largest n within the budget" when no size went over it: the
top of the ladder is not that answer, so the table says the budget was not reached."""

from engine.bench.apsp import Point, Report, format_table, paper_answers


def point(n: int, ms: float) -> Point:
    return Point("cpu-linear", "random-15%", n, 3, ms, ms, n**3 / (ms / 1e3), None, "ok", "cpu")


def table(times: dict[int, float]) -> str:
    points = [point(n, ms) for n, ms in times.items()]
    report = Report(command="python main.py bench", machine={}, budget_s=2.0, points=points,
                    answers=paper_answers(points, 2.0))
    return format_table(report)


def test_a_ladder_that_never_passes_the_budget_says_so():
    text = table({256: 5.0, 512: 40.0, 1024: 300.0})
    assert "budget not reached (largest tried: 1024)" in text
    assert "largest n" not in text.split("n = 500")[-1]


def test_a_ladder_that_passes_the_budget_names_the_largest_n_within_it():
    answers = paper_answers([point(512, 900.0), point(1024, 2500.0)], 2.0)
    a = answers["cpu-linear"]["random-15%"]
    assert (a["largest_n_within_budget"], a["budget_exceeded_at"], a["largest_n_tried"]) == \
        (512, 1024, 1024)
    assert "largest n    512 /    512" in table({512: 900.0, 1024: 2500.0})
