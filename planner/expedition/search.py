"""The best move of a turn: an answer at once, then a proof as far as the budget goes.

:func:`best_moves` runs widening beams (:mod:`.beam`), one per ticket allowance j ≤ k, for a verified first
answer, then the exhaustive memoised search (:mod:`.worlds`, where the rules on masks, the safe prunings and the
canonical worlds are documented) in stages of j = 0, 1, ..., k tickets over one memo. A move with fewer tickets is a
move with more, and the call with k runs the beams and proof stages the call with k - 1 runs (one loop over j, not a
second call), then beam k and stage k; under node budgets those are the same worlds in both calls, so more tickets
never report fewer points. Moves are ranked by my points now, then fewest points handed to opponents
(their revealed tokens), then fewest tickets spent, then fewest arrows placed, then by the actions' text.
Exchanges are left out (they score nothing at once).
"""

from __future__ import annotations

from typing import NamedTuple

from planner.common.limits import Budget, Limit, Status, StopLike
from planner.common.values import frozen
from planner.errors import SolverError
from planner.expedition.beam import Beam, widen
from planner.expedition.notation import Action
from planner.expedition.position import Position
from planner.expedition.rules import TICKETS_PER_TURN
from planner.expedition.worlds import BOTTOM, Fast, Gain, Result, Search, World, delta, minus, plus, text_of, wins

__all__ = ["ANSWER_SECONDS", "BEAM_WORLDS", "DEFAULT_ANSWER_LIMIT", "DEFAULT_MOVE_LIMIT", "Move", "MoveSearch",
           "best_moves"]

DEFAULT_MOVE_LIMIT = Limit(time=1.0)
"""How long a move search may take by default, the answer and the attempt to prove it together."""
ANSWER_SECONDS = 0.1
"""About how long the first answer (the beams) takes by default on a typical machine."""
BEAM_WORLDS = 300
"""Worlds each beam (one per ticket count) expands by default: a count, not seconds, so that the call with k
tickets runs exactly the beams the call with k - 1 ran, plus one, and never answers fewer points; all three beams
of a 2-ticket turn take about :data:`ANSWER_SECONDS` of CPU
(median 42–71 ms by the machine, at most ~0.17 s on the benchmark: docs/expedition.md)."""
ANSWER_SAFETY = 10 * ANSWER_SECONDS
"""The default answer's clock: only a safety net on a very slow machine (when it fires the answer is cut short)."""
DEFAULT_ANSWER_LIMIT = Limit(time=ANSWER_SAFETY, nodes=BEAM_WORLDS)
"""The first answer's default budget: :data:`BEAM_WORLDS` worlds per beam, :data:`ANSWER_SAFETY` seconds in all."""
REMOVAL_BEAMS = {1: 1.0}
"""Per ticket allowance, the worlds of the removal-first beams (:func:`.beam.widen`), as a share of a node answer's:
the 1-ticket beam gets as many again (seed 2026's two 1-ticket misses start with a removal; position 20's chain of 14
actions still needs them). Not for 2 tickets: measured on seeds 2026 and 77, it gained 2 points in 80 positions for
~20 % more worlds with 2 tickets."""
BEAM_SCALE: dict[int, float] = {1: 1.5}
"""Per ticket allowance, the main beam's worlds as a multiple of a node answer's (1 when absent): the 1-ticket beam
gets 1.5 times :data:`BEAM_WORLDS` (seed 5's positions 20 and 27 need it). More for the 2-ticket beam found almost
nothing on seeds 2026, 77 and 5 (its misses need 3 to 10 times more): docs/expedition.md, helper hE."""
ALTERNATIVE_SPAN = 4
"""Alternatives are searched down to this many points below the best (deeper ones are not worth showing)."""

@frozen
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


@frozen
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


def _removal_worlds(answer: Limit, allowance: int) -> int:
    """Worlds for the removal-first beams of the beam with ``allowance`` tickets, all together (:func:`.beam.widen`):
    none under a time-only ``answer``, whose main beam widens until its share of the time is over."""
    if answer.nodes is None or allowance not in REMOVAL_BEAMS:
        return 0
    return int(answer.nodes * REMOVAL_BEAMS[allowance])


def _to_action(action: Fast) -> Action:
    return Action.from_text(text_of(action))


