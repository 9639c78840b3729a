"""The airport model: the layout (nodes, roads, fleet), its files (JSON, GraphML), the synthetic
generator and the builder of the bundled layouts, and the cost model the routes are solved on."""
