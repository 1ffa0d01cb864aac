"""Rich renderables for the teaching commands: the explanation's tables, a puzzle, a grade, the scores.

Every text that comes from the library or the player is a :class:`rich.text.Text`, never markup.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from planner.common.i18n import N_, gettext, say
from planner.elfenland.board import load_board
from planner.elfenland.local_names import terrain_word, transport_word
from planner.elfenland.plan import Plan
from planner.elfenland.render import PAY_STYLE, add_text_row, position_summary, route_line, titled_table, verdict_line
from planner.elfenland.teach.additions import Addition
from planner.elfenland.teach.compare import Comparison
from planner.elfenland.teach.ends import EndTable
from planner.elfenland.teach.explanation import Explanation
from planner.elfenland.teach.grade import Grade, Verdict
from planner.elfenland.teach.lesson import LESSON_WORDS, THEME_WORDS
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


def notes_table(notes: tuple[StepNote, ...] | list[StepNote], *, title: str = N_("Why each step")) -> Table:
    """The route's steps and why each is paid that way."""
    table = _table(gettext(title))
    table.add_column("#", justify="right", style="dim")
    table.add_column(gettext("step"))
    table.add_column(gettext("paid"))
    table.add_column(gettext("why"), ratio=1)
    for note in notes:
        step = note.step
        add_text_row(table, str(note.number), f"{town(step.frm)} → {town(step.to)}",
                            Text(str(step.cards), style=PAY_STYLE[str(step.pay)]), Text(" ".join(note.text)))
    return table


def reach_table(rows: tuple[Reach, ...] | list[Reach]) -> Table:
    """Every uncollected town: the fewest cards to reach it, or what would bring it in."""
    table = _table(gettext("Reach: the fewest cards to each uncollected town"))
    table.add_column(gettext("town"))
    table.add_column(gettext("cards"), justify="right")
    table.add_column(gettext("how, or what it would need"), ratio=1)
    for row in rows:
        if row.route is not None:
            add_text_row(table, town(row.town), str(row.cards), route_line(row.route))
            continue
        needs = [say("{addition} (then {cards})", addition=str(need.addition), cards=count(need.cards, "card"))
                 for need in (row.card, row.counter) if need]
        text = say("out of reach; {needs}", needs=say("{one} or {other}", one=needs[0], other=needs[1])
                   if len(needs) == 2 else needs[0]) if needs else \
            say("out of reach; {needs}", needs=gettext("no single extra card or counter brings it in"))
        add_text_row(table, town(row.town), "—", Text(text, style="dim"))
    return table


def _gain_line(label: str, gain: Gain | None, ties: tuple[Addition, ...]) -> RenderableType:
    label = gettext(label)
    if gain is None:
        return Text(say("{label}: nothing to try", label=label), style="dim")
    if gain.value <= (0, 0):
        return Text(say("{label}: none would help (the best stays {score} for {cards})", label=label,
                        score=gain.plan.score, cards=gain.plan.cards_spent), style="dim")
    what = []
    if gain.towns:
        what.append(f"+{count(gain.towns, 'point')}")
    if gain.cards:
        what.append(say(N_("{cards} saved") if gain.cards > 0 else N_("{cards} more"),
                        cards=count(abs(gain.cards), "card")))
    others = say(" (as good: {others})", others="; ".join(_short(t) for t in ties)) if ties else ""
    return Group(Text(say("{label}: {addition}: {what}{others}", label=label, addition=str(gain.addition),
                          what=gettext(", ").join(what), others=others)),
                 Text.assemble("    ", route_line(gain.plan)))


def _short(addition: Addition) -> str:
    """An addition in a few words: ``raft``, ``dragon on Elvenhold–Lapphalya``."""
    if addition.card is not None:
        return transport_word(addition.card)
    assert addition.counter is not None and addition.road is not None
    road = load_board().connections[addition.road]
    return say("{counter} on {road}", counter=transport_word(addition.counter),
               road=f"{town(road.a)}–{town(road.b)}")


def what_if_view(found: WhatIf) -> RenderableType:
    """The best extra card and the best extra counter, each with its route."""
    parts: list[RenderableType] = [Text(gettext("What if"), style="bold"),
                                   _gain_line(N_("one more card"), found.card, found.card_ties),
                                   _gain_line(N_("one more counter"), found.counter, found.counter_ties)]
    if not found.proven:
        parts.append(Text(gettext("(some of these solves were not proven optimal: a better addition may exist)"),
                          style="yellow"))
    return Group(*parts)


def ends_table(table_data: EndTable) -> Table:
    """The last round's end towns: towns against the distance home."""
    table = _table(say("End towns: one more town against the distance home ({home})", home=town(table_data.home)))
    table.add_column(gettext("end town"))
    table.add_column(gettext("towns"), justify="right")
    table.add_column(gettext("from home"), justify="right")
    table.add_column(gettext("score"), justify="right")
    table.add_column(gettext("cards"), justify="right")
    table.add_column("", style="dim")
    for row in table_data.rows:
        notes = [gettext(w) for w, on in ((N_("best"), row.best), (N_("most towns"), row.most_towns)) if on]
        add_text_row(table, town(row.end), str(row.towns), str(row.home_distance), str(row.score),
                            str(row.plan.cards_spent), ", ".join(notes), style="bold" if row.best else None)
    return table


