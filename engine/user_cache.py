"""The user's cache folder for BagRoute: ``$XDG_CACHE_HOME/bagroute`` (else ``~/.cache/bagroute``),
for what is slow to make and safe to lose (compiled GPU kernels, measured variant timings)."""

import os


def cache_folder() -> str:
    """The folder (not created here); the tests point ``XDG_CACHE_HOME`` at their own."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bagroute")
