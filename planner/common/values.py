"""Frozen value classes: what ``@dataclass(frozen=True, slots=True)`` makes, built at a fraction of its cost.

Every command imports a few dozen value classes before it does anything, and the standard decorator compiles six
to eight generated methods for each one (``exec`` of their source, one call each): on ``elfenland route`` that was
a third of the planner's whole start-up. :func:`frozen` asks :func:`dataclasses.dataclass` for the fields, the
slots and ``__match_args__`` only; ``__init__``, ``__eq__`` and ``__hash__`` are each compiled when first called
(most classes a command loads never meet most of their methods), and the rest (``__repr__``, the frozen
``__setattr__``/``__delattr__``, pickling) are closures. The classes behave as the standard ones do: the same
constructor signature, equality, hash, repr, :class:`~dataclasses.FrozenInstanceError`, pickling and copying;
:func:`dataclasses.fields`, :func:`dataclasses.replace` and :func:`dataclasses.asdict` work on them
(``tests/common/test_values.py`` holds them against the standard decorator's, feature by feature).

What it does not do, and refuses with a TypeError rather than doing differently: ``InitVar`` and keyword-only
fields, ``order``, and a class that defines ``__setattr__``, ``__delattr__`` or ``__slots__`` itself.
"""

from __future__ import annotations

import abc
import dataclasses
import inspect
import operator
import sys
import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError
from typing import Any, TypeVar, dataclass_transform, overload

__all__ = ["frozen"]

T = TypeVar("T")


@overload
def frozen(cls: type[T], /) -> type[T]: ...


@overload
def frozen(*, init: bool = True) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, Field))
def frozen(cls: type[T] | None = None, /, *, init: bool = True) -> type[T] | Callable[[type[T]], type[T]]:
    """Make ``cls`` a frozen, slotted dataclass, as ``@dataclass(frozen=True, slots=True, init=init)`` does.

    Args:
        init: False when the class writes its own ``__init__`` (it then sets its fields with
            ``object.__setattr__``).

    Raises:
        TypeError: the class asks for what :mod:`dataclasses` would do and this does not (see the module's doc).
    """
    if cls is None:
        return lambda of: _build(of, init=init)
    return _build(cls, init=init)


def _build(cls: type[T], *, init: bool) -> type[T]:
    for name in ("__setattr__", "__delattr__"):
        if name in cls.__dict__:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    documented = bool(cls.__doc__)
    explicit_hash = cls.__dict__.get("__hash__", MISSING)
    keeps_hash = not (explicit_hash is MISSING or (explicit_hash is None and "__eq__" in cls.__dict__))
    keeps_eq = "__eq__" in cls.__dict__
    keeps_repr = "__repr__" in cls.__dict__
    keeps_init = "__init__" in cls.__dict__
    made: Any = _fields_and_slots(cls)
    fields = dataclasses.fields(made)
    for f in fields:
        if f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: keyword-only fields are not supported by frozen()")
    if any(f._field_type is dataclasses._FIELD_INITVAR for f in made.__dataclass_fields__.values()):  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__}: InitVar fields are not supported by frozen()")
    sources = _sources(made, fields, init=init and not keeps_init, eq=not keeps_eq, hash_=not keeps_hash)
    for name, (source, namespace) in sources.items():
        method = _compiled_on_first_call(made, name, source, namespace)
        if name == "__init__":  # what inspect.signature and help() show, as for the standard decorator's __init__
            method.__wrapped__ = _Signed(fields)  # type: ignore[attr-defined]
            method = _bound_first(made, fields, method)
        elif name == "__eq__":
            method = _equal_first(made, [f.name for f in fields if f.compare], method)
        else:
            method = _hash_first(made, [f.name for f in fields if (f.compare if f.hash is None else f.hash)], method)
        setattr(made, name, method)
    if not keeps_repr:
        made.__repr__ = _repr([f.name for f in fields if f.repr])
    made.__setattr__, made.__delattr__ = _frozen_attributes(made, frozenset(f.name for f in fields))
    if "__getstate__" not in cls.__dict__:
        made.__getstate__ = _getstate
    if "__setstate__" not in cls.__dict__:
        made.__setstate__ = _setstate
    if not documented:
        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    abc.update_abstractmethods(made)
    return made  # type: ignore[no-any-return]


