"""The airport map: the view and its layers (tugs, what-if closures)."""
