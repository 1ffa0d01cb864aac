"""Every bundled scenario answered in Japanese and Ukrainian prints no English words (names and notation aside).

The English words to look for are those of the catalogue's source messages (extracted from the code), so a text
that is marked but untranslated, or a sentence built outside the catalogue from marked words, shows up here. What
may stay as it is: the scenario's own title and notes (data a person wrote), the notation (position lines, moves),
place names, and the solver's name.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner
from english import english_words, leaks  # tests/helpers

from planner.cli.elfenland import cli as elfenland
from planner.cli.expedition import cli as expedition

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.toml"))
EXPEDITIONS = sorted((ROOT / "scenarios" / "expedition").glob("*.toml"))
WIDE = {"COLUMNS": "1000"}  # no line folded: notation and moves stay whole, to be told apart from words


def _scenario_text(path: Path) -> list[str]:
    data = tomllib.loads(path.read_text("utf-8"))
    return [str(data.get(key, "")) for key in ("title", "notes") if data.get(key)]


def test_the_word_list_holds_the_sources_words() -> None:
    assert {"caravan", "town", "optimal", "arrows"} <= english_words()


def test_an_english_answer_is_caught() -> None:
    runner = CliRunner(env=WIDE)
    result = runner.invoke(elfenland, ["route", str(SCENARIOS[0]), "--lang", "en"])
    assert leaks(result.output, spared=_scenario_text(SCENARIOS[0]))


@pytest.mark.parametrize("lang", ["ja", "uk"])
@pytest.mark.parametrize("command", ["route", "check"])
def test_elfenland_answers_speak_the_language(command: str, lang: str) -> None:
    runner = CliRunner(env=WIDE)
    for path in SCENARIOS:
        result = runner.invoke(elfenland, [command, str(path), "--lang", lang])
        assert result.exit_code == 0, result.output
        assert not leaks(result.output, spared=_scenario_text(path)), (path.name, result.output)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ja", "uk"])
@pytest.mark.parametrize("command", ["place", "explain"])
def test_advice_and_explanations_speak_the_language(command: str, lang: str) -> None:
    runner = CliRunner(env=WIDE)
    for path in SCENARIOS:
        result = runner.invoke(elfenland, [command, str(path), "--lang", lang, "--nodes", "20000"])
        assert result.exit_code == 0, result.output
        assert not leaks(result.output, spared=_scenario_text(path)), (path.name, result.output)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ja", "uk"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_puzzles_and_grades_speak_the_language(seed: int, lang: str) -> None:
    runner = CliRunner(env=WIDE)
    theme = ("caravan", "upstream", "ferry", "backtrack", "home", "obstacle")[seed - 1]
    args = ["puzzle", "--seed", str(seed), "--theme", theme, "--no-scores"]
    best = json.loads(runner.invoke(elfenland, [*args, "--json"]).output)["answer"]["answers"][0]["route"]
    for route in (best, "-", best.split()[0]):  # right, no answer, and (most likely) short of the best
        result = runner.invoke(elfenland, [*args, "--route", route, "--lang", lang])
        assert result.exit_code in (0, 2), result.output
        assert not leaks(result.output, spared=[route]), (route, result.output)


def _actions(document: dict[str, object]) -> list[str]:
    found = [str(a) for a in document.get("actions", [])]  # type: ignore[attr-defined]
    for other in document.get("alternatives", []):  # type: ignore[attr-defined]
        found += [str(a) for a in other["actions"]]
    return found


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_expedition_reach_speaks_the_language(lang: str) -> None:
    runner = CliRunner(env=WIDE)
    for path in EXPEDITIONS:
        result = runner.invoke(expedition, ["reach", str(path), "--lang", lang])
        assert result.exit_code == 0, result.output
        assert not leaks(result.output, spared=_scenario_text(path)), (path.name, result.output)


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_expedition_move_speaks_the_language(lang: str) -> None:
    runner = CliRunner(env=WIDE)
    for path in EXPEDITIONS:
        args = ["move", str(path), "--nodes", "20000"]
        document = json.loads(runner.invoke(expedition, [*args, "--json"]).output)
        result = runner.invoke(expedition, [*args, "--lang", lang])
        assert result.exit_code == 0, result.output
        # the actions are notation (``ticket yellow Gizeh>Sahara``), the same in every language
        assert not leaks(result.output, spared=[*_scenario_text(path), *_actions(document)]), (path.name,
                                                                                              result.output)


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_pictures_declare_their_language(lang: str, tmp_path: Path) -> None:
    runner = CliRunner(env=WIDE)
    board = tmp_path / "board.svg"
    assert runner.invoke(elfenland, ["show", str(SCENARIOS[0]), "--svg", str(board), "--lang", lang]).exit_code == 0
    world = tmp_path / "world.svg"
    assert runner.invoke(expedition, ["reach", str(EXPEDITIONS[0]), "--svg", str(world), "--lang", lang]).exit_code == 0
    for picture in (board, world):
        head = picture.read_text("utf-8")[:600]
        assert f'xml:lang="{lang}"' in head
        assert ('font-family="Noto Sans CJK JP' in head) == (lang == "ja")  # cairosvg draws with the first family


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_the_board_listing_speaks_the_language(lang: str) -> None:
    runner = CliRunner(env=WIDE)
    for args in (["board"], ["board", "elv"], ["board", "vir"]):
        result = runner.invoke(elfenland, [*args, "--lang", lang])
        assert result.exit_code == 0, result.output
        assert not leaks(result.output, spared=[]), (args, result.output)


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_a_positions_problems_speak_the_language(lang: str) -> None:
    runner = CliRunner(env=WIDE)
    args = ["check", "--at", "elv", "--hand", "DDDDDDDDDDD", "--tile", "elv-lap U, bea-elv:r D, elv-erg X"]
    result = runner.invoke(elfenland, [*args, "--lang", lang])
    assert result.exit_code == 2, result.output
    english = runner.invoke(elfenland, args)
    assert english.output.count("•") == result.output.count("•") == 4  # every problem at once, in any language
    assert not leaks(result.output, spared=["BEA-ELV:r", "ELV-LAP:p", "ELV-ERG:f"]), result.output


def _unquoted(output: str) -> str:
    """``output`` without its quoted spans: what an error quotes is the input as typed or a notation example."""
    return re.sub(r"'[^'\n]*'", " ", output)


def _problems(output: str) -> int:
    """How many problems an error lists: ``- `` lines after a counted heading, or ``•`` items of a check."""
    return output.count("\n- ") + output.count("•") or int(bool(output.strip()))


BAD_INPUTS = [  # (arguments, what the message must name): each a mistake a player makes at the table
    (["route", "--at", "Ельфенхолт", "--hand", "D D C Q"], "Ельфенхолд"),  # did you mean, in the script typed
    (["route", "--at", "Elfengold", "--hand", "DDX"], "Elvenhold"),  # an obstacle's letter among the cards
    (["check", "--at", "elv", "--hand", "DD", "--tile", "elv-thr D"], "elv-thr"),  # towns that are not neighbours
    (["check", "--at", "elv", "--hand", "DD", "--tile", "elv-lap:q D"], "elv-lap:q"),  # a bad terrain letter
    (["check", "--at", "elv", "--hand", "DD", "--tile", "elv-lap"], "elv-lap"),  # a tile without its counter
    (["check", "- ELV DD - x9"], "x9"),  # a round that is no number
    (["check", "- ELV DD - 1 rounds=5"], "rounds"),  # a rule option's value that is none
    (["check", "nosuchfile.toml"], "nosuchfile.toml"),
    (["check", str(SCENARIOS[0]), "--route", "lap/D vir/E"], "ELV-LAP:p"),  # a step paid with the wrong card
    (["check", str(SCENARIOS[0]), "--route", "elv/D"], "elv/D"),  # a step to the town the boot is in
    (["check", str(SCENARIOS[0]), "--route", "lap/P zzz/E"], "zzz"),  # an unknown town in a route
]


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_errors_of_reading_speak_the_language(lang: str) -> None:
    runner = CliRunner(env=WIDE)
    for args, named in BAD_INPUTS:
        result = runner.invoke(elfenland, [*args, "--lang", lang])
        assert result.exit_code == 2, (args, result.output)
        assert named in result.output, (args, result.output)
        english = runner.invoke(elfenland, args).output
        assert _problems(english) == _problems(result.output) >= 1  # every problem, in any language
        spared = [word for a in args[1:] for word in (a, *a.split())] + _scenario_text(SCENARIOS[0])
        assert not leaks(_unquoted(result.output), spared=spared), (args, result.output)


def test_a_position_files_mistakes_speak_the_language(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('at = "Ельфенхолт"\nhand = 5\ncolour = "red"\nround = 9\n[tiles]\n"elv-lap" = 3\n', "utf-8")
    runner = CliRunner(env=WIDE)
    english = runner.invoke(elfenland, ["check", str(path)])
    for lang in ("ja", "uk"):
        result = runner.invoke(elfenland, ["check", str(path), "--lang", lang])
        assert result.exit_code == 2, result.output
        assert _problems(english.output) == _problems(result.output) >= 4
        assert "Ельфенхолд" in result.output
        keys = ["bad.toml", "colour", "round", "hand", "tiles", "[tiles]", "elv-lap", "at", "title", "notes", "visited",
                "home", "rules", "expect", "supply", "obstacle", "display", "seen", "players", "opponent"]
        assert not leaks(_unquoted(result.output), spared=keys), result.output


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_expeditions_position_problems_and_setup_speak_the_language(lang: str, tmp_path: Path) -> None:
    text = EXPEDITIONS[0].read_text("utf-8")
    for right, wrong in (('me = "Ben"', 'me = "Bne"'), ('"Uluru", "Timbuktu"', '"Ulurru", "Timbuktu", "Timbuktu"'),
                         ("arrows_left = 38", "arrows_left = 30"), ('["start", "Athens"', '["Athens"')):
        assert right in text
        text = text.replace(right, wrong)  # five mistakes: me, a name, a card twice, the arrows, the path's start
    path = tmp_path / "bad.toml"
    path.write_text(text, "utf-8")
    runner = CliRunner(env=WIDE)
    english = runner.invoke(expedition, ["reach", str(path)])
    result = runner.invoke(expedition, ["reach", str(path), "--lang", lang])
    assert result.exit_code == english.exit_code == 2, result.output
    assert _problems(english.output) == _problems(result.output) == 5
    assert "'Ben'" in result.output and "'Uluru'" in result.output  # the did-you-means
    keys = ["bad.toml", "me", "common", "expedition.blue.arrows_left", "Ann", "Ben", "Cleo"]
    assert not leaks(_unquoted(result.output), spared=keys), result.output
    setup = runner.invoke(expedition, ["setup", str(EXPEDITIONS[-1]), "--lang", lang])
    assert setup.exit_code == 0, setup.output
    assert not leaks(setup.output, spared=_scenario_text(EXPEDITIONS[-1])), setup.output


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_the_trainers_session_speaks_the_language(lang: str) -> None:
    runner = CliRunner(env=WIDE)
    args = ["puzzle", "--seed", "7", "--theme", "caravan", "--difficulty", "1", "--no-scores", "-n", "2"]
    first = runner.invoke(elfenland, [*args, "--json"]).output.splitlines()[0]
    best = json.loads(first)["answer"]["answers"][0]["route"]
    script = "\n".join(["help", "hint", "nowhere/D", best, "skip", "stats"]) + "\n"
    result = runner.invoke(elfenland, [*args, "--lang", lang], input=script)
    assert result.exit_code == 0, result.output
    english = runner.invoke(elfenland, args, input=script)
    assert leaks(english.output, spared=[best, "nowhere/D"])
    commands = ["help", "hint", "skip", "stats", "quit", "nowhere"]  # typed as they are in every language
    spared = [best, "nowhere/D", "--route STEPS", *commands]
    assert not leaks(_unquoted(result.output), spared=spared), result.output


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_an_expeditions_turns_refusals_speak_the_language(lang: str) -> None:
    import contextvars

    from planner.common import i18n
    from planner.errors import PlannerError
    from planner.expedition.position_file import load_position
    from planner.expedition.turn import replay

    position = load_position(EXPEDITIONS[0])
    turns = ["yellow Gizeh>Aksum", "blue Zagorsk>Gizeh", "ticket remove red", "red start>zzz",
             "yellow Sigiriya>Gizeh yellow Gizeh>Aksum"]  # a wrong start, a wrong head, no arrow, a bad spot, no ticket

    def refusals() -> list[str]:
        i18n.use(lang)  # in a copied context: the other tests keep their language
        found = []
        for turn in turns:
            with pytest.raises(PlannerError) as caught:
                replay(position, turn)
            found.append(str(caught.value))
        return found

    said = contextvars.copy_context().run(refusals)
    assert len(said) == len(turns)
    spots = ["Sigiriya", "Gizeh", "Aksum", "Novosibirsk", "Zagorsk"]
    for text in said:
        assert not leaks(_unquoted(text), spared=spots), text


@pytest.mark.parametrize("lang", ["ja", "uk"])
def test_notes_on_standard_error_speak_the_language(lang: str, tmp_path: Path) -> None:
    runner = CliRunner(env=WIDE)
    board = tmp_path / "board.svg"
    drew = runner.invoke(elfenland, ["show", str(SCENARIOS[0]), "--svg", str(board), "--lang", lang])
    assert drew.exit_code == 0 and str(board) in drew.output
    wrong = tmp_path / "board.png"
    refused = runner.invoke(elfenland, ["route", str(SCENARIOS[0]), "--svg", str(wrong), "--lang", lang])
    assert refused.exit_code == 2 and str(wrong) in refused.output
    for result in (drew, refused):
        output = result.output.replace(str(board), " ").replace(str(wrong), " ")
        assert not leaks(_unquoted(output), spared=["--svg", "--png", "SVG", ".svg"]), result.output


@pytest.mark.parametrize(("lang", "hint"), [("cs", "'drak'"), ("pl", "'smok'"), ("uk", "'dragon'"), ("en", "'dragon'")])
def test_a_cards_did_you_mean_names_it_in_the_language_in_the_letters_typed(lang: str, hint: str) -> None:
    result = CliRunner(env=WIDE).invoke(elfenland, ["route", "--at", "elv", "--hand", "drk", "--lang", lang])
    assert result.exit_code == 2 and hint in result.output, result.output  # Ukrainian's дракон is in other letters
