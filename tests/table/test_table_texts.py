"""The table page's languages (issue 23): its own texts in the ``table`` catalogues (complete in every language,
placeholders kept, plural forms right in the page's script), and each request answered in the phone's choice, else
its ``Accept-Language``, else the table's language, the structured refusals too."""

from __future__ import annotations

import gettext
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from catalogues import LOCALES, TRANSLATED, assert_mo_is_compiled_po, fields, po  # tests/helpers
from starlette.testclient import TestClient

from planner.common import i18n
from planner.elfenland.position import Position
from planner.table.app import COOKIE, create_app
from planner.table.session import Session
from planner.table.state import TableState
from planner.table.texts import accepted_language, request_language

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"t": None, "tn": (1, 2), "N_": None, "tt": None, "tt_mark": None}
"""The keywords of the table domain's extraction (docs/languages.md): the script's t/tn/N_, the server's tt."""
NUMBERS = [0, 1, 2, 5, 21, 22, 25, 111]
SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"
TOKEN = "texts-test-token-0123"


def _source() -> set[str]:
    with (ROOT / "babel-table.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    return {message if isinstance(message, str) else message[0]
            for _file, _line, message, _comments, _context in extract_from_dir(
                str(ROOT), method_map, options_map, keywords=KEYWORDS)}


SOURCE = _source()


def test_the_page_script_html_and_server_all_give_messages() -> None:
    assert "{n} town" in SOURCE  # the script's tn()
    assert "Why this route?" in SOURCE  # the HTML's texts and labels
    assert "the board: tap a road to set its counter, tap a town to collect it" in SOURCE
    assert "start a game" in SOURCE and "new town" in SOURCE  # GAME_TEXT, and a table marked with N_
    assert "no such page {path} at this table" in SOURCE  # the server's refusals
    assert not {"−", "↶", "#", "✕"} & SOURCE  # no letter, no message


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_page_message_is_translated_with_its_placeholders(lang: str) -> None:
    catalogue = po(lang, "table")
    missing, wrong = [], []
    for key in sorted(SOURCE):
        entry = catalogue.get(key)
        strings = None if entry is None else entry.string
        forms = [] if strings is None else list(strings) if isinstance(strings, tuple | list) else [strings]
        if entry is None or not forms or not all(forms) or entry.fuzzy:
            missing.append(key)
            continue
        sources = [entry.id[0], *[entry.id[1]] * (len(forms) - 1)] if isinstance(entry.id, tuple) else [key]
        if len(forms) == 1 and isinstance(entry.id, tuple):
            sources = [entry.id[1]]  # one form (Japanese): it must say all the plural's placeholders
        wrong += [(source, form) for source, form in zip(sources, forms, strict=True)
                  if fields(source) != fields(form)]
    assert not missing, f"{lang}: untranslated {missing}"
    assert not wrong, wrong


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_shipped_mo_is_the_compiled_po(lang: str) -> None:
    assert_mo_is_compiled_po(lang, "table")


CATEGORIES = {  # each catalogue's plural forms in order, as CLDR names them (Babel's Plural-Forms writes them so)
    "en": ["one", "other"], "ja": ["other"], "cs": ["one", "few", "other"],
    "pl": ["one", "few", "many"], "uk": ["one", "few", "many"], "ru": ["one", "few", "many"],
}


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_page_counts_with_each_languages_plural_rule() -> None:
    script = (ROOT / "planner" / "table" / "static" / "texts.js").read_text(encoding="utf-8")
    probe = script + f"\nconsole.log(JSON.stringify(Object.fromEntries({json.dumps(list(i18n.LANGUAGES))}.map("
    probe += f"(lang) => [lang, {json.dumps(NUMBERS)}.map((n) => pluralIndex(lang, n))]))));"
    answer = subprocess.run(["node", "-e", probe], capture_output=True, text=True, check=True, timeout=60)
    indexes = json.loads(answer.stdout)
    for lang in i18n.LANGUAGES:
        rule = Locale.parse(lang).plural_form  # Babel's CLDR rule
        by_babel = [CATEGORIES[lang].index(rule(n)) for n in NUMBERS]
        assert indexes[lang] == by_babel, lang
        if lang != "en":
            with (LOCALES / lang / "LC_MESSAGES" / "table.mo").open("rb") as f:
                shipped = gettext.GNUTranslations(f)  # the catalogue's own Plural-Forms
            assert indexes[lang] == [shipped.plural(n) for n in NUMBERS], lang  # type: ignore[attr-defined]


