"""The tests' own home: HOME, the XDG folders and Hypothesis' storage point into a temporary folder
for the whole run, so no test writes the user's settings (~/.config/BagRoute), caches
(~/.cache/bagroute) or the current folder; and a watch on this process's own writes (an audit
hook: what other programs on the machine write does not count) that lists any write there."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REAL_HOME = os.path.realpath(os.path.expanduser("~"))
REAL_CWD = os.path.realpath(os.getcwd())
# Python's bytecode and pytest's cache are the tools' own, not the tests'.
TOOLS_OWN = {"__pycache__", ".pytest_cache"}
# event -> (the written path's argument, the argument of the folder it is relative to, if any)
WRITE_EVENTS = {"os.mkdir": (0, 2), "os.rename": (1, 3), "os.replace": (1, 3), "os.remove": (0, 1),
                "os.rmdir": (0, 1), "os.symlink": (1, 2), "os.link": (1, 3), "os.truncate": (0, None),
                "shutil.rmtree": (0, 1)}
test_home: str | None = None     # set by redirect_home
written: list[str] = []          # the user's paths this process wrote (should stay empty)


def redirect_home() -> str:
    """Point HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_DATA_HOME and Hypothesis' storage at a new
    temporary folder (before Qt or any library reads them) and start watching this process's
    writes, once per process; the folder."""
    global test_home
    if test_home is not None:
        return test_home
    test_home = os.path.realpath(tempfile.mkdtemp(prefix="bagroute-tests-home-"))
    for var, sub in (("HOME", ""), ("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                     ("XDG_DATA_HOME", ".local/share"),
                     ("HYPOTHESIS_STORAGE_DIRECTORY", ".hypothesis")):
        os.environ[var] = os.path.join(test_home, sub)
    sys.addaudithook(_heard)
    return test_home


def is_users(path: str) -> bool:
    """Whether ``path`` is the user's (under the real home or the current folder) and not the
    tests' own (their home, the temporary folder) nor the tools' (bytecode, pytest's cache). The
    current folder counts as the user's even where it lies in the temporary folder (a clone in
    /tmp, as CI may make)."""
    p = os.path.realpath(path)

    def under(root) -> bool:
        return p == root or p.startswith(root + os.sep)

    if (test_home and under(test_home)) or TOOLS_OWN & set(Path(p).parts):
        return False
    if under(REAL_CWD):
        return True
    return not under(os.path.realpath(tempfile.gettempdir())) and under(REAL_HOME)


def _heard(event: str, args) -> None:
    if event == "open":
        path, mode, flags = args
        writes = (any(c in mode for c in "wax+") if isinstance(mode, str)
                  else bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT)))
    elif event in WRITE_EVENTS:
        at, folder_at = WRITE_EVENTS[event]
        path, writes = args[at], True
        folder = args[folder_at] if folder_at is not None and folder_at < len(args) else None
        if isinstance(folder, int) and folder >= 0 and isinstance(path, (str, bytes)):
            try:   # relative to an open folder (shutil.rmtree, TemporaryDirectory's cleanup)
                path = os.path.join(os.readlink(f"/proc/self/fd/{folder}"), os.fsdecode(path))
            except OSError:
                return
    else:
        return
    if writes and isinstance(path, (str, bytes, os.PathLike)):
        path = os.fsdecode(path)
        if is_users(path):
            written.append(f"{event}: {path}")
