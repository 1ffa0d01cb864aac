"""The table page's languages: which one each request speaks, and the page's own texts in it.

The page's words are gettext messages of their own domain, ``table`` (``planner/locale/<lang>/LC_MESSAGES/
table.po``, extracted with Babel's tooling from the page's script and HTML and from this package's refusals:
``babel-table.cfg``, docs/languages.md), kept apart from the library's ``planner`` domain. The page reads its
catalogue as JSON (:func:`page_texts`) and counts with the plural rule of its language, coded in the script.

A request's language: the phone's own choice (the page's language switch, kept in the phone's local storage and
sent as the ``x-elfenland-lang`` header or the ``lang`` query parameter), else the browser's ``Accept-Language``
(by its q-values), else the table's language (``serve --lang``, else English).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping

from planner.common import i18n

__all__ = ["DOMAIN", "HEADER", "QUERY", "accepted_language", "page_texts", "request_language", "tt", "tt_mark"]

DOMAIN = "table"
HEADER = "x-elfenland-lang"
QUERY = "lang"


def accepted_language(header: str | None) -> str | None:
    """The planner's language an ``Accept-Language`` header prefers most (``cs;q=0.8, ja`` gives ``ja``), else None.

    Ranges are tried by falling q-value, ties in the header's order; ``q=0`` refuses a language, and ``*`` or a
    language the planner does not speak is passed over. A malformed q-value counts as 1 (browsers send none).
    """
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 1.0
        lang = i18n.parse_language(tag)
        if lang is not None and quality > 0:
            ranked.append((-quality, index, lang))
    return min(ranked)[2] if ranked else None


def request_language(headers: Mapping[str, str], query: Mapping[str, str], default: str = "en") -> str:
    """The language to answer a request in: the phone's choice (header or query), else ``Accept-Language``, else
    ``default``. A choice naming no language the planner speaks is passed over, not refused: the page still
    answers."""
    for chosen in (headers.get(HEADER), query.get(QUERY)):
        lang = i18n.parse_language(chosen)
        if lang is not None:
            return lang
    return accepted_language(headers.get("accept-language")) or default


def tt(message: str, **values: object) -> str:
    """A message of the table domain in the language spoken now, its ``{name}`` placeholders filled."""
    lang = i18n.language()
    text = message if lang == "en" else i18n.catalogue(lang, DOMAIN).gettext(message)
    return text.format(**values) if values else text


def tt_mark(message: str) -> str:
    """Mark ``message`` for the table catalogue without translating it yet (a table of texts, :func:`tt` on use)."""
    return message


@functools.cache
def page_texts(lang: str) -> bytes:
    """The page's catalogue in ``lang`` as JSON: ``{"lang", "texts": {msgid: text or [forms]}}``.

    Only translated messages are sent (the page falls back to its English source); a plural message is keyed by
    its singular, its forms in the catalogue's order, which the page's plural rule indexes.
    """
    texts: dict[str, str | list[str]] = {}
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if lang != "en" and path.is_file():
        from babel.messages.mofile import read_mo

        with path.open("rb") as f:
            for message in read_mo(f):
                if not message.id or not message.string:
                    continue
                if isinstance(message.id, tuple | list):
                    texts[message.id[0]] = list(message.string)
                else:
                    texts[message.id] = str(message.string)
    return json.dumps({"lang": lang, "texts": texts}, ensure_ascii=False, sort_keys=True).encode("utf-8")
