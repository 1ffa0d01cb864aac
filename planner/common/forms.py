"""Reading input forms: capped file and stdin reads, TOML that never crashes, typed keys with every problem at once.

Position files of both games are small TOML forms typed by people. What can go wrong is collected, not raised one
at a time: :class:`Form` reads one table's keys, notes an unknown key with a "did you mean", a value of the wrong
type with what was expected, and leaves the game to parse the values it returns.
"""

from __future__ import annotations

import io
import os
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from planner.common.i18n import N_, gettext, say
from planner.common.names import did_you_mean
from planner.common.problems import Problems
from planner.errors import IllegalPositionError

__all__ = ["MAX_INPUT_BYTES", "MAX_NESTING", "Form", "load_toml", "path_exists", "read_input", "read_path",
           "read_stdin"]

MAX_INPUT_BYTES = 1 << 20
"""Most bytes read from one input: a position file is a few hundred; ``/dev/zero`` must not hang the reader."""
MAX_NESTING = 32
"""Deepest nesting of TOML arrays and tables accepted (a position nests three deep)."""


def _read_capped(stream: BinaryIO, what: str) -> str:
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise IllegalPositionError([say("{what} is larger than {size} KiB: not a position file", what=what,
                                        size=MAX_INPUT_BYTES // 1024)])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise IllegalPositionError([say("{what} is not UTF-8 text ({reason} at byte {byte})", what=what,
                                        reason=error.reason, byte=error.start)]) from None


def read_path(path: str | Path, *, what: str = N_("position file")) -> str:
    """The text of a file, read as UTF-8 and at most :data:`MAX_INPUT_BYTES` (never written to).

    Raises:
        IllegalPositionError: the file cannot be read, is too big, is a folder or is not UTF-8.
    """
    what = gettext(what)
    name = f"{what} {str(path)!r}"
    try:
        with open(path, "rb") as stream:
            return _read_capped(stream, name)
    except IsADirectoryError:
        raise IllegalPositionError([say("{name} is a folder", name=name)]) from None
    except FileNotFoundError:
        raise IllegalPositionError([say("no such {what} {path!r}", what=what, path=str(path))]) from None
    except OSError as error:
        raise IllegalPositionError([say("cannot read {name}: {reason}", name=name,
                                        reason=error.strerror or error)]) from None


def read_stdin(*, what: str = N_("standard input")) -> str:
    """Standard input as UTF-8 text, at most :data:`MAX_INPUT_BYTES`.

    Raises:
        IllegalPositionError: stdin is closed, too big or not UTF-8.
    """
    what = gettext(what)
    stream = sys.stdin
    if stream is None or stream.closed:
        raise IllegalPositionError([say("{what} is closed: pipe a position file into it or name a file", what=what)])
    try:
        binary = getattr(stream, "buffer", None)
        if binary is not None:
            return _read_capped(binary, what)
        return _read_capped(io.BytesIO(stream.read(MAX_INPUT_BYTES + 1).encode("utf-8")), what)
    except (OSError, ValueError) as error:  # a closed descriptor reads as EBADF or "I/O on closed file"
        raise IllegalPositionError([say("cannot read {name}: {reason}", name=what, reason=error)]) from None


def read_input(source: str, *, what: str = N_("position file")) -> str:
    """``-`` is standard input, anything else a path."""
    return read_stdin() if source == "-" else read_path(source, what=what)


def path_exists(source: str) -> bool:
    """Whether ``source`` names an existing file or folder; a name the system refuses (too long, NUL) does not."""
    try:
        return os.path.exists(source) and "\0" not in source
    except (OSError, ValueError):
        return False


MAX_DIGITS = 4000
"""Digits past which a number in an input is too long to read (Python refuses 4300 and more, in its own words)."""


def _too_long(text: str, source: str) -> str | None:
    """What is wrong, in the input's words, when a number of the text is too long to read: its line and key."""
    found = re.search(rf"[+-]?\d[\d_]{{{MAX_DIGITS},}}", text)
    if found is None:
        return None
    line = text.count("\n", 0, found.start()) + 1
    start = text.rfind("\n", 0, found.start()) + 1
    key = text[start:found.start()].partition("=")[0].strip().strip("\"'") or gettext("a value")
    digits = sum(ch.isdigit() for ch in found.group())
    return say("{source}, line {line}: {key!r} is a number of {digits} digits; a position's numbers are small (a "
               "round, a count of cards or points)", source=source, line=line, key=key, digits=digits)


def _depth(value: Any, limit: int) -> int:
    """How deep ``value`` nests, counting no further than ``limit + 1`` (so it never recurses far)."""
    if limit < 0:
        return 1
    if isinstance(value, Mapping):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def load_toml(text: str, *, source: str) -> dict[str, Any]:
    """Parse TOML text; every way it can fail becomes one problem naming ``source``.

    Raises:
        IllegalPositionError: a syntax error, nesting deeper than :data:`MAX_NESTING`, an integer too long to
            convert.
    """
    depth = max(text.count("["), text.count("{"))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise IllegalPositionError([say("{source} is not valid TOML: {error}", source=source, error=error)]) from None
    except RecursionError:
        raise IllegalPositionError([say("{source} nests arrays or tables too deeply (over {depth} levels)",
                                        source=source, depth=depth)]) from None
    except ValueError as error:  # an integer of thousands of digits: Python refuses to convert it
        raise IllegalPositionError([_too_long(text, source) or say("{source} holds a value TOML cannot read: {error}",
                                                                   source=source, error=error)]) from None
    if _depth(data, MAX_NESTING) > MAX_NESTING:
        raise IllegalPositionError([say("{source} nests arrays or tables deeper than {depth} levels", source=source,
                                        depth=MAX_NESTING)])
    return data


