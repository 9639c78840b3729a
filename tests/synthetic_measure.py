"""A stand-in for ``engine.bench.apsp.measure`` with synthetic times, for the benchmark-run tests."""

from engine.bench.apsp import Point, ReferenceMismatch


class SyntheticMeasure:
    """Solves n vertices in n milliseconds; raises a reference mismatch for each (variant, n)
    in ``fail``. ``calls`` lists (variant, graph, n) in the order measured."""

    def __init__(self, fail=()):
        self.fail, self.calls = set(fail), []

    def __call__(self, variant, cost, graph, budget_s):
        n = len(cost)
        self.calls.append((variant, graph, n))
        if (variant, n) in self.fail:
            raise ReferenceMismatch("distance (0, 3) is 7, reference 5")
        return Point(variant, graph, n, 1, float(n), float(n), n**3 / (n / 1e3), None,
                     "synthetic", "test")

    def sizes(self, variant=None):
        return [n for v, _, n in self.calls if variant in (None, v)]
