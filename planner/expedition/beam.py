"""The first answer: widening beams over the turn's canonical worlds.

A beam plays the exhaustive search's rules (the children, prunings and canonical worlds of
:class:`~planner.expedition.worlds.Search`), one action a layer. Per layer it keeps the best gain per world, skips
worlds already expanded with a gain at least as good, and keeps the ``width`` best worlds ranked by (my points +
hope, -opponents' points, credit, my points, -tickets, -arrows): credit is the arrows the turn may still place (the
mandatory one not yet placed, blue arrows and a restart pending, tickets still spendable) and hope the most points
one green within that credit would add (:func:`_hope`), so that a chain towards a card is not crowded out by worlds
that only scored sooner; a 1-ticket beam also keeps a few worlds below the cut that still hold the ticket
(:data:`BEAM_TICKET_SHARE`). A world where the turn must end is a candidate move and never takes a place in the beam;
every world where the turn may end is a candidate too. Widths grow 32, 128, 512, ... until the budget runs out or a
whole run never had to cut a layer: then every world was expanded, and the answer is exact.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from planner.common.limits import Budget
from planner.expedition.board import SpotKind, load_board
from planner.expedition.worlds import Fast, Gain, Result, Search, World, bits, delta, kind_flags, plus, wins

BEAM_FIRST_WIDTH = 32
"""The first beam's width; each next one is :data:`BEAM_GROWTH` times wider."""
BEAM_GROWTH = 4
BEAM_TICKET_SHARE = 16
"""A 1-ticket beam's layer keeps, besides its ``width`` best worlds, up to ``width // BEAM_TICKET_SHARE`` more that
still hold the ticket (the best of those below the cut): worlds that spent it and scored sooner crowd out chains
that spend it late, such as a removal after a score. Measured on the benchmark (docs/expedition.md): 1/16 fixes
the one 1-ticket miss there, 1/4 loses points elsewhere, and the same place in the 2-ticket beam loses points."""


@dataclass(slots=True)
class Beam:
    """The best end-of-turn move found, the best per first action, the worlds expanded, and whether it is exact."""

    best: Result | None = None
    firsts: dict[Fast, Result] = field(default_factory=dict)
    searched: int = 0
    exact: bool = False

    def offer(self, result: Result) -> None:
        """Keep ``result`` if it beats the best so far, overall and for its first action."""
        if wins(result, self.best):
            self.best = result
        if result.path:
            first = result.path[0]
            if wins(result, self.firsts.get(first)):
                self.firsts[first] = result


def _rank(search: Search, world: World, gain: Gain, cache: dict[int, tuple[tuple[int, int], ...]]) -> tuple[int, ...]:
    """The beam's order (higher first): see the module's docstring."""
    credit = (0 if world.mandatory else 1) + world.blue + (1 if world.restart >= 0 else 0) + \
        min(world.tickets, world.allowance)
    hope = max(_hope(search, world, colour, credit, cache) for colour in range(3)) if credit else 0
    return (gain[0] + hope, gain[1], credit, gain[0], gain[2], gain[3])


HOPE_REACH = 3
"""How many arrows ahead :func:`_hope` looks: a turn's credit rarely exceeds it."""


def _hope(search: Search, world: World, colour: int, credit: int, cache: dict[int, tuple[tuple[int, int], ...]]
          ) -> int:
    """The most my points could grow by arriving at one green that ``colour`` could reach within ``credit`` arrows
    on the map (blue squares are free: they give their arrow back; links already used are not excluded): a cheap,
    optimistic guess, only for ranking."""
    _, visited, _, head, left = world.colours[colour]
    if left <= 0:
        return 0
    best = 0
    for cost, spot in _greens_near(visited, head, cache):
        if cost > credit:
            break
        best = max(best, _worth(search, world, spot))
    return best