class Form:
    """Typed access to one TOML table, noting every problem in a shared :class:`Problems`.

    ``where`` prefixes field names (``rules.``, ``opponent[2].``) so that problems say which table they are in.
    The getters return None (or the default) for a missing or bad value, after noting why.
    """

    def __init__(self, data: Mapping[str, Any], problems: Problems, *, keys: Sequence[str], where: str = "",
                 what: str = N_("key")) -> None:
        self.data = data
        self.problems = problems
        self.where = where
        inside = say(" in [{table}]", table=where.rstrip(".")) if where else ""
        for key in data:
            if key not in keys:
                word = gettext(what)
                hint = did_you_mean(key, keys) or say("; {what}s are {keys}", what=word, keys=", ".join(keys))
                self.problems.add("unknown-key", self.name(key), key, say("unknown {what} {key!r}{inside}{hint}",
                                                                          what=word, key=key, inside=inside, hint=hint))

    def name(self, key: str) -> str:
        """The field's full name in messages: ``rules.caravan``."""
        return f"{self.where}{key}"

    def has(self, key: str) -> bool:
        """Whether the key is given."""
        return key in self.data

    def wrong(self, key: str, expected: str, value: Any) -> None:
        """Note that ``key`` holds a value of the wrong type (``hand must be a list of card names, got 5``)."""
        self.problems.add("bad-type", self.name(key), _short(value), say(
            "{field} must be {expected}, got {value}", field=self.name(key), expected=gettext(expected),
            value=_short(value)))

    def text(self, key: str, *, required: str | None = None, empty: bool = False) -> str | None:
        """A string; ``required`` is the hint shown when it is missing; an empty string is a problem unless
        ``empty``."""
        value = self.data.get(key)
        if value is None:
            if required is not None:
                self.problems.add("missing-key", self.name(key), None, say(
                    "missing key {field!r} ({required})", field=self.name(key), required=gettext(required)))
            return None
        if not isinstance(value, str):
            self.wrong(key, N_("a string"), value)
            return None
        if not value.strip() and not empty:
            self.problems.add("empty", self.name(key), value,
                              say("{field} is empty; leave the key out instead", field=self.name(key)))
            return None
        return value

    def strings(self, key: str, *, split: bool = True) -> list[str] | None:
        """A list of strings; with ``split``, a single string separated by commas or spaces also does."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, str) and split:
            return [v for v in value.replace(",", " ").split() if v]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.wrong(key, N_("a list of names"), value)
            return None
        return list(value)

    def integer(self, key: str, *, low: int, high: int) -> int | None:
        """A whole number in ``low..high`` (never a bool or a float like 3.0)."""
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            self.wrong(key, say("a whole number {low}..{high}", low=low, high=high), value)
            return None
        if not low <= value <= high:
            self.problems.add("out-of-range", self.name(key), value, say(
                "{field} {value} is not between {low} and {high}", field=self.name(key), value=value, low=low,
                high=high))
            return None
        return value

    def boolean(self, key: str) -> bool | None:
        """``true`` or ``false``."""
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            self.wrong(key, N_("true or false"), value)
            return None
        return value

    def table(self, key: str, *, keys: Sequence[str], what: str = "key") -> Form | None:
        """A sub-table as a form of its own (sharing the problems), or None when missing or not a table."""
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            self.problems.add("bad-type", self.name(key), _short(value),
                              say("[{field}] must be a table, got {value}", field=self.name(key), value=_short(value)))
            return None
        return Form(value, self.problems, keys=keys, where=f"{self.name(key)}.", what=what)

    def mapping(self, key: str, *, shape: str = "") -> Mapping[str, Any] | None:
        """A sub-table whose keys are data, not names (``[tiles]``: road = counter); ``shape`` says what it maps."""
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, Mapping):
            message = N_("[{field}] must be a table of {shape}, got {value}") if shape else \
                N_("[{field}] must be a table, got {value}")
            self.problems.add("bad-type", self.name(key), _short(value),
                              say(message, field=self.name(key), shape=shape, value=_short(value)))
            return None
        return value

    def tables(self, key: str, *, keys: Sequence[str], what: str = "key") -> list[Form]:
        """An array of tables (``[[opponent]]``) as forms named ``key[1].``, ``key[2].``, ..."""
        value = self.data.get(key)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, Mapping) for v in value):
            self.wrong(key, say("an array of tables ([[{key}]])", key=key), value)
            return []
        return [Form(v, self.problems, keys=keys, where=f"{self.name(key)}[{i}].", what=what)
                for i, v in enumerate(value, 1)]


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters (a bad value may be huge)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
