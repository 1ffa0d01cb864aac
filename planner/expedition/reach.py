"""The reach table: how many arrows and how many turns each expedition needs to arrive at a location.

For one expedition X moving alone, without tickets (EXPEDITION.md, "Notions the assistant needs"):

- ``arrows(X, t)``: the fewest arrows until one *enters* t (re-entering a visited green counts), loops and restarts
  allowed, never reusing a link of X. Exact by the spec's lemma: an optimal sequence needs at most one restart to a
  different spot, that spot among the visited ones, and the part before the loop runs through new spots only; so it
  is the better of a trail from the origin and, over loop paths T from the head, ``|T|`` + a trail from the visited
  spots avoiding T's links. Loop paths are tried shortest first until none can beat what is known.
- ``turns(X, t)``: the fewest turns when every turn gives one arrow, a new blue square one more, a loop a restart
  (all spent on X). An arrow costs 1 on a new non-blue spot, 0 on a new blue one, 0 when it closes a loop, −1 when
  it closes a loop on a blue square; the arrow entering t is placed in turn 1 + the highest running total before it.

``turns`` is searched exactly up to :data:`HORIZON` turns over X's arrow sequences, with these prunings, each of
which never loses a best answer (the tests check them against a plain search on hundreds of expeditions):

1. after a loop (a *restart state*, where any visited spot may be left from), a restart onto a visited non-blue spot
   is useless; every unused link between two visited spots with a blue end is farmed at once (each is −1, and such a
   link has no other use); after that, a restart state's future depends on its visited set only, and its final
   legs (through new spots to the target) are one 0-1 breadth-first search for every target at once;
2. a leg from a restart state through new non-blue spots that ends in a plain loop never helps (whatever it makes
   possible can be bought later, no dearer); so such a leg must reach a blue square, and is dropped when no blue
   square lies within the running total it may still spend;
3. a restart state is skipped when an earlier one has visited every spot it has, never had a higher running total
   nor a higher maximum, and stays ahead after giving up the blue-square links it has enclosed.

The search is budgeted in nodes (the same answer on every machine). When the 3-turn search runs out, a 2-turn one
follows: values are then exact up to 2 turns, a 3 is still exact (2 was excluded), and only ``None`` may hide a 3;
:attr:`Reach.proven` says up to which turn a ``None`` is proven.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from planner.common.limits import Limit
from planner.expedition.board import START, Board, SpotKind, load_board
from planner.expedition.position import Expedition, Mode, Position
from planner.expedition.rules import COLOURS, Colour

__all__ = ["HORIZON", "LOOP_NODES", "TURN_NODES", "Distance", "Reach", "Tables", "arrows_and_doubts", "fewest_arrows",
           "fewest_turns", "reach", "tables"]

HORIZON = 3
"""Turns searched exactly."""
TURN_NODES = 6000
"""Default node budget of one expedition's turn search."""
LOOP_NODES = 1_500
"""Budget of loop paths extended by one expedition's arrow distances (see :func:`arrows_and_doubts`)."""
INF = 1 << 30


@dataclass(frozen=True, slots=True)
class Tables:
    """The map as integer tables for the searches (built once)."""

    adjacent: tuple[tuple[tuple[int, int], ...], ...]
    cost: tuple[int, ...]
    """Cost of entering a spot for the first time: 1, or 0 for a blue square."""
    blue: tuple[bool, ...]
    ends: tuple[tuple[int, int], ...]
    """The two spots of each link."""
    blue_links: int
    """Mask of the links with a blue end."""
    to_blue: tuple[int, ...]
    """Fewest non-blue spots strictly between a spot and some blue square, on any path (a static lower bound)."""
    spots: int


@functools.cache
def tables() -> Tables:
    """The shared integer tables of the map."""
    board = load_board()
    n = len(board.order)
    blue = tuple(k is SpotKind.BLUE for k in board.kinds)
    cost = tuple(0 if b else 1 for b in blue)
    ends = tuple((board.spots[link.a].index, board.spots[link.b].index) for link in board.links)
    blue_links = 0
    for i, (a, b) in enumerate(ends):
        if blue[a] or blue[b]:
            blue_links |= 1 << i
    to_blue = [INF] * n
    queue: deque[int] = deque()
    for i in range(n):
        if blue[i]:
            to_blue[i] = 0
            queue.append(i)
    while queue:  # 0-1 search outwards: stepping from s to its neighbour puts s between them
        s = queue.popleft()
        step = 0 if blue[s] else cost[s]
        for nxt, _ in board.adjacent[s]:
            if to_blue[s] + step < to_blue[nxt]:
                to_blue[nxt] = to_blue[s] + step
                (queue.appendleft if step == 0 else queue.append)(nxt)
    return Tables(board.adjacent, cost, blue, ends, blue_links, tuple(to_blue), n)


