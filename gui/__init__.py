"""The BagRoute desktop app (PySide6 + pyqtgraph): packages by feature, and a main window that
composes them. The GUI imports the engine, never the reverse, and never ``engine.commands`` or
``tools`` (import contracts in pyproject.toml).

- ``main_window``: composes the parts and keeps the API the command line, tools and tests drive;
- ``shell``: the window's own parts — actions declared and registered by id, the status line,
  docks, recent files / drop / exports, what the machine is;
- ``map``: the airport map view, its styles and layers (tugs, what-if closures);
- ``route``: the route finder (its logic, panel, variant picker, solver worker);
- ``day``: the live simulated day (its logic, worker thread, player, panel, live plots);
- ``whatif``: what-if edits of the running day and their compare panel;
- ``analysis``, ``sweep``: the layout analysis and sweep results windows;
- ``experiment``: Tools ▸ Run experiment… and the what-if compare over seeds (sweeps on Dask);
- ``bench_*``: the benchmark window;
- ``workers``: the one way work leaves the UI thread (pool tasks with a relay, worker threads,
  the engine lock);
- ``commands``: ``python main.py app``; ``settings``: where the app keeps its settings.
"""
