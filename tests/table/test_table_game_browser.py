"""The table page's game mode in Chromium at phone size with touch (issue 22, items 1-3): a scripted 3-player round
entered one or two taps an action, attributed and undone in words, a new round that asks for my cards before any
advice, the ``--save`` file read by ``elfenland replay`` and ``elfenland review``, a restart that every phone
reconnects to, and a tablet in landscape. Slow tests, like every browser test.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_table_browser import TOKEN, Phone, browser, middle, town  # noqa: F401

from planner.elfenland.position import Position
from planner.table.server import TableServer
from planner.table.session import Session
from planner.table.state import TableState, open_table

pytestmark = pytest.mark.slow

DOCS = Path(__file__).resolve().parents[2] / "docs"
TABLET = {"width": 1180, "height": 820}
HAND = "PPEECCUT"
"""My first deal: the only thing typed in the round (the names and seats are the setup's defaults)."""


@contextmanager
def table(save: Path | None = None, *, state: TableState | None = None, port: int = 0) -> Iterator[TableServer]:
    table_state = state or TableState(Position.from_str("- ELV - - 1"), save=save)
    with Session(table_state, warm_up=False) as session:
        running = TableServer(session, host="127.0.0.1", port=port, token=TOKEN).start()
        try:
            yield running
        finally:
            running.stop()


class Taps:
    """The taps of the round, by whose action they enter (an opponent's, or mine)."""

    def __init__(self, phone: Phone, server: TableServer) -> None:
        self.phone = phone
        self.server = server
        self.opponent = 0
        self.mine = 0

    def game(self) -> dict[str, Any]:
        game: dict[str, Any] = self.server.session.view()["game"]
        return game

    def tap(self, selector: str, *, mine: bool, acts: bool = True) -> None:
        """One tap; ``acts``: the tap completes an action (the page then shows the next view)."""
        if mine:
            self.mine += 1
        else:
            self.opponent += 1
        if acts:
            self.phone.tap(selector)
        else:
            self.phone.page.tap(selector)

    def board(self, point: tuple[float, float], *, mine: bool) -> None:
        """A tap on the map (a road opens its sheet; a town ends an opponent's move)."""
        self.opponent += not mine
        self.mine += mine
        self.phone.tap_board(*point)

    def opponent_face_up(self, slot: int, turned: str) -> None:
        self.tap(f'#game-display [data-slot="{slot}"]', mine=False, acts=False)
        self.tap(f"#game-turned-counters [data-counter={turned}]", mine=False)

    def place(self, road: tuple[float, float], counter: str, *, mine: bool = False) -> None:
        version = self.phone.version
        self.board(road, mine=mine)
        self.phone.page.wait_for_selector("#sheet:not([hidden])")
        self.tap(f"#sheet-counters [data-counter={counter}]", mine=mine, acts=False)
        self.phone.after(version)


def start_game(phone: Phone) -> None:
    """The setup sheet: the default players (Anna, You, Ben), the display tapped, my cards typed."""
    phone.tap("#mode [data-mode=game]")
    phone.page.tap("#game-start-open")
    for letter in "PEUTD":
        phone.page.tap(f"#setup-display [data-counter={letter}]")
    phone.page.fill("#setup-hand", HAND)
    phone.page.tap("#setup-secret [data-counter=D]")
    phone.tap("#setup-start")


def my_draw(taps: Taps) -> None:
    """My draw, as the advice says: the face-up counter it marks, else blind (the counter drawn: a troll)."""
    phone = taps.phone
    assert phone.text("#verdict").startswith("draw"), phone.text("#verdict")  # my turn shows the advice
    best = phone.page.locator("#game-display .chip.best")
    if best.count():
        taps.tap(f'#game-display [data-slot="{best.first.get_attribute("data-slot")}"]', mine=True, acts=False)
        taps.tap("#game-turned-counters [data-counter=P]", mine=True)
    else:
        taps.tap("#game-blind [data-counter=T]", mine=True)


def play_round(phone: Phone, server: TableServer) -> Taps:
    """Round 1 of Anna, me and Ben, every action tapped; the opponents' taps and actions counted."""
    taps = Taps(phone, server)
    # The draw: Anna, me, Ben, three times.
    taps.opponent_face_up(0, "C")                      # Anna takes the pig, a cloud turns up
    my_draw(taps)
    taps.tap("#game-blind [data-counter=U]", mine=False)  # Ben draws a unicorn blind
    taps.tap("#game-blind [data-counter=T]", mine=False)  # Anna a troll
    my_draw(taps)
    taps.opponent_face_up(2, "E")                      # Ben takes the face-up third counter
    taps.tap("#game-blind [data-counter=D]", mine=False)  # Anna a dragon
    my_draw(taps)
    taps.tap("#game-blind [data-counter=E]", mine=False)  # Ben an elfcycle
    game = taps.game()
    assert game["phase"] == "plan" and game["players"][0]["open"] == "PTD", game["players"]
    # Planning: Anna and Ben place once, then pass; I follow the advice until everybody has passed in a row.
    placed = {0: ("PAR", "WYL", "P"), 2: ("PAR", "USS", "U")}
    for _ in range(20):
        game = taps.game()
        if game["phase"] != "plan":
            break
        turn = game["turn"]
        if turn == 1:
            assert phone.page.locator("#place-panel").is_visible()
            if phone.page.locator("#apply-place").is_visible():
                taps.tap("#apply-place", mine=True)
            else:
                taps.tap("#game-pass", mine=True)
        elif turn in placed:
            a, b, counter = placed.pop(turn)
            taps.place(middle(a, b), counter)
        else:
            taps.tap("#game-pass", mine=False)
    assert taps.game()["phase"] == "travel"
    # Moving: Anna's boot ends in Lapphalya (a tap on the town); mine walks the advised route; Ben stays.
    version = phone.version
    taps.board(town("LAP"), mine=False)
    phone.after(version)
    phone.page.wait_for_selector("#game-towns:not([hidden])")
    assert phone.text("#game-towns-list") == "Lapphalya"  # the towns on the fewest links, to edit
    taps.board(town("VIR"), mine=False)  # she went by Virst: a tap adds it (drawn once the page has the tap)
    phone.page.wait_for_function("() => document.querySelector('#game-towns-list').textContent.includes(',')")
    assert phone.text("#game-towns-list") == "Lapphalya, Virst"
    version = phone.version
    taps.tap("#game-towns-done", mine=False, acts=False)
    phone.page.wait_for_function("(v) => Number(document.body.dataset.version) >= v + 2", arg=version)
    phone.settled()
    assert taps.game()["players"][0]["visited"] == ["ELV", "LAP", "VIR"]
    taps.tap("#game-walk", mine=True)
    if taps.game()["phase"] == "discard":
        taps.tap("#game-keep-cards", mine=True)
    taps.tap("#game-stay", mine=False)
    # Keeping: Anna her face-down counter, me the advised one, Ben nothing.
    taps.tap('#game-keep [data-keep="?"]', mine=False)
    advised = phone.page.locator("#game-keep .chip.best")
    taps.tap(f'#game-keep [data-counter={advised.first.get_attribute("data-counter")}]' if advised.count()
             else '#game-keep [data-keep="-"]', mine=True)
    taps.tap('#game-keep [data-keep="-"]', mine=False)
    return taps


def said(phone: Phone, text: str) -> None:
    """Wait for the toast that says ``text`` (the answer's words; a live update may render the view first)."""
    phone.page.wait_for_function("(t) => document.querySelector('#toast-text').textContent.startsWith(t) && "
                                 "!document.querySelector('#toast').hidden", arg=text)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "planner", *args], capture_output=True, text=True, timeout=300,
                          check=False)


