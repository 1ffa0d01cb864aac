"""Game records (schema ``elfenland-game/1``, one JSON object a line) and their replay through the engine.

A record holds the seed, the rules and the players (name, seat, home card), then per round each hand after the
deal, every action in order (player, phase, the action in the project's notations: a face-up index or ``blind``,
``D@ROAD``, ``X@ROAD``, ``pass``, route text, the cards discarded, the counter kept or ``-``), the board when
travel starts (the compact notation's placements) and each player's travel as ``elfenland route --json`` prints
its ``steps``, with the town, hand and collected towns at its start; then the final scores, penalties and winners.

:func:`replay` plays every action of a record again through the engine and rebuilds the record: the same record
means "legal, same result"; otherwise it names the first illegal action and why, or the first field that differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from planner.common.i18n import say
from planner.common.problems import Problem
from planner.common.values import frozen
from planner.elfenland.game.engine import apply, new_game, position_of, scores, view
from planner.elfenland.game.state import (
    Action,
    Discard,
    Draw,
    GameRules,
    GameState,
    Keep,
    Pass,
    Phase,
    Place,
    PlaceObstacle,
    Travel,
)
from planner.elfenland.notation import parse_connection, parse_counter, parse_transport
from planner.elfenland.plan import Plan, parse_route
from planner.elfenland.position import Hand
from planner.elfenland.report import plan_dict
from planner.elfenland.rules import Rules
from planner.errors import NotationError

__all__ = ["SCHEMA", "Replay", "action_text", "build_record", "parse_action", "replay", "rules_dict",
           "rules_from", "walk"]

SCHEMA = "elfenland-game/1"


def rules_dict(rules: GameRules) -> dict[str, Any]:
    """The rules of a game as a record stores them."""
    return {"options": str(rules.rules), "home_towns": rules.home_towns, "display_carries": rules.display_carries}


def rules_from(data: dict[str, Any]) -> GameRules:
    """The rules a record stores.

    Raises:
        NotationError: a bad rule option.
    """
    return GameRules(Rules.from_str(str(data.get("options", ""))), bool(data.get("home_towns", False)),
                     bool(data.get("display_carries", True)))


def action_text(action: Action) -> str:
    """An action in the project's notations (see the module docstring)."""
    return str(action)


def parse_action(state: GameState, text: str) -> Action:
    """The action ``text`` means for the player to act in ``state`` (its phase decides how to read it).

    Raises:
        NotationError: text that names no action of that phase.
    """
    text = text.strip()
    phase = state.phase
    if text.lower() == "pass" and phase in (Phase.DRAW, Phase.PLAN):
        return Pass()
    if phase is Phase.DRAW:
        if text.lower() == "blind":
            return Draw(None)
        if text.isdigit():
            return Draw(int(text))
        raise NotationError(say("draw {text}: give a face-up index (0..4) or 'blind'", text=repr(text)),
                            kind="bad-draw", value=text)
    if phase is Phase.PLAN:
        counter, at, road = text.partition("@")
        if not at:
            raise NotationError(say("placement {text} must look like 'D@LAP-RIV:f', 'X@LAP-RIV:f' or 'pass'",
                                    text=repr(text)), kind="bad-placement", value=text)
        transport, obstacle = parse_counter(counter, where="action")
        road_id = parse_connection(road, where="action").id
        if transport is None:
            return PlaceObstacle(road_id)
        if obstacle:
            raise NotationError(say("placement {text} places a counter or an obstacle, not both", text=repr(text)),
                                kind="bad-placement", value=text)
        return Place(transport, road_id)
    if phase is Phase.TRAVEL:
        return Travel(() if text in ("", "-") else parse_route(position_of(view(state, state.turn)), text))
    if phase is Phase.DISCARD:
        return Discard(Hand.from_str(text))
    if phase is Phase.KEEP:
        return Keep(None if text in ("", "-") else parse_transport(text, where="keep"))
    raise NotationError(say("the game is over: no action {text}", text=repr(text)), kind="game-over", value=text)


