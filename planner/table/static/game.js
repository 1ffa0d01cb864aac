// The table page's game mode: the game the players play, driven by the server's engine. A turn strip names the
// players in seat order and whose turn it is; the bar under it holds the one or two taps of the turn's action,
// whoever's it is (the server attributes it to the player whose turn it is and answers it in words, which the toast
// shows with an undo). The freehand editor stays as analysis mode. Loaded before app.js, whose helpers ($, el, send,
// textColour, page, toast) these functions call once the page runs; like app.js it holds no game rule.
"use strict";

// Every sentence the game mode shows, in one place (for translating the page).
// The game mode's words, in the phone's language once its catalogue is read (makeGameText, at start).
let GAME_TEXT = null;

function makeGameText() {
  GAME_TEXT = {
    start: t("start a game"),
    startAgain: t("start a new game"),
    startTitle: t("A new game"),
    names: t("players in seat order (the first draws first), with commas"),
    me: t("I am"),
    display: t("the five face-up counters, tapped in order:"),
    hand: t("my eight cards (letters, e.g. PPCCUTDR)"),
    secret: t("my face-down counter"),
    begin: t("begin"),
    clear: t("clear"),
    dealTitle: (round) => t("Round {round}: your new cards", { round }),
    dealHint: (kept) => kept ? t("You kept {cards}: add the cards dealt to them.", { cards: kept }) : t("The eight cards dealt to you."),
    deal: t("these are my cards"),
    dealSecret: t("my new face-down counter"),
    askDeal: (round) => t("Round {round}: enter your new cards before anyone draws.", { round }),
    newCards: t("new cards"),
    you: t("you"),
    draws: (name) => t("{name} draws: tap the counter taken", { name }),
    myDraw: t("your draw: tap the counter you take (advice below)"),
    blind: t("blind:"),
    blindHint: t("A blind draw: tap the counter drawn after “blind:” at the top."),
    pass: t("pass"),
    places: (name) => t("{name} places: tap a road on the map, then the counter", { name }),
    myPlace: t("your turn to place: the advice is below, or tap a road"),
    travels: (name) => t("Tap the town where {name}'s boot ends", { name }),
    stays: (name) => t("{name} stays", { name }),
    myTravel: t("your move: walk the advised route"),
    walk: t("walk this route"),
    discard: t("keep four cards for the next round"),
    keepThese: (cards) => t("keep {cards}", { cards }),
    discardOther: t("or discard (letters)"),
    discardSend: t("discard"),
    keeps: (name) => t("{name} keeps", { name }),
    keepNone: t("nothing"),
    keepFaceDown: t("a face-down one"),
    over: t("the game is over"),
    turned: t("Which counter turned up?"),
    collected: (name) => t("{name} collected (tap towns on the map to change)", { name }),
    done: t("done"),
    points: (n) => tn("{n} town", "{n} towns", n),
    counters: (open, secret) => [open, secret ? t("+{n} face-down", { n: secret }) : ""].filter(Boolean).join(" "),
    waitStart: t("Game mode: start a game (its players, the display and your cards)."),
    waitDeal: t("Your new cards first: the advice comes once your hand is complete."),
    waitTurn: (name, phase) => t("{name}'s turn ({phase}): tap what {name} does.", { name, phase }),
    waitOver: t("The game is over."),
    last: (said) => t("last: {said}", { said }),
    phases: { draw: t("drawing"), plan: t("planning"), travel: t("moving"), discard: t("discarding"), keep: t("keeping"),
                over: t("over") },
  };
}

const gamePage = { picked: [], secret: null, collecting: null, turnedSlot: null, dealing: false, dealDismissed: false };

// The header's line while nothing is advised.
function waitingText(view) {
  const game = view.game;
  if (view.waiting === "start" || !game) return GAME_TEXT.waitStart;
  if (view.waiting === "deal") return GAME_TEXT.waitDeal;
  if (view.waiting === "over") return GAME_TEXT.waitOver;
  return GAME_TEXT.waitTurn(game.players[game.turn].name, GAME_TEXT.phases[game.phase]);
}

function inGame() {
  return page.view?.mode === "game";
}

function gameOf(view) {
  return view.mode === "game" ? view.game : null;
}

function counterButton(letter, onclick, label) {
  const card = cardOf(letter);
  const button = el("button", { type: "button", class: "chip", "data-counter": letter, onclick,
                                "aria-label": label || card.title },
                    el("b", { text: letter }), el("small", { text: card.title }));
  button.style.background = card.colour;
  button.style.color = textColour(card.colour);
  return button;
}

