"""The JSON documents of the ``expedition`` command (schema ``expedition-planner/1``): plain dicts, one builder
per command, so that tools read exactly what the tables show.

Contract (issue 15): ``reach`` gives ``{"reach": {colour: {green: {"arrows": n|null, "turns": n|null}}}}`` for the
locations asked (all 80 greens with ``--all``); ``move`` gives ``{"points": n, "actions": [...], "alternatives":
[...]}`` with ``points`` the best points for me this turn using at most the tickets allowed.
"""

from __future__ import annotations

from typing import Any

from planner.expedition.advice import CardChange, TokenChoice
from planner.expedition.position import Position
from planner.expedition.reach import Distance, Reach
from planner.expedition.search import Move, MoveSearch

__all__ = ["SCHEMA", "move_dict", "reach_dict", "setup_dict"]

SCHEMA = "expedition-planner/1"


def _distance(distance: Distance | None) -> dict[str, int | None] | None:
    return None if distance is None else {"arrows": distance.arrows, "turns": distance.turns}


def reach_dict(position: Position, table: Reach, hopeless: tuple[str, ...]) -> dict[str, Any]:
    """``expedition reach --json``."""
    return {
        "schema": SCHEMA,
        "position": str(position),
        "reach": {str(colour): {loc: _distance(d) for loc, d in by.items()} for colour, by in table.distances.items()},
        "first": {loc: (str(c) if (c := table.first(loc)) else None) for loc in table.locations},
        "turns_proven_up_to": {str(colour): turn for colour, turn in table.proven.items()},
        "hopeless": list(hopeless),
    }


def _move(move: Move) -> dict[str, Any]:
    return {"points": move.points, "actions": [str(a) for a in move.actions], "opponents_points": move.opponents,
            "tickets": move.tickets, "arrows": move.arrows}


def move_dict(position: Position, search: MoveSearch, changes: tuple[CardChange, ...],
              hopeless: tuple[str, ...]) -> dict[str, Any]:
    """``expedition move --json``."""
    return {
        "schema": SCHEMA,
        "position": str(position),
        "tickets_allowed": search.tickets,
        **_move(search.best),
        "alternatives": [_move(m) for m in search.alternatives],
        "status": search.status.value,
        "proven": search.proven,
        "searched": search.searched,
        "reach_change": [{"card": c.card, "before": _distance(c.before), "after": _distance(c.after)}
                         for c in changes],
        "hopeless": list(hopeless),
    }


def setup_dict(position: Position, choices: tuple[TokenChoice, ...], to_place: int) -> dict[str, Any]:
    """``expedition setup --json``."""
    return {
        "schema": SCHEMA,
        "position": str(position),
        "to_place": to_place,
        "tokens": [c.card for c in choices[:to_place]],
        "ranking": [{"card": c.card, "routes": round(c.routes, 2), "distance": c.distance} for c in choices],
    }
