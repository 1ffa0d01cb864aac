"""The ``elfenland`` command: thin glue between the terminal and the library.

Exit codes: 0 success; 1 other planner error; 2 bad input (usage, notation, illegal position or route);
3 no legal plan.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any, NoReturn

import click
from rich.console import Console

from planner import __version__
from planner.elfenland import explain, render
from planner.elfenland.board import load_board
from planner.elfenland.inputs import Overrides, apply_overrides, expand_sources, read_position
from planner.elfenland.notation import parse_town
from planner.elfenland.position import Position
from planner.elfenland.rules import OPTION_CHOICES, Rules
from planner.elfenland.solvers import DEFAULT_TIME_LIMIT, SOLVERS, solve
from planner.errors import IllegalPositionError, IllegalStepError, NoPlanError, NotationError, PlannerError

EXIT_ERROR, EXIT_INPUT, EXIT_NO_PLAN = 1, 2, 3


class PlannerCliError(click.ClickException):
    """A planner error shown as ``error: ...``; subclasses carry the documented exit codes."""

    def show(self, file: Any = None) -> None:
        click.echo(f"error: {self.message}", err=True)


class InputCliError(PlannerCliError):
    exit_code = EXIT_INPUT


class NoPlanCliError(PlannerCliError):
    exit_code = EXIT_NO_PLAN


def _cli_error(error: PlannerError) -> PlannerCliError:
    if isinstance(error, IllegalPositionError | NotationError | IllegalStepError):
        return InputCliError(str(error))
    if isinstance(error, NoPlanError):
        return NoPlanCliError(str(error))
    return PlannerCliError(str(error))


def _stdout() -> Console:
    return Console(highlight=False)


def _fail(error: PlannerError) -> NoReturn:
    raise _cli_error(error)


def position_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """The position as flags; they override what a position file says."""
    options = [
        click.option("--at", metavar="TOWN", help="Town where the boot stands (name, alias or code: elv, dag)."),
        click.option("--hand", metavar="CARDS", help='Cards in hand: "D D C U R R P T", DDCRR, "dragon x2 cloud".'),
        click.option("--tile", "tiles", multiple=True, metavar="ROAD COUNTER",
                     help='A counter on a road: "lap-riv D", "elv-erg U+X" (obstacle); repeat or comma-separate; '
                          '"ROAD -" removes one.'),
        click.option("--visited", metavar="TOWNS", help="Towns already collected: riv,tic (- for none)."),
        click.option("--home", metavar="TOWN", help="Home-town card (- for none)."),
        click.option("--round", "round_", type=click.IntRange(1, 4),
                     help="Round 1..4; the last applies the home penalty."),
        click.option("--caravan", type=click.Choice(OPTION_CHOICES["caravan"]), help="Caravan cost rule [flat]."),
        click.option("--caravan-when", type=click.Choice(OPTION_CHOICES["caravan_when"]),
                     help="When caravans are allowed [always]."),
        click.option("--rounds", type=click.Choice(["3", "4"]), help="Rounds in the game [4]."),
        click.option("--home-distance", type=click.Choice(OPTION_CHOICES["home_distance"]),
                     help="Links counted to home [all]."),
        click.option("--home-variant/--no-home-variant", default=None, help="Score the home-town card [on]."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _overrides(kwargs: dict[str, Any]) -> Overrides:
    rules = {key: kwargs.pop(key) for key in ("caravan", "caravan_when", "rounds", "home_distance", "home_variant")}
    rules = {k: (int(v) if k == "rounds" else v) for k, v in rules.items() if v is not None}
    return Overrides(at=kwargs.pop("at"), hand=kwargs.pop("hand"), tiles=tuple(kwargs.pop("tiles")),
                     visited=kwargs.pop("visited"), home=kwargs.pop("home"), round=kwargs.pop("round_"),
                     rules=rules or None)


def _position(source: str | None, overrides: Overrides) -> Position:
    base = read_position(source) if source is not None else None
    return base if overrides.empty() and base is not None else apply_overrides(base, overrides)


def solver_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--solver, --time-limit, --seed."""
    func = click.option("--seed", type=int, default=0, show_default=True,
                        help="CP-SAT random seed (auto on 18+ cards also runs seed+1, with wider cuts, "
                             "on a second core).")(func)
    func = click.option("--time-limit", type=click.FloatRange(0.1), default=DEFAULT_TIME_LIMIT, show_default=True,
                        help="Seconds before an unproven answer is returned.")(func)
    return click.option("--solver", type=click.Choice(SOLVERS), default="auto", show_default=True,
                        help="search (pure Python), cpsat (OR-Tools) or auto (search, then CP-SAT if slow; "
                             "CP-SAT on every core for hands of 18+ cards).")(func)


