"""Every name the Elfenland rule texts use (shared seeds 000 uk, 001 pl, 002 cs, 003 ja) resolves to its thing.

The lists are copied by hand from the rule texts (nominative forms; the Polish text names the transports in the
plural, so both forms are listed), never generated from the project's name data.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest
from click.testing import CliRunner

from planner.cli.elfenland import cli
from planner.elfenland.notation import parse_cards, parse_town, parse_transport
from planner.elfenland.rules import Transport
from planner.errors import NotationError

SEED_TOWNS = [
    ("Ельфенголд", "ELV"),  # 000 uk: "у столиці Ельфійського краю – Ельфенголді"
    ("エルフェンホルト", "ELV"), ("トロットマニ", "THR"), ("ヤッカランダ", "JAC"),  # 003 ja
    ("Elvenhold", "ELV"), ("Virst", "VIR"), ("Strykhaven", "STR"), ("Grangor", "GRA"), ("Yttar", "YTT"),
    ("Parundie", "PAR"),  # 002 cs: "mezi Grangorem, Yttarem a Parundií"
    ("Elvenhold", "ELV"), ("Throtmanni", "THR"), ("Jaccaranda", "JAC"), ("Elfenhold", "ELV"),  # 003 ja, in Latin
]

P, E, C, U, T, D, R = (Transport(letter) for letter in "PECUTDR")
SEED_TRANSPORTS = [
    # 000 uk
    ("кабан-велетень", P), ("ельфоцикл", E), ("чарівна хмара", C), ("одноріг", U), ("вагонетка тролів", T),
    ("дракон", D), ("пліт", R),
    # 001 pl (plural in the text) and the singular a player says
    ("gigantyczne świnie", P), ("elfi wózki", E), ("jednorożce", U), ("tratwy", R), ("magiczne chmury", C),
    ("wózki trolli", T), ("smoki", D), ("gigantyczna świnia", P), ("elfi wózek", E), ("jednorożec", U),
    ("tratwa", R), ("magiczna chmura", C), ("wózek trolli", T), ("smok", D),
    # 002 cs
    ("Drak", D), ("Plachtocykl", E), ("Jednorožec", U), ("Kouzelný mrak", C), ("Trollkolka", T),
    ("Jízdní kanec", P), ("Vor", R),
    # 003 ja
    ("大イノシシ", P), ("エルフの帆走車", E), ("魔法の雲", C), ("ユニコーン", U), ("トロールの力車", T),
    ("ドラゴン", D), ("いかだ", R),
]


@pytest.mark.parametrize(("name", "code"), SEED_TOWNS)
def test_every_seed_town_name_resolves(name: str, code: str) -> None:
    assert parse_town(name) == code


@pytest.mark.parametrize(("name", "transport"), SEED_TRANSPORTS)
def test_every_seed_transport_name_resolves(name: str, transport: Transport) -> None:
    assert parse_transport(name) is transport


def test_a_hand_in_czech_and_japanese_words() -> None:
    counts = parse_cards("drak drak kouzelný mrak jednorožec いかだ")
    assert {t: n for t, n in counts.items() if n} == {D: 2, C: 1, U: 1, R: 1}


def test_a_hand_in_polish_two_word_names_counted() -> None:
    counts = parse_cards("2 magiczne chmury wózek trolli")
    assert {t: n for t, n in counts.items() if n} == {C: 2, T: 1}


def test_the_issue_command_works_with_the_ukrainian_capital() -> None:
    result = CliRunner().invoke(cli, ["route", "--at", "Ельфенголд", "--hand", "D D C U", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["position"].split()[1] == "ELV"


@pytest.mark.parametrize(("typed", "hint"), [
    ("Ельфенхолт", "Ельфен[гх]олд"),  # a Cyrillic slip: the hint in Cyrillic (the name or its common spelling)
    ("Elfengold", "Elvenhold"),  # the Ukrainian name typed in Latin letters: the board's name
    ("エルフェンホルド", None),  # ト/ド differ only by a voicing mark, which the forgiving match ignores
])
def test_did_you_mean_across_scripts(typed: str, hint: str | None) -> None:
    if hint is None:
        assert parse_town(typed) == "ELV"
        return
    with pytest.raises(NotationError, match=f"did you mean '{hint}'"):
        parse_town(typed)


def test_other_spellings_of_a_cyrillic_name_resolve() -> None:
    # Russian е/э and и/і: the same sounds, another alphabet's letters
    assert parse_town("Эльфенхольд") == "ELV"
    assert parse_town("Тротманни") == "THR" == parse_town("Тротманні")


def test_every_name_in_the_data_says_where_it_comes_from() -> None:
    text = resources.files("planner.elfenland").joinpath("data/names.json").read_text(encoding="utf-8")
    sources = {entry["source"] for groups in json.loads(text)["languages"].values()
               for things in groups.values() for entry in things.values()}
    assert sources <= {"transliterated", "translated", "seed:000-uk", "seed:001-pl", "seed:002-cs", "seed:003-ja"}


def test_every_thing_has_a_name_in_every_language() -> None:
    from planner.elfenland.board import load_board
    from planner.elfenland.local_names import BOOK

    codes = set(load_board().towns)
    for lang in ("uk", "ru", "ja"):  # the scripts other than Latin: every town written in them
        assert set(BOOK.languages[lang]["towns"]) == codes, lang
    for lang in ("uk", "pl", "cs", "ja", "ru"):
        assert set(BOOK.languages[lang]["transports"]) == set("PECUTDR"), lang
        assert set(BOOK.languages[lang]["terrains"]) == set("pfdmrl"), lang


def test_every_green_location_has_its_russian_name() -> None:
    from planner.expedition.board import load_board
    from planner.expedition.local_names import BOOK

    assert set(BOOK.languages["ru"]["locations"]) == set(load_board().greens)
