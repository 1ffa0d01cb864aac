"""Rule options: one named option with its values (the default first), read from a ``[rules]`` table or the
notation's ``key=value`` field, all problems at once.

Both games state their rule decisions this way: each game's ``Rules`` derives from :class:`GameRules` and keeps
only its options, their defaults and the flags derived from them, while storing, reading, parsing and writing the
values lives here once.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from planner.common.forms import Form
from planner.common.i18n import say
from planner.common.names import Names, either, key_values
from planner.common.problems import Problems
from planner.common.values import frozen
from planner.errors import NotationError

__all__ = ["GameRules", "RuleOption", "changed_options", "option_text", "parse_options", "read_options",
           "set_options"]


@frozen
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
            return say("rule option {name} = {value} must be {choices}", name=self.name, value=repr(value),
                       choices=either(sorted(self.texts)))
        return say("rule option {name} = {value} is not one of {choices}", name=self.name, value=repr(value),
                   choices=", ".join(self.texts))

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
                       prefixes=not isinstance(self.default, int),
                       label=say("value of rule option {name}", name=self.name))
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


class GameRules:
    """The base of a game's ``Rules``: a frozen dataclass with one field per option of :attr:`OPTIONS`.

    A subclass names its options (:attr:`OPTIONS`, in the order of its fields), an example for error messages
    (:attr:`EXAMPLE`), the defaults (its fields') and its derived flags; this base stores each value as its
    option's own (text such as ``"flat"`` becomes the enum member, a bad value is refused with every bad one
    named), reads a ``[rules]`` table, parses the notation's rule field and writes both back.

    Raises:
        NotationError: (on construction) a value that is not one of its option's values.
    """

    __slots__ = ()
    OPTIONS: ClassVar[Mapping[str, RuleOption]]
    """Every option, by field name, in the order of the fields."""
    EXAMPLE: ClassVar[str]
    """One rule field in the notation, shown when an item is malformed: ``'caravan=scaled'``."""

    def __post_init__(self) -> None:
        """Store the values the dataclass's constructor was given as the options' own values."""
        self._store({name: getattr(self, name) for name in self.OPTIONS})

    def _store(self, given: Mapping[str, Any]) -> None:
        """Store ``given`` (one value per option) on this frozen object; for a subclass with its own constructor.

        Raises:
            NotationError: every value that is none of its option's values, all named at once.
        """
        set_options(self, self.OPTIONS, given)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, where: str = "rules.") -> Self:
        """Rules from a ``[rules]`` table (TOML types: strings, whole numbers, booleans).

        Raises:
            IllegalPositionError: every unknown option and bad value, each naming its key.
        """
        return cls._make(read_options(cls.OPTIONS, data, where=where))

    @classmethod
    def from_str(cls, text: str) -> Self:
        """Rules from the notation's rule field, e.g. ``caravan=scaled,rounds=3`` (names and values may be prefixes).

        Raises:
            NotationError: an unknown option, a malformed item or a bad value.
        """
        return cls._make(parse_options(cls.OPTIONS, text, example=cls.EXAMPLE))

    @classmethod
    def _make(cls, options: Mapping[str, Any]) -> Self:
        make: Any = cls  # the subclass's dataclass constructor takes the options by name
        rules: Self = make(**options)
        return rules

    def to_mapping(self) -> dict[str, Any]:
        """The options that differ from the defaults, as a ``[rules]`` table (plain strings, ints and bools)."""
        return changed_options(self.OPTIONS, self)

    def __str__(self) -> str:
        """The notation's rule field: the options that differ from the defaults (``caravan=scaled,rounds=3``), or
        ``""`` for the defaults."""
        return ",".join(f"{name}={option_text(value)}" for name, value in self.to_mapping().items())

    def with_options(self, **options: Any) -> Self:
        """A copy with some options changed (checked as on construction).

        Raises:
            NotationError: a value that is not one of its option's values.
            TypeError: a name that is no option.
        """
        unknown = set(options) - set(self.OPTIONS)
        if unknown:
            raise TypeError(f"no such rule option: {', '.join(sorted(unknown))}")
        return self._make({**{name: getattr(self, name) for name in self.OPTIONS}, **options})
