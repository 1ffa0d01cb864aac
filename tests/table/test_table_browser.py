"""The table page in a real browser: Chromium (Debian's chromium-headless-shell) at phone size, with touch.

Each test serves its own table on the loopback and taps the page as a player would: a road and its counter, the
hand, a town, undo, the share link, an illegal change shown where it was made, a second phone updated live, and
the phases of a round: take a counter, place the advised one, the regrets, the obstacle, what to keep. No page
may log a console error. They are slow tests (``--slow``). Without the browser they are skipped, saying how to
install it, except in CI's slow lane (``CI`` set), where they fail: CI must run them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from planner.elfenland.board import load_board
from planner.elfenland.inputs import read_position
from planner.elfenland.position import Position
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState

SIMPLE = "D@JAC-THR:m,E@RIV-THR:f RIV EDR - 1"  # best by hand: THR/E JAC/D, 2 new towns, 2 cards
TOKEN = "browser-test-token"
PHONE = {"width": 390, "height": 844}
CHROMIUM = ("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--no-first-run", "--disable-features=Translate,MediaRouter"]

# About a second a test (a server, a browser context, taps): the quick lane skips them, CI runs them (--slow).
pytestmark = pytest.mark.slow


def chromium() -> str | None:
    """Debian's headless Chromium, or the one ``ELFENLAND_CHROMIUM`` names, if it can be run."""
    named = os.environ.get("ELFENLAND_CHROMIUM")
    return next((path for path in ((named,) if named else CHROMIUM) if os.access(path, os.X_OK)), None)


INSTALL = "apt-get install chromium-headless-shell, or name a Chromium in ELFENLAND_CHROMIUM"


def missing(reason: str, config: pytest.Config) -> None:
    """Skip, saying how to install what is missing; fail in CI's slow lane, which must run these tests."""
    if os.environ.get("CI") and config.getoption("--slow"):
        pytest.fail(f"{reason}: CI must run the browser tests ({INSTALL})")
    pytest.skip(f"{reason} ({INSTALL})")


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright is not installed: pip install -e '.[test]'", request.config)
    path = chromium()
    if path is None:
        missing("no headless Chromium found", request.config)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server() -> Iterator[TableServer]:
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as session:
        running = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        yield running
        running.stop()


class Phone:
    """One phone's page, with every console error it logs."""

    def __init__(self, browser: Any, server: TableServer, *, viewport: dict[str, int] = PHONE) -> None:
        self.context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True, device_scale_factor=2)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.base = f"http://127.0.0.1:{server.port}"

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def open(self, query: str = "") -> Phone:
        self.page.goto(f"{self.base}/?t={TOKEN}{query}")
        self.page.wait_for_selector("body[data-ready=true]")
        self.settled()
        return self

    def settled(self) -> None:
        """Wait until the page shows a solved view."""
        self.page.wait_for_selector("body[data-solving=false]")

    def after(self, version: int) -> None:
        # Functions, not expressions: the page's policy forbids eval, and Playwright evaluates expressions with it.
        self.page.wait_for_function("(v) => Number(document.body.dataset.version) > v && "
                                    "document.body.dataset.solving === 'false'", arg=version)

    @property
    def version(self) -> int:
        return int(self.page.evaluate("document.body.dataset.version"))

    def screen(self, x: float, y: float) -> tuple[float, float]:
        """Where the board point (x, y) is on the screen."""
        point = self.page.evaluate("([x, y]) => { const svg = document.querySelector('#map svg');"
                                   "const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());"
                                   "return [p.x, p.y]; }", [x, y])
        return point[0], point[1]

    def tap_board(self, x: float, y: float, *, dx: float = 0, dy: float = 0) -> None:
        """Tap the board point (x, y), moved by (dx, dy) screen pixels: scrolled to the middle of the screen first, so
        that no sticky header, toast or screen edge takes the tap (which then fails here, not later)."""
        sx, sy = self.screen(x, y)
        self.page.evaluate("(y) => window.scrollBy(0, y - window.innerHeight / 2)", sy + dy)
        sx, sy = self.screen(x, y)
        hit = self.page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('#map')", [sx + dx, sy + dy])
        assert hit, f"the board point ({x}, {y}) is covered or off the screen"
        self.page.touchscreen.tap(sx + dx, sy + dy)

    def tap(self, selector: str) -> None:
        version = self.version
        self.page.tap(selector)
        self.after(version)

    def text(self, selector: str) -> str:
        return str(self.page.inner_text(selector))

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], f"console errors: {self.errors}"


