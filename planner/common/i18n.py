"""The planner's languages: which one speaks, its gettext catalogue, plural forms, numbers and lists.

The messages live in gettext catalogues (``planner/locale/<lang>/LC_MESSAGES/planner.mo``, built from the ``.po``
files with Babel's tooling: docs/languages.md). The language is chosen by ``--lang`` (through :func:`use`), else
``ELFENLAND_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English. It is held in a context
variable, so a server can speak a different language in each request.

Start-up matters (``elfenland route`` is a command a player runs at the table): ``gettext`` is imported and a
catalogue read only when a message is first translated into a language other than English (whose messages are
the source); Babel is imported only to join a list in such a language, and the decimal sign is a table checked
against Babel's CLDR data by the tests.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import gettext as _gettext

__all__ = ["DECIMAL_SIGN", "LANGUAGES", "N_", "catalogue", "choose", "format_list", "format_number", "gettext",
           "language", "ngettext", "npgettext", "parse_language", "say", "use"]

LANGUAGES = ("en", "uk", "pl", "cs", "ja", "ru")
"""The languages the planner speaks; English is the source of every message."""

DOMAIN = "planner"
LOCALE_DIR = Path(__file__).parent.parent / "locale"
"""``planner/locale``: ``<lang>/LC_MESSAGES/planner.po`` (the source) and ``planner.mo`` (compiled, shipped)."""
ENV = "ELFENLAND_LANG"

_chosen: ContextVar[str | None] = ContextVar("planner_language", default=None)


def parse_language(text: str | None) -> str | None:
    """The planner's language for a locale or language tag (``uk_UA.UTF-8``, ``ja-JP``, ``cs``), else None."""
    if not text:
        return None
    # the language part of ``ll[_CC][.encoding][@modifier]`` (no regular expression: start-up stays fast)
    lang = text.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return lang if lang in LANGUAGES else None


def choose(option: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``option`` (``--lang``), then ``ELFENLAND_LANG``, then the locale, then English.

    A variable naming a language the planner does not speak is passed over (``LANG=de_DE`` falls to English).

    Raises:
        ValueError: ``option`` names no language the planner speaks (an interface turns it into a usage error).
    """
    if option is not None:
        lang = parse_language(option)
        if lang is None:
            raise ValueError(say("unknown language {value}; choose one of {languages}", value=repr(option),
                                 languages=", ".join(LANGUAGES)))
        return lang
    env = os.environ if environ is None else environ
    for name in (ENV, "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:  # the first one set decides, as the C library reads them; C or POSIX mean English
            lang = parse_language(value)
            if lang is not None or name != ENV:
                return lang or "en"
    return "en"


def use(lang: str | None) -> str:
    """Speak ``lang`` from now on in this context (``None``: choose again from the environment); returns it."""
    chosen = choose(lang)
    _chosen.set(chosen)
    return chosen


def language() -> str:
    """The language spoken now (chosen from the environment on first use)."""
    lang = _chosen.get()
    if lang is None:
        lang = choose()
        _chosen.set(lang)
    return lang


@functools.cache
def catalogue(lang: str, domain: str = DOMAIN) -> _gettext.NullTranslations:
    """The compiled gettext catalogue of ``domain`` in ``lang`` (read once; English, the source, needs none)."""
    import gettext as _gettext  # only for a language other than English, whose messages are the source

    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(domain, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def gettext(message: str) -> str:
    """``message`` in the language spoken now (the English source where a catalogue lacks it)."""
    lang = language()
    return message if lang == "en" else catalogue(lang).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n``, by the language's plural rule (Polish: 1 miasto, 2 miasta, 5 miast)."""
    lang = language()
    if lang == "en":
        return singular if n == 1 else plural
    return catalogue(lang).ngettext(singular, plural, n)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` in a context: the same English, another case elsewhere (``za 1 kartu``, paid, in Czech)."""
    lang = language()
    if lang == "en":
        return singular if n == 1 else plural
    return catalogue(lang).npgettext(context, singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 -- the gettext convention, which the extraction looks for
    """Mark ``message`` for the catalogue without translating it yet (a table of messages, translated on use)."""
    return message


# -- numbers and lists ---------------------------------------------------------------------------------------
DECIMAL_SIGN = {"en": ".", "uk": ",", "pl": ",", "cs": ",", "ja": ".", "ru": ","}
"""Each language's decimal sign, as CLDR has it (a test compares it with Babel's): a table, because loading
Babel's locale data for one character would cost a non-English answer some 20 ms of start-up."""


def format_number(value: float, spec: str = "") -> str:
    """``value`` formatted by ``spec`` (``.2f``), with the language's decimal sign (``0,85`` in Czech)."""
    text = format(value, spec)
    symbol = DECIMAL_SIGN[language()]
    return text if symbol == "." else text.replace(".", symbol)


def format_list(items: Sequence[str]) -> str:
    """``a, b and c`` in the language spoken now (Babel's CLDR patterns; ``a、b、c`` in Japanese)."""
    if len(items) < 2:
        return items[0] if items else ""
    lang = language()
    if lang == "en":  # the planner's English has always said "a, b and c"
        return ", ".join(items[:-1]) + " and " + items[-1]
    from babel.lists import format_list as babel_list

    return str(babel_list(list(items), locale=lang))


@functools.cache
def _formatter() -> Any:
    import string  # only for a language other than English

    class Formatter(string.Formatter):
        """``str.format`` whose numbers follow the language: ``{value:.2f}`` gives ``0,85`` in Czech."""

        def format_field(self, value: Any, format_spec: str) -> str:
            if isinstance(value, float | int) and not isinstance(value, bool) and format_spec:
                return format_number(value, format_spec)
            return str(super().format_field(value, format_spec))

    return Formatter()


def say(template: str, /, **values: object) -> str:
    """``template`` translated, then its named placeholders filled (numbers in the language's style).

    The whole sentence is looked up, never pieces of it, so a translation may order the words as its language
    needs; a translation that lacks a placeholder of the source fails the catalogue test, not the player.
    """
    translated = gettext(template)
    if language() == "en":
        return translated.format(**values)
    return str(_formatter().format(translated, **values))
