"""The command line's own words in the language chosen: the help of every command (docstrings, options' help,
epilogs) and click's words (``Usage:``, ``Options``, ``No such option``), while English stays byte for byte what
it was.

Most tests here use a stand-in catalogue (every message marked ``☆``), so they check the mechanism whatever the
translations hold. The tests named ``..._translated_...`` read the real catalogues: they pass once the help texts
(``planner`` domain) and click's words (``click`` domain, ``tools/click_catalogue.py``) are translated.
"""

from __future__ import annotations

import ast
import functools
import importlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from catalogues import CLICK_SOURCE, click_messages, help_messages  # tests/helpers
from click.testing import CliRunner

from planner.cli import conventions, help_catalogue
from planner.cli.elfenland import cli as elfenland
from planner.cli.expedition import cli as expedition
from planner.common import i18n
from planner.elfenland.game.seats import SEATS

ENGLISH = Path(__file__).parent / "english_help"
PAGES = {"elfenland": (elfenland, ["--help"]), "elfenland-route": (elfenland, ["route", "--help"]),
         "elfenland-puzzle": (elfenland, ["puzzle", "--help"]), "expedition": (expedition, ["--help"]),
         "expedition-move": (expedition, ["move", "--help"]),
         "elfenland-route-bogus": (elfenland, ["route", "--bogus"])}
"""Help pages and a usage error as the planner printed them in English before the help spoke other languages."""
MARK = "☆"


def invoke(group: click.Group, args: list[str], **env: str) -> Any:
    return CliRunner().invoke(group, args, env={"ELFENLAND_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "",
                                                "COLUMNS": "100", **env})


@pytest.mark.parametrize("page", sorted(PAGES))
def test_english_help_is_unchanged(page: str) -> None:
    group, args = PAGES[page]
    assert invoke(group, args, ELFENLAND_LANG="en").output == (ENGLISH / f"{page}.txt").read_text("utf-8")


class Marked:
    """A stand-in catalogue: every message it is asked for comes back marked, so each one that went through
    gettext shows."""

    def gettext(self, message: str) -> str:
        return MARK + message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return MARK + (singular if n == 1 else plural)


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(i18n, "catalogue", lambda lang, domain=i18n.DOMAIN: Marked())
    yield


def _lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip()]


def test_help_goes_through_the_catalogues(marked: None) -> None:
    for args in (["--lang", "uk", "route", "--help"], ["route", "--help", "--lang", "uk"],
                 ["route", "--lang=uk", "--help"]):
        result = invoke(elfenland, args)
        assert result.exit_code == 0, result.output
        assert result.output.startswith(f"{MARK}Usage: ")
        assert f"{MARK}Find the best route" in result.output
        assert f"{MARK}Options:" in result.output  # click's "Options", then its colon
        assert f"{MARK}Cards in hand:" in result.output
        assert f"{MARK}Show this message and exit." in result.output  # click's --help
        assert f"{MARK}Language of the answer" in result.output
    listing = invoke(elfenland, ["--help"], ELFENLAND_LANG="uk").output
    assert f"{MARK}Commands:" in listing and f"{MARK}Show the version and exit." in listing
    assert re.search(rf"route\s+{MARK}Find the best route", listing)  # the short help in the list too


def test_every_help_text_of_both_commands_is_looked_up(marked: None) -> None:
    shown = ""
    for group, name in ((elfenland, "elfenland"), (expedition, "expedition")):
        shown += invoke(group, ["--help"], ELFENLAND_LANG="ja").output
        for command in group.commands:
            result = invoke(group, [command, "--help"], ELFENLAND_LANG="ja")
            assert result.exit_code == 0, (name, command, result.output)
            shown += result.output
    flat = "".join(shown.split())  # words may fold anywhere, even at a hyphen
    for text in help_messages():
        assert MARK + "".join(text.split())[:40] in flat, text
    assert MARK * 2 not in flat  # nothing translated twice