@pytest.fixture
def phone(browser: Any, server: TableServer) -> Iterator[Phone]:
    opened = Phone(browser, server).open()
    yield opened
    opened.close()


def test_the_page_shows_the_best_route(phone: Phone) -> None:
    assert phone.text("#verdict") == "2 new towns, 2 cards, ends in Jaccaranda, keep raft"
    assert phone.text("#solve-status").startswith("proven best")
    rows = phone.page.locator("#route tbody tr")
    assert rows.count() == 2 and "Throtmanni" in rows.nth(0).inner_text() and "Jaccaranda" in rows.nth(1).inner_text()
    assert phone.page.locator("#map svg .plan.best .step").count() == 2
    width = phone.page.evaluate("document.querySelector('#map svg').getBoundingClientRect().width")
    assert 380 <= width <= 390  # the board fills the phone's width


def town(code: str) -> tuple[float, float]:
    found = load_board().towns[code]
    return float(found.x), float(found.y)


def middle(a: str, b: str) -> tuple[float, float]:
    (ax, ay), (bx, by) = town(a), town(b)
    return (ax + bx) / 2, (ay + by) / 2


def test_tap_near_a_road_and_set_its_counter(phone: Phone) -> None:
    # The road Elvenhold - Lapphalya is straight: tap 12 px beside its middle (its line is 2 px wide here).
    version = phone.version
    phone.tap_board(*middle("ELV", "LAP"), dy=-12)
    phone.page.wait_for_selector("#sheet:not([hidden])")
    assert phone.text("#sheet-title") == "Elvenhold – Lapphalya · plain"
    assert phone.page.is_disabled("#sheet-counters [data-counter=U]")  # unicorns never travel plains
    phone.page.tap("#sheet-counters [data-counter=T]")
    phone.after(version)
    phone.page.wait_for_selector("#sheet", state="hidden")
    assert phone.page.locator('#map svg .counter[data-road="ELV-LAP:p"][data-transport="T"]').count() == 1
    assert "T@ELV-LAP:p" in phone.page.input_value("#notation")


def test_set_the_hand(phone: Phone) -> None:
    phone.tap("#hand .card[data-card=D] .plus")
    phone.tap("#hand .card[data-card=D] .face")
    phone.tap("#hand .card[data-card=R] .minus")
    assert phone.text("#hand .card[data-card=D] .count") == "× 3"
    assert phone.text("#hand .card[data-card=R] .count") == "× 0"
    assert phone.page.is_disabled("#hand .card[data-card=R] .minus")
    assert phone.text("#hand-count") == "(4 cards)"
    assert " RIV EDDD - 1" in phone.page.input_value("#notation")
    assert phone.text("#verdict") == "2 new towns, 2 cards, ends in Jaccaranda, keep dragon dragon"


def test_mark_a_town_then_undo_and_redo(phone: Phone) -> None:
    tichih = '#map svg [data-code="TIC"]'
    assert phone.page.get_attribute(tichih, "data-visited") == "false"
    version = phone.version
    phone.tap_board(*town("TIC"))
    phone.after(version)
    assert phone.page.get_attribute(tichih, "data-visited") == "true"
    phone.tap("#undo")
    assert phone.page.get_attribute(tichih, "data-visited") == "false"
    phone.tap("#redo")
    assert phone.page.get_attribute(tichih, "data-visited") == "true"


