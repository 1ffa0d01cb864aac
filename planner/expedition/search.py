"""The best move of a turn: an exact search over the turn's legal action sequences.

The search plays the rules on bit masks (its own code, independent of :mod:`planner.expedition.turn`, which
verifies every move it returns) and memoises whole worlds, so the orders that reach the same world are searched
once. Moves are ranked by my points now, then fewest points handed to opponents (their revealed tokens), then
fewest tickets spent, then fewest arrows placed, then by the actions' text. Exchanges are left out (they score
nothing at once; a move with a ticket to spare may add one).

Safe prunings (EXPEDITION.md "Size warning and safe pruning"; none changes the best value, which the tests check
against a plain enumeration through the engine):

1. a restart onto a visited spot that gives me nothing (not blue, a red star only while its ticket could still be
   spent this turn, no card, common objective or token of mine) is skipped while another restart exists; when only
   such restarts exist, the first is followed (the rules want one, and any order gives the same);
2. of the arrows after which the turn must end with nothing gained, one per role is searched (the one least helpful
   to opponents), and such blue-square and ticket arrows are dropped where the turn could end instead;
3. no ticket arrow before the mandatory arrow: relabelling the first arrow-started chain as the mandatory one
   reaches the same world.

Worlds are canonical (:meth:`_Search.trim`): a colour keeps only its last ``limit - spent`` arrows (all a removal
can still reach) and tickets held count up to ``limit - spent``; worlds differing only beyond that have the same
continuations, so they share a memo entry.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from planner.common.limits import Budget, Limit, Status, StopLike
from planner.errors import SolverError
from planner.expedition.board import SpotKind, load_board
from planner.expedition.notation import Action
from planner.expedition.position import Position
from planner.expedition.rules import ARROWS, COLOURS, TICKETS_PER_TURN, Rules
from planner.expedition.turn import begin

__all__ = ["ANSWER_SECONDS", "BEAM_WORLDS", "DEFAULT_ANSWER_LIMIT", "DEFAULT_MOVE_LIMIT", "Move", "MoveSearch",
           "best_moves"]

DEFAULT_MOVE_LIMIT = Limit(time=1.0)
"""How long a move search may take by default, the answer and the attempt to prove it together."""
ANSWER_SECONDS = 0.1
"""About how long the first answer (the beams) takes by default on a typical machine."""
BEAM_WORLDS = 120
"""Worlds each beam (one per ticket count) expands by default: a count, not seconds, so that the call with k
tickets runs exactly the beams the call with k - 1 ran, plus one, and never answers fewer points; about
:data:`ANSWER_SECONDS` for all three beams of a 2-ticket turn (~0.3 ms a world)."""
ANSWER_SAFETY = 5 * ANSWER_SECONDS
"""The default answer's clock: only a safety net on a very slow machine (when it fires the answer is cut short)."""
DEFAULT_ANSWER_LIMIT = Limit(time=ANSWER_SAFETY, nodes=BEAM_WORLDS)
"""The first answer's default budget: :data:`BEAM_WORLDS` worlds per beam, :data:`ANSWER_SAFETY` seconds in all."""
ALTERNATIVE_SPAN = 4
"""Alternatives are searched down to this many points below the best (deeper ones are not worth showing)."""

# A fast action: (kind, colour, from, to, ticket); kind 0 arrow, 1 remove.
_Fast = tuple[int, int, int, int, bool]
# One colour: (arrows as (from, to, link, restart) tuples, visited mask, used mask, head or -1, arrows left).
_Colour = tuple[tuple[tuple[int, int, int, bool], ...], int, int, int, int]


class _World(NamedTuple):
    """Everything the rest of the turn depends on (hashable: the memo key)."""

    colours: tuple[_Colour, _Colour, _Colour]
    hand: int
    tokens: int
    common: int
    held: int
    """Cards known (assumed) in opponents' hands: their token locations."""
    orphans: int
    """Opponents' tokens whose card is not in their hand."""
    tickets: int
    allowance: int
    """Tickets this turn may still spend (the limit less those spent): a world means the same under any limit, so
    searches with different limits share one memo."""
    mandatory: bool
    restart: int
    """Colour index whose restart is pending, or -1."""
    blue: int


