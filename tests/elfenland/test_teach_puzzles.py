"""Generated puzzles: the same on any machine, answers proven unique (or all stated) by re-solving with them
excluded, the theme's lesson in every best route (checked by a brute force that forbids it), the measured
difficulty, and the scenario files a teacher hands out."""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest
from brute import best_by_key
from hypothesis import given, settings
from hypothesis import strategies as st
from teachbrute import best_value, most_towns_best

from planner.elfenland.plan import verify
from planner.elfenland.position_file import load_position, position_from_toml
from planner.elfenland.solvers import solve
from planner.elfenland.solvers.common import plan_key
from planner.elfenland.solvers.cpsat import solve_cpsat
from planner.elfenland.teach.lesson import export_puzzles, lesson_text, puzzle_toml
from planner.elfenland.teach.puzzles import LEVELS, THEMES, Measures, Puzzle, generate
from planner.errors import NotationError, UnsupportedError

PUZZLE_SET = Path(__file__).resolve().parents[2] / "scenarios" / "puzzles"
STEP_THEMES = ("caravan", "upstream", "ferry", "backtrack", "obstacle")


@functools.cache
def puzzle(seed: int, theme: str, difficulty: int) -> Puzzle:
    return generate(seed, theme=theme, difficulty=difficulty)


def check_lessons(p: Puzzle) -> None:
    """Each stated lesson holds in every best route, by the brute force: the best without the feature is worse;
    for home, every best route collects fewer towns than the most any route can."""
    position = p.position
    best = best_value(position)
    assert best == (p.score, -p.cards)
    for lesson in p.lessons:
        if lesson.name == "home":
            most, farthest = most_towns_best(position)
            assert farthest < best and farthest == lesson.without.value and most == len(lesson.without.towns)
        else:
            without = best_value(position, [lesson.name])
            assert without < best and without == lesson.without.value
    if p.theme != "any":
        assert p.theme in p.lesson_names


def check_answers(p: Puzzle) -> None:
    """The stated answers are every best one: CP-SAT, asked for one answer more with each found one excluded,
    finds them all and then only worse ones."""
    found = solve_cpsat(p.position, alternatives=len(p.answers) + 1)
    assert found.proven
    best = [plan for plan in found.plans if plan.value == (p.score, -p.cards)]
    assert {plan_key(plan) for plan in best} == {(a.towns, a.end) for a in p.answers}
    assert len(found.plans) == len(p.answers) or found.plans[len(p.answers)].value < best[0].value
    for answer in p.answers:
        outcome = verify(p.position, answer.plan.steps)
        assert (frozenset(outcome.new_towns), outcome.end, outcome.score, outcome.cards_spent) == (
            answer.towns, answer.end, p.score, p.cards)


def check_measures(p: Puzzle) -> None:
    m = p.measures
    assert m.level == p.difficulty and m.steps == len(p.best.steps)
    extra = len([name for name in p.lesson_names if name != p.theme])
    assert m.lessons == extra
    keys = best_by_key(p.position) if len(p.position.hand) <= 6 else None
    if keys is not None:
        assert m.near == sum(1 for value in keys.values() if value[0] == p.score and value != (p.score, -p.cards))


@pytest.mark.parametrize("theme", THEMES)
def test_a_puzzle_of_each_theme_teaches_its_lesson_and_states_every_answer(theme: str) -> None:
    p = puzzle(1, theme, 1)
    check_lessons(p)
    check_answers(p)
    check_measures(p)


@settings(max_examples=3, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(THEMES), st.integers(1, 3))
def test_any_seed_gives_a_proven_puzzle(seed: int, theme: str, difficulty: int) -> None:
    p = puzzle(seed, theme, difficulty)
    check_answers(p)
    check_lessons(p)


@pytest.mark.slow
@pytest.mark.parametrize("theme", [t for t in THEMES if t != "any"])
def test_two_hundred_puzzles_per_theme_need_the_theme_in_every_best_route(theme: str) -> None:
    for seed in range(200):
        check_lessons(puzzle(seed, theme, 1 + seed % 3))