def test_long_press_puts_the_boot_on_a_town(phone: Phone) -> None:
    version = phone.version
    point = phone.screen(*town("THR"))
    session = phone.page.context.new_cdp_session(phone.page)
    touch = [{"x": point[0], "y": point[1]}]
    session.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": touch})
    phone.page.wait_for_timeout(800)
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    phone.after(version)
    assert phone.page.locator('#map svg .town.current[data-code="THR"]').count() == 1


def test_an_illegal_change_is_shown_where_it_was_made(phone: Phone) -> None:
    # An obstacle on a road without a counter: refused, and said in the sheet, beside the button.
    phone.tap_board(*middle("ELV", "LAP"))
    phone.page.wait_for_selector("#sheet:not([hidden])")
    version = phone.version
    phone.page.tap("#sheet-obstacle")
    problem = phone.page.wait_for_selector("#sheet-problems .problem-text")
    assert problem.inner_text() == ("obstacle on ELV-LAP:p without a counter: an obstacle goes only on a road "
                                    "holding one")
    assert phone.version == version
    phone.page.tap("#sheet-close")
    # An eleventh dragon: said under the hand, and the dragon card is marked.
    phone.page.fill("#notation", "- RIV DDDDDDDDDD - 1")
    phone.tap("#notation-form button")
    phone.page.tap("#hand .card[data-card=D] .plus")
    problem = phone.page.wait_for_selector("#hand-problems .problem-text")
    assert problem.inner_text() == "hand holds 11 dragon cards but the game has only 10"
    assert "bad" in (phone.page.get_attribute("#hand .card[data-card=D]", "class") or "")
    assert phone.text("#hand .card[data-card=D] .count") == "× 10"
    # A notation that does not parse: said under the notation, the text left to fix.
    phone.page.fill("#notation", "- XYZ DD - 1")
    phone.page.press("#notation", "Enter")
    problem = phone.page.wait_for_selector("#notation-problems .problem-text")
    assert "unknown town" in problem.inner_text() and "XYZ" in problem.inner_text()
    assert phone.page.input_value("#notation") == "- XYZ DD - 1"


def test_the_share_link_offers_its_position_and_never_overwrites_the_table(browser: Any, server: TableServer,
                                                                           phone: Phone) -> None:
    phone.tap("#hand .card[data-card=C] .plus")
    shared = phone.page.input_value("#share")
    notation = phone.page.input_value("#notation")
    assert shared.startswith(f"{phone.base}/?t={TOKEN}&p=") and " RIV ECDR " in notation
    phone.tap("#undo")
    before = phone.page.input_value("#notation")
    assert before != notation
    other = Phone(browser, server)  # a fresh phone: the share link alone lets it in
    other.page.goto(shared)
    other.page.wait_for_selector("body[data-ready=true]")
    other.settled()
    assert other.page.evaluate("location.search") == ""  # the link is used once, not re-applied on reload
    assert other.page.is_visible("#shared") and other.page.input_value("#notation") == before  # offered only
    other.tap("#shared-load")
    other.page.wait_for_function("(n) => document.querySelector('#notation').value === n", arg=notation)
    phone.page.wait_for_function("(n) => document.querySelector('#notation').value === n", arg=notation)
    # the toast follows the answer to the load, which may come after the live update of the notation
    other.page.wait_for_function("() => document.querySelector('#toast-text').textContent.includes('loaded')")
    assert other.text("#toast-text") == "the shared position is loaded"
    other.tap("#toast-undo")  # loading it was a change like any other: undo brings the table's back
    phone.page.wait_for_function("(n) => document.querySelector('#notation').value === n", arg=before)
    other.close()


