"""CI's lower-bound pass installs .ci/lower-bounds.txt: each pin there is the lower bound that
pyproject.toml declares, so the pass tests the range's real floor."""

from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:   # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, Version]:
    lines = (ROOT / ".ci" / "lower-bounds.txt").read_text().splitlines()
    found = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line:
            name, version = line.split("==")
            found[canonicalize_name(name)] = Version(version)
    return found


def test_every_lower_bound_of_the_project_is_pinned_for_the_lower_bound_pass():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = project["dependencies"] + project["optional-dependencies"]["test"]
    pinned = pins()
    checked = []
    for text in required:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate():
            continue
        floor = [Version(s.version) for s in req.specifier if s.operator == ">="]
        assert floor, f"{text}: no lower bound"
        name = canonicalize_name(req.name)
        assert pinned.get(name) == floor[0], f"{text}: .ci/lower-bounds.txt pins {pinned.get(name)}"
        checked.append(name)
    assert {"pyside6-essentials", "numpy", "numba", "scipy", "pandas", "dask"} <= set(checked)
