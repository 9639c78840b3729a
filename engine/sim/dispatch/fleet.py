"""The fleet-wide, deadline-aware dispatcher (the default): every free tug is assigned at once.

At each dispatch round the free tugs and the open jobs form one assignment problem, solved by
``scipy.optimize.linear_sum_assignment``. A job is the bags waiting at one pickup for one stand
(one cart's load, as bags are sorted by flight), most urgent first. For tug i and job j the
route tables give when the job would be done: drive to the pickup, load, drive to the stand,
unload. A bag whose deadline comes before that would miss with this tug: it is not promised,
and a pair that saves no bag is not allowed (no tug chases a bag it cannot save). The cost of a
pair is the tug time it takes, less a reward per bag saved, plus a charge on the slack of its
most urgent saved bag, so urgent bags go first and full loads beat short trips. Where the tug
stops it fills its other carts with the most urgent bags there. Loaded, it visits its stands in
the order that delivers the most bags on time.
"""

from __future__ import annotations

import itertools

import numba
import numpy as np
from scipy.optimize import linear_sum_assignment

from .pickups import PER_BAG_S, STOP_S, fits_carts, within_carts
from .rules import Dispatcher

_FORBIDDEN = 1e12


class FleetDispatcher(Dispatcher):
    name = "fleet"
    label = "Fleet assignment"
    description = ("All free tugs assigned together on the all-pairs times against each bag's "
                   "deadline: urgent bags first, full carts, no bag chased that cannot be saved.")
    reward_s = 60.0        # a pair costs this many seconds less per bag it saves
    slack_weight = 0.5     # ... and this much more per second of slack of its most urgent bag
    candidates = 40        # jobs per tug in the assignment (the nearest ones)
    bag_routes = True      # empty tugs drive bag-aware routes and collect bags on the way
    margin_s = 60.0        # ... where their promised bags keep this much slack
    detour_s = 20.0        # ... where the bag-aware route is at most this much slower

    def __init__(self):
        self.planned: dict[int, tuple[int, np.ndarray]] = {}   # tug id -> its job this round

    def plan(self, sim, tugs) -> set[int]:
        """Assign the free empty tugs to jobs together (the loop hands out ``planned``).
        Returns the tugs left without a job (they stay idle this round)."""
        self.planned = {}
        tt, on_tug = sim.tug_table, sim.bags.on_tug
        ids = np.array([t.id for t in tugs], dtype=np.int64)   # read as arrays: a round has many
        ids = ids[~tt.retired[ids] & (tt.pickup_len[ids] == 0) & (on_tug[ids] == 0)]
        tugs = [sim.tugs[k] for k in ids.tolist()]
        if len(tugs) < 2:
            return set()
        jobs = _Jobs(sim, int(tt.capacity[ids].max()))
        if jobs.n:
            cost, done = self._costs(sim, ids, jobs)
            rows, cols = linear_sum_assignment(cost)
            for i, j in zip(rows.tolist(), cols.tolist()):
                if cost[i, j] < _FORBIDDEN:
                    self.planned[tugs[i].id] = (int(jobs.p[j]),
                                                jobs.saved(j, done[i, j], tugs[i]))
        return {t.id for t in tugs} - self.planned.keys()

    def best_job_tied(self, sim, tug, room: int):
        """The cheapest job for one tug where ``np.argpartition`` picks among tied pickups or
        jobs (the compiled loop's ``one_job`` answers every other case and returns here for
        these)."""
        jobs = _Jobs(sim, tug.capacity, self._near(sim, tug.node))
        if not jobs.n:
            return None
        plain_s = sim.tables.plain_s
        drive = plain_s[tug.node, jobs.p]
        keep, unique = _smallest(drive, self.candidates)
        if not unique:
            keep = _nearest(drive[None, :], self.candidates)[0]
        j, done = _best_pair(plain_s, tug.node, jobs.p, jobs.d, keep, room, jobs.start,
                             jobs.end, jobs.deadline, sim.t, self.reward_s, self.slack_weight)
        if j < 0:
            return None
        ids = jobs.saved(j, done, tug)
        return (int(jobs.p[j]), ids) if len(ids) else None

    def _near(self, sim, s: int) -> np.ndarray:
        """The ``candidates`` pickups nearest to ``s`` where bags wait, as a node mask: its
        ``candidates`` nearest jobs are there, so no other bag need be sorted."""
        cands = sim.pickups.live_nodes()
        near = np.zeros(len(sim.pickable), dtype=bool)
        if len(cands) > self.candidates:
            d = sim.tables.plain_s[s, cands]
            keep, unique = _smallest(d, self.candidates)
            cands = (cands[keep] if unique
                     else cands[np.argpartition(d, self.candidates - 1)[: self.candidates]])
        near[cands] = True
        return near

    def _costs(self, sim, ids: np.ndarray, jobs: _Jobs):
        """Cost and completion time of each (tug ``ids``, job) pair."""
        plain_s, tt = sim.tables.plain_s, sim.tug_table
        room = tt.capacity[ids] - sim.bags.on_tug[ids]
        drive = plain_s[tt.node[ids][:, None], jobs.p]
        keep = _nearest(drive, self.candidates)
        return _pair_costs(drive, keep, room, plain_s[jobs.p, jobs.d], jobs.start, jobs.end,
                           jobs.deadline, sim.t, self.reward_s, self.slack_weight)


