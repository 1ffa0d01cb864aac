"""Babel's extractor for the table page's HTML (``babel-table.cfg``): each text and each label is a message.

The page's script translates the same texts in the browser (``translateDocument`` in ``static/texts.js``): a text
node's words, trimmed, and the ``aria-label``, ``placeholder``, ``alt`` and ``title`` attributes, and the title.
Texts without a letter (``−``, ``↶``, ``#``) are no message. Scripts and styles are not read.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import IO, Any

__all__ = ["ATTRIBUTES", "extract_html"]

ATTRIBUTES = ("aria-label", "placeholder", "alt", "title")

Extracted = tuple[int, str | None, str, list[str]]


class _Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[Extracted] = []
        self._skip = 0

    def _add(self, text: str | None) -> None:
        text = (text or "").strip()
        if any(c.isalpha() for c in text):
            self.found.append((self.getpos()[0], None, text, []))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES:
                self._add(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._add(data)


def extract_html(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]) -> Iterator[Extracted]:
    """Babel's extraction method for HTML: ``(line, funcname, message, comments)`` per text and label."""
    parser = _Texts()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    yield from parser.found