def _fields_and_slots(cls: type[T]) -> type[T]:
    """``cls`` remade with slots and its fields recorded, as ``dataclass(init=False, repr=False, eq=False,
    slots=True)`` makes it, without the standard decorator's three regular-expression look-ups per annotation.

    Annotations that are plain strings (``from __future__ import annotations``) whose leading name is no
    ``ClassVar``, ``InitVar`` or ``KW_ONLY`` take the quick way; anything else (and every error) is the standard
    decorator's to handle."""
    fields = _quick_fields(cls)
    if fields is None:
        return dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=True)
    own = cls.__dict__.get("__annotations__", {})
    for name in own:
        if isinstance(cls.__dict__.get(name), Field):
            f = fields[name]
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
    made: Any = cls
    made.__dataclass_params__ = _PARAMS
    made.__dataclass_fields__ = fields
    if "__match_args__" not in cls.__dict__:
        setattr(made, "__match_args__", tuple(  # noqa: B010 - mypy refuses an assignment to __match_args__
            f.name for f in fields.values() if f._field_type is _FIELD and f.init and not f.kw_only))  # type: ignore[attr-defined]
    return dataclasses._add_slots(cls, False, False)  # type: ignore[attr-defined,no-any-return]


_PARAMS = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(
    type("_Made", (), {"__doc__": "-"})).__dataclass_params__  # type: ignore[attr-defined]
"""What the standard decorator records for ``dataclass(init=False, repr=False, eq=False, slots=True)``, taken from it
(its fields differ from one Python version to the next); the class has a docstring, so that none is written from
its signature (13 M instructions: about 5 % of ``elfenland route``'s start-up)."""
_FIELD = dataclasses._FIELD  # type: ignore[attr-defined]
_FIELD_CLASSVAR = dataclasses._FIELD_CLASSVAR  # type: ignore[attr-defined]
_LEADING_NAME = dataclasses._MODULE_IDENTIFIER_RE  # type: ignore[attr-defined]
"""The standard decorator's own pattern for an annotation's leading (dotted) name."""


def _quick_fields(cls: type) -> dict[str, Field[Any]] | None:
    """The fields (with the bases' and the class variables' entries) the standard decorator would record for ``cls``,
    or None when the class is not a plain one (see :func:`_fields_and_slots`). Changes nothing."""
    fields: dict[str, Field[Any]] = {}
    for base in cls.__mro__[-1:0:-1]:
        inherited = getattr(base, "__dataclass_fields__", None)
        if inherited is not None:
            if base.__dataclass_params__.frozen:  # type: ignore[attr-defined]
                return None
            for f in inherited.values():
                fields[f.name] = f
    module = sys.modules.get(cls.__module__)
    namespace = module.__dict__ if module is not None else {}
    own = cls.__dict__.get("__annotations__", {})
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in own:
            return None
    made = []
    for name, annotation in own.items():
        if not isinstance(annotation, str):
            return None
        classvar = False
        match = _LEADING_NAME.match(annotation)
        if match:
            qualifier, leading = match.groups()
            if qualifier:
                if namespace.get(qualifier) in (typing, dataclasses):
                    return None
            else:
                named: Any = namespace.get(leading)
                if named is typing.ClassVar or (type(named) is typing._GenericAlias  # type: ignore[attr-defined]
                                                and named.__origin__ is typing.ClassVar):
                    classvar = True
                elif named is dataclasses.InitVar or type(named) is dataclasses.InitVar or named is dataclasses.KW_ONLY:
                    return None
        default = getattr(cls, name, MISSING)
        if isinstance(default, Field):
            if classvar or default.kw_only is not MISSING:
                return None
            f = default
        else:
            if isinstance(default, types.MemberDescriptorType):
                default = MISSING
            f = dataclasses.field(default=default)
        if not classvar and f.default.__class__.__hash__ is None:
            return None
        made.append((f, name, annotation, classvar))
    for f, name, annotation, classvar in made:
        f.name, f.type = name, annotation
        f._field_type = _FIELD_CLASSVAR if classvar else _FIELD
        if not classvar:
            f.kw_only = False
        fields[name] = f
    return fields