@dataclass(frozen=True, slots=True)
class _Trail:
    """An expedition as masks: visited spots, used links, and where the next arrow leaves from."""

    visited: int
    used: int
    head: int
    """The free head (or the start when unstarted); -1 when looped."""
    arrows_left: int


def _trail(expedition: Expedition, board: Board) -> _Trail:
    visited = 0
    for spot in expedition.visited:
        visited |= 1 << board.spots[spot].index
    used = 0
    for frm, to in expedition.arrows:
        link = board.link(frm, to)
        if link is not None:
            used |= 1 << link.index
    mode = expedition.mode
    head = -1 if mode is Mode.LOOPED else board.spots[expedition.head or START].index
    return _Trail(visited, used, head, expedition.arrows_left)


# -- arrows ---------------------------------------------------------------------------------------------------------
_ORIGINS = 128
"""More than the spots: a first arrow is coded as ``link * _ORIGINS + origin``."""


def _labels(sources: int, used: int, t: Tables, *, unit: bool, through: bool) -> tuple[list[int], list[int], list[int]]:
    """Per spot the two cheapest ways to stand there, with distinct first arrows: (cost, first arrow, second cost);
    a first arrow is ``link * _ORIGINS + the source it leaves``.

    Sources cost 0 (first link -1). ``unit``: every arrow costs 1 (arrows); else a spot costs :attr:`Tables.cost`
    (turns). ``through``: paths may pass through sources (arrows); else they stop there (turns: a source is a
    restart point anyway). Two labels are kept so that entering a spot never reuses the link a path left it by.
    """
    n = t.spots
    c1, f1, c2, f2 = [INF] * n, [-2] * n, [INF] * n, [-2] * n
    queue: deque[tuple[int, int, int]] = deque()
    for i in range(n):
        if sources >> i & 1:
            c1[i], f1[i] = 0, -1
            queue.append((0, i, -1))
    adjacent, cost = t.adjacent, t.cost
    while queue:
        value, s, first = queue.popleft()
        if not ((c1[s] == value and f1[s] == first) or (c2[s] == value and f2[s] == first)):
            continue
        origin = s if first == -1 else first % _ORIGINS
        for nxt, link in adjacent[s]:
            # A shortest walk that comes back to its own origin is the only kind that can reuse a link (it may step
            # back along its first link); every other repeat can be cut out, leaving a shorter walk.
            if used >> link & 1 or nxt == origin or (not through and sources >> nxt & 1):
                continue
            step = 1 if unit else cost[nxt]
            w = value + step
            ff = link * _ORIGINS + origin if first == -1 else first
            if ff == f1[nxt]:
                if w >= c1[nxt]:
                    continue
                c1[nxt] = w
            elif ff == f2[nxt]:
                if w >= c2[nxt]:
                    continue
                c2[nxt] = w
                if c2[nxt] < c1[nxt]:
                    c1[nxt], f1[nxt], c2[nxt], f2[nxt] = c2[nxt], f2[nxt], c1[nxt], f1[nxt]
            elif w < c1[nxt]:
                c2[nxt], f2[nxt], c1[nxt], f1[nxt] = c1[nxt], f1[nxt], w, ff
            elif w < c2[nxt]:
                c2[nxt], f2[nxt] = w, ff
            else:
                continue
            if step:
                queue.append((w, nxt, ff))
            else:
                queue.appendleft((w, nxt, ff))
    return c1, f1, c2


def _entries(labels: tuple[list[int], list[int], list[int]], used: int, targets: Iterable[int], t: Tables,
             *, unit: bool) -> dict[int, int]:
    """The cheapest entry into each target: stand at a neighbour (by a path not leaving by that link), then step."""
    c1, f1, c2 = labels
    found = {}
    for target in targets:
        best = INF
        for y, link in t.adjacent[target]:
            if used >> link & 1:
                continue
            value = c1[y] if f1[y] // _ORIGINS != link else c2[y]
            if value < best:
                best = value
        if best < INF:
            found[target] = best + 1 if unit else best
    return found


def fewest_arrows(expedition: Expedition, targets: Iterable[str]) -> dict[str, int | None]:
    """``arrows(X, t)`` for each target: the fewest arrows until one enters it, None when impossible or more than the
    arrows left (see :func:`arrows_and_doubts` for the targets whose value the loop-path budget left unproven)."""
    return arrows_and_doubts(expedition, targets)[0]


