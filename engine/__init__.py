"""BagRoute engine: layouts, cost model, all-pairs shortest paths, simulation. Never imports Qt."""
