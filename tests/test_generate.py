"""Synthetic airports for scaling studies: any size, same seed same file."""

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from engine.airport.cost import edge_arrays
from engine.airport.generate import generate_airport
from engine.airport.layout_io import airport_from_dict, airport_to_dict, dumps_airport


@pytest.mark.parametrize("gates", [1, 3, 24, 250])
def test_generated_airport_has_the_gates_asked_for_and_is_valid(gates):
    a = generate_airport(gates, seed=11)
    assert len(a.gates()) == gates
    assert a.sorts() and a.depots() and a.fleets
    assert airport_from_dict(airport_to_dict(a)) == a      # passes every check of a file


@pytest.mark.parametrize("gates", [3, 120])
def test_every_node_can_reach_every_other(gates):
    e = edge_arrays(generate_airport(gates, seed=5))
    g = csr_matrix((np.ones(len(e.src)), (e.src, e.dst)), shape=(e.n, e.n))
    assert connected_components(g, directed=True, connection="strong")[0] == 1


def test_same_seed_gives_byte_identical_files():
    assert dumps_airport(generate_airport(60, seed=42)) == dumps_airport(generate_airport(60, seed=42))


def test_different_seeds_give_different_airports():
    assert dumps_airport(generate_airport(60, seed=1)) != dumps_airport(generate_airport(60, seed=2))


def test_scales_to_tens_of_thousands_of_nodes():
    a = generate_airport(1500, seed=0)
    assert len(a.nodes) > 10_000
    assert len({n.id for n in a.nodes}) == len(a.nodes)


def test_zero_gates_is_refused():
    with pytest.raises(ValueError):
        generate_airport(0, seed=0)
