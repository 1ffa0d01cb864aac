"""The table page at a real table, in Chromium at phone size with touch (issue 22): a map legible without zooming
that still pinch-zooms, taps that snap to what a finger meant, a town toggle undone from its toast, advice that is
dimmed and not actionable while a newer answer is worked out, the offline state, the join link, a restart with
``--save``, and the *Why this route?* marks. Slow tests, like every browser test (CI runs them with ``--slow``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_table_browser import SIMPLE, TOKEN, Phone, browser, open_explanation, server, table_at  # noqa: F401

from planner.elfenland.position import Position
from planner.table.server import TableServer, table_token
from planner.table.session import Session
from planner.table.state import TableState, open_table

pytestmark = pytest.mark.slow

MEASURE = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect())
    .filter((r) => r.width > 0);
  const codes = boxes('#map svg .town text.code'), counters = boxes('#map svg .counter > rect');
  return { codes: codes.map((r) => r.height), counters: counters.map((r) => Math.max(r.width, r.height)),
           names: boxes('#map svg .town text.name').length, width: document.querySelector('#map svg')
           .getBoundingClientRect().width };
}"""


@pytest.fixture
def phone(browser: Any, server: TableServer) -> Iterator[Phone]:  # noqa: F811
    opened = Phone(browser, server).open()
    yield opened
    opened.close()


def test_the_page_lets_a_pinch_zoom_the_map(phone: Phone) -> None:
    viewport = phone.page.get_attribute("meta[name=viewport]", "content")
    assert "user-scalable=no" not in viewport and "maximum-scale" not in viewport
    touch = phone.page.evaluate("getComputedStyle(document.querySelector('#map')).touchAction")
    assert touch in ("auto", "manipulation") or "pinch-zoom" in touch


def test_codes_and_counters_are_legible_at_the_default_portrait_zoom(phone: Phone) -> None:
    sizes = phone.page.evaluate(MEASURE)
    assert sizes["width"] <= 390  # the whole board fits the phone's width: the default zoom
    assert len(sizes["codes"]) == 21 and min(sizes["codes"]) >= 11, sizes["codes"]
    assert sizes["counters"] and min(sizes["counters"]) >= 20, sizes["counters"]
    assert sizes["names"] == 0  # the names (specks at this zoom) show once zoomed in
    for _ in range(3):
        phone.page.tap("#zoom-in")
    zoomed = phone.page.evaluate(MEASURE)
    assert zoomed["names"] == 21 and min(zoomed["codes"]) >= 11


def test_a_fat_finger_reaches_the_road_a_fingertip_would_miss(phone: Phone) -> None:
    # A point near a road that a fingertip (no contact size) misses and a finger 90 px wide reaches.
    spot = phone.page.evaluate("""() => {
      const box = document.querySelector('#map svg').getBoundingClientRect();
      for (let y = box.top + 10; y < box.bottom - 10; y += 4) for (let x = box.left + 10; x < box.right - 10; x += 4) {
        const thin = picked(x, y, 0), fat = picked(x, y, 90);
        if (!thin && fat?.road) return { x, y, road: fat.road.id };
      }
      return null; }""")
    assert spot is not None
    for kind in ("pointerdown", "pointerup"):
        phone.page.dispatch_event("#map", kind, {"clientX": spot["x"], "clientY": spot["y"], "width": 90,
                                                 "height": 90, "isPrimary": True, "pointerType": "touch",
                                                 "bubbles": True})
    phone.page.wait_for_selector(f'#sheet[data-road="{spot["road"]}"]:not([hidden])')


def test_a_town_toggle_is_undone_from_the_toast_that_names_it(phone: Phone) -> None:
    version = phone.version
    x, y = phone.page.evaluate("() => { const t = page.board.towns.find((t) => t.code === 'FEO'); return [t.x, t.y]; }")
    phone.tap_board(x, y)
    phone.after(version)
    assert "FEO" in phone.page.evaluate("page.view.position.visited")
    phone.page.wait_for_selector("#toast:not([hidden])")
    assert phone.text("#toast-text") == "Feodor collected"
    phone.tap("#toast-undo")
    assert "FEO" not in phone.page.evaluate("page.view.position.visited")


