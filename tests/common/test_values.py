"""``frozen`` against ``dataclass(frozen=True, slots=True)``: the same class, feature by feature, built cheaper."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar

import pytest

from planner.common.values import BOUND_CALLS, frozen

STANDARD = dataclass(frozen=True, slots=True)


def _pair(body: dict[str, Any], annotations: dict[str, Any], *, init: bool = True,
          bases: tuple[type, ...] = ()) -> tuple[Any, Any]:
    """The same class body built by the standard decorator and by ``frozen``, in a module of picklable names."""
    made = []
    for name, decorate in (("Standard", dataclass(frozen=True, slots=True, init=init)), ("Ours", frozen(init=init))):
        namespace = {"__annotations__": dict(annotations), "__module__": __name__, "__qualname__": name,
                     **{key: copy.copy(value) for key, value in body.items()}}
        cls: Any = decorate(type(name, bases, namespace))
        globals()[name] = cls  # so that pickle finds the class by its name
        made.append(cls)
    return made[0], made[1]


def _post_init(self: Any) -> None:
    if self.count < 0:
        raise ValueError("count must be at least 0")
    object.__setattr__(self, "double", 2 * self.count)


FEATURES: dict[str, tuple[dict[str, Any], dict[str, Any], tuple[Any, ...]]] = {
    "plain": ({}, {"name": "str", "count": "int"}, ("a", 1)),
    "default": ({"count": 3}, {"name": "str", "count": "int"}, ("a",)),
    "factory": ({"items": field(default_factory=list, compare=False)}, {"name": "str", "items": "list[int]"}, ("a",)),
    "not compared": ({"note": field(default=None, compare=False)}, {"name": "str", "note": "str | None"},
                     ("a", "x")),
    "post init": ({"double": field(init=False, repr=False, compare=False), "__post_init__": _post_init},
                  {"name": "str", "count": "int", "double": "int"}, ("a", 2)),
    "class variable": ({"LIMIT": 9}, {"LIMIT": ClassVar[int], "name": "str"}, ("a",)),
    "not hashed": ({"extra": field(default=1, hash=False)}, {"name": "str", "extra": "int"}, ("a", 5)),
    "no fields": ({}, {}, ()),
}


@pytest.mark.parametrize("feature", FEATURES)
def test_each_feature_behaves_as_the_standard_decorator(feature: str) -> None:
    body, annotations, args = FEATURES[feature]
    standard, ours = _pair(body, annotations)
    a, b = standard(*args), ours(*args)
    assert str(inspect.signature(ours)) == str(inspect.signature(standard))
    assert repr(b) == repr(a).replace("Standard", "Ours")
    assert ours.__match_args__ == standard.__match_args__
    assert ours.__slots__ == standard.__slots__
    assert not hasattr(b, "__dict__")
    assert [f.name for f in dataclasses.fields(ours)] == [f.name for f in dataclasses.fields(standard)]
    assert dataclasses.asdict(b) == dataclasses.asdict(a)
    assert b == ours(*args) and hash(b) == hash(ours(*args))
    assert b != a  # another class: NotImplemented both ways, as between two standard classes
    with pytest.raises(FrozenInstanceError):
        b.name = "z"
    with pytest.raises(FrozenInstanceError):
        del b.name
    assert pickle.loads(pickle.dumps(b)) == b
    assert copy.deepcopy(b) == b and copy.copy(b) == b
    if args:
        changed = dataclasses.replace(b, name="other")
        assert changed.name == "other" and dataclasses.replace(a, name="other").name == "other"


def test_equality_and_hash_follow_the_compared_fields_as_the_standard_ones_do() -> None:
    for feature, changes in (("not compared", {"note": "y"}), ("not hashed", {"extra": 6}),
                             ("plain", {"count": 2})):
        body, annotations, args = FEATURES[feature]
        standard, ours = _pair(body, annotations)
        for cls in (standard, ours):
            one = cls(*args)
            other = dataclasses.replace(one, **changes)
            same_standard = standard(*args) == dataclasses.replace(standard(*args), **changes)
            assert (one == other) is same_standard, (feature, cls)
            if one == other:
                assert hash(one) == hash(other)
        body_hash = (hash(standard(*args)) == hash(dataclasses.replace(standard(*args), **changes)))
        assert (hash(ours(*args)) == hash(dataclasses.replace(ours(*args), **changes))) is body_hash


def test_post_init_runs_and_its_errors_reach_the_caller() -> None:
    body, annotations, _ = FEATURES["post init"]
    _, ours = _pair(body, annotations)
    assert ours("a", 4).double == 8
    with pytest.raises(ValueError, match="at least 0"):
        ours("a", -1)


def test_a_factory_gives_each_instance_its_own_value() -> None:
    _, ours = _pair(*FEATURES["factory"][:2])
    first, second = ours("a"), ours("b")
    first.items.append(1)
    assert second.items == []


def test_a_class_may_keep_its_own_init_eq_hash_and_repr() -> None:
    def __init__(self: Any, text: str) -> None:
        object.__setattr__(self, "name", text.strip())

    def __eq__(self: Any, other: object) -> bool:
        return isinstance(other, type(self)) and self.name.lower() == other.name.lower()

    def __hash__(self: Any) -> int:
        return hash(self.name.lower())

    body = {"__init__": __init__, "__eq__": __eq__, "__hash__": __hash__, "__repr__": lambda self: "<named>"}
    standard, ours = _pair(body, {"name": "str"}, init=False)
    for cls in (standard, ours):
        assert cls(" Ab ").name == "Ab"
        assert cls("ab") == cls("AB") and hash(cls("ab")) == hash(cls("AB"))
        assert repr(cls("x")) == "<named>"


def test_an_own_eq_without_hash_still_gets_the_fields_hash_as_the_standard_decorator_gives() -> None:
    body = {"__eq__": lambda self, other: True}
    standard, ours = _pair(body, {"name": "str"})
    assert standard.__hash__ is not None and ours.__hash__ is not None
    assert hash(ours("a")) == hash(ours("a"))


def test_a_subclass_inherits_fields_and_a_plain_base_keeps_its_methods() -> None:
    class Base:
        def shout(self) -> str:
            name: str = self.name  # type: ignore[attr-defined]
            return name.upper()

    standard, ours = _pair({}, {"name": "str"}, bases=(Base,))
    assert ours("a").shout() == standard("a").shout() == "A"

    @frozen
    class Parent:
        name: str

    @frozen
    class Child(Parent):
        count: int = 0

    assert Child("a", 2) == Child("a", 2) != Child("a", 3)
    assert str(inspect.signature(Child)) == "(name: 'str', count: 'int' = 0) -> None"
    assert Child("a").__slots__ == ("count",)  # type: ignore[attr-defined]


def test_what_it_does_not_do_is_refused() -> None:
    with pytest.raises(TypeError, match="__setattr__"):
        frozen(type("Own", (), {"__annotations__": {"a": "int"}, "__setattr__": lambda self, n, v: None}))
    with pytest.raises(TypeError, match="keyword-only"):
        frozen(type("Keyword", (), {"__annotations__": {"a": "int"}, "a": field(kw_only=True)}))
    with pytest.raises(TypeError, match="InitVar"):
        frozen(type("Init", (), {"__annotations__": {"a": dataclasses.InitVar[int]}}))


def test_an_undocumented_class_gets_the_standard_decorators_docstring() -> None:
    standard, ours = _pair({}, {"name": "str", "count": "int"})
    assert ours.__doc__ == standard.__doc__.replace("Standard", "Ours")


def test_methods_are_compiled_on_first_call_and_show_the_standard_signature_before() -> None:
    body, annotations, args = FEATURES["factory"]
    standard, ours = _pair(body, annotations)
    stand_in = ours.__dict__["__init__"]
    assert str(inspect.signature(ours)) == str(inspect.signature(standard)) == "(name: 'str', items: 'list[int]' = "\
        "<factory>) -> None"
    first = ours(*args)
    assert ours.__dict__["__init__"] is stand_in  # the first calls bind their arguments by hand
    for _ in range(BOUND_CALLS):
        assert ours(*args) == first
    assert ours.__dict__["__init__"] is not stand_in  # compiled in its place
    assert str(inspect.signature(ours)) == str(inspect.signature(standard))
    assert ours(*args) == first and hash(ours(*args)) == hash(first)

    _, fresh = _pair(*FEATURES["plain"][:2])
    stand_ins = {name: fresh.__dict__[name] for name in ("__init__", "__eq__")}

    class Plain(fresh):  # type: ignore[misc,valid-type]
        """A plain subclass whose instance calls the stand-ins first: each method lands on the class that owns it."""

    for _ in range(BOUND_CALLS):
        assert fresh("a", 1) == fresh("a", 1)
    assert Plain("a", 1).count == 1 and Plain("a", 1) != fresh("a", 1)  # another class, as with the standard one
    assert "__init__" not in Plain.__dict__ and fresh.__dict__["__init__"] is not stand_ins["__init__"]
    assert fresh.__dict__["__eq__"] is not stand_ins["__eq__"]
    assert fresh("a", 1) == fresh("a", 1) != fresh("a", 2)


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}), (("a",), {}), (("a", 1), {}), (("a", 1, 2), {}), (("a", 1, 2, 3), {}), ((), {"name": "a"}),
    (("a",), {"name": "b"}), ((), {"name": "a", "count": 2}), (("a",), {"count": 2}), ((), {"nobody": 1}),
    (("a",), {"items": [1]}), ((), {"name": "a", "note": "x"}), (("a",), {"extra": 9}), (("a", -1), {}),
]


@pytest.mark.parametrize("feature", FEATURES)
def test_the_first_calls_bind_their_arguments_as_the_compiled_init_and_the_standard_one_do(feature: str) -> None:
    body, annotations, good = FEATURES[feature]
    standard, bound = _pair(body, annotations)
    compiled = _pair(body, annotations)[1]
    for _ in range(BOUND_CALLS + 1):
        compiled(*good)
    assert "args" not in compiled.__dict__["__init__"].__code__.co_varnames  # the generated source's, compiled
    for args, kwargs in CALLS:
        outcomes: list[tuple[Any, ...]] = []
        for cls in (standard, bound, compiled):
            try:
                made = cls(*args, **kwargs)
            except (TypeError, ValueError) as error:
                outcomes.append(("error", type(error), str(error).replace("Standard", "Ours")))
            else:
                outcomes.append(("made", dataclasses.astuple(made), getattr(made, "double", None)))
        assert outcomes[0] == outcomes[1] == outcomes[2], (feature, args, kwargs)


@pytest.mark.parametrize("feature", FEATURES)
def test_equality_and_hash_by_hand_are_the_compiled_ones(feature: str) -> None:
    body, annotations, args = FEATURES[feature]
    by_hand, compiled = _pair(body, annotations)[1], _pair(body, annotations)[1]
    for _ in range(BOUND_CALLS + 1):
        assert compiled(*args) == compiled(*args) and hash(compiled(*args)) == hash(compiled(*args))
    assert compiled.__dict__["__eq__"].__code__.co_freevars == ()  # compiled by now: no closure over a count
    nan = float("nan")  # a tuple compares an object with itself as equal, the object alone may not
    for cls in (by_hand, compiled):
        one = cls(*args)
        assert (one == cls(*args), one != cls(*args), one == object(), hash(one)) == (True, False, False, hash(
            tuple(getattr(one, f.name) for f in dataclasses.fields(cls) if f.compare and f.hash is not False)))
        if args:
            assert cls(nan, *args[1:]) == cls(nan, *args[1:])


def test_the_init_signature_is_built_only_when_asked_for_and_stays_after_compiling() -> None:
    body, annotations, args = FEATURES["default"]
    standard, ours = _pair({**body, "__doc__": "A documented class (an undocumented one shows its signature)."},
                           annotations)
    signed = ours.__dict__["__init__"].__wrapped__
    assert signed._signature is None  # nothing built with the class
    assert str(inspect.signature(ours)) == str(inspect.signature(standard)) == "(name: 'str', count: 'int' = 3) -> None"
    assert signed._signature is not None
    for _ in range(BOUND_CALLS + 1):
        ours(*args)
    assert ours.__dict__["__init__"].__wrapped__ is signed
    assert str(inspect.signature(ours)) == str(inspect.signature(standard))
    assert str(inspect.signature(ours.__init__)) == str(inspect.signature(standard.__init__))


def test_the_recorded_parameters_are_the_standard_decorators_on_this_python() -> None:
    # the quick way records them itself; their fields differ between Python versions (3.12 added four)
    @frozen
    class Made:
        a: int

    @dataclass(init=False, repr=False, eq=False, slots=True)
    class Standard:
        a: int

    recorded, standard = Made.__dataclass_params__, Standard.__dataclass_params__  # type: ignore[attr-defined]
    assert repr(recorded) == repr(standard)
