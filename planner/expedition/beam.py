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
whole run never had to cut a layer: then every world was expanded, and the answer is exact. Unless exact, a beam may
then run a widening beam of its own from each first action that spends a ticket on a removal
(:func:`_after_removals`).

A layer builds a child's :class:`Result` only for the worlds it keeps (most are cut), and the children come
canonical from :class:`Search` (no second pass): per world expanded that is about a third less CPU than before.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from planner.common.limits import Budget, Limit
from planner.expedition.board import SpotKind, load_board
from planner.expedition.worlds import Fast, Gain, Result, Search, World, bits, delta, kind_flags, text_of, wins

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
    cut_short: bool = False
    """The budget's clock (not its worlds) ended the beam."""

    def could_take(self, gain: Gain, first: Fast) -> bool:
        """Whether a result with ``gain`` and this first action could be kept (a cheap test before building it)."""
        best, known = self.best, self.firsts.get(first)
        return best is None or known is None or gain >= best.gain or gain >= known.gain

    def offer(self, result: Result) -> None:
        """Keep ``result`` if it beats the best so far, overall and for its first action."""
        if wins(result, self.best):
            self.best = result
        if result.path:
            first = result.path[0]
            if wins(result, self.firsts.get(first)):
                self.firsts[first] = result


def _rank(search: Search, world: World, gain: Gain, cache: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """The beam's order (higher first): see the module's docstring."""
    credit = (0 if world.mandatory else 1) + world.blue + (1 if world.restart >= 0 else 0) + \
        min(world.tickets, world.allowance)
    hope = _hope(search, world, credit, cache) if credit else 0
    return (gain[0] + hope, gain[1], credit, gain[0], gain[2], gain[3])


HOPE_REACH = 3
"""How many arrows ahead :func:`_hope` looks: a turn's credit rarely exceeds it."""


def _hope(search: Search, world: World, credit: int, cache: dict[int, tuple[int, ...]]) -> int:
    """The most my points could grow by arriving at one green that a colour could reach within ``credit`` arrows
    (at most :data:`HOPE_REACH`) on the map (blue squares are free: they give their arrow back; links already used
    are not excluded): a cheap, optimistic guess, only for ranking. On masks: a green is worth 4 (my card and my
    token), 2 (my card, or a token recovered) and 1 more as a common objective, as :meth:`Search.arrive` counts it.

    With a ticket to spend, a colour may also first remove its last arrow: its head goes back to that arrow's start
    (a blue one gives its arrow back) or, for an arrow that started a leg, the colour restarts from any spot it
    visited (one arrow more), within the credit less the ticket. Why: a removal's gain often comes a chain later
    (seed 77 positions 6 and 12, seed 5 position 7, 2 tickets: the world before the removal ranked below the
    cut)."""
    reach = min(credit, HOPE_REACH)
    hand, tokens, common = world.hand, world.tokens, world.common
    four = hand & tokens
    two = hand & ~tokens | (tokens & ~hand if search.rules.orphans_recover else 0)
    removal = world.restart < 0 and min(world.tickets, world.allowance) > 0
    blue = search.blue
    best = 0
    for arrows, visited, _, head, left in world.colours:
        if left > 0:
            worth = _worth(_greens_within(visited, head, cache)[reach], four, two, common)
            if worth > best:
                best = worth
        if removal and head >= 0 and arrows:
            frm, _, _, leg_start = arrows[-1]
            back = min(credit - 1 + blue[frm] + leg_start, HOPE_REACH)
            if back > 0:
                worth = _worth(_greens_within(visited, -1 if leg_start else frm, cache)[back], four, two, common)
                if worth > best:
                    best = worth
    return best


def _worth(near: int, four: int, two: int, common: int) -> int:
    """What arriving at the best green of ``near`` adds at most (see :func:`_hope`)."""
    if near & four:
        return 5 if near & four & common else 4
    if near & two:
        return 3 if near & two & common else 2
    return 1 if near & common else 0


def _greens_within(visited: int, head: int, cache: dict[int, tuple[int, ...]]) -> tuple[int, ...]:
    """Per number of arrows 0..:data:`HOPE_REACH`, the mask of the unvisited greens within it of the head (or of
    any visited spot when the colour restarts there); cached by the origins, which siblings in a beam share."""
    key = visited if head < 0 else ~head
    known = cache.get(key)
    if known is not None:
        return known
    masks = _map_masks()
    found = [0] * (HOPE_REACH + 1)
    for origin in (bits(visited) if head < 0 else (head,)):
        for cost, mask in enumerate(masks[origin]):
            found[cost] |= mask
    within = tuple(mask & ~visited for mask in found)
    cache[key] = within
    return within


@functools.cache
def _map_masks() -> tuple[tuple[int, ...], ...]:
    """Per spot, per number of arrows 0..:data:`HOPE_REACH`, the mask of the other greens within it on the whole
    map (entering a blue square costs none)."""
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
        near.append(tuple(functools.reduce(int.__or__, (1 << t for t, c in cost.items()
                                                        if green[t] and t != origin and c <= reach), 0)
                          for reach in range(HOPE_REACH + 1)))
    return tuple(near)


def widen(search: Search, root: World, budget: Budget, *, removals: int = 0) -> Beam:
    """Widening beams from ``root`` until ``budget`` expires or one run is exact (``search.nodes`` counts the
    worlds expanded, shared with the budget); then, unless exact, a widening beam from each first action that
    spends a ticket on a removal, ``removals`` more worlds for all of them (:func:`_after_removals`)."""
    found = Beam()
    if _widen(search, root, Result((0, 0, 0, 0), (), ()), budget, found):
        found.exact = True
    elif removals and not budget.out_of_time() and not budget.stopped:
        _after_removals(search, root, budget, found, removals)
    found.searched = search.nodes
    return found


def _widen(search: Search, root: World, start: Result, budget: Budget, found: Beam) -> bool:
    """Widening runs from ``root`` (reached by ``start``) into ``found`` until ``budget`` expires: whether one
    was exact."""
    width = BEAM_FIRST_WIDTH
    while not budget.expired(search.nodes):
        exact = _run(search, root, start, width, budget, found)
        if exact is None:  # out of budget in the middle of the run
            break
        if exact:
            return True
        width *= BEAM_GROWTH
    nodes = budget.limit.nodes
    found.cut_short |= budget.out_of_time() and (nodes is None or search.nodes <= nodes)
    return False


def _after_removals(search: Search, root: World, budget: Budget, found: Beam, worlds: int) -> None:
    """A widening beam from each first action that removes an arrow with a ticket, colour by colour, all of them
    within ``worlds`` more worlds (a removal's beam that ends exact leaves the rest to the next).

    Why: a removal at once changes a colour's head for the whole turn, but what it buys (points at the old head's
    neighbours) often comes only after a chain of blue squares and restarts elsewhere, and in the main beam the
    worlds that spent the ticket otherwise and scored sooner crowd such a chain out; its own beam, with one ticket
    less to spend, keeps it (benchmark seed 2026, positions 20 and 31: found within 300 more worlds, where the
    main beam alone needs ~2,000 and ~450).
    """
    own = Budget(Limit(time=budget.limit.time, nodes=search.nodes + worlds), budget.stop, started=budget.started)
    for action, after, mine, theirs in search.children(root):
        if action[0] != 1 or search.must_end(after):
            continue
        _widen(search, after, Result(delta(action, mine, theirs), (action,), (text_of(action),)), own, found)
        if own.out_of_time() or own.stopped:
            return


Child = tuple[Gain, Result, Fast, str]
"""A world's best way in a layer, not yet built into a :class:`Result` (most are cut): (gain, the parent's result,
the action, its text)."""


def _holding_the_ticket(rest: list[tuple[World, Child]], quota: int) -> list[tuple[World, Child]]:
    """The best ``quota`` worlds below a layer's cut that have not spent their ticket (allowance still 1)."""
    kept: list[tuple[World, Child]] = []
    for item in rest:
        if len(kept) >= quota:
            break
        if item[0].allowance:
            kept.append(item)
    return kept


def _built(child: Child) -> Result:
    gain, parent, action, text = child
    return Result(gain, (*parent.path, action), (*parent.texts, text))


def _run(search: Search, root: World, start: Result, width: int, budget: Budget, found: Beam) -> bool | None:
    """One beam of ``width`` from ``root`` (reached by ``start``): True if no layer was cut (exact), False if cut,
    None if the budget ran out."""
    expanded: dict[World, Gain] = {}
    hopes: dict[int, tuple[int, ...]] = {}
    layer: dict[World, Result] = {root: start}
    cut = False
    must_end = search.must_end
    while layer:
        # every world of a layer is as many actions deep, so comparing (parent's texts, text) orders children as
        # their whole texts would (the tie-break of :func:`wins`)
        following: dict[World, Child] = {}
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
            mine0, theirs0, tickets0, arrows0 = result.gain
            texts = result.texts
            for action, after, mine, theirs in search.children(world):
                gain = (mine0 + mine, theirs0 - theirs, tickets0 - 1 if action[4] else tickets0,
                        arrows0 - 1 if action[0] == 0 else arrows0)
                text = text_of(action)
                if must_end(after):  # nothing left but to end: a candidate, never a place in the beam
                    if found.could_take(gain, result.path[0] if result.path else action):
                        found.offer(Result(gain, (*result.path, action), (*texts, text)))
                    continue
                known = following.get(after)
                if known is None or gain > known[0] or (gain == known[0] and (texts, text) < (known[1].texts,
                                                                                             known[3])):
                    following[after] = (gain, result, action, text)
        ranked = list(following.items())
        if len(ranked) > width:
            cut = True
            ranked.sort(key=lambda item: _rank(search, item[0], item[1][0], hopes), reverse=True)
            kept = ranked[:width]
            if root.allowance == 1:
                kept += _holding_the_ticket(ranked[width:], width // BEAM_TICKET_SHARE)
            ranked = kept
        layer = {world: _built(child) for world, child in ranked}
    return not cut
