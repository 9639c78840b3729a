"""The side panel: airport facts, From/To pickers, cost model, variant, and the answer."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QButtonGroup, QComboBox, QFormLayout, QGroupBox, QLabel, QPushButton,
                               QRadioButton, QSizePolicy, QVBoxLayout, QWidget)

from ..map.style import FROM_RING, KIND_STYLES, ROUTE, TO_RING
from engine.airport.route_summary import BAGS, TIME, RouteSummary, format_cost, format_seconds
from .variant_picker import VariantPicker

MUTED = "#5f6b7a"
NO_ROUTE = "#c92a2a"


class RoutePanel(QWidget):
    """Emits ``fromChanged``/``toChanged`` (node id), ``costModeChanged`` ("time"|"bags") and
    ``variantChanged`` (name) when the *user* changes them; the setters stay silent."""

    fromChanged = Signal(str)
    toChanged = Signal(str)
    swapRequested = Signal()
    costModeChanged = Signal(str)
    variantChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None, variants=None):
        super().__init__(parent)
        self.setMinimumWidth(300)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(10)

        # Airport facts
        self.airport_title = QLabel()
        self.airport_title.setStyleSheet("font-size: 15px; font-weight: 600;")
        self.airport_title.setWordWrap(True)
        self.airport_facts = QLabel()
        self.airport_facts.setWordWrap(True)
        self.airport_facts.setStyleSheet(f"color: {MUTED};")
        layout.addWidget(self.airport_title)
        layout.addWidget(self.airport_facts)

        # From / To
        route_box = QGroupBox("Route")
        form = QFormLayout(route_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.from_combo = QComboBox()
        self.to_combo = QComboBox()
        self.from_combo.setToolTip("Where the handler starts (or click a node on the map)")
        self.to_combo.setToolTip("Where the handler must go (or click a second node)")
        form.addRow(_dot_label("From", FROM_RING), self.from_combo)
        form.addRow(_dot_label("To", TO_RING), self.to_combo)
        self.swap_button = QPushButton("⇅  Swap From and To")
        self.swap_button.setToolTip("Swap From and To (S)")
        form.addRow(self.swap_button)
        hint = QLabel("Or click two nodes on the map: From, then To.")
        hint.setStyleSheet(f"color: {MUTED}; font-size: 11px;")
        form.addRow(hint)
        layout.addWidget(route_box)

        # Cost model
        cost_box = QGroupBox("Cost of a road")
        cost_layout = QVBoxLayout(cost_box)
        self.time_radio = QRadioButton("Travel time — the quickest route")
        self.bags_radio = QRadioButton("Bag-aware — collect bags on the way")
        self.time_radio.setToolTip("Edge cost = the road's travel time (T)")
        self.bags_radio.setToolTip("Edge cost falls with the bags waiting at the nodes it joins, "
                                   "as in the paper's Fig. 4 (B)")
        self._cost_group = QButtonGroup(self)
        self._cost_group.addButton(self.time_radio)
        self._cost_group.addButton(self.bags_radio)
        self.time_radio.setChecked(True)
        cost_layout.addWidget(self.time_radio)
        cost_layout.addWidget(self.bags_radio)
        layout.addWidget(cost_box)

        # Solver
        solver_box = QGroupBox("Floyd–Warshall variant")
        solver_layout = QVBoxLayout(solver_box)
        self.variant_picker = VariantPicker(variants=variants)
        self.solver_line = QLabel("—")
        self.solver_line.setWordWrap(True)
        self.solver_line.setStyleSheet(f"color: {MUTED}; font-size: 11px;")
        solver_layout.addWidget(self.variant_picker)
        solver_layout.addWidget(self.solver_line)
        layout.addWidget(solver_box)

        # The answer
        answer_box = QGroupBox("Shortest route")
        answer_layout = QVBoxLayout(answer_box)
        self.answer_title = QLabel("—")
        self.answer_title.setWordWrap(True)
        self.answer_title.setTextFormat(Qt.TextFormat.RichText)
        self.answer_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.cost_label = QLabel()
        self.cost_label.setWordWrap(True)
        self.cost_label.setTextFormat(Qt.TextFormat.RichText)
        self.cost_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        answer_layout.addWidget(self.answer_title)
        answer_layout.addWidget(self.cost_label)
        answer_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout.addWidget(answer_box)
        layout.addStretch(1)

        self.from_combo.currentIndexChanged.connect(lambda _: self.fromChanged.emit(self.from_id() or ""))
        self.to_combo.currentIndexChanged.connect(lambda _: self.toChanged.emit(self.to_id() or ""))
        self.swap_button.clicked.connect(self.swapRequested)
        self.time_radio.toggled.connect(self._on_cost_toggled)
        self.variant_picker.variantChanged.connect(self.variantChanged)

    # -- state in -------------------------------------------------------------------------

    def set_airport(self, airport, path_name: str) -> None:
        self.airport_title.setText(airport.name)
        counts = airport.counts()
        parts = [f"{counts[k]} {KIND_STYLES[k].label.lower()}{'s' if counts[k] != 1 else ''}"
                 for k in KIND_STYLES if counts.get(k)]
        roads = len(airport.roads)
        one_way = sum(1 for r in airport.roads if r.one_way)
        bags = sum(airport.bags.values())
        facts = (f"{', '.join(parts)}; {roads} roads ({one_way} one-way); "
                 f"{bags} bags waiting. <br><i>{html.escape(path_name)}</i>")
        if airport.description:
            facts = f"{html.escape(_first_sentence(airport.description))}<br>{facts}"
        self.airport_facts.setText(facts)
        self.airport_facts.setToolTip(airport.description)
        for combo in (self.from_combo, self.to_combo):
            combo.blockSignals(True)
            combo.clear()
            for n in airport.nodes:
                label = n.name if n.name == n.id else f"{n.name} ({n.id})"
                combo.addItem(f"{label} · {KIND_STYLES.get(n.kind, KIND_STYLES['junction']).label}",
                              n.id)
            combo.blockSignals(False)

    def set_from(self, node_id: str | None) -> None:
        _select(self.from_combo, node_id)

    def set_to(self, node_id: str | None) -> None:
        _select(self.to_combo, node_id)

    def from_id(self) -> str | None:
        return self.from_combo.currentData()

    def to_id(self) -> str | None:
        return self.to_combo.currentData()

    def cost_mode(self) -> str:
        return BAGS if self.bags_radio.isChecked() else TIME

    def set_cost_mode(self, mode: str) -> None:
        self.time_radio.blockSignals(True)
        (self.bags_radio if mode == BAGS else self.time_radio).setChecked(True)
        self.time_radio.blockSignals(False)

    # -- the answer -----------------------------------------------------------------------

    def show_pending(self, text: str) -> None:
        self.answer_title.setText(f"<span style='color:{MUTED}'>{html.escape(text)}</span>")
        self.cost_label.setText("")

    def show_summary(self, s: RouteSummary, names: dict[str, str], mode: str,
                     kinds: dict[str, str] | None = None) -> None:
        """The route (junctions left out, long lists elided), its cost, time, bags and legs."""
        kinds = kinds or {}
        src, dst = html.escape(names[s.source]), html.escape(names[s.target])
        if not s.reachable:
            self.answer_title.setText(
                f"<span style='font-size:15px; font-weight:600; color:{NO_ROUTE}'>"
                f"Can {src} reach {dst}? No.</span>")
            self.cost_label.setText(
                f"No route: no sequence of roads leads from {src} to {dst} (mind the one-way "
                f"roads). Bags and travel times change costs, never which roads exist, so the "
                f"answer stays no.")
            return
        arrow = " <span style='color:#868e96'>→</span> "
        stops = _stops(s.nodes, kinds)
        path = arrow.join("…" if n is None else f"<b>{html.escape(names[n])}</b>" for n in stops)
        self.answer_title.setText(f"<span style='font-size:15px; color:{ROUTE}'>{path}</span>")
        cost_name = "travel time" if mode == TIME else "bag-aware cost"
        rows = [("Cost", f"<b>{format_cost(s.cost, mode)}</b> ({cost_name})")]
        if mode == BAGS:
            rows.append(("Travel time", format_seconds(s.travel_seconds)))
        rows.append(("Bags on the way", str(s.bags)))
        junctions = sum(1 for n in s.nodes[1:-1] if kinds.get(n) == "junction")
        legs = str(s.hops) if s.hops else "0 (already there)"
        if junctions:
            legs += f" (through {junctions} junction{'s' if junctions != 1 else ''})"
        rows.append(("Legs", legs))
        self.cost_label.setText(
            "<table cellspacing='0' cellpadding='2'>"
            + "".join(f"<tr><td style='color:{MUTED}; padding-right:10px'>{k}</td><td>{v}</td></tr>"
                      for k, v in rows)
            + "</table>")

    def show_error(self, text: str) -> None:
        self.answer_title.setText(f"<span style='color:{NO_ROUTE}'>Solve failed</span>")
        self.cost_label.setText(html.escape(text))

    def _on_cost_toggled(self, _checked: bool) -> None:
        self.costModeChanged.emit(self.cost_mode())


def _stops(nodes: list[str], kinds: dict[str, str], most: int = 9) -> list[str | None]:
    """The route's named stops: both ends and every non-junction node; None marks an elision."""
    stops = [n for k, n in enumerate(nodes)
             if k == 0 or k == len(nodes) - 1 or kinds.get(n) != "junction"]
    if len(stops) > most:
        head = most // 2
        stops = stops[:head] + [None] + stops[-(most - head - 1):]
    return stops


def _first_sentence(text: str, limit: int = 180) -> str:
    """The description's first sentence ("Fig. 4" does not end one), at most ``limit`` chars."""
    match = re.search(r"(?<=[a-z0-9)\]])\.\s+(?=[A-Z])", text)
    first = text[: match.start() + 1] if match else text
    if len(first) > limit:
        first = first[: limit].rsplit(" ", 1)[0] + "…"
    return first


def _dot_label(text: str, color: str) -> QLabel:
    label = QLabel(f"<span style='color:{color}; font-size:14px'>●</span> {text}")
    label.setTextFormat(Qt.TextFormat.RichText)
    return label


def _select(combo: QComboBox, node_id: str | None) -> None:
    combo.blockSignals(True)
    combo.setCurrentIndex(combo.findData(node_id) if node_id is not None else -1)
    combo.blockSignals(False)