@dataclass(frozen=True, slots=True)
class Move:
    """A turn's actions and what they earn."""

    actions: tuple[Action, ...]
    points: int
    """My points: the change of my score as if the game ended now."""
    opponents: int
    """Points handed to opponents (their token locations reached)."""
    tickets: int
    """Tickets spent."""
    arrows: int
    """Arrows placed."""

    @property
    def value(self) -> tuple[int, int, int, int]:
        """The ranking key (higher is better)."""
        return (self.points, -self.opponents, -self.tickets, -self.arrows)

    def __str__(self) -> str:
        return ", ".join(str(a) for a in self.actions) or "pass"


@dataclass(frozen=True, slots=True)
class MoveSearch:
    """The answer of a move search.

    Attributes:
        best: the best move.
        alternatives: the best moves with another first action, best first.
        searched: worlds searched, the beams' and the exhaustive search's together.
        status: OPTIMAL (proven best), or FEASIBLE/STOPPED when the limit or a stop ended the proof first.
        tickets: the most tickets a move was allowed to spend.
        seconds: how long the search took.
        cut_short: a beam budgeted in worlds was ended by the answer's clock (its safety net) first: then a larger
            ``tickets`` may answer fewer points.
    """

    best: Move
    alternatives: tuple[Move, ...]
    searched: int
    status: Status
    tickets: int
    seconds: float = 0.0
    cut_short: bool = False

    @property
    def proven(self) -> bool:
        """Whether the best move is proven best (an exact beam, or an exhaustive search that finished)."""
        return self.status is Status.OPTIMAL


_Gain = tuple[int, int, int, int]
"""(my points, -opponents' points, -tickets spent, -arrows placed): higher is better."""
_BOTTOM: _Gain = (-(1 << 30), 0, 0, 0)


@dataclass(frozen=True, slots=True)
class _Result:
    gain: _Gain
    """The value of the best continuation."""
    path: tuple[_Fast, ...]
    texts: tuple[str, ...]


_END = _Result((0, 0, 0, 0), (), ())

def _better(a: tuple[_Gain, tuple[str, ...]], b: tuple[_Gain, tuple[str, ...]]) -> bool:
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