def _sources(cls: type, fields: tuple[Field[Any], ...], *, init: bool, eq: bool,
             hash_: bool) -> dict[str, tuple[str, dict[str, Any]]]:
    """The source of ``__init__``, ``__eq__`` and ``__hash__`` as the standard decorator writes them, and the names
    each one's source uses."""
    sources = {}
    if init:
        names: dict[str, Any] = {"__set": object.__setattr__, "__factory": dataclasses._HAS_DEFAULT_FACTORY}  # type: ignore[attr-defined]
        parameters, body = ["self"], []
        for f in fields:
            if f.default_factory is not MISSING:
                names[f"__factory_{f.name}"] = f.default_factory
                made = f"__factory_{f.name}()"
                if f.init:
                    parameters.append(f"{f.name}=__factory")
                    made = f"{made} if {f.name} is __factory else {f.name}"
            elif f.init:
                if f.default is not MISSING:
                    names[f"__default_{f.name}"] = f.default
                    parameters.append(f"{f.name}=__default_{f.name}")
                else:
                    parameters.append(f.name)
                made = f.name
            elif f.default is not MISSING:
                names[f"__default_{f.name}"] = f.default
                made = f"__default_{f.name}"
            else:
                continue
            body.append(f"  __set(self, {f.name!r}, {made})")
        if hasattr(cls, "__post_init__"):
            body.append("  self.__post_init__()")
        sources["__init__"] = ("\n".join([f"def __init__({', '.join(parameters)}):", *(body or ["  pass"])]), names)
    if eq:
        compared = [f.name for f in fields if f.compare]
        mine = "".join(f"self.{name}," for name in compared)
        theirs = "".join(f"other.{name}," for name in compared)
        sources["__eq__"] = (f"def __eq__(self, other):\n  if other.__class__ is self.__class__:\n"
                             f"    return ({mine}) == ({theirs})\n  return NotImplemented", {})
    if hash_:
        hashed = "".join(f"self.{f.name}," for f in fields if (f.compare if f.hash is None else f.hash))
        sources["__hash__"] = (f"def __hash__(self):\n  return hash(({hashed}))", {})
    return sources