# -- choosing the language --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("header", "lang"), [
    ("cs-CZ,cs;q=0.9,en;q=0.8", "cs"),
    ("de-DE,de;q=0.9,ja;q=0.7,en;q=0.5", "ja"),  # German is not spoken: the next by q-value
    ("en;q=0.3, uk;q=0.6, pl;q=0.6", "uk"),  # a tie goes to the first named
    ("ru;q=0, pl;q=0.1", "pl"),  # q=0 refuses
    ("*", None), ("de, fr", None), ("", None), (None, None),
    ("ja;q=abc", "ja"),  # a malformed q-value counts as 1
])
def test_accept_language_by_its_q_values(header: str | None, lang: str | None) -> None:
    assert accepted_language(header) == lang


def test_the_phones_choice_beats_accept_language() -> None:
    assert request_language({"x-elfenland-lang": "cs", "accept-language": "ja"}, {}) == "cs"
    assert request_language({"accept-language": "ja"}, {"lang": "pl"}) == "pl"
    assert request_language({"x-elfenland-lang": "klingon", "accept-language": "ja"}, {}) == "ja"
    assert request_language({"accept-language": "de"}, {}, default="uk") == "uk"
    assert request_language({}, {}) == "en"


@pytest.fixture(scope="module")
def session() -> Iterator[Session]:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False, lang="en") as running:
        yield running


@pytest.fixture
def client(session: Session) -> Iterator[TestClient]:
    with TestClient(create_app(session, token=TOKEN), base_url="http://table.test",
                    raise_server_exceptions=False) as test_client:
        yield test_client


def test_the_page_declares_the_requests_language(client: TestClient) -> None:
    client.cookies.set(COOKIE, TOKEN)
    assert '<html lang="ja">' in client.get("/", headers={"accept-language": "ja-JP,ja;q=0.9"}).text
    assert '<html lang="cs">' in client.get("/?lang=cs", headers={"accept-language": "ja"}).text
    assert '<html lang="en">' in client.get("/", headers={"accept-language": "de"}).text


def test_the_page_reads_its_texts_in_the_phones_language(client: TestClient) -> None:
    client.cookies.set(COOKIE, TOKEN)
    answer = client.get("/api/texts", headers={"accept-language": "ja", "x-elfenland-lang": "cs"})
    assert answer.status_code == 200 and answer.json()["lang"] == "cs"
    texts = answer.json()["texts"]
    assert texts["{n} town"] == ["{n} město", "{n} města", "{n} měst"]
    assert texts["Why this route?"] == "Proč tato trasa?"
    assert client.get("/api/texts", headers={"accept-language": "ja"}).json()["texts"]["Hand"] == "手札"
    assert client.get("/api/texts").json() == {"lang": "en", "texts": {}}  # English is the script's source


@pytest.mark.parametrize(("headers", "status", "kind", "message"), [
    ({"accept-language": "cs"}, 403, "no-token", "tento stůl potřebuje odkaz"),
    ({"accept-language": "en", "x-elfenland-lang": "uk"}, 403, "no-token", "цьому столу потрібне посилання"),
])
def test_a_refusal_speaks_the_requests_language(client: TestClient, headers: dict[str, str], status: int, kind: str,
                                                message: str) -> None:
    answer = client.get("/api/view", headers=headers)
    assert answer.status_code == status
    problem = answer.json()["problems"][0]
    assert problem["kind"] == kind and problem["message"].startswith(message)


def test_refusals_with_the_token_speak_it_too(client: TestClient) -> None:
    client.cookies.set(COOKIE, TOKEN)
    missing = client.get("/nowhere", headers={"accept-language": "ja"})
    assert missing.status_code == 404 and missing.json()["problems"][0]["message"] == "この卓にページ'/nowhere'はない"
    wrong_type = client.post("/api/change", content=b"{}", headers={"content-type": "text/plain",
                                                                    "x-elfenland-lang": "pl"})
    assert wrong_type.status_code == 415
    assert wrong_type.json()["problems"][0] == {"kind": "bad-type", "field": "", "value": None,
                                                "message": "zmianę wysyła się jako application/json"}
    too_deep = client.post("/api/change", content=b"[" * 20 + b"]" * 20,
                           headers={"content-type": "application/json", "accept-language": "ru"})
    assert too_deep.status_code == 400
    assert too_deep.json()["problems"][0]["message"] == "изменение вложено не глубже 8 уровней"
    english = client.get("/nowhere")
    assert english.json()["problems"][0]["message"] == "no such page '/nowhere' at this table"
