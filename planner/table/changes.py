"""The changes a table page makes to a position: read from small JSON objects, applied as pure functions.

A change is one tap at the table: ``{"op": "tile", "road": "LAP-RIV:f", "counter": "D"}``,
``{"op": "card", "card": "D", "delta": 1}``, ``{"op": "visit", "town": "THR", "visited": true}`` ... (:data:`OPS`
lists them with their keys; the drawing and planning phases' own, ``take``, ``place``, ``opponent`` ..., are in
:mod:`planner.table.rounds`). :func:`read_change` checks the object's shape with the project's own parsers (towns,
roads, cards and counters are read as forgivingly as on the command line) and reports every problem at once;
:func:`apply_change` returns the changed position, which the caller validates with :meth:`Position.problems`, so
a change that breaks the rules is refused with the same structured problems the command line prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from planner.common.forms import Form
from planner.common.problems import Problem, Problems
from planner.elfenland.checking import route_check
from planner.elfenland.local_names import transport_word
from planner.elfenland.notation import (
    parse_cards,
    parse_connection,
    parse_counter,
    parse_town,
    parse_transport,
)
from planner.elfenland.plan import Step, parse_route, verify
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import FIRST_ROUND, RULE_OPTIONS, Rules
from planner.errors import IllegalPositionError, NotationError, PlannerError
from planner.table.change import Change, refusal
from planner.table.game import GAME_OPS, read_game_change
from planner.table.rounds import ROUND_OPS, apply_round_change, read_round_change
from planner.table.texts import tt

__all__ = ["GAME_ONLY", "HISTORY_OPS", "OPS", "VIEW_OPS", "Change", "apply_change", "read_change", "read_own_route",
           "rules_text"]

OPS: dict[str, tuple[str, ...]] = {
    "tile": ("road", "counter", "obstacle"),
    "card": ("card", "delta"),
    "hand": ("hand",),
    "visit": ("town", "visited"),
    "at": ("town",),
    "home": ("town",),
    "round": ("round",),
    "rule": ("name", "value"),
    "notation": ("text",),
    "travel": ("route",),
    "yours": ("route",),
    "undo": (),
    "redo": (),
    "alternatives": ("count",),
    **ROUND_OPS,
    **GAME_OPS,
}
"""Every operation and the keys it takes besides ``op`` (the round's are in :mod:`planner.table.rounds`)."""
HISTORY_OPS = frozenset({"undo", "redo"})
"""Operations on the table's history rather than on the position."""
VIEW_OPS = frozenset({"alternatives", "phase", "yours"})
GAME_ONLY = frozenset(GAME_OPS) - {"mode"}
"""Operations of the game mode (the table's game, not the analysis position)."""
"""Operations on what the table shows rather than on the position (not in the history, not saved)."""
MAX_ALTERNATIVES = 5


def read_change(data: Any) -> Change:
    """The change a page sent, every problem of its shape at once.

    Raises:
        IllegalPositionError: not an object, an unknown ``op`` or key, a value of the wrong type or one that names
            no road, town, card, counter or rule value (each problem names its key and the value sent).
    """
    problems = Problems()
    if not isinstance(data, Mapping):
        raise refusal("bad-change", "", data, tt('a change must be a JSON object like {example}',
                                                  example='{"op": "card", "card": "D", "delta": 1}'))
    op = data.get("op")
    if not isinstance(op, str) or op not in OPS:
        raise refusal("bad-op", "op", op, tt("unknown change op {op}; the ops are {ops}", op=repr(op),
                                             ops=", ".join(OPS)))
    form = Form(data, problems, keys=("op", *OPS[op]))
    fields: dict[str, Any] = {}
    if op in ROUND_OPS:
        fields = read_round_change(op, form, problems)
    elif op in GAME_OPS:
        fields = read_game_change(op, form, problems)
    elif op == "tile":
        road = form.text("road", required=tt("the road's id, e.g. {example}", example="LAP-RIV:f"))
        if road is not None:
            connection = problems.attempt("road", parse_connection, road, where="road")
            fields["road"] = connection.id if connection else None
        counter = form.data.get("counter")
        if counter is not None:  # None (or a missing key) clears the road
            text = form.text("counter")
            if text is not None:
                parsed = problems.attempt("counter", parse_counter, text, where="counter")
                if parsed is not None:
                    fields["counter"], obstacle = parsed
                    fields["obstacle"] = obstacle
        obstacle_flag = form.boolean("obstacle")
        if obstacle_flag is not None:
            fields["obstacle"] = obstacle_flag or fields.get("obstacle", False)
    elif op == "card":
        card = form.text("card", required=tt("the card's letter, e.g. {example}", example="D"))
        if card is not None:
            fields["card"] = problems.attempt("card", parse_transport, card, where="card")
        fields["delta"] = form.integer("delta", low=-99, high=99) or 0
    elif op == "hand":
        hand = form.text("hand", required=tt("the cards, e.g. {example} or {none}", example='"DDCRR"', none='"-"'),
                         empty=True)
        if hand is not None:
            counts = {} if hand.strip() in ("", "-") else problems.attempt("hand", parse_cards, hand)
            fields["hand"] = None if counts is None else Hand.from_counts(counts)
    elif op in ("visit", "at", "home"):
        town = form.text("town", required=tt("a town code or name, e.g. {example}", example="THR")
                         if op != "home" else None)
        if town is not None and town.strip() != "-":
            fields["town"] = problems.attempt("town", parse_town, town, where="town")
        elif town is not None and op != "home":
            problems.add("missing-key", "town", town, tt("a town is needed, e.g. {example}", example="THR"))
        if op == "visit":
            visited = form.boolean("visited")
            fields["visited"] = True if visited is None else visited
    elif op == "round":
        fields["round"] = form.integer("round", low=FIRST_ROUND, high=max(RULE_OPTIONS["rounds"].values))
        if fields["round"] is None and not problems:
            problems.add("missing-key", "round", None, tt("the round is needed, e.g. {example}", example=2))
    elif op == "rule":
        _read_rule(form, problems, fields)
    elif op in ("notation", "travel", "yours"):
        key = "text" if op == "notation" else "route"
        fields["text"] = form.text(key, required=tt("the text to read"), empty=op != "notation")
    elif op == "alternatives":
        fields["count"] = form.integer("count", low=1, high=MAX_ALTERNATIVES)
        if fields["count"] is None and not problems:
            problems.add("missing-key", "count", None, tt("the number of plans to show, {low}..{high}", low=1,
                                                          high=MAX_ALTERNATIVES))
    problems.check()
    return Change(op, **fields)


def _read_rule(form: Form, problems: Problems, fields: dict[str, Any]) -> None:
    name = form.text("name", required=tt("one of {names}", names=", ".join(RULE_OPTIONS)))
    if name is None:
        return
    option = RULE_OPTIONS.get(name)
    if option is None:
        problems.add("bad-rule", "rules", name, tt("unknown rule option {name}; the options are {options}",
                                                   name=repr(name), options=", ".join(RULE_OPTIONS)))
        return
    value = form.data.get("value")
    if isinstance(value, str):
        value = problems.attempt(f"rules.{name}", option.parse, value)
    elif type(value) is not type(option.default) or value not in option.values:  # 4.0 == 4, True == 1
        kind = "bad-type" if type(value) is not type(option.default) else "bad-rule"  # a bad type: malformed
        problems.add(kind, f"rules.{name}", value, option.refusal(value))
        value = None
    fields["rule"], fields["value"] = name, value


def apply_change(position: Position, change: Change) -> Position:
    """The position after ``change`` (not yet validated: the caller checks :meth:`Position.problems`).

    Raises:
        IllegalPositionError: a change that cannot even be expressed as a position: a card count below zero, a
            new round after the last, a notation or a route that does not parse or is not legal, a counter taken
            or placed that is not there (see :func:`~planner.table.rounds.apply_round_change`).
        ValueError: a history or view op (``undo``, ``redo``, ``alternatives``, ``phase``, ``yours``), which the
            table handles itself.
    """
    op = change.op
    if op == "tile":
        assert change.road is not None
        tiles = [t for t in position.tiles if t.road != change.road]
        if change.counter is not None or change.obstacle:
            tiles.append(Tile(change.road, change.counter, change.obstacle))
        return position.replace(tiles=tuple(tiles))
    if op == "card":
        assert change.card is not None
        counts = position.hand.as_dict()
        counts[change.card] += change.delta
        if counts[change.card] < 0:
            raise refusal("no-card", "hand", change.card.letter,
                          tt("the hand holds no {card} card to take away", card=transport_word(change.card)))
        return position.replace(hand=Hand.from_counts(counts))
    if op == "hand":
        assert change.hand is not None
        return position.replace(hand=change.hand)
    if op == "visit":
        assert change.town is not None
        if change.town == position.at and not change.visited:
            raise refusal("boot-town", "visited", change.town, tt("the boot's town is always collected: move the "
                                                                  "boot first"))
        visited = position.visited | {change.town} if change.visited else position.visited - {change.town}
        return position.replace(visited=visited)
    if op == "at":
        return position.replace(at=change.town)
    if op == "home":
        return position.replace(home=change.town)
    if op == "round":
        return position.replace(round=change.round)
    if op == "rule":
        return position.replace(rules=position.rules.with_options(**{change.rule or "": change.value}))
    if op == "notation":
        return _from_notation(position, change.text or "")
    if op == "travel":
        return _travel(position, change.text or "")
    if op in ROUND_OPS and op != "phase":
        return apply_round_change(position, change)
    raise ValueError(f"{op!r} is not a change of the position")


def _from_notation(position: Position, text: str) -> Position:
    try:
        parsed = Position.from_str(text)
    except NotationError as error:
        raise refusal(error.kind, "notation", error.value or text, str(error)) from None
    return parsed.replace(title=position.title, notes=position.notes)


def _travel(position: Position, route: str) -> Position:
    """The position after walking ``route``: the boot at its end, its towns collected, its cards paid."""
    try:
        outcome = verify(position, parse_route(position, route))
    except PlannerError as error:  # a malformed step, towns not neighbours, a step the hand cannot pay
        raise refusal("bad-route", "route", route, str(error)) from None
    return position.replace(at=outcome.end, visited=position.visited | set(outcome.new_towns),
                            hand=outcome.cards_left)


def read_own_route(position: Position, text: str) -> tuple[Step, ...]:
    """The player's own route for the explanation: parsed and checked by the verifier, so an illegal one is
    refused at once with its step and reason rather than after the explanation's solves.

    Raises:
        IllegalPositionError: the route does not parse (an unknown town names the nearest) or is not legal.
    """
    try:
        check = route_check(position, text, solve_best=False)
    except NotationError as error:
        raise refusal(error.kind, "yours", error.value or text, str(error)) from None
    if check.error is not None:
        token = check.token
        raise IllegalPositionError([Problem("illegal-route", "yours", token, tt(
            "step {step} ({token}): {reason}", step=check.error.index + 1, token=token, reason=check.error.reason))])
    return check.steps


def rules_text(rules: Rules) -> dict[str, str]:
    """Every rule option's value as the page shows and sends it (``{"caravan": "flat", "rounds": "4"}``)."""
    return {name: option.texts[option.values.index(getattr(rules, name))] for name, option in RULE_OPTIONS.items()}