@dataclass(slots=True)
class _Search:
    rules: Rules
    limit_tickets: int
    budget: Budget
    memo: dict[_World, tuple[_Result | None, _Gain]] = field(default_factory=dict)
    nodes: int = 0
    stopped: bool = False
    adjacent: tuple[tuple[tuple[int, int], ...], ...] = field(default_factory=lambda: load_board().adjacent)
    green: tuple[bool, ...] = field(default_factory=lambda: _kind_flags(SpotKind.GREEN))
    blue: tuple[bool, ...] = field(default_factory=lambda: _kind_flags(SpotKind.BLUE))
    red: tuple[bool, ...] = field(default_factory=lambda: _kind_flags(SpotKind.RED))
    start: int = field(default_factory=lambda: load_board().start_index)
    canonical: bool = True
    """Whether :meth:`trim` canonicalises worlds (off only for the test that it changes nothing)."""

    # -- rules on masks -------------------------------------------------------------------------------------------
    def text(self, action: _Fast) -> str:
        return _text(action)

    def arrows(self, world: _World, colour: int) -> Iterator[tuple[int, int, int]]:
        """``(from, to, link)`` of every legal arrow of one colour."""
        arrows, visited, used, head, left = world.colours[colour]
        if left <= 0:
            return
        origins = [head] if head >= 0 else _bits(visited)
        for frm in origins:
            for to, link in self.adjacent[frm]:
                if not used >> link & 1:
                    yield frm, to, link

    def any_arrow(self, world: _World, colours: range | tuple[int, ...] = (0, 1, 2)) -> bool:
        return any(True for c in colours for _ in self.arrows(world, c))

    def arrive(self, world: _World, spot: int) -> tuple[_World, int, int]:
        """The spot's effect: the new world, my points, opponents' points."""
        bit = 1 << spot
        if self.blue[spot]:
            if any(c[4] > 0 for c in world.colours):
                w = world
                return _World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance,
                              w.mandatory, w.restart, w.blue + 1), 0, 0
            return world, 0, 0
        if self.red[spot]:
            w = world
            return _World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets + 1, w.allowance,
                          w.mandatory, w.restart, w.blue), 0, 0
        if not self.green[spot]:
            return world, 0, 0
        mine = theirs = 0
        hand, tokens, common, held, orphans = world.hand, world.tokens, world.common, world.held, world.orphans
        if hand & bit:
            mine += 2
            hand &= ~bit
            if tokens & bit:
                mine += 2
                tokens &= ~bit
        elif tokens & bit and self.rules.orphans_recover:
            mine += 2
            tokens &= ~bit
        if common & bit:
            mine += 1
            common &= ~bit
        if held & bit:
            theirs += 4
            held &= ~bit
        elif orphans & bit and self.rules.orphans_recover:
            theirs += 2
            orphans &= ~bit
        if not (mine or theirs):
            return world, 0, 0
        w = world
        return _World(w.colours, hand, tokens, common, held, orphans, w.tickets, w.allowance, w.mandatory, w.restart,
                      w.blue), mine, theirs

    def gives_nothing(self, world: _World, spot: int) -> bool:
        """Whether arriving at ``spot`` scores nothing for me and earns no arrow and no usable ticket (prunings 1
        and 2)."""
        if self.blue[spot]:
            return not any(c[4] > 0 for c in world.colours)
        if self.red[spot]:
            return not self._ticket_helps(world)
        bit = 1 << spot
        return not (world.hand & bit or world.common & bit or (world.tokens & bit and self.rules.orphans_recover))

    def place(self, world: _World, colour: int, frm: int, to: int, link: int, *, restart: bool
              ) -> tuple[_World, int, int]:
        arrows, visited, used, head, left = world.colours[colour]
        loop = bool(visited >> to & 1)
        leg_start = restart or head < 0
        entry: _Colour = ((*arrows, (frm, to, link, leg_start)), visited | 1 << to, used | 1 << link,
                          -1 if loop else to, left - 1)
        world = _recoloured(world, colour, entry)
        world, mine, theirs = self.arrive(world, to)
        if loop:
            world = self.after_loop(world, colour)
        return world, mine, theirs

    def after_loop(self, world: _World, colour: int) -> _World:
        if not self.any_arrow(world, (colour,)):
            return world
        w = world
        return _World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, w.mandatory,
                      colour, w.blue)

    def remove(self, world: _World, colour: int) -> tuple[_World, int, int]:
        arrows, visited, used, head, left = world.colours[colour]
        frm, to, link, leg_start = arrows[-1]
        rest = arrows[:-1]
        new_head = -1 if leg_start else frm
        if left + 1 == ARROWS:  # its only arrow (the tuple may be trimmed: count by the arrows left)
            new_head = self.start
        entry: _Colour = (rest, visited & ~(1 << to), used & ~(1 << link), new_head, left + 1)
        world = _recoloured(world, colour, entry)
        world, mine, theirs = self.arrive(world, frm)
        if new_head < 0:
            world = self.after_loop(world, colour)
        return world, mine, theirs

    def root(self, position: Position) -> _World:
        """The canonical world at the start of the turn, with :attr:`limit_tickets` tickets to spend."""
        return self.trim(_world(position, self.limit_tickets))

    def trim(self, world: _World) -> _World:
        """The canonical world: each colour keeps only the last arrows a removal can still reach, and tickets held
        count only up to the tickets this turn may still spend.

        Exact: an arrow matters beyond the masks only to a removal, a turn removes at most one arrow per ticket it
        may still spend, and a removal takes the last arrow, so arrows before the last ``limit - spent`` are never
        read again (the only arrow count :meth:`remove` needs is the one the arrows left give). Tickets held are
        read only as "any left" (:meth:`may_spend`) and "fewer than ``limit - spent``" (:meth:`_ticket_helps`), and
        spending lowers both sides by one, so ``min(tickets, limit - spent)`` answers alike (a Move reports tickets
        spent, never held). Worlds differing only there have the same continuations and now share one memo entry.
        """
        if not self.canonical:
            return world
        keep = world.allowance
        colours = world.colours
        if world.tickets <= keep and len(colours[0][0]) <= keep and len(colours[1][0]) <= keep and \
                len(colours[2][0]) <= keep:
            return world
        if world.tickets > keep:
            world = world._replace(tickets=keep)
        trimmed = tuple(c if len(c[0]) <= keep else ((c[0][len(c[0]) - keep:] if keep else ()), *c[1:])
                        for c in colours)
        return world._replace(colours=(trimmed[0], trimmed[1], trimmed[2]))

    def spend(self, world: _World) -> _World:
        w = world
        blue = w.blue if self.rules.tickets_anytime else 0
        return _World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets - 1, w.allowance - 1,
                      w.mandatory, w.restart, blue)

    def may_spend(self, world: _World) -> bool:
        if world.restart >= 0 or world.tickets <= 0 or world.allowance <= 0:
            return False
        return not (world.blue and self.rules.blue_mandatory and not self.rules.tickets_anytime
                    and self.any_arrow(world))

    def may_end(self, world: _World) -> bool:
        if world.restart >= 0 and not (self.rules.restart_optional and world.mandatory):
            return False
        if world.restart < 0 and world.blue and self.rules.blue_mandatory and self.any_arrow(world):
            return False
        return world.mandatory or not self.any_arrow(world)

    # -- the search ----------------------------------------------------------------------------------------------
    def children(self, world: _World) -> Iterator[tuple[_Fast, _World, int, int]]:
        """Every searched action with its world and points (after the safe prunings)."""
        if world.restart >= 0:
            yield from self._restarts(world)
            return
        ending = self.may_end(world)
        if world.blue or not world.mandatory:
            optional = bool(world.blue) and not self.rules.blue_mandatory
            yield from self._arrows(world, ticket=False, drop_dead=optional and ending)
        if self.may_spend(world):
            if world.mandatory:  # pruning 3: ticket arrows only after the mandatory one
                yield from self._arrows(world, ticket=True, drop_dead=ending)
            for colour in range(3):
                arrows, _, _, head, _ = world.colours[colour]
                if head >= 0 and arrows:
                    after, mine, theirs = self.remove(self.spend(world), colour)
                    yield (1, colour, -1, -1, True), self.trim(after), mine, theirs

    def _restarts(self, world: _World) -> Iterator[tuple[_Fast, _World, int, int]]:
        colour = world.restart
        options = list(self.arrows(world, colour))
        visited = world.colours[colour][1]
        useful = [o for o in options if not (visited >> o[1] & 1) or not self.gives_nothing(world, o[1])]
        chosen = useful or options[:1]  # pruning 1
        w = world
        cleared = _World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance,
                         w.mandatory, -1, w.blue)
        yield from self._placed(cleared, chosen, colour, ticket=False, restart=True, drop_dead=False)

    def _arrows(self, world: _World, *, ticket: bool, drop_dead: bool) -> Iterator[tuple[_Fast, _World, int, int]]:
        w = world
        base = self.spend(w) if ticket else _World(
            w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, w.mandatory,
            w.restart, w.blue - 1) if w.blue else _World(
            w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, True, w.restart, 0)
        for colour in range(3):
            yield from self._placed(base, list(self.arrows(base, colour)), colour, ticket=ticket, restart=False,
                                    drop_dead=drop_dead)

    def _placed(self, base: _World, options: list[tuple[int, int, int]], colour: int, *, ticket: bool,
                restart: bool, drop_dead: bool) -> Iterator[tuple[_Fast, _World, int, int]]:
        """The arrows worth searching among ``options`` (one colour, one role).

        An arrow after which the turn must end with nothing gained is left out when ``drop_dead`` (an optional role
        where the turn could end instead: ending is as good with fewer arrows), else only the least helpful to
        opponents of them is kept (pruning 2: they all end the turn with the same points, arrows and tickets).
        """
        dead: tuple[int, str, _Fast, _World] | None = None
        visited = base.colours[colour][1]
        for frm, to, link in options:
            action = (0, colour, frm, to, ticket)
            nothing = not visited >> to & 1 and self.gives_nothing(base, to)
            after, mine, theirs = self.place(base, colour, frm, to, link, restart=restart)
            if nothing and self._must_end(after):
                if drop_dead:
                    continue
                if dead is None or (theirs, self.text(action)) < dead[:2]:
                    dead = (theirs, self.text(action), action, after)
                continue
            yield action, self.trim(after), mine, theirs
        if dead is not None:
            yield dead[2], self.trim(dead[3]), 0, dead[0]

    def _must_end(self, world: _World) -> bool:
        """Whether nothing but ending the turn is left."""
        return world.mandatory and world.restart < 0 and not world.blue and not self.may_spend(world)

    def _ticket_helps(self, world: _World) -> bool:
        """Whether one more ticket would raise the tickets this turn may still spend."""
        return world.tickets < world.allowance

    def solve(self, world: _World, floor: _Gain = _BOTTOM) -> _Result | None:
        """The best continuation from ``world`` if it reaches ``floor`` (lexicographically), else None.

        A memo entry is exact for every floor at or above the one it was computed with.
        """
        known = self.memo.get(world)
        if known is not None and floor >= known[1]:
            result = known[0]
            return result if result is not None and result.gain >= floor else None
        self.nodes += 1
        if self.nodes % 256 == 0 and self.budget.expired(self.nodes):
            self.stopped = True
        best: _Result | None = _END if self.may_end(world) and _END.gain >= floor else None
        if not self.stopped:
            children = sorted(self.children(world), key=lambda c: -c[2])
            for action, after, mine, theirs in children:
                delta = (mine, -theirs, -1 if action[4] else 0, -1 if action[0] == 0 else 0)
                need = max(floor, best.gain) if best is not None else floor
                sub = self.solve(after, _minus(need, delta))
                if sub is None:
                    continue
                gain = _plus(sub.gain, delta)
                texts = (self.text(action), *sub.texts)
                if best is None or _better((gain, texts), (best.gain, best.texts)):
                    best = _Result(gain, (action, *sub.path), texts)
        if not self.stopped:
            self.memo[world] = (best, floor)
        return best