def _greens_near(visited: int, head: int, cache: dict[int, tuple[tuple[int, int], ...]]
                 ) -> tuple[tuple[int, int], ...]:
    """(arrows, green) of the unvisited greens within :data:`HOPE_REACH` arrows of the head (or of any visited spot
    when the colour restarts there), nearest first; cached by the origins, which siblings in a beam share."""
    key = visited if head < 0 else ~head
    known = cache.get(key)
    if known is not None:
        return known
    near = _map_near()
    best: dict[int, int] = {}
    for origin in (bits(visited) if head < 0 else (head,)):
        for cost, spot in near[origin]:
            if cost < best.get(spot, HOPE_REACH + 1) and not visited >> spot & 1:
                best[spot] = cost
    found = tuple(sorted((cost, spot) for spot, cost in best.items()))
    cache[key] = found
    return found


@functools.cache
def _map_near() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per spot, (arrows, green) of the greens within :data:`HOPE_REACH` arrows on the whole map (entering a blue
    square costs none), nearest first."""
    board = load_board()
    blue, green = kind_flags(SpotKind.BLUE), kind_flags(SpotKind.GREEN)
    near = []
    for origin in range(len(board.adjacent)):
        cost = {origin: 0}
        frontier = [origin]
        while frontier:
            following = []
            for spot in frontier:
                for to, _ in board.adjacent[spot]:
                    step = cost[spot] + (0 if blue[to] else 1)
                    if step <= HOPE_REACH and step < cost.get(to, HOPE_REACH + 1):
                        cost[to] = step
                        following.append(to)
            frontier = following
        near.append(tuple(sorted((c, t) for t, c in cost.items() if green[t] and t != origin)))
    return tuple(near)


def _worth(search: Search, world: World, spot: int) -> int:
    """My points for arriving at green ``spot`` now (as :meth:`Search.arrive` counts them)."""
    bit = 1 << spot
    points = 0
    if world.hand & bit:
        points = 4 if world.tokens & bit else 2
    elif world.tokens & bit and search.rules.orphans_recover:
        points = 2
    return points + (1 if world.common & bit else 0)


def widen(search: Search, root: World, budget: Budget, answer: Beam | None = None) -> Beam:
    """Widening beams from ``root`` until ``budget`` expires or one run is exact (``search.nodes`` counts the
    worlds expanded, shared with the budget)."""
    found = answer or Beam()
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


def _holding_the_ticket(rest: list[tuple[World, Result]], quota: int) -> list[tuple[World, Result]]:
    """The best ``quota`` worlds below a layer's cut that have not spent their ticket (allowance still 1)."""
    kept: list[tuple[World, Result]] = []
    for item in rest:
        if len(kept) >= quota:
            break
        if item[0].allowance:
            kept.append(item)
    return kept


def _run(search: Search, root: World, width: int, budget: Budget, found: Beam) -> bool | None:
    """One beam of ``width``: True if no layer was cut (exact), False if cut, None if the budget ran out."""
    expanded: dict[World, Gain] = {}
    hopes: dict[int, tuple[tuple[int, int], ...]] = {}
    layer: dict[World, Result] = {root: Result((0, 0, 0, 0), (), ())}
    cut = False
    while layer:
        following: dict[World, Result] = {}
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
                child = Result(plus(result.gain, delta(action, mine, theirs)), (*result.path, action),
                               (*result.texts, search.text(action)))
                if search.must_end(after):  # nothing left but to end: a candidate, never a place in the beam
                    found.offer(child)
                    continue
                known = following.get(after)
                if known is None or wins(child, known):
                    following[after] = child
        if len(following) > width:
            cut = True
            ranked = sorted(following.items(), key=lambda item: _rank(search, item[0], item[1].gain, hopes),
                            reverse=True)
            following = dict(ranked[:width])
            if root.allowance == 1:
                following.update(_holding_the_ticket(ranked[width:], width // BEAM_TICKET_SHARE))
        layer = following
    return not cut


