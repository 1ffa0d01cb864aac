"""The teaching documents as JSON-ready dicts (schema ``elfenland-planner/1``, told apart by ``kind``):
``explain``, ``puzzle`` and ``grade``. Built here, not in the CLI, so a web page serves the same documents."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from planner.elfenland import report
from planner.elfenland.plan import Plan
from planner.elfenland.teach.compare import Comparison
from planner.elfenland.teach.ends import EndTable
from planner.elfenland.teach.explanation import Explanation
from planner.elfenland.teach.grade import Grade
from planner.elfenland.teach.lesson import LESSON_WORDS, lesson_text
from planner.elfenland.teach.puzzles import Puzzle
from planner.elfenland.teach.reach import Need, Reach
from planner.elfenland.teach.scores import Scores
from planner.elfenland.teach.steps import StepNote
from planner.elfenland.teach.whatif import Gain, WhatIf
from planner.elfenland.teach.words import town

__all__ = ["explanation_dict", "grade_dict", "puzzle_dict"]


def _names(codes: Iterable[str]) -> list[str]:
    return [town(c) for c in codes]


def note_dict(note: StepNote) -> dict[str, Any]:
    """One step's note."""
    step = note.step
    return {
        "step": note.number, "route": str(step), "from": town(step.frm), "to": town(step.to),
        "connection": step.connection, "pay": str(step.pay), "cards": step.cards.names(),
        "reasons": [str(r) for r in note.reasons], "text": list(note.text), "held": note.held.names(),
        "counter": note.counter.title if note.counter else None, "obstacle": note.obstacle,
        "counter_cost": note.counter_cost, "caravan_cost": note.caravan_cost, "other_steps": list(note.others),
        "needed": note.needed, "saved": note.saved, "rafts": note.rafts, "beside": note.beside,
        "ways_on": _names(note.ways_on), "home_distance": note.home_distance,
    }


def _need(need: Need | None) -> dict[str, Any] | None:
    if need is None:
        return None
    a = need.addition
    return {"addition": str(a), "kind": a.kind, "card": a.card.title if a.card else None, "road": a.road,
            "counter": a.counter.title if a.counter else None, "alike": [t.title for t in a.alike],
            "cards": need.cards, "route": str(need.route)}


def reach_dict(row: Reach) -> dict[str, Any]:
    """One row of the reachability table."""
    return {"town": town(row.town), "code": row.town, "cards": row.cards,
            "route": None if row.route is None else str(row.route), "card": _need(row.card),
            "counter": _need(row.counter)}


def _gain(gain: Gain | None) -> dict[str, Any] | None:
    if gain is None:
        return None
    a = gain.addition
    return {"addition": str(a), "card": a.card.title if a.card else None, "road": a.road,
            "counter": a.counter.title if a.counter else None, "alike": [t.title for t in a.alike],
            "points": gain.towns, "cards_saved": gain.cards, "optimal": gain.proven, **report.plan_dict(gain.plan)}


def what_if_dict(found: WhatIf) -> dict[str, Any]:
    """The what-if section."""
    return {"card": _gain(found.card), "counter": _gain(found.counter),
            "card_ties": [str(a) for a in found.card_ties], "counter_ties": [str(a) for a in found.counter_ties],
            "tried": found.tried, "proven": found.proven}


def ends_dict(table: EndTable) -> dict[str, Any]:
    """The last round's end towns."""
    return {"home": town(table.home), "most_towns": table.most_towns, "proven": table.proven,
            "rows": [{"end": town(r.end), "towns": r.towns, "home_distance": r.home_distance, "score": r.score,
                      "cards_spent": r.plan.cards_spent, "route": str(r.plan), "best": r.best,
                      "most_towns": r.most_towns} for r in table.rows]}


