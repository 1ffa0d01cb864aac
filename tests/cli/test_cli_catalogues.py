"""The command line's catalogues: the help texts in the ``planner`` catalogue, click's words in the ``click`` one
(``planner/locale/<lang>/LC_MESSAGES/click.po``, built by ``tools/click_catalogue.py``): complete in every language,
placeholders kept, ``.mo`` compiled from the ``.po``.

All of these need the full translations (the help texts and click's words translated in every language).
"""

from __future__ import annotations

import pytest
from catalogues import (
    TRANSLATED,
    assert_mo_is_compiled_po,
    fields,
    help_messages,
    po,
    shipped_click_messages,
    untranslated,
)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_help_text_is_translated(lang: str) -> None:
    missing = untranslated(po(lang, "planner"), help_messages())
    assert not missing, f"{lang}: untranslated help {missing}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_word_of_the_shipped_click_catalogue_is_translated(lang: str) -> None:
    """After a click upgrade, run tools/click_catalogue.py and translate what it prints (new words stay English)."""
    missing = untranslated(po(lang, "click"), shipped_click_messages())
    assert not missing, f"{lang}: untranslated click messages {missing}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_click_translations_keep_the_placeholders(lang: str) -> None:
    wrong = []
    for message in po(lang, "click"):
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        for i, text in enumerate(strings):
            source = sources[min(i, len(sources) - 1)] if len(strings) > 1 else sources[0]
            if text and fields(source) != fields(text) and fields(sources[-1]) != fields(text):
                wrong.append((source, text))
    assert not wrong, wrong


@pytest.mark.parametrize("lang", TRANSLATED)
def test_click_mo_is_the_compiled_po(lang: str) -> None:
    assert_mo_is_compiled_po(lang, "click")
