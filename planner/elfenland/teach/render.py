"""Rich renderables for the teaching commands: the explanation's tables, a puzzle, a grade, the scores.

Every text that comes from the library or the player is a :class:`rich.text.Text`, never markup.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from planner.elfenland.board import load_board
from planner.elfenland.plan import Plan
from planner.elfenland.render import PAY_STYLE, add_text_row, position_summary, route_line, titled_table, verdict_line
from planner.elfenland.teach.additions import Addition
from planner.elfenland.teach.compare import Comparison
from planner.elfenland.teach.ends import EndTable
from planner.elfenland.teach.explanation import Explanation
from planner.elfenland.teach.grade import Grade, Verdict
from planner.elfenland.teach.lesson import LESSON_WORDS
from planner.elfenland.teach.puzzles import Puzzle
from planner.elfenland.teach.reach import Reach
from planner.elfenland.teach.steps import StepNote
from planner.elfenland.teach.ways import tile_costs
from planner.elfenland.teach.whatif import Gain, WhatIf
from planner.elfenland.teach.words import count, joined, town

__all__ = ["answer_view", "explanation_view", "grade_view", "puzzle_view"]

_VERDICT_STYLE = {Verdict.OPTIMAL: "bold green", Verdict.SHORT: "yellow", Verdict.ILLEGAL: "red",
                  Verdict.UNREADABLE: "red"}


def _table(title: str) -> Table:
    return titled_table(title, title_style="bold", pad_edge=False)


def notes_table(notes: tuple[StepNote, ...] | list[StepNote], *, title: str = "Why each step") -> Table:
    """The route's steps and why each is paid that way."""
    table = _table(title)
    table.add_column("#", justify="right", style="dim")
    table.add_column("step")
    table.add_column("paid")
    table.add_column("why", ratio=1)
    for note in notes:
        step = note.step
        add_text_row(table, str(note.number), f"{town(step.frm)} → {town(step.to)}",
                            Text(str(step.cards), style=PAY_STYLE[str(step.pay)]), Text(" ".join(note.text)))
    return table


def reach_table(rows: tuple[Reach, ...] | list[Reach]) -> Table:
    """Every uncollected town: the fewest cards to reach it, or what would bring it in."""
    table = _table("Reach: the fewest cards to each uncollected town")
    table.add_column("town")
    table.add_column("cards", justify="right")
    table.add_column("how, or what it would need", ratio=1)
    for row in rows:
        if row.route is not None:
            add_text_row(table, town(row.town), str(row.cards), route_line(row.route))
            continue
        needs = [f"{need.addition} (then {count(need.cards, 'card')})" for need in (row.card, row.counter) if need]
        text = "out of reach; " + (" or ".join(needs) if needs else "no single extra card or counter brings it in")
        add_text_row(table, town(row.town), "—", Text(text, style="dim"))
    return table


def _gain_line(label: str, gain: Gain | None, ties: tuple[Addition, ...]) -> RenderableType:
    if gain is None:
        return Text(f"{label}: nothing to try", style="dim")
    if gain.value <= (0, 0):
        return Text(f"{label}: none would help (the best stays {gain.plan.score} for {gain.plan.cards_spent})",
                    style="dim")
    what = []
    if gain.towns:
        what.append(f"+{count(gain.towns, 'point')}")
    if gain.cards:
        what.append(f"{count(abs(gain.cards), 'card')} {'saved' if gain.cards > 0 else 'more'}")
    others = f" (as good: {'; '.join(_short(t) for t in ties)})" if ties else ""
    return Group(Text(f"{label}: {gain.addition}: {', '.join(what)}{others}"), Text.assemble("    ",
                                                                                                 route_line(gain.plan)))


def _short(addition: Addition) -> str:
    """An addition in a few words: ``raft``, ``dragon on Elvenhold–Lapphalya``."""
    if addition.card is not None:
        return addition.card.title
    return str(addition).removeprefix("a ").removeprefix("an ").replace(" counter on ", " on ")


def what_if_view(found: WhatIf) -> RenderableType:
    """The best extra card and the best extra counter, each with its route."""
    parts: list[RenderableType] = [Text("What if", style="bold"),
                                   _gain_line("one more card", found.card, found.card_ties),
                                   _gain_line("one more counter", found.counter, found.counter_ties)]
    if not found.proven:
        parts.append(Text("(some of these solves were not proven optimal: a better addition may exist)",
                          style="yellow"))
    return Group(*parts)


def ends_table(table_data: EndTable) -> Table:
    """The last round's end towns: towns against the distance home."""
    table = _table(f"End towns: one more town against the distance home ({town(table_data.home)})")
    table.add_column("end town")
    table.add_column("towns", justify="right")
    table.add_column("from home", justify="right")
    table.add_column("score", justify="right")
    table.add_column("cards", justify="right")
    table.add_column("", style="dim")
    for row in table_data.rows:
        notes = [w for w, on in (("best", row.best), ("most towns", row.most_towns)) if on]
        add_text_row(table, town(row.end), str(row.towns), str(row.home_distance), str(row.score),
                            str(row.plan.cards_spent), ", ".join(notes), style="bold" if row.best else None)
    return table


