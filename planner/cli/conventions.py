"""What every command of the planner's command line shares: exit codes, consoles, errors, options, Ctrl-C.

- Results go to standard output (``out``); diagnostics (errors, notes, progress, "drew FILE") to standard error
  (``err``). Text that comes from the user or the library is printed as :class:`rich.text.Text`, never as markup,
  so ``[rules]`` or ``[/red]`` in a message reach the terminal intact.
- Exit codes: 0 success; 1 a bug (a solver failure or any error the planner did not mean to raise); 2 bad input
  (usage, notation, an illegal position or route, an unsupported request such as a missing output folder);
  3 no legal plan; 130 stopped by Ctrl-C (the best answer so far is printed first).
- Ctrl-C during a solve sets the solve's stop event (:func:`stop_on_ctrl_c`): the solve answers its best route so
  far, marked unproven, instead of the process dying with a traceback.
- Every command ends through :func:`answer`: JSON or rich text, the diagnostics beside it, the pictures, the exit
  code. A result that cannot be written (a full disk, a closed pipe) is an error naming where, exit 2.
- The flags both games share are spelled here once: ``--time-limit SECONDS`` and ``--nodes N``
  (:func:`limit_options`, one :class:`Limit` from :func:`limit_from`), ``--seed`` (:func:`seed_option`),
  ``--svg FILE``/``--png FILE`` (:func:`picture_options`: ``--svg`` writes SVG, ``--png`` PNG, and a file name
  ending otherwise is refused before any work), ``--json`` (:func:`json_option`), whole numbers
  (:class:`WholeNumber`).
"""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, NoReturn, overload

import click
from rich.console import Console, RenderableType
from rich.text import Text

from planner.common import i18n
from planner.common.i18n import N_, gettext, say
from planner.common.limits import Limit
from planner.common.problems import error_text
from planner.common.values import frozen
from planner.errors import NoPlanError, PlannerError, UnsupportedError, is_input_error

__all__ = [
    "CLICK_MODULES", "EXIT_BUG", "EXIT_INPUT", "EXIT_NO_PLAN", "EXIT_STOPPED", "MAX_SEED", "PlannerCliError",
    "Pictures", "PositionCommand", "SecondsType", "SpeakingCommand", "SpeakingGroup", "SpeakingOption",
    "WholeNumber", "answer", "click_gettext", "click_ngettext", "err", "exit_code", "fail", "finish",
    "handle_errors", "help_text", "json_option", "lang_option", "language_in", "limit_from", "limit_options", "out",
    "picture_options", "route_click", "seed_option", "speaking", "still_status", "stop_on_ctrl_c",
    "writing",
]

EXIT_BUG, EXIT_INPUT, EXIT_NO_PLAN, EXIT_STOPPED = 1, 2, 3, 130
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
PIPED_WIDTH = 200
"""Columns of output that is not a terminal (a pipe, a file) and has no ``COLUMNS``: wide, so nothing folds."""
MAX_SEED = 2**31 - 1
"""The largest seed any command takes (CP-SAT's ``random_seed`` is a 32-bit signed integer)."""


def out() -> Console:
    """The console for results (standard output); colour only on a terminal and without ``NO_COLOR``.

    Piped or redirected (and no ``COLUMNS`` set), tables are laid out :data:`PIPED_WIDTH` wide and lines are not
    folded: a script reading the output, or a file, gets each line whole instead of rich's default 80 columns.
    """
    console = Console(highlight=False, emoji=False)
    if not console.is_terminal and not os.environ.get("COLUMNS"):
        return Console(highlight=False, emoji=False, width=PIPED_WIDTH, soft_wrap=True)
    return console


def err() -> Console:
    """The console for diagnostics (standard error): a message is never broken into lines, so it can be grepped."""
    return Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)  # one line a message, whatever the width


def exit_code(error: PlannerError) -> int:
    """The documented exit code of a planner error."""
    if isinstance(error, NoPlanError):
        return EXIT_NO_PLAN
    return EXIT_INPUT if is_input_error(error) else EXIT_BUG


class PlannerCliError(click.ClickException):
    """A planner error shown as ``error: ...`` on standard error; subclasses carry the documented exit codes."""

    exit_code = EXIT_BUG

    def show(self, file: Any = None) -> None:
        err().print(Text(say("error: {message}", message=self.message), style="red"))


