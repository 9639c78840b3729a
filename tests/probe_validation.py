"""How long ``solve()``'s host work takes: validating and converting the cost matrix
(``to_int32_costs``) and converting the distances back (``to_float_distances``), on the paper's
random graphs, with the serial and the threaded build of each pass. A measuring script, not a
test (pytest does not collect it):

    python -m tests.probe_validation 500 2048 4096
"""
import sys

import numba

from engine.apsp import matrix
from engine.apsp.matrix import to_float_distances, to_int32_costs
from engine.apsp.random_graph import paper_random_graph

from .probe_timing import median_ms


def main(sizes):
    print(f"{numba.get_num_threads()} threads")
    default = matrix.PARALLEL_FROM
    for n in sizes:
        cost = paper_random_graph(n, 15, seed=1)
        costs32 = to_int32_costs(cost)
        for build, threshold in (("serial", 1 << 62), ("threaded", 0)):
            matrix.PARALLEL_FROM = threshold
            print(f"n={n} {build}: to_int32_costs {median_ms(lambda: to_int32_costs(cost), 50):.3f} ms, "
                  f"to_float_distances {median_ms(lambda: to_float_distances(costs32), 50):.3f} ms")
        matrix.PARALLEL_FROM = default


if __name__ == "__main__":
    main([int(n) for n in sys.argv[1:]] or [128, 277, 500, 2048])
