"""``elfenland selfplay`` and ``elfenland replay``: whole games between bots, their records, and the records'
replay through the engine."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from planner.cli.conventions import (
    CONTEXT,
    EXIT_INPUT,
    EXIT_STOPPED,
    err,
    handle_errors,
    json_option,
    out,
    stop_on_ctrl_c,
)
from planner.common.i18n import N_, format_list, format_number, gettext, ngettext, say
from planner.common.threads import cores
from planner.elfenland.counts import count
from planner.elfenland.game.record import rules_dict
from planner.elfenland.game.seats import SEATS
from planner.elfenland.game.selfplay import Game, jobs_for, selfplay, summary
from planner.elfenland.game.state import GameRules
from planner.elfenland.game.table import replay as replay_record  # any record, a table's game too
from planner.elfenland.rules import Rules
from planner.errors import NotationError

if TYPE_CHECKING:
    from planner.common.cluster import Cluster

__all__ = ["play", "replay", "review", "selfplay_command"]


def _seats(text: str) -> tuple[str, ...]:
    seats = tuple(s.strip().lower() for s in text.split(",") if s.strip())
    unknown = [s for s in seats if s not in SEATS]
    if unknown:
        raise click.BadParameter(say("unknown seat {seats}; choose from {known}", seats=", ".join(map(repr, unknown)),
                                     known=", ".join(SEATS)), param_hint="--seats")
    if not 2 <= len(seats) <= 6:
        raise click.BadParameter(say("a game has 2 to 6 seats, not {n}", n=len(seats)), param_hint="--seats")
    return seats


@click.command("selfplay", context_settings=CONTEXT)
@click.option("-n", "--games", "games", type=click.IntRange(min=1), default=10, show_default=True,
              help="Seeds to play; each is played in every rotation of the seats.")
@click.option("--seats", default="advisor,greedy,greedy,greedy", show_default=True,
              help=f"Seat kinds in table order, comma-separated ({', '.join(SEATS)}).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="The first seed.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Processes (the same records for any number)  [default: every core, at most one a game]")
@click.option("--ray", "ray_address", metavar="ADDRESS", default=None,
              help="Play the games as Ray tasks (the same records): 'auto' the cluster running here, 'local' a new "
                   "one for this run, or HOST:PORT of its head. Needs the extra: "
                   "pip install 'elfenland-planner[cluster]'")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every game record here (JSON lines); the file must not exist yet.")
@click.option("--rules", "rule_text", default="", help="Rule options, e.g. 'rounds=3,caravan=scaled'.")
@click.option("--home", is_flag=True, help="Play the home-town variant (a secret home-town card each).")
@click.option("--new-display", is_flag=True, help="Turn up five new face-up counters each round.")
@json_option
@handle_errors  # a game that fails on a Ray cluster (or a bot's own error): its message, the records so far kept
def selfplay_command(games: int, seats: str, seed: int, jobs: int | None, ray_address: str | None,
                     out_path: Path | None, rule_text: str, home: bool, new_display: bool, as_json: bool) -> None:
    """Seeded games between bots, each seed in every rotation of the seats: mean points, win rates, and each seat's
    paired difference to the first non-advisor seat, with its interval (95 %).

    \b
    Examples:
      elfenland selfplay -n 20 --seats advisor,greedy,greedy,greedy --jobs 2 --out games.jsonl
      elfenland selfplay -n 100 --seats router,greedy --json
      elfenland selfplay -n 500 --ray auto --out games.jsonl
    """
    kinds = _seats(seats)
    try:
        rules = GameRules(Rules.from_str(rule_text), home_towns=home, display_carries=not new_display)
    except NotationError as error:
        raise click.BadParameter(str(error), param_hint="--rules") from error
    if out_path is not None and out_path.exists():
        raise click.BadParameter(say("{path} exists; choose a new file (records are never written over)",
                                     path=out_path), param_hint="--out")
    if ray_address is not None and jobs is not None:
        raise click.BadParameter(gettext("--jobs sets processes on this machine; with --ray the cluster's CPUs "
                                         "play"), param_hint="--jobs")
    jobs_list = jobs_for(games, kinds, seed=seed, rules=rules)
    if jobs is None:
        jobs = max(1, min(cores(), len(jobs_list)))
    cluster = _cluster(ray_address) if ray_address is not None else None
    played: list[Game] = []
    stopped = False
    handle = None
    try:
        handle = out_path.open("x", encoding="utf-8") if out_path is not None else None
        with stop_on_ctrl_c() as stop, Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                                                TimeRemainingColumn(), console=err(), transient=True) as progress:
            task = progress.add_task("games", total=len(jobs_list))
            for game in selfplay(jobs_list, processes=jobs, cluster=cluster, stop=stop):
                if stop.is_set():
                    stopped = True
                    break
                played.append(game)
                if handle is not None:
                    handle.write(json.dumps(game.record, separators=(",", ":")) + "\n")
                    handle.flush()
                progress.advance(task)
            stopped = stopped or stop.is_set()
    finally:
        if handle is not None:
            handle.close()
        if cluster is not None:
            cluster.close()
    document = summary(played, kinds)
    document["rules"] = rules_dict(rules)
    document["first_seed"] = seed
    if as_json:
        click.echo(json.dumps(document))
    else:
        _print_summary(document)
    if out_path is not None:
        err().print(Text(ngettext("wrote {n} game record to {path}", "wrote {n} game records to {path}",
                                  len(played)).format(n=len(played), path=out_path)))
    if stopped:
        err().print(Text(gettext("stopped: the summary covers the games finished")))
        sys.exit(EXIT_STOPPED)


def _cluster(address: str) -> Cluster:
    """The Ray cluster at ``address``, or the command ends with why not (exit 2); Ray is loaded only here."""
    from planner.common.cluster import connect

    try:
        return connect(address)  # why not, if not: an UnsupportedError, which handle_errors says
    except KeyboardInterrupt:  # Ctrl-C while Ray starts (a few seconds): no game played, nothing written
        err().print(Text(gettext("stopped before the cluster was reached: no games played")))
        sys.exit(EXIT_STOPPED)


def _print_summary(document: dict[str, Any]) -> None:
    table = Table(title=say("{games} games, {seeds} seeds", games=document["games"], seeds=document["seeds"]))
    table.add_column(gettext("seat"), justify="left")
    for column in (gettext("mean points"), gettext("win rate"), say("- {reference} (95 %)",
                                                                    reference=document["reference"])):
        table.add_column(column, justify="right")
    for row in document["seats"]:
        diff = row["difference"]
        if diff is None or diff["mean"] is None:
            shown = "-"
        elif diff["low"] is None:
            shown = format_number(diff["mean"], "+.2f")
        else:
            shown = (f"{format_number(diff['mean'], '+.2f')} [{format_number(diff['low'], '+.2f')}, "
                     f"{format_number(diff['high'], '+.2f')}]")
        mean = "-" if row["mean_points"] is None else format_number(row["mean_points"], ".2f")
        rate = "-" if row["win_rate"] is None else format_number(row["win_rate"], ".0%")
        table.add_row(Text(row["seat"]), mean, rate, shown)
    out().print(table)


@click.command("replay", context_settings=CONTEXT)
@click.argument("games", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
def replay(games: Path, as_json: bool) -> None:
    """Re-apply every action of each game record in GAMES (JSON lines) through the engine: "legal, same result",
    or the first illegal action and why (exit 2).

    \b
    Example:
      elfenland replay games.jsonl
    """
    bad = 0
    for number, line in enumerate(games.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            verdict: dict[str, Any] = {"game": number, "ok": False, "legal": False, "same": False,
                                       "problem": {"kind": "bad-json", "field": "", "value": None,
                                                   "message": say("line {n} is no JSON: {error}", n=number,
                                                                  error=error)}}
        else:
            result = replay_record(record) if isinstance(record, dict) else replay_record({})
            verdict = {"game": number, "ok": result.ok, "legal": result.legal, "same": result.same,
                       "actions": result.actions, "index": result.index,
                       "problem": result.problem.as_dict() if result.problem else None}
        bad += not verdict["ok"]
        if as_json:
            click.echo(json.dumps(verdict))
        elif verdict["ok"]:
            out().print(Text(ngettext("game {number}: legal, same result ({n} action)",
                                      "game {number}: legal, same result ({n} actions)", verdict["actions"]).format(
                number=number, n=verdict["actions"])))
        else:
            message = verdict["problem"]["message"] if verdict["problem"] else gettext("different result")
            what = (N_("game {number}: illegal: {message}") if not verdict["legal"] else
                    N_("game {number}: legal, different result: {message}"))
            out().print(Text(say(what, number=number, message=message), style="red"))
    if bad:
        sys.exit(EXIT_INPUT)


@click.command("review", context_settings=CONTEXT)
@click.argument("games", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--game", "number", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of the file (its line, counting from 1).")
@click.option("--player", help="Whose decisions to review (a player's name; the first player by default).")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Search nodes of each joint solve of the draw and placement advice (default: the advisor's).")
@click.option("--routes-only", is_flag=True, help="Review the routes alone (quick): no draw or placement advice.")
@click.option("--svg", "svg_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Draw each round's board with the best and the travelled route into this folder "
                   "(round-1.svg, ...; existing files are never written over).")
@json_option
def review(games: Path, number: int, player: str | None, nodes: int | None, routes_only: bool,
           svg_dir: Path | None, as_json: bool) -> None:
    """Review one player's game: each draw and placement beside the advisor's choice and what it cost (by the joint
    plan), the best route beside the travelled one per round (exact), every player's towns per round, a summary.

    \b
    Examples:
      elfenland review games.jsonl
      elfenland review games.jsonl --game 3 --player greedy#2 --svg review/
    """
    from planner.elfenland.game.review import RecordError, review_dict, review_game

    lines = [line for line in games.read_text(encoding="utf-8").splitlines() if line.strip()]
    taken = sorted(svg_dir.glob("round-*.svg")) if svg_dir is not None and svg_dir.is_dir() else []
    if taken:
        raise click.BadParameter(say("{path} exists; choose a new folder (files are never written over)",
                                     path=taken[0]), param_hint="--svg")
    if number > len(lines):
        raise click.BadParameter(say("{games} holds {n} games, not {number}", games=games, n=len(lines),
                                     number=number), param_hint="--game")
    try:
        record = json.loads(lines[number - 1])
        if not isinstance(record, dict):
            raise RecordError(say("game {number} of {games} is no game record", number=number, games=games))
        result = review_game(record, player, decisions=not routes_only,
                             **({} if nodes is None else {"nodes": nodes}))
    except json.JSONDecodeError as error:
        err().print(Text(say("error: {message}", message=say("game {number} of {games} is no JSON: {error}",
                                                              number=number, games=games, error=error)), style="red"))
        sys.exit(EXIT_INPUT)
    except RecordError as error:
        err().print(Text(say("error: {message}", message=error), style="red"))
        sys.exit(EXIT_INPUT)
    if svg_dir is not None:
        _write_svgs(svg_dir, result)
    if as_json:
        click.echo(json.dumps(review_dict(result)))
        return
    console = out()
    decisions = Table(title=say("{player}'s draws and placements", player=result.player))
    for column in (N_("round"), N_("phase"), N_("played"), N_("advisor"), N_("cost (towns, cards)")):
        decisions.add_column(gettext(column))
    for d in result.decisions:
        cost = "-" if d.cost is None else f"{format_number(d.cost[0], '+.2f')}, {format_number(d.cost[1], '+.2f')}"
        decisions.add_row(str(d.round), _phase(d.phase), Text(_blind(d.played)),
                          Text(_blind(d.advised)), cost)
    console.print(decisions)
    routes = Table(title=say("{player}'s routes", player=result.player))
    for column in (N_("round"), N_("travelled"), N_("best"), N_("cost (towns, cards)")):
        routes.add_column(gettext(column))
    for r in result.rounds:
        best = say("{route} ({towns}, {cards})", route=r.best, towns=count(r.best.score, "town"),
                   cards=count(r.best.cards_spent, "card")) + ("" if r.proven else " " + gettext("unproven"))
        travelled = say("{route} ({towns}, {cards})", route=r.travelled, towns=count(r.travelled.score, "town"),
                        cards=count(r.travelled.cards_spent, "card"))
        routes.add_row(str(r.round), Text(travelled), Text(best), f"{r.cost[0]:+d}, {r.cost[1]:+d}")
    console.print(routes)
    chart = Table(title=gettext("towns per round"))
    chart.add_column(gettext("player"))
    rounds = max((len(v) for v in result.towns.values()), default=0)
    for k in range(rounds):
        chart.add_column(say("r{n}", n=k + 1), justify="right")
    chart.add_column("")
    for name, counts in result.towns.items():
        chart.add_row(Text(name), *(str(c) for c in counts), "█" * (counts[-1] if counts else 0))
    console.print(chart)
    console.print(Text(result.summary))


def _write_svgs(folder: Path, result: Any) -> None:
    from planner.elfenland.svg import render_svg

    folder.mkdir(parents=True, exist_ok=True)
    for r in result.rounds:
        path = folder / f"round-{r.round}.svg"
        if path.exists():
            err().print(Text(say("error: {message}", message=say(
                "{path} exists; choose a new folder (files are never written over)", path=path)), style="red"))
            sys.exit(EXIT_INPUT)
        plans = [r.best] if r.best.steps == r.travelled.steps else [r.best, r.travelled]
        path.write_text(render_svg(r.position, plans, title=say(
            "{player}, round {round}: best (solid), travelled (dashed)", player=result.player, round=r.round)),
            encoding="utf-8")
        err().print(Text(say("drew {path}", path=path)))


PHASES = {"draw": N_("drawing"), "plan": N_("planning"), "travel": N_("travelling"), "discard": N_("discarding"),
          "keep": N_("keeping")}
"""A phase as the tables and prompts say it (the JSON and the record keep ``draw``, ``plan`` ...)."""


def _phase(phase: object) -> str:
    value = str(getattr(phase, "value", phase))
    return gettext(PHASES.get(value, value))


def _blind(choice: str) -> str:
    """A draw's choice as the table says it: ``blind`` (from the stack) in the language, a counter as it is."""
    return gettext("blind") if choice == "blind" else choice


