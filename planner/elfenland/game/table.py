"""A game played at a real table: the engine's rules on what the table sees (the table page's game mode).

At a physical table the deck and the stack are real, not the seed's: the table knows my hand and face-down counter
(I enter them each round), the face-up counters, every counter taken (a blind draw is shown once taken), every
placement, and of an opponent's move only where the boot ends and which towns it collected. The engine still
plays every rule: the game starts from a seeded :func:`~planner.elfenland.game.engine.new_game` whose deal stands
in for what nobody at the table can see (opponents' cards and face-down counters), and before each action the
state is made to agree with what the table saw (the counter taken or turned up, my dealt hand, an opponent's
face-down counter revealed by its placement, an opponent's boot and towns after a move). Every action then goes
through :func:`~planner.elfenland.game.engine.apply`, so an illegal one is refused with the engine's problem.

The log is a list of entries, the record's own action form plus what the table saw:

- a deal, once a round before anything else: ``{"deal": "PPCCUTDR", "secret": "D", "display": "PEUTD"}`` (my
  whole hand, my face-down counter, and in the first round the five face-up counters);
- ``{"player": "Anna", "phase": "draw", "action": "2", "took": "P", "turned": "U"}`` (face-up slot 2, the pig, a
  unicorn turned up to replace it), ``{..., "action": "blind", "took": "D"}``, ``{..., "action": "pass"}``;
- ``"D@ALB-DAG:d"``, ``"X@ALB-DAG:d"`` or ``"pass"`` in planning;
- my move as route text (``"LAP/P VIR/E"``), then my discard (the cards); an opponent's move as ``"?"`` with
  ``"town"`` (where the boot ends) and ``"collected"`` (the towns it collected), its discard unseen;
- a keep: the counter's letter, ``"-"`` for none, ``"?"`` for an opponent's face-down one.

:func:`table_record` writes the log as an ``elfenland-game/1`` record with a ``"table"`` key (who I am);
:func:`walk` and :func:`replay` read any record, a table's through :func:`walk_table`, so ``elfenland replay`` and
``elfenland review`` (which call them) read a game played at the table. Opponents' hands are not in the record:
nobody at the table saw them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field, replace
from typing import Any

from planner.common.i18n import N_, language, say
from planner.common.problems import Problem
from planner.common.values import frozen
from planner.elfenland.board import CAPITAL, load_board
from planner.elfenland.counts import count
from planner.elfenland.game.engine import apply, new_game, position_of, scores, view
from planner.elfenland.game.record import Replay, _difference, parse_action, rules_from
from planner.elfenland.game.record import walk as walk_engine_record
from planner.elfenland.game.state import Action, Discard, Draw, GameRules, GameState, Keep, Pass, Phase, Player, Travel
from planner.elfenland.local_names import town_word, transport_word
from planner.elfenland.notation import parse_counter, parse_town, parse_transport
from planner.elfenland.position import Hand, Position
from planner.elfenland.rules import KEEP_LIMIT, Transport
from planner.errors import NotationError

__all__ = ["SEEN", "Played", "TableGame", "default_collected", "entries_of", "my_position", "needs_deal", "replay",
           "table_record", "walk", "walk_table"]

_TURNS = {
    Phase.DRAW: N_("it is {name}'s turn in the draw phase"),
    Phase.PLAN: N_("it is {name}'s turn in the plan phase"),
    Phase.TRAVEL: N_("it is {name}'s turn in the travel phase"),
    Phase.DISCARD: N_("it is {name}'s turn in the discard phase"),
    Phase.KEEP: N_("it is {name}'s turn in the keep phase"),
}
"""Whose turn it is and in which phase, refusing another's action (said on use)."""
SEEN = "?"
"""The action text of what the table did not see: an opponent's move (its end and towns are given beside it) or an
opponent's face-down counter kept."""


@frozen
class Played:
    """One log entry played: the engine's actions it took (a deal takes none, an opponent's move may take its
    unseen discard too) and the states before each and after the last (the table's facts made true in them)."""

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    entry: dict[str, Any] = field(default_factory=dict)
    """The entry as logged: an action's with its player and phase filled in."""

    @property
    def state(self) -> GameState:
        """The state after the entry."""
        return self.states[-1]


def _problem(kind: str, field: str, value: object, message: str) -> Problem:
    return Problem(kind, field, None if value is None else str(value)[:60], message)


def _with_player(state: GameState, seat: int, player: Player) -> GameState:
    players = list(state.players)
    players[seat] = player
    return replace(state, players=tuple(players))


