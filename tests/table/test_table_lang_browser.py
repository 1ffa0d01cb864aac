"""The table page in Japanese and Czech, in Chromium at phone size with touch (issue 23): no English left in what
the page shows (names and notation aside), no text cut off or spilling out of its box, and a language switch
that each phone keeps for itself. Slow, like every browser test; it also draws ``docs/table-ja-phone.png`` and
``docs/table-cs-phone.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_table_browser import PHONE, SIMPLE, TOKEN, Phone, browser  # noqa: F401
from test_table_texts import SOURCE

from planner.elfenland.board import load_board
from planner.elfenland.position import Position
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState

pytestmark = pytest.mark.slow

DOCS = Path(__file__).resolve().parents[2] / "docs"
NOT_ENGLISH = {"json", "utf", "application", "elfenland", "serve", "url", "jxa", "lap", "thr", "jac"}
"""Words of the page's messages that stay as they are in every language (a format, a command, town codes)."""
ENGLISH = {word for message in SOURCE for word in re.findall(r"[a-z]{3,}", message.lower())} - NOT_ENGLISH
"""Every English word of the page's own messages: none may show on a translated page."""

VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const box = node.parentElement;
    if (!box || box.closest('#map, script, style') || !box.getClientRects().length) continue;
    if (getComputedStyle(box).visibility === 'hidden') continue;
    if (node.nodeValue.trim()) out.push(node.nodeValue.trim());
  }
  for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (!el.closest('#map') && el.getClientRects().length) {
      for (const name of ['aria-label', 'placeholder', 'title']) {
        if (el.getAttribute(name)) out.push(el.getAttribute(name));
      }
    }
  }
  return out;
}"""

OVERFLOWING = """() => {
  const bad = [];
  const texts = 'button, td, th, p, h2, h3, label, span, li, summary, caption, b, small, select';  // an input scrolls
  for (const el of document.querySelectorAll(texts)) {
    if (el.closest('#map') || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const style = getComputedStyle(el);
    if (style.display === 'inline' || el.clientWidth === 0) continue;
    const what = `${el.tagName}#${el.id}.${el.className}: ${el.textContent.trim().slice(0, 50)}`;
    if (el.scrollWidth > el.clientWidth + 1) bad.push(`${what} (${el.scrollWidth} > ${el.clientWidth})`);
    const right = el.getBoundingClientRect().right;
    if (right > window.innerWidth + 1) bad.push(`${el.tagName}#${el.id}: beyond the screen (${Math.round(right)})`);
  }
  const width = document.documentElement.scrollWidth;
  if (width > window.innerWidth) bad.push(`the page scrolls sideways (${width})`);
  return bad;
}"""


def table(lang: str) -> Iterator[TableServer]:
    position = Position.from_str(SIMPLE)
    with Session(TableState(position), warm_up=False, lang=lang) as session:
        running = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        yield running
        running.stop()


class SpeakingPhone(Phone):
    """A phone whose browser asks for ``locale`` (its Accept-Language)."""

    def __init__(self, browser: Any, server: TableServer, locale: str) -> None:  # noqa: F811
        super().__init__(browser, server)
        self.context.close()
        self.context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2,
                                           locale=locale)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def close(self) -> None:
        self.context.close()


def english_left(phone: Phone) -> list[str]:
    names = {n.lower() for town in load_board().towns.values() for n in (town.name, town.code)}
    names |= {"anna", "ben"}  # the example players (notation, in capitals, is passed over too)
    left = []
    for text in phone.page.evaluate(VISIBLE_TEXT):
        words = set(re.findall(r"[^\W\d_]{3,}", text))  # whole words: Czech "mapě" is not "map"
        english = {w for w in words if w.lower() in ENGLISH and w.lower() not in names and not w.isupper()}
        if english:
            left.append(f"{text!r}: {sorted(english)}")
    return left


@pytest.mark.parametrize("lang", ["ja", "cs"])
def test_the_page_in_a_language_has_no_english_and_nothing_spills(browser: Any, lang: str) -> None:  # noqa: F811
    for server in table(lang):
        phone = SpeakingPhone(browser, server, {"ja": "ja-JP", "cs": "cs-CZ"}[lang]).open()
        try:
            assert phone.page.get_attribute("html", "lang") == lang
            problems: dict[str, list[str]] = {}
            for phase in ("travel", "plan", "draw"):
                phone.page.tap(f"#phases button[data-phase={phase}]")
                phone.page.wait_for_selector(f"body[data-phase={phase}][data-solving=false]")
                phone.page.wait_for_function("() => document.body.dataset.pending === ''")
                if phase == "travel":
                    phone.page.click("#explain-panel summary")
                    phone.page.wait_for_selector("#explain-steps li")
                left, spilling = english_left(phone), phone.page.evaluate(OVERFLOWING)
                if left or spilling:
                    problems[phase] = left + spilling
                if phase == "travel":
                    phone.page.click("#explain-panel summary")
                    phone.page.evaluate("() => window.scrollTo(0, 0)")
                    phone.page.screenshot(path=str(DOCS / f"table-{lang}-phone.png"), scale="css")
            assert not problems, "\n".join(f"{k}: {p}" for k, ps in problems.items() for p in ps)
            assert not phone.errors, phone.errors
        finally:
            phone.close()


def test_each_phone_keeps_its_own_language(browser: Any) -> None:  # noqa: F811
    for server in table("en"):
        first, second = (SpeakingPhone(browser, server, "en-US").open() for _ in range(2))
        try:
            assert first.page.get_attribute("html", "lang") == "en"
            for phone, lang, title in ((first, "cs", "Proč tato trasa?"), (second, "ja", "なぜこのルート？")):
                with phone.page.expect_navigation():
                    phone.page.select_option("#lang", lang)
                phone.page.wait_for_selector("body[data-ready=true]")
                assert phone.page.text_content("#explain-panel h2") == title
            for phone, lang in ((first, "cs"), (second, "ja")):
                phone.page.reload()
                phone.page.wait_for_selector("body[data-ready=true]")
                assert phone.page.get_attribute("html", "lang") == lang
                assert phone.page.input_value("#lang") == lang
            assert first.page.text_content("#hand-panel h2").startswith("Ruka")
            assert second.page.text_content("#hand-panel h2").startswith("手札")
            # The table speaks English, each phone its own: the advice too, from one solve (its view and events).
            for phone in (first, second):
                phone.page.wait_for_selector("body[data-solving=false]")
                phone.page.wait_for_function("() => document.body.dataset.pending === ''")
                assert not english_left(phone), english_left(phone)
            assert first.page.text_content("#verdict") != second.page.text_content("#verdict")
            assert not first.errors and not second.errors, first.errors + second.errors
        finally:
            first.close()
            second.close()


@pytest.mark.parametrize("lang", ["ja", "cs"])
def test_game_mode_in_a_language_has_no_english_and_nothing_spills(browser: Any, lang: str) -> None:  # noqa: F811
    for server in table(lang):
        phone = SpeakingPhone(browser, server, lang).open()
        try:
            phone.tap("#mode [data-mode=game]")
            phone.page.tap("#game-start-open")
            phone.page.wait_for_selector("#game-setup:not([hidden])")
            problems = {"setup": english_left(phone) + phone.page.evaluate(OVERFLOWING)}
            for letter in "PEUTD":
                phone.page.tap(f"#setup-display [data-counter={letter}]")
            phone.page.fill("#setup-hand", "PPEECCUT")
            phone.page.tap("#setup-secret [data-counter=D]")
            phone.tap("#setup-start")
            phone.page.wait_for_selector("#game-setup[hidden]", state="attached")
            problems["started"] = english_left(phone) + phone.page.evaluate(OVERFLOWING)
            assert not any(problems.values()), "\n".join(f"{k}: {p}" for k, ps in problems.items() for p in ps)
            assert not phone.errors, phone.errors
        finally:
            phone.close()
