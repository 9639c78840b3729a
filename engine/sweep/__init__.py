"""Scenario sweeps: many independent simulated days on Dask, as one tidy table.

    from engine.sweep.scenario import load_sweep
    from engine.sweep.runner import open_client, run_sweep
    sweep = load_sweep("airports/sweep-regional.toml")
    with open_client(workers=2) as client:
        outcome = run_sweep(client, sweep)      # outcome.rows: run index -> KPI row

Where Dask is missing, ``engine.sweep.pool.run_pool(sweep, runs, workers)`` runs the same days
on worker processes of its own (a dead worker fails only its day) and returns the same
``Outcome``.

The unit of work is one (scenario, seed) day (``day.run_day``), pure and deterministic.
"""
