"""Rule options: one named option with its values (the default first), read from a ``[rules]`` table or the
notation's ``key=value`` field, all problems at once.

Both games state their rule decisions this way; each game's ``Rules`` names its options and keeps its own
defaults and derived flags, while reading, parsing and writing the values lives here once.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from planner.common.forms import Form
from planner.common.names import Names, key_values
from planner.common.problems import Problems
from planner.errors import NotationError

__all__ = ["RuleOption", "changed_options", "option_text", "parse_options", "read_options",
           "set_options"]


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule option: its name (the ``[rules]`` key), its values (the default first) and a line of help."""

    name: str
    values: tuple[Any, ...]
    help: str
    aliases: tuple[str, ...] = ()
    """Shorter keys accepted in the notation's rule field (``when=strict``)."""

    @property
    def default(self) -> Any:
        """The value the game's rules take when nothing is said."""
        return self.values[0]

    @property
    def texts(self) -> tuple[str, ...]:
        """The values as typed on the command line and in the notation: ``flat``, ``3``, ``true``."""
        return tuple(option_text(v) for v in self.values)

    def match(self, given: Any) -> Any | None:
        """The option's value that ``given`` is (a string for an enum member, the exact type otherwise), or None."""
        return next((v for v in self.values if _same_value(v, given)), None)

    def refusal(self, value: Any) -> str:
        """Why ``value`` is not a value of this option: ``rule option rounds = 5 must be 3 or 4``."""
        if isinstance(self.default, bool | int):
            return f"rule option {self.name} = {value!r} must be {' or '.join(sorted(self.texts))}"
        return f"rule option {self.name} = {value!r} is not one of {', '.join(self.texts)}"

    def parse(self, text: str) -> Any:
        """The value ``text`` names (a unique prefix will do; ``on``/``off``/``yes``/``no`` for switches).

        Raises:
            NotationError: no such value.
        """
        names: dict[Any, tuple[str, ...]] = {v: (option_text(v),) for v in self.values}
        for value, words in ((True, ("on", "yes")), (False, ("off", "no"))):
            if value in names:
                names[value] += words
        lookup = Names(f"value of rule option {self.name}", names, {v: option_text(v) for v in self.values},
                       prefixes=not isinstance(self.default, int))
        return lookup.find(text)


def option_text(value: Any) -> str:
    """A value as typed: ``true``/``false`` for switches, the text of an enum member, digits for a number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _same_value(option_value: Any, given: Any) -> bool:
    """Whether ``given`` is ``option_value`` with the right type: ``3`` is a round count, ``3.0`` and ``True``
    are not; ``"flat"`` is the enum member whose value is ``"flat"``."""
    if isinstance(option_value, bool) or isinstance(given, bool):
        return isinstance(option_value, bool) and isinstance(given, bool) and option_value is given
    if isinstance(option_value, int):
        return type(given) is int and given == option_value
    return isinstance(given, str) and given == option_value


def set_options(rules: object, options: Mapping[str, RuleOption], given: Mapping[str, Any]) -> None:
    """Store each given value on the frozen ``rules`` as its option's own value (``"flat"`` becomes the enum
    member), so a game's ``Rules`` takes text as well as members.

    Raises:
        NotationError: every given value that is none of its option's values, all named at once.
    """
    bad = []
    for name, option in options.items():
        match = option.match(given[name])
        if match is None:
            bad.append(option.refusal(given[name]))
        else:
            object.__setattr__(rules, name, match)
    if bad:
        raise NotationError("; ".join(bad), kind="bad-rule")


def read_options(options: Mapping[str, RuleOption], data: Mapping[str, Any], *, where: str) -> dict[str, Any]:
    """The options a ``[rules]`` table sets (TOML types: strings, whole numbers, booleans).

    Raises:
        IllegalPositionError: every unknown option and bad value, each naming its key.
    """
    problems = Problems()
    form = Form(data, problems, keys=tuple(options), where=where, what="rule option")
    values: dict[str, Any] = {}
    for name, option in options.items():
        if not form.has(name):
            continue
        raw = data[name]
        match = option.match(raw)
        if match is None:
            problems.add("bad-rule", form.name(name), raw, option.refusal(raw))
        else:
            values[name] = match
    problems.check()
    return values


def parse_options(options: Mapping[str, RuleOption], text: str, *, example: str) -> dict[str, Any]:
    """The options the notation's rule field sets (``caravan=scaled,rounds=3``; names and values may be prefixes).

    Raises:
        NotationError: an unknown option, a malformed item (the message shows ``example``) or a bad value.
    """
    keys = Names("rule option", {name: (name, *o.aliases) for name, o in options.items()}, {n: n for n in options})
    values: dict[str, Any] = {}
    for key, value, _ in key_values(text, example=example, kind="bad-rule"):
        name = keys.find(key, where="rules")
        values[name] = options[name].parse(value)
    return values


def changed_options(options: Mapping[str, RuleOption], rules: object) -> dict[str, Any]:
    """The options of ``rules`` (an object with one attribute per option) that differ from the defaults, as a
    ``[rules]`` table of plain strings, ints and bools."""
    found: dict[str, Any] = {}
    for name, option in options.items():
        value = getattr(rules, name)
        if value != option.default:
            found[name] = value.value if isinstance(value, enum.Enum) else value
    return found