# -- the first answer: a widening beam -------------------------------------------------------------------------------
# The beam plays the same rules (the children, prunings and canonical worlds of _Search), one action a layer. Per
# layer it keeps the best gain per world, skips worlds already expanded with a gain at least as good, and keeps the
# ``width`` best worlds ranked by (my points, -opponents' points, pending + spendable credit, -tickets, -arrows):
# credit is what may still become points (the mandatory arrow not yet placed, blue arrows and a restart pending,
# tickets still spendable). Every world where the turn may end is a candidate move. Widths grow 16, 64, 256, ...
# until the budget runs out or a whole run never had to cut a layer: then every world was expanded, and the answer
# is exact.
BEAM_FIRST_WIDTH = 16
"""The first beam's width; each next one is :data:`BEAM_GROWTH` times wider."""
BEAM_GROWTH = 4


@dataclass(slots=True)
class _Beam:
    """The best end-of-turn move found, the best per first action, the worlds expanded, and whether it is exact."""

    best: _Result | None = None
    firsts: dict[_Fast, _Result] = field(default_factory=dict)
    searched: int = 0
    exact: bool = False

    def offer(self, result: _Result) -> None:
        """Keep ``result`` if it beats the best so far, overall and for its first action."""
        if _wins(result, self.best):
            self.best = result
        if result.path:
            first = result.path[0]
            if _wins(result, self.firsts.get(first)):
                self.firsts[first] = result


