// The phases of a round on the table page: draw (the counter to take), plan (the placement to make now, its
// regrets, the obstacle) and travel (the route, then what to keep), with my counters, the display and the
// opponents. Loaded before app.js, whose helpers ($, el, send, renderSteppers, textColour, page) these functions
// call once the page runs. Like app.js it holds no game rule: every number and sentence comes from the view.
"use strict";

const DISPLAY_CARRY_KEY = "elfenland-table.display-carry";

function number(value) {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

// The server's sentence as a line of the page: a capital first, a full stop last.
function sentence(text) {
  return text ? `${text[0].toUpperCase()}${text.slice(1)}.` : "";
}

function counterCards() {
  return page.board.cards.filter((c) => c.counter);
}

function cardOf(letter) {
  return page.board.cards.find((c) => c.letter === letter);
}

function roadName(entry) {
  return `${entry.from}–${entry.to}`;
}

function adviceFor(view, phase) {
  return view.advice && view.advice.phase === phase ? view.advice : null;
}

// -- the whole round -----------------------------------------------------------------------------------------------
function renderRound(view) {
  document.body.dataset.phase = view.phase;
  document.body.dataset.pending = view.pending.join(" ");
  for (const button of document.querySelectorAll("#phases button")) {
    button.setAttribute("aria-pressed", String(button.dataset.phase === view.phase));
  }
  for (const panel of document.querySelectorAll("#draw-panel, #place-panel, #obstacle-panel, #keep-panel")) {
    panel.classList.toggle("waiting", !view.advice);
  }
  renderDraw(view);
  renderPlace(view);
  renderObstacle(view);
  renderKeep(view);
  renderCounters(view.position);
  renderOpponents(view.position);
  renderNewRound(view);
  renderLegend(view);
}

// The page's one line: the phase's verdict, and in the plan phase the obstacle's road once it is worked out.
function headline(advice) {
  const obstacle = advice.phase === "plan" ? advice.obstacle : null;
  if (obstacle?.status === "done" && !obstacle.hold && obstacle.road) {
    const road = obstacle.opponents[0].roads.find((r) => r.road === obstacle.road);
    return t("{verdict}; or your obstacle on {road}", { verdict: advice.verdict, road: roadName(road) });
  }
  return advice.verdict;
}

// The advice drawn on the map: my counters in the plan (dashed), the one to place now, the road to block.
function markAdvice(view) {
  for (const node of document.querySelectorAll("#map .mine, #map .now, #map .block")) {
    node.classList.remove("mine", "now", "block");
  }
  const draw = adviceFor(view, "draw");
  const plan = adviceFor(view, "plan");
  const mine = plan ? plan.placements : draw ? draw.shown.placements : [];
  for (const placement of mine) {
    $(`#map .counter[data-road="${CSS.escape(placement.road)}"]`)?.classList.add("mine");
  }
  if (plan?.now) $(`#map .counter[data-road="${CSS.escape(plan.now.road)}"]`)?.classList.add("now");
  const obstacle = plan?.obstacle;
  if (obstacle?.status === "done" && !obstacle.hold && obstacle.road) {
    for (const node of document.querySelectorAll(`#map [data-connection="${CSS.escape(obstacle.road)}"], `
                                                 + `#map .counter[data-road="${CSS.escape(obstacle.road)}"]`)) {
      node.classList.add("block");
    }
  }
}

function renderLegend(view) {
  const parts = [];
  const draw = adviceFor(view, "draw");
  const plan = adviceFor(view, "plan");
  if (draw?.shown.placements.length) parts.push(t("dashed pink: your counters in the plan"));
  if (plan?.placements.length) parts.push(t("dashed pink: your counters in the plan, the one to place now pulsing"));
  if (plan?.obstacle?.status === "done" && !plan.obstacle.hold && plan.obstacle.road) {
    parts.push(t("red: the road for your obstacle"));
  }
  $("#map-legend").textContent = parts.length ? t("On the map: {parts}.", { parts: parts.join("; ") }) : "";
}

// -- draw ----------------------------------------------------------------------------------------------------------
function renderDraw(view) {
  const position = view.position;
  const advice = adviceFor(view, "draw");
  const chips = [];
  for (const card of counterCards()) {
    for (let i = 0; i < position.display[card.letter]; i++) {
      const chip = el("button", { type: "button", class: advice?.best === card.letter ? "chip best" : "chip",
                                  "data-counter": card.letter, "aria-label": t("take the face-up {card}", { card: card.title }),
                                  onclick: () => send({ op: "take", counter: card.letter }, "#draw-problems") },
                      el("b", { text: card.letter }), el("small", { text: card.title }));
      chip.style.background = card.colour;
      chip.style.color = textColour(card.colour);
      chips.push(chip);
    }
  }
  $("#display").replaceChildren(...chips);
  $("#display-hint").textContent = chips.length ? t("Tap a face-up counter to take it.")
    : t("No face-up counters: add them under Face-up display.");
  if (!advice) return;
  $("#draw-options tbody").replaceChildren(...advice.options.map((option) => {
    const name = option.counter ? `${option.name}${option.face_up > 1 ? ` ×${option.face_up}` : ""}`
      : t("blind ({chances})", { chances: Object.entries(option.chances)
        .map(([title, p]) => `${title} ${Math.round(p * 100)}%`).join(", ") });
    return el("tr", { class: option.best ? "best" : null, "data-draw": option.counter ?? "blind" },
      el("td", { text: name }), el("td", { text: option.towns_text }), el("td", { text: option.cards_text }));
  }));
  const shown = advice.shown;
  const route = shown.route || t("stay");
  const blindHint = t("A blind draw: add the counter to your supply.");
  const map = shown.counter && !advice.full
    ? t("The map shows your joint plan with the {card}: {route}.", { card: cardOf(shown.counter).title, route })
    : t("The map shows your joint plan: {route}.", { route });
  $("#draw-shown").textContent = (advice.ties ? `${sentence(advice.ties)} ` : "") + (advice.full ? map
    : `${map} ${inGame() ? GAME_TEXT.blindHint : blindHint}`);
  $("#to-plan").hidden = !advice.full;
}

// -- plan ----------------------------------------------------------------------------------------------------------
// The placement to make now: the advice's (which weighs that a pass may end planning, when everybody passes in a row).
function placementToMake(advice) {
  return advice.now && !advice.gains_nothing ? advice.now : null;
}

function renderPlace(view) {
  const advice = adviceFor(view, "plan");
  if (!advice) return;
  const now = placementToMake(advice);
  $("#place-now").textContent = [advice.reason, advice.detail].filter(Boolean).map(sentence).join(" ");
  const apply = $("#apply-place");
  apply.hidden = !now;  // passing is as good: no placement is advised
  if (now) apply.textContent = t("place your {counter} on {road}", { counter: now.counter, road: roadName(now) });
  $("#place-free").textContent = sentence(advice.passing_note);
  $("#regrets").hidden = !advice.regrets.length;
  $("#regrets tbody").replaceChildren(...advice.regrets.map((regret) => el("tr", { "data-road": regret.road },
    el("td", { text: roadName(regret) }), el("td", { text: regret.counter ? t("place {counter}", { counter: regret.letter }) : t("travel") }),
    el("td", { text: regret.filled ? `${regret.filled_text} (${regret.filled.counter})` : "—" }),
    el("td", { text: regret.obstacle_text ?? "—" }))));
}

function renderObstacle(view) {
  const position = view.position;
  $("#holding").checked = position.obstacle;
  const advice = adviceFor(view, "plan");
  const obstacle = advice?.obstacle;
  const apply = $("#apply-obstacle");
  const table = $("#obstacle-roads");
  apply.hidden = true;
  table.hidden = true;
  if (!obstacle) return;
  const text = $("#obstacle-advice");
  if (obstacle.status === "pending") {
    text.textContent = t("Working out where your obstacle hurts most…");
    $("#obstacle-note").textContent = tn("{n} sampled hand per opponent on this page.", "{n} sampled hands per opponent on this page.", obstacle.samples);
    return;
  }
  if (obstacle.status !== "done") {
    text.textContent = obstacle.note;
    $("#obstacle-note").textContent = "";
    return;
  }
  text.textContent = `${obstacle.verdict}: ${obstacle.reason}.`;
  if (!obstacle.hold && obstacle.road) {
    const road = obstacle.opponents[0].roads.find((r) => r.road === obstacle.road);
    apply.hidden = false;
    apply.textContent = t("place your obstacle on {road}", { road: roadName(road) });
    apply.dataset.road = obstacle.road;
  }
  const [target, ...others] = obstacle.opponents;
  table.hidden = !target.roads.length;
  $("#obstacle-roads tbody").replaceChildren(...target.roads.slice(0, 8).map((r) => el("tr",
    { class: r.road === obstacle.road && !obstacle.hold ? "best" : null, "data-road": r.road },
    el("td", { text: roadName(r) }), el("td", { text: r.towns_text }), el("td", { text: r.cards_text }),
    el("td", { text: r.mine_text }))));
  const against = (who) => tn("{name} ({n} point)", "{name} ({n} points)", who.points, { name: who.name });
  const lines = [target.roads.length ? t("Against {opponent}: the towns and extra cards they lose per road, expected "
                                         + "over {samples} sampled hands (the command line samples 200).",
                                         { opponent: against(target), samples: obstacle.samples })
    : t("{samples} sampled hands per opponent (the command line samples 200).", { samples: obstacle.samples })];
  for (const other of others) {
    const best = other.roads[0];
    lines.push(best ? t("{opponent} would lose at most {loss}, on {road}.",
                        { opponent: against(other), loss: best.loss_text, road: roadName(best) })
      : t("{opponent}: no road to block.", { opponent: against(other) }));
  }
  $("#obstacle-note").textContent = lines.join(" ");
}

// -- travel: what to keep ------------------------------------------------------------------------------------------
function renderKeep(view) {
  const advice = adviceFor(view, "travel");
  if (!advice) return;
  const keep = advice.keep;
  let text;
  if (advice.last_round) text = t("This is the last round: nothing is kept.");
  else if (view.pending.includes("keep")) text = t("Working out what to keep for the next round…");
  else if (keep?.status === "error") text = keep.note;
  else text = keep ? sentence(keep.verdict) : "";
  $("#keep-advice").textContent = text;
}

// -- my counters, the display, the counters seen --------------------------------------------------------------------
function renderCounters(position) {
  for (const pile of page.board.piles) {
    renderSteppers($(`#${pile === "display" ? "display-edit" : pile}`), counterCards(), position[pile],
                   (counter, delta) => send({ op: "counter", pile, counter, delta }, "#counters-problems"), "counter");
  }
  const count = (pile) => Object.values(position[pile]).reduce((a, b) => a + b, 0);
  const of = (n, limit) => t("{round} of {rounds}", { round: n, rounds: limit });
  $("#supply-count").textContent = `(${of(count("supply"), page.board.supply_limit)})`;
  $("#display-count").textContent = `(${of(count("display"), page.board.display_size)})`;
}

// -- the opponents -------------------------------------------------------------------------------------------------
function renderOpponents(position) {
  const box = $("#opponents");
  const opponents = position.opponents;
  while (box.childElementCount > opponents.length) box.lastElementChild.remove();
  while (box.childElementCount < opponents.length) box.append(opponentEditor(box.childElementCount + 1));
  opponents.forEach((opponent, i) => fillOpponent(box.children[i], opponent));
  const players = $("#players");
  if (players.options.length === 1) {
    const [low, high] = page.board.players;
    for (let n = low; n <= high; n++) players.append(el("option", { value: String(n), text: String(n) }));
  }
  players.value = position.players === null ? "" : String(position.players);
}

function editOpponent(index, fields) {
  return send({ op: "opponent", index, ...fields }, `#opponent-${index}-problems`);
}

function opponentEditor(index) {
  const current = () => page.view.position.opponents[index - 1];
  const stepper = (cls, key, label) => el("span", { class: `seg ${cls}` }, label,
    el("button", { type: "button", class: "minus", "aria-label": t("fewer: {what}", { what: label }),
                   onclick: () => editOpponent(index, { [key]: current()[key] - 1 }) }, "−"),
    el("b", { class: "value" }),
    el("button", { type: "button", class: "plus", "aria-label": t("more: {what}", { what: label }),
                   onclick: () => editOpponent(index, { [key]: current()[key] + 1 }) }, "+"));
  const towns = page.board.towns.map((t) => el("option", { value: t.code, text: t.name }));
  const editor = el("fieldset", { class: "opponent", id: `opponent-${index}`, "data-index": String(index) },
    el("div", { class: "row" },
      el("input", { class: "name", autocomplete: "off", "aria-label": t("opponent {index}'s name", { index }),
                    onchange: (event) => editOpponent(index, { name: event.target.value }) }),
      el("button", { type: "button", class: "remove", "aria-label": t("remove opponent {index}", { index }),
                     onclick: () => editOpponent(index, { remove: true }) }, "✕")),
    el("div", { class: "row" },
      el("select", { class: "at", "aria-label": t("opponent {index}'s town", { index }),
                     onchange: (event) => editOpponent(index, { at: event.target.value }) }, ...towns),
      stepper("points", "points", t("points"))),
    el("input", { class: "visited", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
                  placeholder: t("their towns, e.g. JXA LAP"),
                  "aria-label": t("opponent {index}'s visited towns", { index }),
                  onchange: (event) => editOpponent(index, { visited: event.target.value }) }),
    el("p", { class: "hint", text: t("Their face-up counters:") }),
    el("div", { class: "steppers mini" }),
    el("div", { class: "row" }, stepper("secret", "secret", t("face down")),
      el("label", { class: "check" }, el("input", { type: "checkbox", class: "holds",
        onchange: (event) => editOpponent(index, { obstacle: event.target.checked }) }), t("holds their obstacle"))),
    el("div", { class: "problems", id: `opponent-${index}-problems`, "aria-live": "polite" }));
  return editor;
}

function fillOpponent(editor, opponent) {
  const index = opponent.index;
  const set = (selector, property, value) => {
    const node = editor.querySelector(selector);
    if (node !== document.activeElement) node[property] = value;  // never under a player's fingers
  };
  set(".name", "value", opponent.name);
  set(".at", "value", opponent.at);
  set(".visited", "value", opponent.visited.filter((t) => t !== opponent.at).join(" "));
  set(".holds", "checked", opponent.obstacle);
  editor.querySelector(".points .value").textContent = String(opponent.points);
  editor.querySelector(".secret .value").textContent = String(opponent.secret);
  editor.querySelector(".secret .minus").disabled = opponent.secret === 0;
  editor.querySelector(".points .minus").disabled = opponent.points === 0;
  renderSteppers(editor.querySelector(".steppers"), counterCards(), opponent.counters, (letter, delta) => {
    const counts = { ...page.view.position.opponents[index - 1].counters };
    counts[letter] += delta;
    const text = Object.entries(counts).map(([t, n]) => t.repeat(Math.max(0, n))).join("") || "-";
    editOpponent(index, { counters: text });
  }, "counter");
}

// -- the sheet in the plan phase: whose counter goes down ----------------------------------------------------------
function placing() {
  return page.view?.phase === "plan" && page.by !== "table";
}

// The "whose counter" switch of the road sheet; the counters the one placing holds face up (null: nobody's).
function renderSheetBy() {
  const box = $("#sheet-by");
  const position = page.view.position;
  if (page.view.phase !== "plan") {
    box.replaceChildren();
    return null;
  }
  if (typeof page.by === "number" && page.by > position.opponents.length) page.by = "me";
  const choices = [["me", t("mine")], ...position.opponents.map((o) => [o.index, o.name]),
                   ["table", t("just the board")]];
  box.replaceChildren(...choices.map(([by, label]) => el("button", {
    type: "button", "data-by": String(by), "aria-pressed": String(page.by === by),
    onclick: () => { page.by = by; openSheet(page.road); } }, label)));
  if (page.by === "table") return null;
  return page.by === "me" ? position.supply : position.opponents[page.by - 1].counters;
}

// -- a new round ---------------------------------------------------------------------------------------------------
function keepAdvice(view) {
  const keep = adviceFor(view, "travel")?.keep;
  return keep && keep.status === undefined ? keep : null;
}

function renderNewRound(view) {
  const position = view.position;
  const select = $("#keep-counter");
  const held = counterCards().filter((c) => position.supply[c.letter] > 0);
  const wanted = ["-", ...held.map((c) => c.letter)];
  if ([...select.options].map((o) => o.value).join() !== wanted.join()) {
    select.replaceChildren(el("option", { value: "-", text: t("none") }),
                           ...held.map((c) => el("option", { value: c.letter, text: c.title })));
    delete select.dataset.chosen;
  }
  const advised = keepAdvice(view)?.counter_letter;
  if (!select.dataset.chosen) {
    select.value = advised && wanted.includes(advised) ? advised : held.length === 1 && Object.values(
      position.supply).reduce((a, b) => a + b, 0) === 1 ? held[0].letter : "-";
  }
  $("#new-round-options").hidden = position.last_round;
  const cards = keptCards(view);
  const counter = select.value === "-" ? t("no counter") : t("your {card} counter", { card: cardOf(select.value).title });
  const display = $("#display-carry").value === "keep" ? t("the face-up display stays")
    : t("five new counters are turned up");
  const kept = cards === null ? tn("the hand's best {n} card", "the hand's best {n} cards", page.board.keep_limit)
    : cards || t("no cards");
  $("#new-round-hint").textContent = t("New round: the counters leave the board; you keep {cards} and {counter}; "
                                       + "{display}.", { cards: kept, counter, display });
}

// The cards the keep advice keeps, as letters, while the hand still holds them (else null: the server's choice).
function keptCards(view) {
  const letters = keepAdvice(view)?.card_letters;
  if (letters === undefined) return null;
  const counts = { ...view.position.hand };
  for (const letter of letters) {
    if (!counts[letter]) return null;
    counts[letter] -= 1;
  }
  return letters;
}

function newRoundChange() {
  const change = { op: "new_round", keep: $("#keep-counter").value, display: $("#display-carry").value };
  const cards = keptCards(page.view);
  if (cards !== null) change.cards = cards || "-";
  return change;
}

// -- the controls --------------------------------------------------------------------------------------------------
function watchRound() {
  for (const button of document.querySelectorAll("#phases button")) {
    button.addEventListener("click", () => send({ op: "phase", phase: button.dataset.phase }));
  }
  $("#to-plan").addEventListener("click", () => send({ op: "phase", phase: "plan" }));
  $("#apply-place").addEventListener("click", () => {
    const now = page.view.advice && placementToMake(page.view.advice);
    if (now && inGame()) act({ action: `${now.letter}@${now.road}` });
    else if (now) send({ op: "place", road: now.road, counter: now.letter }, "#place-problems");
  });
  $("#apply-obstacle").addEventListener("click", (event) => {
    if (inGame()) act({ action: `X@${event.target.dataset.road}` });
    else send({ op: "place", road: event.target.dataset.road, obstacle: true }, "#obstacle-problems");
  });
  $("#holding").addEventListener("change", (event) =>
    send({ op: "my_obstacle", held: event.target.checked }, "#obstacle-problems"));
  $("#add-opponent").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("#new-opponent");
    if (await send({ op: "opponent", name: input.value }, "#opponents-problems")) input.value = "";
  });
  $("#players").addEventListener("change", (event) =>
    send({ op: "players", players: event.target.value ? Number(event.target.value) : null }, "#opponents-problems"));
  $("#keep-counter").addEventListener("change", (event) => {
    event.target.dataset.chosen = "1";
    renderNewRound(page.view);
  });
  const carry = $("#display-carry");
  try {
    carry.value = localStorage.getItem(DISPLAY_CARRY_KEY) || "keep";
  } catch {
    carry.value = "keep";  // no storage (a private window): the rulebook's default
  }
  carry.addEventListener("change", () => {
    try {
      localStorage.setItem(DISPLAY_CARRY_KEY, carry.value);
    } catch { /* the choice lasts as long as the page */ }
    renderNewRound(page.view);
  });
}