def arrows_and_doubts(expedition: Expedition, targets: Iterable[str], *, nodes: int = LOOP_NODES
                      ) -> tuple[dict[str, int | None], frozenset[str]]:
    """:func:`fewest_arrows`, and the targets whose value is only an upper bound (None: unknown).

    Loop paths are enumerated until none can beat what is known; a target that a lower bound says might be reached
    but no path reaches (say the head itself at a dead end) keeps the enumeration going, so it is capped at
    ``nodes`` path extensions, after which such targets are doubtful rather than proven.
    """
    board = load_board()
    t = tables()
    trail = _trail(expedition, board)
    wanted = {board.spots[k].index: k for k in targets}
    best = dict.fromkeys(wanted, INF)
    origin = trail.visited if trail.head < 0 else 1 << trail.head
    direct = _entries(_labels(origin, trail.used, t, unit=True, through=True), trail.used, wanted, t, unit=True)
    for i, value in direct.items():
        best[i] = min(best[i], value)
    doubts: set[int] = set()
    if trail.head >= 0 and trail.used:
        doubts = _loop_paths(trail, t, best, nodes)
    values = {wanted[i]: (v if v <= trail.arrows_left else None) for i, v in best.items()}
    return values, frozenset(wanted[i] for i in doubts if best[i] > 0)


def _loop_paths(trail: _Trail, t: Tables, best: dict[int, int], nodes: int) -> set[int]:
    """Improve ``best`` with loop paths from the head through new spots onto a visited spot, then a restart; the
    targets still open when the ``nodes`` budget ran out."""
    lower = _entries(_labels(trail.visited, trail.used, t, unit=True, through=True), trail.used, best, t, unit=True)
    layer = [(trail.head, trail.used, trail.visited)]
    length = spent = 0
    while layer:
        length += 1
        open_ = {i for i in best if length + lower.get(i, INF) < best[i] and length < trail.arrows_left}
        if not open_:
            return set()
        spent += len(layer)
        if spent > nodes:
            return open_
        following = []
        for spot, used, seen in layer:
            for nxt, link in t.adjacent[spot]:
                if used >> link & 1:
                    continue
                now_used = used | 1 << link
                if seen >> nxt & 1:  # the loop closes: restart from any visited spot, avoiding the path's links
                    entries = _entries(_labels(seen, now_used, t, unit=True, through=True), now_used, best, t,
                                       unit=True)
                    for i, value in entries.items():
                        if length + value < best[i]:
                            best[i] = length + value
                else:
                    following.append((nxt, now_used, seen | 1 << nxt))
        layer = following
    return set()


# -- turns ----------------------------------------------------------------------------------------------------------
def _turn_labels(visited: int, used: int, t: Tables) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """Per spot the two cheapest costs of standing there after a restart (new spots only, a new non-blue spot costs
    1), with distinct first links, and the arrows of each way: (cost, first link, second cost, arrows, second
    arrows)."""
    n = t.spots
    c1, f1, a1, c2, f2, a2 = [INF] * n, [-2] * n, [0] * n, [INF] * n, [-2] * n, [0] * n
    queue: deque[tuple[int, int, int, int]] = deque()
    for i in range(n):
        if visited >> i & 1:
            c1[i], f1[i] = 0, -1
            queue.append((0, i, -1, 0))
    adjacent, cost = t.adjacent, t.cost
    while queue:
        value, s, first, arrows = queue.popleft()
        if not ((c1[s] == value and f1[s] == first) or (c2[s] == value and f2[s] == first)):
            continue
        for nxt, link in adjacent[s]:
            if used >> link & 1 or visited >> nxt & 1:
                continue
            step = cost[nxt]
            w = value + step
            ff = link if first == -1 else first
            if ff == f1[nxt]:
                if w >= c1[nxt]:
                    continue
                c1[nxt], a1[nxt] = w, arrows + 1
            elif ff == f2[nxt]:
                if w >= c2[nxt]:
                    continue
                c2[nxt], a2[nxt] = w, arrows + 1
                if c2[nxt] < c1[nxt]:
                    c1[nxt], f1[nxt], a1[nxt], c2[nxt], f2[nxt], a2[nxt] = (c2[nxt], f2[nxt], a2[nxt], c1[nxt],
                                                                            f1[nxt], a1[nxt])
            elif w < c1[nxt]:
                c2[nxt], f2[nxt], a2[nxt] = c1[nxt], f1[nxt], a1[nxt]
                c1[nxt], f1[nxt], a1[nxt] = w, ff, arrows + 1
            elif w < c2[nxt]:
                c2[nxt], f2[nxt], a2[nxt] = w, ff, arrows + 1
            else:
                continue
            (queue.append if step else queue.appendleft)((w, nxt, ff, arrows + 1))
    return c1, f1, c2, a1, a2