def _wins(a: _Result, b: _Result | None) -> bool:
    return b is None or a.gain > b.gain or (a.gain == b.gain and a.texts < b.texts)


def _rank(search: _Search, world: _World, gain: _Gain) -> tuple[int, ...]:
    credit = (0 if world.mandatory else 1) + world.blue + (1 if world.restart >= 0 else 0) + \
        min(world.tickets, world.allowance)
    return (gain[0], gain[1], credit, gain[2], gain[3])


def _beam(search: _Search, root: _World, budget: Budget, answer: _Beam | None = None) -> _Beam:
    """Widening beams from ``root`` until ``budget`` expires or one run is exact (``search.nodes`` counts the
    worlds expanded, shared with the budget)."""
    found = answer or _Beam()
    width = BEAM_FIRST_WIDTH
    while not budget.expired(search.nodes):
        exact = _run(search, root, width, budget, found)
        if exact is None:  # out of budget in the middle of the run
            break
        if exact:
            found.exact = True
            break
        width *= BEAM_GROWTH
    found.searched = search.nodes
    return found


def _run(search: _Search, root: _World, width: int, budget: Budget, found: _Beam) -> bool | None:
    """One beam of ``width``: True if no layer was cut (exact), False if cut, None if the budget ran out."""
    expanded: dict[_World, _Gain] = {}
    layer: dict[_World, _Result] = {root: _Result((0, 0, 0, 0), (), ())}
    cut = False
    while layer:
        following: dict[_World, _Result] = {}
        for world, result in layer.items():
            if budget.expired(search.nodes):
                return None
            seen = expanded.get(world)
            if seen is not None and seen >= result.gain:
                continue
            expanded[world] = result.gain
            search.nodes += 1
            if search.may_end(world):
                found.offer(result)
            for action, after, mine, theirs in search.children(world):
                delta = (mine, -theirs, -1 if action[4] else 0, -1 if action[0] == 0 else 0)
                child = _Result(_plus(result.gain, delta), (*result.path, action), (*result.texts,
                                                                                     search.text(action)))
                known = following.get(after)
                if known is None or _wins(child, known):
                    following[after] = child
        if len(following) > width:
            cut = True
            ranked = sorted(following.items(), key=lambda item: _rank(search, item[0], item[1].gain), reverse=True)
            following = dict(ranked[:width])
        layer = following
    return not cut


