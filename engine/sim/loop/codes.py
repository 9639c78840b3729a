"""Names the compiled loop and its Python driver share: what ``advance`` returns, where it
stopped (phase, continuation), the slots of its scalar arrays, the policies and their settings."""

# what ``step.advance`` returns: END (nothing due up to t_end), or what Python must do first
OK, END, SAMPLE, PLAN, REFRESH, TIED, NEED_FROM, NEED_TO, WIDEN, CHECK = range(10)
# what to finish on resuming: nothing, ``dispatch(tug)`` from its start, ``drive(tug, target)``
C_NONE, C_DISPATCH, C_DRIVE = range(3)
# where in one due time: next time, after its KPI sample, its tug events, a dispatch round
PH_NEXT, PH_SAMPLED, PH_EVENTS, PH_ROUND = range(4)
# float slots
F_T, F_CUR, F_NEXT_ROUND, F_NEXT_SAMPLE, F_NEXT_EXPIRY, F_BAG_TIME, F_TICK, F_INTERVAL = range(8)
N_F = 8
# int slots
(I_SEQ, I_READY_PTR, I_DEADLINE_PTR, I_ROUND_VERSION, I_PK_VERSION, I_PK_PTR, I_PK_LO, I_PK_HI,
 I_CREATED, I_BAGS_VERSION, I_FREE_N, I_PHASE, I_CONT, I_CONT_TUG, I_CONT_TARGET, I_ROUND_POS,
 I_ROUND_N, I_BAG_VERSION, I_SOLVED, I_ARG, I_POLICY, I_CHECK, I_FROM_TUGS) = range(23)
N_I = 23
# policies (``Dispatcher.name`` -> id)
FLEET, SHORTEST, EDF, BASELINE = range(4)
POLICY_IDS = {"fleet": FLEET, "shortest-path": SHORTEST, "earliest-deadline": EDF,
              "baseline": BASELINE}
# settings of the policy in force (from its Dispatcher's attributes)
P_CANDIDATES, P_REWARD, P_SLACK, P_BAG_ROUTES, P_MARGIN, P_DETOUR, P_BONUS, P_COLLECT = range(8)
N_P = 8
# a tug's plan entry: none, a job (pickup and bags), no job (a tie answered in Python), idle
PLAN_NONE, PLAN_JOB, PLAN_NOJOB, PLAN_IDLE = range(4)
# tug events
ARRIVE, DONE = 0, 1
