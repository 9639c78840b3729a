"""The simulation dock: the day's settings (fleet, bag arrival rate, seed, dispatch policy, race
mode), the simulated clock and bag counts, and the selected tug's load and job."""

from __future__ import annotations

import html

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QPushButton, QSizePolicy, QSpinBox, QVBoxLayout,
                               QWidget)

from engine.sim.dispatch import DEFAULT_POLICY, DEFAULT_WHY, POLICIES
from engine.sim.tugs import ACTIVITY_NAMES, DRIVING, HANDLING
from engine.words import counted, node_label

from ..map.tug_layer import SELECTED, TUG_COLORS

MUTED = "#5f6b7a"
PENDING = "#d9480f"      # a setting changed that the running day does not have yet
ON_RESTART = "↺ on restart"


class _Still(QWidget):
    """Holds a label whose text changes while the day plays (several times a second): a label's
    new text lays out every widget around it again (2–3 ms on the hub's dock); in this holder,
    which has no layout, it lays out only itself, and the dock follows only when the height it
    needs changes (a line more or less)."""

    def __init__(self, label: QLabel):
        super().__init__()
        self.label = label
        self._measured = -1      # the text length the height was measured for (no wrapping)
        label.setParent(self)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._fit()

    def set_text(self, text: str) -> None:
        if text != self.label.text():
            self.label.setText(text)
            self._fit()

    def _fit(self) -> None:
        """The height the text needs at the holder's width (a rich text's size hint costs about
        a millisecond: a label that does not wrap is measured again only when its length
        changes, as a clock's does not)."""
        label = self.label
        if label.wordWrap():
            height = label.heightForWidth(self.width())
        elif len(label.text()) != self._measured:
            self._measured = len(label.text())
            height = label.sizeHint().height()
        else:
            return
        height = height if height > 0 else label.sizeHint().height()
        if height != self.minimumHeight() or height != self.maximumHeight():
            self.setFixedHeight(height)

    def sizeHint(self) -> QSize:
        return QSize(self.label.sizeHint().width(), self.minimumHeight())

    def minimumSizeHint(self) -> QSize:
        wraps = self.label.wordWrap()
        return QSize(0 if wraps else self.label.minimumSizeHint().width(), self.minimumHeight())

    def resizeEvent(self, event) -> None:
        self.label.setGeometry(self.rect())
        self._fit()


def format_clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


