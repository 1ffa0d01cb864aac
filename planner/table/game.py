"""The table's game mode: the game the players play, driven by the engine, entered one tap at a time.

The page's game changes (``game_start``, ``game_deal``, ``game_act``) are read here into log entries of
:mod:`planner.elfenland.game.table`, which plays them on the engine's rules; every action is the turn's player's
(the engine says whose turn it is, so a tap is never silently someone else's) and comes back in words ("Anna took
the face-up pig"), which undo names too. My position in the game (:meth:`GameTable.position`) is what the advice
works on; it is advised on my turns only, and a new round only once my hand is entered.
"""

from __future__ import annotations

from typing import Any

from planner.common.forms import Form
from planner.common.problems import Problems
from planner.elfenland.board import CAPITAL, load_board
from planner.elfenland.game.engine import view
from planner.elfenland.game.state import GameRules, GameState, Phase
from planner.elfenland.game.table import SEEN, Played, TableGame, default_collected, needs_deal, table_record
from planner.elfenland.game.table import my_position as game_position
from planner.elfenland.notation import parse_town
from planner.elfenland.position import Position
from planner.elfenland.rules import COUNTER_TRANSPORTS, MAX_PLAYERS, MIN_PLAYERS, Rules
from planner.errors import NotationError
from planner.table.change import Change, refusal
from planner.table.localized import Localized, localized
from planner.table.texts import tt

__all__ = ["GAME_OPS", "GameTable", "read_game_change"]

GAME_OPS: dict[str, tuple[str, ...]] = {
    "mode": ("mode",),
    "game_start": ("names", "me", "display", "hand", "secret"),
    "game_deal": ("hand", "secret"),
    "game_act": ("action", "took", "turned", "town", "collected"),
}
"""The game mode's operations and the keys each takes besides ``op``."""
MODES = ("analysis", "game")


def read_game_change(op: str, form: Form, problems: Problems) -> dict[str, Any]:
    """The checked fields of a game op: its log entry (``entry``), or the mode (``text``)."""
    if op == "mode":
        mode = form.text("mode", required=tt("{game} or {analysis}", game="game", analysis="analysis"))
        if mode is not None and mode not in MODES:
            problems.add("bad-mode", "mode", mode, tt("the table is in {game} or {analysis} mode, not {mode}",
                                                      game="game", analysis="analysis", mode=repr(mode)))
        return {"text": mode}
    entry: dict[str, Any] = {}
    if op == "game_start":
        names = form.strings("names")
        if names is None and not problems:
            problems.add("missing-key", "names", None, tt("the players' names in seat order, e.g. {example}",
                                                          example='["Anna", "me"]'))
        elif names is not None and not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            problems.add("players", "names", len(names), tt("a game has {low} to {high} players, not {given}",
                                                            low=MIN_PLAYERS, high=MAX_PLAYERS, given=len(names)))
        elif names is not None and not all(n.strip() for n in names):
            problems.add("blank-name", "names", ", ".join(names), tt("every player needs a name"))
        elif names is not None and len({n.strip().lower() for n in names}) != len(names):
            problems.add("same-name", "names", ", ".join(names), tt("two players share a name"))
        me = form.integer("me", low=0, high=MAX_PLAYERS - 1)
        entry.update(names=[n.strip() for n in names or []], me=me, display=form.text("display", required=tt(
            "the five face-up counters, e.g. {example}", example="PEUTD")))
    if op in ("game_start", "game_deal"):
        entry["deal"] = form.text("hand", required=tt("your cards, e.g. {example}", example="PPCCUTDR"))
        entry["secret"] = form.text("secret")
    if op == "game_act":
        entry["action"] = form.text("action", empty=True)
        for key in ("took", "turned", "town"):
            value = form.text(key)
            if value is not None:
                entry[key] = value
        collected = form.strings("collected", split=False)
        if collected is not None:
            entry["collected"] = collected
        if entry["action"] is None and "town" not in entry and not problems:
            problems.add("missing-key", "action", None, tt("the action, e.g. {examples}, a route, or the town an "
                                                           "opponent's move ends in",
                                                           examples='"blind", "2", "P@ELV-LAP:p", "pass"'))
    return {"entry": entry}


