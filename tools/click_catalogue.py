"""Build the ``click`` domain's catalogues: click's own words (``Usage:``, ``No such option``) in each language.

usage: python tools/click_catalogue.py [FILE.json ...]

Extracts ``planner/locale/click.pot`` from the installed click's source with pybabel, creates or updates each
language's ``planner/locale/<lang>/LC_MESSAGES/click.po``, fills it from the translation files given (entries of
the domain ``click``, the format of the project's translation JSON: ``{"domain", "msgctxt", "msgid",
"msgid_plural", "lang", "translation"}``, or ``{"lang", "entries"}``), compiles the ``.mo`` files and prints the
messages still untranslated. The same, by hand (docs/languages.md):

    CLICK=$(python -c 'import click, pathlib; print(pathlib.Path(click.__file__).parent)')
    pybabel extract --no-location --sort-output --no-wrap --project click -o planner/locale/click.pot "$CLICK"
    pybabel init -i planner/locale/click.pot -d planner/locale -D click -l uk --no-wrap     # once a language
    pybabel update -i planner/locale/click.pot -d planner/locale -D click --no-wrap --ignore-obsolete
    pybabel compile -d planner/locale -D click
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "planner" / "locale"
LANGS = ("uk", "pl", "cs", "ja", "ru")


def pybabel(*args: str) -> None:
    subprocess.run(["pybabel", *args], cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def main(files: list[str]) -> None:
    source = str(Path(click.__file__).parent)
    pybabel("extract", "--no-location", "--sort-output", "--no-wrap", "--project", "click", "-o",
            "planner/locale/click.pot", source)
    for lang in LANGS:
        if (LOCALES / lang / "LC_MESSAGES" / "click.po").exists():
            pybabel("update", "-i", "planner/locale/click.pot", "-d", "planner/locale", "-D", "click", "-l", lang,
                    "--no-wrap", "--ignore-obsolete")
        else:
            pybabel("init", "-i", "planner/locale/click.pot", "-d", "planner/locale", "-D", "click", "-l", lang,
                    "--no-wrap")
    given: dict[tuple[str, str | None, str], str | list[str]] = {}
    for name in files:
        data = json.loads(Path(name).read_text(encoding="utf-8"))
        entries = data["entries"] if isinstance(data, dict) else data
        for entry in entries:
            if entry.get("domain") == "click":
                lang = entry.get("lang") or data.get("lang")
                given[(lang, entry.get("msgctxt") or None, entry["msgid"])] = entry["translation"]
    for lang in LANGS:
        path = LOCALES / lang / "LC_MESSAGES" / "click.po"
        with path.open("rb") as f:
            catalogue = read_po(f)
        for message in catalogue:
            if not message.id:
                continue
            plural = isinstance(message.id, tuple | list)
            key = (lang, message.context or None, message.id[0] if plural else message.id)
            if key in given:
                message.string = tuple(given[key]) if plural else given[key]
                message.flags.discard("fuzzy")
            strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
            if not all(strings) or message.fuzzy:
                print(f"MISSING click {lang}: {key[2]!r}")
        with path.open("wb") as f:
            write_po(f, catalogue, width=0, sort_output=True, no_location=True)
    pybabel("compile", "-d", "planner/locale", "-D", "click")


if __name__ == "__main__":
    main(sys.argv[1:])
