"""Grading: every answer gets a grade, never an exception; the verdicts and numbers come from the verifier."""

from __future__ import annotations

import functools

import pytest
import strategies
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.elfenland.plan import Step, parse_route, verify
from planner.elfenland.teach.grade import Grade, Verdict, grade
from planner.elfenland.teach.puzzles import Puzzle, generate
from planner.errors import IllegalStepError, NotationError


@functools.cache
def a_puzzle() -> Puzzle:
    return generate(4, theme="caravan", difficulty=2)


def test_an_answer_route_is_optimal_and_names_the_answer() -> None:
    p = a_puzzle()
    for answer in p.answers:
        graded = grade(p, str(answer.plan).lower())
        assert graded.verdict is Verdict.OPTIMAL and graded.solved and graded.answer == answer
        assert graded.lost == (0, 0)


def test_staying_put_is_legal_and_short_by_every_point() -> None:
    p = a_puzzle()
    graded = grade(p, "-")
    assert graded.verdict is Verdict.SHORT and graded.lost == (p.score, -p.cards)
    assert graded.comparison is not None and graded.comparison.stopped_early


def test_an_illegal_route_gets_the_verifiers_reason() -> None:
    p = a_puzzle()
    first = p.best.steps[0]
    text = f"{first.to}/PPPPPPPP"
    with pytest.raises(IllegalStepError) as refused:
        verify(p.position, parse_route(p.position, text))
    graded = grade(p, text)
    assert graded.verdict is Verdict.ILLEGAL and graded.step == 1 and graded.reason == refused.value.reason
    assert refused.value.reason in graded.message


@pytest.mark.parametrize("text", ["thr/E jac", "zzz/D", "elv/X", "dag:q/U", "/", "x" * 5000, "\x00", "ELV/D" * 3])
def test_text_that_does_not_parse_is_unreadable_with_the_parsers_message(text: str) -> None:
    graded = grade(a_puzzle(), text)
    assert graded.verdict in (Verdict.UNREADABLE, Verdict.ILLEGAL)
    if graded.verdict is Verdict.UNREADABLE and len(text) < 100:
        with pytest.raises(NotationError) as refused:
            parse_route(a_puzzle().position, text)
        assert str(refused.value) in graded.message


@settings(max_examples=strategies.examples(30))
@given(st.text(max_size=60) | st.from_regex(r"([a-z]{2,4}(:[a-z])?/[a-zA-Z0-9 ]{0,5} ?){0,4}", fullmatch=True))
def test_any_text_gets_a_grade(text: str) -> None:
    graded = grade(a_puzzle(), text)
    assert isinstance(graded, Grade) and graded.message


def expected_grade(steps: tuple[Step, ...], p: Puzzle) -> tuple[Verdict, tuple[int, int]]:
    try:
        outcome = verify(p.position, steps)
    except IllegalStepError:
        return Verdict.ILLEGAL, (0, 0)
    if (outcome.score, -outcome.cards_spent) >= (p.score, -p.cards):
        return Verdict.OPTIMAL, (0, 0)
    return Verdict.SHORT, (p.score - outcome.score, outcome.cards_spent - p.cards)


@settings(max_examples=strategies.examples(40))
@given(st.data())
def test_any_walk_typed_as_text_gets_the_grade_the_verifier_gives(data: st.DataObject) -> None:
    p = a_puzzle()
    steps = data.draw(strategies.routes(p.position, max_steps=6))
    text = " ".join(str(step) for step in steps) or "-"
    verdict, lost = expected_grade(parse_route(p.position, text), p)
    graded = grade(p, text)
    assert (graded.verdict, graded.lost) == (verdict, lost)
