"""The catalogues: complete in every language, placeholders kept, plural forms right, .mo built from the .po.

The messages are extracted from the source with Babel's own extractor and the project's babel.cfg, so a message
marked in the code but missing from a catalogue fails here, whatever the .pot file says.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from catalogues import LOCALES, TRANSLATED, assert_mo_is_compiled_po, fields, po  # tests/helpers

from planner.common import i18n

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "npgettext": ((1, "c"), 2, 3), "N_": None, "say": None}


def _source_messages() -> set[tuple[str | tuple[str, str], str | None]]:
    """Every message of the source as (message, context)."""
    method_map = [("planner/**.py", "python")]
    found: set[tuple[str | tuple[str, str], str | None]] = set()
    for _file, _line, message, _comments, context in extract_from_dir(str(ROOT), method_map, keywords=KEYWORDS):
        found.add((message if isinstance(message, str) else (message[0], message[1]), context))
    return found


SOURCE = _source_messages()


def _pairs(lang: str) -> Iterator[tuple[str, str]]:
    """Every (source, translation) text pair of a catalogue, each plural form against the source's plural."""
    for message in po(lang, "planner"):
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            forms = message.string if isinstance(message.string, tuple | list) else (message.string,)
            for i, form in enumerate(forms):
                yield message.id[0 if i == 0 and len(forms) > 1 else 1], form
        else:
            yield message.id, message.string


def test_the_source_has_messages() -> None:
    assert (("{n} town", "{n} towns"), None) in SOURCE
    assert (("{n} card", "{n} cards"), "paid") in SOURCE
    assert ("Stay: no step gains anything.", None) in SOURCE


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    catalogue = po(lang, "planner")
    missing = []
    for message, context in sorted(SOURCE, key=str):
        key = message[0] if isinstance(message, tuple) else message
        entry = catalogue.get(key, context=context)
        strings = [] if entry is None else (
            list(entry.string) if isinstance(entry.string, tuple | list) else [entry.string])
        if entry is None or not strings or not all(strings) or entry.fuzzy:
            missing.append(key)
    assert not missing, f"{lang}: untranslated {missing}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    wrong = [(source, text) for source, text in _pairs(lang) if text and fields(source) != fields(text)]
    # a singular form may say "1" in words only where the source's singular has no {n}: never here
    assert not wrong, wrong


PLURAL_FORMS = {  # expected form index for 0, 1, 2, 5, 21, 22, 25, 111, from each language's grammar
    "uk": [2, 0, 1, 2, 0, 1, 2, 2],  # 0 міст, 1 місто, 2 міста, 5 міст, 21 місто, 22 міста, 25 міст, 111 міст
    "ru": [2, 0, 1, 2, 0, 1, 2, 2],  # 0 городов, 1 город, 2 города, 5 городов, 21 город, 22 города, ...
    "pl": [2, 0, 1, 2, 2, 1, 2, 2],  # 0 miast, 1 miasto, 2 miasta, 5 miast, 21 miast, 22 miasta, 25 miast
    "cs": [2, 0, 1, 2, 2, 2, 2, 2],  # 0 měst, 1 město, 2 města, 5 měst, 21 měst, 22 měst, 25 měst, 111 měst
    "ja": [0] * 8,  # one form: 町3
}
TOWNS = {
    "uk": ["0 міст", "1 місто", "2 міста", "5 міст", "21 місто", "22 міста", "25 міст", "111 міст"],
    "pl": ["0 miast", "1 miasto", "2 miasta", "5 miast", "21 miast", "22 miasta", "25 miast", "111 miast"],
    "cs": ["0 měst", "1 město", "2 města", "5 měst", "21 měst", "22 měst", "25 měst", "111 měst"],
    "ru": ["0 городов", "1 город", "2 города", "5 городов", "21 город", "22 города", "25 городов", "111 городов"],
    "ja": ["町0", "町1", "町2", "町5", "町21", "町22", "町25", "町111"],
}
NUMBERS = [0, 1, 2, 5, 21, 22, 25, 111]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_plural_rule_of_each_catalogue(lang: str) -> None:
    with (LOCALES / lang / "LC_MESSAGES" / "planner.mo").open("rb") as f:
        shipped = gettext.GNUTranslations(f)  # the Plural-Forms header as gettext reads it at run time
    assert [shipped.plural(n) for n in NUMBERS] == PLURAL_FORMS[lang]  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_towns_counted_in_each_language(lang: str) -> None:
    from planner.elfenland.explain import count

    i18n.use(lang)
    try:
        assert [count(n, "town") for n in NUMBERS] == TOWNS[lang]
    finally:
        i18n.use(None)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_shipped_mo_is_the_compiled_po(lang: str) -> None:
    assert_mo_is_compiled_po(lang, "planner")
