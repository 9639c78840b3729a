"""What the project's TOML files share (sweep files, scenario files): reading one into a dict
with a clear error, the checks of a value's type, where a named layout lives, and writing one."""

from __future__ import annotations

import json
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


def toml_value(v) -> str:
    """A TOML value: text, a whole or decimal number, true/false or a list of them."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    raise TypeError(f"no TOML value for {v!r}")


def toml_text(tables: dict, head: str = "") -> str:
    """A TOML document of ``tables``: {name: {key: value}} tables and {name: {set: [{...}]}}
    arrays of tables (``[[name.set]]``), after the comment lines ``head``."""
    lines = [f"# {line}" for line in head.splitlines()]
    for name, table in tables.items():
        if all(isinstance(v, list) and all(isinstance(x, dict) for x in v)
               for v in table.values()) and table:
            for sub, items in table.items():
                for item in items:
                    lines += ["", f"[[{name}.{sub}]]"]
                    lines += [f"{k} = {toml_value(v)}" for k, v in item.items()]
        else:
            lines += ["", f"[{name}]"] + [f"{k} = {toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines).lstrip("\n") + "\n"