@numba.njit(cache=True, nogil=True)
def stops_on(path, promised, dest, deadline, plain_s, handling, live, pickable):
    """For the fleet's stop on the way (``loop.policies``): the least slack of the promised bags
    when the tug goes straight to its pickup (the path's end) and on to their stands, and the
    path's inner nodes where live bags wait."""
    p = path[-1]
    slack = np.inf
    for b in promised:
        slack = min(slack, deadline[b] - (plain_s[p, dest[b]] + handling))
    stops = np.empty(path.shape[0], dtype=np.int64)
    m = 0
    for q in path[1:-1]:
        if live[q] > 0 and pickable[q]:
            stops[m] = q
            m += 1
    return slack, stops[:m].copy()


# every visiting order of k = 1-4 stands: rows ORDERS_AT[k - 1] to ORDERS_AT[k], k columns used
ORDERS = np.array([p + (0,) * (4 - k) for k in range(1, 5)
                   for p in itertools.permutations(range(k))], dtype=np.int64)
ORDERS_AT = np.cumsum([0, 1, 2, 6, 24])


@numba.njit(cache=True, nogil=True)
def first_stand(ids, dest, deadline, plain_s, at, now, orders, orders_at):
    """The fleet's delivery: the first stand of the visiting order (of up to 4 stands) that
    delivers the most bags on time, then soonest; more than 4 stands: the nearest; -1: none."""
    alive = ids[deadline[ids] >= now + plain_s[at, dest[ids]] + STOP_S]
    if alive.shape[0] == 0:
        return -1
    alive = alive[np.argsort(deadline[alive], kind="mergesort")]
    alive = alive[np.argsort(dest[alive], kind="mergesort")]   # by stand, then deadline
    d = dest[alive]
    starts = [0]
    for i in range(1, d.shape[0]):
        if d[i] != d[i - 1]:
            starts.append(i)
    k = len(starts)
    starts.append(d.shape[0])
    if k > 4:
        best = -1
        for s in starts[:-1]:
            if best < 0 or plain_s[at, d[s]] < plain_s[at, best]:
                best = d[s]
        return best
    dl = deadline[alive]
    best, best_on, best_t = -1, -1, np.inf
    for r in range(orders_at[k - 1], orders_at[k]):
        t, u, on = now, at, 0
        for c in range(k):
            lo, hi = starts[orders[r, c]], starts[orders[r, c] + 1]
            t += plain_s[u, d[lo]] + STOP_S + PER_BAG_S * (hi - lo)
            on += hi - lo - np.searchsorted(dl[lo:hi], t)
            u = d[lo]
        if on > best_on or (on == best_on and t < best_t):
            best, best_on, best_t = d[starts[orders[r, 0]]], on, t
    return best