def best_moves(position: Position, *, tickets: int = TICKETS_PER_TURN, alternatives: int = 4,
               answer: Limit = DEFAULT_ANSWER_LIMIT, limit: Limit = DEFAULT_MOVE_LIMIT,
               stop: StopLike | None = None) -> MoveSearch:
    """The best move of this turn using at most ``tickets`` tickets, and the best moves with another first action.

    Answer, then prove: widening beams answer within ``answer`` (one per ticket count j ≤ ``tickets``, since a move
    with fewer tickets is a move with more: the answer is the best over them); the exhaustive search then runs for
    the rest of ``limit`` (counted from the start, time or nodes) in stages of j = 0..``tickets`` over one memo
    (:func:`_prove`), and its move, when the last stage finishes, is proven and replaces the beams'. A node
    ``answer`` gives each beam that many worlds times its :data:`BEAM_SCALE`, whatever ``tickets`` is (the 1-ticket
    beam 1.5 times, and :data:`REMOVAL_BEAMS` times as many for its removal-first beams), so a larger ``tickets``
    never answers fewer points (the default, :data:`DEFAULT_ANSWER_LIMIT`); its time, if any, is then only a safety
    net over all the beams (``cut_short`` when it fires). A time-only ``answer`` is shared out: beam j may run until
    (j + 1) / (tickets + 1) of it. A node ``limit`` gives the stages that many in all; with node budgets for both,
    the beams and stages for j < ``tickets`` expand the same worlds as in the call with ``tickets - 1``, so it never
    reports fewer points.

    Raises:
        ValueError: ``tickets`` is not 0, 1 or 2.
        SolverError: stopped before any legal move was found.
    """
    if not 0 <= tickets <= TICKETS_PER_TURN:
        raise ValueError(f"a turn spends 0 to {TICKETS_PER_TURN} tickets, not {tickets}")
    clock = Budget(limit, stop)
    quick, searched, proven, cut_short, exact = Beam(), 0, False, False, set()
    for spend in range(tickets + 1):
        share = Limit(time=answer.time, nodes=int(answer.nodes * BEAM_SCALE.get(spend, 1.0))) \
            if answer.nodes is not None else Limit(time=answer.time * (spend + 1) / (tickets + 1)) \
            if answer.time is not None else answer
        beam = Search(position.rules, spend, Budget(share, stop, started=clock.started))
        root = beam.root(position)
        found = widen(beam, root, beam.budget, removals=_removal_worlds(answer, spend))
        cut_short |= answer.nodes is not None and found.cut_short
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
        elif proof.best is not None and wins(proof.best, best):
            best = proof.best
    if best is None:  # stopped before any way to end the turn was found
        raise SolverError("the move search stopped before it found a legal move; allow it more time")
    moves = sorted((_move(r.path, r.gain) for r in firsts if r.gain[0] >= best.gain[0] - ALTERNATIVE_SPAN),
                   key=lambda m: (tuple(-v for v in m.value), tuple(str(a) for a in m.actions)))
    return MoveSearch(_move(best.path, best.gain), tuple(moves[:alternatives]), searched,
                      clock.status(proven=proven), tickets, clock.elapsed(), cut_short)


class _Proof(NamedTuple):
    best: Result | None
    """The proven best with the full allowance, else the best any stage found."""
    alternatives: list[Result] | None
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
    memo: dict[World, tuple[Result | None, Gain]] = {}
    best: Result | None = None
    nodes = 0
    for spend in range(tickets + 1):
        if spend in skip and spend < tickets:
            continue
        search = Search(position.rules, spend, budget, memo=memo, nodes=nodes)
        root = search.root(position)
        result = search.solve(root)
        nodes = search.nodes
        if result is not None and wins(result, best):
            best = result
        if search.stopped:
            break
        if spend == tickets and result is not None:
            return _Proof(result, _alternatives(search, root, result), search.nodes)
    return _Proof(best, None, nodes)


def _alternatives(search: Search, root: World, best: Result) -> list[Result]:
    """The best move of each other first action that can still reach within :data:`ALTERNATIVE_SPAN` of the best's
    points (from a finished exhaustive search: its memo answers most of them)."""
    found = []
    for action, after, mine, theirs in search.children(root):
        if best.path and action == best.path[0]:
            continue
        step = delta(action, mine, theirs)
        sub = search.solve(after, minus((best.gain[0] - ALTERNATIVE_SPAN, *BOTTOM[1:]), step))
        if sub is not None:
            found.append(Result(plus(sub.gain, step), (action, *sub.path), (search.text(action), *sub.texts)))
    return found


def _move(path: tuple[Fast, ...], gain: Gain) -> Move:
    return Move(tuple(_to_action(a) for a in path), gain[0], -gain[1], -gain[2], -gain[3])