def _compiled_on_first_call(cls: type, name: str, source: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """A stand-in for the method ``name`` of ``cls`` that compiles it from ``source`` when first called, puts it in
    its place and calls it: most value classes a command loads never meet most of their methods (compiling them
    all was most of what building the classes cost)."""

    def first_call(self: Any, *args: Any, **kwargs: Any) -> Any:
        space: dict[str, Any] = {}
        exec(source, namespace, space)  # noqa: S102 - source built here from the class's own field names
        method = space[name]
        method.__qualname__ = f"{cls.__qualname__}.{name}"
        if name == "__init__":
            method.__wrapped__ = first_call.__wrapped__  # type: ignore[attr-defined]
        setattr(cls, name, method)
        return method(self, *args, **kwargs)

    first_call.__name__ = name
    first_call.__qualname__ = f"{cls.__qualname__}.{name}"
    return first_call


BOUND_CALLS = 64
"""Calls of a class's ``__init__``, ``__eq__`` or ``__hash__`` made by hand (:func:`_bound_first`,
:func:`_equal_first`, :func:`_hash_first`) before it is compiled: most value classes a command loads meet their
methods only a few times, and compiling one (about 0.4 M instructions) costs as much as a hundred such calls."""


def _bound_first(cls: type, fields: tuple[Field[Any], ...], compiled: Callable[..., Any]) -> Callable[..., Any]:
    """``__init__`` for the first :data:`BOUND_CALLS` calls: the arguments bound here by the rules of the generated
    source (:func:`_sources`), then the compiled one (``compiled``, the stand-in that compiles it and takes its
    place). A call this does not bind as plainly (too many arguments, a missing or unknown name, one given twice)
    goes to the compiled one at once, for the standard decorator's own TypeError."""
    parameters: list[tuple[str, Any]] = []  # (name, default): MISSING for none, the factory marker for a factory
    steps: list[tuple[str, int, Any]] = []  # (field, how, what): 0 argument, 1 or its factory, 2 factory, 3 default
    for f in fields:
        if f.default_factory is not MISSING:
            if f.init:
                parameters.append((f.name, _HAS_DEFAULT_FACTORY))
                steps.append((f.name, 1, f.default_factory))
            else:
                steps.append((f.name, 2, f.default_factory))
        elif f.init:
            parameters.append((f.name, f.default))
            steps.append((f.name, 0, None))
        elif f.default is not MISSING:
            steps.append((f.name, 3, f.default))
    post_init = hasattr(cls, "__post_init__")
    calls = 0
    setter = object.__setattr__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal calls
        calls += 1
        if calls > BOUND_CALLS or len(args) > len(parameters):
            compiled(self, *args, **kwargs)
            return
        values = list(args)
        rest = dict(kwargs)
        for name, default in parameters[len(args):]:
            value = rest.pop(name, default)
            if value is MISSING:
                compiled(self, *args, **kwargs)
                return
            values.append(value)
        if rest:
            compiled(self, *args, **kwargs)
            return
        given = iter(values)
        for name, how, what in steps:
            if how == 0:
                value = next(given)
            elif how == 1:
                value = next(given)
                if value is _HAS_DEFAULT_FACTORY:
                    value = what()
            else:
                value = what() if how == 2 else what
            setter(self, name, value)
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__wrapped__ = compiled.__wrapped__  # type: ignore[attr-defined]
    return __init__


_HAS_DEFAULT_FACTORY = dataclasses._HAS_DEFAULT_FACTORY  # type: ignore[attr-defined]


def _values(names: list[str]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple ``(obj.a, obj.b, ...)`` of an object's fields ``names``, as the generated methods build it."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    if names:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return lambda obj: ()


def _equal_first(cls: type, names: list[str], compiled: Callable[..., Any]) -> Callable[..., Any]:
    """``__eq__`` for the first :data:`BOUND_CALLS` calls: the compared fields' tuples, as the generated source
    compares them; then the compiled one."""
    values = _values(names)
    calls = 0

    def __eq__(self: Any, other: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls > BOUND_CALLS:
            return compiled(self, other)
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    __eq__.__qualname__ = f"{cls.__qualname__}.__eq__"
    return __eq__


def _hash_first(cls: type, names: list[str], compiled: Callable[..., Any]) -> Callable[..., Any]:
    """``__hash__`` for the first :data:`BOUND_CALLS` calls: the hash of the hashed fields' tuple, as the generated
    source's; then the compiled one."""
    values = _values(names)
    calls = 0

    def __hash__(self: Any) -> int:
        nonlocal calls
        calls += 1
        if calls > BOUND_CALLS:
            return compiled(self)  # type: ignore[no-any-return]
        return hash(values(self))

    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    return __hash__


class _Signed:
    """What an ``__init__`` made here names as ``__wrapped__``, for :func:`inspect.signature` to read its
    ``__signature__`` from: built when first asked for (a command asks for none of them, and building them all was
    a tenth of what building the classes cost)."""

    __slots__ = ("_fields", "_signature")

    def __init__(self, fields: tuple[Field[Any], ...]) -> None:
        self._fields = fields
        self._signature: inspect.Signature | None = None

    @property
    def __signature__(self) -> inspect.Signature:
        if self._signature is None:
            self._signature = _signature(self._fields)
        return self._signature


def _signature(fields: tuple[Field[Any], ...]) -> inspect.Signature:
    """``__init__``'s signature as the standard decorator's shows it (a factory's default is ``<factory>``)."""
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for f in fields:
        if not f.init:
            continue
        default = f.default if f.default is not MISSING else (
            dataclasses._HAS_DEFAULT_FACTORY if f.default_factory is not MISSING else inspect.Parameter.empty)  # type: ignore[attr-defined]
        parameters.append(inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default,
                                            annotation=f.type))
    return inspect.Signature(parameters, return_annotation=None)


def _repr(names: list[str]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _frozen_attributes(cls: type[Any], names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in dataclasses.fields(self)]


def _setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(dataclasses.fields(self), state, strict=True):
        object.__setattr__(self, f.name, value)