def _plus(a: _Gain, b: _Gain) -> _Gain:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _minus(a: _Gain, b: _Gain) -> _Gain:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _kind_flags(kind: SpotKind) -> tuple[bool, ...]:
    return tuple(k is kind for k in load_board().kinds)


@functools.cache
def _text(action: _Fast) -> str:
    keys = [s.key for s in load_board().order]
    kind, colour, frm, to, ticket = action
    if kind == 1:
        return str(Action.remove(COLOURS[colour]))
    return str(Action.arrow(COLOURS[colour], keys[frm], keys[to], ticket=ticket))


def _recoloured(w: _World, index: int, value: _Colour) -> _World:
    """``w`` with colour ``index`` replaced (built directly: ``_replace`` was a fifth of the search's time)."""
    c = w.colours
    colours = (value, c[1], c[2]) if index == 0 else (c[0], value, c[2]) if index == 1 else (c[0], c[1], value)
    return _World(colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, w.mandatory,
                  w.restart, w.blue)


def _world(position: Position, allowance: int) -> _World:
    """The world at the start of the turn, with ``allowance`` tickets to spend (untrimmed)."""
    board = load_board()
    state = begin(position)
    index = {s.key: s.index for s in board.order}

    def mask(keys: frozenset[str] | tuple[str, ...]) -> int:
        m = 0
        for k in keys:
            m |= 1 << index[k]
        return m

    colours: list[_Colour] = []
    for expedition in position.expeditions:
        restarts = expedition.restart_arrows
        arrows, used = [], 0
        for i, (frm, to) in enumerate(expedition.arrows):
            link = board.link(frm, to)
            assert link is not None  # a checked position links every arrow
            arrows.append((index[frm], index[to], link.index, i in restarts))
            used |= 1 << link.index
        head = expedition.head
        origin = index[head] if head else (-1 if expedition.arrows else board.start_index)
        colours.append((tuple(arrows), mask(expedition.visited), used, origin, expedition.arrows_left))
    me = state.me
    held = orphans = 0
    for i, seat in enumerate(state.seats):
        if i == state.active:
            continue
        held |= mask(seat.hand)
        orphans |= mask(seat.tokens - seat.hand)
    return _World((colours[0], colours[1], colours[2]), mask(me.hand), mask(me.tokens), mask(state.common), held,
                  orphans, me.tickets, allowance, False, -1, 0)


def _to_action(action: _Fast) -> Action:
    return Action.from_text(_text(action))