def test_usage_errors_speak_before_any_callback(marked: None) -> None:
    # click refuses an unknown option while parsing, before --lang's callback: the command line is read first
    for args in (["--lang", "ja", "route", "--bogus"], ["route", "--bogus", "--lang=ja"],
                 ["route", "--round", "9", "--lang", "ja"]):
        result = invoke(elfenland, args)
        assert result.exit_code == 2, result.output
        assert f"{MARK}Error: " in result.output and f"{MARK}Try '" in result.output, result.output
    assert f"{MARK}No such option" in invoke(elfenland, ["route", "--bogus", "--lang", "ja"]).output
    result = invoke(expedition, ["move", "--tickets", "x"], ELFENLAND_LANG="pl")
    assert result.exit_code == 2 and f"{MARK}Invalid value for" in result.output, result.output


def test_an_unknown_lang_is_still_a_usage_error() -> None:
    result = invoke(elfenland, ["route", "--lang", "de", "--help"])
    assert result.exit_code == 2 and "unknown language 'de'" in result.output


def test_english_after_another_language_is_english(marked: None) -> None:
    invoke(elfenland, ["--lang", "uk", "route", "--bogus"])
    result = invoke(elfenland, ["route", "--bogus"])
    assert MARK not in result.output and result.output.startswith("Usage: ")


