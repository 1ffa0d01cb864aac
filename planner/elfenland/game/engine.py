"""The rules of a whole game, as functions of immutable states (docs/RULES.md, *A round* and *The end*).

- :func:`new_game`: a seeded deck of 72 cards and stack of 48 counters, the 5 face-up counters, the first deal;
- :func:`legal_actions` (an iterator: the moves of a travel are many) and :func:`check` (one action's problem);
- :func:`apply`: the next state, or the :class:`~planner.common.problems.Problem` of an illegal action;
- :func:`view`: what one player may know, for the bots (they never see the state);
- :func:`scores`: points, tie-breaks and winners once the game is over.

A move's steps are the verifier's: the traveller's :class:`~planner.elfenland.position.Position` is built from the
state and the steps replayed by :func:`planner.elfenland.plan.verify` (one executable spec of travel, not two).
Dealing, the face-down counter, the end of a round and reshuffles happen by themselves inside :func:`apply`;
every shuffle is seeded by the game's seed and a name, so a seed and the actions fix the whole game.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import replace

from planner.common.i18n import N_, gettext, say
from planner.common.names import either
from planner.common.problems import Problem
from planner.common.values import frozen
from planner.elfenland.board import CAPITAL, load_board
from planner.elfenland.counts import count
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
    Player,
    PublicPlayer,
    Travel,
    View,
)
from planner.elfenland.local_names import terrain_word, transport_word
from planner.elfenland.plan import Pay, Step, verify
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import (
    COUNTER_TRANSPORTS,
    COUNTERS,
    DECK,
    DISPLAY_SIZE,
    DRAWS_PER_ROUND,
    HAND_SIZE,
    KEEP_LIMIT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SUPPLY_LIMIT,
    TRANSPORTS,
    HomeDistance,
    Transport,
    can_carry,
    counter_cost,
    raft_cost,
)
from planner.errors import IllegalStepError

__all__ = ["Score", "apply", "check", "legal_actions", "new_game", "options", "position_of", "scores",
           "step_options", "view"]

TOWNS = 20
"""Markers to collect: every town but the capital."""


def _shuffled(items: list[Transport], seed: int, name: str) -> tuple[Transport, ...]:
    rng = random.Random(f"elfenland-game/{seed}/{name}")  # a text seed: the same order in every process
    rng.shuffle(items)
    return tuple(items)


def new_game(seed: int, names: tuple[str, ...] | list[str], rules: GameRules | None = None) -> GameState:
    """A game of 2..6 players in seat order, shuffled by ``seed``, dealt and ready for the first draw.

    Raises:
        ValueError: fewer than 2 or more than 6 players, or two with the same name.
    """
    names = tuple(names)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise ValueError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
    if len(set(names)) != len(names):
        raise ValueError(f"two players share a name: {', '.join(names)}")
    rules = rules or GameRules()
    board = load_board()
    homes: list[str | None] = [None] * len(names)
    if rules.home_towns:
        cards = [t.code for t in board.towns.values() if t.home_card]
        random.Random(f"elfenland-game/{seed}/homes").shuffle(cards)
        homes = list(cards[:len(names)])
    deck = _shuffled([t for t in TRANSPORTS for _ in range(DECK[t])], seed, "cards/0")
    stack = _shuffled([t for t in COUNTER_TRANSPORTS for _ in range(COUNTERS[t])], seed, "counters/0")
    state = GameState(seed=seed, rules=rules, players=tuple(Player(n, home=h) for n, h in zip(names, homes,
                                                                                            strict=True)),
                      deck=deck, stack=stack[DISPLAY_SIZE:], display=stack[:DISPLAY_SIZE])
    return _begin_round(state)


# -- automatic steps ------------------------------------------------------------------------------------------------
def _deal(state: GameState, count: int) -> tuple[GameState, Hand]:
    """``count`` cards off the deck (the discards shuffled into a new deck when it runs out)."""
    taken: list[Transport] = []
    deck, discards, shuffles = list(state.deck), state.discards, state.shuffles
    while len(taken) < count:
        if not deck:
            if not len(discards):
                break
            shuffles += 1
            deck = list(_shuffled(discards.cards(), state.seed, f"cards/{shuffles}"))
            discards = Hand()
        taken.append(deck.pop(0))
    return replace(state, deck=tuple(deck), discards=discards, shuffles=shuffles), Hand.of(taken)


def _begin_round(state: GameState) -> GameState:
    """Top every hand up to 8 cards and give each player one face-down counter, in turn order; then the draw."""
    players = list(state.players)
    for seat in state.order:
        state, cards = _deal(state, HAND_SIZE - len(players[seat].hand))
        players[seat] = replace(players[seat], hand=players[seat].hand + cards)
    stack = list(state.stack)
    for seat in state.order:
        if stack and len(players[seat].counters) < SUPPLY_LIMIT:
            players[seat] = replace(players[seat], secret=players[seat].secret + Hand.of([stack.pop(0)]))
    state = replace(state, players=tuple(players), stack=tuple(stack), phase=Phase.DRAW, steps_taken=0, passes=0)
    return replace(state, turn=state.order[0])


def _end_round(state: GameState) -> GameState:
    """Counters off the board and back into the stack with those not kept (the display too, unless it carries
    over), used obstacles out of the game; then the next round, or the end."""
    returned = [t.transport for t in state.tiles if t.transport is not None]
    display = list(state.display)
    if not state.rules.display_carries:
        returned += display
        display = []
    stack = list(_shuffled([*state.stack, *returned], state.seed, f"counters/{state.round}"))
    while len(display) < DISPLAY_SIZE and stack:
        display.append(stack.pop(0))
    used = sum(t.obstacle for t in state.tiles)
    state = replace(state, tiles=(), stack=tuple(stack), display=tuple(display),
                    obstacles_out=state.obstacles_out + used)
    everything = any(len(_towns(p)) >= TOWNS for p in state.players)
    if state.round >= state.rules.rounds or everything:
        return replace(state, phase=Phase.OVER, steps_taken=0)
    return _begin_round(replace(state, round=state.round + 1))


def _towns(player: Player) -> frozenset[str]:
    return player.visited - {CAPITAL}


# -- what a player may do -------------------------------------------------------------------------------------------
def view(state: GameState, seat: int) -> View:
    """What the player in ``seat`` may know: the public table, its own hand, face-down counters and home town."""
    me = state.players[seat]
    return View(
        me=seat, rules=state.rules, round=state.round, phase=state.phase, turn=state.turn, start=state.start,
        players=tuple(PublicPlayer(p.name, p.town, p.visited, p.open, len(p.secret), p.obstacle, len(p.hand))
                      for p in state.players),
        display=state.display, tiles=state.tiles, stack=len(state.stack), deck=len(state.deck),
        discards=len(state.discards), hand=me.hand, secret=me.secret, home=me.home, passes=state.passes)


def position_of(seen: View, *, advice: bool = False) -> Position:
    """My planner position in ``seen``: to travel on (the verifier's), or with ``advice`` the drawing-and-planning
    keys too (my counters, my obstacle, the display, the players and the opponents' public side)."""
    me = seen.own
    rules = seen.rules.rules
    position = Position(at=me.town, hand=seen.hand, tiles=seen.tiles, visited=me.visited,
                        home=seen.home if seen.rules.home_towns else None, round=seen.round, rules=rules)
    if not advice:
        return position
    from planner.elfenland.position import Opponent

    opponents = tuple(Opponent(name=p.name, at=p.town, visited=p.visited, counters=p.open, secret=p.secret,
                               obstacle=p.obstacle, points=len(p.visited - {CAPITAL}))
                      for i, p in enumerate(seen.players) if i != seen.me)
    return position.replace(supply=seen.counters, obstacle=me.obstacle, display=Hand.of(seen.display),
                            players=len(seen.players), opponents=opponents)


def step_options(position: Position, here: str, hand: Hand) -> Iterator[Step]:
    """Every single step the boot in ``here`` with ``hand`` may take on ``position``'s board: matching cards, each
    distinct caravan, rafts on water (the cards named exactly, as the verifier wants them)."""
    board = position.board
    tiles = position.tile_map()
    rules = position.rules
    for connection in board.links(here):
        to = connection.other(here)
        if not connection.is_road:
            price = Hand.from_counts({Transport.RAFT: raft_cost(connection, here)})
            if hand.contains(price):
                yield Step(here, to, connection.id, Pay.RAFT, price)
            continue
        tile = tiles.get(connection.id)
        if tile is None or tile.transport is None:
            continue
        cost = counter_cost(tile.transport, connection.terrain, obstacle=tile.obstacle)
        if cost is None:
            continue
        wanted = Hand.from_counts({tile.transport: cost})
        if hand.contains(wanted):
            yield Step(here, to, connection.id, Pay.COUNTER, wanted)
            if rules.strict:
                continue
        size = rules.caravan_cost(cost, obstacle=tile.obstacle)
        for cards in sub_hands(hand, size):
            yield Step(here, to, connection.id, Pay.CARAVAN, cards)


def sub_hands(hand: Hand, size: int) -> list[Hand]:
    """Every distinct multiset of ``size`` cards out of ``hand`` (none when it holds fewer)."""
    if size > len(hand):
        return []
    return sorted({Hand.of(c) for c in itertools.combinations(hand.cards(), size)}, key=str)


def _routes(position: Position) -> Iterator[Travel]:
    """Every route of ``position``, the shortest first along each branch (depth first, lazily)."""
    def walk(here: str, hand: Hand, steps: tuple[Step, ...]) -> Iterator[Travel]:
        yield Travel(steps)
        for step in step_options(position, here, hand):
            yield from walk(step.to, hand.without(step.cards), (*steps, step))

    yield from walk(position.at, position.hand, ())


def options(seen: View) -> Iterator[Action]:
    """Every legal action of the player whose view this is, when it is their turn (none otherwise)."""
    if seen.turn != seen.me or seen.phase is Phase.OVER:
        return
    me = seen.own
    board = load_board()
    if seen.phase is Phase.DRAW:
        if len(seen.counters) >= SUPPLY_LIMIT or (not seen.display and not seen.stack):
            yield Pass()
            return
        yield from (Draw(i) for i in range(len(seen.display)))
        if seen.stack:
            yield Draw(None)
    elif seen.phase is Phase.PLAN:
        tiles = {t.road: t for t in seen.tiles}
        for counter in COUNTER_TRANSPORTS:
            if seen.counters[counter]:
                yield from (Place(counter, r.id) for r in board.roads
                            if r.id not in tiles and can_carry(counter, r.terrain))
        if me.obstacle:
            yield from (PlaceObstacle(t.road) for t in seen.tiles if t.transport is not None and not t.obstacle)
        yield Pass()
    elif seen.phase is Phase.TRAVEL:
        yield from _routes(position_of(seen))
    elif seen.phase is Phase.DISCARD:
        yield from (Discard(cards) for cards in sub_hands(seen.hand, len(seen.hand) - KEEP_LIMIT))
    elif seen.phase is Phase.KEEP:
        yield Keep(None)
        yield from (Keep(t) for t in COUNTER_TRANSPORTS if seen.counters[t])


def legal_actions(state: GameState, seat: int) -> Iterator[Action]:
    """Every legal action of ``seat`` (none unless it is its turn); travels come lazily, there are very many."""
    return options(view(state, seat))


def _problem(kind: str, field: str, value: object, message: str) -> Problem:
    return Problem(kind, field, None if value is None else str(value), message)


_PHASE_NAMES = {Phase.DRAW: N_("the draw phase"), Phase.PLAN: N_("the plan phase"),
                Phase.TRAVEL: N_("the travel phase"), Phase.DISCARD: N_("the discard"), Phase.KEEP: N_("the keep")}
_ACTION_NAMES = {Draw: N_("a draw"), Pass: N_("a pass"), Place: N_("a placement"), PlaceObstacle: N_("an obstacle"),
                 Travel: N_("a move"), Discard: N_("a discard"), Keep: N_("a keep")}
"""The words the refusals name a phase and a kind of action by, translated on use."""


def check(state: GameState, action: Action) -> Problem | None:
    """Why ``action`` is illegal for the player to act now (in the language spoken), or None when it is legal."""
    if state.phase is Phase.OVER:
        return _problem("game-over", "action", action, say("the game is over: no more actions"))
    player = state.players[state.turn]
    phase = state.phase
    wanted = {Phase.DRAW: (Draw, Pass), Phase.PLAN: (Place, PlaceObstacle, Pass), Phase.TRAVEL: (Travel,),
              Phase.DISCARD: (Discard,), Phase.KEEP: (Keep,)}[phase]
    if not isinstance(action, wanted):
        return _problem("wrong-phase", "action", action,
                        say("{name} is in {phase}: {action} is not one of its actions ({wanted})", name=player.name,
                            phase=gettext(_PHASE_NAMES[phase]), action=gettext(_ACTION_NAMES[type(action)]),
                            wanted=either([gettext(_ACTION_NAMES[kind]) for kind in wanted])))
    seen = view(state, state.turn)
    if isinstance(action, Travel):
        try:
            verify(position_of(seen), action.steps)
        except IllegalStepError as error:
            return _problem("illegal-step", "steps", action.steps[error.index] if action.steps else "", str(error))
        return None
    if isinstance(action, Discard):
        if not player.hand.contains(action.cards):
            return _problem("not-in-hand", "cards", action.cards,
                            say("{name} cannot discard {cards}: the hand holds {hand}", name=player.name,
                                cards=str(action.cards), hand=str(player.hand)))
        if len(player.hand) - len(action.cards) != KEEP_LIMIT:
            return _problem("discard-count", "cards", action.cards,
                            say("{name} holds {cards} and must discard down to {keep}, not {left}",
                                name=player.name, cards=count(len(player.hand), "card"), keep=KEEP_LIMIT,
                                left=len(player.hand) - len(action.cards)))
        return None
    if action in set(options(seen)):
        return None
    return _problem("illegal-action", "action", action, _why(seen, action))


def _why(seen: View, action: Action) -> str:
    """A reason for an action of the right phase that is not among the legal ones (in the language spoken)."""
    name = seen.own.name
    tiles = {t.road: t for t in seen.tiles}
    board = load_board()
    if isinstance(action, Draw):
        if len(seen.counters) >= SUPPLY_LIMIT:
            return say("{name} holds {counters}: no more draws (pass)", name=name,
                       counters=count(SUPPLY_LIMIT, "counter"))
        if action.index is None:
            return say("the stack is empty: no blind draw")
        return say("face-up index {index} is not one of 0..{last}", index=action.index, last=len(seen.display) - 1)
    if isinstance(action, Pass):
        return say("{name} can still draw a counter: the draw phase has no pass then", name=name)
    if isinstance(action, Place | PlaceObstacle):
        connection = board.connections.get(action.road)
        if connection is None or not connection.is_road:
            return say("{road} is no road: counters and obstacles go on roads only", road=action.road)
        if isinstance(action, PlaceObstacle):
            if not seen.own.obstacle:
                return say("{name} has placed the obstacle of the game already", name=name)
            return say("an obstacle goes on a road holding a counter and no obstacle, not {road}", road=action.road)
        if action.road in tiles:
            return say("road {road} already holds a counter", road=action.road)
        if not seen.counters[action.counter]:
            return say("{name} holds no {counter} counter", name=name, counter=transport_word(action.counter))
        return say("a {counter} counter cannot go on {road}, a {terrain} road", counter=transport_word(action.counter),
                   road=action.road, terrain=terrain_word(connection.terrain))
    if isinstance(action, Keep):
        return say("{name} holds no unplaced {counter} counter to keep", name=name,
                   counter=transport_word(action.counter))
    return say("{action} is not legal now", action=str(action))


def apply(state: GameState, action: Action) -> GameState | Problem:
    """The state after the player to act takes ``action``, or the problem that makes it illegal."""
    problem = check(state, action)
    if problem is not None:
        return problem
    seat = state.turn
    players = list(state.players)
    me = players[seat]
    n = len(players)
    if isinstance(action, Draw):
        display, stack = list(state.display), list(state.stack)
        if action.index is None:
            taken = stack.pop(0)
        else:
            taken = display[action.index]
            if stack:
                display[action.index] = stack.pop(0)
            else:
                del display[action.index]
        players[seat] = replace(me, open=me.open + Hand.of([taken]))
        state = replace(state, players=tuple(players), display=tuple(display), stack=tuple(stack))
        return _next_draw(state)
    if isinstance(action, Pass) and state.phase is Phase.DRAW:
        return _next_draw(state)
    if state.phase is Phase.PLAN:
        tiles = {t.road: t for t in state.tiles}
        if isinstance(action, Place):
            one = Hand.of([action.counter])
            if me.open.contains(one):
                me = replace(me, open=me.open.without(one))
            else:
                me = replace(me, secret=me.secret.without(one))
            tiles[action.road] = Tile(action.road, action.counter)
            passes = 0
        elif isinstance(action, PlaceObstacle):
            me = replace(me, obstacle=False)
            tiles[action.road] = Tile(action.road, tiles[action.road].transport, True)
            passes = 0
        else:
            passes = state.passes + 1
        players[seat] = me
        state = replace(state, players=tuple(players), tiles=tuple(sorted(tiles.values(), key=lambda t: t.road)),
                        passes=passes, steps_taken=state.steps_taken + 1)
        if passes >= n:
            return replace(state, phase=Phase.TRAVEL, turn=state.order[0], steps_taken=0, passes=0)
        return replace(state, turn=state.order[(state.steps_taken) % n])
    if isinstance(action, Travel):
        outcome = verify(position_of(view(state, seat)), action.steps)
        spent = me.hand.without(outcome.cards_left)
        players[seat] = replace(me, town=outcome.end, hand=outcome.cards_left,
                                visited=me.visited | {s.to for s in action.steps})
        state = replace(state, players=tuple(players), discards=state.discards + spent)
        if len(outcome.cards_left) > KEEP_LIMIT:
            return replace(state, phase=Phase.DISCARD)
        return _next_traveller(state)
    if isinstance(action, Discard):
        players[seat] = replace(me, hand=me.hand.without(action.cards))
        state = replace(state, players=tuple(players), discards=state.discards + action.cards, phase=Phase.TRAVEL)
        return _next_traveller(state)
    assert isinstance(action, Keep)
    kept = Hand() if action.counter is None else Hand.of([action.counter])
    back = me.counters.without(kept)
    secret = kept if me.secret.contains(kept) else Hand()
    players[seat] = replace(me, secret=secret, open=kept.without(secret))
    state = replace(state, players=tuple(players), stack=(*state.stack, *back.cards()),
                    steps_taken=state.steps_taken + 1)
    if state.steps_taken >= n:
        return _end_round(state)
    return replace(state, turn=state.order[state.steps_taken])


def _next_draw(state: GameState) -> GameState:
    taken = state.steps_taken + 1
    n = len(state.players)
    if taken >= DRAWS_PER_ROUND * n:
        return replace(state, phase=Phase.PLAN, turn=state.order[0], steps_taken=0, passes=0)
    return replace(state, steps_taken=taken, turn=state.order[taken % n])


def _next_traveller(state: GameState) -> GameState:
    moved = state.steps_taken + 1
    if moved >= len(state.players):
        return replace(state, phase=Phase.KEEP, turn=state.order[0], steps_taken=0)
    return replace(state, phase=Phase.TRAVEL, steps_taken=moved, turn=state.order[moved])


# -- the end -------------------------------------------------------------------------------------------------------
@frozen
class Score:
    """One player's result."""

    name: str
    towns: int
    penalty: int
    """Points lost to the home-town distance (the home-town variant, after the last round)."""
    cards: int
    """Cards in hand at the end (the tie-break)."""
    home_distance: int | None
    """Links from the boot to the home town (the variant's tie-break), when the home-town variant counts."""
    everything: bool
    """Whether the player collected all twenty towns (a win, whatever the points)."""

    @property
    def points(self) -> int:
        """Towns less the penalty."""
        return self.towns - self.penalty

    @property
    def rank_key(self) -> tuple[int, int, int, int]:
        """Larger is better: all towns, points, closer to home, more cards."""
        return (int(self.everything), self.points, -(self.home_distance or 0), self.cards)


def scores(state: GameState) -> tuple[tuple[Score, ...], tuple[int, ...]]:
    """Every player's score and the winning seats (more than one on a full tie)."""
    board = load_board()
    rules = state.rules
    last = state.round >= rules.rounds
    roads_only = rules.rules.home_distance is HomeDistance.ROADS
    found = []
    for p in state.players:
        counts = p.home is not None and rules.rules.home_variant
        distance = board.distance(p.town, p.home, roads_only=roads_only) if counts and p.home else None
        penalty = distance if distance is not None and last else 0
        towns = len(_towns(p))
        found.append(Score(p.name, towns, penalty or 0, len(p.hand), distance, towns >= TOWNS))
    best = max(s.rank_key for s in found)
    return tuple(found), tuple(i for i, s in enumerate(found) if s.rank_key == best)
