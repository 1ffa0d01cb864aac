"""planner.common.forms: capped reads, TOML that never crashes, and typed keys with every problem noted at once."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from planner.common.forms import MAX_INPUT_BYTES, MAX_NESTING, Form, load_toml, path_exists, read_path, read_stdin
from planner.common.problems import Problems
from planner.errors import IllegalPositionError

KEYS = ("title", "round", "hand", "home_variant", "rules", "opponent", "tiles")


def _form(text: str) -> tuple[Form, Problems]:
    problems = Problems()
    return Form(load_toml(text, source="p.toml"), problems, keys=KEYS), problems


def _messages(problems: Problems) -> list[str]:
    return [p.message for p in problems.found]


# -- reading ------------------------------------------------------------------------------------------------------
def test_read_path_reads_utf8_and_never_writes(tmp_path: Path) -> None:
    path = tmp_path / "p.toml"
    path.write_bytes('at = "Beatá"\n'.encode())
    before = path.stat().st_mtime_ns
    assert read_path(path) == 'at = "Beatá"\n'
    assert path.stat().st_mtime_ns == before


def test_read_path_says_what_is_wrong_with_the_file(tmp_path: Path) -> None:
    cases = {
        tmp_path / "missing.toml": f"no such position file {str(tmp_path / 'missing.toml')!r}",
        tmp_path: f"position file {str(tmp_path)!r} is a folder",
    }
    latin = tmp_path / "latin.toml"
    latin.write_bytes('at = "Beat\xe1"\n'.encode("latin-1"))
    cases[latin] = f"position file {str(latin)!r} is not UTF-8 text (invalid continuation byte at byte 10)"
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (MAX_INPUT_BYTES + 1))
    cases[big] = f"position file {str(big)!r} is larger than 1024 KiB: not a position file"
    for path, message in cases.items():
        with pytest.raises(IllegalPositionError) as error:
            read_path(path)
        assert str(error.value) == message


def test_a_file_of_exactly_the_cap_is_read(tmp_path: Path) -> None:
    path = tmp_path / "full.toml"
    path.write_bytes(b"#" * MAX_INPUT_BYTES)
    assert len(read_path(path)) == MAX_INPUT_BYTES


def test_read_stdin_reads_the_binary_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO('hand = "Dé"\n'.encode()), encoding="utf-8"))
    assert read_stdin() == 'hand = "Dé"\n'


def test_read_stdin_refuses_a_closed_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr(sys, "stdin", closed)
    with pytest.raises(IllegalPositionError, match="standard input is closed"):
        read_stdin()


def test_path_exists_is_false_for_names_the_system_refuses(tmp_path: Path) -> None:
    assert path_exists(str(tmp_path))
    assert not path_exists(str(tmp_path / "nothing"))
    assert not path_exists("bad\0name")
    assert not path_exists("x" * 100_000)


# -- TOML -----------------------------------------------------------------------------------------------------------
def test_load_toml_turns_each_failure_into_one_problem_naming_the_source() -> None:
    with pytest.raises(IllegalPositionError, match=r"^p\.toml is not valid TOML: "):
        load_toml("round = = 3", source="p.toml")
    with pytest.raises(IllegalPositionError, match=f"p.toml nests arrays or tables deeper than {MAX_NESTING}"):
        load_toml("x = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1), source="p.toml")
    with pytest.raises(IllegalPositionError, match="p.toml, line 1: 'round' is a number of 5000 digits") as raised:
        load_toml("round = " + "9" * 5000, source="p.toml")
    assert "int_max_str_digits" not in str(raised.value)  # the game's words, not Python's


def test_load_toml_accepts_nesting_up_to_the_limit() -> None:
    # The document is a table itself: a key holding 31 nested arrays nests 32 levels, the most accepted.
    deep = MAX_NESTING - 1
    assert "x" in load_toml("x = " + "[" * deep + "]" * deep, source="p.toml")
    with pytest.raises(IllegalPositionError):
        load_toml("x = " + "[" * (deep + 1) + "]" * (deep + 1), source="p.toml")


# -- typed keys -----------------------------------------------------------------------------------------------------
def test_an_unknown_key_gets_a_did_you_mean_else_the_list_of_keys() -> None:
    _, problems = _form('rond = 3\nzzz = 1\n')
    assert _messages(problems) == [
        "unknown key 'rond'; did you mean 'round'?",
        "unknown key 'zzz'; keys are title, round, hand, home_variant, rules, opponent, tiles",
    ]
    assert [(p.kind, p.field, p.value) for p in problems.found] == [("unknown-key", "rond", "rond"),
                                                                    ("unknown-key", "zzz", "zzz")]


def test_every_typed_getter_notes_a_wrong_type_and_returns_none() -> None:
    form, problems = _form('title = 5\nround = 3.0\nhand = 5\nhome_variant = "yes"\n')
    assert form.text("title") is None
    assert form.integer("round", low=1, high=4) is None
    assert form.strings("hand") is None
    assert form.boolean("home_variant") is None
    assert _messages(problems) == [
        "title must be a string, got 5",
        "round must be a whole number 1..4, got 3.0",
        "hand must be a list of names, got 5",
        "home_variant must be true or false, got 'yes'",
    ]
    assert {p.kind for p in problems.found} == {"bad-type"}


def test_a_bool_is_not_a_whole_number() -> None:
    form, problems = _form("round = true\n")
    assert form.integer("round", low=1, high=4) is None
    assert _messages(problems) == ["round must be a whole number 1..4, got True"]


def test_integer_out_of_range() -> None:
    form, problems = _form("round = 7\n")
    assert form.integer("round", low=1, high=4) is None
    assert [(p.kind, p.value, p.message) for p in problems.found] == [
        ("out-of-range", "7", "round 7 is not between 1 and 4")]


def test_good_values_come_back_as_typed() -> None:
    form, problems = _form('title = "T"\nround = 4\nhand = "D, D C"\nhome_variant = false\n')
    assert form.text("title") == "T"
    assert form.integer("round", low=1, high=4) == 4
    assert form.strings("hand") == ["D", "D", "C"]
    assert form.strings("hand", split=False) is None  # a single string is not a list when it may not be split
    assert form.boolean("home_variant") is False
    assert _messages(problems) == ["hand must be a list of names, got 'D, D C'"]


def test_missing_and_empty_texts() -> None:
    form, problems = _form('title = "  "\n')
    assert form.text("title") is None
    assert form.text("title", empty=True) == "  "
    assert form.text("hand", required="the cards in hand") is None
    assert form.text("round") is None  # missing and not required: nothing to say
    assert _messages(problems) == ["title is empty; leave the key out instead",
                                   "missing key 'hand' (the cards in hand)"]


def test_sub_tables_name_their_fields_and_share_the_problems() -> None:
    form, problems = _form('[rules]\ncaravn = "flat"\n[[opponent]]\nname = "Anna"\n[[opponent]]\npoints = "9"\n')
    rules = form.table("rules", keys=("caravan", "rounds"), what="rule")
    assert rules is not None and rules.name("caravan") == "rules.caravan"
    first, second = form.tables("opponent", keys=("name", "points"))
    assert first.text("name") == "Anna"
    assert second.integer("points", low=0, high=99) is None
    assert _messages(problems) == ["unknown rule 'caravn' in [rules]; did you mean 'caravan'?",
                                   "opponent[2].points must be a whole number 0..99, got '9'"]
    assert problems.found[1].field == "opponent[2].points"


def test_a_table_key_holding_something_else() -> None:
    form, problems = _form('rules = 3\nopponent = [1, 2]\ntiles = "x"\n')
    assert form.table("rules", keys=("caravan",)) is None
    assert form.tables("opponent", keys=("name",)) == []
    assert form.mapping("tiles", shape="road = counter") is None
    assert _messages(problems) == ["[rules] must be a table, got 3",
                                   "opponent must be an array of tables ([[opponent]]), got [1, 2]",
                                   "[tiles] must be a table of road = counter, got 'x'"]


def test_mapping_returns_data_keys_unchecked() -> None:
    form, problems = _form('[tiles]\n"lap-riv" = "dragon"\n')
    assert form.mapping("tiles") == {"lap-riv": "dragon"}
    assert form.has("tiles") and not form.has("round")
    assert not problems


def test_a_huge_bad_value_is_shortened_in_the_message() -> None:
    form, problems = _form(f'title = [{", ".join(["1"] * 100)}]\n')
    assert form.text("title") is None
    shown = problems.found[0].value
    assert shown is not None and len(shown) == 60 and shown.endswith("...")
