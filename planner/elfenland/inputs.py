"""Where positions come from at the table: files, folders, stdin, compact notation, and command-line overrides.

A source is a position file's path, a folder (its ``*.toml`` files in name order), ``-`` (a position file on
standard input) or a whole position in compact notation (``"D@LAP-RIV:f ELV DDC - 1"``). A source is notation
when it has at least four fields, holds no ``/`` or ``\\``, does not end in ``.toml`` and is not an existing
path; anything else is a file. So a missing file whose path has spaces is reported as missing, and a notation
longer than the system's longest file name is never looked up on disk.

Overrides (:class:`~planner.elfenland.position_file.Overrides`) are read in the same pass as the file's keys.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from planner.common.forms import path_exists, read_stdin
from planner.common.i18n import say
from planner.elfenland.position import Position
from planner.elfenland.position_file import (
    Overrides,
    load_position,
    position_from_mapping,
    position_from_toml,
    position_to_mapping,
)
from planner.errors import IllegalPositionError

__all__ = ["Overrides", "expand_sources", "looks_like_notation", "read_position"]


def expand_sources(sources: Iterable[str]) -> list[str]:
    """Files and notations as given, folders as their ``*.toml`` files in name order, ``-`` as is.

    Raises:
        IllegalPositionError: a folder holds no ``*.toml`` file.
    """
    found: list[str] = []
    for source in sources:
        if source != "-" and not looks_like_notation(source) and _is_dir(source):
            files = sorted(str(p) for p in Path(source).glob("*.toml"))
            if not files:
                raise IllegalPositionError([say("folder {source!r} holds no *.toml position files", source=source)])
            found += files
        else:
            found.append(source)
    return found


def _is_dir(source: str) -> bool:
    try:
        return Path(source).is_dir()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        return False


def looks_like_notation(source: str) -> bool:
    """Whether ``source`` is read as compact notation rather than as a file name (see the module docstring)."""
    if len(source.split()) < 4 or source.rstrip().lower().endswith(".toml") or "/" in source or "\\" in source:
        return False
    return len(source.encode()) > 255 or not path_exists(source)


def read_position(source: str | None, overrides: Overrides | None = None, *, stdin: str | None = None) -> Position:
    """The position of one source (None: the flags alone), with the overrides applied, checked. ``stdin`` is the
    text of ``-`` when it was read already (a worker process cannot read its parent's standard input).

    Raises:
        IllegalPositionError: unreadable file, bad TOML, no position at all, or a position with problems.
        NotationError: malformed compact notation.
    """
    flags = overrides or Overrides()
    if source is None:
        if flags.at is None:
            raise IllegalPositionError([say("no position given: name a position file or say where the boot "
                                            "stands with --at")])
        return position_from_mapping({}, overrides=flags)
    if source == "-":
        return position_from_toml(read_stdin() if stdin is None else stdin, source="stdin", overrides=flags)
    if looks_like_notation(source):
        position = Position.from_str(source)
        if flags.empty():
            return position.check()
        return position_from_mapping(position_to_mapping(position), overrides=flags)
    if not path_exists(source):
        raise IllegalPositionError([say("no such position file {source!r}", source=source)])
    return load_position(source, overrides=flags)
