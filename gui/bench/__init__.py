"""The benchmark window: time chosen variants of any problem, plot them, save or open results."""

from .window import BenchWindow  # noqa: F401
