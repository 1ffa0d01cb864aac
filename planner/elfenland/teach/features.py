"""Which lessons a position teaches: the features every best route must have, proven by exploring without them.

A feature is needed when the best route that avoids it is worse than the best route: then *every* best route
has it (for step features: a caravan, an upstream raft, a ferry, an obstacle road, coming back to a town already
stood in). The home lesson is proven the same way on the answers: in the last round with a home-town card,
every best route collects fewer towns than the most any route can, because the distance home costs more.
"""

from __future__ import annotations

import functools
import operator

from planner.common.values import frozen
from planner.elfenland.teach.atlas import MAX_LABELS, Atlas, Entry, explore, route_features
from planner.elfenland.teach.ways import Feature

__all__ = ["LESSONS", "Lesson", "needed_lessons"]

#: Every lesson, in the order they are listed: step features, then the home trade-off.
LESSONS: tuple[str, ...] = ("caravan", "upstream", "ferry", "obstacle", "backtrack", "home")

_FEATURES = {f.word: f for f in Feature}


@frozen
class Lesson:
    """A lesson every best route needs, and the best that can be had without it (the proof)."""

    name: str
    """One of :data:`LESSONS`."""
    without: Entry
    """The best answer of the routes without the feature (for ``home``: of the routes collecting the most towns);
    worse than the best."""


def needed_lessons(atlas: Atlas, *, max_labels: int = MAX_LABELS) -> tuple[Lesson, ...]:
    """The lessons every best route of the atlas's position needs (each proven, see the module docstring).

    Raises:
        UnsupportedError: an exploration without a feature grew too big (see :func:`explore`).
    """
    answers = atlas.answers()
    shared = functools.reduce(operator.or_, Feature)
    for entry in answers:
        shared &= route_features(atlas.plan(entry))  # a feature some best route lacks is not needed
    found = []
    for name in LESSONS:
        feature = _FEATURES.get(name)
        if feature is not None:
            if feature & shared:
                without = explore(atlas.position, forbid=feature, max_labels=max_labels)
                if without.best < atlas.best:
                    found.append(Lesson(name, without.ranked()[0]))
        elif atlas.position.scores_home:
            most = atlas.most_towns()
            if all(len(e.towns) < most for e in answers):
                found.append(Lesson(name, next(e for e in atlas.ranked() if len(e.towns) == most)))
    return tuple(found)
