"""The JSON documents the table page reads: the board's fixed shapes, and a view of the table's position.

Plain dicts for :func:`json.dumps`. The page draws nothing from game knowledge of its own: which counters a road
can carry, the card names and the rule options all come from here, so the page stays a thin view of the library.
"""

from __future__ import annotations

import functools
from dataclasses import asdict
from typing import Any

from planner.common import i18n
from planner.common.problems import Problem
from planner.elfenland import sentences
from planner.elfenland.advice.drawing import DrawAdvice
from planner.elfenland.advice.keeping import KeepAdvice
from planner.elfenland.advice.obstacle import ObstacleAdvice
from planner.elfenland.advice.placing import PlaceAdvice, RoadRisk
from planner.elfenland.board import load_board
from planner.elfenland.explain import step_records, verdict
from planner.elfenland.local_names import town_word, transport_word
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Position
from planner.elfenland.report import keep_dict, obstacle_dict, place_dict, plan_dict
from planner.elfenland.rules import (
    COUNTER_TRANSPORTS,
    DECK,
    DISPLAY_SIZE,
    HAND_SIZE,
    KEEP_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULE_OPTIONS,
    SUPPLY_LIMIT,
    TRANSPORTS,
    Transport,
    can_carry,
)
from planner.elfenland.solvers import Solution
from planner.elfenland.svg import BOARD_CROP, TRANSPORT_COLOURS, board_layout
from planner.table import PHASES
from planner.table.changes import MAX_ALTERNATIVES, rules_text
from planner.table.localized import localized
from planner.table.rounds import DISPLAY_CHOICES, PILES
from planner.table.texts import tt, tt_mark

__all__ = ["board_document", "draw_document", "keep_document", "obstacle_document", "place_document",
           "position_document", "solution_document", "travel_document"]

SAMPLES = 16
"""Segments per road sent to the page for tap picking: a road bows at most 40 px, so 16 stay within a pixel."""


def board_document() -> dict[str, Any]:
    """:func:`board_in` the language spoken now."""
    return board_in(i18n.language())


RULE_TEXTS = {  # each rule option's name and help, and its values, as the page shows them (the table domain)
    "caravan": (tt_mark("caravan"), tt_mark("caravan cost: flat 3 (4 with obstacle), or scaled 2 + counter cost")),
    "caravan_when": (tt_mark("caravan when"),
                     tt_mark("caravans always allowed, or strict: only without the matching cards")),
    "rounds": (tt_mark("rounds"), tt_mark("rounds in the game; the last applies the home-town penalty")),
    "home_distance": (tt_mark("home distance"), tt_mark("links counted to home: all, or roads only")),
    "home_variant": (tt_mark("home variant"), tt_mark("whether a home-town card costs points in the last round")),
}
VALUE_TEXTS = {value: tt_mark(value) for value in ("flat", "scaled", "always", "strict", "all", "roads", "true",
                                                    "false")}


@functools.cache
def board_in(lang: str) -> dict[str, Any]:
    """Towns, roads (sampled as polylines in the board-only picture's coordinates), cards and rule options."""
    board = load_board()
    layout = board_layout()
    return {
        "crop": [BOARD_CROP.x, BOARD_CROP.y, BOARD_CROP.w, BOARD_CROP.h],
        "towns": [{"code": t.code, "name": town_word(board, t.code), "board_name": t.name, "x": t.x, "y": t.y,
                   "r": layout.radius(t.code),
                   "capital": t.capital, "home_card": t.home_card} for t in board.towns.values()],
        "roads": [{"id": c.id, "a": c.a, "b": c.b, "terrain": str(c.terrain),
                   "counters": [t.letter for t in COUNTER_TRANSPORTS if can_carry(t, c.terrain)],
                   "points": [[round(x, 1), round(y, 1)] for x, y in layout.curves[c.id].points(SAMPLES)]}
                  for c in board.roads],
        "cards": [{"letter": t.letter, "title": transport_word(t), "name": t.title, "deck": DECK[t],
                   "counter": t.is_counter,
                   "colour": TRANSPORT_COLOURS[t]} for t in TRANSPORTS],
        "rules": {name: {"values": list(option.texts), "title": tt(RULE_TEXTS[name][0]),
                         "help": tt(RULE_TEXTS[name][1]),
                         "texts": [tt(VALUE_TEXTS[v]) if v in VALUE_TEXTS else v for v in option.texts]}
                  for name, option in RULE_OPTIONS.items()},
        "hand_size": HAND_SIZE,
        "max_alternatives": MAX_ALTERNATIVES,
        "phases": list(PHASES),
        "piles": list(PILES),
        "supply_limit": SUPPLY_LIMIT,
        "display_size": DISPLAY_SIZE,
        "keep_limit": KEEP_LIMIT,
        "players": [MIN_PLAYERS, MAX_PLAYERS],
        "display_choices": list(DISPLAY_CHOICES),
    }


