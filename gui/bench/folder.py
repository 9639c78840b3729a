"""Where the benchmark window saves and opens results: the user's data folder for benchmarks
(``~/.local/share/BagRoute/benchmarks``, made when first needed) until the user picks another,
never the current folder. Shown in the window; the choice is kept in the app's settings."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ..settings import data_folder

KEY = "bench/dir"


def default_folder() -> Path:
    return data_folder("benchmarks")


class ResultsFolder(QWidget):
    """"Folder: …" over a Change… button; ``path()`` is the folder, ``ready()`` makes it first."""

    def __init__(self, settings: QSettings, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.change_button = QPushButton("Change…")
        self.change_button.setToolTip("The folder Save and Open start in")
        self.change_button.clicked.connect(self._choose)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.label)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.change_button)
        column.addLayout(row)
        self._show()

    def path(self) -> Path:
        return Path(self.settings.value(KEY, "", type=str) or default_folder())

    def set_path(self, folder) -> None:
        self.settings.setValue(KEY, str(folder))
        self._show()

    def ready(self) -> Path:
        """The folder, made if it is missing (a folder that cannot be made is left to the file
        dialog, which starts elsewhere)."""
        folder = self.path()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            pass
        return folder

    def _choose(self) -> None:
        chosen = QFileDialog.getExistingDirectory(self, "Benchmark results folder",
                                                  str(self.ready()))
        if chosen:
            self.set_path(chosen)

    def _show(self) -> None:
        full = str(self.path())
        home = str(Path.home())
        shown = "~" + full[len(home):] if full.startswith(home + "/") else full
        self.label.setText(f"Folder: {shown}".replace("/", "/\u200b"))   # may wrap after a /
        self.label.setToolTip(full)
