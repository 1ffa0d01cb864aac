"""Elfenland's shared flags: the position (overriding a file's keys), the solver and its limits."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import click

from planner.cli.conventions import WholeNumber, limit_options, seed_option
from planner.elfenland.inputs import Overrides
from planner.elfenland.rules import FIRST_ROUND, LAST_ROUND, RULE_OPTIONS
from planner.elfenland.solvers import DEFAULT_LIMIT, SOLVERS

if TYPE_CHECKING:
    from planner.elfenland.plan import Plan
    from planner.elfenland.position import Position

__all__ = ["overrides_from", "picture_of", "position_options", "solve_limit_options", "solver_options"]

_RULE_FLAGS = {name: f"--{name.replace('_', '-')}" for name in RULE_OPTIONS}


def position_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The position as flags; they take the place of what a position file says, or fill in what it lacks."""
    options = [
        click.option("--at", metavar="TOWN", help="Town where the boot stands (name, alias or code: elv, dag)."),
        click.option("--hand", metavar="CARDS", help='Cards in hand: "D D C U R R P T", DDCRR, ddc, D2, '
                                                     '"dragon x2 cloud".'),
        click.option("--tile", "tiles", multiple=True, metavar="ROAD COUNTER",
                     help='A counter on a road: "lap-riv D", "elv-erg U+X" (obstacle); repeat or comma-separate; '
                          '"ROAD -" removes one.'),
        click.option("--visited", metavar="TOWNS", help="Towns already collected: riv,tic (- for none)."),
        click.option("--home", metavar="TOWN", help="Home-town card (- for none)."),
        click.option("--round", "round_", type=WholeNumber(FIRST_ROUND, LAST_ROUND),
                     help=f"Round {FIRST_ROUND}..{LAST_ROUND}; the last applies the home penalty."),
        click.option("--supply", metavar="COUNTERS", help="My unplaced counters: DP, \"dragon pig\" (- for none)."),
        click.option("--display", metavar="COUNTERS", help="The face-up counters to draw from: PUTTD."),
    ]
    for name, rule in RULE_OPTIONS.items():
        if isinstance(rule.default, bool):
            options.append(click.option(f"{_RULE_FLAGS[name]}/--no-{_RULE_FLAGS[name][2:]}", name, default=None,
                                        help=f"Rule: {rule.help} [on]."))
        else:
            options.append(click.option(_RULE_FLAGS[name], name, type=click.Choice(rule.texts),
                                        help=f"Rule: {rule.help} [{rule.texts[0]}]."))
    for option in reversed(options):
        func = option(func)
    return func


def overrides_from(kwargs: dict[str, Any]) -> Overrides:
    """The position flags of a command's keyword arguments (removed from them)."""
    rules = {name: kwargs.pop(name) for name in RULE_OPTIONS}
    return Overrides(at=kwargs.pop("at"), hand=kwargs.pop("hand"), tiles=tuple(kwargs.pop("tiles")),
                     visited=kwargs.pop("visited"), home=kwargs.pop("home"), round=kwargs.pop("round_"),
                     rules={k: v for k, v in rules.items() if v is not None} or None, supply=kwargs.pop("supply"),
                     display=kwargs.pop("display"))


def solve_limit_options(per: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--time-limit and --nodes of a command that solves (``per``: " per solve" when it solves several)."""
    assert DEFAULT_LIMIT.time is not None
    return limit_options(default=DEFAULT_LIMIT.time,
                         time_help=f"Seconds{per} before an unproven answer is used (Ctrl-C answers at once).",
                         nodes_help=f"Stop after this many search nodes{per} (CP-SAT: conflicts per solve), with no "
                                    "time limit unless --time-limit is given too: the same answer on any machine.")


def solver_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--solver, --time-limit, --nodes (given as ``limit``), --seed."""
    func = seed_option(help="CP-SAT random seed (auto on 18+ cards also runs seed+1, with wider cuts, on a second "
                            "core).")(func)
    func = solve_limit_options()(func)
    return click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True,
                        help="search (pure Python), cpsat (OR-Tools) or auto (search, then CP-SAT if slow; "
                             "CP-SAT on every core for hands of 18+ cards).")(func)


def picture_of(position: Position, plans: Sequence[Plan] = ()) -> Callable[[], str]:
    """The map of ``position`` with ``plans`` drawn on it, as SVG text when called (for :func:`answer`'s
    pictures: the drawing code loads only when a picture is asked for)."""
    def draw() -> str:
        from planner.elfenland.svg import render_svg

        return render_svg(position, tuple(plans))

    return draw