HUMAN = "me"


@click.command("play", context_settings=CONTEXT)
@click.option("--seats", default="me,advisor,greedy", show_default=True,
              help=f"Seats in table order: 'me' once, and bots ({', '.join(SEATS)}).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option("--out", "out_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to save the record (default elfenland-game-SEED.jsonl here; never written over).")
def play(seats: str, seed: int, out_path: Path | None) -> None:
    """A practice game in the terminal against bots. Type your decisions in the project's notations: a face-up
    index or 'blind'; 'D@LAP-VIR:p', 'X@LAP-VIR:p' or 'pass'; route steps ('LAP/P VIR/E', '-' to stay); the cards
    to discard; the counter to keep or '-'. 'hint' shows the advisor's choice. The record is saved at the end;
    Ctrl-C saves it and exits 130.

    \b
    Example:
      elfenland play --seats me,advisor,greedy --seed 7
    """
    from planner.elfenland.game.engine import apply, new_game, view
    from planner.elfenland.game.record import build_record, parse_action
    from planner.elfenland.game.seats import make_seat
    from planner.elfenland.game.state import Action, GameState

    kinds = tuple(s.strip().lower() for s in seats.split(","))
    if kinds.count(HUMAN) != 1 or any(k not in SEATS for k in kinds if k != HUMAN) or not 2 <= len(kinds) <= 6:
        raise click.BadParameter(say("name 'me' once and 1 to 5 bots of {seats}", seats=", ".join(SEATS)),
                                 param_hint="--seats")
    path = out_path or Path(f"elfenland-game-{seed}.jsonl")
    if path.exists():
        raise click.BadParameter(say("{path} exists; choose a new file with --out (records are never written over)",
                                     path=path), param_hint="--out")
    me = kinds.index(HUMAN)
    names = [HUMAN if k == HUMAN else f"{k}#{i + 1}" for i, k in enumerate(kinds)]
    bots = {i: make_seat(k, f"{seed}/{names[i]}") for i, k in enumerate(kinds) if k != HUMAN}
    state = new_game(seed, names)
    states: list[GameState] = [state]
    actions: list[Action] = []
    console = out()
    stopped = False
    try:
        while not state.over:
            if state.turn != me:
                action = bots[state.turn].choose(view(state, state.turn))
                console.print(Text(f"{names[state.turn]} ({_phase(state.phase)}): {action}"))
            else:
                action = _ask(state, me, parse_action, console)
            after = apply(state, action)
            if not isinstance(after, GameState):
                console.print(Text(say("illegal: {reason}", reason=after.message), style="red"))
                continue
            state = after
            states.append(state)
            actions.append(action)
    except (KeyboardInterrupt, EOFError, click.Abort):
        stopped = True
    with path.open("x", encoding="utf-8") as handle:
        handle.write(json.dumps(build_record(states, actions, kinds), separators=(",", ":")) + "\n")
    if state.over:
        from planner.elfenland.game.engine import scores

        found, winners = scores(state)
        for s in found:
            console.print(Text(say("{name}: {points} ({towns}, {cards})", name=s.name, points=count(s.points, "point"),
                                   towns=count(s.towns, "town"), cards=count(s.cards, "card"))))
        console.print(Text(say("winner: {names}", names=format_list([names[i] for i in winners]))))
    err().print(Text(say("saved the record to {path}", path=path)))
    if stopped:
        sys.exit(EXIT_STOPPED)


def _ask(state: Any, me: int, parse_action: Any, console: Any) -> Any:
    """My action, typed; ``hint`` asks the advisor, an unreadable text is explained and asked again."""
    from planner.elfenland.game.engine import check, view
    from planner.elfenland.game.seats import make_seat

    seen = view(state, me)
    _show(seen, console)
    while True:
        text = click.prompt(say("your move ({phase})", phase=_phase(state.phase)), prompt_suffix="> ",
                            err=True).strip()
        if text.lower() == "hint":
            console.print(Text(say("advisor: {action}", action=make_seat("advisor", "hint").choose(seen))))
            continue
        try:
            action = parse_action(state, text)
        except NotationError as error:
            console.print(Text(say("not understood: {error}", error=error), style="red"))
            continue
        problem = check(state, action)
        if problem is None:
            return action
        console.print(Text(say("illegal: {reason}", reason=problem.message), style="red"))


def _show(seen: Any, console: Any) -> None:
    """The public table and my side of it."""
    console.print(Text(say("round {round}, {phase}: board {tiles}", round=seen.round, phase=_phase(seen.phase),
                           tiles=",".join(str(t) for t in seen.tiles) or "-")))
    console.print(Text(say("display: {faces}  (stack {stack})", faces=" ".join(
        f"{i}:{t.letter}" for i, t in enumerate(seen.display)), stack=seen.stack)))
    for p in seen.players:
        line = N_("  {name}: in {town}, {towns}, counters {open} +{secret} face down, {cards}, obstacle") \
            if p.obstacle else N_("  {name}: in {town}, {towns}, counters {open} +{secret} face down, {cards}")
        console.print(Text(say(line, name=p.name, town=p.town, towns=count(len(p.visited) - 1, "town"),
                               open=p.open or "-", secret=p.secret, cards=count(p.cards, "card"))))
    mine = N_("your hand {hand}, face-down {secret}, home {home}") if seen.home else \
        N_("your hand {hand}, face-down {secret}")
    console.print(Text(say(mine, hand=seen.hand or "-", secret=seen.secret or "-", home=seen.home)))
