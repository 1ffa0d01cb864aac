"""The turn's rules on bit masks, and the exact memoised search over them (the engine of :mod:`.search` and
:mod:`.beam`).

The search plays the rules on bit masks (its own code, independent of :mod:`planner.expedition.turn`, which
verifies every move it returns) and memoises whole worlds, so the orders that reach the same world are searched
once. Exchanges are left out (they score nothing at once; a move with a ticket to spare may add one).

Safe prunings (EXPEDITION.md "Size warning and safe pruning"; none changes the best value, which the tests check
against a plain enumeration through the engine):

1. a restart onto a visited spot that gives me nothing (not blue, a red star only while its ticket could still be
   spent this turn, no card, common objective or token of mine) is skipped while another restart exists; when only
   such restarts exist, the first is followed (the rules want one, and any order gives the same);
2. of the arrows after which the turn must end with nothing gained, one per role is searched (the one least helpful
   to opponents), and such blue-square and ticket arrows are dropped where the turn could end instead;
3. no ticket arrow before the mandatory arrow: relabelling the first arrow-started chain as the mandatory one
   reaches the same world.

Worlds are canonical (:meth:`Search.trim`): a colour keeps only its last ``allowance`` arrows (all a removal can
still reach, ``allowance`` being the tickets the turn may still spend) and tickets held count up to ``allowance``;
worlds differing only beyond that have the same continuations, so they share a memo entry. A world carries its
allowance rather than the tickets spent, so it means the same under any ticket limit and searches with different
limits share one memo.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from planner.common.limits import Budget
from planner.common.values import frozen
from planner.expedition.board import SpotKind, load_board
from planner.expedition.notation import Action
from planner.expedition.position import Position
from planner.expedition.rules import ARROWS, COLOURS, Rules
from planner.expedition.turn import begin

# A fast action: (kind, colour, from, to, ticket); kind 0 arrow, 1 remove.
Fast = tuple[int, int, int, int, bool]
# One colour: (arrows as (from, to, link, restart) tuples, visited mask, used mask, head or -1, arrows left).
Colour = tuple[tuple[tuple[int, int, int, bool], ...], int, int, int, int]


class World(NamedTuple):
    """Everything the rest of the turn depends on (hashable: the memo key)."""

    colours: tuple[Colour, Colour, Colour]
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



Gain = tuple[int, int, int, int]
"""(my points, -opponents' points, -tickets spent, -arrows placed): higher is better."""
BOTTOM: Gain = (-(1 << 30), 0, 0, 0)


@frozen
class Result:
    gain: Gain
    """The value of the best continuation."""
    path: tuple[Fast, ...]
    texts: tuple[str, ...]


END = Result((0, 0, 0, 0), (), ())

def better(a: tuple[Gain, tuple[str, ...]], b: tuple[Gain, tuple[str, ...]]) -> bool:
    return a[0] > b[0] or (a[0] == b[0] and a[1] < b[1])


@functools.cache
def _links_of() -> tuple[int, ...]:
    """Per spot, the mask of its links."""
    return tuple(functools.reduce(lambda m, pair: m | 1 << pair[1], ways, 0) for ways in load_board().adjacent)


@dataclass(slots=True)
class Search:
    rules: Rules
    limit_tickets: int
    budget: Budget
    memo: dict[World, tuple[Result | None, Gain]] = field(default_factory=dict)
    nodes: int = 0
    stopped: bool = False
    adjacent: tuple[tuple[tuple[int, int], ...], ...] = field(default_factory=lambda: load_board().adjacent)
    green: tuple[bool, ...] = field(default_factory=lambda: kind_flags(SpotKind.GREEN))
    blue: tuple[bool, ...] = field(default_factory=lambda: kind_flags(SpotKind.BLUE))
    red: tuple[bool, ...] = field(default_factory=lambda: kind_flags(SpotKind.RED))
    start: int = field(default_factory=lambda: load_board().start_index)
    links_of: tuple[int, ...] = field(default_factory=_links_of)
    """Per spot, the mask of its links."""
    canonical: bool = True
    """Whether :meth:`trim` canonicalises worlds (off only for the test that it changes nothing)."""

    # -- rules on masks -------------------------------------------------------------------------------------------
    def text(self, action: Fast) -> str:
        return text_of(action)

    def arrows(self, world: World, colour: int) -> Iterator[tuple[int, int, int]]:
        """``(from, to, link)`` of every legal arrow of one colour."""
        arrows, visited, used, head, left = world.colours[colour]
        if left <= 0:
            return
        origins = [head] if head >= 0 else bits(visited)
        for frm in origins:
            for to, link in self.adjacent[frm]:
                if not used >> link & 1:
                    yield frm, to, link

    def any_arrow(self, world: World, colours: range | tuple[int, ...] = (0, 1, 2)) -> bool:
        """Whether one of ``colours`` has a legal arrow (on link masks: the search asks this for most worlds)."""
        links_of = self.links_of
        for c in colours:
            _, visited, used, head, left = world.colours[c]
            if left <= 0:
                continue
            if head >= 0:
                if links_of[head] & ~used:
                    return True
            elif any(links_of[spot] & ~used for spot in bits(visited)):
                return True
        return False

    def arrive(self, world: World, spot: int) -> tuple[World, int, int]:
        """The spot's effect: the new world, my points, opponents' points."""
        bit = 1 << spot
        if self.blue[spot]:
            if any(c[4] > 0 for c in world.colours):
                w = world
                return World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance,
                              w.mandatory, w.restart, w.blue + 1), 0, 0
            return world, 0, 0
        if self.red[spot]:
            w = world
            # canonical at once: tickets held count only up to the allowance (see :meth:`trim`)
            tickets = w.tickets + 1 if not self.canonical or w.tickets < w.allowance else w.tickets
            return World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, tickets, w.allowance,
                          w.mandatory, w.restart, w.blue), 0, 0
        if not self.green[spot]:
            return world, 0, 0
        mine, theirs, hand, tokens, common, held, orphans = collect(
            bit, world.hand, world.tokens, world.common, world.held, world.orphans, self.rules.orphans_recover)
        if not (mine or theirs):
            return world, 0, 0
        w = world
        return World(w.colours, hand, tokens, common, held, orphans, w.tickets, w.allowance, w.mandatory, w.restart,
                      w.blue), mine, theirs

    def gives_nothing(self, world: World, spot: int) -> bool:
        """Whether arriving at ``spot`` scores nothing for me and earns no arrow and no usable ticket (prunings 1
        and 2)."""
        if self.blue[spot]:
            return not any(c[4] > 0 for c in world.colours)
        if self.red[spot]:
            return not self._ticket_helps(world)
        bit = 1 << spot
        return not (world.hand & bit or world.common & bit or (world.tokens & bit and self.rules.orphans_recover))

    def place(self, world: World, colour: int, frm: int, to: int, link: int, *, restart: bool
              ) -> tuple[World, int, int]:
        arrows, visited, used, head, left = world.colours[colour]
        loop = bool(visited >> to & 1)
        leg_start = restart or head < 0
        keep = world.allowance if self.canonical else ARROWS
        # canonical at once: only the last ``allowance`` arrows are kept (see :meth:`trim`)
        kept = ((*arrows[len(arrows) + 1 - keep:], (frm, to, link, leg_start)) if len(arrows) >= keep else
                (*arrows, (frm, to, link, leg_start))) if keep else ()
        entry: Colour = (kept, visited | 1 << to, used | 1 << link, -1 if loop else to, left - 1)
        world = recoloured(world, colour, entry)
        world, mine, theirs = self.arrive(world, to)
        if loop:
            world = self.after_loop(world, colour)
        return world, mine, theirs

    def after_loop(self, world: World, colour: int) -> World:
        if not self.any_arrow(world, (colour,)):
            return world
        w = world
        return World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, w.mandatory,
                      colour, w.blue)

    def remove(self, world: World, colour: int) -> tuple[World, int, int]:
        arrows, visited, used, head, left = world.colours[colour]
        frm, to, link, leg_start = arrows[-1]
        rest = arrows[:-1]
        new_head = -1 if leg_start else frm
        if left + 1 == ARROWS:  # its only arrow (the tuple may be trimmed: count by the arrows left)
            new_head = self.start
        entry: Colour = (rest, visited & ~(1 << to), used & ~(1 << link), new_head, left + 1)
        world = recoloured(world, colour, entry)
        world, mine, theirs = self.arrive(world, frm)
        if new_head < 0:
            world = self.after_loop(world, colour)
        return world, mine, theirs

    def root(self, position: Position) -> World:
        """The canonical world at the start of the turn, with :attr:`limit_tickets` tickets to spend."""
        return self.trim(start_world(position, self.limit_tickets))

    def trim(self, world: World) -> World:
        """The canonical world: each colour keeps only the last arrows a removal can still reach, and tickets held
        count only up to the tickets this turn may still spend.

        Exact: an arrow matters beyond the masks only to a removal, a turn removes at most one arrow per ticket it
        may still spend, and a removal takes the last arrow, so arrows before the last ``allowance`` are never
        read again (the only arrow count :meth:`remove` needs is the one the arrows left give). Tickets held are
        read only as "any left" (:meth:`may_spend`) and "fewer than ``allowance``" (:meth:`_ticket_helps`), and
        spending lowers both sides by one, so ``min(tickets, allowance)`` answers alike (a Move reports tickets
        spent, never held). Worlds differing only there have the same continuations and now share one memo entry.
        """
        if not self.canonical:
            return world
        keep = world.allowance
        colours = world.colours
        if world.tickets <= keep and len(colours[0][0]) <= keep and len(colours[1][0]) <= keep and \
                len(colours[2][0]) <= keep:
            return world
        a, b, c = (c if len(c[0]) <= keep else ((c[0][len(c[0]) - keep:] if keep else ()), *c[1:]) for c in colours)
        w = world
        return World((a, b, c), w.hand, w.tokens, w.common, w.held, w.orphans, min(w.tickets, keep), keep,
                     w.mandatory, w.restart, w.blue)

    def spend(self, world: World) -> World:
        w = world
        blue = w.blue if self.rules.tickets_anytime else 0
        return World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets - 1, w.allowance - 1,
                      w.mandatory, w.restart, blue)

    def may_spend(self, world: World) -> bool:
        if world.restart >= 0 or world.tickets <= 0 or world.allowance <= 0:
            return False
        return not (world.blue and self.rules.blue_mandatory and not self.rules.tickets_anytime
                    and self.any_arrow(world))

    def may_end(self, world: World) -> bool:
        if world.restart >= 0 and not (self.rules.restart_optional and world.mandatory):
            return False
        if world.restart < 0 and world.blue and self.rules.blue_mandatory and self.any_arrow(world):
            return False
        return world.mandatory or not self.any_arrow(world)

    # -- the search ----------------------------------------------------------------------------------------------
    def children(self, world: World) -> Iterator[tuple[Fast, World, int, int]]:
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

    def _restarts(self, world: World) -> Iterator[tuple[Fast, World, int, int]]:
        colour = world.restart
        options = list(self.arrows(world, colour))
        visited = world.colours[colour][1]
        useful = [o for o in options if not (visited >> o[1] & 1) or not self.gives_nothing(world, o[1])]
        chosen = useful or options[:1]  # pruning 1
        w = world
        cleared = World(w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance,
                         w.mandatory, -1, w.blue)
        yield from self._placed(cleared, chosen, colour, ticket=False, restart=True, drop_dead=False)

    def _arrows(self, world: World, *, ticket: bool, drop_dead: bool) -> Iterator[tuple[Fast, World, int, int]]:
        w = world
        base = self.spend(w) if ticket else World(
            w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, w.mandatory,
            w.restart, w.blue - 1) if w.blue else World(
            w.colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, True, w.restart, 0)
        for colour in range(3):
            yield from self._placed(base, list(self.arrows(base, colour)), colour, ticket=ticket, restart=False,
                                    drop_dead=drop_dead)

    def _placed(self, base: World, options: list[tuple[int, int, int]], colour: int, *, ticket: bool,
                restart: bool, drop_dead: bool) -> Iterator[tuple[Fast, World, int, int]]:
        """The arrows worth searching among ``options`` (one colour, one role).

        An arrow after which the turn must end with nothing gained is left out when ``drop_dead`` (an optional role
        where the turn could end instead: ending is as good with fewer arrows), else only the least helpful to
        opponents of them is kept (pruning 2: they all end the turn with the same points, arrows and tickets).

        Each arrow's world is built at once, as :meth:`place` and :meth:`arrive` would build it (one ``World`` per
        arrow, not three: this loop is most of the search's time).
        """
        dead: tuple[int, str, Fast, World] | None = None
        colours = base.colours
        arrows, visited, used, head, left = colours[colour]
        others_left = any(c[4] > 0 for i, c in enumerate(colours) if i != colour)
        base_blue_left = left > 0 or others_left  # arrive's test on ``base`` (gives_nothing)
        after_blue_left = left > 1 or others_left  # arrive's test after the arrow
        leg_start = restart or head < 0
        keep = base.allowance if self.canonical else ARROWS
        prefix = (arrows[len(arrows) + 1 - keep:] if len(arrows) >= keep else arrows) if keep else None
        hand0, tokens0, common0, held0, orphans0 = base.hand, base.tokens, base.common, base.held, base.orphans
        tickets0, allowance, mandatory, restart0, blue0 = (base.tickets, base.allowance, base.mandatory,
                                                           base.restart, base.blue)
        red_tickets = tickets0 + 1 if not self.canonical or tickets0 < allowance else tickets0
        recover = self.rules.orphans_recover
        is_blue, is_red, is_green, links_of = self.blue, self.red, self.green, self.links_of
        for frm, to, link in options:
            action = (0, colour, frm, to, ticket)
            bit = 1 << to
            loop = bool(visited & bit)
            new_used = used | 1 << link
            kept = (*prefix, (frm, to, link, leg_start)) if prefix is not None else ()
            entry: Colour = (kept, visited | bit, new_used, -1 if loop else to, left - 1)
            new = (entry, colours[1], colours[2]) if colour == 0 else (colours[0], entry, colours[2]) \
                if colour == 1 else (colours[0], colours[1], entry)
            hand, tokens, common, held, orphans = hand0, tokens0, common0, held0, orphans0
            tickets, blue = tickets0, blue0
            mine = theirs = 0
            if is_blue[to]:
                nothing = not loop and not base_blue_left
                if after_blue_left:
                    blue += 1
            elif is_red[to]:
                nothing = not loop and not tickets0 < allowance
                tickets = red_tickets
            else:
                nothing = not loop and not (hand0 & bit or common0 & bit or (tokens0 & bit and recover))
                if is_green[to]:
                    mine, theirs, hand, tokens, common, held, orphans = collect(
                        bit, hand, tokens, common, held, orphans, recover)
            pending = restart0
            if loop and left > 1 and any(links_of[spot] & ~new_used for spot in bits(visited)):
                pending = colour  # :meth:`after_loop`
            after = World(new, hand, tokens, common, held, orphans, tickets, allowance, mandatory, pending, blue)
            if nothing and self.must_end(after):
                if drop_dead:
                    continue
                if dead is None or (theirs, text_of(action)) < dead[:2]:
                    dead = (theirs, text_of(action), action, after)
                continue
            # only a spent ticket lowers the allowance under the other colours' arrows; else already canonical
            yield action, self.trim(after) if ticket else after, mine, theirs
        if dead is not None:
            yield dead[2], self.trim(dead[3]) if ticket else dead[3], 0, dead[0]

    def must_end(self, world: World) -> bool:
        """Whether nothing but ending the turn is left."""
        return world.mandatory and world.restart < 0 and not world.blue and not self.may_spend(world)

    def _ticket_helps(self, world: World) -> bool:
        """Whether one more ticket would raise the tickets this turn may still spend."""
        return world.tickets < world.allowance

    def solve(self, world: World, floor: Gain = BOTTOM) -> Result | None:
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
        best: Result | None = END if self.may_end(world) and END.gain >= floor else None
        if not self.stopped:
            children = sorted(self.children(world), key=lambda c: -c[2])
            for action, after, mine, theirs in children:
                step = delta(action, mine, theirs)
                need = max(floor, best.gain) if best is not None else floor
                sub = self.solve(after, minus(need, step))
                if sub is None:
                    continue
                gain = plus(sub.gain, step)
                texts = (self.text(action), *sub.texts)
                if best is None or better((gain, texts), (best.gain, best.texts)):
                    best = Result(gain, (action, *sub.path), texts)
        if not self.stopped:
            self.memo[world] = (best, floor)
        return best


