"""The project's gettext catalogues as the tests read them: each domain's ``.po`` source and its shipped ``.mo``."""

from __future__ import annotations

import functools
import io
import string
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from planner.common import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "planner" / "locale"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != "en"]
"""The languages with catalogues (English is the source)."""


def po(lang: str, domain: str) -> Any:
    """The ``.po`` catalogue of ``domain`` (``planner``, ``table``) in ``lang``, as Babel reads it."""
    with (LOCALES / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang)


def fields(text: str) -> list[str]:
    """The placeholders of a message (``{name}``, ``{value:.2f}``), sorted: a translation must keep the source's."""
    return sorted(f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None)


def assert_mo_is_compiled_po(lang: str, domain: str) -> None:
    """The shipped ``.mo`` of ``domain`` in ``lang`` is exactly its ``.po`` compiled (a forgotten compile fails)."""
    compiled = io.BytesIO()
    write_mo(compiled, po(lang, domain), use_fuzzy=False)
    assert (LOCALES / lang / "LC_MESSAGES" / f"{domain}.mo").read_bytes() == compiled.getvalue(), (
        f"run: pybabel compile -d planner/locale -D {domain} -l {lang}")


CLICK_SOURCE = Path(str(__import__("click").__file__)).parent
"""The installed click's source, whose messages the ``click`` catalogues translate."""


@functools.cache
def click_messages() -> frozenset[str | tuple[str, str]]:
    """Every message of the installed click (``_``, ``gettext``, ``ngettext``), as Babel extracts it."""
    from babel.messages.extract import extract_from_dir

    return frozenset(message if isinstance(message, str) else (message[0], message[1])
                     for *_, message, _comments, _context in extract_from_dir(str(CLICK_SOURCE), [("**.py", "python")]))


@functools.cache
def shipped_click_messages() -> frozenset[str | tuple[str, str]]:
    """Every message of the shipped ``planner/locale/click.pot`` (extracted from click by tools/click_catalogue.py):
    what the ``click`` catalogues must translate. A newer click's new words, until the tool is run again, stay
    English; the tests name the core ones that must not."""
    from babel.messages.pofile import read_po

    with (LOCALES / "click.pot").open("rb") as f:
        template = read_po(f)
    return frozenset(m.id if isinstance(m.id, str) else (m.id[0], m.id[1]) for m in template if m.id)


@functools.cache
def help_messages() -> dict[str, list[str]]:
    """Every help text of ``elfenland`` and ``expedition`` (a ``planner`` message) and where it shows."""
    from planner.cli.help_catalogue import help_texts

    return help_texts()


def untranslated(catalogue: Any, messages: Any) -> list[str]:
    """The messages (a text, or a (singular, plural) pair) that ``catalogue`` lacks, leaves empty or marks fuzzy."""
    missing = []
    for message in sorted(messages, key=str):
        key = message[0] if isinstance(message, tuple) else message
        entry = catalogue.get(key)
        strings = [] if entry is None else (
            list(entry.string) if isinstance(entry.string, tuple | list) else [entry.string])
        if entry is None or not strings or not all(strings) or entry.fuzzy:
            missing.append(key)
    return missing
