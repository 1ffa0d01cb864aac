"""Seeded puzzles for the trainer: a position, its proven answer (or the stated set of equally good answers),
the lessons every best route needs, and a difficulty measured, not guessed.

A puzzle is built by drawing candidates from the seed (a start town, counters on the roads around it, a hand
biased towards the theme: rafts for the water themes, obstacles, the last round with a home town) and keeping
the first that

- has a best route worth finding (at least two new towns);
- has at most :data:`MAX_ANSWERS` answers (towns collected, end town) that reach the best score for the fewest
  cards, every one listed: the exhaustive atlas (:mod:`.atlas`) finds them all;
- needs the theme's lesson in *every* best route (:mod:`.features`: the best route avoiding it is worse);
- measures the asked difficulty (:class:`Measures`).

The same seed, theme and difficulty give the same puzzle on any machine: every choice comes from one
:class:`random.Random` seeded with them, and the solver effort is counted in search nodes, not seconds.
"""

from __future__ import annotations

import math
import random

from planner.common.limits import Limit
from planner.common.values import frozen
from planner.elfenland.board import CAPITAL, load_board
from planner.elfenland.plan import Plan
from planner.elfenland.position import Hand, Position, Tile
from planner.elfenland.rules import COUNTER_TRANSPORTS, COUNTERS, DECK, TRANSPORTS, Transport, can_carry
from planner.elfenland.solvers import solve
from planner.elfenland.teach.atlas import explore
from planner.elfenland.teach.features import Lesson, needed_lessons
from planner.elfenland.teach.themes import DIFFICULTIES, THEMES
from planner.errors import NotationError, SolverError, UnsupportedError

__all__ = ["DIFFICULTIES", "MAX_ANSWERS", "THEMES", "Answer", "Measures", "Puzzle", "generate", "puzzle_name"]

MAX_ANSWERS = 3
"""Most equally good answers a puzzle may have (all are stated)."""
#: Points where difficulties 2, 3, 4 and 5 begin (see :attr:`Measures.points`).
LEVELS = (4.5, 6.0, 7.5, 9.0)
MAX_ATTEMPTS = 3000
"""Candidates drawn before giving up on a (seed, theme, difficulty); never reached in the benchmark."""
PUZZLE_LABELS = 5_000
"""Most labels a candidate's atlas may take (a tenth of a second or so; difficulty 5 puzzles take a few hundred to
a thousand): a bigger one is not a puzzle to prove quickly."""
PUZZLE_NODES = 200_000
"""Most search nodes a candidate's proof may take (difficulty 5 puzzles take a few hundred)."""

#: Hand sizes and how far from the start counters lie (links), per difficulty.
_HAND = {1: (3, 5), 2: (4, 7), 3: (5, 8), 4: (7, 10), 5: (8, 11)}
_RADIUS = {1: 2, 2: 2, 3: 3, 4: 3, 5: 4}
_GROW = 3
"""Most cards the size of a candidate's hand moves away from its difficulty's range."""
_DEAD_ENDS = ("KIH", "ERG", "BEA", "JAC")
"""Towns with three links or fewer: where a route may have to come back."""
_RIVER_TOWNS = ("ELV", "RIV", "TIC", "JXA", "MAH", "GRA", "USS")
"""Towns a river leaves upstream from (its sources, Beata, Virst and Wylhien, have only downstream ways)."""
_LAKE_TOWNS = ("ELV", "STR", "VIR", "GRA", "YTT", "PAR")


@frozen
class Measures:
    """What makes a puzzle hard, each counted (see :meth:`level` for how they add up).

    Attributes:
        steps: steps of the best route.
        near: other answers that score as many points for more cards (the routes a player may settle for).
        lessons: lessons every best route needs (a caravan, an upstream raft, a ferry, ...) besides the theme's
            own: the theme is what the puzzle is about, so its lesson is expected, not extra work.
        nodes: search nodes the exact search needed to prove the best route.
    """

    steps: int
    near: int
    lessons: int
    nodes: int

    @property
    def points(self) -> float:
        """Steps + 0.5 per near-best answer (at most 8) + 1 per lesson + 0.5 per doubling of the search's nodes
        beyond 32."""
        return self.steps + 0.5 * min(self.near, 8) + self.lessons + 0.5 * max(0.0, math.log2(max(self.nodes, 1)) - 5)

    @property
    def level(self) -> int:
        """The difficulty 1..5 the points fall in: below 4.5, 6, 7.5, 9, and the rest."""
        return 1 + sum(self.points >= limit for limit in LEVELS)


