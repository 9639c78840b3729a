"""The tests' own home: HOME, the XDG folders and Hypothesis' storage point into a temporary folder
for the whole run, so no test writes the user's settings (~/.config/BagRoute), caches
(~/.cache/bagroute) or the current folder; ``snapshot`` lets a test check that they stayed as
they were."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

REAL_HOME = Path(os.path.expanduser("~"))
REAL_CWD = Path.cwd()
# What belongs to the user (where the app keeps its settings and caches) and the current folder.
# pytest's own cache and Python's bytecode in the current folder are the tools', not the tests'.
USER_FOLDERS = (REAL_HOME / ".config" / "BagRoute", REAL_HOME / ".cache" / "bagroute",
                REAL_HOME / ".config" / "BagRoute.conf")
TOOLS_OWN = {".pytest_cache", "__pycache__"}
test_home: Path | None = None      # set by redirect_home


def redirect_home() -> Path:
    """Point HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME and Hypothesis' storage at a new
    temporary folder (before Qt or any library reads them), once per process; the folder."""
    global test_home
    if test_home is not None:
        return test_home
    home = test_home = Path(tempfile.mkdtemp(prefix="bagroute-tests-home-"))
    for var, sub in (("HOME", ""), ("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                     ("XDG_DATA_HOME", ".local/share"), ("HYPOTHESIS_STORAGE_DIRECTORY", ".hypothesis")):
        os.environ[var] = str(home / sub)
    return home


def snapshot() -> dict[str, tuple[int, int]]:
    """(size, mtime in ns) of every file under the user's BagRoute folders, and of every entry of
    the current folder (a folder there by its name only: the test tree itself is not watched)."""
    seen = {}
    for folder in USER_FOLDERS:
        paths = folder.rglob("*") if folder.is_dir() else [folder] if folder.exists() else []
        for p in paths:
            st = p.stat()
            seen[str(p)] = (st.st_size, st.st_mtime_ns)
    for p in REAL_CWD.iterdir():
        if p.name not in TOOLS_OWN:
            st = p.stat()
            seen[str(p)] = (st.st_size, st.st_mtime_ns) if p.is_file() else (0, 0)
    return seen


def changes(before: dict, after: dict) -> list[str]:
    """What appeared, went or changed between two snapshots."""
    return sorted(f"{'new' if k not in before else 'gone' if k not in after else 'changed'}: {k}"
                  for k in before.keys() | after.keys() if before.get(k) != after.get(k))