def _swap_in(items: tuple[Transport, ...], index: int, counter: Transport,
             stack: tuple[Transport, ...]) -> tuple[tuple[Transport, ...], tuple[Transport, ...]]:
    """``items`` with ``counter`` at ``index``, the counter that lay there swapped into the stack for one of
    ``counter`` (so the counters in play stay 48 when the stand-in stack holds one)."""
    out, pile = list(items), list(stack)
    if out[index] == counter:
        return tuple(out), tuple(pile)
    if counter in pile:
        pile[pile.index(counter)] = out[index]
    out[index] = counter
    return tuple(out), tuple(pile)


def needs_deal(state: GameState, entries: Sequence[dict[str, Any]]) -> bool:
    """Whether the round in ``state`` still waits for my deal: a new round's first entry is my hand."""
    if state.over:
        return False
    rounds = sum(1 for e in entries if "deal" in e)
    return rounds < state.round


class TableGame:
    """The pure rules of the table's log: which entry is legal next and the state after it.

    ``me`` is my seat; the others are opponents, seen only as the table sees them.
    """

    def __init__(self, names: Sequence[str], me: int, *, seed: int = 0, rules: GameRules | None = None) -> None:
        self.names = tuple(names)
        self.me = me
        self.seed = seed
        self.rules = rules or GameRules()
        if not 0 <= me < len(self.names):
            raise ValueError(f"my seat {me} is not one of the {len(self.names)} players'")
        self.start = new_game(seed, self.names, self.rules)

    # -- one entry ------------------------------------------------------------------------------------------------
    def play(self, state: GameState, entries: Sequence[dict[str, Any]], entry: dict[str, Any]) -> Played | Problem:
        """The entry after ``entries`` (whose last state is ``state``), or the problem that refuses it."""
        try:
            if "deal" in entry:
                played = self._deal(state, entries, entry)
            elif state.over:
                return _problem("game-over", "action", None, say("the game is over: no more actions"))
            elif needs_deal(state, entries):
                return _problem("needs-deal", "deal", None, say("round {round} begins with your cards: enter your "
                                                                "hand first", round=state.round))
            else:
                played = self._act(state, entry)
                entry = {"player": self.names[state.turn], "phase": str(state.phase), **entry}
        except NotationError as error:
            return _problem(error.kind, "action", error.value, str(error))
        return played if isinstance(played, Problem) else replace(played, entry=entry)

    def _deal(self, state: GameState, entries: Sequence[dict[str, Any]], entry: dict[str, Any]) -> Played | Problem:
        if not needs_deal(state, entries):
            return _problem("no-deal", "deal", entry.get("deal"), say("the cards are dealt at the start of a round "
                                                                      "only, before its first counter is taken"))
        hand = Hand.from_str(str(entry["deal"]))
        me = state.players[self.me]
        if len(hand) != len(me.hand):
            return _problem("deal-count", "deal", hand, say("your hand holds {cards} at the start of round {round}, "
                                                            "not {given}", cards=count(len(me.hand), "card"),
                                                            round=state.round, given=len(hand)))
        display = str(entry.get("display") or "").strip().upper()
        if display and state.round == 1:
            if len(display) != len(state.display):
                return _problem("display-count", "display", display, say(
                    "the display shows {counters}, not {given}", counters=count(len(state.display), "counter"),
                    given=len(display)))
            faces, stack = state.display, state.stack
            for i, letter in enumerate(display):
                faces, stack = _swap_in(faces, i, _counter(letter, "display"), stack)
            state = replace(state, display=faces, stack=stack)
        secret = me.secret
        if entry.get("secret"):
            counter = _counter(str(entry["secret"]), "secret")
            # Two face-down counters: the one I kept face down last round (its letter is my keep's) and the new one.
            kept = [e for e in entries if e.get("phase") == "keep" and e.get("player") == self.names[self.me]]
            secret = Hand.of([counter])
            if len(me.secret) == 2 and kept:
                secret += Hand.of([_counter(str(kept[-1]["action"]), "keep")])
        state = _with_player(state, self.me, replace(me, hand=hand, secret=secret))
        return Played((state,), ())

    def _act(self, state: GameState, entry: dict[str, Any]) -> Played | Problem:
        seat = state.turn
        name = self.names[seat]
        if entry.get("player", name) != name or entry.get("phase", str(state.phase)) != str(state.phase):
            return _problem("out-of-turn", "player", entry.get("player"), say(_TURNS[state.phase], name=name))
        text = str(entry.get("action", "")).strip()
        mine = seat == self.me
        if state.phase is Phase.DRAW:
            return self._draw(state, entry, text)
        if state.phase is Phase.TRAVEL and not mine:
            return self._seen_move(state, entry)
        if state.phase is Phase.KEEP and text == SEEN:
            player = state.players[seat]
            if mine or not player.secret:
                return _problem("bad-keep", "keep", text, say("{name} holds no face-down counter to keep unseen",
                                                              name=name))
            return self._apply(state, Keep(player.secret.cards()[0]))
        if state.phase is Phase.PLAN and not mine and "@" in text:
            state = self._reveal_secret(state, seat, text)
        return self._apply(state, parse_action(state, text))

    def _apply(self, state: GameState, *actions: Action) -> Played | Problem:
        states, done = [state], []
        for action in actions:
            after = apply(states[-1], action)
            if isinstance(after, Problem):
                return after
            states.append(after)
            done.append(action)
        return Played(tuple(states), tuple(done))

    def _draw(self, state: GameState, entry: dict[str, Any], text: str) -> Played | Problem:
        if text.lower() == "pass":
            return self._apply(state, Pass())
        if text.lower() != "blind" and not text.isdigit():
            return _problem("wrong-phase", "action", text, say(
                "{name} is drawing a counter: a face-up slot ({low}..{high}), {blind} or {none}, not {text}",
                name=self.names[state.turn], low=0, high=len(state.display) - 1, blind="'blind'", none="'pass'",
                text=repr(text)))
        took = _counter(str(entry.get("took") or ""), "took")
        if text.lower() == "blind":
            if not state.stack:
                return _problem("empty-stack", "action", text, say("the stack is empty: no blind draw"))
            pile = list(state.stack)
            if took in pile:
                where = pile.index(took)
                pile[0], pile[where] = pile[where], pile[0]
            pile[0] = took
            return self._apply(replace(state, stack=tuple(pile)), Draw(None))
        if not text.isdigit() or int(text) >= len(state.display):
            return _problem("bad-draw", "action", text, say("face-up slot {slot} is not one of {low}..{high}",
                                                            slot=repr(text), low=0, high=len(state.display) - 1))
        index = int(text)
        display, stack = _swap_in(state.display, index, took, state.stack)
        played = self._apply(replace(state, display=display, stack=stack), Draw(index))
        turned = entry.get("turned")
        if isinstance(played, Problem) or not turned or len(played.state.display) <= index:
            return played
        after = played.state
        display, stack = _swap_in(after.display, index, _counter(str(turned), "turned"), after.stack)
        return Played((*played.states[:-1], replace(after, display=display, stack=stack)), played.actions)

    def _reveal_secret(self, state: GameState, seat: int, text: str) -> GameState:
        """An opponent placing a counter they hold neither face up nor (as the stand-in says) face down: it was
        their face-down one, now seen."""
        player = state.players[seat]
        try:
            counter = _counter(text.partition("@")[0], "action")
        except NotationError:
            return state  # an obstacle ("X@...") or a bad text: the engine says what is wrong
        one = Hand.of([counter])
        if player.open.contains(one) or player.secret.contains(one) or not player.secret:
            return state
        secret = player.secret.without(Hand.of(player.secret.cards()[:1])) + one
        return _with_player(state, seat, replace(player, secret=secret))

    def _seen_move(self, state: GameState, entry: dict[str, Any]) -> Played | Problem:
        """An opponent's move as the table saw it: the boot's end and the towns collected (their cards are unseen,
        so their discard is too: they keep four of the stand-in cards)."""
        seat = state.turn
        player = state.players[seat]
        board = load_board()
        if not entry.get("town"):
            return _problem("missing-town", "town", entry.get("action"), say(
                "{name}'s move is said by the town where the boot ends (the table does not see an opponent's cards)",
                name=self.names[seat]))
        end = parse_town(str(entry["town"]), where="town")
        collected = entry.get("collected")
        if not isinstance(collected, list):
            return _problem("bad-collected", "collected", collected, say(
                "{key} is the list of towns the move collected, e.g. {example}", key="collected",
                example='["LAP", "VIR"]'))
        towns = frozenset(parse_town(str(t), where="collected") for t in collected)
        if end not in player.visited and end not in towns:
            return _problem("end-not-collected", "collected", end, say(
                "{town}, where the boot ends, is collected by the move: keep it among the towns",
                town=town_word(board, end)))
        actions: list[Action] = [Travel(())]
        if len(player.hand) > KEEP_LIMIT:
            actions.append(Discard(Hand.of(player.hand.cards()[KEEP_LIMIT:])))
        played = self._apply(state, *actions)
        if isinstance(played, Problem):
            return played
        after = played.state
        moved = replace(after.players[seat], town=end, visited=after.players[seat].visited | towns)
        return Played((*played.states[:-1], _with_player(after, seat, moved)), played.actions)

    # -- the whole log --------------------------------------------------------------------------------------------
    def replay(self, entries: Sequence[dict[str, Any]]) -> tuple[list[Played], Problem | None, int | None]:
        """Every entry played from the start: what each did, and the first refused one's problem and index."""
        state, done = self.start, list[Played]()
        for index, entry in enumerate(entries):
            played = self.play(state, entries[:index], entry)
            if isinstance(played, Problem):
                return done, played, index
            done.append(played)
            state = played.state
        return done, None, None

    def said(self, before: GameState, entry: dict[str, Any]) -> str:
        """The entry in words, naming whose it was: "Anna took the face-up pig (a unicorn turned up)", in the
        language spoken now (the names of towns and counters too)."""
        if "deal" in entry:
            return say("your hand for round {round}: {cards}", round=before.round,
                       cards=str(Hand.from_str(str(entry["deal"]))))
        name = say("you") if before.turn == self.me else self.names[before.turn]
        text = str(entry.get("action", ""))
        board = load_board()

        def counter(letter: object, where: str) -> str:
            return transport_word(parse_transport(str(letter), where=where))

        if before.phase is Phase.DRAW:
            if text == "pass":
                return say("{name} passed (no counter to draw)", name=name)
            took = counter(entry.get("took"), "took")
            if text == "blind":
                return say("{name} drew {counter} blind", name=name, counter=_a(took))
            turned = entry.get("turned")
            if turned:
                return say("{name} took the face-up {counter} ({turned} turned up)", name=name, counter=took,
                           turned=counter(turned, "turned"))
            return say("{name} took the face-up {counter}", name=name, counter=took)
        if before.phase is Phase.PLAN:
            if text == "pass":
                return say("{name} passed", name=name)
            letter, _, road = text.partition("@")
            a, b = road.split(":")[0].split("-")
            where = f"{town_word(board, a)} – {town_word(board, b)}"
            if letter.upper() == "X":
                return say("{name} put an obstacle on {road}", name=name, road=where)
            return say("{name} placed {counter} on {road}", name=name, counter=_a(counter(letter, "action")),
                       road=where)
        if before.phase is Phase.TRAVEL:
            if text == SEEN:
                end = town_word(board, str(entry.get("town")))
                towns = [town_word(board, t) for t in entry.get("collected", [])]
                if towns:
                    return say("{name} travelled to {end}, collecting {towns}", name=name, end=end,
                               towns=", ".join(towns))
                return say("{name} travelled to {end}", name=name, end=end)
            return say("{name} travelled {route}", name=name, route=text)
        if before.phase is Phase.DISCARD:
            return say("{name} discarded {cards}", name=name, cards=text)
        if text == SEEN:
            return say("{name} kept a face-down counter", name=name)
        if text in ("", "-"):
            return say("{name} kept no counter", name=name)
        return say("{name} kept the {counter}", name=name, counter=counter(text, "keep"))


