"""Menus and toolbar entries as declared actions, registered by id (napari does the same in
``_qt/_qapp_model``): each part says what it offers (``ActionSpec``) and into which menu; the
window builds the menu bar from the declarations, and a part finds an action by its id, never by
the text it shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QStyle

# the menu bar, in order: id -> title
MENUS = {"file": "&File", "edit": "&Edit", "view": "&View", "sim": "&Simulation",
         "route": "&Route", "tools": "&Tools", "help": "&Help"}


@dataclass(frozen=True)
class ActionSpec:
    """One action. ``callback`` gets the checked state when ``checkable`` (``toggled``), nothing
    otherwise (``triggered``). ``menu``: a menu id (``MENUS`` or a registered sub-menu), None for
    an action only the toolbar or a shortcut reaches. ``before``: the id of an action of that
    menu to stand before (default: at the end). ``group``: exclusive with the others of it."""

    id: str
    text: str
    callback: Callable | None = None
    menu: str | None = None
    shortcut: tuple = ()                  # QKeySequence arguments: "Ctrl+E", a StandardKey, …
    icon: QStyle.StandardPixmap | None = None
    tooltip: str | None = None
    checkable: bool = False
    checked: bool = False
    group: str | None = None
    before: str | None = None
    separator: bool = False               # a separator line before it
    window_wide: bool = False             # its shortcut works wherever the focus is


class ActionRegistry:
    """The window's actions and menus by id."""

    def __init__(self, window: QMainWindow, menus: dict[str, str] = MENUS):
        self.window = window
        self._actions: dict[str, QAction] = {}
        self._groups: dict[str, QActionGroup] = {}
        self._menus: dict[str, QMenu] = {}
        for menu_id, title in menus.items():
            self._new_menu(menu_id, title, window.menuBar())

    def menu(self, menu_id: str) -> QMenu:
        return self._menus[menu_id]

    def action(self, action_id: str) -> QAction:
        return self._actions[action_id]

    def ids(self) -> list[str]:
        return list(self._actions)

    def add_menu(self, menu_id: str, title: str, parent: str) -> QMenu:
        """A sub-menu ``menu_id`` at the end of menu ``parent``."""
        return self._new_menu(menu_id, title, self._menus[parent])

    def _new_menu(self, menu_id: str, title: str, parent) -> QMenu:
        """A menu parented to the window, so it lives as long as the window: a menu made by
        ``addMenu(title)`` is left to the bindings, and PySide6 6.9.3 deleted one when the
        wrapper of an action pointing at it went."""
        menu = QMenu(title, self.window)
        parent.addMenu(menu)
        self._menus[menu_id] = menu
        return menu

    def register(self, spec: ActionSpec) -> QAction:
        """Make the QAction of ``spec`` and put it in its menu."""
        icon = self.window.style().standardIcon(spec.icon) if spec.icon is not None else None
        action = QAction(icon, spec.text, self.window) if icon else QAction(spec.text, self.window)
        if spec.shortcut:
            action.setShortcuts([QKeySequence(k) for k in spec.shortcut])
        if spec.tooltip:
            action.setToolTip(spec.tooltip)
        if spec.checkable:
            action.setCheckable(True)
            action.setChecked(spec.checked)
        if spec.callback is not None:
            if spec.checkable and spec.group is None:
                action.toggled.connect(spec.callback)
            else:
                action.triggered.connect(lambda _=False, fn=spec.callback: fn())
        if spec.group is not None:
            self._groups.setdefault(spec.group, QActionGroup(self.window)).addAction(action)
        return self.add(spec.id, action, spec.menu, spec.before, spec.separator,
                        spec.window_wide)

    def add(self, action_id: str, action: QAction, menu: str | None = None,
            before: str | None = None, separator: bool = False,
            window_wide: bool = False) -> QAction:
        """Register an action made elsewhere (e.g. a ``QUndoStack``'s) under ``action_id``."""
        if action_id in self._actions:
            raise ValueError(f"action {action_id!r} is registered twice")
        self._actions[action_id] = action
        if menu is not None:
            target = self._menus[menu]
            anchor = self._actions[before] if before is not None else None
            if separator:
                target.insertSeparator(anchor) if anchor else target.addSeparator()
            target.insertAction(anchor, action) if anchor else target.addAction(action)
        if window_wide:
            self.window.addAction(action)
        return action

    def register_all(self, specs) -> None:
        for spec in specs:
            self.register(spec)