class InputCliError(PlannerCliError):
    exit_code = EXIT_INPUT


class NoPlanCliError(PlannerCliError):
    exit_code = EXIT_NO_PLAN


def fail(error: PlannerError) -> NoReturn:
    """End the command with the error's message and exit code."""
    kind = {EXIT_INPUT: InputCliError, EXIT_NO_PLAN: NoPlanCliError}.get(exit_code(error), PlannerCliError)
    raise kind(error_text(error))


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
def still_status(text: str) -> Iterator[None]:
    """A status line on standard error while the block runs, cleared after it, drawn once and so without the
    spinner's thread: work under it may fork worker processes (a fork is refused while another thread runs), which
    a sub-second command such as ``draw`` needs more than an animation."""
    from rich.live import Live

    with Live(Text(text), console=err(), auto_refresh=False, transient=True):
        yield


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
            self.fail(say("{value} is not a number of seconds", value=repr(value)), param, ctx)
        if not math.isfinite(seconds) or seconds <= 0:
            self.fail(say("{value} must be a positive, finite number of seconds", value=repr(value)), param, ctx)
        return seconds


_Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


@overload
def json_option(func: Callable[..., Any], *, help: str = ...) -> Callable[..., Any]: ...
@overload
def json_option(func: None = None, *, help: str = ...) -> _Decorator: ...
def json_option(func: Callable[..., Any] | None = None, *, help: str = "JSON output on standard output."
                ) -> Callable[..., Any] | _Decorator:
    """``--json``: only JSON on standard output (``@json_option``, or ``@json_option(help=...)`` to say more)."""
    option = click.option("--json", "as_json", is_flag=True, help=help)
    return option if func is None else option(func)


class WholeNumber(click.IntRange):
    """A whole number in a range, refused in words (click's own says ``'abc' is not a valid integer range``)."""

    name = "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, int):
            try:
                value = int(str(value).strip(), 10)
            except ValueError:
                self.fail(self._refusal(repr(value)), param, ctx)
        return super().convert(value, param, ctx)

    def _refusal(self, value: str) -> str:
        if self.min is not None and self.max is not None:
            return say("{value} is not a whole number; give one from {low} to {high}", value=value, low=self.min,
                       high=self.max)
        if self.min is not None:
            return say("{value} is not a whole number; give one of at least {low}", value=value, low=self.min)
        return say("{value} is not a whole number", value=value)


def seed_option(*, help: str, default: int | None = 0) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--seed``: a whole number 0..:data:`MAX_SEED` (None as the default: the command picks one)."""
    return click.option("--seed", type=WholeNumber(0, MAX_SEED), default=default, show_default=default is not None,
                        help=help)


def limit_options(*, default: float, time_help: str, nodes_help: str) -> Callable[[Callable[..., Any]],
                                                                                  Callable[..., Any]]:
    """``--time-limit SECONDS`` and ``--nodes N``, given to the command as one ``limit`` (see :func:`limit_from`).

    ``default`` seconds apply unless ``--nodes`` is given alone: a node limit then is the only limit, so the
    answer is the same on any machine, however slow.
    """
    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, time_limit: float | None, nodes: int | None, **kwargs: Any) -> Any:
            return func(*args, limit=limit_from(time_limit, nodes, default=default), **kwargs)

        wrapper = click.option("--nodes", type=WholeNumber(1), default=None, metavar="N", help=nodes_help)(wrapper)
        return click.option("--time-limit", type=SecondsType(), default=None,
                            help=f"{time_help}  [default: {default:g}]")(wrapper)

    return decorate


def limit_from(time_limit: float | None, nodes: int | None, *, default: float) -> Limit:
    """The limit the flags ask for: the seconds given (else ``default``, unless a node limit is given alone) and
    the nodes given."""
    if time_limit is None and nodes is None:
        time_limit = default
    return Limit(time=time_limit, nodes=nodes)


# -- pictures ---------------------------------------------------------------------------------------------------
@frozen
class Pictures:
    """The picture files a command was asked to draw: ``--svg FILE`` (SVG) and ``--png FILE`` (PNG)."""

    svg: str | None = None
    png: str | None = None

    def __bool__(self) -> bool:
        return bool(self.svg or self.png)

    def check(self) -> None:
        """Refuse a bad picture path before any work, so the user does not wait for the error.

        ``--svg`` writes SVG, so its file name ends in ``.svg``; ``--png``'s in ``.png``. The folder must exist.
        """
        if not self:
            return
        from planner.common.svg import check_picture_path  # only a command that draws pays for the drawing code

        for flag, path in self._files():
            if not path.lower().endswith(f".{flag}"):
                other = "png" if flag == "svg" else "svg"
                message = (N_("--{flag} writes {kind}: name a .{flag} file, not {path!r} (or use --{other} {path})")
                           if path.lower().endswith(f".{other}") else
                           N_("--{flag} writes {kind}: name a .{flag} file, not {path!r}"))
                fail(UnsupportedError(say(message, flag=flag, kind=flag.upper(), path=path, other=other)))
            try:
                check_picture_path(path)
            except PlannerError as error:
                fail(error)

    def draw(self, picture: Callable[[], str]) -> None:
        """Draw the SVG text ``picture()`` to each file asked for (each whole or not at all), saying so on stderr."""
        if not self:
            return
        from planner.common.svg import write_picture

        try:
            text = picture()
            for _, path in self._files():
                write_picture(text, path)
                err().print(Text(say("drew {path}", path=path)))
        except PlannerError as error:
            fail(error)

    def _files(self) -> list[tuple[str, str]]:
        return [(flag, path) for flag, path in (("svg", self.svg), ("png", self.png)) if path]


def picture_options(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--svg FILE`` and ``--png FILE`` (drawing ``what``), checked before the command runs and given to it as one
    ``pictures`` (:class:`Pictures`)."""
    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapper(*args: Any, svg: str | None, png: str | None, **kwargs: Any) -> Any:
            pictures = Pictures(svg, png)
            pictures.check()
            return func(*args, pictures=pictures, **kwargs)

        wrapper = click.option("--png", metavar="FILE", help=f"Draw {what} to this PNG file (.png).")(wrapper)
        return click.option("--svg", metavar="FILE", help=f"Draw {what} to this SVG file (.svg).")(wrapper)

    return decorate