def best_moves(position: Position, *, tickets: int = TICKETS_PER_TURN, alternatives: int = 4,
               answer: Limit = DEFAULT_ANSWER_LIMIT, limit: Limit = DEFAULT_MOVE_LIMIT,
               stop: StopLike | None = None) -> MoveSearch:
    """The best move of this turn using at most ``tickets`` tickets, and the best moves with another first action.

    Answer, then prove: widening beams answer within ``answer`` (one per ticket count j ≤ ``tickets``, since a move
    with fewer tickets is a move with more: the answer is the best over them); the exhaustive search then runs for
    the rest of ``limit`` (counted from the start, time or nodes), and its move, when it finishes, is proven and
    replaces the beams'. A node ``answer`` gives each beam that many worlds, whatever ``tickets`` is, so a larger
    ``tickets`` never answers fewer points (the default, :data:`DEFAULT_ANSWER_LIMIT`); its time, if any, is then
    only a safety net over all the beams (``cut_short`` when it fires). A time-only ``answer`` is shared out:
    beam j may run until (j + 1) / (tickets + 1) of it. A node ``limit`` gives the exhaustive search that many.

    Raises:
        ValueError: ``tickets`` is not 0, 1 or 2.
        SolverError: stopped before any legal move was found.
    """
    if not 0 <= tickets <= TICKETS_PER_TURN:
        raise ValueError(f"a turn spends 0 to {TICKETS_PER_TURN} tickets, not {tickets}")
    clock = Budget(limit, stop)
    quick, searched, proven, cut_short, exact = _Beam(), 0, False, False, set()
    for spend in range(tickets + 1):
        share = answer if answer.time is None or answer.nodes is not None else Limit(
            time=answer.time * (spend + 1) / (tickets + 1))
        beam = _Search(position.rules, spend, Budget(share, stop, started=clock.started))
        found = _beam(beam, beam.root(position), beam.budget)
        cut_short |= answer.nodes is not None and not found.exact and beam.budget.out_of_time() \
            and beam.nodes <= answer.nodes
        searched += found.searched
        for result in (found.best, *found.firsts.values()):
            if result is not None:
                quick.offer(result)
        if found.exact:
            exact.add(spend)
        proven = found.exact and spend == tickets
    best, firsts = quick.best, [r for r in quick.firsts.values() if quick.best is None or r.path[:1] !=
                                quick.best.path[:1]]
    remaining = clock.remaining()
    if not proven and not clock.stopped and (remaining is None or remaining > 0):
        proof = _prove(position, tickets, Budget(Limit(time=remaining, nodes=limit.nodes), stop), exact)
        searched += proof.searched
        if proof.alternatives is not None and proof.best is not None:
            proven, best, firsts = True, proof.best, proof.alternatives
        elif proof.best is not None and _wins(proof.best, best):
            best = proof.best
    if best is None:  # stopped before any way to end the turn was found
        raise SolverError("the move search stopped before it found a legal move; allow it more time")
    moves = sorted((_move(r.path, r.gain) for r in firsts if r.gain[0] >= best.gain[0] - ALTERNATIVE_SPAN),
                   key=lambda m: (tuple(-v for v in m.value), tuple(str(a) for a in m.actions)))
    return MoveSearch(_move(best.path, best.gain), tuple(moves[:alternatives]), searched,
                      clock.status(proven=proven), tickets, clock.elapsed(), cut_short)


class _Proof(NamedTuple):
    best: _Result | None
    """The proven best with the full allowance, else the best any stage found."""
    alternatives: list[_Result] | None
    """The other first actions' best moves when the full allowance was proven, else None."""
    searched: int


def _prove(position: Position, tickets: int, budget: Budget, skip: set[int]) -> _Proof:
    """The exhaustive search, one stage per ticket allowance j = 0, 1, ..., ``tickets`` (but those in ``skip``,
    whose beam was exact), all within ``budget`` and sharing one memo (worlds carry their allowance, so an entry
    means the same in every stage).

    Why stages: the call with ``tickets`` then runs exactly the stages the call with ``tickets - 1`` ran, from the
    same memo, plus one, so under a node budget it never reports fewer points (monotone by construction); a move
    with fewer tickets is a move with more, so every stage's best is a candidate.
    """
    memo: dict[_World, tuple[_Result | None, _Gain]] = {}
    best: _Result | None = None
    nodes = 0
    for spend in range(tickets + 1):
        if spend in skip and spend < tickets:
            continue
        search = _Search(position.rules, spend, budget, memo=memo, nodes=nodes)
        root = search.root(position)
        result = search.solve(root)
        nodes = search.nodes
        if result is not None and _wins(result, best):
            best = result
        if search.stopped:
            break
        if spend == tickets and result is not None:
            return _Proof(result, _alternatives(search, root, result), search.nodes)
    return _Proof(best, None, nodes)


def _alternatives(search: _Search, root: _World, best: _Result) -> list[_Result]:
    """The best move of each other first action that can still reach within :data:`ALTERNATIVE_SPAN` of the best's
    points (from a finished exhaustive search: its memo answers most of them)."""
    found = []
    for action, after, mine, theirs in search.children(root):
        if best.path and action == best.path[0]:
            continue
        delta = (mine, -theirs, -1 if action[4] else 0, -1 if action[0] == 0 else 0)
        sub = search.solve(after, _minus((best.gain[0] - ALTERNATIVE_SPAN, *_BOTTOM[1:]), delta))
        if sub is not None:
            found.append(_Result(_plus(sub.gain, delta), (action, *sub.path), (search.text(action), *sub.texts)))
    return found


def _move(path: tuple[_Fast, ...], gain: _Gain) -> Move:
    return Move(tuple(_to_action(a) for a in path), gain[0], -gain[1], -gain[2], -gain[3])
