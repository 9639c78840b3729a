"""The day's event loop as one compiled function: ``advance(S, t_end)`` does everything due up
to ``t_end`` in ``Simulation``'s order — per due time a KPI sample, bags becoming ready, live
bags expiring, tug events in (time, sequence) order, deadlines passing, a dispatch round — and
returns ``END``, or earlier with the code of what Python must do first (a sample, the fleet's
round plan, a bag-aware solve, ...; ``codes``). Where it stopped is kept in the int slots (phase,
continuation, the round's position), so calling it again goes on exactly there.

``S`` = (B, P, TG, H, R, K, D, I, F, PR): bags, pickups, tugs, event heap, road tables,
bag-aware tables, the day's lists (ready and deadline times, deadline order, free tugs, the
round's tugs, the fleet's stand orders), int and float slots, the policy's settings
(``driver.DayLoop.state`` builds it).
"""

from __future__ import annotations

import numba

from .codes import (ARRIVE, C_DISPATCH, C_NONE, CHECK, END, F_CUR, F_NEXT_EXPIRY, F_NEXT_ROUND,
                    F_NEXT_SAMPLE, F_T, F_TICK, FLEET, I_CHECK, I_CONT, I_CONT_TARGET,
                    I_CONT_TUG, I_DEADLINE_PTR, I_FREE_N, I_PHASE, I_PK_VERSION, I_POLICY,
                    I_READY_PTR, I_ROUND_N, I_ROUND_POS, I_ROUND_VERSION, OK, PH_EVENTS, PH_NEXT,
                    PH_ROUND, PH_SAMPLED, PLAN, PLAN_IDLE, SAMPLE)
from .bagops import expire
from .heap import pop
from .legs import arrive, bags_ready, deadlines_pass, dispatch, done, drive
from .unowned import pack, unpack


@numba.njit(cache=True, nogil=True)
def next_time(S):
    """When something is next due (``Simulation._next_time``)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    t = D[0][I[I_READY_PTR]]
    if H[4][0] and H[0][0] < t:
        t = H[0][0]
    deadline = D[1][I[I_DEADLINE_PTR]]
    if deadline < t:
        t = deadline
    if I[I_FREE_N] and I[I_PK_VERSION] != I[I_ROUND_VERSION]:
        t = min(t, max(F[F_NEXT_ROUND], F[F_T]))
    return t


@numba.njit(cache=True, nogil=True)
def _resume(S):
    """Finish the dispatch or drive a return interrupted."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    kind, k, target = I[I_CONT], I[I_CONT_TUG], I[I_CONT_TARGET]
    I[I_CONT] = C_NONE
    if kind == C_DISPATCH:
        return dispatch(k, S)
    return drive(k, target, S)


@numba.njit(cache=True, nogil=True)
def advance(S, t_end):
    """Everything due up to ``t_end``; see the module's docstring."""
    S = pack(S)   # the loop's functions take this one pointer (``unowned``)
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    while True:
        phase = I[I_PHASE]
        if phase == PH_NEXT:
            t = next_time(S)
            if t > t_end:
                return END
            F[F_CUR] = t
            phase = I[I_PHASE] = PH_SAMPLED
            if F[F_NEXT_SAMPLE] <= t:
                return SAMPLE
        t = F[F_CUR]
        if phase == PH_SAMPLED:
            F[F_T] = t
            if D[0][I[I_READY_PTR]] <= t:
                bags_ready(t, S)
            if F[F_NEXT_EXPIRY] < t:
                expire(t, B, P, I, F)
            phase = I[I_PHASE] = PH_EVENTS
        if phase == PH_EVENTS:
            if I[I_CONT] != C_NONE:
                code = _resume(S)
                if code != OK:
                    return code
            while H[4][0] and H[0][0] <= t:
                _, _, kind, k = pop(H[0], H[1], H[2], H[3], H[4])
                if kind == ARRIVE:
                    arrive(k, S)
                else:
                    code = done(k, S)
                    if code != OK:
                        return code
            if D[1][I[I_DEADLINE_PTR]] <= t:
                deadlines_pass(t, S)
            if not (I[I_FREE_N] and t >= F[F_NEXT_ROUND]
                    and I[I_PK_VERSION] != I[I_ROUND_VERSION]):
                I[I_PHASE] = PH_NEXT
                if I[I_CHECK]:
                    return CHECK
                continue
            I[I_ROUND_VERSION] = I[I_PK_VERSION]
            n = I[I_ROUND_N] = I[I_FREE_N]
            D[4][:n] = D[3][:n]
            I[I_FREE_N] = 0
            I[I_ROUND_POS] = 0
            I[I_PHASE] = PH_ROUND
            if I[I_POLICY] == FLEET:
                return PLAN
        # a dispatch round: each free tug in turn, those the plan leaves idle stay free
        if I[I_CONT] != C_NONE:
            code = _resume(S)
            if code != OK:
                return code
            I[I_ROUND_POS] += 1
        plan_kind = TG[18]
        while I[I_ROUND_POS] < I[I_ROUND_N]:
            k = D[4][I[I_ROUND_POS]]
            if I[I_POLICY] == FLEET and plan_kind[k] == PLAN_IDLE:
                D[3][I[I_FREE_N]] = k
                I[I_FREE_N] += 1
            else:
                code = dispatch(k, S)
                if code != OK:
                    return code
            I[I_ROUND_POS] += 1
        F[F_NEXT_ROUND] = t + F[F_TICK]
        I[I_PHASE] = PH_NEXT
        if I[I_CHECK]:
            return CHECK