def _counter(text: str, where: str) -> Transport:
    """The transport counter ``text`` names (a counter the stack holds: no raft, no obstacle).

    Raises:
        NotationError: ``text`` names no transport counter.
    """
    transport, obstacle = parse_counter(text, where=where)  # refuses a raft: rafts are cards only
    if transport is None or obstacle:
        raise NotationError(say("{text} is no transport counter ({where})", text=repr(text), where=where),
                            kind="not-a-counter", value=text)
    return transport


def _a(word: str) -> str:
    """``a unicorn``, ``an elfcycle`` in English; other languages have no article (their sentences say it)."""
    if language() != "en":
        return word
    return f"{'an' if word[0] in 'aeio' else 'a'} {word}"


def table_record(game: TableGame, played: Sequence[Played]) -> dict[str, Any]:
    """The ``elfenland-game/1`` record of a game at the table (see the module docstring)."""
    names = list(game.names)
    me = names[game.me]
    rounds: list[dict[str, Any]] = []
    state = game.start
    for done in played:
        entry = done.entry
        if "deal" in entry:
            first = done.state
            rounds.append({"round": first.round, "start": names[first.start], "hands": {me: str(first.players[
                game.me].hand)}, "secret": {me: entry.get("secret")},
                "display": "".join(t.letter for t in first.display), "actions": [], "board": None})
        else:
            if rounds and rounds[-1]["board"] is None and state.phase is Phase.TRAVEL:
                rounds[-1]["board"] = ",".join(str(t) for t in state.tiles) or "-"
            rounds[-1]["actions"].append({k: entry[k] for k in ("player", "phase", "action", "took", "turned",
                                                                  "town", "collected") if k in entry})
        state = done.state
    document: dict[str, Any] = {
        "schema": "elfenland-game/1", "seed": game.seed,
        "rules": {"options": str(game.rules.rules), "home_towns": game.rules.home_towns,
                  "display_carries": game.rules.display_carries},
        "players": [{"name": n, "seat": "me" if i == game.me else "table", "home": None} for i, n in
                    enumerate(names)],
        "table": {"me": me}, "rounds": rounds,
    }
    found, winners = scores(state)
    document["scores"] = [{"name": s.name, "towns": s.towns, "penalty": s.penalty, "points": s.points,
                           "cards": s.cards} for s in found]
    document["winners"] = [names[i] for i in winners] if state.over else []
    return document