class GameTable:
    """One game at the table: its log, the states it played, and undo and redo over the log."""

    def __init__(self, names: list[str], me: int, *, rules: Rules, seed: int = 0) -> None:
        self.game = TableGame(names, me, seed=seed, rules=GameRules(rules))
        self.played: list[Played] = []
        self._undone: list[dict[str, Any]] = []
        self.said: Localized | None = None
        """The last entry in words, or what undo or redo did: said in each phone's language when asked."""

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> GameTable:
        """The game of a saved record, played again to its last entry.

        Raises:
            IllegalPositionError: the record does not replay.
        """
        from planner.elfenland.game.table import entries_of

        try:
            names = [str(p["name"]) for p in record["players"]]
            table = cls(names, names.index(str(record["table"]["me"])), seed=int(record["seed"]),
                        rules=Rules.from_str(str(record.get("rules", {}).get("options", ""))))
            entries = entries_of(record)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise refusal("bad-record", "save", None, tt("the saved game cannot be read: {error}",
                                                         error=error)) from None
        played, problem, index = table.game.replay(entries)
        if problem is not None:
            raise refusal(problem.kind, "save", problem.value, tt("entry {index} of the saved game: {problem}",
                                                                  index=index, problem=problem.message))
        table.played = played
        return table

    # -- the state ------------------------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The game now."""
        return self.played[-1].state if self.played else self.game.start

    @property
    def entries(self) -> list[dict[str, Any]]:
        """The log so far."""
        return [p.entry for p in self.played]

    @property
    def waiting_for_deal(self) -> bool:
        """Whether the round waits for my hand (nothing is advised until it is entered)."""
        return needs_deal(self.state, self.entries)

    @property
    def my_turn(self) -> bool:
        """Whether I am to act (and may be advised)."""
        state = self.state
        return not state.over and not self.waiting_for_deal and state.turn == self.game.me

    def position(self) -> Position:
        """My planner position in the game; after my move (discard, keep) the board is left out, so the advice
        is what to keep, not where to go on."""
        position = game_position(self.state, self.game.me)
        if self.state.phase in (Phase.DISCARD, Phase.KEEP) or (self.state.phase is Phase.TRAVEL
                                                               and not self.my_turn):
            return position.replace(tiles=())
        return position

    @property
    def phase(self) -> str:
        """The table's phase of advice: draw, plan, or travel (moving, discarding, keeping)."""
        phase = self.state.phase
        return str(phase) if phase in (Phase.DRAW, Phase.PLAN) else "travel"

    # -- changes --------------------------------------------------------------------------------------------------
    def act(self, entry: dict[str, Any]) -> str:
        """Play one entry (an opponent's move given by its end town gets the towns it most likely collected);
        the entry in words.

        Raises:
            IllegalPositionError: the engine refuses it (the problem says why).
        """
        state = self.state
        if "town" in entry and "collected" not in entry and state.phase is Phase.TRAVEL:
            try:
                end = parse_town(str(entry["town"]), where="town")
            except NotationError as error:
                raise refusal(error.kind, "town", entry["town"], str(error)) from None
            entry = {**entry, "town": end, "collected": default_collected(state, state.turn, end)}
            if end not in state.players[state.turn].visited and end != CAPITAL and end not in entry["collected"]:
                entry["collected"].append(end)
        if "town" in entry and state.phase is Phase.TRAVEL:
            entry = {**entry, "action": SEEN}
        entry = {k: v for k, v in entry.items() if v is not None}
        played = self.game.play(state, self.entries, entry)
        if not isinstance(played, Played):
            raise refusal(played.kind, played.field, played.value, played.message)
        self.played.append(played)
        self._undone.clear()
        self.said = localized(self.game.said, state, played.entry)
        return str(self.said())

    @property
    def can_undo(self) -> bool:
        """Whether an entry can be taken back (not the first deal: it holds the display; a new game replaces it)."""
        return len(self.played) > 1

    @property
    def replaceable(self) -> bool:
        """Whether a new game may replace this one: it is over, or nothing was played after the first deal."""
        return self.state.over or len(self.played) <= 1

    @property
    def can_redo(self) -> bool:
        """Whether an undone entry can come back."""
        return bool(self._undone)

    def undo(self) -> str:
        """Take back the last entry; what was undone, in words."""
        done = self.played.pop()
        before = self.state
        self._undone.append(done.entry)
        self.said = Localized(lambda: tt("undone: {said}", said=self.game.said(before, done.entry)))
        return str(self.said())

    def redo(self) -> str:
        """Play the last undone entry again; what it did, in words."""
        entry = self._undone.pop()
        undone = list(self._undone)
        self.act(entry)
        self._undone = undone
        again = self.said
        assert again is not None
        self.said = Localized(lambda: tt("redone: {said}", said=again()))
        return str(self.said())

    def _carried(self) -> str:
        """The cards I kept from the last round (the hand a new round's deal adds to)."""
        if len(self.played) < 2 or self.state.round == 1:
            return ""
        return str(self.played[-1].states[0].players[self.game.me].hand).replace("-", "")

    def record(self) -> dict[str, Any]:
        """The game's ``elfenland-game/1`` record (``elfenland replay`` and ``elfenland review`` read it)."""
        return table_record(self.game, self.played)

    # -- the page's view ------------------------------------------------------------------------------------------
    def document(self) -> dict[str, Any]:
        """The game as the page's turn strip and action sheets show it (its sentences said in each phone's
        language: :mod:`planner.table.localized`)."""
        state = self.state
        board = load_board()
        seen = view(state, self.game.me)
        waiting = self.waiting_for_deal
        turn = state.turn
        acting = state.players[turn]
        return {
            "names": list(self.game.names),
            "me": self.game.me,
            "round": state.round,
            "rounds": state.rules.rounds,
            "phase": str(state.phase),
            "turn": None if state.over or waiting else turn,
            "order": list(state.order),
            "needs": "deal" if waiting else None,
            "over": state.over,
            "replaceable": self.replaceable,
            "said": self.said,
            "display": [t.letter for t in state.display],
            "stack": len(state.stack),
            "players": [{"name": p.name, "me": i == self.game.me, "town": p.town,
                         "town_name": board.towns[p.town].name, "towns": len(p.visited - {CAPITAL}),
                         "visited": sorted(p.visited), "open": "".join(t.letter for t in p.open.cards()),
                         "secret": p.secret, "obstacle": p.obstacle, "cards": p.cards}
                        for i, p in enumerate(seen.players)],
            "hand": str(seen.hand),
            "carried": self._carried() if waiting else None,
            "face_down": str(seen.secret),
            "can_pass": state.phase is Phase.PLAN or (state.phase is Phase.DRAW and len(acting.counters) >= 5),
            "keep": {"open": sorted({t.letter for t in acting.open.cards()}, key=_order),
                     "face_down": bool(acting.secret) and turn != self.game.me,
                     "mine": sorted({t.letter for t in acting.counters.cards()}, key=_order)
                     if turn == self.game.me else []},
            "log": localized(_log, self.game, self.game.start, tuple(self.played)),
        }


def _log(game: TableGame, start: GameState, played: tuple[Played, ...]) -> list[str]:
    """The last six entries in words, in the language spoken now."""
    return [game.said(before, p.entry) for before, p in zip(
        [start, *(q.state for q in played)], played, strict=False)][-6:]


def _order(letter: str) -> int:
    return [t.letter for t in COUNTER_TRANSPORTS].index(letter)


def start_game(change: Change, rules: Rules) -> GameTable:
    """A new game from a ``game_start`` change: its players, my seat, the display and my first deal.

    Raises:
        IllegalPositionError: the players, the display or my hand are refused.
    """
    entry = change.entry or {}
    names, me = entry.get("names") or [], entry.get("me")
    if me is None or me >= len(names):
        raise refusal("bad-seat", "me", me, tt("say which of the players you are ({low}..{high})", low=0,
                                               high=len(names) - 1))
    table = GameTable(names, me, rules=rules)
    table.act({"deal": entry.get("deal"), "secret": entry.get("secret"), "display": entry.get("display")})
    first = names[table.state.turn]
    table.said = Localized(lambda: tt("a game of {players} begins; {name} draws first", players=", ".join(names),
                                      name=first))
    return table