function act(change) {
  if (gamePage.collecting) { gamePage.collecting = null; renderCollecting(); }  // the next action: the towns stand
  return send({ op: "game_act", ...change }, "#game-problems-bar");
}

// -- the turn strip and the bar --------------------------------------------------------------------------------------
function renderGameMode(view) {
  document.body.dataset.mode = view.mode;
  for (const button of document.querySelectorAll("#mode button")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === view.mode));
  }
  const game = gameOf(view);
  $("#game-undo").disabled = !view.can_undo;
  document.body.toggleAttribute("data-waiting", Boolean(view.waiting));
  const seats = $("#seats");
  const bar = $("#game-bar");
  if (view.mode !== "game" || !game) $("#game-last").textContent = "";
  if (view.mode !== "game") {
    seats.replaceChildren();
    bar.replaceChildren();
    return;
  }
  if (!game) {
    seats.replaceChildren();
    bar.replaceChildren(el("button", { type: "button", id: "game-start-open", class: "wide", text: GAME_TEXT.start,
                                       onclick: openSetup }));
    return;
  }
  seats.replaceChildren(...game.players.map((p, i) => el("li", {
    class: [i === game.turn ? "turn" : "", p.me ? "me" : ""].join(" ").trim() || null,
    "aria-current": i === game.turn ? "true" : null, "data-seat": String(i) },
    el("b", { text: p.me && p.name.toLowerCase() !== GAME_TEXT.you ? `${p.name} (${GAME_TEXT.you})` : p.name }),
    el("small", { text: `${GAME_TEXT.points(p.towns)} · ${p.town} ${GAME_TEXT.counters(p.open, p.secret)}` }))));
  $("#game-round").textContent = `${game.round}/${game.rounds} · ${GAME_TEXT.phases[game.phase]}`;
  $("#game-last").textContent = game.said ? GAME_TEXT.last(game.said) : "";  // every phone, not just the tapping one
  bar.replaceChildren(...barContents(view, game));
  if (game.needs === "deal" && $("#game-setup").hidden && !gamePage.dealDismissed) openDeal();
  if (game.needs !== "deal") gamePage.dealDismissed = false;
}

function barContents(view, game) {
  const again = el("button", { type: "button", id: "game-start-open", text: GAME_TEXT.startAgain, onclick: openSetup });
  if (game.over) return [el("p", { text: GAME_TEXT.over }), again];
  if (game.needs === "deal") {
    return [el("p", { text: GAME_TEXT.askDeal(game.round) }),
            el("button", { type: "button", id: "game-deal-open", class: "wide", text: GAME_TEXT.newCards,
                           onclick: openDeal })];
  }
  const player = game.players[game.turn];
  const mine = player.me;
  const name = mine ? GAME_TEXT.you : player.name;
  const parts = [];
  if (game.phase === "draw") {
    parts.push(el("p", { text: mine ? GAME_TEXT.myDraw : GAME_TEXT.draws(name) }));
    const best = mine ? adviceFor(view, "draw")?.best : null;
    const chips = game.display.map((letter, slot) => {
      const chip = counterButton(letter, () => takeFaceUp(slot), t("take the face-up {card}", { card: cardOf(letter).title }));
      chip.dataset.slot = String(slot);
      if (best === letter) chip.classList.add("best");
      return chip;
    });
    parts.push(el("div", { class: "chips", id: "game-display" }, ...chips));
    if (game.stack > 0) {
      parts.push(el("div", { class: "chips blind", id: "game-blind" }, el("span", { text: GAME_TEXT.blind }),
        ...counterCards().map((c) => counterButton(c.letter, () => act({ action: "blind", took: c.letter }),
                                                   t("drew a {card} blind", { card: c.title })))));
    }
    if (game.can_pass) parts.push(passButton());
  } else if (game.phase === "plan") {
    parts.push(el("p", { text: mine ? GAME_TEXT.myPlace : GAME_TEXT.places(name) }), passButton());
  } else if (game.phase === "travel") {
    if (mine) {
      parts.push(el("p", { text: GAME_TEXT.myTravel }),
                 el("button", { type: "button", id: "game-walk", class: "wide", text: GAME_TEXT.walk,
                                disabled: view.solving || !view.solution,
                                onclick: () => send({ op: "travel", route: view.solution.plans[0].route || "-" },
                                                    "#game-problems-bar") }));
    } else {
      parts.push(el("p", { text: GAME_TEXT.travels(name) }),
                 el("button", { type: "button", id: "game-stay", text: GAME_TEXT.stays(name),
                                onclick: () => act({ town: player.town, collected: [] }) }));
    }
  } else if (game.phase === "discard") {
    const kept = keepAdvice(view)?.card_letters;
    parts.push(el("p", { text: GAME_TEXT.discard }));
    if (kept) {
      parts.push(el("button", { type: "button", id: "game-keep-cards", class: "wide best",
                                text: GAME_TEXT.keepThese(kept), onclick: () => act({ action: without(game.hand, kept) }) }));
    }
    const input = el("input", { id: "game-discard", autocomplete: "off", "aria-label": GAME_TEXT.discardOther,
                                placeholder: GAME_TEXT.discardOther });
    parts.push(el("form", { class: "row", onsubmit: (event) => { event.preventDefault(); act({ action: input.value }); } },
                  input, el("button", { type: "submit", text: GAME_TEXT.discardSend })));
  } else if (game.phase === "keep") {
    parts.push(el("p", { text: GAME_TEXT.keeps(name) }));
    const advised = mine ? keepAdvice(view)?.counter_letter : null;
    const letters = mine ? game.keep.mine : game.keep.open;
    const row = el("div", { class: "chips", id: "game-keep" },
      el("button", { type: "button", "data-keep": "-", text: GAME_TEXT.keepNone, onclick: () => act({ action: "-" }) }),
      ...letters.map((letter) => {
        const chip = counterButton(letter, () => act({ action: letter }), t("keeps the {card}", { card: cardOf(letter).title }));
        if (advised === letter) chip.classList.add("best");
        return chip;
      }));
    if (game.keep.face_down) {
      row.append(el("button", { type: "button", "data-keep": "?", text: GAME_TEXT.keepFaceDown,
                                onclick: () => act({ action: "?" }) }));
    }
    parts.push(row);
  }
  if (game.replaceable) parts.push(again);  // nothing played yet: a mistyped start is begun again
  parts.push(el("div", { id: "game-problems-bar", class: "problems", "aria-live": "polite" }));
  return parts;
}

