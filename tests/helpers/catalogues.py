"""The project's gettext catalogues as the tests read them: each domain's ``.po`` source and its shipped ``.mo``."""

from __future__ import annotations

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