# -- answers ----------------------------------------------------------------------------------------------------
def answer(document: Any, *views: RenderableType | None, as_json: bool, notes: Iterable[RenderableType] = (),
           position_line: RenderableType | None = None, indent: int | None = 2, pictures: Pictures | None = None,
           picture: Callable[[], str] | None = None, stopped: bool = False, stopped_note: str | None = None,
           code: int = 0, last: bool = True) -> None:
    """Print a command's answer and, when it is the ``last``, end the command with its exit code.

    With ``as_json`` only ``document`` reaches standard output (``indent`` None: one line). Otherwise ``notes``
    (warnings) go to standard error, then the ``views`` (None ones skipped) and the ``position_line`` (never
    folded, to copy) to standard output. The ``pictures`` are drawn from ``picture()`` after the answer. The exit
    code is 130 when ``stopped`` (``stopped_note`` on stderr says what is unproven), else ``code``.
    """
    with writing():
        if as_json:
            click.echo(json.dumps(document, indent=indent, ensure_ascii=False))
        else:
            for note in notes:
                err().print(note)
            console = out()
            for view in views:
                if view is not None:
                    console.print(view)
            if position_line is not None:
                console.print(position_line, soft_wrap=True)
    if pictures and picture is not None:
        pictures.draw(picture)
    if last:
        finish(code=code, stopped=stopped, note=stopped_note)


def finish(*, code: int = 0, stopped: bool = False, note: str | None = None) -> None:
    """End the command: 130 when ``stopped`` (after ``note`` on standard error), else ``code`` (0: return)."""
    if stopped:
        err().print(Text(note or gettext("stopped (Ctrl-C): the answer above is the best found so far, not proven"),
                         style="yellow"))
        sys.exit(EXIT_STOPPED)
    if code:
        sys.exit(code)


@contextmanager
def writing() -> Iterator[None]:
    """Print to standard output in the block: if it refuses (a full disk, a closed pipe), end the command with a
    message saying so and exit 2, not a traceback (:func:`answer` prints this way; so does the trainer's loop)."""
    try:
        yield
        sys.stdout.flush()
    except OSError as error:
        _unwritable(error)


