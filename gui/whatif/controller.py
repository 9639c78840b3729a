"""What-if edits in the live window: the map's clicks and right-clicks, the tug editor, undo and
redo, saving the edited layout, and the edited day set beside its unedited twin.

Every edit goes to the simulation's own thread through one entry point (``SimThread.apply_edit``),
so it lands between two steps of the day, never during one. Edits are sent one at a time: an undo
asked for while its edit is on its way waits for it (the inverse is known only once the edit has
been resolved: which gate, which tugs). From the first edit of a day the unedited twin, same
airport, settings and seed, runs in a thread of its own and the compare panel shows both days at
the same simulated time.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QCursor, QKeySequence, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QMenu

from engine.airport.layout_io import LayoutError
from engine.sim.edit_io import TimedEdit
from engine.sim.edits import CloseGate, CloseRoad, OpenGate, OpenRoad, fleet_edits, save_edited

from ..day.panel import format_clock
from ..shell.actions import ActionRegistry, ActionSpec
from ..shell.docks import Docks
from ..day.worker import SimThread
from ..map.whatif_layer import WhatIfLayer
from .dialogs import DISCARD, REPLAY, ask_leave, ask_restart, confirm_overlap
from .gates import GateFlights, busy_text
from .panel import WhatIfPanel

GATE_CHOICES = 8        # gates offered by name when closing one (the nearest open ones)


@dataclass(frozen=True)
class FleetTotal:
    """The Fleet setting changed mid-day: the edits that bring the tugs in service to
    ``total`` (``fleet_edits``), resolved in the simulation's thread."""
    total: int

    @property
    def text(self) -> str:
        return f"fleet to {self.total} tugs"

    def resolve(self, sim) -> list:
        return fleet_edits(sim, self.total)


class EditCommand(QUndoCommand):
    """One edit on the undo stack: redo sends the edit, undo its inverse (both as resolved; a
    tuple of edits when one setting made several). ``done``: already applied (a replayed edit),
    so the first redo sends nothing."""

    def __init__(self, whatif: "WhatIf", edit, inverse=None, done: bool = False):
        super().__init__(edit.text)
        self.whatif, self.edit, self.inverse = whatif, edit, inverse
        self.refused, self._skip = False, done

    def redo(self) -> None:
        if self._skip:
            self._skip = False
            return
        self.whatif._queue(self, redo=True)

    def undo(self) -> None:
        self.whatif._queue(self, redo=False)


def edit_text(edit) -> str:
    """An edit's text, or a tuple of them joined."""
    return "; ".join(e.text for e in edit) if isinstance(edit, tuple) else edit.text