def _binds_gettext(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "gettext":
            return True
        if isinstance(node, ast.Import) and any(alias.name == "gettext" for alias in node.names):
            return True
    return False


def test_every_click_module_that_translates_is_routed() -> None:
    """An upgrade of click that translates in another module, or another way, fails here."""
    translating = {f"click.{path.stem}" for path in CLICK_SOURCE.glob("*.py") if _binds_gettext(path)}
    assert translating - {"click._winconsole"} == set(conventions.CLICK_MODULES)  # Windows-only, never imported
    conventions.route_click()
    for name in conventions.CLICK_MODULES:
        module = importlib.import_module(name)
        assert getattr(module, "_", conventions.click_gettext) is conventions.click_gettext, name
        assert getattr(module, "ngettext", conventions.click_ngettext) is conventions.click_ngettext, name
        assert hasattr(module, "_") or hasattr(module, "ngettext"), name
    assert conventions.HELP_OPTION_HELP in click_messages()
    assert click_messages() >= {"Usage:", "Options", "Commands", "No such option {name!r}.", "Error: {message}"}


def test_english_start_up_loads_no_more() -> None:
    code = ("import sys, gettext, click.core; from click.testing import CliRunner; from planner.cli import cli; "
            "r = CliRunner().invoke(cli, ['route', '--at', 'riv', '--hand', 'ED', '--tile', 'riv-thr E']); "
            "assert r.exit_code == 0, r.output; "
            "from planner.cli.conventions import click_gettext; "
            "print(click.core._ is click_gettext, 'planner.cli.help_catalogue' in sys.modules, "
            "'locale' in sys.modules, 'planner.cli.wrapping' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                            env={"PATH": "", "ELFENLAND_LANG": "en"})
    assert result.returncode == 0, result.stderr
    # click's words asked of the click catalogue (English: the source, no disk search, no locale module), the
    # extractor and the Japanese help's wrapping never loaded
    assert result.stdout.split() == ["True", "False", "False", "False"]


# -- with the real catalogues: these pass once the help texts and click's words are translated -----------------
WORD = re.compile(r"[A-Za-z]{3,}")
LETTERS = re.compile(r"[^\W\d_]{3,}")
"""A word of any script: the Polish *mapę* is not the English *map* followed by a letter."""
SPARED = re.compile(r"""\b(?:Ctrl-C|CP-SAT|OR-Tools|Python|JSON(?:\s+lines)?|SVG|PNG|search|cpsat|auto|Ray|stdin|
                           maximin|locale|solver|pip\s+install\s+\S+)\b|
                        \b(?:Elfenland|Expeditions?|Kramer)\b|
                        --[\w-]+|"[^"]*"|'[^']*'|`[^`]*`|\[[^\]]*\]|\S+\.(?:toml|svg|png|token|jsonl)\b|
                        \b[A-Z][A-Z_]{1,}\b|[^\s"'`]*\d[^\s"'`]*""",
                    re.VERBOSE)
"""What a help page says in any language: product, solver and format names, terms of the trade (``stdin``,
``locale``, ``maximin``), install commands, option names, quoted notation, defaults and choices in brackets,
metavars, numbers and file names."""
OPTION_COLUMN = re.compile(r"^\s*-[^\s,]*(?:,\s*-\S+)*(?:\s[A-Z][A-Z_.:|\[\]]*)?(?=\s{2,}|$)")
"""The first column of an option's line (``-k, --alternatives N``): dropped, its help kept."""
COINCIDENCES = {"pl": frozenset({"one", "folder", "link", "alias", "but", "same", "port", "token"}),
                "cs": frozenset({"alias", "port", "token", "server", "cluster"})}
"""Words of a language spelled as English ones: Polish *one* "they", *but* "boot", *te same* "the same", and the
loanwords of both (*port*, *token*, *server*, *cluster*, *folder*, *link*, *alias*)."""


@functools.cache
def _notation() -> frozenset[str]:
    """Words a translation keeps as they are: option values (``flat``, ``always``) and town codes (``elv``)."""
    import json

    from english import ROOT, names  # tests/helpers

    words = {str(value).lower() for _, command in help_catalogue.commands() for param in command.params
             if isinstance(param.type, click.Choice) for value in param.type.choices}
    words |= {word for name, _ in help_catalogue.commands() for word in name.split()}
    words |= set(SEATS)  # the bots' kinds, typed as they are in --seats and --bots
    words |= {word.lower() for name in names() for word in WORD.findall(name)}
    board = json.loads((ROOT / "planner/elfenland/data/board.json").read_text("utf-8"))
    return frozenset(words | {town["code"].lower() for town in board["towns"]} | {"ddc", "ddcrr"})


@functools.cache
def _english_words() -> frozenset[str]:
    words: set[str] = set()
    for message in (*help_messages(), *click_messages()):
        for text in (message,) if isinstance(message, str) else message:
            words.update(w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words)


def help_leaks(output: str, lang: str = "") -> set[str]:
    """English words of the help and click's messages left in ``output`` (option names, metavars, notation in
    quotes, defaults in brackets, the example command lines and product names aside)."""
    # an option name that click broke at its hyphen (``--time-`` / ``limit``) is whole again; an option's line
    # keeps its help (the second column), so that a quote going on over the next line is still one quote
    output = re.sub(r"(?<=\w-)\n\s*", "", output)
    kept = [OPTION_COLUMN.sub("", line) for line in output.splitlines()
            if not re.match(r"\s*(?:elfenland\s|expedition\s)", line)]
    text = SPARED.sub(" ", "\n".join(kept))
    spared = _notation() | COINCIDENCES.get(lang, frozenset())
    return {w for w in LETTERS.findall(text) if w.lower() in _english_words() and w.lower() not in spared}


def test_route_help_is_translated_in_ukrainian() -> None:
    result = invoke(elfenland, ["--lang", "uk", "route", "--help"])
    assert result.exit_code == 0, result.output
    assert not help_leaks(result.output), help_leaks(result.output)


def test_usage_error_is_translated_in_japanese() -> None:
    result = invoke(elfenland, ["--lang", "ja", "route", "--bogus"])
    assert result.exit_code == 2
    words = i18n.catalogue("ja", "click")
    assert result.output.startswith(words.gettext("Usage:") + " cli route ")
    assert words.gettext("No such option {name!r}.").format(name="--bogus") in result.output
    assert not help_leaks(result.output), help_leaks(result.output)


@pytest.mark.parametrize(("group", "name"), [(elfenland, "elfenland"), (expedition, "expedition")])
@pytest.mark.parametrize("lang", [lang for lang in i18n.LANGUAGES if lang != "en"])
def test_every_help_page_is_translated_in_every_language(group: click.Group, name: str, lang: str) -> None:
    leaked = {}
    for args in ([], *([command] for command in group.commands)):
        output = invoke(group, [*args, "--help"], ELFENLAND_LANG=lang).output
        if help_leaks(output, lang):
            leaked[" ".join([name, *args])] = sorted(help_leaks(output, lang))
    assert not leaked, leaked