def _unwritable(error: OSError) -> NoReturn:
    """Standard output refused the answer (a full disk, a closed pipe): say so and exit 2, without a traceback at
    exit from Python flushing the rest of the answer to the same place."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (a test runner's buffer)
        descriptor = None
    if descriptor is not None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, descriptor)
        os.close(devnull)
    reason = "the reader closed the pipe" if error.errno == errno.EPIPE else error.strerror or str(error)
    raise InputCliError(f"cannot write the answer to standard output: {reason}")


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


# -- the language ---------------------------------------------------------------------------------------------
# Two kinds of text reach the player from click: the planner's own help (docstrings, option help, epilogs), which
# is English source in the code and translated when the help is rendered (the language is known only at run time,
# and a command's module is imported only when it is looked up), and click's own words ("Usage:", "Options:",
# "No such option: --x"), which click looks up through ``gettext`` bound as ``_`` (and ``ngettext``) in each of its
# modules. The help texts are messages of the ``planner`` catalogue (extracted by ``planner.cli.help_catalogue``,
# which walks both groups' commands); click's words are those of a catalogue of their own, ``click``, extracted
# from the installed click's source (docs/languages.md). English never changes a thing: the source is printed.
CLICK_DOMAIN = "click"
CLICK_MODULES = ("click.core", "click.decorators", "click.exceptions", "click.formatting", "click.parser",
                 "click.shell_completion", "click.termui", "click.types", "click.utils", "click._termui_impl")
"""click's modules that bind ``gettext`` (as ``_``) or ``ngettext`` at import (``click._winconsole`` too, which only
Windows imports); ``tests/cli/test_cli_speaks.py`` fails when an installed click has another one."""


WRAPPING_MODULES = ("click._textwrap", "click.formatting")
"""Where click's ``wrap_text`` finds its ``TextWrapper`` (8.5 imports it from ``click._textwrap`` on each call,
earlier versions bound it in ``click.formatting``): :func:`route_click` puts :class:`~planner.cli.wrapping.CellWrapper`
there."""


HELP_OPTION_HELP = "Show this message and exit."
"""click's help of ``--help``, its source as in click's catalogue."""


def click_gettext(message: str) -> str:
    """click's ``_``: ``message`` in the language spoken now, from the ``click`` catalogue."""
    lang = i18n.language()
    return message if lang == "en" else i18n.catalogue(lang, CLICK_DOMAIN).gettext(message)


def click_ngettext(singular: str, plural: str, n: int) -> str:
    """click's ``ngettext``, by the language's plural rule, from the ``click`` catalogue."""
    lang = i18n.language()
    if lang == "en":
        return singular if n == 1 else plural
    return i18n.catalogue(lang, CLICK_DOMAIN).ngettext(singular, plural, n)


def _route_click_messages(modules: Iterable[Any]) -> None:
    for module in modules:
        if hasattr(module, "_"):
            module._ = click_gettext
        if hasattr(module, "ngettext"):
            module.ngettext = click_ngettext


def route_click() -> None:
    """Send click's ``_`` and ``ngettext`` to the ``click`` catalogue in every module of click that binds them
    (once; each call then asks the language), and click's help wrapping to
    :class:`~planner.cli.wrapping.CellWrapper`.

    Done when a language other than English is spoken. In English the modules already loaded are routed as this
    module loads (their words are click's own either way): stdlib gettext's first call imports ``locale`` and
    looks on disk for a catalogue that click never ships, 2-3 ms of every start-up, at click's decorators.
    """
    import importlib  # only for another language

    from planner.cli.wrapping import CellWrapper

    _route_click_messages(importlib.import_module(name) for name in CLICK_MODULES)
    for name in WRAPPING_MODULES:  # Japanese help wrapped by the terminal cells it fills
        module = importlib.import_module(name)
        if hasattr(module, "TextWrapper"):
            module.TextWrapper = CellWrapper  # type: ignore[attr-defined]


_route_click_messages(sys.modules[name] for name in CLICK_MODULES if name in sys.modules)


def help_text(text: str) -> str:
    """A help text (a docstring, an option's help, an epilog) in the language spoken now: the ``planner``
    catalogue's, else the ``click`` one's (``--version``'s help is click's), else the English source."""
    if i18n.language() == "en":
        return text
    import inspect  # only for another language

    source = inspect.cleandoc(text)
    translated = gettext(source)
    return click_gettext(source) if translated == source else translated


