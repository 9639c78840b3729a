"""Where BagRoute keeps what it remembers between runs (window layout, last airport, choices)."""

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

ORGANISATION = "BagRoute"
APPLICATION = "BagRoute"


def app_settings() -> QSettings:
    """The user's settings (QSettings, organisation "BagRoute")."""
    return QSettings(ORGANISATION, APPLICATION)


def file_settings(path) -> QSettings:
    """Settings kept in one INI file: tests and screenshots, never the user's own."""
    return QSettings(str(path), QSettings.Format.IniFormat)


def data_folder(name: str) -> Path:
    """``name`` in the user's data folder for BagRoute (e.g. ~/.local/share/BagRoute/NAME): where
    the app writes what the user did not place elsewhere. Not created here."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base) / APPLICATION / name
