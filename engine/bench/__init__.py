"""The benchmark: ``apsp`` times and checks one point and writes the report, ``run`` sequences
the points of a run (size ladder, bisection, airports) for the CLI and the benchmark window."""
