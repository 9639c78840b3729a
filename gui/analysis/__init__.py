"""The layout analysis window: minimum service roads and bridges."""