def test_stale_advice_is_dimmed_and_not_actionable_while_a_newer_answer_is_worked_out(phone: Phone) -> None:
    assert not phone.page.is_disabled("#travel")
    # The view a change gets at once: the new position, its advice still to come (a slow solve holds it there).
    phone.page.evaluate("() => render({ ...page.view, serial: page.view.serial + 1, version: page.view.version + 1,"
                        " solving: true, solution: null, advice: null, pending: [] })")
    for action in ("#travel", "#apply-place", "#apply-obstacle", "#to-plan"):
        assert phone.page.is_disabled(action), action
    opacity = phone.page.evaluate("getComputedStyle(document.querySelector('#route')).opacity")
    assert float(opacity) < 1
    assert "working out" in phone.page.evaluate("getComputedStyle(document.querySelector('#verdict'), '::after')"
                                                ".content")


def test_later_advice_shows_a_progress_mark(phone: Phone) -> None:
    phone.page.evaluate("() => render({ ...page.view, serial: page.view.serial + 1, pending: ['keep'] })")
    assert phone.text("#later-status") == "working out: what to keep…"
    assert phone.page.evaluate("getComputedStyle(document.querySelector('#later-status'), '::before')"
                               ".borderTopStyle") == "solid"


def test_offline_the_advice_is_dated_and_a_failed_tap_is_said_where_it_was_made(phone: Phone) -> None:
    def console(message: Any) -> None:  # the browser logs each request refused offline: that is no page error
        if message.type == "error" and "ERR_INTERNET_DISCONNECTED" not in message.text:
            phone.errors.append(message.text)

    phone.page.remove_listener("console", phone._console)
    phone.page.on("console", console)
    phone.context.set_offline(True)
    phone.page.tap("#hand .card[data-card=C] .plus")
    phone.page.wait_for_selector("#hand-problems .problem-text")
    assert "did not answer" in phone.text("#hand-problems") and "TypeError" not in phone.text("#hand-problems")
    assert re.fullmatch(r"offline since \d\d:\d\d: the advice may be stale", phone.text("#link-status"))
    assert float(phone.page.evaluate("getComputedStyle(document.querySelector('#verdict')).opacity")) < 1
    phone.context.set_offline(False)
    phone.tap("#hand .card[data-card=C] .plus")
    phone.page.wait_for_selector("#hand-problems .problem-text", state="detached")  # made: the problem goes
    phone.page.wait_for_selector("#link-status:text-is('live')")  # the event stream is back too
    assert not phone.page.evaluate("document.body.classList.contains('offline')")


def test_a_friend_joins_through_the_link_another_phone_shows(browser: Any, server: TableServer,  # noqa: F811
                                                             phone: Phone) -> None:
    join = phone.page.input_value("#join")
    assert join == f"{phone.base}/?t={TOKEN}"
    phone.page.wait_for_function("() => document.querySelector('#join-code').complete")
    assert phone.page.evaluate("document.querySelector('#join-code').naturalWidth") > 0  # the QR code loaded
    friend = Phone(browser, server)
    friend.page.goto(join)  # a fresh browser context: no cookie, nothing scanned from the terminal
    friend.page.wait_for_selector("body[data-ready=true]")
    assert friend.text("#verdict") == phone.text("#verdict")
    friend.close()