@frozen
class Answer:
    """One best answer: the towns it collects, where it ends, and a route that does it."""

    towns: frozenset[str]
    end: str
    plan: Plan


@frozen
class Puzzle:
    """A puzzle and everything proven about it."""

    seed: int
    theme: str
    difficulty: int
    position: Position
    answers: tuple[Answer, ...]
    """Every answer with the best score for the fewest cards (one when the answer is unique)."""
    lessons: tuple[Lesson, ...]
    """What every best route needs, each with its proof (the theme's lesson among them, unless the theme is
    ``any``)."""
    measures: Measures
    attempts: int
    """Candidates drawn before this one fitted."""

    @property
    def best(self) -> Plan:
        """The first answer's route."""
        return self.answers[0].plan

    @property
    def score(self) -> int:
        """The best score."""
        return self.best.score

    @property
    def cards(self) -> int:
        """The fewest cards for the best score."""
        return self.best.cards_spent

    @property
    def unique(self) -> bool:
        """Whether exactly one answer (towns collected, end town) reaches the best."""
        return len(self.answers) == 1

    @property
    def lesson_names(self) -> tuple[str, ...]:
        """The names of :attr:`lessons`."""
        return tuple(lesson.name for lesson in self.lessons)

    @property
    def name(self) -> str:
        """``caravan-2-17``: theme, difficulty, seed (what ``--theme``, ``--difficulty`` and ``--seed`` ask)."""
        return puzzle_name(self.seed, self.theme, self.difficulty)


def puzzle_name(seed: int, theme: str, difficulty: int) -> str:
    """The name of the puzzle of ``seed``, ``theme`` and ``difficulty``, known before it is generated."""
    return f"{theme}-{difficulty}-{seed}"


def generate(seed: int, *, theme: str = "any", difficulty: int = 2) -> Puzzle:
    """The puzzle of ``seed``, ``theme`` and ``difficulty`` (the same on any machine).

    Raises:
        NotationError: an unknown theme or a difficulty outside 1..5.
        SolverError: no candidate fitted within :data:`MAX_ATTEMPTS` (never seen), or the atlas and the search
            disagree (a bug).
    """
    if theme not in THEMES:
        raise NotationError(f"unknown theme {theme!r}; choose one of {', '.join(THEMES)}", kind="bad-theme",
                            value=theme)
    if isinstance(difficulty, bool) or difficulty not in DIFFICULTIES:
        raise NotationError(f"difficulty {difficulty!r} must be 1 to 5", kind="bad-difficulty", value=str(difficulty))
    rng = random.Random(f"elfenland-puzzle/{seed}/{theme}/{difficulty}")
    # Bigger hands and boards make harder puzzles, but how much harder depends on the theme: the size follows
    # what the candidates measure (one card more after an easier one, one less after a harder one).
    grow = 0
    for attempt in range(1, MAX_ATTEMPTS + 1):
        shape = theme if theme != "any" else rng.choice(THEMES[:-1])
        position = _candidate(rng, shape, difficulty, grow)
        verdict = _judge(position, seed=seed, theme=theme, difficulty=difficulty, attempt=attempt)
        if isinstance(verdict, Puzzle):
            return verdict
        if verdict is not None:
            grow = max(-_GROW, min(_GROW, grow + (1 if verdict < difficulty else -1)))
    raise SolverError(f"no {theme} puzzle of difficulty {difficulty} found for seed {seed} in {MAX_ATTEMPTS} "
                      "candidates")


def _judge(position: Position, *, seed: int, theme: str, difficulty: int, attempt: int) -> Puzzle | int | None:
    """The candidate as a puzzle if it fits (see the module docstring); else the difficulty it measured, when
    that was the only misfit (too few towns counts as too easy), or None."""
    try:
        atlas = explore(position, max_labels=PUZZLE_LABELS)
    except UnsupportedError:
        return None  # too many routes to list: not a puzzle we can prove
    answers = atlas.answers()
    best = atlas.plan(answers[0])
    if len(best.new_towns) < 2:
        return 0
    if len(answers) > MAX_ANSWERS:
        return None
    near = sum(1 for e in atlas.entries.values() if e.score == best.score and e.value != atlas.best)
    if theme != "any" and (theme == "home") != position.scores_home:
        return None
    rough = Measures(len(best.steps), near, 0, 1)
    if rough.level > difficulty:  # lessons and nodes only add points
        return rough.level
    try:
        lessons = needed_lessons(atlas, max_labels=PUZZLE_LABELS)
    except UnsupportedError:
        return None
    names = [lesson.name for lesson in lessons]
    if theme != "any" and theme not in names:
        return None
    searched = solve(position, solver="search", limit=Limit(nodes=PUZZLE_NODES))
    if not searched.proven:
        return None  # the effort is not measured; such a puzzle is far beyond difficulty 5 anyway
    if searched.plan.value != atlas.best:
        raise SolverError(f"the atlas and the search disagree on {position}: {atlas.best} against "
                          f"{searched.plan.value}")
    extra = len([name for name in names if name != theme])
    measures = Measures(len(best.steps), near, extra, int(searched.stats.get("nodes", 0)))
    if measures.level != difficulty:
        return measures.level
    titled = position.replace(title=f"Puzzle {theme}-{difficulty}-{seed}")
    found = tuple(Answer(e.towns, e.end, Plan.of(titled, atlas.plan(e).steps, proven=True, solver="atlas"))
                  for e in answers)
    return Puzzle(seed, theme, difficulty, titled, found, lessons, measures, attempt)


