"""Time the table page's round trip, tap -> redrawn advice, on the bundled scenarios, per phase of the round.

    python benchmarks/table.py                        # HTTP, every phase: POST a change until its advice is in
    python benchmarks/table.py --phases plan -n 20    # one phase, more taps
    python benchmarks/table.py --browser              # also in Chromium: tap "+" until the page shows the advice
    python benchmarks/table.py --screenshots docs/    # write the pictures of docs/table.md
    python benchmarks/table.py --cancel --puzzle-taps 3   # a tap that stops an older one's work, on the puzzle
    python benchmarks/table.py --explain -n 12        # travel: a tap until "Why this route?" is worked out
    python benchmarks/table.py --positions round3 --browser   # round-3 turns of 3-4-player games (or openings)

Each scenario is served on the loopback by a real server, in the phase measured; each tap adds or removes a card
of the hand (so the advice really changes and is worked out and drawn again), alternating so the hand stays the
same size. "first" is what the tap waits for: the view with the phase's first answer (the counter to draw, the
placement to make now with its regrets, or the route) and its map; "complete" adds the later advice (the
obstacle in the plan phase, with the page's 100 samples; in the travel phase what to keep, then the route's
explanation, which ``--explain`` times on its own as well: the explain library call alone, in-process). The puzzles
(hands over 8 cards) get ``--puzzle-taps`` taps in the draw and plan phases: their joint plans take seconds each.
Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
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
from planner.table import PHASES
from planner.table.app import COOKIE
from planner.table.explaining import explain_stage
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "benchmark"
CHROMIUM = "/usr/lib/chromium/chromium-headless-shell"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The plan phase of the pictures: a placement to make now, its regrets, and an obstacle for the last round.
PICTURE = ("T@JXA-VIR:p,D@LAP-VIR:p,E@DAG-LAP:f KIH EEP ELV 4 supply=EE,players=3,"
           "opponent=Anna:VIR:JXA+LAP+MAH:C:1:true:9,opponent=Ben:JXA:-:-:2:true:6")


def taps(position: Position) -> list[dict[str, Any]]:
    """Alternately remove and add one card of a type the hand holds (or add and remove a dragon)."""
    held = [t for t, n in position.hand.as_dict().items() if n]
    if not held:
        return [{"op": "card", "card": "D", "delta": d} for d in (1, -1)]
    return [{"op": "card", "card": held[0].letter, "delta": d} for d in (-1, 1)]


def forget(session: Session) -> None:
    """Drop the later answers the session keeps: the taps go back and forth between two positions, and what is
    measured is the work of each, not the kept answer (which a real game, never twice in a position, rarely
    meets)."""
    session._later_kept.clear()  # noqa: SLF001 (the benchmark's own look inside)


def http_round_trips(position: Position, phase: str, count: int) -> tuple[list[float], list[float]]:
    """Seconds from each POST to its first answer, and to its complete advice."""
    with Session(TableState(position, phase=phase)) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            session.wait_solved(1, timeout=120, complete=True)
            first, complete = [], []
            with httpx2.Client(base_url=f"http://127.0.0.1:{server.port}", cookies={COOKIE: TOKEN},
                               timeout=120) as phone:
                changes = taps(position)
                for i in range(count):
                    forget(session)
                    started = time.perf_counter()
                    answer = phone.post("/api/change", json=changes[i % 2]).json()
                    if answer["view"]["solving"]:
                        session.wait_solved(answer["version"], timeout=120)
                    first.append(time.perf_counter() - started)
                    session.wait_solved(answer["version"], timeout=120, complete=True)
                    complete.append(time.perf_counter() - started)
            return first, complete
        finally:
            server.stop()


def browser_round_trips(position: Position, phase: str, count: int, browser: Any) -> list[float]:
    with Session(TableState(position, phase=phase)) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
            page = context.new_page()
            page.on("pageerror", lambda error: print(f"page error: {error}", file=sys.stderr))
            page.goto(f"http://127.0.0.1:{server.port}/?t={TOKEN}")
            page.wait_for_selector("body[data-ready=true][data-solving=false][data-pending='']")
            card = taps(position)[0]["card"]
            times = []
            for i in range(count):
                button = f"#hand .card[data-card={card}] .{'minus' if i % 2 == 0 else 'plus'}"
                times.append(page.evaluate(TAP_AND_WAIT, button) / 1000)
                page.wait_for_selector("body[data-pending='']")  # the later advice, before the next tap
            context.close()
            return times
        finally:
            server.stop()


# Tap a button and resolve, in milliseconds, once the page shows a newer view with its advice and map drawn.
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
    shots = [(read_position(str(ROOT / "scenarios" / "01-first-steps.toml")), "travel", "table"),
             (read_position(str(ROOT / "scenarios" / "20-opening-draft.toml")), "draw", "table-draw"),
             (Position.from_str(PICTURE), "plan", "table-plan")]
    for position, phase, name in shots:
        with Session(TableState(position, phase=phase), warm_up=False) as session:
            server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
            try:
                for suffix, viewport in (("phone", {"width": 390, "height": 844}),
                                         ("landscape", {"width": 844, "height": 390})):
                    if phase == "draw" and suffix == "landscape":
                        continue
                    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True,
                                                  device_scale_factor=2)
                    page = context.new_page()
                    page.goto(f"http://127.0.0.1:{server.port}/?t={TOKEN}")
                    page.wait_for_selector("body[data-ready=true][data-solving=false][data-pending='']")
                    path = folder / f"{name}-{suffix}.png"
                    page.screenshot(path=str(path))
                    print(f"wrote {path}")
                    context.close()
            finally:
                server.stop()


# Scroll an element to the top of the screen, under the header that stays there.
SCROLL_UNDER_HEADER = """(selector) => {
  const top = document.querySelector(selector).getBoundingClientRect().top;
  window.scrollBy(0, top - document.querySelector("#top").offsetHeight - 8);
}"""


def explain_screenshot(folder: Path, browser: Any) -> None:
    """The "Why this route?" panel on a phone: scenario 06 with a step tapped; the what-ifs and my own route beside
    the best; the map of the counter's what-if."""
    position = read_position(str(ROOT / "scenarios" / "06-dead-end.toml"))
    with Session(TableState(position, phase="travel"), warm_up=False) as session:
        server = TableServer(session, host="127.0.0.1", port=0, token=TOKEN).start()
        try:
            session.change({"op": "yours", "route": "dag/U mah/D gra/D"})
            context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
                                          device_scale_factor=2)
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{server.port}/?t={TOKEN}")
            page.wait_for_selector("body[data-ready=true][data-solving=false][data-pending='']")
            page.tap("#explain-panel > summary")
            page.tap("#explain-steps li:nth-child(3) .step-head")
            for name, where in (("table-explain-phone", "#explain-panel"),
                                ("table-explain-whatif-phone", "#whatif-title")):
                page.evaluate(SCROLL_UNDER_HEADER, where)
                path = folder / f"{name}.png"
                page.screenshot(path=str(path))
                print(f"wrote {path}")
            page.tap("#explain-whatif .whatif[data-kind=counter] .show-whatif")
            page.evaluate("() => window.scrollTo(0, 0)")
            path = folder / "table-explain-map-phone.png"
            page.screenshot(path=str(path))
            print(f"wrote {path}")
            context.close()
        finally:
            server.stop()