class SimPanel(QWidget):
    """``restartRequested``: the user pressed Restart. ``raceToggled(bool)``. Hours, bag
    arrivals and seed make another day: changed, each says "on restart" beside it until the
    day restarts; fleet and dispatch apply at once, as what-if edits (the window's wiring)."""

    restartRequested = Signal()
    raceToggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setMinimumWidth(300)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(8)

        self.clock_label = QLabel("—")
        self.clock_label.setStyleSheet("font-size: 22px; font-weight: 600; font-family: monospace;")
        self.clock_label.setToolTip("Simulated time of day shown on the map")
        self.counts_label = QLabel("")
        self.counts_label.setWordWrap(True)
        self.counts_label.setTextFormat(Qt.TextFormat.RichText)
        self._clock, self._counts = _Still(self.clock_label), _Still(self.counts_label)
        layout.addWidget(self._clock)
        layout.addWidget(self._counts)

        day = QGroupBox("Simulated day")
        form = QFormLayout(day)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.fleet_spin = QSpinBox()
        self.fleet_spin.setRange(0, 2000)   # the hub's fleet curve runs to 1,200
        self.fleet_spin.setSpecialValueText("airport's own")
        self.fleet_spin.setToolTip("Tugs in service, shared over the depots (0: the airport's "
                                   "fleets). Applies at once, as a what-if edit")
        self.hours_spin = QSpinBox()
        self.hours_spin.setRange(1, 168)
        self.hours_spin.setValue(24)
        self.hours_spin.setSuffix(" h")
        self.hours_spin.setToolTip("Length of the simulated day")
        self.load_spin = QDoubleSpinBox()
        self.load_spin.setRange(0.1, 5.0)
        self.load_spin.setSingleStep(0.1)
        self.load_spin.setValue(1.0)
        self.load_spin.setSuffix(" ×")
        self.load_spin.setToolTip("Bag arrival rate: multiplies the bags per flight")
        self.seed_spin = QSpinBox()
        self.seed_spin.setRange(0, 999_999)
        self.seed_spin.setToolTip("Same seed, same flights and bags")
        self.policy_combo = QComboBox()
        for key, cls in POLICIES.items():   # the engine's registry: every policy it has
            self.policy_combo.addItem(cls.label + (" (default)" if key == DEFAULT_POLICY else ""),
                                      key)
        self.policy_combo.setToolTip("Applies at once, as a what-if edit")
        self.policy_combo.setSizeAdjustPolicy(   # long labels must not widen the dock
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.policy_combo.setMinimumContentsLength(16)
        self.policy_note = QLabel()
        self.policy_note.setWordWrap(True)
        self.policy_note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Minimum)
        self.policy_note.setMinimumHeight(5 * self.policy_note.fontMetrics().height())
        self.policy_note.setStyleSheet(f"color: {MUTED}; font-size: 11px;")
        self.policy_combo.currentIndexChanged.connect(self._describe_policy)
        self._describe_policy()
        self.markers: dict[str, QLabel] = {}
        form.addRow("Fleet", self.fleet_spin)
        form.addRow("Dispatch", self.policy_combo)
        form.addRow(self.policy_note)
        for key, label, spin in (("hours", "Hours", self.hours_spin),
                                 ("load", "Bag arrivals", self.load_spin),
                                 ("seed", "Seed", self.seed_spin)):
            marker = QLabel(ON_RESTART)
            marker.setStyleSheet(f"color: {PENDING}; font-weight: 600;")
            marker.setToolTip("Changed: the running day keeps its value until it restarts (R)")
            marker.setVisible(False)
            row = QHBoxLayout()
            row.addWidget(spin, 1)
            row.addWidget(marker)
            form.addRow(label, row)
            self.markers[key] = marker
            spin.valueChanged.connect(lambda _: self._show_pending())
        self.running: dict | None = None
        note = QLabel("Fleet and dispatch apply at once, as what-if edits; the others on "
                      "restart.")
        note.setWordWrap(True)
        note.setStyleSheet(f"color: {MUTED}; font-size: 11px;")
        form.addRow(note)
        self.restart_button = QPushButton("↺  Restart the day")
        self.restart_button.setToolTip("Start the simulated day again with these settings (R)")
        form.addRow(self.restart_button)
        self.race_check = QCheckBox("Race every variant on each recompute")
        self.race_check.setToolTip("On each all-pairs recompute of the live data, also solve the "
                                   "same matrix with every other available variant, after the "
                                   "step, while the simulation has time to spare, and plot their "
                                   "times side by side (at high speed a recompute still waiting "
                                   "to race gives way to a newer one: the plot's title counts "
                                   "them)")
        form.addRow(self.race_check)
        layout.addWidget(day)

        tug_box = QGroupBox("Selected tug")
        tug_layout = QVBoxLayout(tug_box)
        self.tug_title = QLabel("Click a tug on the map")
        self.tug_title.setTextFormat(Qt.TextFormat.RichText)
        self.tug_label = QLabel("")
        self.tug_label.setWordWrap(True)
        self.tug_label.setTextFormat(Qt.TextFormat.RichText)
        row = QHBoxLayout()
        self.prev_tug = QPushButton("◀")
        self.next_tug = QPushButton("▶")
        for b, tip in ((self.prev_tug, "Previous tug ([)"), (self.next_tug, "Next tug (])")):
            b.setFixedWidth(34)
            b.setToolTip(tip)
        row.addWidget(self.tug_title, 1)
        row.addWidget(self.prev_tug)
        row.addWidget(self.next_tug)
        tug_layout.addLayout(row)
        self._tug = _Still(self.tug_label)
        tug_layout.addWidget(self._tug)
        layout.addWidget(tug_box)

        self.facts_label = QLabel("")
        self.facts_label.setWordWrap(True)
        self.facts_label.setStyleSheet(f"color: {MUTED}; font-size: 11px;")
        layout.addWidget(self.facts_label)
        layout.addStretch(1)

        self.restart_button.clicked.connect(self.restartRequested)
        self.race_check.toggled.connect(self.raceToggled)

    # -- state ----------------------------------------------------------------------------------
    def restart_values(self) -> dict:
        """The settings that only a new day takes."""
        return {"hours": float(self.hours_spin.value()), "load": round(self.load_spin.value(), 2),
                "seed": self.seed_spin.value()}

    def set_running(self, config) -> None:
        """The running day's settings: those changed since are marked "on restart"."""
        self.running = {"hours": float(config.hours), "load": round(config.load, 2),
                        "seed": config.seed}
        self._show_pending()

    def pending(self) -> list[str]:
        """The settings changed that wait for a restart."""
        return [k for k, m in self.markers.items() if not m.isHidden()]

    def _show_pending(self) -> None:
        now = self.restart_values()
        for key, marker in self.markers.items():
            marker.setVisible(self.running is not None and now[key] != self.running[key])
        waiting = self.pending()
        self.restart_button.setText("↺  Restart the day" + (" to apply" if waiting else ""))
        self.restart_button.setStyleSheet(f"color: {PENDING}; font-weight: 600;"
                                          if waiting else "")

    def policy(self) -> str:
        return self.policy_combo.currentData()

    def _describe_policy(self) -> None:
        key = self.policy()
        why = f" This is {DEFAULT_WHY}." if key == DEFAULT_POLICY else ""
        self.policy_note.setText(POLICIES[key].description + why)

    def set_policy(self, key: str) -> None:
        i = self.policy_combo.findData(key)
        if i >= 0:
            self.policy_combo.setCurrentIndex(i)

    def show_time(self, t: float, end: float) -> None:
        self._clock.set_text(f"{format_clock(t)} <span style='font-size:12px; color:{MUTED}'>"
                                 f"/ {format_clock(end)}</span>")

    def show_counts(self, kpis: dict) -> None:
        self._counts.set_text(
            f"<span style='color:{MUTED}'>Bags</span> {kpis['created']:,} created · "
            f"<b>{kpis['waiting']:,}</b> waiting · {kpis['on_tug']:,} on tugs · "
            f"<span style='color:#2f9e44'>{kpis['delivered']:,} delivered</span> · "
            f"<span style='color:#c92a2a'>{kpis['misconnected']:,} misconnected</span> "
            f"(MBR {kpis['mbr']:.1f})")

    def show_tug(self, info, airport, route: list[int]) -> None:
        """The tug's activity, load and job, in words; None: nothing selected. ``route``: the
        nodes still ahead of it (the next first)."""
        if info is None:
            self.tug_title.setText("Click a tug on the map")
            self._tug.set_text("")
            return
        nodes = airport.nodes
        color = TUG_COLORS.get(info.activity, "#868e96")
        self.tug_title.setText(
            f"<span style='color:{SELECTED}; font-size:15px'>◆</span> <b>Tug {info.id + 1}</b> "
            f"<span style='color:{color}'>{ACTIVITY_NAMES.get(info.activity, '?')}</span>")
        rows = [("Load", f"<b>{info.load}</b> / {info.capacity} bags")]
        if info.activity == DRIVING:
            where = html.escape(nodes[info.target].name) if info.target >= 0 else "?"
            job = "delivering to" if info.load and info.target in info.dests else "heading to"
            rows.append(("Job", f"{job} <b>{where}</b>"))
            rows.append(("Route", f"next <b>{html.escape(nodes[route[0]].name)}</b>, "
                                  f"{counted(len(route), 'node')} to "
                                  f"{html.escape(nodes[route[-1]].name)}" if route else "—"))
        elif info.activity == HANDLING:
            rows.append(("Job", f"loading/unloading at <b>{html.escape(nodes[info.node].name)}</b>"))
        else:
            rows.append(("Job", f"idle at <b>{html.escape(nodes[info.node].name)}</b>"))
        if info.pickups:
            rows.append(("Promised", f"{counted(info.pickups, 'bag')} waiting for it"))
        if info.dests:
            shown = ", ".join(html.escape(nodes[d].name) for d in info.dests[:4])
            more = f" +{len(info.dests) - 4}" if len(info.dests) > 4 else ""
            rows.append(("Bags for", shown + more))
        rows.append(("Depot", html.escape(node_label(airport, airport.nodes[info.depot].id))))
        self._tug.set_text(
            "<table cellspacing='0' cellpadding='2'>"
            + "".join(f"<tr><td style='color:{MUTED}; padding-right:10px'>{k}</td><td>{v}</td></tr>"
                      for k, v in rows) + "</table>")