def test_a_server_restarted_with_save_lets_every_phone_back_in(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    save = tmp_path / "table.toml"
    token = table_token(save)
    with Session(TableState(Position.from_str(SIMPLE), save=save), warm_up=False) as session:
        first = TableServer(session, host="127.0.0.1", port=0, token=token).start()
        port = first.port
        phone = Phone(browser, first)
        phone.page.goto(f"{phone.base}/?t={token}")
        phone.page.wait_for_selector("body[data-ready=true]")
        phone.settled()
        phone.tap("#hand .card[data-card=C] .plus")
        notation = phone.page.input_value("#notation")
        first.stop()
    state, _ = open_table(None, save=save)  # what `elfenland serve --save table.toml` does again
    assert table_token(save) == token
    with Session(state, warm_up=False) as session:
        second = TableServer(session, host="127.0.0.1", port=port, token=table_token(save)).start()
        try:
            phone.page.wait_for_selector("#link-status:text('live')", timeout=15000)
            assert phone.page.input_value("#notation") == notation  # the saved table, as the phone left it
            phone.page.tap("#hand .card[data-card=P] .plus")  # the phone's cookie still opens the table
            phone.page.wait_for_function("(n) => document.querySelector('#notation').value !== n", arg=notation)
            assert phone.text("#hand .card[data-card=P] .count") == "× 1" and phone.text("#hand-problems") == ""
            phone.close()
        finally:
            second.stop()


def test_a_server_with_a_new_token_is_reported_in_words(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as session:
        first = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        port = first.port
        phone = Phone(browser, first).open()
        first.stop()
    with Session(TableState(Position.from_str(SIMPLE)), warm_up=False) as session:
        second = TableServer(session, host="127.0.0.1", port=port, token="another-token-0123456").start()
        try:
            phone.page.tap("#hand .card[data-card=C] .plus")
            phone.page.wait_for_selector("#hand-problems .problem-text")
            said = phone.text("#hand-problems")
            assert "needs its link" in said and "SyntaxError" not in said
            phone.errors = [e for e in phone.errors if "403" not in e]  # the browser logs the refused requests
            phone.close()
        finally:
            second.stop()


def test_why_this_route_marks_a_step_below_the_header_and_clears_its_marks(browser: Any) -> None:  # noqa: F811
    with table_at("06-dead-end.toml", "travel") as running:
        phone = Phone(browser, running).open()
        open_explanation(phone)
        phone.page.tap("#explain-steps li:nth-child(3) .step-head")
        mark = '#map .connection[data-connection="DAG-KIH:f"] .explain-mark > path'
        phone.page.wait_for_selector(mark, state="attached")
        width = phone.page.evaluate(f"getComputedStyle(document.querySelector('{mark}')).strokeWidth")
        assert float(width.rstrip("px")) >= 20
        phone.page.tap("#explain-whatif .whatif .show-whatif")
        phone.page.wait_for_selector("#whatif-shown:not([hidden])")
        phone.page.wait_for_timeout(600)  # the smooth scroll, if any
        top = phone.page.evaluate("document.querySelector('#top').getBoundingClientRect().bottom")
        assert phone.page.evaluate("document.querySelector('#map').getBoundingClientRect().top") >= top - 1
        phone.page.tap("#whatif-back")
        phone.page.fill("#yours", "dag/U mah/D gra/D")
        phone.page.tap("#yours-form button[type=submit]")
        phone.page.wait_for_function("() => document.querySelector('#yours-result').textContent.includes('step 2')")
        phone.page.fill("#yours", "dag/U kih/D")  # illegal: the old comparison must go with it
        phone.page.tap("#yours-form button[type=submit]")
        phone.page.wait_for_selector("#yours-problems .problem-text")
        assert phone.text("#yours-result") == ""
        phone.page.wait_for_selector(mark, state="attached")  # the step is still marked
        phone.tap("#new-round")
        assert phone.page.query_selector("#map .explain-mark") is None
        phone.close()


def test_a_tablet_in_landscape_shows_the_names_and_the_terrain_legend(browser: Any, server: TableServer  # noqa: F811
                                                                      ) -> None:
    tablet = Phone(browser, server, viewport={"width": 1180, "height": 820}).open()
    sizes = tablet.page.evaluate(MEASURE)
    assert sizes["names"] == 21 and min(sizes["codes"]) > 0
    legend = tablet.page.locator("#terrain-legend li").all_inner_texts()
    assert legend == ["plain", "forest", "desert", "mountain", "river", "best route"]
    tablet.close()


def test_a_tap_beside_a_town_but_nearer_a_road_sets_the_road_not_the_town(phone: Phone) -> None:
    found = phone.page.evaluate("""() => {
      const svg = document.querySelector('#map svg'), box = svg.getBoundingClientRect();
      let some = 0, wrong = 0;
      for (let y = box.top + 4; y < box.bottom - 4; y += 2) for (let x = box.left + 4; x < box.right - 4; x += 2) {
        const p = boardPoint(svg, x, y);
        for (const t of page.board.towns) {
          const d = Math.hypot(p.x - t.x, p.y - t.y);
          if (d <= t.r + 3 || d > TAP_TOWN_PX / p.scale) continue;  // off the circle, in the town's reach
          let nearest = Infinity;
          for (const r of page.board.roads) for (let i = 1; i < r.points.length; i++) {
            nearest = Math.min(nearest, segmentDistance(p, r.points[i - 1], r.points[i]));
          }
          if (nearest < d - 2) { some += 1; if (!picked(x, y, 0)?.road) wrong += 1; }
        }
      }
      return { some, wrong }; }""")
    assert found["some"] > 0 and found["wrong"] == 0, found