def test_a_second_phone_is_updated_live(browser: Any, server: TableServer, phone: Phone) -> None:
    other = Phone(browser, server).open()
    other.page.wait_for_selector("#link-status:text('live')")
    version = other.version
    phone.tap("#hand .card[data-card=P] .plus")
    other.after(version)
    assert other.text("#hand .card[data-card=P] .count") == "× 1"
    assert other.page.input_value("#notation") == phone.page.input_value("#notation")
    other.close()


def test_landscape_puts_the_map_beside_the_route(browser: Any, server: TableServer) -> None:
    wide = Phone(browser, server, viewport={"width": 844, "height": 390}).open()
    map_box = wide.page.locator("#map").bounding_box()
    route_box = wide.page.locator("#route-panel").bounding_box()
    assert map_box is not None and route_box is not None
    assert route_box["x"] >= map_box["x"] + map_box["width"] - 1  # side by side, not stacked
    svg_box = wide.page.locator("#map svg").bounding_box()
    assert svg_box is not None and svg_box["y"] + svg_box["height"] <= 390  # the whole board is in view
    wide.close()


# -- the phases of a round ---------------------------------------------------------------------------------------
SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


@contextmanager
def table_at(source: str, phase: str) -> Iterator[TableServer]:
    position = read_position(str(SCENARIOS / source)) if source.endswith(".toml") else Position.from_str(source)
    with Session(TableState(position, phase=phase), warm_up=False) as session:
        running = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            yield running
        finally:
            running.stop()


def complete(phone: Phone) -> None:
    """Wait until the page shows a solved view whose later advice (obstacle, keep) is in too."""
    phone.settled()
    phone.page.wait_for_function("() => document.body.dataset.pending === '' && document.body.dataset.solving === "
                                 "'false'")


def test_draw_shows_the_counter_to_take_and_a_tap_takes_it(browser: Any) -> None:
    with table_at("20-opening-draft.toml", "draw") as server:
        phone = Phone(browser, server).open()
        assert phone.page.is_visible("#draw-panel") and not phone.page.is_visible("#route-panel")
        assert phone.text("#verdict") == "draw the face-up unicorn: 1 town for 1 card (now 1 town for 3 cards)"
        assert phone.page.get_attribute("#display [data-counter=U]", "class") == "chip best"
        assert phone.page.locator("#draw-options tr.best").inner_text().split() == ["unicorn", "1", "town", "1", "card"]
        assert phone.page.locator("#map svg .counter.mine[data-road='DAG-KIH:f']").count() == 1
        phone.tap("#display [data-counter=U]")
        assert phone.text("#supply .card[data-card=U] .count") == "× 1"
        assert phone.page.locator("#display [data-counter=U]").count() == 0
        assert phone.page.locator("#display .chip").count() == 4
        phone.close()


def test_plan_shows_the_regrets_and_applies_the_placement_to_make_now(browser: Any) -> None:
    with table_at("21-contested-road.toml", "plan") as server:
        phone = Phone(browser, server).open()
        complete(phone)
        assert phone.text("#verdict") == "place now: your elfcycle on Dag'Amura–Kihromah"
        assert phone.page.locator("#map svg .counter.mine").count() == 2
        assert phone.page.locator("#map svg .counter.now[data-road='DAG-KIH:f']").count() == 1
        rows = phone.page.locator("#regrets tbody tr")
        assert rows.count() == 2 and phone.page.is_visible("#regrets")
        assert rows.nth(0).inner_text().split("\t") == ["Dag'Amura–Kihromah", "place E", "−2 towns (magic cloud)",
                                                        "—"]
        assert phone.text("#route-title").startswith("Joint plan")
        phone.tap("#apply-place")
        assert phone.page.locator("#map svg .counter[data-road='DAG-KIH:f'][data-transport=E]").count() == 1
        assert phone.text("#supply .card[data-card=E] .count") == "× 1"
        # Anna answers with a cloud on the road beyond: the sheet says whose counter it is.
        version = phone.version
        phone.tap_board(*middle("DAG", "JXA"))
        phone.page.wait_for_selector("#sheet:not([hidden])")
        phone.page.tap("#sheet-by [data-by='1']")
        phone.page.tap("#sheet-counters [data-counter=C]")
        phone.after(version)
        assert phone.page.locator("#opponent-1 .card[data-card=C] .count").inner_text() == "× 1"
        phone.close()