def cancelling(position: Position, phase: str, count: int) -> tuple[list[float], list[float]]:
    """Seconds from a change made while an older one is still worked out to its answer, and the same answer's
    time with nothing to stop: what the stop event saves a player who taps twice on a slow position."""
    changes = taps(position)
    interrupted, alone = [], []
    with Session(TableState(position, phase=phase)) as session:
        session.wait_solved(1, timeout=120, complete=True)
        for _ in range(count):
            session.change(changes[0])
            time.sleep(0.3)  # the older change's work is under way
            started = time.perf_counter()
            applied, _ = session.change(changes[1])
            session.wait_solved(applied.version, timeout=120)
            interrupted.append(time.perf_counter() - started)
            session.wait_solved(applied.version, timeout=120, complete=True)
            session.change(changes[0])
            session.wait_solved(session.state.version, timeout=120, complete=True)
            started = time.perf_counter()
            applied, _ = session.change(changes[1])
            session.wait_solved(applied.version, timeout=120)
            alone.append(time.perf_counter() - started)
            session.wait_solved(applied.version, timeout=120, complete=True)
    return interrupted, alone


def explain_round_trips(position: Position, count: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds from each tap (travel phase) to the view with the route's explanation in, the explanation's
    library call alone on the same positions (no keep advice before it, no server), and from setting my own
    route (the best without its last step; none when the best has no step) to the view with its comparison."""
    served, alone, mine = [], [], []
    with Session(TableState(position, phase="travel")) as session:
        session.wait_solved(1, timeout=120, complete=True)
        changes = taps(position)
        for i in range(count):
            forget(session)
            started = time.perf_counter()
            applied, _ = session.change(changes[i % 2])
            view = session.wait_solved(applied.version, timeout=120, complete=True)
            served.append(time.perf_counter() - started)
            assert view["advice"]["explain"]["status"] == "done", view["advice"]["explain"]
            started = time.perf_counter()
            explain_stage(session.state.position, None, limit=session.settings.limit)
            alone.append(time.perf_counter() - started)
            steps = view["solution"]["plans"][0]["route"].split()
            if steps:
                started = time.perf_counter()
                applied, _ = session.change({"op": "yours", "route": " ".join(steps[:-1]) or steps[0]})
                assert applied.ok, applied.problems
                view = session.wait_solved(applied.version, timeout=120, complete=True)
                mine.append(time.perf_counter() - started)
                assert view["advice"]["explain"]["yours"] is not None
                session.change({"op": "yours", "route": ""})
    return served, alone, mine


def served_positions(kind: str, phase: str, count: int) -> list[tuple[str, Position]]:
    """The positions to serve: the bundled scenarios by file name, or ``count`` generated ones (openings with 4
    and 5 counters, or round-3 turns of ``phase``, the travel phase taking the plan phase's) by kind and number."""
    if kind == "scenarios":
        return [(path.name, read_position(str(path))) for path in sorted((ROOT / "scenarios").glob("*.toml"))]
    import random

    from advice import opening, round_threes  # benchmarks/advice.py, beside this script

    if kind == "openings":
        rng = random.Random(2026)
        found = [opening(rng, 4 + i % 2) for i in range(count)]
    else:
        found = round_threes(count, "draw" if phase == "draw" else "plan")
    return [(f"{kind} {i + 1}", position) for i, position in enumerate(found)]


def summary(label: str, times: list[float]) -> str:
    if not times:
        return f"{label}: nothing timed"
    ms = [t * 1000 for t in times]
    return (f"{label}: median {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
            f"max {max(ms):.0f} ms (n={len(ms)})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=12, help="taps per scenario and phase")
    parser.add_argument("--puzzle-taps", type=int, default=2, help="taps for the puzzles in the draw and plan phases")
    parser.add_argument("--phases", default=",".join(PHASES), help="phases to time, comma-separated")
    parser.add_argument("--positions", choices=("scenarios", "openings", "round3"), default="scenarios",
                        help="the bundled scenarios; round-1 openings (an empty board, 8 cards, 4-5 counters); or "
                        "round-3 positions of seeded 3- and 4-player games (benchmarks/advice.py)")
    parser.add_argument("--count", type=int, default=6, help="positions for --positions openings or round3")
    parser.add_argument("--browser", action="store_true", help="also time the round trip in Chromium")
    parser.add_argument("--screenshots", type=Path, help="write the pictures of docs/table.md to this folder")
    parser.add_argument("--explain", action="store_true", help="only time the travel phase's explanation, on the "
                        "real-game hands (at most 8 cards)")
    parser.add_argument("--cancel", action="store_true", help="only time a tap that stops an older one's work, on "
                        "the 20-card puzzle (the slowest bundled scenario)")
    args = parser.parse_args(argv)
    browser = None
    if args.browser or args.screenshots:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    if args.screenshots:
        screenshots(args.screenshots, browser)
        explain_screenshot(args.screenshots, browser)
        return 0
    if args.explain:
        served: list[float] = []
        alone: list[float] = []
        mine: list[float] = []
        for path in sorted((ROOT / "scenarios").glob("*.toml")):
            position = read_position(str(path))
            if len(position.hand) > HAND_SIZE:
                continue
            taken, library, compared = explain_round_trips(position, args.n)
            served += taken
            alone += library
            mine += compared
            print(f"explain {path.name:32} {len(position.hand):2} cards  tap -> explanation median "
                  f"{statistics.median(taken) * 1000:6.0f} ms, explain alone median "
                  f"{statistics.median(library) * 1000:6.0f} ms (n={args.n})", flush=True)
        print(summary("travel: tap -> the explanation in the view (keep advice first), hands of at most 8 cards",
                      served))
        print(summary("travel: the explanation alone (explain_stage), hands of at most 8 cards", alone))
        print(summary("travel: my route -> its comparison in the view, hands of at most 8 cards", mine))
        return 0
    if args.cancel:
        puzzle = read_position(str(ROOT / "scenarios" / "18-puzzle-every-road.toml"))
        for phase in args.phases.split(","):
            interrupted, alone = cancelling(puzzle, phase, args.puzzle_taps)
            print(summary(f"{phase}: a tap stopping an older one's work, to its answer", interrupted))
            print(summary(f"{phase}: the same tap with nothing to stop", alone))
        return 0
    for phase in args.phases.split(","):
        game: dict[str, list[float]] = {"first": [], "complete": [], "browser": []}
        everything: dict[str, list[float]] = {"first": [], "complete": []}
        for name, position in served_positions(args.positions, phase, args.count):
            real = len(position.hand) <= HAND_SIZE
            count = args.n if real or phase == "travel" else args.puzzle_taps
            if not count:
                continue  # --puzzle-taps 0 (or -n 0): this scenario is not timed
            first, complete = http_round_trips(position, phase, count)
            line = (f"{phase:6} {name:32} {len(position.hand):2} cards  first median "
                    f"{statistics.median(first) * 1000:6.0f} ms, complete median "
                    f"{statistics.median(complete) * 1000:6.0f} ms (n={count})")
            everything["first"] += first
            everything["complete"] += complete
            if real:
                game["first"] += first
                game["complete"] += complete
                if browser is not None:
                    taken = browser_round_trips(position, phase, count, browser)
                    game["browser"] += taken
                    line += f"; browser median {statistics.median(taken) * 1000:.0f} ms"
            print(line, flush=True)
        print(summary(f"{phase}: HTTP, first answer, hands of at most 8 cards", game["first"]))
        print(summary(f"{phase}: HTTP, complete advice, hands of at most 8 cards", game["complete"]))
        print(summary(f"{phase}: HTTP, first answer, every scenario", everything["first"]))
        print(summary(f"{phase}: HTTP, complete advice, every scenario", everything["complete"]))
        if game["browser"]:
            print(summary(f"{phase}: browser tap -> redrawn advice, hands of at most 8 cards", game["browser"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