def _handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except PlannerError as error:
            _fail(error)

    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="elfenland")
def cli() -> None:
    """Elfenland planner: the card-optimal route that collects the most new towns, proven optimal.

    \b
    Examples:
      elfenland route scenarios/01-first-steps.toml
      elfenland route --at elv --hand "D D C U R R P T" --tile "elv-lap P, lap-vir E" --visited riv
      elfenland check scenarios/01-first-steps.toml --route "lap/P vir/E"
      elfenland board dag
    """


@cli.command()
@click.argument("sources", nargs=-1, metavar="[POSITION_FILE|FOLDER|-]...")
@position_options
@solver_options
@click.option("-k", "--alternatives", type=click.IntRange(1, 50), default=1, show_default=True,
              help="Also show runners-up with other towns or another end town.")
@click.option("--json", "as_json", is_flag=True, help="JSON output (one object per line with several positions).")
@click.option("--svg", type=click.Path(dir_okay=False), help="Also draw the position and route to this SVG file.")
@click.option("--png", type=click.Path(dir_okay=False), help="Also draw the position and route to this PNG file.")
def route(sources: tuple[str, ...], solver: str, time_limit: float, seed: int, alternatives: int, as_json: bool,
          svg: str | None, png: str | None, **kwargs: Any) -> None:
    """Find the best route: most new towns, then fewest cards.

    The position comes from files (a folder means its *.toml files; - reads stdin), from flags, or both
    (flags override the file).

    \b
    Examples:
      elfenland route scenarios/02-caravan.toml -k 3
      elfenland route --at elv --hand "DDCURRPT" --tile "lap-riv D" --tile "elv-erg U+X" \\
          --visited riv,tic --home virst --round 4
      elfenland route scenarios/ --json
    """
    overrides = _overrides(kwargs)
    paths: list[str | None] = [*expand_sources(sources)] or [None]
    if (svg or png) and len(paths) > 1:
        _fail(NotationError("--svg/--png draw one position; give a single position file"))
    _check_pictures(svg, png)
    console = _stdout()
    failed: PlannerError | None = None
    for index, source in enumerate(paths):
        try:
            position = _position(source, overrides)
            solution = solve(position, solver=solver, alternatives=alternatives, time_limit=time_limit, seed=seed)
        except PlannerError as error:
            if len(paths) == 1:
                _fail(error)
            failed = error
            if as_json:
                click.echo(json.dumps({"schema": explain.SCHEMA, "source": source, "error": str(error)}))
            else:
                console.print(f"[red]{source}: {error}[/red]")
            continue
        if as_json:
            document = explain.solution_dict(position, solution, source=source)
            click.echo(json.dumps(document, ensure_ascii=False, indent=None if len(paths) > 1 else 2))
        else:
            if index:
                console.print()
            console.print(render.solution_view(position, solution, source=source if len(paths) > 1 else None))
        if svg or png:
            _draw(position, solution.plans, svg, png)
    if failed is not None:
        sys.exit(_cli_error(failed).exit_code)


def _check_pictures(*paths: str | None) -> None:
    """Refuse a bad picture path before any solving, so the user does not wait for an error."""
    from planner.elfenland.svg import check_picture_path  # only drawing pays for it

    try:
        for path in paths:
            if path:
                check_picture_path(path)
    except PlannerError as error:
        _fail(error)


def _draw(position: Position, plans: Any, svg: str | None, png: str | None) -> None:
    from planner.elfenland.svg import render_svg, write_picture

    try:
        picture = render_svg(position, plans)
        for path in (svg, png):
            if path:
                write_picture(picture, path)
                click.echo(f"drew {path}", err=True)
    except PlannerError as error:
        _fail(error)


@cli.command()
@click.argument("source", required=False, metavar="[POSITION_FILE|-]")
@position_options
@click.option("--route", "route_text", metavar="STEPS",
              help='A route to verify: TOWN/CARDS per step, e.g. "thr/E jac/D" (TOWN:r/R picks the river).')
