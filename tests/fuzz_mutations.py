"""Hypothesis strategies that break valid documents the way hand edits and bad tools do: a
value anywhere replaced by one of the wrong type or an extreme one (a node reference as an
object or a list, empty, huge, negative, NaN, infinite), keys dropped and added, list items
duplicated (duplicate ids), references pointed nowhere (dangling ids), deep nesting, and the
file's bytes cut short or spoiled (non-UTF-8, NUL)."""

from __future__ import annotations

import copy
import json
import math
import re

from hypothesis import strategies as st

from engine.input_error import InputError


def _deep(levels: int):
    doc = []
    for _ in range(levels):
        doc = [doc]
    return doc


# Values a field may be given instead of its own: wrong types, extremes, a reference as an
# object or a list, deep nesting.
NASTY_VALUES = [None, True, False, 0, -1, 1, 7, 2**31, 10**400, 1e10, 1e-9, -1e-9, 1e308,
                -1e308, math.nan, math.inf, -math.inf, "", " ", "A1", "ZZ9", "x" * 500,
                "\u00e9\u0000", {}, [], {"id": "A1"}, ["A1"], [1, 2], {"x": {"y": {}}},
                _deep(60)]
# The same as text (CSV cells, GraphML data values, scalars in TOML).
NASTY_TEXT = ["", " ", "0", "-1", "1e10", "1e-9", "-1e-9", "1e308", "nan", "NaN", "inf",
              "-inf", "Infinity", "25:61", "1:2:3:4", "99999999999999999999", "abc", "A1",
              "ZZ9", "true", "{}", "[1]", "x" * 500, "\u00e9"]
# Byte-level damage: (what, function of the file's bytes and a position).
BYTE_DAMAGE = {
    "cut short": lambda b, i: b[:i],
    "non-UTF-8 byte": lambda b, i: b[:i] + b"\xff\xfe" + b[i:],
    "NUL byte": lambda b, i: b[:i] + b"\x00" + b[i:],
    "empty": lambda b, i: b"",
    "deep nesting": lambda b, i: b"[" * 100_000 + b"]" * 100_000,
    "doubled": lambda b, i: b + b,
}


def _paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, prefix + (i,))


def _at(doc, path):
    for step in path:
        doc = doc[step]
    return doc


@st.composite
def mutated_tree(draw, doc, max_mutations: int = 3):
    """``doc`` (a JSON-like tree) with 1 to ``max_mutations`` mutations; returns (doc, what)."""
    doc = copy.deepcopy(doc)
    done = []
    for _ in range(draw(st.integers(1, max_mutations))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["replace", "replace", "drop", "add key", "duplicate"]))
        parent = _at(doc, path[:-1]) if path else None
        if op == "replace":
            value = draw(st.sampled_from(NASTY_VALUES))
            if path:
                parent[path[-1]] = copy.deepcopy(value)
            else:
                doc = copy.deepcopy(value)
        elif op == "drop" and path:
            del parent[path[-1]]
        elif op == "add key":
            target = _at(doc, path)
            if isinstance(target, dict):
                target[draw(st.sampled_from(["extra", "id", "a", "nodes", "n"]))] = \
                    copy.deepcopy(draw(st.sampled_from(NASTY_VALUES)))
        elif op == "duplicate":
            target = _at(doc, path)
            if isinstance(target, list) and target:
                target.append(copy.deepcopy(target[draw(st.integers(0, len(target) - 1))]))
        done.append(f"{op} at {path}")
        if not isinstance(doc, (dict, list)):
            break
    return doc, done


@st.composite
def damaged_bytes(draw, data: bytes):
    """``data`` with one kind of byte-level damage; returns (bytes, what)."""
    what = draw(st.sampled_from(sorted(BYTE_DAMAGE)))
    return BYTE_DAMAGE[what](data, draw(st.integers(0, len(data)))), [what]


def json_documents(doc):
    """Bytes of ``doc`` broken in its tree (then written as JSON, NaN and Infinity included)
    or in its bytes."""
    def dump(mutated):
        tree, what = mutated
        try:
            return json.dumps(tree).encode(), what
        except (ValueError, RecursionError):   # an integer too long to write: keep the original
            return json.dumps(doc).encode(), what
    return st.one_of(mutated_tree(doc).map(dump),
                     damaged_bytes(json.dumps(doc).encode()))


def text_cells(text: str, pattern: str):
    """``text`` with up to 3 matches of ``pattern``'s group 1 replaced by nasty text and up to
    2 lines dropped or doubled, or its bytes damaged; returns (bytes, what)."""
    spans = [m.span(1) for m in re.finditer(pattern, text)]

    @st.composite
    def edited(draw):
        out, what = text, []
        chosen = draw(st.lists(st.sampled_from(spans), max_size=3, unique=True)) if spans else []
        for a, b in sorted(chosen, reverse=True):   # right to left: earlier spans stay put
            value = draw(st.sampled_from(NASTY_TEXT))
            out = out[:a] + value + out[b:]
            what.append(f"{text[a:b]!r} -> {value!r}")
        for op in draw(st.lists(st.sampled_from(["drop line", "double line"]), max_size=2)):
            lines = out.splitlines(keepends=True)
            if lines:
                k = draw(st.integers(0, len(lines) - 1))
                lines[k:k + 1] = [] if op == "drop line" else [lines[k]] * 2
                out = "".join(lines)
                what.append(f"{op} {k + 1}")
        return out.encode(), what

    return st.one_of(edited(), damaged_bytes(text.encode()))


def assert_refused_clearly(exc: InputError, path) -> None:
    """Every line of the message is "FILE: ITEM: PROBLEM" for ``path``."""
    assert exc.file == str(path)
    assert exc.item and exc.problem, exc.problems
    for line in str(exc).splitlines():
        assert line.startswith(f"{path}: "), line
        rest = line[len(f"{path}: "):]
        item, sep, problem = rest.partition(": ")
        assert sep and item.strip() and problem.strip(), line
