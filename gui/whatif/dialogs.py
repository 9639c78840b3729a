"""The questions the what-if part asks: whether a restart replays the day's edits, whether
opening another airport may drop them, and whether to move a closed gate's flights onto a gate
whose own flights overlap them."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

REPLAY, DISCARD, SAVE = "replay", "discard", "save"


def restart_box(parent: QWidget, edits: list[str]) -> QMessageBox:
    """The question before a restart throws away a day with ``edits`` (their texts)."""
    n = len(edits)
    them = "them" if n != 1 else "it"
    box = QMessageBox(QMessageBox.Icon.Question, "Restart the day",
                      f"This day has {n} what-if edit{'s' if n != 1 else ''}. Replay {them} on "
                      f"the new day, at the same simulated times, or discard {them}?",
                      QMessageBox.StandardButton.NoButton, parent)
    shown = edits[:8] + ([f"… and {n - 8} more"] if n > 8 else [])
    box.setInformativeText("\n".join(shown))
    box.replay = box.addButton("Replay edits", QMessageBox.ButtonRole.AcceptRole)
    box.discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    box.cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(box.replay)
    box.setEscapeButton(box.cancel)
    return box


def ask_restart(parent: QWidget, edits: list[str]) -> str | None:
    """``REPLAY``, ``DISCARD`` or None (cancelled)."""
    box = restart_box(parent, edits)
    box.exec()
    clicked = box.clickedButton()
    return REPLAY if clicked is box.replay else DISCARD if clicked is box.discard else None


def leave_box(parent: QWidget, edits: list[str], opening: str) -> QMessageBox:
    """The question before opening ``opening`` drops a day with ``edits`` (their texts)."""
    n = len(edits)
    box = QMessageBox(QMessageBox.Icon.Question, "Open another airport",
                      f"This day has {n} what-if edit{'s' if n != 1 else ''}. Opening {opening} "
                      f"discards {'them' if n != 1 else 'it'} — save them as a scenario first?",
                      QMessageBox.StandardButton.NoButton, parent)
    box.setInformativeText("\n".join(edits[:8] + ([f"… and {n - 8} more"] if n > 8 else [])))
    box.save = box.addButton("Save scenario…", QMessageBox.ButtonRole.AcceptRole)
    box.discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    box.cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(box.save)
    box.setEscapeButton(box.cancel)
    return box


def ask_leave(parent: QWidget, edits: list[str], opening: str) -> str | None:
    """``SAVE``, ``DISCARD`` or None (cancelled)."""
    box = leave_box(parent, edits, opening)
    box.exec()
    clicked = box.clickedButton()
    return SAVE if clicked is box.save else DISCARD if clicked is box.discard else None


def confirm_overlap(parent: QWidget, gate: str, to: str, overlaps: list[str]) -> bool:
    """Move ``gate``'s flights to ``to`` although some overlap ``to``'s own (named)?"""
    box = QMessageBox(QMessageBox.Icon.Warning, "Flights overlap",
                      f"Gate {to} has flights on the ground while {gate}'s would be there:",
                      QMessageBox.StandardButton.NoButton, parent)
    box.setInformativeText("\n".join(overlaps[:8]) + (f"\n… and {len(overlaps) - 8} more"
                                                      if len(overlaps) > 8 else ""))
    move = box.addButton(f"Move to {to} anyway", QMessageBox.ButtonRole.AcceptRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is move