function passButton() {
  return el("button", { type: "button", id: "game-pass", text: GAME_TEXT.pass, onclick: () => act({ action: "pass" }) });
}

// The letters of ``hand`` less those of ``kept`` (the cards to discard when these are kept).
function without(hand, kept) {
  const rest = [...hand];
  for (const letter of kept) rest.splice(rest.indexOf(letter), 1);
  return rest.join("") || "-";
}

// -- a face-up counter taken: then the one turned up -----------------------------------------------------------------
function takeFaceUp(slot) {
  const game = page.view.game;
  const took = game.display[slot];
  if (game.stack === 0) {
    act({ action: String(slot), took });
    return;
  }
  gamePage.turnedSlot = slot;
  const sheet = $("#game-turned");
  sheet.hidden = false;
  $("#game-turned-counters").replaceChildren(...counterCards().map((c) => counterButton(c.letter, async () => {
    sheet.hidden = true;
    await act({ action: String(slot), took, turned: c.letter });
  }, `a ${c.title} turned up`)));
}

// -- an opponent's move: the end town, then the towns collected (editable) --------------------------------------------
// A tap on a town in game mode: an opponent's move ends there; while the collected towns are edited, toggles one.
function gameTown(town) {
  const game = page.view.game;
  if (gamePage.collecting) {
    const list = gamePage.collecting.collected;
    const at = list.indexOf(town.code);
    if (at >= 0) list.splice(at, 1); else list.push(town.code);
    renderCollecting();
    return true;
  }
  if (!game || game.needs || game.phase !== "travel" || game.players[game.turn].me) return false;
  const seat = game.turn;
  act({ town: town.code }).then((made) => {
    const entry = made ? page.view.game : null;
    if (!entry) return;
    const moved = entry.players[seat];
    const before = new Set(game.players[seat].visited);
    gamePage.collecting = { seat, name: moved.name, town: town.code,
                            collected: moved.visited.filter((t) => !before.has(t)), original: null };
    gamePage.collecting.original = [...gamePage.collecting.collected];
    renderCollecting();
  });
  return true;
}

function renderCollecting() {
  const editing = gamePage.collecting;
  const sheet = $("#game-towns");
  sheet.hidden = !editing;
  if (!editing) return;
  const names = Object.fromEntries(page.board.towns.map((t) => [t.code, t.name]));
  $("#game-towns-title").textContent = GAME_TEXT.collected(editing.name);
  $("#game-towns-list").textContent = editing.collected.map((t) => names[t]).join(", ") || "—";
}

async function doneCollecting() {
  const editing = gamePage.collecting;
  gamePage.collecting = null;
  renderCollecting();
  if (!editing || editing.collected.join() === editing.original.join()) return;
  if (await send({ op: "undo" }, "#game-problems-bar")) {
    await act({ town: editing.town, collected: editing.collected });
  }
}