class WhatIf(QObject):
    """``applied(Applied)``: an edit took effect and is drawn. ``compared(t)``: the compare
    panel shows both days at simulated time ``t``."""

    applied = Signal(object)
    refused = Signal(str)
    compared = Signal(float)

    def __init__(self, player, map_view, status, actions: ActionRegistry, docks: Docks,
                 beside, day: Callable[[], tuple], parent: QObject | None = None, *,
                 ask_save_path: Callable[[str, str, str], str]):
        """``day()``: (airport, SimConfig) of the day as planned, read when a day is loaded;
        ``beside``: the dock the What-if dock is a tab of; ``ask_save_path(title, name,
        filter)``: where the user saves the edited layout ('' for nowhere)."""
        super().__init__(parent)
        self.ask_save_path = ask_save_path   # the window's: it never starts in the working folder
        self.player, self.view, self.status, self.actions = player, map_view, status, actions
        self.day = day
        self.stack = QUndoStack(self)
        self.panel = WhatIfPanel(self.stack)
        self.dock = docks.add("What-if", "whatif-dock", self.panel, scroll=True, beside=beside)
        self.layer = WhatIfLayer(self.view)
        self.base = None             # (airport, SimConfig) of the day as planned
        self.layout = None           # the airport as edited (``edited_layout``), None: no edit
        self.moved_gates: dict[str, str] = {}
        self.gates = GateFlights()   # the day's flights by gate, for the gate menu
        self.last = None             # the latest Applied
        self.log: list = []          # every Applied of this day in time order, undos included
        self._pending: deque = deque()
        self._sent = None            # (command, redo) with the worker now
        self.menu: QMenu | None = None
        self.twin = SimThread(self, checkpoints=False)
        self._twins = 0                # twins started (each its own generation on the twin thread)
        self._twin_generation = 0      # the current day's twin; 0: none yet
        self._twin_busy = False
        self._edited_at: dict[float, dict] = {}    # KPI samples of the edited day by time
        self._shown_t = 0.0

        worker = self.player.runner.worker
        worker.edited.connect(self._on_edited)
        worker.replayed.connect(self._on_replayed)
        worker.editRefused.connect(self._on_refused)
        self.twin.worker.stepped.connect(self._on_twin)
        self.player.loaded.connect(self._on_day_loaded)
        self.player.stepped.connect(self._on_stepped)
        self.panel.editRequested.connect(self.edit)
        self.panel.saveRequested.connect(self.save_layout)
        self.stack.indexChanged.connect(lambda _: self._update_actions())
        before = self.view.click_filter
        self.view.click_filter = lambda x, y: bool(before and before(x, y)) or self._on_click(x, y)
        self.view.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self._build_actions()

    # -- actions ---------------------------------------------------------------------------------
    def _build_actions(self) -> None:
        self.undo_action = self.stack.createUndoAction(self, "&Undo edit")
        self.undo_action.setShortcut(QKeySequence("Ctrl+Z"))
        self.redo_action = self.stack.createRedoAction(self, "&Redo edit")
        self.redo_action.setShortcut(QKeySequence("Ctrl+Shift+Z"))
        a = self.actions
        self.save_action = a.register(ActionSpec(
            "file.save-edited", "Save &edited layout as…", lambda: self.save_layout(), "file",
            ("Ctrl+Shift+S",), before="file.export-kpis", window_wide=True))
        for action_id, action in (("edit.undo", self.undo_action), ("edit.redo", self.redo_action)):
            a.add(action_id, action, "edit", window_wide=True)  # shortcuts work anywhere
        self._update_actions()

    def _update_actions(self) -> None:
        self.save_action.setEnabled(self.layout is not None)
        self.panel.save_button.setEnabled(self.layout is not None)

    # -- edits -----------------------------------------------------------------------------------
    def edit(self, edit) -> None:
        """Apply ``edit`` (``engine.sim.edits``) to the running day, undoably."""
        if self.base is None:
            self.status.hold("The simulated day is still being prepared: edit it then.")
            return
        self.stack.push(EditCommand(self, edit))

    def toggle_road(self, k: int) -> None:
        """Close road ``k`` (of the unedited airport) or reopen it if it is closed."""
        road = self.base[0].roads[k]
        if self.layout is None or road in self.layout.roads:
            self.edit(CloseRoad(road.a, road.b))
        else:
            open_before = set(self.layout.roads)
            index = sum(1 for r in self.base[0].roads[:k] if r in open_before)
            self.edit(OpenRoad(road, index))

    def gate_closed(self, gate: str) -> bool:
        return gate in self.moved_gates

    def _queue(self, command: EditCommand, redo: bool) -> None:
        if command.refused:
            return
        self._pending.append((command, redo))
        self._send_next()

    def _send_next(self) -> None:
        while self._sent is None and self._pending:
            command, redo = self._pending.popleft()
            edit = command.edit if redo else command.inverse
            if command.refused or edit is None:
                continue
            self._sent = (command, redo)
            generation, t, shown_t = self.player.hold_for_edit()
            self.player.runner.apply_edit(generation, edit, t, shown_t)

    def _on_edited(self, generation: int, applied: list, layout) -> None:
        if generation != self.player.generation or self._sent is None:
            return
        command, redo = self._sent
        self._sent = None
        edits = tuple(a.edit for a in applied)
        inverses = tuple(a.inverse for a in reversed(applied))
        edit, inverse = (edits[0], inverses[0]) if len(applied) == 1 else (edits, inverses)
        if redo:
            command.edit, command.inverse = edit, inverse
        else:
            command.inverse, command.edit = edit, inverse
        command.setText(edit_text(command.edit))
        self._took_effect(applied, layout)
        self.status.hold("; ".join(a.report() for a in applied))
        self._send_next()

    def _on_replayed(self, generation: int, applied: list, layout) -> None:
        """Edits the day's plan applied itself (a restart's or a scenario's): on the undo
        stack as if made here."""
        if generation != self.player.generation:
            return
        for a in applied:
            self.stack.push(EditCommand(self, a.edit, a.inverse, done=True))
        self._took_effect(applied, layout)

    def _took_effect(self, applied: list, layout) -> None:
        self.layout = layout
        for a in applied:
            self.log.append(a)
            self.last = a
            if isinstance(a.edit, CloseGate):
                self.moved_gates[a.edit.gate] = a.edit.to
            elif isinstance(a.edit, OpenGate):
                self.moved_gates.pop(a.edit.gate, None)
        self._draw()
        self.panel.set_fleets(layout.fleets, layout)
        self._update_actions()
        if not self._twin_generation:
            self._start_twin()
        for a in applied:
            self.applied.emit(a)

    def timed_edits(self) -> list[TimedEdit]:
        """Every edit of this day with the simulated time it applied (undos included), in
        order: what replays it."""
        return [TimedEdit(a.t, a.edit) for a in self.log]

    def _on_refused(self, generation: int, why: str) -> None:
        if generation != self.player.generation or self._sent is None:
            return
        command, redo = self._sent
        self._sent = None
        self.status.hold(f"Edit not applied: {why}")
        if redo and command.inverse is None:     # never applied: it leaves the stack
            command.refused = True
            command.setObsolete(True)
            if self.stack.command(self.stack.index() - 1) is command:
                self.stack.undo()
        self.refused.emit(why)
        self._send_next()

    def _draw(self) -> None:
        base = self.base[0]
        open_now = set(self.layout.roads) if self.layout is not None else set(base.roads)
        closed = [k for k, r in enumerate(base.roads) if r not in open_now]
        self.layer.show(closed, dict(self.moved_gates))

    # -- the map ---------------------------------------------------------------------------------
    def _on_click(self, x: float, y: float) -> bool:
        """A left click on a road (away from every node) closes or reopens it."""
        if self.base is None or self.view.node_at(x, y) is not None:
            return False
        k = self.layer.road_at(x, y)
        if k is None:
            return False
        self.toggle_road(k)
        return True

    def _on_scene_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.RightButton or self.base is None:
            return
        vb = self.view.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        p = vb.mapSceneToView(event.scenePos())
        node = self.view.node_at(p.x(), p.y())
        menu = None
        if node is not None and (self.gate_closed(node) or self.base[0].node(node).kind == "gate"):
            menu = self.gate_menu(node)
        elif (k := self.layer.road_at(p.x(), p.y())) is not None:
            menu = self.road_menu(k)
        if menu is not None:
            event.accept()
            menu.popup(QCursor.pos())

    def gate_menu(self, gate: str) -> QMenu:
        """The right-click menu of a gate: close it (flights to the nearest free gate or to one
        picked by name), or reopen it."""
        menu = self._new_menu()
        name = self.base[0].node(gate).name
        if self.gate_closed(gate):
            menu.addAction(f"Reopen gate {name}", lambda: self.edit(OpenGate(gate)))
            return menu
        t, moved = self.player.clock, self.moved_gates
        busy = self.gates.busy(gate, t, moved)
        now = f" ({busy_text(busy)})" if busy else ""
        menu.addAction(f"Close gate {name}{now}: flights to the nearest free gate",
                       lambda: self.edit(CloseGate(gate)))
        # made here and parented, not menu.addMenu(title): PySide6 6.6 to 6.9 delete a submenu
        # made that way once a QAction.menu() wrapper of it goes
        to = QMenu(f"Close gate {name}: flights to", menu)
        menu.addMenu(to)
        for other in self._nearest_open_gates(gate):
            text = self.base[0].node(other).name
            if busy_other := self.gates.busy(other, t, moved):
                text += f" — {busy_text(busy_other)}"
            overlaps = self.gates.overlaps(gate, other, t, moved)
            if overlaps:
                text += f" — ⚠ {len(overlaps)} overlap{'s' if len(overlaps) > 1 else ''}"
            to.addAction(text, lambda _=False, o=other: self.close_gate_to(gate, o)).setData(other)
        return menu

    def close_gate_to(self, gate: str, to: str) -> bool:
        """Close ``gate`` with its flights to ``to``; where they overlap ``to``'s own, only
        once the user, told which, agrees (False: not closed)."""
        overlaps = self.gates.overlaps(gate, to, self.player.clock, self.moved_gates)
        if overlaps and not confirm_overlap(self.view.window(), gate, to, overlaps):
            self.status.hold(f"Gate {gate} not closed: its flights overlap {to}'s "
                             f"({overlaps[0]})")
            return False
        self.edit(CloseGate(gate, to))
        return True

    def road_menu(self, k: int) -> QMenu:
        menu = self._new_menu()
        road = self.base[0].roads[k]
        closed = self.layout is not None and road not in self.layout.roads
        menu.addAction(f"{'Reopen' if closed else 'Close'} road {road.a}–{road.b}",
                       lambda: self.toggle_road(k))
        return menu

    def _new_menu(self) -> QMenu:
        if self.menu is not None:
            self.menu.close()
        self.menu = QMenu(self.view.window())
        return self.menu

    def _nearest_open_gates(self, gate: str) -> list[str]:
        a = self.base[0]
        g = a.node(gate)
        gates = [n for n in a.gates() if n.id != gate and n.id not in self.moved_gates]
        gates.sort(key=lambda n: ((n.x - g.x) ** 2 + (n.y - g.y) ** 2, n.id))
        return [n.id for n in gates[:GATE_CHOICES]]

    # -- saving ----------------------------------------------------------------------------------
    def history(self) -> list[str]:
        """The edits in effect, in order (those undone left out)."""
        return [self.stack.command(i).text() for i in range(self.stack.index())]

    def save_layout(self, path=None) -> Path | None:
        """File ▸ Save edited layout as…: the airport as edited, as a layout file."""
        if self.layout is None:
            self.status.hold("No edits to save yet.")
            return None
        if path is None:
            name = self.base[0].name.replace(" ", "-")
            path = self.ask_save_path("Save edited layout", f"{name}-edited.json",
                                      "Airport layouts (*.json)")
            if not path:
                return None
        try:
            save_edited(self.layout, path, self.history())
        except (LayoutError, OSError) as exc:
            self.status.error("Could not save the edited layout", str(exc))
            return None
        self.status.hold(f"Saved the edited layout ({len(self.history())} edits) to {path}")
        return Path(path)

    # -- a new day -------------------------------------------------------------------------------
    def confirm_restart(self) -> list[TimedEdit] | None:
        """Before a restart: the edits to replay on the new day ([] when there are none or the
        user discards them), or None when the user cancels."""
        if not self.log:
            return []
        choice = ask_restart(self.view.window(), [f"{format_clock(a.t)} {a.text}"
                                                  for a in self.log])
        if choice is None:
            return None
        return self.timed_edits() if choice == REPLAY else []

    def confirm_leave(self, opening: str, save: Callable[[], object]) -> bool:
        """Before ``opening`` (another airport or scenario) replaces this day: True to go on
        (no edits, the user discards them, or ``save`` saved them), False to keep the day."""
        if not self.log:
            return True
        choice = ask_leave(self.view.window(), [f"{format_clock(a.t)} {a.text}" for a in self.log],
                           opening)
        return choice == DISCARD or (choice is not None and save() is not None)

    def _on_day_loaded(self, facts) -> None:
        """A new day (new airport or restart): as planned, nothing edited, no twin yet."""
        self.base = self.day()
        self.gates = GateFlights(facts.get("gate_flights", ()))
        airport = self.base[0]
        self.stack.clear()
        self._pending.clear()
        self._sent = None
        self.layout, self.last, self.moved_gates, self.log = None, None, {}, []
        self.layer.set_airport(airport)
        self.panel.set_fleets(airport.fleets, airport)
        self.panel.clear_compare()
        self._twin_generation, self._twin_busy = 0, False
        self._edited_at = {}
        self._update_actions()

    # -- the unedited twin -------------------------------------------------------------------------
    def _start_twin(self) -> None:
        self._twins += 1
        self._twin_generation, self._twin_busy = self._twins, True
        self.panel.compare_label.setText("Starting the unedited day from the same seed…")
        self.twin.load(self._twin_generation, *self.base)

    def _on_stepped(self, result) -> None:
        """The edited day reached a new shown time: keep its sample, ask the twin for it."""
        if not self._twin_generation:
            return
        self._shown_t = result.snapshot.t
        self._edited_at[self._shown_t] = result.snapshot.kpis
        self._ask_twin()

    def _ask_twin(self) -> None:
        if not self._twin_busy and self._edited_at:
            self._twin_busy = True
            self.twin.advance(self._twin_generation, self._shown_t)

    def _on_twin(self, result) -> None:
        if result.generation != self._twin_generation:
            return
        self._twin_busy = False
        t = result.snapshot.t
        edited = self._edited_at.get(t)
        if edited is not None:
            self.panel.show_compare(format_clock(t), edited, result.snapshot.kpis)
            self._edited_at = {k: v for k, v in self._edited_at.items() if k >= t}
            self.compared.emit(t)
        elif t < self._shown_t:
            self.panel.compare_label.setText(
                f"The unedited day is catching up: {format_clock(t)} of "
                f"{format_clock(self._shown_t)}…")
        if t < self._shown_t:
            self._ask_twin()

    def shutdown(self) -> None:
        self.twin.shutdown()