def test_plan_shows_the_obstacle_advice_on_the_map_and_places_it(browser: Any) -> None:
    with table_at("22-obstacle-on-the-leader.toml", "plan") as server:
        phone = Phone(browser, server).open()
        complete(phone)
        assert phone.text("#obstacle-advice").startswith("obstacle on Al'Baran–Throtmanni against Anna")
        assert phone.text("#verdict") == "pass this turn; or your obstacle on Al'Baran–Throtmanni"
        assert phone.page.locator("#map svg .connection.block[data-connection='ALB-THR:d']").count() == 1
        assert "100 sampled hands" in phone.text("#obstacle-note")
        assert phone.page.is_checked("#holding")
        phone.tap("#apply-obstacle")
        assert not phone.page.is_checked("#holding")
        assert phone.page.locator("#map svg .counter[data-road='ALB-THR:d'][data-obstacle=true]").count() == 1
        assert phone.text("#obstacle-advice") == "you placed your obstacle of the game already"
        phone.close()


def test_an_illegal_round_change_is_shown_where_it_was_made(browser: Any) -> None:
    # All 8 dragon counters are in view: 3 on the board, 2 in my supply, 3 with Anna.
    eight = "D@ELV-LAP:p,D@JXA-VIR:p,D@LAP-VIR:p KIH URR ELV 2 supply=DD,display=E,opponent=Anna:VIR:-:DDD"
    with table_at(eight, "draw") as server:
        phone = Phone(browser, server).open()
        version = phone.version
        phone.page.tap("#display-edit .card[data-card=D] .plus")
        problem = phone.page.wait_for_selector("#counters-problems .problem-text")
        assert problem.inner_text() == ("9 dragon counters on the board, in the supply, the display, seen and with "
                                        "opponents, but the game has only 8")
        assert "bad" in (phone.page.get_attribute("#supply .card[data-card=D]", "class") or "")
        assert phone.version == version
        phone.page.fill("#opponent-1 .visited", "Jxara Atlantis")
        phone.page.press("#opponent-1 .visited", "Enter")
        problem = phone.page.wait_for_selector("#opponent-1-problems .problem-text")
        assert "Atlantis" in problem.inner_text()
        phone.close()


def test_the_phase_switch_reaches_a_second_phone_live(browser: Any) -> None:
    with table_at("21-contested-road.toml", "travel") as server:
        phone = Phone(browser, server).open()
        other = Phone(browser, server).open()
        other.page.wait_for_selector("#link-status:text('live')")
        version = other.version
        phone.tap("#phases [data-phase=plan]")
        other.after(version)
        assert other.page.get_attribute("body", "data-phase") == "plan"
        assert other.page.is_visible("#place-panel") and not other.page.is_visible("#keep-panel")
        assert other.page.get_attribute("#phases [data-phase=plan]", "aria-pressed") == "true"
        phone.close()
        other.close()


def test_travel_shows_what_to_keep_and_a_new_round_keeps_it(browser: Any) -> None:
    with table_at("E@RIV-THR:f RIV EDDRR - 1 supply=DU", "travel") as server:
        phone = Phone(browser, server).open()
        complete(phone)
        advice = phone.text("#keep-advice")
        assert advice.startswith("End in ") and "over 30 samples" in advice
        phone.page.select_option("#keep-counter", "U")
        phone.page.select_option("#display-carry", "new")
        assert "your unicorn counter" in phone.text("#new-round-hint")
        phone.tap("#new-round")
        assert phone.page.get_attribute("body", "data-phase") == "draw"
        assert phone.text("#supply .card[data-card=U] .count") == "× 1"
        assert phone.text("#supply .card[data-card=D] .count") == "× 0"
        assert phone.text("#round") == "2 of 4"
        phone.close()


