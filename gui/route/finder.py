"""The route finder's logic: the latest all-pairs answer for the airport, cost model and variant
picked, and the route between From and To read out of it.

Loading an airport, switching the cost model or the variant submits one Floyd–Warshall solve to
the worker thread; picking From/To (in the panel or by two clicks on the map) only reads the
route out of the latest answer, so it is instant once that answer is in."""

from __future__ import annotations

import html

from PySide6.QtCore import QObject, QSettings, Signal

from engine.airport.cost import bag_aware_cost_matrix, travel_time_matrix
from engine.airport.route_summary import (BAGS, COST_MODES, TIME, RouteSummary, format_duration,
                                          summarise)
from engine.apsp.dijkstra import SOLVERS as SCIPY
from engine.gpu_device import gpu_unavailable_reason

from ..shell.actions import ActionRegistry, ActionSpec
from .panel import RoutePanel
from .solver_worker import SolverWorker

COMPILING_MESSAGE = "compiling for this machine, first use only (then cached)"


class RouteFinder(QObject):
    """``routeShown(summary)`` each time a route (or "no route") is shown; ``solveFinished
    (result)`` for current solves only; ``variantChanged(name)`` when the user picks another."""

    routeShown = Signal(object)       # RouteSummary
    solveFinished = Signal(object)    # APSPResult
    variantChanged = Signal(str)

    def __init__(self, map_view, status, settings: QSettings, actions: ActionRegistry,
                 solve_fn, variants=None, parent: QObject | None = None):
        super().__init__(parent)
        self.map_view, self.status, self.settings, self.actions = map_view, status, settings, actions
        self.panel = RoutePanel(variants=variants)
        self.solver = SolverWorker(self, solve_fn=solve_fn)
        self.airport = None
        self.result = None            # latest APSPResult for the current airport/cost/variant
        self.summary: RouteSummary | None = None
        self.last_report = ""         # what the status bar says about the latest solve
        self._serial = 0              # bumps on every airport load
        self._next_pick = "from"

        self.solver.solved.connect(self._on_solved)
        self.solver.failed.connect(self._on_failed)
        self.solver.compiling.connect(
            lambda variant: self.status.set(f"Preparing {variant}: {COMPILING_MESSAGE}…"))
        self.solver.compiled.connect(self._on_compiled)
        map_view.nodeClicked.connect(self._on_node_clicked)
        self.panel.fromChanged.connect(lambda node_id: self.set_endpoints(node_id, self.to_id))
        self.panel.toChanged.connect(lambda node_id: self.set_endpoints(self.from_id, node_id))
        self.panel.swapRequested.connect(self.swap_endpoints)
        self.panel.costModeChanged.connect(self._on_cost_mode_changed)
        self.panel.variantChanged.connect(self._on_variant_changed)
        actions.register(ActionSpec("route.swap", "&Swap From and To", self.swap_endpoints,
                                    "route", ("S",)))
        for i, (mode, key) in enumerate(((TIME, "T"), (BAGS, "B"))):
            actions.register(ActionSpec(
                f"route.cost-{mode}", f"{COST_MODES[mode]} cost",
                lambda m=mode: self.set_cost_mode(m), "route", (key,), checkable=True,
                checked=mode == TIME, group="route.cost", separator=i == 0))

    @property
    def from_id(self) -> str | None:
        return self.panel.from_id()

    @property
    def to_id(self) -> str | None:
        return self.panel.to_id()

    @property
    def variant(self) -> str:
        return self.panel.variant_picker.current_variant()

    @property
    def cost_mode(self) -> str:
        return self.panel.cost_mode()

    def set_airport(self, airport, path) -> None:
        """A new airport: keep From/To where they still exist (else its first and last gate), and
        solve its all pairs."""
        keep_from, keep_to = self.from_id, self.to_id
        self._serial += 1
        self.airport, self.result, self.summary = airport, None, None
        self.panel.set_airport(airport, str(path))
        ids = airport.node_ids
        if keep_from not in ids or keep_to not in ids:
            gates = [n.id for n in airport.gates()] or ids
            keep_from, keep_to = gates[0], gates[-1]
        self._next_pick = "from"
        self.panel.set_from(keep_from)
        self.panel.set_to(keep_to)
        self.map_view.set_endpoints(keep_from, keep_to)

    def set_endpoints(self, from_id: str | None, to_id: str | None) -> None:
        """Choose From and To (node ids) and show the route between them."""
        self.panel.set_from(from_id)
        self.panel.set_to(to_id)
        self.map_view.set_endpoints(self.from_id, self.to_id)
        self._show_route()

    def swap_endpoints(self) -> None:
        self.set_endpoints(self.to_id, self.from_id)

    def set_cost_mode(self, mode: str) -> None:
        if mode not in COST_MODES:
            raise ValueError(f"unknown cost mode {mode!r}; choose one of {', '.join(COST_MODES)}")
        if mode != self.cost_mode:
            self.panel.set_cost_mode(mode)
            self._on_cost_mode_changed(mode)

    def set_variant(self, name: str) -> bool:
        """Select a variant that can run here (False, with a status message, if it cannot)."""
        picker = self.panel.variant_picker
        if name not in picker.names():
            self.status.set(f"Unknown Floyd–Warshall variant {name!r}; keeping {self.variant}.")
            return False
        if not picker.is_available(name):
            self.status.set(f"{name} unavailable ({picker.reason(name)}); keeping {self.variant}.")
            return False
        picker.set_current_variant(name)  # emits variantChanged -> re-solve when it changed
        return True

    def restore(self) -> None:
        """The cost model and variant of the last session."""
        mode = self.settings.value("route/cost_mode", TIME, type=str)
        if mode in COST_MODES:
            self.panel.set_cost_mode(mode)
            self.actions.action(f"route.cost-{mode}").setChecked(True)
        variant = self.settings.value("solver/variant", "", type=str)
        if variant and self.panel.variant_picker.is_available(variant):
            self.panel.variant_picker.set_current_variant(variant, silent=True)

    # -- solving -------------------------------------------------------------------------------

    def request_solve(self) -> None:
        if self.airport is None or self.solver.closed:
            return
        self.result = None
        self.map_view.clear_route()
        context = (self._serial, self.cost_mode, self.variant)
        try:
            if self.cost_mode == BAGS:
                cost = bag_aware_cost_matrix(self.airport, self.airport.bag_vector())
            else:
                cost = travel_time_matrix(self.airport)
        except ValueError as exc:
            self.status.error("Cannot build the cost matrix", str(exc))
            return
        self.solver.submit(cost, self.variant, context)
        n = len(self.airport.nodes)
        self.panel.show_pending(f"Solving all {n}×{n} pairs with {self.variant}…")
        self.status.set(f"Solving {n} nodes ({COST_MODES[self.cost_mode].lower()} cost) with "
                        f"{self.variant} in a worker thread…")

    def _on_solved(self, job, result) -> None:
        if job.context != (self._serial, self.cost_mode, self.variant):
            return  # belt and braces: the worker already drops superseded jobs
        self.result = result
        self.last_report = self._solve_report(result)
        self.status.set(self.last_report)
        self.panel.solver_line.setText(
            f"Last solve: <b>{result.variant}</b> on {html.escape(result.device)}, "
            f"{format_duration(result.seconds)}")
        self.solveFinished.emit(result)
        self._show_route()

    def _on_compiled(self, variant: str, state: str) -> None:
        """A variant's background compile ended: it takes over from scipy's solvers (solved
        again), or the CPU goes on, saying why."""
        if state == "ready":
            self.status.set(f"{variant} compiled: it takes over from the solver meanwhile")
            if variant == self.variant or getattr(self.result, "variant", None) in SCIPY:
                self.request_solve()   # (the CPU fallback of an unavailable GPU variant: the latter)
        else:
            self.status.error(f"{variant} could not be compiled; the CPU goes on",
                              state.removeprefix("failed: "), dialog=False)

    def _on_failed(self, job, message: str) -> None:
        if job.context != (self._serial, self.cost_mode, self.variant):
            return
        self.panel.show_error(message)
        self.status.error(f"{job.variant} failed", message, dialog=False)

    def _solve_report(self, r) -> str:
        n = len(self.airport.nodes)
        what = f"{n} nodes, {COST_MODES[self.cost_mode].lower()} cost"
        if r.note:  # e.g. "gpu-blocked unavailable (…); ran cpu-blocked on the CPU"
            return f"{r.note}: {r.device}, {format_duration(r.seconds)} — {what}"
        text = f"Ran {r.variant} on {r.device} in {format_duration(r.seconds)} — {what}"
        reason = gpu_unavailable_reason()
        if reason is not None:
            text += f"; no GPU ({reason})"
        return text

    def _show_route(self) -> None:
        if self.airport is None:
            return
        if self.from_id is None or self.to_id is None:
            self.map_view.clear_route()
            self.panel.show_pending("Pick From and To.")
            return
        if self.result is None:
            return  # the answer is on its way; _on_solved will call again
        self.summary = summarise(self.airport, self.result, self.from_id, self.to_id)
        self.map_view.set_route(self.summary.nodes)
        names = {n.id: n.name for n in self.airport.nodes}
        kinds = {n.id: n.kind for n in self.airport.nodes}
        self.panel.show_summary(self.summary, names, self.cost_mode, kinds)
        self.routeShown.emit(self.summary)

    # -- reactions -----------------------------------------------------------------------------

    def _on_node_clicked(self, node_id: str) -> None:
        if self._next_pick == "from":
            self._next_pick = "to"
            self.set_endpoints(node_id, self.to_id)
            self.status.set(f"From {self.airport.node(node_id).name}: now click the To node.")
        else:
            self._next_pick = "from"
            self.set_endpoints(self.from_id, node_id)
            self.status.set(self.last_report)

    def _on_cost_mode_changed(self, mode: str) -> None:
        self.settings.setValue("route/cost_mode", mode)
        self.actions.action(f"route.cost-{mode}").setChecked(True)
        self.request_solve()

    def _on_variant_changed(self, name: str) -> None:
        self.settings.setValue("solver/variant", name)
        self.variantChanged.emit(name)
        self.request_solve()
