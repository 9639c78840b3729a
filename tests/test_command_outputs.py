"""Commands write where the user asked, or, asked nowhere, into a new folder in the temporary
folder that they print: never into the current folder (a clone's root, say)."""

import tempfile
from pathlib import Path

from main import main


def printed_path(out: str, marker: str) -> Path:
    line = next(line for line in out.splitlines() if marker in line)
    return Path(line.split(marker, 1)[1].split()[0])


def test_bench_and_simulate_without_out_write_into_a_temporary_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["bench", "--variants", "cpu-linear", "--sizes", "9", "--no-airports"]) == 0
    bench_json = printed_path(capsys.readouterr().out, "wrote ")
    assert main(["simulate", "paper-5", "--hours", "1", "--variant", "cpu-linear", "--quiet"]) == 0
    kpis = printed_path(capsys.readouterr().out, "KPIs: ")
    temp = Path(tempfile.gettempdir()).resolve()
    for written in (bench_json, kpis):
        assert written.exists() and written.resolve().is_relative_to(temp)
        assert not written.resolve().is_relative_to(tmp_path.resolve())
    assert list(tmp_path.iterdir()) == []     # nothing in the current folder


def test_sweep_without_out_writes_into_a_temporary_folder(tmp_path, monkeypatch, capsys):
    from tests.sweep_tiny import tiny
    sweep_file = tiny(tmp_path)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    assert main(["sweep", str(sweep_file), "--workers", "1", "--quiet"]) == 0
    out = printed_path(capsys.readouterr().out, "results in ")
    assert (out / "runs.csv").exists() and out.name.startswith("bagroute-sweep-tiny-")
    assert out.resolve().is_relative_to(Path(tempfile.gettempdir()).resolve())
    assert list(cwd.iterdir()) == []          # nothing in the current folder