def position_document(position: Position) -> dict[str, Any]:
    """The position as the page's controls show it, with its notation and warnings (said in each phone's language:
    :mod:`planner.table.localized`)."""
    return {
        "notation": str(position),
        "title": position.title,
        "at": position.at,
        "hand": {t.letter: n for t, n in position.hand.as_dict().items()},
        "cards": len(position.hand),
        "tiles": [{"road": t.road, "counter": t.transport.letter if t.transport else None, "obstacle": t.obstacle}
                  for t in position.tiles],
        "visited": sorted(position.visited),
        "home": position.home,
        "round": position.round,
        "rounds": position.rules.rounds,
        "last_round": position.last_round,
        "rules": rules_text(position.rules),
        "warnings": localized(_warnings, position),
        **{pile: _counts(getattr(position, pile)) for pile in PILES},
        "obstacle": position.obstacle,
        "players": position.players,
        "opponents": [{"index": i, "name": o.name, "at": o.at, "visited": sorted(o.visited),
                       "counters": _counts(o.counters), "secret": o.secret, "obstacle": o.obstacle,
                       "points": o.points} for i, o in enumerate(position.opponents, 1)],
    }


def _warnings(position: Position) -> list[dict[str, str | None]]:
    """The position's warnings, said in the language spoken now."""
    return [p.as_dict() for p in position.warnings()]


def _counts(counters: Hand) -> dict[str, int]:
    return {t.letter: counters[t] for t in COUNTER_TRANSPORTS}


def plan_document(plan: Plan) -> dict[str, Any]:
    """One plan: the report's fields, its one-line verdict and the step records of the route table."""
    return {**plan_dict(plan), "verdict": verdict(plan), "records": [asdict(r) for r in step_records(plan)]}


def solution_document(solution: Solution) -> dict[str, Any]:
    """The solve: how sure it is, and each plan, best first."""
    return {
        "status": str(solution.status),
        "optimal": solution.proven,
        "bound": solution.bound,
        "solver": solution.solver,
        "seconds": round(solution.elapsed, 4),
        "plans": [plan_document(p) for p in solution.plans],
    }


def problems_document(problems: tuple[Problem, ...] | list[Problem]) -> list[dict[str, str | None]]:
    """Problems as the page places them beside what caused them (``field`` and ``value``)."""
    return [p.as_dict() for p in problems]


# -- the phases' advice -----------------------------------------------------------------------------------------
def status_text(solution: Solution) -> str:
    """How sure a solve is, in the page's status line: ``proven best · 0.01 s``."""
    if solution.proven:
        return tt("proven best · {seconds} s", seconds=i18n.format_number(solution.elapsed, ".2f"))
    return tt("best found, not proven ({status}, {seconds} s)", status=solution.status,
              seconds=i18n.format_number(solution.elapsed, ".1f"))


def travel_document(position: Position, solution: Solution) -> dict[str, Any]:
    """The travel phase: the route's verdict; the keep advice (``keep``, null in the last round) and the route's
    explanation (``explain``, :mod:`planner.table.explaining`) come later."""
    return {"phase": "travel", "verdict": sentences.route_verdict(solution.plan),
            "status": status_text(solution), "keep": None, "last_round": position.last_round,
            "explain": {"status": "pending"}}


def _placements(plan: Plan) -> list[dict[str, str | None]]:
    return [{"road": t.road, "counter": _letter(t.transport)} for t in plan.placements]