class _Jobs:
    """The open jobs: free waiting bags that some tug could still save, grouped by (pickup,
    stand), most urgent first, split into loads of at most ``size`` bags."""

    def __init__(self, sim, size: int, near: np.ndarray | None = None):
        """``near``: a node mask; only bags waiting there (default: anywhere)."""
        pk, b = sim.pickups, sim.bags
        at = sim.pickable if near is None else sim.pickable & near
        self.ids, self.deadline, self.start, self.end, self.p, self.d = _group(
            pk.free(), b.node, b.set.dest, b.set.deadline, pk.ldt, at, sim.t + STOP_S,
            max(size, 1))
        self.n = len(self.start)
        self.sim = sim

    def saved(self, j: int, done: float, tug) -> np.ndarray:
        """Job ``j``'s bags that make their deadline when the job is done at ``done``."""
        lo, hi = self.start[j], self.end[j]
        ids = self.ids[lo:hi][self.deadline[lo:hi] >= done]
        return within_carts(self.sim, tug, ids)[: tug.capacity - self.sim.bags.on_tug[tug.id]]


@numba.njit(cache=True, nogil=True)
def _group(free, node, dest, deadline, ldt, at, earliest, size):
    """The bags of ``free`` waiting ``at`` a node that can leave by ``earliest``, sorted by
    (pickup, stand, deadline, id), where each job starts and ends (a new (pickup, stand), or
    every ``size`` bags of one) and its pickup and stand."""
    ids = np.empty(free.shape[0], dtype=np.int64)
    m = 0
    for b in free:   # one pass: the free bags are thousands, the jobs' bags a few
        if at[node[b]] and ldt[b] >= earliest:
            ids[m] = b
            m += 1
    ids = ids[:m]
    ids = ids[np.argsort(deadline[ids], kind="mergesort")]
    key = node[ids] * at.shape[0] + dest[ids]      # at: one entry per node
    order = np.argsort(key, kind="mergesort")
    ids, key = ids[order], key[order]
    start = np.empty(ids.shape[0], dtype=np.int64)
    n, rank = 0, 0
    for i in range(ids.shape[0]):
        rank = 0 if i == 0 or key[i] != key[i - 1] else rank + 1
        if rank % size == 0:
            start[n] = i
            n += 1
    start = start[:n].copy()
    end = np.empty(n, dtype=np.int64)
    end[:-1] = start[1:]
    if n:
        end[-1] = ids.shape[0]
    return ids, deadline[ids], start, end, node[ids[start]], dest[ids[start]]


def _nearest(drive: np.ndarray, k: int) -> np.ndarray:
    """Per tug, the ``k`` jobs nearest to it (all of them when there are no more)."""
    if drive.shape[1] <= k:
        return np.ones(drive.shape, dtype=np.bool_)
    kth = np.argpartition(drive, k - 1, axis=1)[:, :k]
    keep = np.zeros(drive.shape, dtype=np.bool_)
    np.put_along_axis(keep, kth, True, axis=1)
    return keep


@numba.njit(cache=True, nogil=True)
def _smallest(d, k):
    """A mask of the ``k`` smallest of ``d`` (all when there are no more), and whether no tie
    straddles the k-th (else ``np.argpartition`` decides which of the tied ones are kept)."""
    keep = np.ones(d.shape[0], dtype=np.bool_)
    if d.shape[0] <= k:
        return keep, True
    kth = np.sort(d)[k - 1]
    below = at = 0
    for x in d:
        below += x < kth
        at += x == kth
    for i in range(d.shape[0]):
        keep[i] = d[i] <= kth
    return keep, below + at == k


