"""Where a command writes when the user named no place: a new folder in the system's temporary
folder (the command prints it), never the current folder or the repository."""

import tempfile
from pathlib import Path


def default_folder(name: str) -> Path:
    """A new, empty folder ``bagroute-NAME-…`` in the temporary folder."""
    return Path(tempfile.mkdtemp(prefix=f"bagroute-{name}-"))