def _candidate(rng: random.Random, shape: str, difficulty: int, grow: int = 0) -> Position:
    """A random legal position shaped for a theme: counters around the start, a hand, perhaps the last round;
    ``grow`` adds cards to the hand (and, from 2 on, a link to the counters' reach)."""
    board = load_board()
    if shape == "upstream":
        start = rng.choice(_RIVER_TOWNS)
    elif shape == "ferry":
        start = rng.choice(_LAKE_TOWNS)
    else:
        start = rng.choice([c for c in board.towns if c != CAPITAL])
    near = _around(start, _RADIUS[difficulty] + (grow >= 2) - (grow <= -2))
    roads = [c for c in board.roads if c.a in near and c.b in near]
    rng.shuffle(roads)
    if shape == "backtrack" and rng.random() < 0.7:
        # Start beside a town with few links, its road first in line for a counter: the way in is the way out.
        dead_end = rng.choice(_DEAD_ENDS)
        way_in = rng.choice([c for c in board.links(dead_end) if c.is_road])
        start = way_in.other(dead_end)
        near = _around(start, _RADIUS[difficulty] + (grow >= 2) - (grow <= -2))
        roads = [way_in] + [c for c in board.roads if c.a in near and c.b in near and c is not way_in]
        rng.shuffle(roads[1:])
    stock = dict(COUNTERS)
    tiles: list[Tile] = []
    for road in roads[: max(2, round(len(roads) * rng.uniform(0.5, 0.85)))]:
        fits = [t for t in COUNTER_TRANSPORTS if stock[t] and can_carry(t, road.terrain)]
        transport = rng.choice(fits)
        stock[transport] -= 1
        tiles.append(Tile(road.id, transport))
    obstacles = rng.randint(1, 2) if shape == "obstacle" else (1 if rng.random() < 0.15 else 0)
    # An obstacle matters most on the roads out of the start (every route takes one of them).
    first = [i for i, t in enumerate(tiles) if start in t.road] if shape == "obstacle" else []
    for i in rng.sample(first or range(len(tiles)), min(obstacles, len(first or tiles))):
        tiles[i] = Tile(tiles[i].road, tiles[i].transport, True)
    low, high = _HAND[difficulty]
    size = max(2, rng.randint(low, high) + grow)
    on_board = sorted({t.transport for t in tiles if t.transport is not None}, key=TRANSPORTS.index)
    rafts = rng.randint(2, 3) if shape in ("upstream", "ferry") else (rng.randint(0, 2) if rng.random() < 0.3 else 0)
    cards: list[Transport] = [Transport.RAFT] * min(rafts, size)
    while len(cards) < size:
        pool = on_board if on_board and rng.random() < 0.7 else list(TRANSPORTS)
        card = rng.choice(pool)
        if cards.count(card) < DECK[card]:
            cards.append(card)
    visited = frozenset(rng.sample(sorted(near - {start, CAPITAL}), rng.randint(0, min(2, len(near) - 2))))
    round_, home = 1, None
    if shape == "home":
        round_ = 4
        homes = [c for c, t in board.towns.items() if t.home_card and 1 <= board.distance(start, c) <= 3]
        home = rng.choice(homes)
    return Position(at=start, hand=Hand.of(cards), tiles=tuple(tiles), visited=visited, home=home,
                    round=round_).check()


def _around(start: str, radius: int) -> set[str]:
    """The towns within ``radius`` links of ``start``."""
    board = load_board()
    return {c for c in board.towns if board.distance(start, c) <= radius}