def build_record(states: Sequence[GameState], actions: Sequence[Action], seats: Sequence[str]) -> dict[str, Any]:
    """The record of a game: ``states[i]`` is the state before ``actions[i]``, ``states[-1]`` the last one."""
    first, last = states[0], states[-1]
    names = [p.name for p in first.players]
    rounds: list[dict[str, Any]] = []
    for before, action in zip(states, actions, strict=False):
        if not rounds or rounds[-1]["round"] != before.round:
            rounds.append({"round": before.round, "start": names[before.start],
                           "hands": {p.name: str(p.hand) for p in before.players},
                           "display": "".join(t.letter for t in before.display), "actions": [], "board": None,
                           "travel": []})
        this = rounds[-1]
        player = before.players[before.turn]
        entry: dict[str, Any] = {"player": player.name, "phase": str(before.phase), "action": action_text(action)}
        if isinstance(action, Draw):
            entry["took"] = (before.stack[0] if action.index is None else before.display[action.index]).letter
        this["actions"].append(entry)
        if isinstance(action, Travel):
            if this["board"] is None:
                this["board"] = ",".join(str(t) for t in before.tiles) or "-"
            position = position_of(view(before, before.turn))
            this["travel"].append({
                "player": player.name, "town": player.town, "hand": str(player.hand),
                "collected": sorted(player.visited - {"ELV"}), "route": str(action),
                "steps": plan_dict(Plan.of(position, action.steps))["steps"]})
    document: dict[str, Any] = {
        "schema": SCHEMA, "seed": first.seed, "rules": rules_dict(first.rules),
        "players": [{"name": p.name, "seat": kind, "home": p.home} for p, kind in zip(first.players, seats,
                                                                                        strict=True)],
        "rounds": rounds,
    }
    if last.over:
        found, winners = scores(last)
        document["scores"] = [{"name": s.name, "towns": s.towns, "penalty": s.penalty, "points": s.points,
                               "cards": s.cards} for s in found]
        document["winners"] = [names[i] for i in winners]
    return document


@frozen
class Replay:
    """The verdict of :func:`replay`."""

    legal: bool
    """Whether every action was legal."""
    same: bool
    """Whether the rebuilt record equals the given one."""
    index: int | None = None
    """The first illegal action's number in the game (0-based), if any."""
    problem: Problem | None = None
    """Why that action is illegal, or where the records differ."""
    actions: int = 0

    @property
    def ok(self) -> bool:
        """Legal and the same result."""
        return self.legal and self.same


def _difference(given: Any, rebuilt: Any, where: str = "") -> str | None:
    """The first path where two JSON values differ."""
    if isinstance(given, dict) and isinstance(rebuilt, dict):
        for key in dict.fromkeys([*given, *rebuilt]):
            found = _difference(given.get(key), rebuilt.get(key), f"{where}.{key}" if where else str(key))
            if found:
                return found
        return None
    if isinstance(given, list) and isinstance(rebuilt, list):
        for i, (a, b) in enumerate(zip(given, rebuilt, strict=False)):
            found = _difference(a, b, f"{where}[{i}]")
            if found:
                return found
        if len(given) != len(rebuilt):
            return f"{where}: {len(given)} items recorded, {len(rebuilt)} replayed"
        return None
    if given != rebuilt:
        return f"{where}: recorded {given!r}, replayed {rebuilt!r}"
    return None


def walk(record: dict[str, Any]) -> tuple[list[GameState], list[Action], Replay]:
    """Apply every action of ``record`` through the engine from its seed: the states (``states[i]`` before
    ``actions[i]``), the actions, and the verdict (see the module docstring)."""
    try:
        if record.get("schema") != SCHEMA:
            raise NotationError(f"not a game record: schema {record.get('schema')!r}, not {SCHEMA!r}",
                                kind="bad-schema")
        players = record["players"]
        names = [str(p["name"]) for p in players]
        seats = [str(p.get("seat", "")) for p in players]
        state = new_game(int(record["seed"]), names, rules_from(record.get("rules", {})))
        entries = [a for r in record["rounds"] for a in r["actions"]]
    except (KeyError, TypeError, ValueError) as error:
        return [], [], Replay(False, False, None, Problem("bad-record", "", None,
                                                          f"not a readable game record: {error}"))
    states: list[GameState] = [state]
    actions: list[Action] = []

    def failed(index: int, problem: Problem) -> tuple[list[GameState], list[Action], Replay]:
        return states, actions, Replay(False, False, index, problem, index)

    for index, entry in enumerate(entries):
        here = f"action {index + 1} ({entry.get('player')}, {entry.get('phase')}, {entry.get('action')!r})"
        expected = state.players[state.turn].name if not state.over else None
        if entry.get("player") != expected or entry.get("phase") != str(state.phase):
            return failed(index, Problem("out-of-turn", "player", str(entry.get("player")),
                                         f"{here}: it is {expected}'s turn in the {state.phase} phase"))
        try:
            action = parse_action(state, str(entry.get("action", "")))
        except NotationError as error:
            return failed(index, Problem(error.kind, "action", error.value, f"{here}: {error}"))
        after = apply(state, action)
        if isinstance(after, Problem):
            return failed(index, Problem(after.kind, after.field, after.value, f"{here}: {after.message}"))
        state = after
        states.append(state)
        actions.append(action)
    rebuilt = build_record(states, actions, seats)
    difference = _difference(record, rebuilt)
    if difference is not None:
        return states, actions, Replay(True, False, None, Problem("different-result", "", None, difference),
                                       len(actions))
    return states, actions, Replay(True, True, None, None, len(actions))


def replay(record: dict[str, Any]) -> Replay:
    """Apply every action of ``record`` through the engine from its seed (see the module docstring)."""
    return walk(record)[2]
