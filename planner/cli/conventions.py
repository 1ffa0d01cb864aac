"""What every command of the planner's command line shares: exit codes, consoles, errors, options, Ctrl-C.

- Results go to standard output (``out``); diagnostics (errors, notes, progress, "drew FILE") to standard error
  (``err``). Text that comes from the user or the library is printed as :class:`rich.text.Text`, never as markup,
  so ``[rules]`` or ``[/red]`` in a message reach the terminal intact.
- Exit codes: 0 success; 1 a bug (a solver failure or any error the planner did not mean to raise); 2 bad input
  (usage, notation, an illegal position or route, an unsupported request such as a missing output folder);
  3 no legal plan; 130 stopped by Ctrl-C (the best answer so far is printed first).
- Ctrl-C during a solve sets the solve's stop event (:func:`stop_on_ctrl_c`): the solve answers its best route so
  far, marked unproven, instead of the process dying with a traceback.
"""

from __future__ import annotations

import functools
import math
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.text import Text

from planner.errors import NoPlanError, PlannerError, is_input_error

__all__ = [
    "EXIT_BUG", "EXIT_INPUT", "EXIT_NO_PLAN", "EXIT_STOPPED", "PlannerCliError", "PositionCommand", "SecondsType",
    "err", "exit_code", "fail", "handle_errors", "json_option", "out", "stop_on_ctrl_c",
]

EXIT_BUG, EXIT_INPUT, EXIT_NO_PLAN, EXIT_STOPPED = 1, 2, 3, 130
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def out() -> Console:
    """The console for results (standard output); colour only on a terminal and without ``NO_COLOR``."""
    return Console(highlight=False)


def err() -> Console:
    """The console for diagnostics (standard error): a message is never broken into lines, so it can be grepped."""
    return Console(stderr=True, highlight=False, soft_wrap=True)  # one line a message, whatever the width


def exit_code(error: PlannerError) -> int:
    """The documented exit code of a planner error."""
    if isinstance(error, NoPlanError):
        return EXIT_NO_PLAN
    return EXIT_INPUT if is_input_error(error) else EXIT_BUG


class PlannerCliError(click.ClickException):
    """A planner error shown as ``error: ...`` on standard error; subclasses carry the documented exit codes."""

    exit_code = EXIT_BUG

    def show(self, file: Any = None) -> None:
        err().print(Text(f"error: {self.message}", style="red"))


class InputCliError(PlannerCliError):
    exit_code = EXIT_INPUT


class NoPlanCliError(PlannerCliError):
    exit_code = EXIT_NO_PLAN


def fail(error: PlannerError) -> NoReturn:
    """End the command with the error's message and exit code."""
    kind = {EXIT_INPUT: InputCliError, EXIT_NO_PLAN: NoPlanCliError}.get(exit_code(error), PlannerCliError)
    raise kind(str(error))


def handle_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn a :class:`PlannerError` raised by the command into its message and exit code."""
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except PlannerError as error:
            fail(error)

    return wrapper


@contextmanager
def stop_on_ctrl_c() -> Iterator[threading.Event]:
    """An event set by Ctrl-C while the block runs (in the main thread; elsewhere it is never set by a signal).

    The solve watching the event then answers its best route so far; the command prints it and exits 130.
    """
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: stop.set())
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, previous)


class SecondsType(click.ParamType):  # type: ignore[type-arg, unused-ignore]
    """A positive, finite number of seconds (``nan`` and ``inf`` are refused)."""

    name = "SECONDS"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(f"{value!r} must be a positive, finite number of seconds", param, ctx)
        return seconds


def json_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--json``: only JSON on standard output."""
    return click.option("--json", "as_json", is_flag=True, help="JSON output (one object per line with several "
                        "positions).")(func)


class PositionCommand(click.Command):
    """A command whose positional arguments may be whole positions in compact notation.

    A position with no counters starts with ``-`` (``"- RIV EDR - 1"``), which the option parser would take for
    an option. An argument that starts with ``-``, holds whitespace and does not follow an option expecting a
    value can never be an option, so it is passed through as a positional argument.
    """

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {name for p in self.params if isinstance(p, click.Option) and not p.is_flag and not p.count
                       for name in (*p.opts, *p.secondary_opts)}
        hidden: dict[str, str] = {}
        passed: list[str] = []
        after_option = False
        for arg in args:
            if not after_option and arg.startswith("-") and not arg.startswith("--") \
                    and any(ch.isspace() for ch in arg):
                key = f"\0position-{len(hidden)}"
                hidden[key] = arg
                passed.append(key)
            else:
                passed.append(arg)
            after_option = arg in takes_value
        rest = super().parse_args(ctx, passed)
        if hidden:
            for name, value in list(ctx.params.items()):
                if isinstance(value, str):
                    ctx.params[name] = hidden.get(value, value)
                elif isinstance(value, tuple):
                    ctx.params[name] = tuple(hidden.get(v, v) if isinstance(v, str) else v for v in value)
        return rest
