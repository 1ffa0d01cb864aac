"""Choosing the language (--lang, ELFENLAND_LANG, the locale) and speaking it: numbers, lists, --lang everywhere."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from planner.common import i18n


@pytest.fixture
def speak() -> Iterator[None]:
    yield
    i18n.use(None)


@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"),
    ({"LANG": "uk_UA.UTF-8"}, "uk"),
    ({"LANG": "uk_UA.UTF-8", "LC_ALL": "cs_CZ.UTF-8"}, "cs"),  # LC_ALL before LANG, as the C library reads them
    ({"LC_ALL": "ja_JP.UTF-8", "ELFENLAND_LANG": "pl"}, "pl"),  # the planner's own variable first
    ({"ELFENLAND_LANG": "xx", "LANG": "ru_RU"}, "ru"),  # a variable naming no language we speak is passed over
    ({"LANG": "de_DE.UTF-8"}, "en"),  # a locale we do not speak: English
    ({"LC_ALL": "C", "LANG": "uk_UA"}, "en"),  # C decides (the first one set wins), and C is English
    ({"LANG": "ja-JP"}, "ja"),
])
def test_choose_from_the_environment(environ: dict[str, str], lang: str) -> None:
    assert i18n.choose(environ=environ) == lang


def test_the_option_beats_the_environment() -> None:
    assert i18n.choose("cs", environ={"ELFENLAND_LANG": "ja"}) == "cs"
    with pytest.raises(ValueError, match="unknown language 'xx'; choose one of en, uk, pl, cs, ja, ru"):
        i18n.choose("xx")


@pytest.mark.usefixtures("speak")
def test_numbers_and_lists_follow_the_language() -> None:
    i18n.use("cs")
    assert i18n.format_number(0.854, ".2f") == "0,85"  # Czech writes a decimal comma
    # CLDR keeps the one-letter "a" off a line end with a no-break space, as Czech typesetting asks
    assert i18n.format_list(["Virst", "Yttar", "Beata"]) == "Virst, Yttar a\N{NO-BREAK SPACE}Beata"
    assert i18n.say("{value:.1f} ± {error:.1f}", value=2.25, error=0.5) == "2,2 ± 0,5"
    i18n.use("ja")
    assert i18n.format_list(["a", "b", "c"]) == "a、b、c"
    i18n.use("en")
    assert i18n.format_list(["a", "b", "c"]) == "a, b and c"  # the planner's English, as before
    assert i18n.format_number(0.854, ".2f") == "0.85"


@pytest.mark.usefixtures("speak")
def test_a_translated_sentence_fills_its_placeholders() -> None:
    i18n.use("pl")
    assert i18n.say("ends in {town}", town="Virst") == "kończy w Virst"
    assert i18n.ngettext("{n} town", "{n} towns", 22).format(n=22) == "22 miasta"


def _commands(group: click.Group) -> list[click.Command]:
    ctx = click.Context(group)
    return [c for name in group.list_commands(ctx) if (c := group.get_command(ctx, name)) is not None]


def test_every_command_of_both_groups_takes_lang() -> None:
    from planner.cli.elfenland import cli as elfenland
    from planner.cli.expedition import cli as expedition

    for group in (elfenland, expedition):
        assert any(p.name == "lang" for p in group.params)
        for command in _commands(group):
            assert any(p.name == "lang" for p in command.params), command.name


@pytest.mark.usefixtures("speak")
def test_lang_option_and_variable_on_the_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from planner.cli.elfenland import cli

    runner = CliRunner()
    args = ["route", "--at", "elv", "--hand", "D"]
    assert "закінчується в" in runner.invoke(cli, [*args, "--lang", "uk"]).output
    assert "で終わる" in runner.invoke(cli, ["--lang", "ja", *args]).output  # the group's option holds too
    monkeypatch.setenv("ELFENLAND_LANG", "cs")
    assert "končí v" in runner.invoke(cli, args).output
    assert "ends in" in runner.invoke(cli, [*args, "--lang", "en"]).output
    bad = runner.invoke(cli, [*args, "--lang", "xx"])
    assert bad.exit_code == 2 and "neznámý jazyk 'xx'" in bad.output  # refused in the environment's language


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_decimal_signs_are_cldrs(lang: str) -> None:
    from babel.numbers import get_decimal_symbol

    assert i18n.DECIMAL_SIGN[lang] == get_decimal_symbol(lang)