def comparison_view(found: Comparison) -> RenderableType:
    """The player's route beside the best."""
    if found.yours is None:
        assert found.error is not None
        return Text(f"your route breaks at step {found.error.index + 1}: {found.error.reason}", style="red")
    yours = found.yours
    parts: list[RenderableType] = [Text.assemble(("your route: ", "bold"), route_line(yours),
                                                 f"  ({yours.score} for {yours.cards_spent})")]
    if found.optimal:
        parts.append(Text("as good as the best", style="green"))
        return Group(*parts)
    if found.behind_at is not None:
        points, cards = found.step_cost
        parts.append(Text(f"it falls behind at step {found.behind_at} ({yours.steps[found.behind_at - 1]}): "
                          f"that step costs {_loss(points, cards)}", style="yellow"))
        if found.instead is not None:
            parts.append(Text.assemble("  better from there: ", route_line(found.instead)))
    if found.stopped_early:
        parts.append(Text("it stops too early: more was still to be had from where it ends", style="yellow"))
    parts.append(Text(f"in all: {_loss(*found.lost)} against the best"))
    return Group(*parts)


def _loss(points: int, cards: int) -> str:
    """``1 point (2 cards fewer)``, ``3 cards more``: points lost, then extra cards spent."""
    extra = f"{count(abs(cards), 'card')} {'more' if cards > 0 else 'fewer'}" if cards else ""
    if not points:
        return extra or "nothing"
    return count(points, "point") + (f" ({extra})" if extra else "")


def explanation_view(found: Explanation, *, source: str | None = None) -> RenderableType:
    """Everything ``elfenland explain`` prints."""
    parts: list[RenderableType] = []
    if source:
        parts.append(Text(source, style="dim"))
    parts += [position_summary(found.position), Text(f"position: {found.position}", style="dim")]
    best = found.solution.plan
    parts.append(Text.assemble(("best: ", "bold"), route_line(best)))
    parts.append(verdict_line(found.solution))
    if found.notes:
        parts += [Text(), notes_table(found.notes)]
    if found.comparison is not None:
        parts += [Text(), comparison_view(found.comparison)]
    if found.ends is not None:
        parts += [Text(), ends_table(found.ends)]
    parts += [Text(), reach_table(found.reach)]
    if found.what_if is not None:
        parts += [Text(), what_if_view(found.what_if)]
    return Group(*parts)


def tiles_table(puzzle: Puzzle) -> Table:
    """The counters on the board with what each costs (matching cards, or a caravan)."""
    position = puzzle.position
    board = load_board()
    table = _table("Counters on the roads")
    table.add_column("road")
    table.add_column("counter")
    table.add_column("costs")
    for tile in position.tiles:
        road = board.connections[tile.road]
        assert tile.transport is not None
        cost, caravan = tile_costs(position, tile)
        add_text_row(table, f"{town(road.a)} – {town(road.b)} ({road.terrain})",
                            tile.transport.title + (" + obstacle" if tile.obstacle else ""),
                            f"{tile.transport.letter * cost}, or any {caravan}")
    return table


def puzzle_view(puzzle: Puzzle, number: int | None = None) -> RenderableType:
    """A puzzle as the player sees it (no answer)."""
    head = f"Puzzle {number}: " if number is not None else ""
    title = Text(f"{head}{puzzle.theme}, difficulty {puzzle.difficulty} (seed {puzzle.seed})", style="bold")
    position = puzzle.position
    summary = position_summary(position.replace(title=None))
    visited = sorted(town(c) for c in position.visited - {position.at})
    lines: list[RenderableType] = [title, summary, Text(f"hand: {joined(position.hand)}"),
                                   Text(f"collected already: {', '.join(visited) or 'nothing'}"), Text(),
             tiles_table(puzzle), Text(), Text("Rivers: 1 raft downstream, 2 upstream; lakes: 2 rafts.", style="dim")]
    question = "Collect the most new towns, then spend the fewest cards."
    if puzzle.position.scores_home:
        question += " Last round: each link from the end town to home costs a point."
    lines.append(Text(question, style="bold"))
    return Group(*lines)


def answer_view(puzzle: Puzzle, notes: list[StepNote] | tuple[StepNote, ...]) -> RenderableType:
    """The answer: every best route, why, and the lessons."""
    parts: list[RenderableType] = []
    best = puzzle.best
    ways = "the only answer" if puzzle.unique else f"one of {len(puzzle.answers)} equally good answers"
    parts.append(Text.assemble(("best: ", "bold"), route_line(best),
                               f"  ({best.score} for {best.cards_spent}, {ways})"))
    for answer in puzzle.answers[1:]:
        parts.append(Text.assemble("  or: ", route_line(answer.plan)))
    parts.append(notes_table(notes))
    for lesson in puzzle.lessons:
        what = "collecting the most towns" if lesson.name == "home" else "without it"
        parts.append(Text(f"lesson ({lesson.name}): {LESSON_WORDS[lesson.name]}; {what} the best is "
                          f"{count(lesson.without.score, 'point')} for {count(lesson.without.cards, 'card')}",
                          style="cyan"))
    return Group(*parts)


def grade_view(graded: Grade) -> RenderableType:
    """A grade in a line or two."""
    parts: list[RenderableType] = [Text(graded.message, style=_VERDICT_STYLE[graded.verdict])]
    if graded.comparison is not None and graded.verdict is Verdict.SHORT:
        parts.append(comparison_view(graded.comparison))
    return Group(*parts)


def plan_line(plan: Plan) -> Text:
    """A plan's route with its points and cards."""
    return Text.assemble(route_line(plan), f"  ({plan.score} for {plan.cards_spent})")
