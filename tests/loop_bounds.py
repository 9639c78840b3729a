"""How many rounds each bounded host loop of a GPU variant took (engine.gpu_launch.bounded_rounds),
for the tests that check a variant's worst case fits the bound its algorithm proves."""

from engine import gpu_launch


def rounds_used(monkeypatch, module, loop=lambda what: what) -> dict:
    """{loop(what): (most rounds one run of that loop took, its bound)} over ``module``'s
    bounded loops from now on; ``loop`` groups loops whose names differ (a bucket's index)."""
    used = {}

    def recording(limit, what):
        for r in gpu_launch.bounded_rounds(limit, what):
            used[loop(what)] = max(used.get(loop(what), (0, limit)), (r + 1, limit))
            yield r
    monkeypatch.setattr(module, "bounded_rounds", recording)
    return used