def comparison_dict(found: Comparison) -> dict[str, Any]:
    """The player's route beside the best."""
    cost, lost = found.step_cost, found.lost
    return {
        "route_legal": found.yours is not None,
        "step": found.error.index + 1 if found.error else None,
        "reason": found.error.reason if found.error else None,
        "plan": report.plan_dict(found.yours) if found.yours else None,
        "optimal": found.optimal, "behind_at": found.behind_at,
        "step_cost": {"points": cost[0], "cards": cost[1]},
        "lost": {"points": lost[0], "cards": lost[1]},
        "instead": None if found.instead is None else str(found.instead),
        "stopped_early": found.stopped_early, "potentials": [list(p) for p in found.potentials],
        "proven": found.proven,
    }


def explanation_dict(found: Explanation, *, source: str | None = None) -> dict[str, Any]:
    """The whole ``explain --json`` document."""
    solution = found.solution
    return {
        "schema": report.SCHEMA, "kind": "explain", "source": source, "title": found.position.title,
        "position": str(found.position),
        "best": {**report.plan_dict(solution.plan), "optimal": solution.proven, "status": str(solution.status),
                 "bound": solution.bound, "solver": solution.solver, "seconds": round(solution.elapsed, 4)},
        "steps": [note_dict(n) for n in found.notes],
        "reach": [reach_dict(r) for r in found.reach],
        "what_if": None if found.what_if is None else what_if_dict(found.what_if),
        "end_towns": None if found.ends is None else ends_dict(found.ends),
        "yours": None if found.comparison is None else comparison_dict(found.comparison),
        "proven": found.proven,
    }


def _plan_brief(plan: Plan) -> dict[str, Any]:
    return {"route": str(plan), "score": plan.score, "new_towns": _names(plan.new_towns),
            "cards_spent": plan.cards_spent, "end": town(plan.end)}


def puzzle_dict(puzzle: Puzzle, *, answer: bool = True) -> dict[str, Any]:
    """A puzzle: the position to solve and, with ``answer``, everything proven about it."""
    position = puzzle.position
    document: dict[str, Any] = {
        "schema": report.SCHEMA, "kind": "puzzle", "name": puzzle.name, "seed": puzzle.seed, "theme": puzzle.theme,
        "difficulty": puzzle.difficulty, "title": position.title, "position": str(position),
        "question": "Collect the most new towns, then spend the fewest cards"
                    + (" (the last round: each link from home costs a point)" if position.scores_home else "") + ".",
    }
    if answer:
        m = puzzle.measures
        document["answer"] = {
            "score": puzzle.score, "cards_spent": puzzle.cards, "unique": puzzle.unique,
            "answers": [{"towns": sorted(_names(a.towns)), "end": town(a.end), **_plan_brief(a.plan)}
                        for a in puzzle.answers],
            "lessons": [{"name": lesson.name, "meaning": LESSON_WORDS[lesson.name],
                         "without": {"score": lesson.without.score, "cards_spent": lesson.without.cards}}
                        for lesson in puzzle.lessons],
            "measures": {"steps": m.steps, "near": m.near, "lessons": m.lessons, "nodes": m.nodes,
                         "points": round(m.points, 2)},
            "lesson": lesson_text(puzzle),
        }
    return document


def grade_dict(puzzle: Puzzle, graded: Grade, scores: Scores | None = None) -> dict[str, Any]:
    """A graded answer, with the best route and (when kept) the score file's record."""
    comparison = graded.comparison
    return {
        "schema": report.SCHEMA, "kind": "grade", "puzzle": puzzle.name, "position": str(puzzle.position),
        "route": graded.text, "verdict": str(graded.verdict), "solved": graded.solved, "message": graded.message,
        "step": graded.step, "reason": graded.reason,
        "plan": None if graded.plan is None else report.plan_dict(graded.plan),
        "lost": {"points": graded.lost[0], "cards": graded.lost[1]},
        "behind_at": None if comparison is None else comparison.behind_at,
        "instead": None if comparison is None or comparison.instead is None else str(comparison.instead),
        "best": report.plan_dict(puzzle.best),
        "scores": None if scores is None else scores.as_dict(),
    }
