"""``elfenland place``, ``draw`` and ``obstacle``: the decisions of a round before the move."""

from __future__ import annotations

from typing import Any

import click

from planner.cli.conventions import (
    CONTEXT,
    PositionCommand,
    WholeNumber,
    answer,
    err,
    handle_errors,
    json_option,
    seed_option,
    still_status,
    stop_on_ctrl_c,
)
from planner.cli.positions import overrides_from, position_options, solver_options
from planner.common.i18n import gettext, say
from planner.common.limits import Limit, Status
from planner.common.threads import cores
from planner.elfenland import render, report
from planner.elfenland.inputs import read_position

__all__ = ["draw", "obstacle", "place"]


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@solver_options
@click.option("--replies", type=WholeNumber(1, 10), default=1, show_default=True,
              help="Opponent replies before your next turn (1: exact maximin; more: each the worst of its moment).")
@click.option("--keep/--no-keep", default=True, show_default=True,
              help="Also advise what to keep for the next round (sampled).")
@json_option
@handle_errors
def place(source: str | None, solver: str, limit: Limit, seed: int, replies: int, keep: bool, as_json: bool,
          **kwargs: Any) -> None:
    """Plan my counters and my route together, and say which counter to place now.

    The position's supply (`supply = "DP"`, or `supply=DP` in the notation) holds my unplaced counters. The
    joint plan places them on empty roads with the route: the most towns, then the fewest cards, then the
    fewest counters placed. "Place now" is the placement whose worst opponent reply (their counter on a road of
    the plan, or an obstacle on my route) leaves the best plan; a table shows what each road of the plan would
    cost if an opponent got there first.

    \b
    Examples:
      elfenland place scenarios/21-contested-road.toml
      elfenland place "- ELV PECUTDRR - 1 supply=EUTD"
      elfenland place --at elv --hand DDCURRPT --tile "elv-lap P" --supply DUT --json
    """
    position = read_position(source, overrides_from(kwargs))
    with stop_on_ctrl_c() as stop, err().status(gettext("planning counters and route against the replies…")):
        from planner.elfenland.advice.keeping import advise_keep  # the advisor loads with its commands only
        from planner.elfenland.advice.placing import joint_plan, place_now, risks

        advice = place_now(position, replies=replies, solver=solver, limit=limit, stop=stop, seed=seed)
        roads = risks(advice, solver=solver, limit=limit, stop=stop)
        keeping = advise_keep(position, joint_plan(position, solver=solver, limit=limit, stop=stop, seed=seed,
                                                   alternatives=6).plans, seed=seed) if keep else None
    answer(report.place_dict(advice, roads, keeping, source=source), render.place_view(advice, roads, keeping),
           as_json=as_json, position_line=render.position_line(position),
           stopped=stop.is_set() or advice.joint.status is Status.STOPPED)


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@solver_options
@json_option
@handle_errors
def draw(source: str | None, solver: str, limit: Limit, seed: int, as_json: bool, **kwargs: Any) -> None:
    """Which counter to draw: each face-up one and the blind draw, by the joint plan it makes.

    The position's `display` lists the face-up counters; the blind draw is weighed over the counters nobody can
    see (48 less the board, the display, `seen`, the opponents' face-up counters and your supply).

    \b
    Examples:
      elfenland draw scenarios/20-opening-draft.toml
      elfenland draw "- ELV PECUTDRR - 1 supply=E,display=PUTTD"
      elfenland draw --at elv --hand DDCURRPT --supply E --display PUTTD
    """
    position = read_position(source, overrides_from(kwargs))
    with stop_on_ctrl_c() as stop, still_status(gettext("planning with each counter…")):
        from planner.elfenland.advice.drawing import advise_draw

        advice = advise_draw(position, solver=solver, limit=limit, stop=stop, seed=seed)
    answer(report.draw_dict(advice, source=source), render.draw_view(advice), as_json=as_json,
           stopped=stop.is_set())


@click.command(cls=PositionCommand, context_settings=CONTEXT)
@click.argument("source", required=False, metavar="[POSITION_FILE|NOTATION|-]")
@position_options
@click.option("--samples", type=WholeNumber(10, 5000), default=200, show_default=True,
              help="Sampled hands per opponent.")
@seed_option(help="Seed of the sampled hands (the same seed, the same advice).")
@click.option("-j", "--jobs", type=WholeNumber(1), default=None, help="Processes for the samples [every core "
              "when the work is big enough to pay for starting them].")
@json_option
@handle_errors
def obstacle(source: str | None, samples: int, seed: int, jobs: int | None, as_json: bool, **kwargs: Any) -> None:
    """Where your one obstacle of the game hurts the leader most, or whether to hold it.

    Each opponent (an `[[opponent]]` table: their town, visited towns and points) gets sampled hands from the
    cards you cannot see; per road holding a counter, the expected towns they lose with your obstacle there,
    with standard errors, and what it costs your own plan.

    \b
    Examples:
      elfenland obstacle scenarios/22-obstacle-on-the-leader.toml
      elfenland obstacle scenarios/22-obstacle-on-the-leader.toml --samples 600 --json
    """
    position = read_position(source, overrides_from(kwargs))
    workers = jobs or (cores() if samples * len(position.opponents) >= 600 else 1)
    with stop_on_ctrl_c() as stop, err().status(say("sampling {n} hands per opponent…", n=samples)):
        from planner.elfenland.advice.obstacle import advise_obstacle

        advice = advise_obstacle(position, samples=samples, seed=seed, jobs=workers, stop=stop)
    answer(report.obstacle_dict(advice, source=source), render.obstacle_view(advice), as_json=as_json,
           stopped=stop.is_set())
