"""The app's experiments: Tools ▸ Run experiment… and the what-if compare over seeds. Both build
a sweep (``engine.sweep``), run it with ``ExperimentRun`` (Dask, off the UI thread, Cancel keeps
the finished days) and write it to a folder of the user's or a temporary one; an experiment opens
in the sweep view, a compare shows paired differences in the what-if dock."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from engine.sweep.scenario import NO_EDITS, SweepError, save_sweep
from engine.sim.edit_io import edit_to_dict

from ..shell.actions import ActionRegistry, ActionSpec
from .dialog import (HEAD, KEYS, SWEEP_FILE, WHATIF, ExperimentDialog, layout_value, remembered_where,
                     results_folder)
from .run import ExperimentRun, Finished
from .seed_compare import KPIS, SeedCompare


class Experiments(QObject):
    """``opened(window)``: an experiment's results are shown in a sweep window; ``compared``:
    the compare over seeds shows its differences."""

    opened = Signal(object)
    compared = Signal(object)

    def __init__(self, window: QWidget, actions: ActionRegistry, status, settings, whatif,
                 airport_path: Callable[[], Path | None], open_sweep: Callable):
        super().__init__(window)
        self.window, self.status, self.settings = window, status, settings
        self.whatif, self.airport_path, self.open_sweep = whatif, airport_path, open_sweep
        self.dialog: ExperimentDialog | None = None
        self.progress: QProgressDialog | None = None
        self.run = ExperimentRun(self)           # Tools ▸ Run experiment…
        self.run.progressed.connect(self._on_progress)
        self.run.finished.connect(self._on_finished)
        self.run.failed.connect(lambda why: self._failed("The experiment did not run", why))
        self.seeds = SeedCompare()
        whatif.panel.compare_box.layout().addWidget(self.seeds)
        self.seed_run = ExperimentRun(self)      # the compare over seeds
        self.last_compare: Finished | None = None
        self.seeds.runRequested.connect(self.compare_over_seeds)
        self.seeds.cancelRequested.connect(self.seed_run.cancel)
        self.seed_run.progressed.connect(self.seeds.progress)
        self.seed_run.finished.connect(self._on_compared)
        self.seed_run.failed.connect(lambda why: self.seeds.say(f"Could not run: {why}"))
        actions.register(ActionSpec("tools.experiment", "Run &experiment…", self.open_dialog,
                                    "tools"))

    def shutdown(self) -> None:
        """The window closes: running days are cancelled (those finished are still written)."""
        self.run.cancel()
        self.seed_run.cancel()

    def _day(self):
        """(airport, its file, SimConfig) of the day on screen; None before one is loaded."""
        base, path = self.whatif.base, self.airport_path()
        return None if base is None or path is None else (base[0], path, base[1])

    # -- Tools ▸ Run experiment… -----------------------------------------------------------------
    def open_dialog(self) -> ExperimentDialog | None:
        day = self._day()
        if day is None:
            self.status.hold("Open an airport and let its day load first.")
            return None
        if self.run.busy:
            self.status.hold("An experiment is running: cancel it or wait for it first.")
            return None
        self.dialog = ExperimentDialog(*day, self.edits, self.settings, self.window)
        self.dialog.accepted.connect(lambda d=self.dialog: self.start(d))
        self.dialog.open()
        return self.dialog

    def start(self, dialog: ExperimentDialog) -> None:
        """Run the experiment ``dialog`` chose, with a progress dialog that can cancel it."""
        try:
            out = results_folder(dialog.folder(), "experiment")
            sweep = save_sweep(out / SWEEP_FILE, dialog.data(), HEAD, dialog.loaded)
        except (SweepError, ValueError, OSError) as exc:
            self._failed("The experiment cannot run", str(exc))
            return
        where = dialog.where()
        total = len(sweep.runs())
        self.progress = QProgressDialog(f"Running {total} days on {where.text()}…", "Cancel",
                                        0, total, self.window)
        self.progress.setWindowTitle("Experiment")
        self.progress.setWindowModality(Qt.WindowModality.NonModal)   # the app stays usable
        self.progress.setMinimumDuration(0)
        self.progress.setAutoClose(False)
        self.progress.setAutoReset(False)
        self.progress.canceled.connect(self._cancel)
        self.progress.setValue(0)
        self.status.hold(f"Experiment: {total} days on {where.text()}, results in {out}")
        self.run.start(sweep, where, out)

    def _cancel(self) -> None:
        self.run.cancel()
        self.status.hold("Cancelling the experiment: keeping the days that finished…")

    def _on_progress(self, done: int, total: int) -> None:
        if self.progress is not None:
            self.progress.setValue(done)
            self.progress.setLabelText(f"{done} of {total} days done")

    def _on_finished(self, result: Finished) -> None:
        self._close_progress()
        m = result.manifest
        if not len(result.table):
            self._failed("The experiment gave no results",
                         f"No day finished ({len(m['failed'])} failed"
                         f"{': ' + m['failed'][0]['error'] if m['failed'] else ''}); "
                         f"the folder {result.out} holds what ran.")
            return
        window = self.open_sweep(result.out)
        done = (f"cancelled: {m['runs_finished']} of {m['runs_total']} days kept"
                if result.cancelled else f"{m['runs_finished']} days")
        failed = f", {len(m['failed'])} failed ({m['failed'][0]['error']})" if m["failed"] else ""
        self.status.hold(f"Experiment {done}{failed} in {m['wall_s']:.1f} s; results in "
                         f"{result.out}")
        self.opened.emit(window)

    def _close_progress(self) -> None:
        if self.progress is not None:
            self.progress.canceled.disconnect(self._cancel)
            self.progress.close()
            self.progress = None

    def _failed(self, title: str, why: str) -> None:
        self._close_progress()
        self.status.error(title, why)

    @property
    def edits(self) -> list:
        """The day's edits with their times (undos as their inverses), in order: the what-if
        panel's own record, the one a scenario file saves."""
        return self.whatif.timed_edits()

    # -- the compare panel over seeds ------------------------------------------------------------
    def compare_over_seeds(self, n: int) -> None:
        """Run ``n`` seeds (from the day's own) of the day with and without its edits."""
        day = self._day()
        if day is None or not self.edits:
            self.seeds.say("Edit the day first: the compare runs the edited day against the "
                           "unedited one.")
            return
        airport, path, config = day
        factors = {"layout": layout_value(path), "policy": config.policy, "load": config.load,
                   "hours": config.hours, "edits": [NO_EDITS, WHATIF]}
        if config.tugs is not None:
            factors["fleet"] = config.tugs
        data = {"sweep": {"seeds": list(range(config.seed, config.seed + n))},
                "factors": factors, "edits": {WHATIF: [edit_to_dict(e) for e in self.edits]}}
        try:
            out = results_folder(self.settings.value(KEYS["folder"], "", type=str), "compare")
            sweep = save_sweep(out / SWEEP_FILE, data, HEAD, {factors["layout"]: airport})
        except (SweepError, OSError) as exc:
            self.seeds.say(f"Could not run: {exc}")
            return
        where = remembered_where(self.settings)
        self.seeds.running(len(sweep.runs()), where.text())
        self.seed_run.start(sweep, where, out)

    def _on_compared(self, result: Finished) -> None:
        self.last_compare = result
        df, m = result.table, result.manifest
        kept = f" (cancelled: {m['runs_finished']} of {m['runs_total']} days)" \
            if result.cancelled else ""
        if not len(df) or df["edits"].nunique() < 2:
            self.seeds.say(f"No pair of days finished{kept}; results in {result.out}")
            return
        from engine.sweep.results import paired_differences   # pandas, scipy.stats: not at start
        diffs = paired_differences(df, "edits", NO_EDITS, WHATIF, list(KPIS))
        pairs = int(diffs["pairs"].iloc[0])
        seeds = sorted(df["seed"].unique())
        self.seeds.show_differences(diffs, (
            f"Edited − unedited over {pairs} seed(s) from {seeds[0]}{kept}, whole days of "
            f"{df['hours'].iloc[0]:g} h: mean and 95% interval (Student's t, paired by seed)."))
        self.seeds.note.setToolTip(f"Results in {result.out}")
        self.status.hold(f"Compare over seeds: results in {result.out}")
        self.compared.emit(diffs)
