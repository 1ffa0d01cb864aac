"""The reach table: how many arrows and how many turns each expedition needs to arrive at a location.

For one expedition X moving alone, without tickets (EXPEDITION.md, "Notions the assistant needs"):

- ``arrows(X, t)``: the fewest arrows until one *enters* t (re-entering a visited green counts), loops and restarts
  allowed, never reusing a link of X. Exact and without a budget (:func:`fewest_arrows`): the better of a trail from
  the origin and the shortest *lasso* from the head (a path through new spots closing onto a visited spot) followed
  by a trail from the spots visited now.
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

The search is budgeted in nodes (the same answer on every machine) only as a safety net: 2 turns (the spec's
horizon) finish far within it on the benchmark's positions. Should it run out, a 1-turn search follows: values are
then exact up to 1 turn, a 2 is still exact, and only ``None`` may hide a 2; :attr:`Reach.proven` says up to which
turn a ``None`` is proven.

Each expedition's row is cached by its arrows (and the targets): a move changes one or two colours, so the reach
change of a move and of each alternative recomputes only those.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from planner.common.limits import Limit
from planner.common.values import frozen
from planner.expedition.board import START, Board, SpotKind, load_board
from planner.expedition.position import Expedition, Mode, Position
from planner.expedition.rules import COLOURS, Colour

__all__ = ["HORIZON", "TURN_NODES", "Distance", "Reach", "Tables", "clear_cache", "fewest_arrows", "fewest_turns",
           "reach", "tables"]

HORIZON = 2
"""Turns searched exactly (this turn and the next: the spec's horizon)."""
TURN_NODES = 2_000
"""Default node budget of one expedition's turn search (a safety net; 2 turns need far fewer)."""
INF = 1 << 30
_DOMINANCE_WINDOW = 64
"""Restart states compared with a new one (the latest; pruning 3 is optional, so a shorter scan stays exact)."""


@frozen
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


@frozen
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
def _distances(sources: int, used: int, t: Tables) -> list[int]:
    """Breadth-first arrows from the set ``sources`` to every spot, in the map without the ``used`` links."""
    dist = [INF] * t.spots
    queue: deque[int] = deque()
    for i in range(t.spots):
        if sources >> i & 1:
            dist[i] = 0
            queue.append(i)
    adjacent = t.adjacent
    while queue:
        s = queue.popleft()
        step = dist[s] + 1
        for nxt, link in adjacent[s]:
            if step < dist[nxt] and not used >> link & 1:
                dist[nxt] = step
                queue.append(nxt)
    return dist


def _entries(target: int, sources: int, dist: list[int], used: int, t: Tables) -> dict[int, int]:
    """``D(S→target)`` by the link entering it: for a target outside ``sources`` one value under key -1; for one
    inside, a closed trail: per unused link ``y–target``, a path from ``sources`` to ``y`` avoiding that link, then
    the arrow across it (``dist`` is :func:`_distances` of ``sources``)."""
    if not sources >> target & 1:
        return {-1: dist[target]} if dist[target] < INF else {}
    found = {}
    for y, link in t.adjacent[target]:
        if used >> link & 1:
            continue
        value = dist[y]
        # dist[y] == 1 may be the arrow target→y itself; every other shortest path to y avoids that link (a path
        # through the source target would be longer than 1)
        if value == 1 and not any(z != target and sources >> z & 1 and not used >> k & 1 for z, k in t.adjacent[y]):
            value = _distances(sources, used | 1 << link, t)[y]
        if value < INF:
            found[link] = value + 1
    return found


def _lassos(head: int, visited: int, used: int, t: Tables, limit: int, *, by_first: bool) -> dict[int, int]:
    """Lengths of the shortest lassos from ``head``: paths through new spots whose last arrow enters a visited spot
    (one of ``visited``, the head by another link, or one of the path's own spots). Key -1: the shortest overall;
    with ``by_first`` also the shortest per first link. Only lengths up to ``limit`` are looked for.

    Paths grow a layer at a time and stop at their first closing arrow; a layer holds each simple path once, so the
    search ends (two paths to one spot make a lasso of at most twice their length, which bounds the layers).
    """
    found: dict[int, int] = {}
    layer = [(head, used, visited, -1)]
    length = 0
    while layer and length < limit:
        length += 1
        following = []
        for spot, now, seen, first in layer:
            if first in found:
                continue
            for nxt, link in t.adjacent[spot]:
                if now >> link & 1:
                    continue
                key = link if first < 0 else first
                if seen >> nxt & 1:
                    found.setdefault(key, length)
                    found.setdefault(-1, length)
                elif key not in found:
                    following.append((nxt, now | 1 << link, seen | 1 << nxt, key))
        if not by_first and -1 in found:
            break
        layer = [p for p in following if p[3] not in found]
    return found


def fewest_arrows(expedition: Expedition, targets: Iterable[str]) -> dict[str, int | None]:
    """``arrows(X, t)`` for each target: the fewest arrows until one enters it, None when impossible or more than the
    arrows left. Exact, with no budget.

    With used links U, visited spots V and head h, ``D(S→t)`` is the breadth-first distance from the set S in the
    map without U (a target inside S needs a closed trail) and L the shortest lasso from h (:func:`_lassos`). Then
    ``arrows = min(D({h}→t), L + D(V→t))`` with a free head, ``D(V→t)`` once looped. By the spec's lemma a best
    sequence restarts at most once, at a spot visited now; a trail after the restart that touched the lasso could
    leave it there instead and be no longer, so it never needs to avoid the lasso's links, except to re-enter h: it
    may not come back by the lasso's first link.
    """
    board = load_board()
    t = tables()
    trail = _trail(expedition, board)
    wanted = {board.spots[k].index: k for k in targets}
    best = dict.fromkeys(wanted, INF)
    looped = trail.head < 0
    origin = trail.visited if looped else 1 << trail.head
    direct = _distances(origin, trail.used, t)
    for i in wanted:
        best[i] = min(_entries(i, origin, direct, trail.used, t).values(), default=INF)
    if not looped and trail.visited != origin:  # a lasso then a restart from a visited spot
        lassos = _lassos(trail.head, trail.visited, trail.used, t, trail.arrows_left, by_first=trail.head in wanted)
        if -1 in lassos:
            after = _distances(trail.visited, trail.used, t)
            for i in wanted:
                entries = _entries(i, trail.visited, after, trail.used, t)
                if i == trail.head:
                    value = min((lassos[f] + v for f in lassos if f >= 0 for k, v in entries.items() if k != f),
                                default=INF)
                else:
                    value = lassos[-1] + min(entries.values(), default=INF)
                best[i] = min(best[i], value)
    return {wanted[i]: (v if v <= trail.arrows_left else None) for i, v in best.items()}


# -- turns ----------------------------------------------------------------------------------------------------------
def _turn_labels(visited: int, used: int, t: Tables, cap: int
                 ) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """Per spot the two cheapest costs up to ``cap`` of standing there after a restart (new spots only, a new
    non-blue spot costs 1), with distinct first links, and the arrows of each way: (cost, first link, second cost,
    arrows, second arrows). Costs above ``cap`` stay INF: costs never fall along a way, so no label within ``cap``
    rests on one above it, and the caller can use none above it (the horizon)."""
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
            if w > cap:
                continue
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
        for other, other_inner, s, m in restarts[-_DOMINANCE_WINDOW:]:
            if (other & visited) == visited and m <= peak and \
                    s + (other_inner & ~inner & t.blue_links).bit_count() <= farmed:
                return
        restarts.append((visited, inner, farmed, peak))
        c1, f1, c2, a1, a2 = _turn_labels(visited, used, t, room - farmed)  # _record keeps only turns in the horizon
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
@frozen
class Distance:
    """How far one expedition is from one location."""

    arrows: int | None
    turns: int | None

    @property
    def key(self) -> tuple[int, int]:
        """Sort key: fewest turns, then fewest arrows (unreachable last)."""
        return (self.turns if self.turns is not None else INF, self.arrows if self.arrows is not None else INF)


@frozen
class Reach:
    """The reach table of some locations for the three expeditions.

    Attributes:
        distances: colour → location → :class:`Distance`.
        proven: colour → the turn up to which a ``turns`` of None is proven (:data:`HORIZON` unless the search ran
            out of nodes).
        nodes: search nodes spent, for the benchmark (0 for a row found in the cache).
    """

    distances: Mapping[Colour, Mapping[str, Distance]]
    proven: Mapping[Colour, int]
    nodes: int = 0

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
    targets = tuple(dict.fromkeys(locations))
    budget = limit.nodes if limit is not None and limit.nodes else TURN_NODES
    distances: dict[Colour, dict[str, Distance]] = {}
    proven: dict[Colour, int] = {}
    nodes = 0
    for expedition in position.expeditions:
        hits = _row.cache_info().hits
        distances[expedition.colour], proven[expedition.colour], spent = _row(expedition.legs, targets, budget)
        nodes += spent if _row.cache_info().hits == hits else 0
    return Reach(distances, proven, nodes)


@functools.lru_cache(maxsize=2048)
def _row(legs: tuple[tuple[str, ...], ...], targets: tuple[str, ...], budget: int
         ) -> tuple[dict[str, Distance], int, int]:
    """One expedition's row (its colour does not matter): distances, the turn up to which a None is proven, nodes."""
    expedition = Expedition(COLOURS[0], legs)
    arrows = fewest_arrows(expedition, targets)
    turns, proven, spent = fewest_turns(expedition, targets, limit=Limit(nodes=budget))
    return {k: Distance(arrows[k], turns[k] if arrows[k] is not None else None) for k in targets}, proven, spent


def clear_cache() -> None:
    """Forget the cached rows (the benchmark times cold tables)."""
    _row.cache_clear()