@contextmanager
def _spoken(thing: Any, *attributes: str) -> Iterator[None]:
    """``thing``'s help ``attributes`` translated while click formats them (English: untouched)."""
    if i18n.language() == "en":
        yield
        return
    kept = {name: getattr(thing, name) for name in attributes}
    try:
        for name, value in kept.items():
            if value:
                setattr(thing, name, help_text(value))
        yield
    finally:
        for name, value in kept.items():
            setattr(thing, name, value)


class SpeakingCommand(click.Command):
    """Mixed into every command of both groups (by :func:`speaking`): its help, short help and epilog are
    translated as they are rendered."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _spoken(self, "help"):
            super().format_help_text(ctx, formatter)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with _spoken(self, "epilog"):
            super().format_epilog(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        with _spoken(self, "help", "short_help"):
            return super().get_short_help_str(limit)

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        """click's ``--help`` (made once and kept: its help, click's words, is translated as it is rendered)."""
        option = super().get_help_option(ctx)
        if option is not None:  # made in the language of the first call: keep click's source, translated on use
            option.__class__ = _speaking_class(type(option), SpeakingOption)
            option.help = HELP_OPTION_HELP
        return option


class SpeakingOption(click.Option):
    """Mixed into every option of the commands (by :func:`speaking`): its help is translated as it is rendered."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        with _spoken(self, "help"):
            return super().get_help_record(ctx)


_SPEAKING: dict[tuple[type, type], type] = {}


def _speaking_class(cls: type, mixin: type) -> type:
    """``cls`` with ``mixin`` in front (made once a class): a command's or option's own class, speaking."""
    if issubclass(cls, mixin):
        return cls
    if (cls, mixin) not in _SPEAKING:
        _SPEAKING[cls, mixin] = type(cls.__name__, (mixin, cls), {"__module__": cls.__module__})
    return _SPEAKING[cls, mixin]


_ASKED: ContextVar[str | None] = ContextVar("planner_cli_lang", default=None)
"""The language the command line names (read by :meth:`SpeakingGroup.main` before click parses it)."""


def _speak(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is None and ctx.parent is not None and ctx.parent.meta.get("planner.lang"):
        return  # the group's --lang holds for its command
    try:  # a group without --lang of its own keeps the command's, given after the command's name
        chosen = i18n.use(value if value is not None else _ASKED.get())
    except ValueError as error:
        raise click.BadParameter(str(error), ctx=ctx, param=param) from None
    if chosen != "en":
        route_click()
    if value is not None:
        ctx.meta["planner.lang"] = chosen


def lang_option() -> click.Option:
    """``--lang LANG``: the language of the answer (else ``ELFENLAND_LANG``, else the locale, else English)."""
    return SpeakingOption(["--lang"], metavar="LANG", expose_value=False, is_eager=True, callback=_speak,
                          help=f"Language of the answer: {', '.join(i18n.LANGUAGES)} (default: ELFENLAND_LANG, "
                          "else the locale LC_ALL/LANG, else en).")


def speaking(command: click.Command) -> click.Command:
    """``command`` with :func:`lang_option` (once), its help and its options' translated as they are rendered
    (:class:`SpeakingCommand`, :class:`SpeakingOption` mixed into their own classes), and every command of a group
    likewise when it is looked up."""
    if not any(p.name == "lang" for p in command.params):
        command.params.append(lang_option())
    command.__class__ = _speaking_class(type(command), SpeakingCommand)
    for param in command.params:
        if isinstance(param, click.Option):
            param.__class__ = _speaking_class(type(param), SpeakingOption)
    return command


def language_in(args: list[str]) -> str | None:
    """The value of the first ``--lang LANG`` or ``--lang=LANG`` of a command line (before ``--``), if any."""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang":
            return args[i + 1] if i + 1 < len(args) else None
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


class SpeakingGroup(SpeakingCommand, click.Group):
    """A group whose every command takes ``--lang`` (added as each is looked up, so lazy commands stay lazy) and
    speaks its help and click's words in the language chosen.

    The command line is read for ``--lang`` before click parses it: click refuses an unknown option or a bad value
    before any callback runs, and its message must be in the language asked for too.
    """

    def main(self, args: Any = None, *rest: Any, **extra: Any) -> Any:
        lang = i18n.parse_language(language_in(list(sys.argv[1:] if args is None else args)))
        _ASKED.set(lang)
        if i18n.use(lang) != "en":  # an unknown --lang is refused by the option itself, in the environment's
            route_click()
        return super().main(args, *rest, **extra)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        return None if command is None else speaking(command)