def collect(bit: int, hand: int, tokens: int, common: int, held: int, orphans: int,
            recover: bool) -> tuple[int, int, int, int, int, int, int]:
    """Arriving at the green ``bit``: my points, opponents' points, and the hand, tokens, common objectives, held
    and orphaned tokens after it (masks; ``recover``: :attr:`Rules.orphans_recover`). Shared by :meth:`Search.arrive`
    and the arrows' loop of :meth:`Search._placed`."""
    mine = theirs = 0
    if hand & bit:  # my card, doubled by my token
        mine, hand, tokens = (4 if tokens & bit else 2), hand & ~bit, tokens & ~bit
    elif tokens & bit and recover:
        mine, tokens = 2, tokens & ~bit
    if common & bit:
        mine, common = mine + 1, common & ~bit
    if held & bit:  # an opponent's token on a card in their hand
        theirs, held = 4, held & ~bit
    elif orphans & bit and recover:
        theirs, orphans = 2, orphans & ~bit
    return mine, theirs, hand, tokens, common, held, orphans


def wins(a: Result, b: Result | None) -> bool:
    return b is None or a.gain > b.gain or (a.gain == b.gain and a.texts < b.texts)


def delta(action: Fast, mine: int, theirs: int) -> Gain:
    """What one action adds to the gain: my points, opponents' points, a ticket, an arrow."""
    return (mine, -theirs, -1 if action[4] else 0, -1 if action[0] == 0 else 0)