def comparison_view(found: Comparison) -> RenderableType:
    """The player's route beside the best."""
    if found.yours is None:
        assert found.error is not None
        return Text(say("your route breaks at step {step}: {reason}", step=found.error.index + 1,
                        reason=found.error.reason), style="red")
    yours = found.yours
    parts: list[RenderableType] = [Text.assemble((gettext("your route: "), "bold"), route_line(yours),
                                                 _for(yours))]
    if found.optimal:
        parts.append(Text(gettext("as good as the best"), style="green"))
        return Group(*parts)
    if found.behind_at is not None:
        points, cards = found.step_cost
        parts.append(Text(say("it falls behind at step {step} ({move}): that step costs {loss}", step=found.behind_at,
                              move=str(yours.steps[found.behind_at - 1]), loss=_loss(points, cards)), style="yellow"))
        if found.instead is not None:
            parts.append(Text.assemble(gettext("  better from there: "), route_line(found.instead)))
    if found.stopped_early:
        parts.append(Text(gettext("it stops too early: more was still to be had from where it ends"), style="yellow"))
    parts.append(Text(say("in all: {loss} against the best", loss=_loss(*found.lost))))
    return Group(*parts)


def _loss(points: int, cards: int) -> str:
    """``1 point (2 cards fewer)``, ``3 cards more``: points lost, then extra cards spent."""
    extra = say(N_("{cards} more") if cards > 0 else N_("{cards} fewer"), cards=count(abs(cards), "card")) \
        if cards else ""
    if not points:
        return extra or gettext("nothing")
    return count(points, "point") + (f" ({extra})" if extra else "")


def _for(plan: Plan) -> str:
    """``  (3 for 5)``: a route's points and cards after its line."""
    return say("  ({score} for {cards})", score=plan.score, cards=plan.cards_spent)


def explanation_view(found: Explanation, *, source: str | None = None) -> RenderableType:
    """Everything ``elfenland explain`` prints."""
    parts: list[RenderableType] = []
    if source:
        parts.append(Text(source, style="dim"))
    parts += [position_summary(found.position), Text(say("position: {position}", position=str(found.position)),
                                                     style="dim")]
    best = found.solution.plan
    parts.append(Text.assemble((gettext("best: "), "bold"), route_line(best)))
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
    table = _table(gettext("Counters on the roads"))
    table.add_column(gettext("road"))
    table.add_column(gettext("counter"))
    table.add_column(gettext("costs"))
    for tile in position.tiles:
        road = board.connections[tile.road]
        assert tile.transport is not None
        cost, caravan = tile_costs(position, tile)
        counter = transport_word(tile.transport)
        add_text_row(table, f"{town(road.a)} – {town(road.b)} ({terrain_word(road.terrain)})",
                     say("{counter} + obstacle", counter=counter) if tile.obstacle else counter,
                     say("{letters}, or any {caravan}", letters=tile.transport.letter * cost, caravan=caravan))
    return table


def puzzle_view(puzzle: Puzzle, number: int | None = None) -> RenderableType:
    """A puzzle as the player sees it (no answer)."""
    head = say("Puzzle {number}: ", number=number) if number is not None else ""
    theme = gettext(THEME_WORDS.get(puzzle.theme, puzzle.theme))
    title = Text(head + say("{theme}, difficulty {difficulty} (seed {seed})", theme=theme,
                            difficulty=puzzle.difficulty, seed=puzzle.seed), style="bold")
    position = puzzle.position
    summary = position_summary(position.replace(title=None))
    visited = sorted(town(c) for c in position.visited - {position.at})
    lines: list[RenderableType] = [
        title, summary, Text(say("hand: {cards}", cards=joined(position.hand))),
        Text(say("collected already: {towns}", towns=gettext(", ").join(visited) or gettext("nothing"))), Text(),
        tiles_table(puzzle), Text(), Text(gettext("Rivers: 1 raft downstream, 2 upstream; lakes: 2 rafts."),
                                          style="dim")]
    question = gettext("Collect the most new towns, then spend the fewest cards.")
    if puzzle.position.scores_home:
        question += gettext(" Last round: each link from the end town to home costs a point.")
    lines.append(Text(question, style="bold"))
    return Group(*lines)


def answer_view(puzzle: Puzzle, notes: list[StepNote] | tuple[StepNote, ...]) -> RenderableType:
    """The answer: every best route, why, and the lessons."""
    parts: list[RenderableType] = []
    best = puzzle.best
    ways = gettext("the only answer") if puzzle.unique else say("one of {n} equally good answers",
                                                               n=len(puzzle.answers))
    parts.append(Text.assemble((gettext("best: "), "bold"), route_line(best),
                               say("  ({score} for {cards}, {ways})", score=best.score, cards=best.cards_spent,
                                   ways=ways)))
    for answer in puzzle.answers[1:]:
        parts.append(Text.assemble(gettext("  or: "), route_line(answer.plan)))
    parts.append(notes_table(notes))
    for lesson in puzzle.lessons:
        template = (N_("lesson ({name}): {lesson}; collecting the most towns the best is {points} for {cards}")
                    if lesson.name == "home" else
                    N_("lesson ({name}): {lesson}; without it the best is {points} for {cards}"))
        parts.append(Text(say(template, name=gettext(THEME_WORDS.get(lesson.name, lesson.name)),
                              lesson=gettext(LESSON_WORDS[lesson.name]), points=count(lesson.without.score, "point"),
                              cards=count(lesson.without.cards, "card paid")), style="cyan"))
    return Group(*parts)


def grade_view(graded: Grade) -> RenderableType:
    """A grade in a line or two."""
    parts: list[RenderableType] = [Text(graded.message, style=_VERDICT_STYLE[graded.verdict])]
    if graded.comparison is not None and graded.verdict is Verdict.SHORT:
        parts.append(comparison_view(graded.comparison))
    return Group(*parts)


def plan_line(plan: Plan) -> Text:
    """A plan's route with its points and cards."""
    return Text.assemble(route_line(plan), _for(plan))
