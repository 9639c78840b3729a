"""What the project's TOML files share (sweep files, scenario files): reading one into a dict
with a clear error, the checks of a value's type, and where a named layout lives."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from .airport.layout_io import bundled_airports
from .input_error import InputError

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib


def read_toml(path: Path, error=InputError) -> dict:
    """The decoded TOML document in ``path``; ``error(path, [...])`` when it cannot be read."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(path, ["the file: does not exist"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(path, [f"the file: cannot be read as UTF-8 text ({exc})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise error(path, [f"the file: malformed TOML: {exc}"]) from None
    except RecursionError:
        raise error(path, ["the file: nested too deeply to read"]) from None


def top_tables(data: dict, names: tuple[str, ...], expected: str, p: list,
               also: tuple[str, ...] = ()) -> list[dict]:
    """The tables ``names`` of a document (empty where absent), each problem to ``p``: a key
    that is none of them nor of ``also`` (checked by the caller), or one that is not a table."""
    for key in sorted(set(data) - set(names) - set(also)):
        p.append(f"top level: unknown table or key {key!r} (expected {expected})")
    out = []
    for name in names:
        table = data.get(name, {})
        if not isinstance(table, dict):
            p.append(f"top level: {name!r} must be a table [{name}]")
            table = {}
        out.append(table)
    return out


def layout_path(value: str, toml_path: Path) -> Path:
    """A bundled airport's file, else ``value`` as a path relative to the TOML file's folder."""
    bundled = bundled_airports()
    if value in bundled:
        return bundled[value]
    return (toml_path.parent / value).resolve()


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def is_text(v) -> bool:
    return isinstance(v, str) and bool(v.strip())
