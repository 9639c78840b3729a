"""Files around the window: the recent airports (in the settings and their menu), a file dropped
on the window, saving an export where the user picks, and where an open dialog starts."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from PySide6.QtCore import QSettings, QStandardPaths
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

RECENT_MAX = 8


class RecentFiles:
    """The last airports opened (``recent/files`` in the settings), newest first, as a menu whose
    entries call ``open_fn(path)``."""

    def __init__(self, settings: QSettings, menu: QMenu, open_fn: Callable[[str], object]):
        self.settings, self.menu, self.open_fn = settings, menu, open_fn
        self.fill()

    def files(self) -> list[str]:
        value = self.settings.value("recent/files", [])
        if isinstance(value, str):
            value = [value] if value else []
        return [str(v) for v in (value or [])]

    def remember(self, path) -> None:
        p = str(Path(path).resolve())
        files = [p] + [f for f in self.files() if f != p]
        self.settings.setValue("recent/files", files[:RECENT_MAX])
        self.fill()

    def fill(self) -> None:
        self.menu.clear()
        files = self.files()
        for f in files:
            action = QAction(Path(f).name, self.menu)
            action.setToolTip(f)
            action.setStatusTip(f)
            action.triggered.connect(lambda _=False, p=f: self.open_fn(p))
            self.menu.addAction(action)
        self.menu.setEnabled(bool(files))


def dropped_file(event) -> str | None:
    """The first local file of a drag-and-drop event, or None."""
    md = event.mimeData()
    if md.hasUrls():
        for url in md.urls():
            if url.isLocalFile():
                return url.toLocalFile()
    return None


def save_grab(widget: QWidget, path) -> Path:
    """``widget`` as it is on screen, saved as an image (the format from the suffix)."""
    path = Path(path)
    if not widget.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    return path


def remembered_folder(settings: QSettings, key: str) -> Path | None:
    """The folder kept under ``key`` in the settings, if it is still there."""
    last = settings.value(key, "", type=str)
    return Path(last) if last and Path(last).is_dir() else None


def documents_folder() -> Path:
    """The user's Documents folder where there is one, else the home folder."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(docs) if docs and Path(docs).is_dir() else Path.home()


class OpenFolder:
    """Where one open dialog starts: the folder its last file came from (``key`` in the
    settings), else the user's Documents folder, else the home folder; never the working folder,
    which for a desktop app is wherever it happened to be started."""

    def __init__(self, settings: QSettings, key: str):
        self.settings, self.key = settings, key

    def folder(self) -> Path:
        return remembered_folder(self.settings, self.key) or documents_folder()

    def ask(self, parent: QWidget, title: str, filt: str) -> str:
        """The file the user chose ('' if none); its folder is remembered for next time."""
        path, _ = QFileDialog.getOpenFileName(parent, title, str(self.folder()), filt)
        if path:
            self.settings.setValue(self.key, str(Path(path).resolve().parent))
        return path


class SaveFolder:
    """Where a save dialog starts: the folder last saved to (``files/last_folder`` in the
    settings), else the open layout's folder (``layout_path()``), else the home folder; never
    the working folder, which for a desktop app is wherever it happened to be started."""

    KEY = "files/last_folder"

    def __init__(self, settings: QSettings, layout_path: Callable[[], Path | None]):
        self.settings, self.layout_path = settings, layout_path

    def folder(self) -> Path:
        last = remembered_folder(self.settings, self.KEY)
        if last is not None:
            return last
        layout = self.layout_path()
        return Path(layout).resolve().parent if layout else Path.home()

    def ask(self, parent: QWidget, title: str, name: str, filt: str) -> str:
        """The path the user chose ('' if none), remembered as the last folder."""
        path, _ = QFileDialog.getSaveFileName(parent, title, str(self.folder() / name), filt)
        if path:
            self.settings.setValue(self.KEY, str(Path(path).resolve().parent))
        return path


def export_to_chosen_file(parent: QWidget, status, folder: SaveFolder, write: Callable,
                          title: str, name: str, filt: str) -> None:
    """Ask where to save (``name`` in ``folder``'s choice), ``write(path)`` there and say where it
    went on the status line, or why not."""
    path = folder.ask(parent, title, name, filt)
    if not path:
        return
    try:
        out = write(path)
    except Exception as exc:
        status.error(f"Could not save {Path(path).name}", str(exc))
        return
    status.set(f"Saved {out}")
