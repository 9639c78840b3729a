"""Tools ▸ Run experiment…: factors picked from the open airport (fleet sizes, dispatch policies,
the current what-if edits or none, load), the day's length, seeds, where the days run (a local
Dask cluster, or a scheduler whose address the app's settings remember) and where the results go.
The dialog only chooses: ``sweep()`` is the engine's ``Sweep`` of those choices, checked as the
user types against the airport already open (the layout file is not read again on each change)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QDialog, QDialogButtonBox,
                               QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout, QLabel,
                               QLineEdit, QPushButton, QRadioButton, QSpinBox, QVBoxLayout,
                               QWidget)

from engine.airport.layout_io import AIRPORTS_DIR
from engine.sim.dispatch import POLICIES
from engine.sim.edit_io import TimedEdit, edit_to_dict
from engine.sim.simulation import SimConfig
from engine.sweep.common import default_workers
from engine.sweep.scenario import NO_EDITS, Sweep, SweepError, sweep_from_dict

from .run import Where

WHATIF = "what-if"       # the edits factor's value for the app's current edits
SWEEP_FILE = "experiment.toml"   # in the results folder: python main.py sweep reruns it
HEAD = "A BagRoute experiment from the app: python main.py sweep THIS_FILE runs it again."
KEYS = {"scheduler": "experiment/scheduler", "remote": "experiment/remote",
        "workers": "experiment/workers", "folder": "experiment/folder"}


def layout_value(path: Path) -> str:
    """A bundled airport's name, else the layout file's absolute path (the sweep's ``layout``)."""
    path = Path(path).resolve()
    return path.stem if path.parent == AIRPORTS_DIR.resolve() else path.as_posix()


def numbers(field: str, text: str, kind=float) -> list:
    """"8, 16 24" as [8, 16, 24]; ``ValueError`` naming the field and the item that is not a
    number."""
    out = []
    for item in text.replace(",", " ").split():
        try:
            out.append(kind(item))
        except ValueError:
            raise ValueError(f"{field}: {item!r} is not a {'whole ' if kind is int else ''}"
                             "number") from None
    return out


def results_folder(parent: str, name: str) -> Path:
    """A new folder for one experiment's results: inside ``parent`` when one was chosen, else in
    the system's temporary folder (never the current folder)."""
    if parent:
        Path(parent).mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(tempfile.mkdtemp(prefix=f"bagroute-{name}-{stamp}-", dir=parent or None))


def remembered_where(settings: QSettings) -> Where:
    """Where the last experiment ran (the app's settings): a scheduler or a local cluster."""
    scheduler = settings.value(KEYS["scheduler"], "", type=str).strip()
    if settings.value(KEYS["remote"], False, type=bool) and scheduler:
        return Where(scheduler=scheduler)
    return Where(workers=settings.value(KEYS["workers"], default_workers(), type=int))


class ExperimentDialog(QDialog):
    """Choose an experiment on ``airport`` (loaded from ``path``), its defaults from the day's
    ``config`` and the current ``edits`` (``TimedEdit``s or the app's ``Applied``)."""

    def __init__(self, airport, path: Path, config: SimConfig, edits, settings: QSettings,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Run experiment")
        self.airport, self.path, self.settings = airport, Path(path), settings
        self.loaded = {layout_value(self.path): airport}   # the sweep's layout, read once
        self.edits = [TimedEdit(e.t, e.edit) for e in edits]
        own = sum(f.count for f in airport.fleets)
        fleet = config.tugs or own
        self.fleet_edit = QLineEdit(", ".join(str(n) for n in sorted(
            {max(1, round(fleet * k)) for k in (0.5, 1.0, 1.5)})))
        self.fleet_edit.setToolTip(f"Tugs in all, one day per value (the airport's own: {own})")
        self.policy_boxes = {}
        policies = QHBoxLayout()
        for name in POLICIES:
            box = QCheckBox(name)
            box.setChecked(name == config.policy)
            self.policy_boxes[name] = box
            policies.addWidget(box)
        self.none_box = QCheckBox("none (the day as planned)")
        self.none_box.setChecked(True)
        self.whatif_box = QCheckBox(f"the current what-if edits ({len(self.edits)})")
        self.whatif_box.setEnabled(bool(self.edits))
        self.whatif_box.setChecked(bool(self.edits))
        self.whatif_box.setToolTip("\n".join(f"{e.edit.text} at {e.t:.0f} s" for e in self.edits)
                                   or "No what-if edits on this day")
        edits = QHBoxLayout()
        edits.addWidget(self.none_box)
        edits.addWidget(self.whatif_box)
        self.load_edit = QLineEdit(f"{config.load:g}")
        self.load_edit.setToolTip("Multiplies the bags per flight; one value or several")
        self.hours_spin = QDoubleSpinBox()
        self.hours_spin.setRange(0.25, 168.0)
        self.hours_spin.setDecimals(2)
        self.hours_spin.setSuffix(" h")
        self.hours_spin.setValue(config.hours)
        self.seeds_spin = QSpinBox()
        self.seeds_spin.setRange(2, 1000)
        self.seeds_spin.setValue(4)
        self.seeds_spin.setToolTip("Seeds 0 to N-1: every combination runs once per seed")

        self.local_radio = QRadioButton("a local cluster of")
        self.workers_spin = QSpinBox()
        self.workers_spin.setRange(1, 256)
        self.workers_spin.setSuffix(" worker(s)")
        self.workers_spin.setValue(settings.value(KEYS["workers"], default_workers(), type=int))
        self.remote_radio = QRadioButton("the Dask scheduler at")
        self.scheduler_edit = QLineEdit(settings.value(KEYS["scheduler"], "", type=str))
        self.scheduler_edit.setPlaceholderText("tcp://host:8786")
        group = QButtonGroup(self)
        for radio in (self.local_radio, self.remote_radio):
            group.addButton(radio)
        remote = settings.value(KEYS["remote"], False, type=bool)
        (self.remote_radio if remote else self.local_radio).setChecked(True)
        where = QVBoxLayout()
        for pair in ((self.local_radio, self.workers_spin),
                     (self.remote_radio, self.scheduler_edit)):
            row = QHBoxLayout()
            for w in pair:
                row.addWidget(w)
            where.addLayout(row)
        self.folder_edit = QLineEdit(settings.value(KEYS["folder"], "", type=str))
        self.folder_edit.setPlaceholderText("a new temporary folder")
        self.folder_edit.setToolTip("Each experiment writes a new folder inside this one")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        folder = QHBoxLayout()
        folder.addWidget(self.folder_edit)
        folder.addWidget(browse)

        form = QFormLayout()
        form.addRow("Airport", QLabel(f"{airport.name} ({self.path.name})"))
        form.addRow("Fleet sizes", self.fleet_edit)
        form.addRow("Policies", policies)
        form.addRow("Edits", edits)
        form.addRow("Load", self.load_edit)
        form.addRow("Day length", self.hours_spin)
        form.addRow("Seeds", self.seeds_spin)
        form.addRow("Run on", where)
        form.addRow("Results in", folder)
        self.count_label = QLabel()
        self.error_label = QLabel()
        self.error_label.setStyleSheet("color: #B00000;")
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.run_button = self.buttons.addButton("Run", QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        body = QVBoxLayout(self)
        body.addLayout(form)
        body.addWidget(self.count_label)
        body.addWidget(self.error_label)
        body.addWidget(self.buttons)
        for w in (self.fleet_edit, self.load_edit, self.scheduler_edit):
            w.textChanged.connect(self._check)
        for w in (*self.policy_boxes.values(), self.none_box, self.whatif_box, self.remote_radio):
            w.toggled.connect(self._check)
        for w in (self.seeds_spin, self.hours_spin):
            w.valueChanged.connect(self._check)
        self._check()

    # -- what was chosen -------------------------------------------------------------------------
    def data(self) -> dict:
        """The sweep file's tables for the choices (``ValueError`` saying what is wrong)."""
        fleets = numbers("Fleet sizes", self.fleet_edit.text(), int)
        loads = numbers("Load", self.load_edit.text())
        policies = [name for name, box in self.policy_boxes.items() if box.isChecked()]
        edits = [v for v, box in ((NO_EDITS, self.none_box), (WHATIF, self.whatif_box))
                 if box.isChecked() and box.isEnabled()]
        for what, values in (("a fleet size", fleets), ("a policy", policies),
                             ("an edits level", edits), ("a load", loads)):
            if not values:
                raise ValueError(f"choose at least {what}")
        data = {"sweep": {"seeds": self.seeds_spin.value(), "variant": "auto"},
                "factors": {"layout": layout_value(self.path), "fleet": fleets,
                            "policy": policies, "load": loads,
                            "hours": self.hours_spin.value(), "edits": edits}}
        if WHATIF in edits:
            data["edits"] = {WHATIF: [edit_to_dict(e) for e in self.edits]}
        return data

    def sweep(self) -> Sweep:
        """The engine's sweep of the choices on the open airport (``SweepError``/``ValueError``
        saying what is wrong), not written anywhere."""
        return sweep_from_dict(self.data(), self.path.parent / SWEEP_FILE, self.loaded)

    def where(self) -> Where:
        if self.remote_radio.isChecked():
            return Where(scheduler=self.scheduler_edit.text().strip())
        return Where(workers=self.workers_spin.value())

    def folder(self) -> str:
        return self.folder_edit.text().strip()

    def remember(self) -> None:
        """Keep where to run and where to write in the app's settings."""
        s = self.settings
        s.setValue(KEYS["scheduler"], self.scheduler_edit.text().strip())
        s.setValue(KEYS["remote"], self.remote_radio.isChecked())
        s.setValue(KEYS["workers"], self.workers_spin.value())
        s.setValue(KEYS["folder"], self.folder())

    # -- checking as the user types --------------------------------------------------------------
    def _check(self) -> None:
        try:
            sweep = self.sweep()
            if self.remote_radio.isChecked() and not self.scheduler_edit.text().strip():
                raise ValueError("give the scheduler's address (tcp://host:8786)")
        except (SweepError, ValueError) as exc:
            problem = "; ".join(exc.problems) if isinstance(exc, SweepError) else str(exc)
            self.error_label.setText(problem)
            self.count_label.setText("")
            self.run_button.setEnabled(False)
            return
        self.error_label.setText("")
        n = len(sweep.scenarios)
        self.count_label.setText(f"{n} combination{'s' if n != 1 else ''} × "
                                 f"{len(sweep.seeds)} seeds = {len(sweep.runs())} days")
        self.run_button.setEnabled(True)

    def accept(self) -> None:
        self.remember()
        super().accept()

    def _browse(self) -> None:
        start = self.folder() or str(Path.home())
        chosen = QFileDialog.getExistingDirectory(self, "Results folder", start)
        if chosen:
            self.folder_edit.setText(chosen)
