"""File ▸ Save scenario… and Open scenario…: the day on screen with its what-if edits as a
scenario file (``engine.sim.scenario_file``), which ``python main.py simulate`` replays, and a
scenario opened in the app (its airport, settings and timed edits, replayed as the day plays)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog

from engine.input_error import InputError
from engine.sim.scenario_file import load_scenario, save_scenario
from engine.toml_input import layout_path

from ..shell.actions import ActionSpec


class ScenarioFiles:
    """Saves and opens scenarios for ``window`` (the MainWindow: its airport, day and edits)."""

    def __init__(self, window):
        self.window = window
        self.flights_file: Path | None = None   # the schedule file of an opened scenario
        self.saved_edits: list | None = None    # the timed edits the last scenario saved
        window.actions.register_all([
            ActionSpec("file.open-scenario", "Open s&cenario…", lambda: self.open(), "file",
                       before="file.open-sweep"),
            ActionSpec("file.save-scenario", "Save &scenario as…", lambda: self.save(), "file",
                       ("Ctrl+S",), before="file.save-edited", separator=True),
        ])

    def save(self, path=None) -> Path | None:
        """The day on screen (its settings as it started, and every edit with its time)."""
        w = self.window
        if w.airport is None or w.day.running is None:
            w.status.hold("No simulated day to save yet.")
            return None
        if path is None:
            name = w.airport.name.replace(" ", "-")
            path = w.save_folder.ask(w, "Save scenario", f"{name}-scenario.toml",
                                     "Scenarios (*.toml)")
            if not path:
                return None
        edits = w.whatif.timed_edits()
        try:
            save_scenario(path, w.airport_path, w.day.running, edits, name=w.airport.name,
                          flights_file=self.flights_file)
        except (InputError, OSError, ValueError) as exc:
            w.status.error("Could not save the scenario", str(exc))
            return None
        self.saved_edits = edits
        w.status.hold(f"Saved the scenario ({len(edits)} edits) to {path}: python main.py "
                      f"simulate {Path(path).name} replays it")
        return Path(path)

    def edits_saved(self) -> bool:
        """Whether the day's edits are all in the scenario saved last (nothing to lose)."""
        return self.saved_edits == self.window.whatif.timed_edits()

    def open(self, path=None) -> bool:
        """Open a scenario: its airport and settings, its day replaying its edits."""
        w = self.window
        if path is None:
            path, _ = QFileDialog.getOpenFileName(w, "Open scenario", str(w.save_folder.folder()),
                                                  "Scenarios (*.toml)")
            if not path:
                return False
        try:
            scenario = load_scenario(path)
        except (InputError, OSError) as exc:
            w.status.error(f"Could not open scenario {Path(path).name}", str(exc))
            return False
        c = scenario.config
        w.day.show_settings(c)
        self.flights_file = (scenario.source.parent / scenario.flights_file
                             if scenario.flights_file else None)
        extra = {"flights": c.flights, "params": c.params, "recompute": c.recompute}
        return w.open_airport(layout_path(scenario.layout, scenario.source),
                              airport=scenario.airport, replay=scenario.edits, extra=extra)
