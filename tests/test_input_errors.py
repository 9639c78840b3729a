"""A bad file's report: the first cause and a count when knock-on problems pile up (the full list
on request and on the exception), and a cut-short JSON file said to be cut short."""

import json

import pytest

from engine.airport.layout_io import LayoutError, bundled_airports, load_airport
from main import main


@pytest.fixture
def no_nodes(tmp_path):
    doc = json.loads(bundled_airports()["regional"].read_text())
    del doc["nodes"]
    path = tmp_path / "no-nodes.json"
    path.write_text(json.dumps(doc))
    return path


def test_a_layout_without_nodes_reports_the_first_cause_and_counts_the_rest(no_nodes, capsys):
    with pytest.raises(LayoutError) as err:
        load_airport(no_nodes)
    exc = err.value
    assert exc.problems[0] == "top level: missing 'nodes' (a list)"
    assert len(exc.problems) > 300 and exc.details() == str(exc)   # the list the GUI can show
    assert exc.brief("see all").splitlines() == [
        f"{no_nodes}: top level: missing 'nodes' (a list)",
        f"{no_nodes}: and {len(exc.problems) - 1:,} more problems, often following from the "
        "first; see all"]
    for argv in (["simulate", str(no_nodes)], ["airport", "check", str(no_nodes)]):
        assert main(argv) == 2
        err_lines = capsys.readouterr().err.splitlines()
        assert len(err_lines) == 2 and "--all-errors lists them all" in err_lines[1]
    assert main(["airport", "check", str(no_nodes), "--all-errors"]) == 2
    assert len(capsys.readouterr().err.splitlines()) == len(exc.problems)


def test_a_few_problems_are_all_listed(tmp_path):
    doc = json.loads(bundled_airports()["paper-5"].read_text())
    doc["nodes"][0]["kind"] = "hangar"
    path = tmp_path / "one.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(LayoutError) as err:
        load_airport(path)
    assert err.value.brief("x") == err.value.details()


def test_a_json_file_cut_short_says_so_in_a_whole_sentence(tmp_path):
    text = bundled_airports()["regional"].read_text()
    for cut, expected in ((text[:5000], "a string starts here and never ends (is the file cut "
                                        "short, or a closing quote missing?)"),
                          (text[:text.index('"fleets"') + 10],
                           "Expecting value: the file ends before its JSON does (is it cut "
                           "short?)")):
        path = tmp_path / "cut.json"
        path.write_text(cut)
        with pytest.raises(LayoutError) as err:
            load_airport(path)
        assert err.value.problem.endswith(expected), err.value.problem
