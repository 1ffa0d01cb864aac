"""Words said late: the parts of a view that are text, kept unsaid until a phone asks in its own language.

The advice is worked out once, whichever phone's change set it off; its sentences are not. A view holds its text
as :class:`Localized` parts, each a function of the language-free advice (a plan, a solve, an advice record, a
game entry) that says it in the language spoken when called; :func:`said_in` gives the view with every such part
said in one language. Two phones at one table in two languages each read their own words of the same advice.

Library code: no thread, no web import (the session caches each language's words of its latest view).
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from typing import Any

from planner.common import i18n

__all__ = ["Localized", "localized", "merged", "said_in"]


class Localized:
    """A part of a view not said yet: calling it says it in the language spoken now (any JSON value, which may
    hold further parts)."""

    __slots__ = ("_say",)

    def __init__(self, say: Callable[[], Any]) -> None:
        self._say = say

    def __call__(self) -> Any:
        return self._say()

    def __repr__(self) -> str:
        return f"Localized({self._say!r})"


def localized(function: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Localized:
    """``function(*args, **kwargs)`` said later, in the language asked for then."""
    return Localized(lambda: function(*args, **kwargs))


def merged(base: Any, parts: dict[str, Any]) -> Any:
    """A document with ``parts``' keys over ``base``'s (a dict, or a :class:`Localized` one)."""
    if isinstance(base, Localized):
        return Localized(lambda: {**base(), **parts})
    return {**base, **parts}


def _said(value: Any) -> Any:
    if isinstance(value, Localized):
        return _said(value())
    if isinstance(value, dict):
        return {key: _said(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_said(item) for item in value]
    return value


def said_in(value: Any, lang: str) -> Any:
    """``value`` with every :class:`Localized` part said in ``lang`` (a new document; the caller's language is
    left as it was)."""
    def say() -> Any:
        i18n.use(lang)
        return _said(value)

    return contextvars.copy_context().run(say)
