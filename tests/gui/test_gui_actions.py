"""Menus are built from declared actions, found by id: a part adds its entries where it says,
never by finding a menu or an entry by its text."""

import pytest
from PySide6.QtWidgets import QMainWindow

from gui.shell.actions import MENUS, ActionRegistry, ActionSpec


@pytest.fixture
def registry(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    return ActionRegistry(window)


def test_menus_come_in_the_declared_order_and_actions_where_they_say(registry):
    calls = []
    registry.register(ActionSpec("file.open", "&Open", lambda: calls.append("open"), "file"))
    registry.register(ActionSpec("file.quit", "&Quit", lambda: calls.append("quit"), "file",
                                 separator=True))
    registry.register(ActionSpec("file.save", "&Save", lambda: calls.append("save"), "file",
                                 before="file.quit"))
    bar = registry.window.menuBar()
    assert [a.text() for a in bar.actions()] == list(MENUS.values())
    assert [a.text() or "---" for a in registry.menu("file").actions()] == \
        ["&Open", "---", "&Save", "&Quit"]
    registry.action("file.save").trigger()
    assert calls == ["save"]


def test_checkable_actions_call_back_with_their_state_and_groups_are_exclusive(registry):
    states, modes = [], []
    registry.register(ActionSpec("sim.race", "Race", states.append, "sim", checkable=True))
    for mode in ("time", "bags"):
        registry.register(ActionSpec(f"route.{mode}", mode, lambda m=mode: modes.append(m),
                                     "route", checkable=True, group="cost"))
    registry.action("sim.race").trigger()
    registry.action("sim.race").trigger()
    registry.action("route.time").trigger()
    registry.action("route.bags").trigger()
    assert states == [True, False] and modes == ["time", "bags"]
    assert not registry.action("route.time").isChecked() and registry.action("route.bags").isChecked()


def test_an_id_is_registered_once(registry):
    registry.register(ActionSpec("help.about", "About", None, "help"))
    with pytest.raises(ValueError, match="help.about"):
        registry.register(ActionSpec("help.about", "About again", None, "help"))


def test_the_window_declares_every_entry_by_id(make_window):
    window = make_window(wait=False)
    ids = window.actions.ids()
    assert {"file.open", "file.save-edited", "file.export-kpis", "edit.undo", "sim.play",
            "sim.race", "route.swap", "route.cost-bags", "tools.layout-analysis",
            "help.about"} <= set(ids)
    file_menu = window.actions.menu("file").actions()
    save = file_menu.index(window.actions.action("file.save-edited"))
    assert file_menu[save + 1] is window.actions.action("file.export-kpis")