def draw_document(position: Position, advice: DrawAdvice | None, full: Solution | None) -> dict[str, Any]:
    """The draw phase: each face-up counter and the blind draw with the joint plan's value, the best first and
    marked; ``full`` (with ``advice`` None) when the supply is full and nothing is left to draw."""
    if advice is None:
        assert full is not None
        plan = full.plan
        return {"phase": "draw", "full": True, "options": [], "best": None,
                "verdict": sentences.draw_full(position),
                "status": status_text(full), "now": {"score": plan.score, "cards_spent": plan.cards_spent},
                "shown": {"route": str(plan), "placements": _placements(plan), "counter": None}}
    best = advice.best
    options = [{"counter": _letter(o.counter), "name": transport_word(o.counter) if o.counter else tt("blind"),
                "face_up": position.display[o.counter] if o.counter else 0, "score": round(o.score, 4),
                "cards_spent": round(o.cards, 4), "best": o is best, "route": None if o.plan is None else str(o.plan),
                "chances": None if o.chances is None else {t.letter: round(p, 4) for t, p in o.chances.items()},
                "towns_text": sentences.about(o.score, "town"), "cards_text": sentences.about(o.cards, "card")}
               for o in advice.options]
    equal = [str(o["name"]) for o in options if (o["score"], o["cards_spent"]) == (options[0]["score"],
                                                                             options[0]["cards_spent"])]
    now = advice.now
    shown = best.plan or now
    plans = [o.plan for o in advice.options if o.plan is not None] + [now]
    return {"phase": "draw", "full": False, "options": options, "best": options[0]["counter"] or "blind",
            "verdict": sentences.draw_verdict(advice),
            "ties": sentences.tied(equal) if len(equal) > 1 else None,
            "status": tt("every joint plan proven best") if all(p.proven for p in plans) else
                      tt("best found, not every plan proven (the limit ran out)"),
            "now": {"score": now.score, "cards_spent": now.cards_spent},
            "shown": {"route": str(shown), "placements": _placements(shown),
                      "counter": _letter(best.counter) if best.plan is not None else None}}


def place_document(advice: PlaceAdvice, roads: list[RoadRisk], *, samples: int) -> dict[str, Any]:
    """The plan phase: the joint plan's placements (mine), the one to make now with the worst reply, the regrets
    per road (``elfenland place --json``'s keys), and where the obstacle advice stands."""
    position = advice.position
    report = place_dict(advice, roads, None)
    plan = advice.joint.plan
    now = advice.now.placement
    for entry, tile in zip(report["placements"], plan.placements, strict=True):
        entry["letter"] = _letter(tile.transport)
    if now is not None:
        report["now"]["letter"] = _letter(now.transport)
    for entry, risk in zip(report["regrets"], roads, strict=True):  # what each costs, as every advice table says it
        entry["letter"] = _letter(risk.mine)
        entry["filled_text"] = None if risk.filled is None else sentences.plan_change(plan.value, risk.filled.value)
        entry["obstacle_text"] = None if risk.blocked is None else sentences.plan_change(plan.value,
                                                                                         risk.blocked.value)
    if not position.obstacle:
        obstacle: dict[str, Any] = {"status": "placed", "note": tt("you placed your obstacle of the game already")}
    elif not position.opponents:
        obstacle = {"status": "no-opponents", "note": tt("add the opponents (their town, visited towns and points) "
                                                         "for the obstacle advice")}
    else:
        obstacle = {"status": "pending", "samples": samples}
    gains_nothing = advice.passing_is_free and now is not None  # then the advice is to pass, not to place
    return {"phase": "plan", "verdict": sentences.pass_gains_nothing() if gains_nothing else report["verdict"],
            "reason": sentences.pass_reason(advice), "detail": sentences.worst_reply(advice),
            "passing_note": None, "gains_nothing": gains_nothing,
            "status": status_text(advice.joint),
            **{key: report[key] for key in ("placements", "now", "passing_is_free", "worst", "replies", "regrets")},
            "obstacle": obstacle}


def _letter(transport: Transport | None) -> str | None:
    return transport.letter if transport is not None else None


def obstacle_document(advice: ObstacleAdvice) -> dict[str, Any]:
    """The obstacle advice: ``elfenland obstacle --json``'s keys and its verdict (``reason`` says why)."""
    report = obstacle_dict(advice)
    for key in ("schema", "source", "position"):
        del report[key]
    for entry, outlook in zip(report["opponents"], advice.outlooks, strict=True):
        for road, effect in zip(entry["roads"], outlook.effects, strict=True):
            road["towns_text"] = sentences.about_change(-effect.towns, "town")
            road["cards_text"] = sentences.about_change(effect.cards, "card")
            road["mine_text"] = sentences.change(-effect.my_towns, effect.my_cards)
            road["loss_text"] = sentences.about(effect.towns, "town")
        # By effect: the towns an obstacle takes, then the cards it adds; roads where it does nothing come last.
        entry["roads"].sort(key=lambda road: (-road["towns_lost"], -road["extra_cards"]))
    samples = advice.outlooks[0].samples if advice.outlooks else 0
    return {"status": "done", "samples": samples, **report}


def keep_document(position: Position, keep: KeepAdvice) -> dict[str, Any]:
    """The end-of-round advice: ``keep_dict``'s keys, the letters the new-round change takes, and its line."""
    best = keep.best
    return {**keep_dict(position, keep), "verdict": sentences.keep_verdict(position, keep, whole=True),
            "end_code": best.end, "card_letters": str(best.cards), "counter_letter": _letter(best.counter)}