def entries_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The log of a table record: each round's deal, then its actions (with the player and phase filled in)."""
    me = str(record["table"]["me"])
    entries: list[dict[str, Any]] = []
    for number, round_ in enumerate(record["rounds"]):
        deal: dict[str, Any] = {"deal": round_["hands"][me], "secret": (round_.get("secret") or {}).get(me)}
        if number == 0:
            deal["display"] = round_.get("display")
        entries.append(deal)
        entries.extend(dict(a) for a in round_["actions"])
    return entries


def walk(record: dict[str, Any]) -> tuple[list[GameState], list[Action], Replay]:
    """Any game record's states, actions and verdict: a table's (a ``"table"`` key) by :func:`walk_table`, a
    self-played one by :func:`~planner.elfenland.game.record.walk`."""
    if isinstance(record, dict) and "table" in record:
        return walk_table(record)
    return walk_engine_record(record)


def replay(record: dict[str, Any]) -> Replay:
    """The verdict on any game record, a table's or a self-played one (see :func:`walk`)."""
    return walk(record)[2]


def walk_table(record: dict[str, Any]) -> tuple[list[GameState], list[Action], Replay]:
    """A table record's states and actions as :func:`~planner.elfenland.game.record.walk` gives them (the table's
    facts made true in each state before its action), and the verdict: legal and the same record rebuilt."""
    try:
        names = [str(p["name"]) for p in record["players"]]
        game = TableGame(names, names.index(str(record["table"]["me"])), seed=int(record["seed"]),
                         rules=rules_from(record.get("rules", {})))
        entries = entries_of(record)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        return [], [], Replay(False, False, None, Problem("bad-record", "", None,
                                                          say("not a readable table record: {error}", error=error)))
    played, problem, index = game.replay(entries)
    states: list[GameState] = [game.start]
    actions: list[Action] = []
    for done in played:
        states[-1] = done.states[0]
        states.extend(done.states[1:])
        actions.extend(done.actions)
    if problem is not None:
        return states, actions, Replay(False, False, len(actions), problem, len(actions))
    rebuilt = table_record(game, played)
    difference = _difference(record, rebuilt)
    if difference is not None:
        return states, actions, Replay(True, False, None, Problem("different-result", "", None, difference),
                                       len(actions))
    return states, actions, Replay(True, True, None, None, len(actions))


def default_collected(state: GameState, seat: int, end: str) -> list[str]:
    """The towns a move to ``end`` most likely collected, for the table to start from: those not yet collected on
    a path of fewest links from the boot (the table edits them when the move went another way)."""
    board = load_board()
    start = state.players[seat].town
    before: dict[str, str | None] = {start: None}
    frontier = [start]
    while frontier and end not in before:
        following = []
        for here in frontier:
            for link in board.links(here):
                other = link.other(here)
                if other not in before:
                    before[other] = here
                    following.append(other)
        frontier = following
    path: list[str] = []
    town: str | None = end if end in before else None
    while town is not None and town != start:
        path.append(town)
        town = before[town]
    visited = state.players[seat].visited
    return [t for t in reversed(path) if t not in visited and t != CAPITAL]


def my_position(state: GameState, me: int) -> Position:
    """My planner position (with the drawing and planning keys) in the table's game."""
    return position_of(view(state, me), advice=True)