@pytest.mark.slow
@pytest.mark.parametrize("theme", THEMES)
def test_uniqueness_claims_hold_when_the_answers_are_excluded(theme: str) -> None:
    for seed in range(40):
        p = puzzle(seed, theme, 1 + seed % 5)
        check_answers(p)
        check_measures(p)


def test_the_same_seed_theme_and_difficulty_give_the_same_puzzle() -> None:
    first = generate(5, theme="ferry", difficulty=3)
    again = generate(5, theme="ferry", difficulty=3)
    assert str(first.position) == str(again.position) and first.answers == again.answers
    assert str(generate(6, theme="ferry", difficulty=3).position) != str(first.position)


@pytest.mark.slow
def test_a_puzzle_is_the_same_in_another_process_with_another_hash_seed() -> None:
    """Every choice comes from one generator seeded with (seed, theme, difficulty), never from str hashing, set
    order or the clock, and effort is counted in nodes, so another process draws the same puzzle."""
    code = ("from planner.elfenland.teach.puzzles import generate; "
            "p = generate(3, theme='upstream', difficulty=2); print(p.position, '|', p.best, p.measures)")
    mine = generate(3, theme="upstream", difficulty=2)
    for hash_seed in ("1",):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.stdout.strip() == f"{mine.position} | {mine.best} {mine.measures}"


def test_difficulty_levels_follow_the_documented_points() -> None:
    assert LEVELS == (4.5, 6.0, 7.5, 9.0)
    assert Measures(steps=3, near=0, lessons=0, nodes=20).level == 1
    assert Measures(steps=3, near=3, lessons=0, nodes=20).points == 4.5
    assert Measures(steps=5, near=0, lessons=1, nodes=64).points == 6.5
    assert Measures(steps=9, near=0, lessons=0, nodes=10).level == 5


@pytest.mark.parametrize("bad", [{"theme": "dragons"}, {"difficulty": 0}, {"difficulty": 6}, {"difficulty": True}])
def test_a_bad_theme_or_difficulty_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(NotationError):
        generate(1, **bad)  # type: ignore[arg-type]


def test_a_scenario_file_holds_the_position_the_answer_and_the_lesson(tmp_path: Path) -> None:
    p = puzzle(1, "caravan", 2)
    position = position_from_toml(puzzle_toml(p))
    assert str(position) == str(p.position)
    assert position.expect is not None and (position.expect.score, position.expect.cards_spent) == (p.score, p.cards)
    assert position.notes == lesson_text(p)
    assert str(p.best) in lesson_text(p) and "Lesson, caravan" in lesson_text(p)
    written = export_puzzles(tmp_path / "set", [p, puzzle(2, "home", 1)])
    assert [path.name for path in written] == ["caravan-2-1.toml", "home-1-2.toml"]
    before = written[0].read_text()
    with pytest.raises(UnsupportedError, match="already exist"):
        export_puzzles(tmp_path / "set", [p])
    assert written[0].read_text() == before


SHIPPED = sorted(PUZZLE_SET.glob("*.toml"))


def test_the_shipped_puzzle_set_is_there() -> None:
    assert len(SHIPPED) >= 30
    assert {path.stem.split("-")[0] for path in SHIPPED} == set(THEMES)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_each_shipped_puzzle_keeps_its_answer(path: Path) -> None:
    check_shipped(path, ("search",))


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_each_shipped_puzzle_keeps_its_answer_under_cpsat_too(path: Path) -> None:
    check_shipped(path, ("cpsat",))


def check_shipped(path: Path, solvers: tuple[str, ...]) -> None:
    position = load_position(str(path))
    assert position.expect is not None and position.notes and position.title == f"Puzzle {path.stem}"
    for solver in solvers:
        solution = solve(position, solver=solver)
        assert solution.proven
        assert (solution.plan.score, solution.plan.cards_spent) == (position.expect.score,
                                                                    position.expect.cards_spent), solver


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_each_shipped_puzzle_is_what_its_seed_generates(path: Path) -> None:
    theme, difficulty, seed = path.stem.split("-")
    assert path.read_text(encoding="utf-8") == puzzle_toml(puzzle(int(seed), theme, int(difficulty)))
