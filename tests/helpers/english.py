"""The English words of the planner's messages, to catch English left in an answer in another language."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from babel.messages.extract import extract_from_dir

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "npgettext": ((1, "c"), 2, 3), "N_": None, "say": None}
WORD = re.compile(r"[A-Za-z]{3,}")


@cache
def english_words() -> frozenset[str]:
    """The words of every source message (placeholders and quoted notation examples such as 'Ann,Ben*,Cleo'
    removed), lower case."""
    words: set[str] = set()
    for *_, message, _comments, _context in extract_from_dir(str(ROOT), [("planner/**.py", "python")],
                                                             keywords=KEYWORDS):
        for text in (message,) if isinstance(message, str) else message:
            text = re.sub(r"(?<![\w}])'[^'\s][^']*'", " ", text)  # an example in quotes is notation
            words.update(w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text)))
    return frozenset(words)


@cache
def names() -> tuple[str, ...]:
    """Place names, longest first: Elfenland's towns and lakes, Expeditions' spots (names may stay as they are)."""
    board = json.loads((ROOT / "planner/elfenland/data/board.json").read_text("utf-8"))
    found = {t["name"] for t in board["towns"]} | {t["code"] for t in board["towns"]} | {"Mare Magnum", "Mare Nebulae"}
    spots = json.loads((ROOT / "planner/expedition/data/map.json").read_text("utf-8"))["spots"]
    found |= {s["key"] for s in spots}
    return tuple(sorted(found, key=len, reverse=True))


def leaks(output: str, *, spared: list[str]) -> set[str]:
    """The English words of ``output`` once the data and notation in ``spared`` and the names are taken out."""
    for text in (*sorted(spared, key=len, reverse=True), *names()):
        output = output.replace(text, " ")
    output = re.sub(r"^(?:позиція|局面)[:：].*$", " ", output, flags=re.MULTILINE)  # the position's notation
    output = re.sub(r"\b(?:search|cpsat|race)\b", " ", output)  # the solver's name, as --solver spells it
    return {w for w in WORD.findall(output) if w.lower() in english_words()}
