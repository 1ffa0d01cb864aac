"""The puzzle trainer as a session: puzzles one after another, answers heard and graded, the score file kept.

The session holds no terminal: it hears a line of text and answers a :class:`Reply` (a grade, a hint, help),
so the command line's loop, a test and a web page drive it alike. What a line may be:

- a route in the step notation (``feo/rrrr alb/d``): graded. A legal route ends the puzzle and counts (the
  streak goes on only with an optimal one); an illegal one is explained and may be tried again, uncounted, and so
  may a line that does not parse;
- ``hint``: what to aim for (points and cards) and the lessons in play;
- ``skip``: shows the answer, counts as not solved;
- ``stats``, ``help``, ``quit`` (or end of input).
"""

from __future__ import annotations

import enum
from pathlib import Path

from planner.common.i18n import N_, gettext, say
from planner.common.limits import Limit
from planner.common.values import frozen
from planner.elfenland.solvers import DEFAULT_LIMIT
from planner.elfenland.teach.grade import Grade, Verdict, grade
from planner.elfenland.teach.lesson import THEME_WORDS
from planner.elfenland.teach.puzzles import Puzzle, generate, puzzle_name
from planner.elfenland.teach.scores import FileState, Loaded, Scores, load_scores, save_scores, score_path
from planner.elfenland.teach.words import count, listing

__all__ = ["COMMANDS", "Command", "Reply", "Trainer"]


class Command(enum.StrEnum):
    """What a line said."""

    ROUTE = "route"
    HINT = "hint"
    SKIP = "skip"
    STATS = "stats"
    HELP = "help"
    QUIT = "quit"
    NOTHING = "nothing"


#: The words for each command (anything else is read as a route).
COMMANDS: dict[str, Command] = {
    "hint": Command.HINT, "skip": Command.SKIP, "give up": Command.SKIP, "show": Command.SKIP,
    "stats": Command.STATS, "score": Command.STATS, "scores": Command.STATS, "help": Command.HELP,
    "?": Command.HELP, "quit": Command.QUIT, "q": Command.QUIT, "exit": Command.QUIT,
}

HELP = N_("Type your route as TOWN/CARDS steps, e.g. 'thr/E jac/D' (TOWN:r/R takes the river beside a road; "
          "'-' stays put). Or: hint, skip, stats, quit.")
"""The trainer's help, translated on use (the commands stay as they are typed: hint, skip, stats, quit)."""
NOT_COUNTED = N_("(not counted: try again, or type hint or skip)")


@frozen
class Reply:
    """What the trainer answers to one line."""

    command: Command
    message: str
    grade: Grade | None = None
    finished: bool = False
    """Whether the puzzle is over (graded or skipped): show the answer, then go on."""


class Trainer:
    """A session of seeded puzzles: puzzle ``i`` has seed ``seed + i`` and the ``i``-th theme and difficulty
    (cycling through those given).

    Args:
        seed: the first puzzle's seed.
        themes: themes to cycle through.
        difficulties: difficulties to cycle through.
        scores: where the score file is (None: the user's data directory, see :func:`score_path`).
        record: whether to update the score file (it is read either way, unless ``record`` is False; a file that
            is not a score file is never written, and ``record`` then turns False: see
            :mod:`~planner.elfenland.teach.scores`).

    Raises:
        UnsupportedError: the score file's path is a folder, a FIFO or a device.
    """

    def __init__(self, *, seed: int, themes: tuple[str, ...] = ("any",), difficulties: tuple[int, ...] = (2,),
                 scores: str | Path | None = None, record: bool = True, limit: Limit = DEFAULT_LIMIT) -> None:
        self.seed = seed
        self.themes = themes or ("any",)
        self.difficulties = difficulties or (2,)
        self.path = score_path(scores)
        self.limit = limit
        loaded = load_scores(self.path, own_folder=scores is None) if record else Loaded(Scores(), FileState.FRESH)
        self.scores, self.warning = loaded.scores, loaded.warning
        self.record = record and loaded.writable
        self._set_aside = loaded.state is FileState.DAMAGED
        self.index = 0
        self._puzzle: Puzzle | None = None

    @property
    def puzzle(self) -> Puzzle:
        """The current puzzle (generated on first look).

        Raises:
            NotationError: an unknown theme or a bad difficulty.
        """
        if self._puzzle is None:
            seed, theme, difficulty = self._choice(self.index)
            self._puzzle = generate(seed, theme=theme, difficulty=difficulty)
        return self._puzzle

    def names(self, count: int) -> list[str]:
        """The names of the current puzzle and the ``count - 1`` after it, without generating them."""
        return [puzzle_name(*self._choice(i)) for i in range(self.index, self.index + count)]

    def _choice(self, index: int) -> tuple[int, str, int]:
        """The seed, theme and difficulty of puzzle ``index`` (0: the first)."""
        return (self.seed + index, self.themes[index % len(self.themes)],
                self.difficulties[index % len(self.difficulties)])

    def next(self) -> Puzzle:
        """Go on to the next puzzle."""
        self.index += 1
        self._puzzle = None
        return self.puzzle

    def hear(self, line: str) -> Reply:
        """Answer one line of the player's (see the module docstring).

        Raises:
            UnsupportedError: the score file cannot be written.
        """
        text = line.strip()
        command = COMMANDS.get(" ".join(text.lower().split()), Command.ROUTE if text else Command.NOTHING)
        puzzle = self.puzzle
        if command in (Command.NOTHING, Command.HELP):
            return Reply(command, gettext(HELP))
        if command is Command.QUIT:
            return Reply(command, gettext("bye"))
        if command is Command.STATS:
            return Reply(command, self.stats_line())
        if command is Command.HINT:
            lessons = listing([gettext(THEME_WORDS.get(n, n)) for n in puzzle.lesson_names]) or \
                gettext("none in particular")
            return Reply(command, say("aim for {points} with {cards}; lessons in play: {lessons}",
                                      points=count(puzzle.score, "point"), cards=count(puzzle.cards, "card"),
                                      lessons=lessons))
        if command is Command.SKIP:
            self._count(solved=False)
            return Reply(command, gettext("skipped: here is the answer"), finished=True)
        graded = grade(puzzle, text, limit=self.limit)
        if graded.verdict in (Verdict.UNREADABLE, Verdict.ILLEGAL):
            return Reply(command, graded.message + " " + gettext(NOT_COUNTED), graded)
        self._count(solved=graded.solved)
        return Reply(command, graded.message, graded, finished=True)

    def _count(self, *, solved: bool) -> None:
        if self.record:
            self.scores = self.scores.record(self.puzzle.theme, solved)
            save_scores(self.scores, self.path, set_aside=self._set_aside)
            self._set_aside = False

    def stats_line(self) -> str:
        """The score so far, in one line."""
        s = self.scores
        themes = ", ".join(f"{gettext(THEME_WORDS.get(t, t))} {s.solved.get(t, 0)}/{n}"
                           for t, n in sorted(s.tried.items())) or gettext("none yet")
        return say("streak {streak} (best {best}); solved per theme: {themes}", streak=s.streak, best=s.best_streak,
                   themes=themes)
