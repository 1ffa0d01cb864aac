"""Fuzzing the parsers and the command line with mutated real inputs: bad input is a clear error, never a crash.

Every input a player can type goes through here mutated: position files (the bundled scenarios), compact
positions (printed by the planner itself), hands, route steps and whole command lines. The only acceptable
outcomes are an answer or one of the planner's own errors (a :class:`~planner.errors.PlannerError`, shown by the
CLI with exit code 2). The mutations are the kinds of damage that once crashed the CLI: cut and doubled text, odd
digits, markup brackets, huge numbers, deep nesting.
"""

from __future__ import annotations

import string
from pathlib import Path

import strategies
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.cli import cli
from planner.elfenland.inputs import read_position
from planner.elfenland.notation import parse_cards
from planner.elfenland.plan import parse_route, verify
from planner.elfenland.position import Position
from planner.elfenland.position_file import position_from_toml
from planner.errors import IllegalStepError, PlannerError

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "scenarios").glob("*.toml"))]
#: Pieces that once broke a parser, or might: markup, odd digits, huge numbers, separators, quotes, nesting.
NASTY = ["[/red]", "[bold]", "²", "٣", "0", "00", "9" * 400, "-", "--", ",", ";", "@", ":", "+X", "x0", "\x00",
         "\x7f", "'", '"', "[[", "]]", "{", "}", "=", "\n", " ", "é", "’", "\\", "/", "..", "nan", "inf", "3.0",
         "true"]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few cuts, copies, swaps and nasty insertions."""
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "double", "swap"]))
        if not text:
            kind = "insert"
        i = draw(st.integers(0, max(0, len(text) - 1)))
        j = draw(st.integers(i, min(len(text), i + 12)))
        piece = draw(st.sampled_from(NASTY) | st.text(string.printable, max_size=5))
        if kind == "insert":
            text = text[:i] + piece + text[i:]
        elif kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "replace":
            text = text[:i] + piece + text[j:]
        elif kind == "double":
            text = text[:j] + text[i:j] + text[j:]
        else:
            words = text.split(" ")
            if len(words) > 1:
                a, b = draw(st.integers(0, len(words) - 1)), draw(st.integers(0, len(words) - 1))
                words[a], words[b] = words[b], words[a]
                text = " ".join(words)
    return text


@given(st.sampled_from(SCENARIOS).flatmap(mutated))
@settings(max_examples=strategies.examples(60))
def test_mutated_position_files_parse_or_say_what_is_wrong(text: str) -> None:
    try:
        position = position_from_toml(text, source="fuzz.toml")
    except PlannerError as error:
        assert str(error)
        return
    assert position.problems() == []


@given(strategies.positions().flatmap(lambda p: mutated(str(p))))
@settings(max_examples=strategies.examples(60))
def test_mutated_compact_positions_parse_or_say_what_is_wrong(text: str) -> None:
    try:
        read_position(text)
    except PlannerError as error:
        assert str(error)


@given(st.text(st.sampled_from(string.ascii_letters + string.digits + " ,;x*+-²٣é'")) | st.sampled_from(NASTY))
def test_any_hand_text_parses_or_names_the_bad_token(text: str) -> None:
    try:
        counts = parse_cards(text)
    except PlannerError as error:
        assert str(error)
    else:
        assert all(n >= 0 for n in counts.values())


@given(strategies.playable_positions().flatmap(
    lambda p: st.tuples(st.just(p), mutated("thr/E jac/D riv:r/R lap/PPP str:l/RR kih/CC"))))
@settings(max_examples=strategies.examples(100))
def test_mutated_routes_parse_and_replay_or_say_why_not(case: tuple[Position, str]) -> None:
    position, text = case
    try:
        steps = parse_route(position, text)
    except PlannerError:
        return
    try:
        verify(position, steps)
    except IllegalStepError as error:
        assert error.reason


OPTIONS = [["--at", "elv"], ["--at", "[/red]"], ["--hand", "DDCURRPT"], ["--hand", "² dragon"], ["--hand", "ddc"],
           ["--tile", "elv-lap P, lap-vir E"], ["--tile", "alb-dag P"], ["--tile", "lap-riv -"], ["--visited", "riv"],
           ["--home", "virst"], ["--home", "-"], ["--round", "4"], ["--round", "9"], ["--rounds", "3"],
           ["--caravan", "scaled"], ["--caravan-when", "strict"], ["--no-home-variant"], ["-k", "2"], ["--json"],
           ["--time-limit", "nan"], ["--seed", "2147483648"], ["--seed", "7"], ["--route", "lap/P vir/E"],
           ["--route", "lap/"], ["--jobs", "0"], ["-"], ["- RIV EDR - 1"],
           [str(ROOT / "scenarios" / "05-obstacle.toml")], [str(ROOT / "scenarios")], ["no such file.toml"],
           ["/dev/zero"]]


BASES = [[], ["--at", "elv", "--hand", "DDCURRPT", "--tile", "elv-lap P, lap-vir E"], ["- RIV EDR - 1"],
         [str(ROOT / "scenarios" / "01-first-steps.toml")], ["-"]]


@given(st.sampled_from(["route", "check", "show", "board"]),
       st.tuples(st.sampled_from(BASES), st.lists(st.sampled_from(OPTIONS), max_size=4)).map(
           lambda parts: [*parts[0], *(a for part in parts[1] for a in part)]),
       st.sampled_from(["", 'at = "elv"\n', "at = 1" + "0" * 5000, 'at = "Beat\xe1"\n', "[[[["]))
@settings(max_examples=strategies.examples(80))
def test_random_command_lines_exit_0_or_2_never_with_a_traceback(command: str, args: list[str], stdin: str) -> None:
    # Solves are kept tiny (search, few nodes): what is tested is the way in and out, not the solvers.
    extra = ["--solver", "search", "--nodes", "300"] if command in ("route", "check") else []
    result = CliRunner().invoke(cli, [command, *args, *extra], input=stdin, env={"NO_COLOR": "1"})
    assert result.exit_code in (0, 2), (command, args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
