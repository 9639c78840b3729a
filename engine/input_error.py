"""The one error every reader of a user's file raises: the file, and per problem the item and
what is wrong with it. ``str()`` is one "FILE: ITEM: PROBLEM" line per problem, which is all a
command prints (``main.py`` turns it into stderr and exit status 2) and all the app shows."""

from __future__ import annotations

import json
from pathlib import Path

MAX_FILE_BYTES = 64 << 20  # no file the project reads is near this; a larger one is refused
SHOWN_CHARS = 80  # a value quoted in a message is cut to this many characters


BRIEF_PROBLEMS = 5  # more problems than this: a short report gives the first and a count


class InputError(ValueError):
    """A file that cannot be used. ``problems`` holds one "item: what is wrong" per problem;
    ``item`` and ``problem`` are the first one's two halves. ``str()`` lists every problem;
    ``brief()`` the first cause and how many more (what a dialog or a terminal shows first,
    ``details()`` the full list behind it)."""

    def __init__(self, file, problems: list[str]):
        self.file = str(file)
        self.problems = list(problems) or ["the file: unusable"]
        self.item, _, self.problem = self.problems[0].partition(": ")
        super().__init__(self.details())

    def details(self) -> str:
        return "\n".join(f"{self.file}: {p}" for p in self.problems)

    def brief(self, more: str = "") -> str:
        """Every problem when there are few; else the first (often the cause of the rest: a
        missing node list makes every road's ends unknown) and a count, then ``more`` (how to
        see them all)."""
        if len(self.problems) <= BRIEF_PROBLEMS:
            return self.details()
        rest = len(self.problems) - 1
        return (f"{self.file}: {self.problems[0]}\n{self.file}: and {rest:,} more problems, "
                f"often following from the first" + (f"; {more}" if more else ""))


def shown(value) -> str:
    """``repr(value)`` short enough for a message (a fuzzed file can hold anything)."""
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        text = f"<a number of {value.bit_length()} bits>"
    return text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS - 3] + "..."


def read_json(path: Path, error=InputError):
    """The decoded JSON document in ``path``; ``error(path, [...])`` when it is too large, not
    UTF-8, malformed or nested too deeply to decode."""
    try:
        size = path.stat().st_size
        text = path.read_text(encoding="utf-8") if size <= MAX_FILE_BYTES else None
    except FileNotFoundError:
        raise error(path, ["the file: does not exist"]) from None
    except (OSError, ValueError) as exc:  # ValueError: not UTF-8, a NUL in the name
        raise error(path, [f"the file: cannot be read as UTF-8 text ({exc})"]) from None
    if text is None:
        raise error(path, [f"the file: {size:,} bytes, more than the {MAX_FILE_BYTES:,} a file "
                           "read here may have"])
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(path, [f"line {exc.lineno}, column {exc.colno}: malformed JSON: "
                           + json_problem(exc, text)]) from None
    except RecursionError:
        raise error(path, ["the file: nested too deeply to read"]) from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise error(path, [f"the file: {exc}"]) from None


def json_problem(exc: json.JSONDecodeError, text: str) -> str:
    """The decoder's message as a whole sentence ("Unterminated string starting at" names no
    place: the line and column do), saying so where the file ends before its JSON does."""
    if exc.msg.startswith("Unterminated string"):
        return "a string starts here and never ends (is the file cut short, or a closing quote " \
               "missing?)"
    msg = exc.msg[:-3] + " here" if exc.msg.endswith(" at") else exc.msg
    if exc.pos >= len(text.rstrip()):
        return msg + ": the file ends before its JSON does (is it cut short?)"
    return msg
