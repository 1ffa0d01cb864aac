"""Forgiving name lookup with one "did you mean": case, accents, apostrophes, aliases, unique prefixes, scripts.

Both games name things players type by hand (towns, cards, locations, option keys); one lookup serves them all, so
every name in the planner forgives the same slips and every unknown name gets the same kind of hint. Names come
in Latin, Cyrillic and Japanese kana; :func:`latin_key` spells any of them in plain Latin letters, so a spelling
that differs only in script conventions (е/э, і/и, ー) still finds its name, and a hint can cross scripts.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Generic, TypeVar

from planner.common.i18n import N_, gettext, language, say
from planner.errors import AmbiguousNameError, NotationError

K = TypeVar("K")

__all__ = ["NameBook", "Names", "did_you_mean", "either", "hint_of", "key_values", "latin_key", "normalize",
           "where_part"]

KIND_WORDS = {"town": N_("town"), "transport": N_("transport"), "spot": N_("spot"), "location": N_("location"),
              "word": N_("word"), "colour": N_("colour"), "rule option": N_("rule option"),
              "notation key": N_("notation key")}
"""The words a message names a kind of name by, translated on use (a kind not listed is shown as it is)."""


def either(items: list[str]) -> str:
    """``'a' or 'b'`` in the language spoken now (Babel's CLDR "or" lists for the others: ``'a' nebo 'b'``)."""
    if language() == "en" or len(items) < 2:
        return " or ".join(items)
    from babel.lists import format_list as babel_list  # only for a translated hint, off the fast path

    return str(babel_list(list(items), style="or", locale=language()))


def hint_of(found: Iterable[str]) -> str:
    """``"; did you mean 'x' or 'y'?"`` for names close to what was typed, translated; ``""`` for none."""
    names = [repr(name) for name in found]
    return say("; did you mean {names}?", names=either(names)) if names else ""


def where_part(where: str) -> str:
    """`` in <where>`` (the field or token an error is about), translated; ``""`` when nothing says where."""
    return say(" in {where}", where=where) if where else ""

_IGNORED_MARKS = "'’‘`´_-."
"""What a name loses besides white space (``str.isspace``, as ``\\s`` in a pattern matches) and combining marks."""


class _Dropped(dict[int, int | None]):
    """A :meth:`str.translate` table that drops white space, :data:`_IGNORED_MARKS` and combining marks and keeps
    every other character, each looked up once a process (a name's characters one by one in Python cost 30 times
    more)."""

    def __missing__(self, code: int) -> int | None:
        ch = chr(code)
        kept = None if ch.isspace() or ch in _IGNORED_MARKS or unicodedata.combining(ch) else code
        self[code] = kept
        return kept


_DROPPED = _Dropped()


@functools.lru_cache(maxsize=4096)  # a batch of positions names the same towns and cards again and again
def normalize(text: str) -> str:
    """Lower case without accents, apostrophes, spaces, hyphens, dots or underscores (``Erg'Erén`` -> ``ergeren``)."""
    if text.isascii():  # nothing to decompose
        return text.translate(_DROPPED).casefold()
    return unicodedata.normalize("NFKD", text).translate(_DROPPED).casefold()


# Cyrillic (Ukrainian and Russian letters) and kana to plain Latin, by sound: a key for matching, never shown.
_CYRILLIC = dict(zip("абвгґдеєжзиіїйклмнопрстуфхцчшщъыьэюяё", (
    "a", "b", "v", "g", "g", "d", "e", "ye", "zh", "z", "i", "i", "yi", "y", "k", "l", "m", "n", "o", "p", "r", "s",
    "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "yo"), strict=True))
_KANA_ROWS = {  # katakana syllables by row; hiragana is folded onto katakana first
    "アイウエオ": "a i u e o", "カキクケコ": "ka ki ku ke ko", "ガギグゲゴ": "ga gi gu ge go",
    "サシスセソ": "sa shi su se so", "ザジズゼゾ": "za ji zu ze zo", "タチツテト": "ta chi tsu te to",
    "ダヂヅデド": "da ji zu de do", "ナニヌネノ": "na ni nu ne no", "ハヒフヘホ": "ha hi fu he ho",
    "バビブベボ": "ba bi bu be bo", "パピプペポ": "pa pi pu pe po", "マミムメモ": "ma mi mu me mo",
    "ヤユヨ": "ya yu yo", "ラリルレロ": "ra ri ru re ro", "ワヲン": "wa o n", "ァィゥェォ": "a i u e o",
    "ャュョ": "ya yu yo", "ヴ": "vu",
}
_KANA = {kana: latin for row, sounds in _KANA_ROWS.items() for kana, latin in zip(row, sounds.split(), strict=True)}


def _kana_latin(text: str) -> str:
    out: list[str] = []
    double = False
    for ch in text:
        if "ぁ" <= ch <= "ゖ":  # hiragana -> katakana
            ch = chr(ord(ch) + 0x60)
        if ch == "ッ":
            double = True
            continue
        latin = _KANA.get(ch)
        if latin is None:
            out.append("" if ch in "ー・" else ch)  # a long mark or a name's dot adds no letter
        elif ch in "ァィゥェォャュョ" and out:  # a small vowel or y- glides onto the syllable before: フェ fe, キャ kya
            prev = out.pop()
            out.append((prev[:-1] if prev[-1] in "aiueo" else prev) + latin)
        else:
            out.append(latin[0] + latin if double else latin)
        double = False
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def latin_key(text: str) -> str:
    """``text`` in plain Latin letters by sound, normalised: ``Ельфенголд`` -> ``elfengold``, ``トロットマニ`` ->
    ``torottomani``. Only for matching and hints across scripts: a key, never a name to show."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if folded.isascii():
        return normalize(folded)
    if any(ch in _CYRILLIC for ch in folded):
        folded = "".join(_CYRILLIC.get(ch, ch) for ch in folded)
    return normalize(_kana_latin(folded))


def did_you_mean(text: str, choices: Iterable[str], *, n: int = 3, cutoff: float = 0.6) -> str:
    """``"; did you mean 'x' or 'y'?"`` for the choices close to ``text`` (compared normalised), else ``""``."""
    by_norm: dict[str, list[str]] = {}
    for choice in choices:
        by_norm.setdefault(normalize(choice), []).append(choice)
    import difflib  # only for a hint, once something is misspelt: 1-2 ms of every start-up otherwise

    close = difflib.get_close_matches(normalize(text), list(by_norm), n=n, cutoff=cutoff)
    return hint_of(sorted({c for norm in close for c in by_norm[norm]}))


class Names(Generic[K]):
    """A forgiving lookup from names, aliases, codes and unique prefixes to keys.

    ``kind`` is the word used in messages (``town``, ``card``), unless ``label`` gives those words already in the
    language spoken (``value of rule option rounds``); ``display`` the name shown for each key in hints.
    Errors carry ``kind`` ``unknown-<kind>`` or ``ambiguous-<kind>`` and the typed text as ``value``.
    """

    def __init__(self, kind: str, entries: Mapping[K, Iterable[str]], display: Mapping[K, str], *,
                 prefixes: bool = True, label: str | None = None) -> None:
        self.kind = kind
        self.label = label
        self.display = display  # kept as given: a mapping may name each key in the language spoken now
        self.prefixes = prefixes
        self.exact: dict[str, set[K]] = {}
        self._names = [(key, name) for key, names in entries.items() for name in names]
        for key, name in self._names:
            self.exact.setdefault(normalize(name), set()).add(key)

    @functools.cached_property
    def latin(self) -> dict[str, set[K]]:
        """The same names by :func:`latin_key`: spellings across scripts (built when first needed, off the fast
        path of a name typed right)."""
        found: dict[str, set[K]] = {}
        for key, name in self._names:
            found.setdefault(latin_key(name), set()).add(key)
        return found

    @functools.cached_property
    def spelled(self) -> dict[str, str]:
        """A latin key -> one name as written in a non-Latin script, for hints in the script the player typed."""
        found: dict[str, str] = {}
        for _key, name in self._names:
            if not name.isascii():
                found.setdefault(latin_key(name), name)
        return found

    def candidates(self, text: str) -> set[K]:
        """Every key ``text`` may mean: the exact matches, else (with prefixes) the keys it is a prefix of."""
        norm = normalize(text)
        if not norm:
            return set()
        keys = self.exact.get(norm)
        if keys is None and self.prefixes:
            keys = {k for name, ks in self.exact.items() if name.startswith(norm) for k in ks}
        if not keys and not text.isascii():  # another script's spelling of a name: Эльфенголд for Ельфенголд
            keys = self.latin.get(latin_key(text))
        return set(keys or ())

    def find(self, text: str, *, where: str = "") -> K:
        """The one key ``text`` names.

        Raises:
            AmbiguousNameError: ``text`` fits several keys (the message lists them).
            NotationError: ``text`` is empty or names nothing (with close matches as a hint).
        """
        where_text = where_part(where)
        kind = self.label if self.label is not None else gettext(KIND_WORDS.get(self.kind, self.kind))
        if not normalize(text):
            raise NotationError(say("empty {kind} name{where}", kind=kind, where=where_text),
                                kind=f"empty-{self.kind}", value=text)
        keys = self.candidates(text)
        if len(keys) == 1:
            return next(iter(keys))
        if keys:
            options = ", ".join(sorted(self.display[k] for k in keys))
            raise AmbiguousNameError(say("ambiguous {kind} {text!r}{where}: could be {options}", kind=kind, text=text,
                                         where=where_text, options=options),
                                     kind=f"ambiguous-{self.kind}", value=text)
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise NotationError(say("unknown {kind} {text!r}{where}{hint}", kind=kind, text=shown, where=where_text,
                                hint=hint_of(sorted(self.suggest(text)))),
                            kind=f"unknown-{self.kind}", value=text)

    def suggest(self, text: str) -> set[str]:
        """The names close to ``text``, one per key, compared as typed and by sound across scripts (:func:`latin_key`).

        A name typed in Latin letters is answered with the display names; one typed in another script with the
        closest name written in a non-Latin script where there is one (``Ельфенхолт`` -> ``Ельфенголд``).
        """
        import difflib  # only once something is misspelt

        shown: dict[K, str] = {}
        latin = latin_key(text)[:60]
        if latin and not text.isascii():
            for name in difflib.get_close_matches(latin, list(self.spelled), n=3, cutoff=0.6):
                for key in self.latin[name]:
                    shown.setdefault(key, self.spelled[name])
        close = difflib.get_close_matches(normalize(text)[:60], list(self.exact), n=3, cutoff=0.6)
        for key in (k for name in close for k in self.exact[name]):
            shown.setdefault(key, self.display[key])
        if latin:
            for name in difflib.get_close_matches(latin, list(self.latin), n=3, cutoff=0.6):
                for key in self.latin[name]:
                    shown.setdefault(key, self.display[key])
        return set(shown.values())


def key_values(text: str, *, example: str, kind: str = "bad-item") -> list[tuple[str, str, str]]:
    """The items of a comma-separated ``key=value`` field (``caravan=scaled,rounds=3``), as (key, value, item).

    Raises:
        NotationError: an item without ``=`` (the message shows ``example``).
    """
    found = []
    for item in (part for part in text.split(",") if part):
        key, equals, value = item.partition("=")
        if not equals:
            raise NotationError(say("item {item!r} must look like {example}", item=item, example=example), kind=kind,
                                value=item)
        found.append((key, value, item))
    return found


class NameBook:
    """A game's names in the players' languages, from a ``names.json`` file (read on first use).

    The file maps ``languages`` -> language -> group (``towns``, ``transports``, ``locations`` ...) -> key ->
    ``{"name", "source", "aliases"?}``; English is the game's board data, so it is not in the book. Every entry
    says where its name comes from (a rule text, a transliteration, a translation: docs/languages.md).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @functools.cached_property
    def languages(self) -> dict[str, dict[str, dict[str, dict[str, Any]]]]:
        """The whole book: language -> group -> key -> entry."""
        text = self.path.read_text(encoding="utf-8")  # beside the module: importlib.resources costs start-up
        book: dict[str, dict[str, dict[str, dict[str, Any]]]] = json.loads(text)["languages"]
        return book

    def entries(self, group: str, key: str) -> list[tuple[str, dict[str, Any]]]:
        """Every language's entry for one thing, as (language, entry) pairs."""
        return [(lang, entry) for lang, groups in self.languages.items() if (entry := groups.get(group, {}).get(key))]

    def aliases(self, group: str, key: str) -> tuple[str, ...]:
        """Every name and alias of one thing in every language of the book, for the forgiving input."""
        return tuple(name for _, entry in self.entries(group, key)
                     for name in (entry["name"], *entry.get("aliases", ())))

    def name(self, group: str, key: str, lang: str, default: str) -> str:
        """The name of one thing in ``lang``, or ``default`` (the English board name) where the book has none."""
        entry = self.languages.get(lang, {}).get(group, {}).get(key)
        return str(entry["name"]) if entry else default
