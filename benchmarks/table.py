"""Time the table page's round trip, tap -> redrawn route, on the bundled scenarios: what a player waits for.

    python benchmarks/table.py                  # HTTP: POST a change, answer with the solved view (JSON + SVG)
    python benchmarks/table.py --browser        # also in Chromium: tap "+", until the page shows the new route
    python benchmarks/table.py --screenshots docs/   # write the phone and landscape pictures of the README

Each scenario is served on the loopback by a real server; each tap adds or removes a card of the hand (so the
route really changes and is solved and drawn again), alternating so the hand stays the same size. The breakdown
times the library's part alone (solve, board-only picture, JSON) in this process. Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
from solvers import percentile  # benchmarks/solvers.py, beside this script

from planner.elfenland.inputs import read_position
from planner.elfenland.position import Position
from planner.elfenland.rules import HAND_SIZE
from planner.elfenland.solvers import solve
from planner.elfenland.svg import render_svg
from planner.table.app import COOKIE
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "benchmark"
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def taps(position: Position) -> list[dict[str, Any]]:
    """Alternately add and remove one card of a type the hand holds (or a dragon into an empty hand)."""
    held = [t for t, n in position.hand.as_dict().items() if n] or [None]
    card = held[0].letter if held[0] is not None else "D"
    if held[0] is None:
        return [{"op": "card", "card": card, "delta": d} for d in (1, -1)]
    return [{"op": "card", "card": card, "delta": d} for d in (-1, 1)]


def http_round_trips(position: Position, count: int) -> list[float]:
    with Session(TableState(position)) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            session.wait_solved(1, timeout=60)
            times = []
            with httpx2.Client(base_url=f"http://127.0.0.1:{server.port}", cookies={COOKIE: TOKEN},
                               timeout=60) as phone:
                changes = taps(position)
                for i in range(count):
                    started = time.perf_counter()
                    answer = phone.post("/api/change", json=changes[i % 2]).json()
                    if not answer["view"]["solution"]:
                        session.wait_solved(answer["version"], timeout=60)
                    times.append(time.perf_counter() - started)
            return times
        finally:
            server.stop()


def breakdown(position: Position) -> tuple[float, float, float]:
    """Seconds to solve, to draw the board-only picture, and to write the JSON of one view."""
    started = time.perf_counter()
    solution = solve(position)
    solved = time.perf_counter()
    svg = render_svg(position, solution.plans, board_only=True)
    drawn = time.perf_counter()
    json.dumps({"svg": svg})
    return solved - started, drawn - solved, time.perf_counter() - drawn


def browser_round_trips(position: Position, count: int, browser: Any) -> list[float]:
    with Session(TableState(position)) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{server.port}/?t={TOKEN}")
            page.wait_for_selector("body[data-ready=true][data-solving=false]")
            card = taps(position)[0]["card"]
            times = []
            for i in range(count):
                button = f".card[data-card={card}] .{'minus' if i % 2 == 0 else 'plus'}"
                times.append(page.evaluate(TAP_AND_WAIT, button) / 1000)
            context.close()
            return times
        finally:
            server.stop()


# Tap a button and resolve, in milliseconds, once the page shows a newer, solved view with its map redrawn.
TAP_AND_WAIT = """(selector) => new Promise((resolve) => {
  const body = document.body, before = Number(body.dataset.version), started = performance.now();
  const observer = new MutationObserver(() => {
    if (Number(body.dataset.version) > before && body.dataset.solving === "false") {
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - started));
    }
  });
  observer.observe(body, { attributes: true });
  document.querySelector(selector).click();
})"""


def screenshots(folder: Path, browser: Any) -> None:
    position = read_position(str(ROOT / "scenarios" / "01-first-steps.toml"))
    with Session(TableState(position), warm_up=False) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            for name, viewport in (("table-phone.png", {"width": 390, "height": 844}),
                                   ("table-landscape.png", {"width": 844, "height": 390})):
                context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True,
                                              device_scale_factor=2)
                page = context.new_page()
                page.goto(f"http://127.0.0.1:{server.port}/?t={TOKEN}")
                page.wait_for_selector("body[data-ready=true][data-solving=false]")
                page.screenshot(path=str(folder / name))
                print(f"wrote {folder / name}")
                context.close()
        finally:
            server.stop()


def summary(label: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (f"{label}: median {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
            f"max {max(ms):.0f} ms (n={len(ms)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20, help="taps per scenario")
    parser.add_argument("--browser", action="store_true", help="also time the round trip in Chromium")
    parser.add_argument("--screenshots", type=Path, help="write the README's screenshots to this folder")
    args = parser.parse_args(argv)
    browser = None
    if args.browser or args.screenshots:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    if args.screenshots:
        screenshots(args.screenshots, browser)
        return 0
    eight: list[float] = []
    eight_browser: list[float] = []
    everything: list[float] = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        position = read_position(str(path))
        times = http_round_trips(position, args.n)
        solve_s, draw_s, json_s = breakdown(position)
        everything += times
        line = (f"{summary(f'{path.name:32} {len(position.hand):2} cards', times)}; "
                f"solve {solve_s * 1000:.0f} ms, svg {draw_s * 1000:.0f} ms, json {json_s * 1000:.1f} ms")
        if len(position.hand) <= HAND_SIZE:
            eight += times
            if browser is not None:
                browser_times = browser_round_trips(position, args.n, browser)
                eight_browser += browser_times
                line += f"; browser median {statistics.median(browser_times) * 1000:.0f} ms"
        print(line)
    print(summary("HTTP round trip, hands of at most 8 cards", eight))
    print(summary("HTTP round trip, every scenario", everything))
    if eight_browser:
        print(summary("browser tap -> redrawn route, hands of at most 8 cards", eight_browser))
    return 0


if __name__ == "__main__":
    sys.exit(main())
