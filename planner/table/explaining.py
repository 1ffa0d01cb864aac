"""The travel phase's "Why this route?" panel: the teaching library's explanation, as the page reads it.

The document is ``elfenland explain --json``'s (:func:`~planner.elfenland.teach.report.explanation_dict`) without
the keys the page has already (schema, source, position), plus what only a page needs: each what-if's letters
(the tile change a tap sends) and its map (the board with the addition and the route it makes), so that a tap
shows it at once, without asking the server again.

Library code: plain data out, no thread, no web import. The session runs it in its advisor thread, after the
first answer, since it solves once per what-if candidate.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from planner.common.limits import Limit, StopLike
from planner.elfenland.plan import Step
from planner.elfenland.position import Position
from planner.elfenland.svg import render_svg
from planner.elfenland.teach.explanation import Explanation, explain
from planner.elfenland.teach.report import explanation_dict
from planner.elfenland.teach.steps import step_notes
from planner.elfenland.teach.whatif import Gain
from planner.table.localized import Localized, localized

__all__ = ["explain_document", "explain_stage"]

_KNOWN = ("schema", "kind", "source", "title", "position")
"""Keys of the command line's document that the page's view holds already."""


def explain_stage(position: Position, route: tuple[Step, ...] | None, *, limit: Limit,
                  stop: StopLike | None = None) -> Localized:
    """The panel's document for ``position`` (legal), with the comparison when the player gave ``route`` (legal).

    Raises:
        SolverError: a solver failed (a bug).
    """
    return explain_document(explain(position, route=route, limit=limit, stop=stop))


def explain_document(found: Explanation) -> Localized:
    """The explanation as the panel shows it: ``status`` ``done``, the command line's keys, each what-if's map;
    its maps drawn once, its words said in each phone's language (the steps' notes said again in it)."""
    extras: dict[str, dict[str, Any]] = {}
    if found.what_if is not None:
        for kind, gain in (("card", found.what_if.card), ("counter", found.what_if.counter)):
            if gain is not None:
                extras[kind] = _gain_extras(found.position, gain)
    return localized(_explain_words, found, extras)


def _explain_words(found: Explanation, extras: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The panel's document in the language spoken now (the notes' sentences are made in the language spoken
    when they are, so they are made again in this one)."""
    said = replace(found, notes=tuple(step_notes(found.solution.plan)))
    document = {key: value for key, value in explanation_dict(said).items() if key not in _KNOWN}
    what_if = document["what_if"]
    if what_if is not None:
        for kind, extra in extras.items():
            what_if[kind].update(extra)
    return {"status": "done", **document}


def _gain_extras(position: Position, gain: Gain) -> dict[str, Any]:
    addition = gain.addition
    return {"card_letter": addition.card.letter if addition.card else None,
            "counter_letter": addition.counter.letter if addition.counter else None,
            "svg": render_svg(addition.apply(position), (gain.plan,), board_only=True)}