_Node = tuple[bool, int, int, int, int, int, int, int]
"""(restart state?, head, visited, used, running total, maximum, leg kind, arrows placed); leg kind: 0 a plain leg
after a restart, 1 a leg that has entered a new blue square, 2 the first leg."""


@dataclass(slots=True)
class _TurnSearch:
    """One budgeted search of X's arrow sequences within ``horizon`` turns (see the module docstring)."""

    trail: _Trail
    horizon: int
    targets: dict[int, str]
    budget: int
    t: Tables = field(default_factory=tables)
    best: dict[int, int] = field(default_factory=dict)
    arrows: dict[int, int] = field(default_factory=dict)
    """Arrows placed by the sequence behind each best value (checked against the supply)."""
    nodes: int = 0
    complete: bool = True

    def _record(self, target: int, turn: int, arrows: int) -> None:
        if turn <= self.horizon and target in self.targets and (turn < self.best.get(target, INF)
                                       or (turn == self.best[target] and arrows < self.arrows[target])):
            self.best[target] = turn
            self.arrows[target] = arrows

    def run(self) -> _TurnSearch:
        t, room = self.t, self.horizon - 1
        adjacent, cost, blue, to_blue = t.adjacent, t.cost, t.blue, t.to_blue
        trail = self.trail
        restarts: list[tuple[int, int, int, int]] = []
        heads: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
        stack: list[_Node] = [(trail.head < 0, trail.head, trail.visited, trail.used, 0, 0, 2, 0)]
        while stack:
            self.nodes += 1
            if self.nodes > self.budget:
                self.complete = False
                return self
            is_restart, head, visited, used, total, peak, leg, placed = stack.pop()
            if is_restart:
                self._restart(visited, used, total, peak, placed, restarts, stack)
                continue
            known = heads.setdefault((head, used, leg), [])
            if any(s <= total and m <= peak for s, m in known):
                continue
            known.append((total, peak))
            turn = 1 + peak
            for nxt, link in adjacent[head]:
                if used >> link & 1:
                    continue
                self._record(nxt, turn, placed + 1)
                now = used | 1 << link
                if visited >> nxt & 1:
                    if blue[nxt]:
                        stack.append((True, -1, visited, now, total - 1, peak, 0, placed + 1))
                    elif leg:  # a plain loop ends a useful leg only after a new blue square (or the first leg)
                        stack.append((True, -1, visited, now, total, peak, 0, placed + 1))
                    continue
                after = total + cost[nxt]
                if after > room or (leg == 0 and not blue[nxt] and after + to_blue[nxt] > room):
                    continue
                stack.append((False, nxt, visited | 1 << nxt, now, after, max(peak, after),
                              leg or (1 if blue[nxt] else 0), placed + 1))
        return self

    def _restart(self, visited: int, used: int, total: int, peak: int, placed: int,
                 restarts: list[tuple[int, int, int, int]], stack: list[_Node]) -> None:
        t, room = self.t, self.horizon - 1
        inner = 0
        for i, (a, b) in enumerate(t.ends):
            if visited >> a & 1 and visited >> b & 1:
                inner |= 1 << i
        farm = inner & ~used & t.blue_links
        farms = farm.bit_count()
        farmed = total - farms
        for other, other_inner, s, m in restarts:
            if (other & visited) == visited and m <= peak and \
                    s + (other_inner & ~inner & t.blue_links).bit_count() <= farmed:
                return
        restarts.append((visited, inner, farmed, peak))
        c1, f1, c2, a1, a2 = _turn_labels(visited, used, t)
        for target in self.targets:
            for y, link in t.adjacent[target]:
                if used >> link & 1:
                    continue
                first = f1[y] != link
                value = c1[y] if first else c2[y]
                if value >= INF:
                    continue
                steps = a1[y] if first else a2[y]
                if farm >> link & 1:  # a farm link into a visited target: the entry comes before the farming
                    self._record(target, 1 + max(peak, total + value), placed + steps + 1)
                else:
                    self._record(target, 1 + max(peak, farmed + value), placed + farms + steps + 1)
        now = inner | used
        placed += farms
        for r in range(t.spots):
            if not visited >> r & 1:
                continue
            for nxt, link in t.adjacent[r]:
                if visited >> nxt & 1:
                    continue
                after = farmed + t.cost[nxt]
                if after > room or (not t.blue[nxt] and after + t.to_blue[nxt] > room):
                    continue
                stack.append((False, nxt, visited | 1 << nxt, now | 1 << link, after, max(peak, after),
                              1 if t.blue[nxt] else 0, placed + 1))


