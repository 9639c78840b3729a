"""Experiments from the app: Tools ▸ Run experiment… (factors × seeds on Dask, opened in the sweep
view with 95% intervals) and the what-if compare over many seeds (paired differences)."""
