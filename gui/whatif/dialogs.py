"""The questions the what-if part asks: whether a restart replays the day's edits, whether
opening another airport may drop them, and whether to move a closed gate's flights onto a gate
whose own flights overlap them."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget

REPLAY, DISCARD, SAVE = "replay", "discard", "save"


def edits_box(parent: QWidget, title: str, question: str, edits: list[str], keep: str,
              keep_label: str) -> QMessageBox:
    """A question about a day with ``edits`` (their texts, the first eight shown): its buttons
    are ``box.<keep>`` (``keep_label``, the default), ``box.discard`` and ``box.cancel``."""
    n = len(edits)
    box = QMessageBox(QMessageBox.Icon.Question, title,
                      f"This day has {n} what-if edit{'s' if n != 1 else ''}. {question}",
                      QMessageBox.StandardButton.NoButton, parent)
    box.setInformativeText("\n".join(edits[:8] + ([f"… and {n - 8} more"] if n > 8 else [])))
    setattr(box, keep, box.addButton(keep_label, QMessageBox.ButtonRole.AcceptRole))
    box.discard = box.addButton("Discard", QMessageBox.ButtonRole.DestructiveRole)
    box.cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(getattr(box, keep))
    box.setEscapeButton(box.cancel)
    return box


def ask(box: QMessageBox, keep: str) -> str | None:
    """Show ``box`` (from ``edits_box``): ``keep``, ``DISCARD`` or None (cancelled)."""
    box.exec()
    clicked = box.clickedButton()
    return keep if clicked is getattr(box, keep) else DISCARD if clicked is box.discard else None


def ask_restart(parent: QWidget, edits: list[str]) -> str | None:
    """Before a restart: ``REPLAY`` the edits on the new day, ``DISCARD`` them, or None."""
    them = "them" if len(edits) != 1 else "it"
    return ask(edits_box(parent, "Restart the day", f"Replay {them} on the new day, at the same "
                         f"simulated times, or discard {them}?", edits, REPLAY, "Replay edits"),
               REPLAY)


def ask_leave(parent: QWidget, edits: list[str], opening: str) -> str | None:
    """Before ``opening`` replaces the day: ``SAVE`` the edits as a scenario first, ``DISCARD``
    them, or None (cancelled)."""
    them = "them" if len(edits) != 1 else "it"
    return ask(edits_box(parent, "Open another airport", f"Opening {opening} discards {them} — "
                         f"save {them} as a scenario first?", edits, SAVE, "Save scenario…"), SAVE)


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
