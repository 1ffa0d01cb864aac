"""Help text wrapped by the columns it fills on a terminal, breaking Japanese between characters.

click wraps help with :class:`textwrap.TextWrapper`, which breaks lines only at spaces and counts one column a
character: a Japanese paragraph (no spaces, two columns a character) came out as one line up to twice the
terminal's width. :class:`CellWrapper` breaks such text between any two characters except before closing
punctuation (``、。）」``) or after an opening bracket (``（「``), measures lines in terminal cells (rich's
``cell_len``), and leaves text without such characters to click's own wrapper, so every other language wraps as
before. :func:`planner.cli.conventions.route_click` installs it for a language other than English.
"""

from __future__ import annotations

import re

import click._textwrap
from rich.cells import cell_len

__all__ = ["CellWrapper"]

_WIDE = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CLOSING = "、。，．：；！？）」』】〕〉》ー…・"
_OPENING = "（「『【〔〈《"
_HAS_WIDE = re.compile(f"[{_WIDE}]")
_TOKEN = re.compile(rf"\s+|[{_OPENING}]*[^\s{_WIDE}]+[{_CLOSING}]*|[{_OPENING}]*[{_WIDE}][{_CLOSING}]*")
"""A run of spaces, a word or one wide character, each with the brackets and punctuation that must stay beside
it (``（.svg）`` is one piece)."""


class CellWrapper(click._textwrap.TextWrapper):
    """click's wrapper, which also breaks between Japanese characters and counts a line's terminal cells."""

    def wrap(self, text: str) -> list[str]:
        if not _HAS_WIDE.search(text):
            return super().wrap(text)
        lines: list[str] = []
        indent, line = self.initial_indent, ""
        for token in _TOKEN.findall(text):
            if token.isspace():
                line += token if line else ""  # kept as it is (click puts two spaces before "[default: …]")
                continue
            if line and cell_len(indent + line + token) > self.width:
                lines.append(indent + line.rstrip())
                indent, line = self.subsequent_indent, token
            else:
                line += token
        if line.strip():
            lines.append(indent + line.rstrip())
        return lines