def fewest_turns(expedition: Expedition, targets: Iterable[str], *, limit: Limit | None = None,
                 horizon: int = HORIZON) -> tuple[dict[str, int | None], int, int]:
    """``turns(X, t)`` for each target within ``horizon`` turns, the turn up to which a None is proven, and the
    nodes searched.

    Every value is exact; None means "more than the proven turn" (the proven turn is ``horizon`` unless the search
    ran out of nodes, or the arrows left may not suffice for the sequences found).
    """
    board = load_board()
    trail = _trail(expedition, board)
    wanted = {board.spots[k].index: k for k in targets}
    budget = limit.nodes if limit is not None and limit.nodes else TURN_NODES
    search = _TurnSearch(trail, horizon, wanted, budget).run()
    nodes, proven = search.nodes, horizon
    best, arrows = dict(search.best), dict(search.arrows)
    if not search.complete:
        # A complete shorter search is exact up to its horizon; a longer sequence found just beyond it is then
        # exact too (anything shorter was excluded), and only the rest stays unknown.
        proven = 0
        best = {i: v for i, v in search.best.items() if v == 1}
        arrows = {i: search.arrows[i] for i in best}
        for shorter in range(horizon - 1, 0, -1):
            again = _TurnSearch(trail, shorter, wanted, budget).run()
            nodes += again.nodes
            if again.complete:
                proven = shorter
                best = {i: v for i, v in search.best.items() if v == shorter + 1}
                arrows = {i: search.arrows[i] for i in best}
                best.update(again.best)
                arrows.update(again.arrows)
                break
    found: dict[str, int | None] = {}
    for i, key in wanted.items():
        value = best.get(i)
        if value is not None and arrows[i] > trail.arrows_left:
            proven = min(proven, value - 1)  # a sequence with fewer arrows might still make it in time
            value = None
        found[key] = value
    return found, proven, nodes


# -- the table --------------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Distance:
    """How far one expedition is from one location."""

    arrows: int | None
    turns: int | None

    @property
    def key(self) -> tuple[int, int]:
        """Sort key: fewest turns, then fewest arrows (unreachable last)."""
        return (self.turns if self.turns is not None else INF, self.arrows if self.arrows is not None else INF)


@dataclass(frozen=True, slots=True)
class Reach:
    """The reach table of some locations for the three expeditions.

    Attributes:
        distances: colour → location → :class:`Distance`.
        proven: colour → the turn up to which a ``turns`` of None is proven (:data:`HORIZON` unless the search ran
            out of nodes).
        nodes: search nodes spent, for the benchmark.
        doubts: colour → the locations whose ``arrows`` is only an upper bound (see :func:`arrows_and_doubts`).
    """

    distances: Mapping[Colour, Mapping[str, Distance]]
    proven: Mapping[Colour, int]
    nodes: int = 0
    doubts: Mapping[Colour, frozenset[str]] = field(default_factory=dict)

    def of(self, colour: Colour, location: str) -> Distance:
        """One entry."""
        return self.distances[colour][location]

    def first(self, location: str) -> Colour | None:
        """The expedition that gets there first (fewest turns, then arrows), or None when none can."""
        ranked = sorted(COLOURS, key=lambda c: self.of(c, location).key)
        best = self.of(ranked[0], location)
        return None if best.arrows is None else ranked[0]

    def nearest(self, location: str) -> Distance:
        """The best distance over the three expeditions."""
        colour = self.first(location)
        return Distance(None, None) if colour is None else self.of(colour, location)

    @property
    def locations(self) -> tuple[str, ...]:
        """The locations of the table."""
        return tuple(self.distances[COLOURS[0]])


def reach(position: Position, locations: Iterable[str], *, limit: Limit | None = None) -> Reach:
    """The reach table of ``locations`` (greens) in ``position``."""
    targets = list(dict.fromkeys(locations))
    distances: dict[Colour, dict[str, Distance]] = {}
    proven: dict[Colour, int] = {}
    doubts: dict[Colour, frozenset[str]] = {}
    nodes = 0
    for expedition in position.expeditions:
        arrows, doubts[expedition.colour] = arrows_and_doubts(expedition, targets)
        turns, proven[expedition.colour], spent = fewest_turns(expedition, targets, limit=limit)
        nodes += spent
        distances[expedition.colour] = {k: Distance(arrows[k], turns[k] if arrows[k] is not None else None)
                                        for k in targets}
    return Reach(distances, proven, nodes, doubts)