# -- the travel phase's "Why this route?" ------------------------------------------------------------------------
# Scenario 06's answers, derived by hand in tests/test_table_explain.py: the best is DAG/U KIH/U DAG/U MAH/D GRA/D,
# its third step goes back from the dead end Kihromah; a counter on an empty road adds a town; my route
# dag/U mah/D gra/D falls behind at step 2; dag/U kih/D pays a dragon for the unicorn counter at step 2.
def map_svg(phone: Phone) -> str:
    return str(phone.page.evaluate("() => document.querySelector('#map svg').outerHTML"))


def open_explanation(phone: Phone) -> None:
    complete(phone)
    assert not phone.page.is_visible("#explain-steps")  # collapsed: the travel phase opens on the route
    phone.page.tap("#explain-panel > summary")
    phone.page.wait_for_selector("#explain-panel[data-status=done] #explain-steps li")


def test_why_this_route_shows_each_steps_reason_and_marks_its_road(browser: Any) -> None:
    with table_at("06-dead-end.toml", "travel") as server:
        phone = Phone(browser, server).open()
        open_explanation(phone)
        third = "#explain-steps li:nth-child(3)"
        assert "dead end" in phone.text(third) and "Kihromah" in phone.text(third)
        phone.page.tap(f"{third} .step-head")
        phone.page.wait_for_selector('#map .connection.explained[data-connection="DAG-KIH:f"]')
        assert phone.page.get_attribute(f"{third} .step-head", "aria-pressed") == "true"
        assert phone.page.get_attribute("#explain-steps li:nth-child(2) .step-head", "aria-pressed") == "false"
        assert "Dag'Amura" in phone.text("#explain-reach tbody tr[data-town=DAG]")
        phone.close()


def test_a_what_if_shows_its_route_on_the_map_and_its_counter_goes_on_the_board(browser: Any) -> None:
    with table_at("06-dead-end.toml", "travel") as server:
        phone = Phone(browser, server).open()
        open_explanation(phone)
        board = map_svg(phone)
        phone.page.tap("#explain-whatif .whatif[data-kind=counter] .show-whatif")
        phone.page.wait_for_selector("#whatif-shown:not([hidden])")
        assert map_svg(phone) != board and "the best route with a" in phone.text("#whatif-shown-text")
        phone.page.tap("#whatif-back")
        assert map_svg(phone) == board and not phone.page.is_visible("#whatif-shown")
        tiles = len(server.session.view()["position"]["tiles"])
        phone.tap("#explain-whatif .whatif[data-kind=counter] .apply-whatif")
        assert len(server.session.view()["position"]["tiles"]) == tiles + 1
        phone.tap("#undo")
        assert len(server.session.view()["position"]["tiles"]) == tiles
        phone.close()


def test_my_own_route_is_compared_or_refused_inline(browser: Any) -> None:
    with table_at("06-dead-end.toml", "travel") as server:
        phone = Phone(browser, server).open()
        open_explanation(phone)
        phone.page.fill("#yours", "dag/U kih/D")
        phone.page.tap("#yours-form button[type=submit]")
        phone.page.wait_for_selector("#yours-problems .problem-text")
        assert phone.text("#yours-problems").startswith("step 2 (kih/D): ")
        phone.page.fill("#yours", "dag/U mah/D gra/D")
        phone.page.tap("#yours-form button[type=submit]")
        phone.page.wait_for_function("() => document.querySelector('#yours-result').textContent.includes('step 2')")
        assert "falls behind at step 2 (MAH/D)" in phone.text("#yours-result")
        assert phone.text("#yours-problems") == ""
        phone.close()
