"""`python main.py airport check|generate`: summaries, problems and exit codes."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from engine.airport.layout_io import bundled_airports

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bagroute_main", REPO / "main.py")
_main = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_main)
main = _main.main


def test_check_good_files_prints_a_summary_each_and_exits_0(capsys):
    files = [str(p) for p in bundled_airports().values()]
    assert main(["airport", "check", *files]) == 0
    out = capsys.readouterr().out
    assert out.count(": OK") == len(files)
    assert "225 gates" in out and "paper-5" in out


def test_check_bad_file_prints_every_problem_and_exits_status_2(tmp_path, capsys):
    doc = json.loads(bundled_airports()["paper-5"].read_text(encoding="utf-8"))
    doc["roads"].append({"a": "A1", "b": "A9", "length_m": 1, "seconds": 1})
    doc["nodes"][0]["kind"] = "hangar"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["airport", "check", str(bundled_airports()["paper-5"]), str(bad)]) == 2
    captured = capsys.readouterr()
    assert "paper-5.json: OK" in captured.out
    assert f"{bad}: road #9 (A1 -> A9): unknown node 'A9'" in captured.err
    assert f"{bad}: node #1 ('A1'): bad kind 'hangar'" in captured.err


def test_check_malformed_json_names_the_line(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text('{"name": "x",\n "nodes": [}\n', encoding="utf-8")
    assert main(["airport", "check", str(bad)]) == 2
    assert f"{bad}: line 2, column 12: malformed JSON" in capsys.readouterr().err


def test_generate_writes_a_file_that_checks_and_is_the_same_for_the_same_seed(tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert main(["airport", "generate", "--gates", "30", "--seed", "7", "-o", str(one)]) == 0
    assert main(["airport", "generate", "--gates", "30", "--seed", "7", "-o", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert main(["airport", "check", str(one)]) == 0


def test_generate_graphml_checks_too(tmp_path):
    out = tmp_path / "g.graphml"
    assert main(["airport", "generate", "--gates", "5", "--seed", "1", "-o", str(out)]) == 0
    assert main(["airport", "check", str(out)]) == 0


def test_generate_refuses_zero_gates(tmp_path):
    assert main(["airport", "generate", "--gates", "0", "-o", str(tmp_path / "x.json")]) == 2


def test_command_line_runs_without_qt(tmp_path):
    code = ("import sys, main; rc = main.main(['airport', 'check', 'airports/paper-5.json']); "
            "assert 'PySide6' not in sys.modules; sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
