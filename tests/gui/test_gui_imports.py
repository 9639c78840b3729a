"""File ▸ Import OpenStreetMap… and Import schedule…: the import runs off the UI thread, the
layout opens with its report, the day runs on the imported turns; a bad file is shown and
changes nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog

from gui.shell import imports as import_actions
from gui.shell.files import documents_folder
from tests.gui.conftest import SIM_TIMEOUT_MS
from tests.osm_scene import write_overpass_json

BTS = ("FL_DATE,ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME,TAIL_NUM\n"
       "2024-01-25,ABC,XYZ,0010,0100,N1\n2024-01-25,XYZ,DEF,0200,0400,N1\n"
       "2024-01-25,GHI,XYZ,0030,0130,N2\n")


def test_the_file_menu_has_both_imports(window):
    texts = [a.text() for a in window.menuBar().actions()[0].menu().actions()]
    assert "Import &OpenStreetMap…" in texts and "Import &schedule…" in texts


def test_an_osm_import_opens_the_layout_and_shows_its_report(window, qtbot, tmp_path, monkeypatch):
    source = write_overpass_json(tmp_path / "field.json")
    out = tmp_path / "field-layout.json"
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(source), ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    job = import_actions.choose_osm_file(window)
    qtbot.waitUntil(lambda: job.over, timeout=30_000)
    qtbot.waitUntil(lambda: window.airport_path == out, timeout=10_000)
    assert sorted(n.id for n in window.airport.gates()) == ["A1", "A2", "A3", "B7"]
    assert "Inferred" in window.import_message.detailedText()
    assert out.with_suffix(".import.txt").is_file()


def test_a_bad_osm_file_is_shown_and_changes_nothing(window, qtbot, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"elements": 7}', encoding="utf-8")
    before = window.airport
    job = import_actions.import_osm_file(window, bad, tmp_path / "out.json")
    qtbot.waitUntil(lambda: job.over, timeout=30_000)
    assert job.error.startswith(f"{bad}: top level: not an Overpass answer")
    qtbot.waitUntil(lambda: "Import failed" in window.status_text(), timeout=5_000)
    assert window.airport is before and not (tmp_path / "out.json").exists()


def test_a_bts_schedule_runs_the_day_on_its_turns(sim_window, qtbot, tmp_path):
    path = tmp_path / "bts.csv"
    path.write_text(BTS, encoding="utf-8")
    job = import_actions.import_schedule_file(sim_window, path, "XYZ")
    qtbot.waitUntil(lambda: job.over, timeout=30_000)
    assert job.error is None and len(sim_window.day.day_extra["flights"]) == 2
    qtbot.waitUntil(lambda: sim_window.sim_facts.get("flights") == 2, timeout=SIM_TIMEOUT_MS)
    assert "arr / dep" not in sim_window.import_message.detailedText()
    assert "1 by tail number" in sim_window.import_message.detailedText()


def test_the_import_dialogs_start_in_documents_then_where_their_last_file_came_from(
        window, tmp_path, monkeypatch):
    """Never the working folder: first the user's Documents (else home), then, for each dialog
    on its own, the folder its last file came from, kept in the window's settings (the tests'
    own file). Every dialog is answered here: none opens."""
    maps = tmp_path / "maps"
    maps.mkdir()
    answers, started = ["", str(maps / "field.osm"), "", ""], []

    def open_file(parent, title, folder, filt):
        started.append((title, folder))
        return answers.pop(0), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_file)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: ("", ""))  # no layout saved
    first = str(documents_folder())
    assert import_actions.choose_osm_file(window) is None
    assert started[-1] == ("Import OpenStreetMap", first) and Path(first) != Path.cwd()
    assert import_actions.choose_osm_file(window) is None      # chosen, then not saved: no import
    assert window.settings.value(import_actions.OSM_FOLDER) == str(maps)
    assert import_actions.choose_osm_file(window) is None
    assert started[-1] == ("Import OpenStreetMap", str(maps))
    assert import_actions.choose_schedule_file(window) is None
    assert started[-1] == ("Import schedule", first)           # its own folder, not the map's
    assert answers == []


def test_the_documents_folder_is_used_where_there_is_one(tmp_path, monkeypatch):
    docs = tmp_path / "Documents"
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda where: str(docs))
    assert documents_folder() == Path.home()                  # not made: the home folder
    docs.mkdir()
    assert documents_folder() == docs
