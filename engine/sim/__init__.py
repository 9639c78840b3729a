"""A simulated day of baggage handling: flights, bags, tugs and a dispatcher driven by all-pairs
shortest paths. No Qt: the GUI steps a ``Simulation`` from a worker thread.

    from engine.sim import Simulation, SimConfig
    sim = Simulation(airport, SimConfig(hours=2, seed=1))
    sim.run_until(sim.end_time); sim.kpis()
"""

from .bags import DELIVERED, MISCONNECTED, ON_TUG, STATE_NAMES, WAITING
from .simulation import SimConfig, Simulation

__all__ = ["SimConfig", "Simulation", "WAITING", "ON_TUG", "DELIVERED", "MISCONNECTED",
           "STATE_NAMES"]
