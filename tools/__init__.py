"""Development commands that are not the product: frame-rate, soak and latency measurements,
screenshots. Reached from ``main.py`` sub-commands or ``python -m tools.NAME``; the app never
imports them at start."""