@solver_options
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@_handle_errors
def check(source: str | None, route_text: str | None, solver: str, time_limit: float, seed: int, as_json: bool,
          **kwargs: Any) -> None:
    """Validate a position (every problem at once) and optionally verify a proposed route.

    \b
    Examples:
      elfenland check scenarios/01-first-steps.toml
      elfenland check scenarios/01-first-steps.toml --route "lap/P vir/E"
    """
    from planner.elfenland.plan import Plan, parse_route

    try:
        position = _position(source, _overrides(kwargs))
    except IllegalPositionError as error:
        if as_json:
            click.echo(json.dumps({"schema": explain.SCHEMA, "valid": False, "problems": error.problems}, indent=2))
            sys.exit(EXIT_INPUT)
        _stdout().print(render.problems_view(error.problems))
        sys.exit(EXIT_INPUT)
    console = _stdout()
    document: dict[str, Any] = {"schema": explain.SCHEMA, "valid": True, "warnings": position.warnings(),
                                "position": str(position)}
    if route_text is None:
        if as_json:
            click.echo(json.dumps(document, indent=2))
            return
        console.print(render.position_summary(position))
        for warning in position.warnings():
            console.print(f"[yellow]note: {warning}[/yellow]")
        console.print("[green]position is legal[/green]")
        return
    best = solve(position, solver=solver, time_limit=time_limit, seed=seed).plan
    try:
        plan = Plan.of(position, parse_route(position, route_text))
    except IllegalStepError as error:
        document.update(route_legal=False, step=error.index + 1, reason=error.reason,
                        best=explain.plan_dict(best))
        if as_json:
            click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        else:
            token = route_text.split()[error.index]
            console.print(f"[red]your route breaks at step {error.index + 1} ({token}): {error.reason}[/red]")
            console.print(f"the best route gets {best.score} with {best.cards_spent} cards: {best}")
        sys.exit(EXIT_INPUT)
    document.update(route_legal=True, yours=explain.plan_dict(plan), best=explain.plan_dict(best))
    if as_json:
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    console.print(render.route_table(plan, title="your route"))
    console.print(f"your route gets {plan.score} ({explain.verdict(plan)})")
    if plan.value >= best.value:
        console.print("[green]that is optimal[/green]")
    else:
        console.print(f"[yellow]the best gets {best.score} with {best.cards_spent} cards: {best}[/yellow]")


@cli.command()
@click.argument("town", required=False)
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@_handle_errors
def board(town: str | None, as_json: bool) -> None:
    """List towns (with codes) and connections, or one town's links and what each transport costs there.

    \b
    Examples:
      elfenland board
      elfenland board dag
    """
    the_board = load_board()
    if as_json:
        click.echo(json.dumps(_board_dict(the_board, parse_town(town) if town else None), indent=2,
                              ensure_ascii=False))
        return
    console = _stdout()
    if town:
        console.print(render.town_links_table(the_board, parse_town(town), Rules()))
        return
    console.print(render.towns_table(the_board))
    console.print()
    console.print(render.connections_table(the_board))


def _board_dict(the_board: Any, code: str | None) -> dict[str, Any]:
    towns = [t for t in the_board.towns.values() if code is None or t.code == code]
    connections = [c for c in the_board.connections.values() if code is None or c.touches(code)]
    return {
        "schema": explain.SCHEMA,
        "towns": [{"code": t.code, "name": t.name, "aliases": list(t.aliases), "home_card": t.home_card,
                   "capital": t.capital, "x": t.x, "y": t.y} for t in towns],
        "connections": [{"id": c.id, "a": c.a, "b": c.b, "kind": c.kind, "terrain": str(c.terrain),
                         "downstream_to": c.downstream_to, "lake": c.lake} for c in connections],
    }


@cli.command()
@click.argument("source", required=False, metavar="[POSITION_FILE|-]")
@position_options
@click.option("--svg", type=click.Path(dir_okay=False), help="Write the picture to this SVG file.")
@click.option("--png", type=click.Path(dir_okay=False), help="Write the picture to this PNG file.")
@_handle_errors
def show(source: str | None, svg: str | None, png: str | None, **kwargs: Any) -> None:
    """Draw the position alone (no solving), to check what was typed.

    \b
    Examples:
      elfenland show scenarios/01-first-steps.toml --svg position.svg
      elfenland show --at elv --hand DDC --tile "elv-lap P" --png position.png
    """
    if not svg and not png:
        raise click.UsageError("say where to draw: --svg FILE or --png FILE")
    _check_pictures(svg, png)
    position = _position(source, _overrides(kwargs))
    _draw(position, (), svg, png)