// -- the sheet of my cards: a new game (its players and display too), or a new round's deal ---------------------------
function openCards(dealing) {
  const game = page.view.game;
  gamePage.dealing = dealing;
  gamePage.secret = null;
  if (!dealing) gamePage.picked = [];
  $("#game-setup").hidden = false;
  $("#setup-players").hidden = dealing;
  $("#setup-title").textContent = dealing ? GAME_TEXT.dealTitle(game.round) : GAME_TEXT.startTitle;
  $("#setup-hand-label").textContent = dealing ? GAME_TEXT.dealHint(game.carried) : GAME_TEXT.hand;
  $("#setup-secret-label").textContent = dealing ? GAME_TEXT.dealSecret : GAME_TEXT.secret;
  $("#setup-start").textContent = dealing ? GAME_TEXT.deal : GAME_TEXT.begin;
  const input = $("#setup-hand");
  if (dealing && !input.value.startsWith(game.carried || "")) input.value = game.carried || "";
  renderSetup();
}

function openSetup() {
  openCards(false);
}

function openDeal() {
  openCards(true);
}

function renderSetup() {
  const names = $("#setup-names").value.split(",").map((n) => n.trim()).filter(Boolean);
  const select = $("#setup-me");
  const chosen = select.value;
  select.replaceChildren(...names.map((n, i) => el("option", { value: String(i), text: n })));
  if (chosen && Number(chosen) < names.length) select.value = chosen;
  else {
    const you = names.findIndex((n) => /^(you|me|ich)$/i.test(n) || n.toLowerCase() === GAME_TEXT.you.toLowerCase());
    select.value = String(Math.max(0, you));
  }
  $("#setup-display-picked").textContent = gamePage.picked.join("") || "—";
  for (const button of document.querySelectorAll("#setup-secret button")) {
    button.setAttribute("aria-pressed", String(button.dataset.counter === gamePage.secret));
  }
}

async function sendCards() {
  const input = $("#setup-hand");
  let change = { op: "game_deal", hand: input.value };
  if (!gamePage.dealing) {
    change = { op: "game_start", names: $("#setup-names").value.split(",").map((n) => n.trim()).filter(Boolean),
               me: Number($("#setup-me").value), display: gamePage.picked.join(""), hand: input.value };
  }
  if (gamePage.secret) change.secret = gamePage.secret;
  if (await send(change, "#setup-problems")) {
    $("#game-setup").hidden = true;
    input.value = "";
  }
}

function watchGame() {
  for (const button of document.querySelectorAll("#mode button")) {
    button.addEventListener("click", () => send({ op: "mode", mode: button.dataset.mode }));
  }
  $("#setup-names").addEventListener("input", renderSetup);
  $("#setup-display").replaceChildren();  // filled once the board is known (startGameMode)
  $("#setup-start").addEventListener("click", sendCards);
  $("#setup-clear").addEventListener("click", () => { gamePage.picked = []; renderSetup(); });
  $("#setup-close").addEventListener("click", () => {
    $("#game-setup").hidden = true;
    if (gamePage.dealing) gamePage.dealDismissed = true;  // reopened from "new cards" in the header
  });
  $("#game-turned-close").addEventListener("click", () => { $("#game-turned").hidden = true; });
  $("#game-towns-done").addEventListener("click", doneCollecting);
  $("#game-undo").addEventListener("click", () => send({ op: "undo" }, "#game-problems-bar"));
}

// The sheets' words, from GAME_TEXT (the page's HTML holds only their places).
function gameWords() {
  const words = { "#setup-names-label": GAME_TEXT.names, "#setup-me-label": GAME_TEXT.me,
                  "#setup-display-label": GAME_TEXT.display, "#setup-clear": GAME_TEXT.clear,
                  "#game-turned-title": GAME_TEXT.turned, "#game-towns-done": GAME_TEXT.done };
  for (const [selector, text] of Object.entries(words)) $(selector).textContent = text;
  const names = $("#setup-names");
  if (names.value === names.defaultValue) names.value = t("Anna, You, Ben");  // the HTML's example players
}

// The pickers that need the board's counters (called once the board document is read).
function startGameMode() {
  gameWords();
  $("#setup-display").replaceChildren(...counterCards().map((c) => counterButton(c.letter, () => {
    if (gamePage.picked.length < page.board.display_size) gamePage.picked.push(c.letter);
    renderSetup();
  }, t("a face-up {card}", { card: c.title }))));
  $("#setup-secret").replaceChildren(...counterCards().map((c) => counterButton(c.letter, () => {
    gamePage.secret = c.letter;
    renderSetup();
  }, t("my face-down {card}", { card: c.title }))));
  renderSetup();
}