@pytest.fixture(scope="module")
def played(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:  # noqa: F811
    """Round 1 played on a phone, saved: the save file, the taps, the round's record."""
    save = tmp_path_factory.mktemp("game") / "game.jsonl"
    with table(save) as server:
        phone = Phone(browser, server).open()
        start_game(phone)
        taps = play_round(phone, server)
        game = taps.game()
        port = server.port
        phone.close()
    record = json.loads(save.read_text(encoding="utf-8"))
    return {"save": save, "taps": taps, "game": game, "record": record, "port": port}


def test_a_round_in_game_mode_takes_at_most_one_and_a_half_taps_an_opponent_action(played: dict[str, Any]) -> None:
    taps, record = played["taps"], played["record"]
    assert played["game"]["round"] == 2 and played["game"]["needs"] == "deal"
    entries = [a for r in record["rounds"] for a in r["actions"]]
    theirs = [a for a in entries if a["player"] != "You"]
    # 6 draws, 2 placements and the passes, 2 moves, 2 keeps: every one entered by a tap or two.
    assert len(theirs) >= 12 and {a["phase"] for a in theirs} == {"draw", "plan", "travel", "keep"}
    assert taps.opponent / len(theirs) <= 1.5, (taps.opponent, len(theirs))
    assert record["rounds"][0]["hands"] == {"You": HAND}  # my hand: the only thing typed
    moved = next(a for a in theirs if a["phase"] == "travel")
    assert moved == {"player": "Anna", "phase": "travel", "action": "?", "town": "LAP", "collected": ["LAP", "VIR"]}
    mine = [a for a in entries if a["player"] == "You"]
    assert [a["phase"] for a in mine][:3] == ["draw"] * 3 and any(a["phase"] == "travel" for a in mine)


def test_the_saved_game_replays_and_reviews(played: dict[str, Any]) -> None:
    save, record = played["save"], played["record"]
    replayed = run("replay", str(save))
    assert replayed.returncode == 0 and "legal, same result" in replayed.stdout, replayed.stdout + replayed.stderr
    reviewed = run("review", str(save), "--player", "You", "--json")
    assert reviewed.returncode == 0, reviewed.stderr
    review = json.loads(reviewed.stdout)
    entries = [a for r in record["rounds"] for a in r["actions"]]
    mine = next(a["action"] for a in entries if a["player"] == "You" and a["phase"] == "travel")
    assert review["player"] == "You" and [r["travelled"]["route"] for r in review["rounds"]] == [mine]
    assert [d["phase"] for d in review["decisions"]][:3] == ["draw"] * 3


def test_a_restarted_server_resumes_the_game_and_the_new_round_asks_for_my_cards_first(
        browser: Any, played: dict[str, Any]) -> None:  # noqa: F811
    state, notes = open_table(None, save=played["save"])  # what `elfenland serve --save game.jsonl` does again
    assert state.mode == "game" and "resuming the game" in notes[0]
    with table(state=state, port=played["port"]) as server:
        phone = Phone(browser, server).open()
        assert phone.page.locator("#seats li").count() == 3
        assert phone.text("#verdict") == "Your new cards first: the advice comes once your hand is complete."
        phone.page.wait_for_selector("#game-setup:not([hidden])")  # the deal sheet asks at once, for my cards alone
        assert not phone.page.locator("#setup-players").is_visible()
        phone.page.screenshot(path=str(DOCS / "table-game-deal-phone.png"))
        assert not phone.page.locator("#draw-panel").is_visible()  # nothing advised on a half-known hand
        phone.page.tap("#setup-close")
        phone.page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
        box = phone.page.locator("#game-deal-open").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844  # no scrolling to reach it
        phone.page.tap("#game-deal-open")
        kept = phone.page.input_value("#setup-hand")
        assert 0 < len(kept) <= 4  # the cards kept, for the deal to add to
        phone.page.fill("#setup-hand", kept + "D")  # cards short: refused where it was typed
        phone.page.tap("#setup-start")
        phone.page.wait_for_selector("#setup-problems .problem-text")
        assert "holds 8 cards" in phone.text("#setup-problems")
        phone.page.fill("#setup-hand", kept + "DDRRRRRR"[:8 - len(kept)])
        phone.page.tap("#setup-secret [data-counter=T]")
        phone.tap("#setup-start")
        said(phone, "your hand for round 2: ")
        phone.settled()
        assert phone.text("#verdict").startswith("draw")  # round 2 starts with me: advised once the hand is in
        phone.page.screenshot(path=str(DOCS / "table-game-phone.png"))
        phone.close()


def test_every_action_is_attributed_and_undo_names_what_it_undoes(browser: Any) -> None:  # noqa: F811
    with table() as server:
        phone = Phone(browser, server).open()
        start_game(phone)
        assert "Anna" in phone.text("#seats li.turn")
        phone.page.tap('#game-display [data-slot="0"]')
        phone.tap("#game-turned-counters [data-counter=C]")
        said(phone, "Anna took the face-up giant pig (magic cloud turned up)")
        assert "You" in phone.text("#seats li.turn")
        other = Phone(browser, server).open()  # another phone at the table: the same words, no toast of its own
        assert other.text("#game-last") == "last: Anna took the face-up giant pig (magic cloud turned up)"
        assert "You" in other.text("#seats li.turn")
        other.close()
        phone.page.screenshot(path=str(DOCS / "table-game-turn.png"))
        phone.tap("#game-undo")
        said(phone, "undone: Anna took the face-up giant pig (magic cloud turned up)")
        assert "Anna" in phone.text("#seats li.turn") and phone.text("#game-display [data-slot='0']").startswith("P")
        phone.tap("#game-blind [data-counter=T]")
        said(phone, "Anna drew a troll wagon blind")
        phone.page.tap("#toast-undo")  # the toast's undo names what it took back too
        said(phone, "undone: Anna drew a troll wagon blind")
        phone.close()


def test_a_tablet_in_landscape_shows_the_turn_strip_and_the_map(browser: Any) -> None:  # noqa: F811
    with table() as server:
        phone = Phone(browser, server, viewport=TABLET).open()
        start_game(phone)
        phone.page.tap('#game-display [data-slot="0"]')
        phone.tap("#game-turned-counters [data-counter=C]")
        phone.settled()
        strip = phone.page.locator("#seats").bounding_box()
        board = phone.page.locator("#map svg").bounding_box()
        assert strip is not None and board is not None
        assert strip["y"] + strip["height"] <= board["y"] + 1 and board["y"] + board["height"] <= TABLET["height"] + 1
        assert phone.page.locator("#draw-panel").is_visible()  # my turn: the advice beside the map
        phone.page.screenshot(path=str(DOCS / "table-game-tablet.png"))
        phone.close()
