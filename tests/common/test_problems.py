"""planner.common.problems: every problem of an input collected, each structured for programs and worded for people."""

from __future__ import annotations

import pytest

from planner.common.problems import Problem, Problems
from planner.errors import AmbiguousNameError, IllegalPositionError, NotationError, PlannerError


def test_a_problem_prints_as_its_message_and_has_a_json_shape() -> None:
    problem = Problem("terrain", "tiles", "ALB-DAG:d", "giant pig counter on ALB-DAG:d, a desert road")
    assert str(problem) == "giant pig counter on ALB-DAG:d, a desert road"
    assert problem.as_dict() == {"kind": "terrain", "field": "tiles", "value": "ALB-DAG:d",
                                 "message": "giant pig counter on ALB-DAG:d, a desert road"}


def test_with_source_prefixes_the_message_only() -> None:
    problem = Problem("bad-round", "round", "7", "round 7 is not between 1 and 4")
    sourced = problem.with_source("p.toml")
    assert sourced.message == "p.toml: round 7 is not between 1 and 4"
    assert (sourced.kind, sourced.field, sourced.value) == ("bad-round", "round", "7")
    assert problem.message == "round 7 is not between 1 and 4"  # the original is a value, unchanged


def test_add_quotes_the_value_as_text_and_keeps_none() -> None:
    problems = Problems()
    assert not problems and len(problems) == 0
    problems.add("out-of-range", "round", 7, "round 7 is not between 1 and 4")
    problems.add("missing-key", "at", None, "missing key 'at'")
    assert problems and len(problems) == 2
    assert [p.value for p in problems.found] == ["7", None]


def test_check_raises_every_problem_at_once_in_order() -> None:
    problems = Problems()
    problems.add("a", "x", None, "first")
    problems.extend([Problem("b", "y", None, "second"), Problem("c", "z", None, "third")])
    with pytest.raises(IllegalPositionError) as error:
        problems.check()
    assert [p.message for p in error.value.problems] == ["first", "second", "third"]
    assert str(error.value) == "3 problems in position:\n- first\n- second\n- third"


def test_check_without_problems_passes() -> None:
    Problems().check()


def _parse(text: str) -> int:
    if text == "bad":
        raise NotationError("bad number 'bad'", kind="bad-count", value="bad")
    if text == "unnamed":
        raise NotationError("no value named")
    if text == "both":
        raise IllegalPositionError(["one thing", "another"])
    if text == "ambiguous":
        raise AmbiguousNameError("ambiguous town 'be'", kind="ambiguous-town", value="be")
    if text == "other":
        raise PlannerError("something else")
    return int(text)


def test_attempt_returns_the_value_when_it_parses() -> None:
    problems = Problems()
    assert problems.attempt("round", _parse, "3") == 3
    assert not problems


def test_attempt_notes_a_notation_error_under_the_field() -> None:
    problems = Problems()
    assert problems.attempt("hand", _parse, "bad") is None
    assert problems.found == [Problem("bad-count", "hand", "bad", "bad number 'bad'")]


def test_attempt_falls_back_on_the_first_argument_as_the_value() -> None:
    problems = Problems()
    problems.attempt("hand", _parse, "unnamed")
    problems.attempt("at", _parse, "ambiguous")
    problems.attempt("round", _parse, "other")
    assert problems.found == [
        Problem("syntax", "hand", "unnamed", "no value named"),
        Problem("ambiguous-town", "at", "be", "ambiguous town 'be'"),
        Problem("input", "round", "other", "something else"),
    ]


def test_attempt_keeps_every_problem_of_an_illegal_input() -> None:
    problems = Problems()
    problems.attempt("tiles", _parse, "both")
    assert [(p.kind, p.message) for p in problems.found] == [("input", "one thing"), ("input", "another")]


def test_attempt_lets_a_bug_through() -> None:
    # Only the planner's own errors are input problems: anything else is a bug and must not be swallowed.
    with pytest.raises(ValueError):
        Problems().attempt("round", _parse, "3.5")
