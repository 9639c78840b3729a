"""Where BagRoute keeps what it remembers between runs (window layout, last airport, choices)."""

from PySide6.QtCore import QSettings

ORGANISATION = "BagRoute"
APPLICATION = "BagRoute"


def app_settings() -> QSettings:
    """The user's settings (QSettings, organisation "BagRoute")."""
    return QSettings(ORGANISATION, APPLICATION)


def file_settings(path) -> QSettings:
    """Settings kept in one INI file: tests and screenshots, never the user's own."""
    return QSettings(str(path), QSettings.Format.IniFormat)
