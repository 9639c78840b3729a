"""The Python side of the compiled loop: ``DayLoop`` holds the loop's own state (int and float
slots, the event heap, the free tugs), hands ``step.advance`` the day's arrays, and does what
the loop returns for: a KPI sample, the fleet's round plan (``linear_sum_assignment``), a
bag-aware solve (``RouteTables.refresh``), a tie the fleet's one-pass job cannot break, rows of
the from-tugs engine's distances, wider tug rows, a check. Scalars that Python code also changes
(the day's time, the pickups' and bags' counters, the tables' last solve) are copied in before
each call and back after it."""

from __future__ import annotations

import numpy as np

from ..dispatch.fleet import ORDERS, ORDERS_AT
from ..route_engine import FROM_TUGS
from . import codes as c
from . import stale_cache
from .heap import EventHeap
from .routes import start_leg_of
from .step import advance

_F2 = np.zeros((2, 2)).T            # placeholders of the right types before a bag-aware solve
_C2 = np.zeros((1, 1))
_I2 = np.zeros((1, 1), dtype=np.int64)
_B1 = np.zeros(1, dtype=np.bool_)


class DayLoop:
    """The compiled loop of one ``Simulation`` (``sim``)."""

    def __init__(self, sim):
        stale_cache.check_once()   # before this process first loads the loop from Numba's cache
        n = len(sim.tugs)
        self.I = np.zeros(c.N_I, dtype=np.int64)
        self.F = np.zeros(c.N_F)
        self.PR = np.zeros(c.N_P)
        self.heap = EventHeap(max(n, 1))
        self.free_ids = np.zeros(max(n, 1), dtype=np.int64)
        self.round_ids = np.zeros(max(n, 1), dtype=np.int64)
        self.free_ids[:n] = np.arange(n)
        self.I[c.I_FREE_N] = n
        self.I[c.I_ROUND_VERSION] = -1
        self._rows_of = None          # the from-tugs KeyGraph the rows below belong to
        self.from_rows = self.to_rows = _C2
        self.have_from = self.have_to = _B1

    # -- what edits change ---------------------------------------------------------------------
    def grow(self, n: int) -> None:
        """Room for ``n`` tugs."""
        if n > len(self.free_ids):
            self.heap.grow(2 * n)
            for name in ("free_ids", "round_ids"):
                new = np.zeros(2 * n, dtype=np.int64)
                new[: len(getattr(self, name))] = getattr(self, name)
                setattr(self, name, new)

    def free(self) -> list[int]:
        return self.free_ids[: self.I[c.I_FREE_N]].tolist()

    def set_free(self, ids: list[int]) -> None:
        self.free_ids[: len(ids)] = ids
        self.I[c.I_FREE_N] = len(ids)

    def new_round(self) -> None:
        """The next dispatch round runs even if no bag changed (tugs became free)."""
        self.I[c.I_ROUND_VERSION] = -1

    def schedule(self, t: float, kind: int, k: int) -> None:
        self.I[c.I_SEQ] += 1
        self.heap.push(t, int(self.I[c.I_SEQ]), kind, k)

    def drive_on(self, sim, k: int, path: np.ndarray, target: int) -> None:
        """Tug ``k`` drives ``path`` (given) to ``target`` from now."""
        self._sync_in(sim, False)
        while start_leg_of(k, path, target, self.state(sim)) == c.WIDEN:
            sim.tug_table.widen(int(self.I[c.I_ARG]))

    # -- stepping ------------------------------------------------------------------------------
    def run(self, sim, t_end: float, check: bool) -> None:
        """Everything due up to ``t_end`` (``Simulation.run_until``)."""
        while True:
            self._sync_in(sim, check)
            code = advance(self.state(sim), t_end)
            self._sync_out(sim)
            if code == c.END:
                return
            self._answer(sim, code)

    def _answer(self, sim, code: int) -> None:
        I, tt = self.I, sim.tug_table
        if code == c.SAMPLE:
            sim.sample_up_to(float(self.F[c.F_CUR]))
        elif code == c.PLAN:
            tt.plan_kind[:] = c.PLAN_NONE
            ids = self.round_ids[: I[c.I_ROUND_N]].tolist()
            d = sim.dispatcher
            for k in d.plan(sim, [sim.tugs[k] for k in ids]):
                tt.plan_kind[k] = c.PLAN_IDLE
            for k, (p, bags) in d.planned.items():
                self._plan_job(tt, k, p, bags)
            d.planned = {}
        elif code == c.REFRESH:
            sim.tables.refresh(sim.t, sim.pickups.live, sim.pickups.version)
            self.have_from[:] = False
            self.have_to[:] = False
        elif code == c.TIED:
            k = int(I[c.I_CONT_TUG])
            tug = sim.tugs[k]
            room = int(tug.capacity - sim.bags.on_tug[k])
            job = sim.dispatcher.best_job_tied(sim, tug, room)
            if job is None:
                tt.plan_kind[k] = c.PLAN_NOJOB
            else:
                self._plan_job(tt, k, *job)
        elif code == c.NEED_FROM:
            s = int(I[c.I_ARG])
            keys = sim.tables.keys
            self.from_rows[keys.kidx[s]] = keys.dist(s, np.arange(sim.net.n))
            self.have_from[keys.kidx[s]] = True
        elif code == c.NEED_TO:
            b = int(I[c.I_ARG])
            self.to_rows[b] = sim.tables.keys.dist_to_key(b)
            self.have_to[b] = True
        elif code == c.WIDEN:
            tt.widen(int(I[c.I_ARG]))
        elif code == c.CHECK:
            sim.check()
        else:
            raise RuntimeError(f"the day's loop returned an unknown code {code}")

    @staticmethod
    def _plan_job(tt, k: int, p: int, bags: np.ndarray) -> None:
        tt.plan_kind[k], tt.plan_p[k] = c.PLAN_JOB, p
        tt.set_row("plan", k, bags)

    # -- the arrays ----------------------------------------------------------------------------
    def _sync_in(self, sim, check: bool) -> None:
        I, F, pk, b, tables = self.I, self.F, sim.pickups, sim.bags, sim.tables
        I[c.I_PK_VERSION], I[c.I_PK_PTR], I[c.I_PK_LO], I[c.I_PK_HI] = (
            pk.version, pk.swept_to, pk.free_lo, pk.free_hi)
        F[c.F_NEXT_EXPIRY] = pk.next_expiry
        I[c.I_CREATED], I[c.I_BAGS_VERSION] = b.created, b.version
        F[c.F_T], F[c.F_NEXT_SAMPLE] = sim.t, sim.next_sample
        F[c.F_TICK], F[c.F_INTERVAL] = sim.config.dispatch_tick_s, tables.policy.interval
        I[c.I_BAG_VERSION] = -1 if tables.bag_version is None else tables.bag_version
        F[c.F_BAG_TIME] = tables.bag_time
        I[c.I_SOLVED] = tables.keys.solved
        I[c.I_FROM_TUGS] = tables.engine == FROM_TUGS
        I[c.I_CHECK] = check
        d = sim.dispatcher
        I[c.I_POLICY] = c.POLICY_IDS[d.name]
        PR = self.PR
        PR[c.P_CANDIDATES] = getattr(d, "candidates", 8)
        PR[c.P_REWARD] = getattr(d, "reward_s", 0.0)
        PR[c.P_SLACK] = getattr(d, "slack_weight", 0.0)
        PR[c.P_BAG_ROUTES] = getattr(d, "bag_routes", False)
        PR[c.P_MARGIN] = getattr(d, "margin_s", 0.0)
        PR[c.P_DETOUR] = getattr(d, "detour_s", 0.0)
        PR[c.P_BONUS] = getattr(d, "bag_bonus_s", 0.0)
        PR[c.P_COLLECT] = getattr(d, "collect_on_the_way", False)

    def _sync_out(self, sim) -> None:
        I, F, pk, b = self.I, self.F, sim.pickups, sim.bags
        pk.version, pk.swept_to, pk.free_lo, pk.free_hi = (
            int(I[c.I_PK_VERSION]), int(I[c.I_PK_PTR]), int(I[c.I_PK_LO]), int(I[c.I_PK_HI]))
        pk.next_expiry = float(F[c.F_NEXT_EXPIRY])
        b.created, b.version = int(I[c.I_CREATED]), int(I[c.I_BAGS_VERSION])
        sim.t = float(F[c.F_T])

    def state(self, sim):
        """The tuple ``step.advance`` takes (see its module)."""
        b, pk, tt, tables, net = sim.bags, sim.pickups, sim.tug_table, sim.tables, sim.net
        B = b.arrays()
        P = pk.arrays()
        TG = (tt.node, tt.target, tt.activity, tt.busy_until, tt.distance_m, tt.busy_s,
              tt.retired, tt.carts, tt.capacity, sim.capacities, tt.path, tt.times, tt.path_len,
              tt.times_len, tt.pickup, tt.pickup_len, tt.load, tt.load_len, tt.plan_kind,
              tt.plan_p, tt.plan, tt.plan_len)
        router = tables.plain_routes
        R = (net.indptr, net.indices, net.seconds, net.length_m, tables.plain, tables.plain_s,
             router.w, router.dist_to, sim.pickable)
        D = (sim.ready, sim.deadlines, sim.deadline_order, self.free_ids, self.round_ids,
             ORDERS, ORDERS_AT)
        return (B, P, TG, self.heap.arrays(), R, self._keys(sim), D, self.I, self.F, self.PR)

    def _keys(self, sim):
        k = sim.tables.keys
        from_tugs = sim.tables.engine == FROM_TUGS
        if from_tugs and self._rows_of is not k:   # a new KeyGraph (a road edit): new rows
            nk = len(k.key_nodes)
            self._rows_of = k
            self.from_rows = np.zeros((nk, sim.net.n))
            self.to_rows = np.zeros((nk, nk))
            self.have_from = np.zeros(nk, dtype=np.bool_)
            self.have_to = np.zeros(nk, dtype=np.bool_)
        if not k.solved:
            w, dist_to, dk, first, last = np.zeros(1), _F2, _C2, _I2, _I2
        elif from_tugs:
            w, dist_to, dk, first, last = k.k_w, _F2, _C2, k.first, k.last
        else:
            w, dist_to, dk, first, last = k.k_routes.w, k.k_routes.dist_to, k.dk, k.first, k.last
        return (k.kidx, k.k_indptr, k.k_indices, w, dist_to, first, last, k.kj_j, k.jk_j,
                k.jk_row, k.j_indptr, k.j_indices, k.j_w, k.dj_to, k.key_nodes, k.junctions, dk,
                self.from_rows, self.have_from, self.to_rows, self.have_to)