def plus(a: Gain, b: Gain) -> Gain:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def minus(a: Gain, b: Gain) -> Gain:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def kind_flags(kind: SpotKind) -> tuple[bool, ...]:
    return tuple(k is kind for k in load_board().kinds)


@functools.cache
def text_of(action: Fast) -> str:
    keys = [s.key for s in load_board().order]
    kind, colour, frm, to, ticket = action
    if kind == 1:
        return str(Action.remove(COLOURS[colour]))
    return str(Action.arrow(COLOURS[colour], keys[frm], keys[to], ticket=ticket))


def recoloured(w: World, index: int, value: Colour) -> World:
    """``w`` with colour ``index`` replaced (built directly: ``_replace`` was a fifth of the search's time)."""
    c = w.colours
    colours = (value, c[1], c[2]) if index == 0 else (c[0], value, c[2]) if index == 1 else (c[0], c[1], value)
    return World(colours, w.hand, w.tokens, w.common, w.held, w.orphans, w.tickets, w.allowance, w.mandatory,
                  w.restart, w.blue)


def start_world(position: Position, allowance: int) -> World:
    """The world at the start of the turn, with ``allowance`` tickets to spend (untrimmed)."""
    board = load_board()
    state = begin(position)
    index = {s.key: s.index for s in board.order}

    def mask(keys: frozenset[str] | tuple[str, ...]) -> int:
        m = 0
        for k in keys:
            m |= 1 << index[k]
        return m

    colours: list[Colour] = []
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
    return World((colours[0], colours[1], colours[2]), mask(me.hand), mask(me.tokens), mask(state.common), held,
                  orphans, me.tickets, allowance, False, -1, 0)