@numba.njit(cache=True, nogil=True, inline="always")
def _pair(drive, deliver, room, start, end, deadline, now, reward, slack_weight):
    """Cost and completion time of one (tug, job) pair: (``_FORBIDDEN``, inf) where it saves
    none."""
    if not np.isfinite(drive + deliver):
        return _FORBIDDEN, np.inf
    size = min(end - start, room)
    handling = 2.0 * (STOP_S + PER_BAG_S * size)
    t = now + drive + deliver + handling
    first = start + np.searchsorted(deadline[start:end], t)
    saved = min(end - first, room)
    if saved <= 0:
        return _FORBIDDEN, np.inf
    return (t - now) - reward * saved + slack_weight * (deadline[first] - t), t


@numba.njit(cache=True, nogil=True)
def _pair_costs(drive, keep, room, deliver, start, end, deadline, now, reward, slack_weight):
    """Cost and completion time of every (tug, job) pair (``_FORBIDDEN`` where it saves none
    or is not a candidate)."""
    nt, nj = drive.shape
    cost = np.full((nt, nj), _FORBIDDEN)
    done = np.full((nt, nj), np.inf)
    for i in range(nt):
        for j in range(nj):
            if keep[i, j]:
                cost[i, j], done[i, j] = _pair(drive[i, j], deliver[j], room[i], start[j],
                                               end[j], deadline, now, reward, slack_weight)
    return cost, done


_NONE_FOUND, JOB_FOUND, JOB_TIED = 0, 1, 2


@numba.njit(cache=True, nogil=True)
def one_job(live_nodes, free, pickable, plain_s, s, k, node, dest, deadline, ldt, earliest,
            size, room, carried, carts, now, reward, slack_weight):
    """The fleet's job for one tug in one pass: (status, pickup, bags), status ``JOB_TIED``
    (nothing decided) where a tie straddles the ``k``-th nearest pickup or job."""
    none = np.empty(0, dtype=np.int64)
    near = live_nodes
    if near.shape[0] > k:
        keep, unique = _smallest(plain_s[s, near], k)
        if not unique:
            return JOB_TIED, -1, none
        near = near[keep]
    at = np.zeros(pickable.shape[0], dtype=np.bool_)
    for q in near:
        at[q] = pickable[q]
    ids, dl, start, end, p, d = _group(free, node, dest, deadline, ldt, at, earliest, size)
    if not start.shape[0]:
        return _NONE_FOUND, -1, none
    drive = np.empty(p.shape[0])
    for j in range(p.shape[0]):
        drive[j] = plain_s[s, p[j]]
    keep, unique = _smallest(drive, k)
    if not unique:
        return JOB_TIED, -1, none
    j, done = _best_pair(plain_s, s, p, d, keep, room, start, end, dl, now, reward,
                         slack_weight)
    if j < 0:
        return _NONE_FOUND, -1, none
    saved = ids[start[j]:end[j]][dl[start[j]:end[j]] >= done]
    if carts and saved.shape[0]:
        saved = saved[fits_carts(dest[saved], carried, carts)]
    saved = saved[:room].copy()
    return (JOB_FOUND if saved.shape[0] else _NONE_FOUND), p[j], saved


@numba.njit(cache=True, nogil=True)
def _best_pair(plain_s, s, p, d, keep, room, start, end, deadline, now, reward, slack_weight):
    """One tug at ``s``: the first cheapest kept job that saves a bag and its completion time
    (-1 where none does), as ``_pair_costs`` and an argmin would give."""
    best, best_cost, best_done = -1, _FORBIDDEN, np.inf
    for j in range(p.shape[0]):
        if keep[j]:
            c, t = _pair(plain_s[s, p[j]], plain_s[p[j], d[j]], room, start[j], end[j],
                         deadline, now, reward, slack_weight)
            if c < best_cost:
                best, best_cost, best_done = j, c, t
    return best, best_done
