"""Grading a player's answer to a puzzle: readable? legal? optimal? how far off, and where it fell behind.

Every input gets a grade and never an exception: text that does not parse is ``unreadable`` (the parser's
message), a route the rules refuse is ``illegal`` (the verifier's step and reason), and a legal route is
``optimal`` or ``short`` with the points and cards it lost and the first step where it fell behind.
"""

from __future__ import annotations

import enum

from planner.common.i18n import say
from planner.common.limits import Limit
from planner.common.values import frozen
from planner.elfenland.checking import route_check
from planner.elfenland.plan import Plan, parse_route
from planner.elfenland.solvers import DEFAULT_LIMIT
from planner.elfenland.teach.compare import Comparison, compare
from planner.elfenland.teach.puzzles import Answer, Puzzle
from planner.elfenland.teach.words import count
from planner.errors import PlannerError

__all__ = ["Grade", "Verdict", "grade"]

MAX_ROUTE_TEXT = 2000
"""Longest answer read (a route of a puzzle has a dozen steps; a pasted novel is not an answer)."""


class Verdict(enum.StrEnum):
    """How an answer did."""

    OPTIMAL = "optimal"
    SHORT = "short"
    """Legal, but the best gets more points, or the same points for fewer cards."""
    ILLEGAL = "illegal"
    UNREADABLE = "unreadable"


@frozen
class Grade:
    """A graded answer."""

    verdict: Verdict
    message: str
    """One line for the player."""
    text: str
    """The answer as typed."""
    plan: Plan | None = None
    """The route, when legal."""
    step: int | None = None
    """The 1-based step the verifier refused (illegal)."""
    reason: str | None = None
    """Why the parser or the verifier refused it."""
    answer: Answer | None = None
    """The stated answer an optimal route matches."""
    comparison: Comparison | None = None
    """For a legal route: where it fell behind the best."""

    @property
    def solved(self) -> bool:
        """Whether the answer is optimal."""
        return self.verdict is Verdict.OPTIMAL

    @property
    def lost(self) -> tuple[int, int]:
        """(points, extra cards) against the best; (0, 0) unless short."""
        return self.comparison.lost if self.comparison is not None and self.plan is not None else (0, 0)


def grade(puzzle: Puzzle, text: str, *, limit: Limit = DEFAULT_LIMIT) -> Grade:
    """Grade ``text`` (route notation, forgiving: ``feo/rrrr alb/d``) as an answer to ``puzzle``.

    Raises:
        SolverError: a solver failed while locating the mistake (a bug); every input problem is a grade.
    """
    position = puzzle.position
    if len(text) > MAX_ROUTE_TEXT:
        return Grade(Verdict.UNREADABLE, say("that is {n} characters: a route is a few steps like 'thr/E'",
                                             n=len(text)),
                     text[:MAX_ROUTE_TEXT], reason="too long")
    try:
        steps = parse_route(position, text)
    except PlannerError as error:
        return Grade(Verdict.UNREADABLE, say("cannot read that route: {error}", error=str(error)), text,
                     reason=str(error))
    best = puzzle.best
    judged = route_check(position, steps, best=best)
    if judged.yours is None:
        illegal = judged.error
        assert illegal is not None
        return Grade(Verdict.ILLEGAL, say("illegal at step {step}: {reason}", step=illegal.index + 1,
                                          reason=illegal.reason), text,
                     step=illegal.index + 1, reason=illegal.reason)
    plan = judged.yours
    if judged.optimal:
        key = (frozenset(plan.new_towns), plan.end)
        answer = next((a for a in puzzle.answers if (a.towns, a.end) == key), None)
        return Grade(Verdict.OPTIMAL, say("optimal: {towns} for {cards}", towns=count(len(plan.new_towns), "new town"),
                                          cards=count(plan.cards_spent, "card paid")), text, plan=plan, answer=answer)
    comparison = compare(position, steps, best, limit=limit)
    points, cards = comparison.lost
    off = say("{points} short", points=count(points, "point")) if points else \
        say("the same points for {cards}", cards=count(cards, "more card"))
    return Grade(Verdict.SHORT, say("legal, {points} for {cards}: {off} of the best ({best} for {best_cards})",
                                    points=count(plan.score, "point"), cards=count(plan.cards_spent, "card paid"),
                                    off=off,
                                    best=best.score, best_cards=best.cards_spent), text, plan=plan,
                 comparison=comparison)
