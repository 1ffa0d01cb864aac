// The table page: a thin view of the server's table. Every tap sends one change; the server validates it with
// the planner's own rules, re-solves and answers a view (position, route, map), which every watching page also
// receives as a server-sent event. No game rule is coded here: the board document says which counters a road
// carries, the view says what is legal, what the route is and what the round's advice is. The phases of the round
// (draw, plan, travel) and their panels are drawn by round.js.
"use strict";

const TAP_ROAD_PX = 28;      // a tap picks the nearest road within this many screen pixels (or the finger's size)
const TAP_TOWN_PX = 16;      // ... unless a town is this close (or the tap is on its circle)
const ACTIONS = ["#apply-place", "#apply-obstacle", "#travel", "#to-plan"];  // buttons that act on the advice
const LONG_PRESS_MS = 550;   // a long press on a town puts the boot there
const MOVE_PX = 12;          // a finger that moves further is scrolling, not tapping
const ZOOMS = [1, 1.5, 2, 3];
const PENDING = { keep: N_("what to keep"), explain: N_("why this route"), obstacle: N_("the obstacle") };  // later advice

const page = {
  board: null,      // the board document: towns, roads (polylines), cards, rules
  view: null,       // the newest view shown
  shownSvg: null,   // the map text now in the DOM
  mode: "visit",    // what a tap on a town does: visit | at | home
  road: null,       // the road whose sheet is open
  by: "me",         // in the plan phase, whose counter a tap on the sheet places: "me", "table" or an opponent
  zoom: 0,
  solvingSince: 0,
  problems: [],     // the problems of the last refused change, shown beside what caused them
  offlineSince: null, // when the table stopped answering (the event stream or a tap), or null
  toastTimer: 0,
};

const $ = (selector) => document.querySelector(selector);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children);
  return node;
}

// -- talking to the server ---------------------------------------------------------------------------------------
// An answer in words: the server's structured problems, or what went wrong, never an exception's raw text.
class Refused extends Error {}

async function readAnswer(response) {
  const type = response.headers.get("content-type") || "";
  if (type.startsWith("application/json")) {
    try { return await response.json(); } catch { /* said below */ }
  }
  if (response.status === 403) {
    throw new Refused(t("this phone's link to the table is no longer valid (was the server restarted?): open the table's link again, or scan its QR code"));
  }
  throw new Refused(t("the table answered something that is not a table's answer (status {status}): try again", { status: response.status }));
}

async function getJson(path) {
  const response = await fetch(path, { credentials: "same-origin", cache: "no-store", headers: langHeaders() });
  const answer = await readAnswer(response);
  if (!response.ok) throw new Refused(answer.problems?.[0]?.message ?? t("the table refused {path}", { path }));
  return answer;
}

async function send(change, where) {
  let answer;
  try {
    const response = await fetch("/api/change", {
      method: "POST", credentials: "same-origin", headers: { "content-type": "application/json", ...langHeaders() },
      body: JSON.stringify(change),
    });
    answer = await readAnswer(response);
  } catch (error) {
    const message = error instanceof Refused ? error.message
      : t("the table did not answer (this phone is offline, or the server stopped): nothing was changed");
    if (!(error instanceof Refused)) goneOffline();
    showProblems([{ kind: "offline", field: "", value: null, message }], where || problemsNear(page.tapped));
    return false;
  }
  backOnline();
  if (!answer.ok) {  // refused (200), malformed (422), or a request the table would not take: said where tapped
    showProblems(answer.problems, where || (answer.problems.some((p) => p.field) ? undefined : problemsNear(page.tapped)));
    return false;
  }
  showProblems([]);
  if (answer.view) render(answer.view);
  if (answer.said) {  // a game change in words, naming whose it was: never silent, always undoable
    const undoing = ["undo", "redo"].includes(change.op);
    toast(answer.said, undoing ? null : () => send({ op: "undo" }, "#general-problems"));
  }
  return true;
}

// Offline: the advice stays on the page, dimmed and dated, until the table answers again.
function goneOffline() {
  if (!page.offlineSince) page.offlineSince = new Date();
  const time = [page.offlineSince.getHours(), page.offlineSince.getMinutes()]
    .map((n) => String(n).padStart(2, "0")).join(":");  // 21:03, the table's clock
  const status = $("#link-status");
  status.textContent = t("offline since {time}: the advice may be stale", { time });
  status.classList.add("down");
  document.body.classList.add("offline");
}

function backOnline() {
  page.offlineSince = null;
  const status = $("#link-status");
  status.textContent = t("live");
  status.classList.remove("down");
  document.body.classList.remove("offline");
}

function listen() {
  const lang = chosenLang();  // an event stream sends no headers of ours: its words' language is in the query
  const events = new EventSource(lang ? `/api/events?lang=${encodeURIComponent(lang)}` : "/api/events");
  events.addEventListener("open", backOnline);
  events.addEventListener("error", goneOffline);
  events.addEventListener("view", (event) => render(JSON.parse(event.data)));
}

// A toast at the bottom: what a tap did, with a button that takes it back.
function toast(text, undo) {
  const box = $("#toast");
  box.hidden = false;
  $("#toast-text").textContent = text;
  $("#toast-undo").hidden = !undo;
  $("#toast-undo").onclick = async () => { box.hidden = true; await undo(); };
  clearTimeout(page.toastTimer);
  page.toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// -- problems, placed beside what caused them ----------------------------------------------------------------------
function problemBox(problem) {
  const field = problem.field;
  if (field === "notation") return "#notation-problems";
  if (field === "route") return "#route-problems";
  if (field === "yours") return "#yours-problems";
  if (["hand", "card"].includes(field)) return "#hand-problems";
  if (["tiles", "road", "counter", "by"].includes(field)) return page.road ? "#sheet-problems" : "#map-problems";
  if (["at", "home", "visited", "town"].includes(field)) return "#map-problems";
  if (["round", "keep", "cards"].includes(field) || problem.kind === "last-round") return "#game-problems";
  if (field.startsWith("rules")) return "#rules-problems";
  if (["supply", "display", "seen", "pile"].includes(field)) return "#counters-problems";
  if (field === "obstacle") return "#obstacle-problems";
  const opponent = /^opponent\[(\d+)\]/.exec(field);
  if (opponent && $(`#opponent-${opponent[1]}-problems`)) return `#opponent-${opponent[1]}-problems`;
  if (["opponent", "players", "index", "name"].includes(field) || opponent) return "#opponents-problems";
  return "#general-problems";
}

// The problems box of the panel (or map, or sheet) a tap was in: a failure is said where it happened.
function problemsNear(node) {
  const near = node?.closest?.(".panel, #map-pane, .sheet")?.querySelector(".problems");
  return near || "#general-problems";
}

function showProblems(problems, where) {
  page.problems = problems;
  for (const box of document.querySelectorAll(".problems")) box.replaceChildren();
  for (const problem of problems) {
    // Beside what was tapped, unless the problem has a place of its own in view: the hand's card, the open sheet.
    const own = problemBox(problem);
    const box = where && !["#hand-problems", "#sheet-problems"].includes(own) ? where : own;
    (typeof box === "string" ? $(box) : box).append(el("p", { class: "problem-text", "data-kind": problem.kind, "data-field": problem.field,
                            "data-value": problem.value ?? "", text: problem.message }));
  }
  markProblems();
}

function markProblems() {
  for (const node of document.querySelectorAll(".bad, #map .problem")) node.classList.remove("bad", "problem");
  for (const problem of page.problems) {
    if (!problem.value) continue;
    const value = problem.value;
    if (["hand", "card"].includes(problem.field)) $(`#hand .card[data-card="${CSS.escape(value)}"]`)?.classList.add("bad");
    if (/^[PECUTD]$/.test(value) && (["supply", "display", "seen"].includes(problem.field) || problem.field.startsWith("opponent"))) {
      // A count of counters spans every pile: mark the type wherever it lies.
      for (const cell of document.querySelectorAll(`.steppers .card[data-card="${value}"], #display [data-counter="${value}"]`)) {
        cell.classList.add("bad");
      }
    }
    if (["tiles", "road"].includes(problem.field)) $(`#map [data-connection="${CSS.escape(value)}"]`)?.classList.add("problem");
    if (["at", "home", "visited", "town"].includes(problem.field)) $(`#map [data-code="${CSS.escape(value)}"]`)?.classList.add("problem");
  }
}

// -- drawing a view ------------------------------------------------------------------------------------------------
function render(view) {
  const shown = page.view?.run === view.run ? page.view : null;  // a restarted server counts its views anew
  if (shown && view.serial <= shown.serial) return;  // shown already, or overtaken by a newer view
  if (shown && view.version < shown.version) return;  // an older answer overtaken by a newer change
  if (shown && view.version === shown.version && view.solving && !shown.solving) return;  // solved already
  if (shown && view.version === shown.version && !view.svg && shown.svg) view.svg = shown.svg;
  page.view = view;
  const position = view.position;
  if (view.svg && view.svg !== page.shownSvg) {
    $("#map").innerHTML = view.svg;  // our own SVG, every text escaped by the server's XML writer
    page.shownSvg = view.svg;
    markProblems();
  }
  markAdvice(view);
  markExplain();
  $("#map").classList.toggle("stale", view.solving && view.stale_map);
  document.body.dataset.version = String(view.version);  // for scripts and tests: which view is shown
  document.body.dataset.solving = String(view.solving);
  renderVerdict(view);
  renderRoute(view);
  renderHand(position);
  renderRound(view);
  renderGameMode(view);
  renderExplain(view);
  renderGame(view);
  renderNotation(position);
  $("#undo").disabled = !view.can_undo;
  $("#redo").disabled = !view.can_redo;
  $("#show-alternatives").checked = view.alternatives > 1;
  // While a newer answer is worked out, the advice on the page is the old position's: dimmed, not to act on.
  for (const id of ACTIONS) if (view.solving) $(id).disabled = true; else if (id !== "#travel") $(id).disabled = false;
  const pending = view.pending.length ? t("working out: {what}…", { what: view.pending.map((kind) => t(PENDING[kind] ?? kind)).join(", ") }) : "";
  $("#later-status").textContent = view.solving ? "" : pending;
  const warnings = position.warnings.map((w) => el("p", { class: "warning-text", text: w.message }));
  $("#general-problems").replaceChildren(...warnings, ...page.problems.filter((p) => problemBox(p) === "#general-problems")
    .map((p) => el("p", { class: "problem-text", text: p.message })));
  if (page.road) openSheet(page.road);
}

function renderVerdict(view) {
  const solution = view.solution;
  let status = "";
  if (view.waiting) {  // game mode, not my turn (or my cards awaited): nothing is advised
    $("#verdict").textContent = waitingText(view);
  } else if (view.error) {
    $("#verdict").textContent = view.error;
  } else if (view.advice) {
    $("#verdict").textContent = headline(view.advice);
    status = view.advice.status;
  } else {
    if (!page.solvingSince) page.solvingSince = performance.now();
    status = t("solving…");
  }
  if (!view.solving) page.solvingSince = 0;
  $("#solve-status").textContent = status;
  document.body.classList.toggle("solving", Boolean(view.solving));
}

// A town or a transport the view names by its board (English) name, in the phone's language.
function townWord(name) {
  return page.board.towns.find((town) => town.board_name === name)?.name ?? name;
}

function cardWord(name) {
  return name ? page.board.cards.find((card) => card.name === name)?.title ?? name : "";
}

function renderRoute(view) {
  const body = $("#route tbody");
  const solution = view.solution;
  if (!solution) return;
  const best = solution.plans[0];
  const [caravan, yours, obstacle] = [t("caravan"), t("yours"), t("obstacle")];
  $("#route-title").textContent = view.phase === "plan" ? t("Joint plan: your counters and your route") : t("Best route");
  body.replaceChildren(...best.records.map((r) => el("tr", { class: r.placed ? "placed" : null },
    el("td", { text: String(r.number) }), el("td", { text: townWord(r.to) }),
    el("td", { class: "cards", text: r.letters + (r.pay === "caravan" ? ` (${caravan})` : "") }),
    el("td", { text: r.via === "road" ? `${r.placed ? `${yours} ` : ""}${cardWord(r.counter)}${r.obstacle ? ` + ${obstacle}` : ""}, ${t(r.terrain)}` : `${t(r.via)}, ${t(r.terrain)}` }),
    el("td", { text: r.new_town ? "✓" : "" }))));
  if (!best.records.length) body.replaceChildren(el("tr", {}, el("td", { colspan: "5", text: t("no step pays off: stay") })));
  $("#travel").disabled = !best.steps.length;
  $("#travel").dataset.route = best.route;
  $("#alternatives").replaceChildren(...solution.plans.slice(1).map((plan) =>
    el("li", { text: `${plan.verdict}: ${plan.route}` })));
}

// A grid of cells, one per card or counter type: its count, − and + (tapping the face adds one too).
function renderSteppers(box, items, counts, change, what = "card") {
  const labels = what === "card" ? [t("add a card: {name}"), t("remove a card: {name}")]
    : [t("add a counter: {name}"), t("remove a counter: {name}")];
  if (!box.childElementCount) {
    for (const item of items) {
      const face = el("button", { type: "button", class: "face", "aria-label": fill(labels[0], { name: item.title }),
                                  onclick: () => change(item.letter, 1) },
                      el("b", { text: item.letter }), el("small", { text: item.title }), el("span", { class: "count" }));
      face.style.background = item.colour;
      face.style.color = textColour(item.colour);
      box.append(el("div", { class: "card", "data-card": item.letter }, face,
        el("button", { type: "button", class: "minus", "aria-label": fill(labels[1], { name: item.title }),
                       onclick: () => change(item.letter, -1) }, "−"),
        el("button", { type: "button", class: "plus", "aria-label": fill(labels[0], { name: item.title }),
                       onclick: () => change(item.letter, 1) }, "+")));
    }
  }
  for (const item of items) {
    const count = counts[item.letter] ?? 0;
    const cell = box.querySelector(`[data-card="${item.letter}"]`);
    cell.querySelector(".count").textContent = `× ${count}`;
    cell.classList.toggle("empty", count === 0);
    cell.querySelector(".minus").disabled = count === 0;
  }
}

function renderHand(position) {
  renderSteppers($("#hand"), page.board.cards, position.hand,
                 (card, delta) => send({ op: "card", card, delta }));
  $("#hand-count").textContent = `(${tn("{n} card", "{n} cards", position.cards)})`;
}

function textColour(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#2b2118" : "#ffffff";
}

function renderGame(view) {
  const position = view.position;
  $("#round").textContent = t("{round} of {rounds}", { round: position.round, rounds: position.rounds });
  $("#round-down").disabled = position.round <= 1;
  $("#round-up").disabled = position.round >= position.rounds;
  $("#new-round").disabled = position.round >= position.rounds;
  const rules = $("#rules");
  if (!rules.childElementCount) {
    for (const [name, option] of Object.entries(page.board.rules)) {
      const select = el("select", { id: `rule-${name}`, "aria-label": option.help, title: option.help,
                                    onchange: (event) => send({ op: "rule", name, value: event.target.value }) },
                        ...option.values.map((value, i) => el("option", { value, text: option.texts[i] })));
      rules.append(el("label", { for: `rule-${name}`, text: option.title }), select);
    }
  }
  for (const [name, value] of Object.entries(position.rules)) $(`#rule-${name}`).value = value;
  const save = view.save_error || (view.save ? t("saved to {file} after every change", { file: view.save }) : "");
  $("#save-status").textContent = save;
  $("#save-status").classList.toggle("problem-text", Boolean(view.save_error));
}

function renderNotation(position) {
  const input = $("#notation");
  if (document.activeElement !== input || !input.dataset.edited) {
    input.value = position.notation;
    delete input.dataset.edited;
  }
  const join = page.join || `${location.origin}/`;
  $("#share").value = `${join}${join.includes("?") ? "&" : "?"}p=${encodeURIComponent(position.notation)}`;
}

// -- the map: taps on roads and towns ------------------------------------------------------------------------------
function boardPoint(svg, clientX, clientY) {
  const matrix = svg.getScreenCTM();
  const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
  return { x: point.x, y: point.y, scale: Math.hypot(matrix.a, matrix.b) };
}

function segmentDistance(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const length = dx * dx + dy * dy;
  const t = length ? Math.max(0, Math.min(1, ((p.x - a[0]) * dx + (p.y - a[1]) * dy) / length)) : 0;
  return Math.hypot(p.x - (a[0] + t * dx), p.y - (a[1] + t * dy));
}

// The town or road a tap means: the nearest within a radius that grows with the finger's contact (a pointer
// event's width and height), so a fat finger on a crowded map still reaches what it aims at. A town wins when the
// tap is on its circle, or when it is nearer than every road in reach: a tap beside a town that is nearer a road
// sets the road's counter, it does not collect the town.
function picked(clientX, clientY, finger = 0) {
  const svg = $("#map svg");
  if (!svg || !page.board) return null;
  const p = boardPoint(svg, clientX, clientY);
  const reach = Math.max(0, finger / 2 - 8);  // screen pixels beyond the fixed radii
  let town = null, townDistance = Infinity, onCircle = false;
  for (const t of page.board.towns) {
    const d = Math.hypot(p.x - t.x, p.y - t.y);
    if (d <= Math.max(t.r + 3, (TAP_TOWN_PX + reach / 2) / p.scale) && d < townDistance) {
      town = t; townDistance = d; onCircle = d <= t.r + 3;
    }
  }
  if (town && onCircle) return { town };
  let road = null, roadDistance = (TAP_ROAD_PX + reach) / p.scale;
  for (const r of page.board.roads) {
    for (let i = 1; i < r.points.length; i++) {
      const d = segmentDistance(p, r.points[i - 1], r.points[i]);
      if (d < roadDistance) { road = r; roadDistance = d; }
    }
  }
  if (town && (!road || townDistance <= roadDistance)) return { town };
  return road ? { road } : null;
}

function watchMap() {
  const map = $("#map");
  let press = null;
  map.addEventListener("contextmenu", (event) => event.preventDefault());
  map.addEventListener("pointerdown", (event) => {
    if (!event.isPrimary) return;
    const target = picked(event.clientX, event.clientY, Math.max(event.width || 0, event.height || 0));
    press = { x: event.clientX, y: event.clientY, target, long: false, timer: 0 };
    if (target?.town) {
      press.timer = setTimeout(() => { press.long = true; tapTown(target.town, "at"); }, LONG_PRESS_MS);
    }
  });
  map.addEventListener("pointermove", (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > MOVE_PX) {
      clearTimeout(press.timer);
      press = null;
    }
  });
  const end = (event) => {
    if (!press) return;
    clearTimeout(press.timer);
    const { target, long } = press;
    press = null;
    if (event.type !== "pointerup" || long || !target) return;
    if (target.town) tapTown(target.town, page.mode);
    else openSheet(target.road.id);
  };
  map.addEventListener("pointerup", end);
  map.addEventListener("pointercancel", end);
}

function tapTown(town, mode) {
  if (inGame()) {  // a move's end town, or one of the towns it collected; the game edits nothing else by hand
    gameTown(town);
    return;
  }
  const position = page.view.position;
  if (mode === "at") send({ op: "at", town: town.code }, "#map-problems");
  else if (mode === "home") send({ op: "home", town: position.home === town.code ? "-" : town.code }, "#map-problems");
  else {
    const visited = !position.visited.includes(town.code);
    send({ op: "visit", town: town.code, visited }, "#map-problems").then((made) => {
      if (made) toast(visited ? t("{town} collected", { town: town.name }) : t("{town} no longer collected", { town: town.name }), () => send({ op: "undo" }, "#map-problems"));
    });
  }
}

// -- the road sheet ------------------------------------------------------------------------------------------------
function openSheet(roadId) {
  const road = page.board.roads.find((r) => r.id === roadId);
  const names = Object.fromEntries(page.board.towns.map((t) => [t.code, t.name]));
  const tile = page.view.position.tiles.find((t) => t.road === roadId);
  page.road = roadId;
  $("#sheet").hidden = false;
  $("#sheet").dataset.road = roadId;
  $("#sheet-title").textContent = `${names[road.a]} – ${names[road.b]} · ${road.terrain}`;
  for (const node of document.querySelectorAll("#map .picked")) node.classList.remove("picked");
  $(`#map [data-connection="${CSS.escape(roadId)}"]`)?.classList.add("picked");
  const owner = renderSheetBy();
  const counters = $("#sheet-counters");
  counters.replaceChildren(...page.board.cards.filter((c) => c.counter).map((card) => {
    const allowed = road.counters.includes(card.letter);
    const held = owner ? ` · ${owner[card.letter] ?? 0}` : "";  // how many the one placing holds face up
    const button = el("button", { type: "button", "data-counter": card.letter, disabled: !allowed,
                                  "aria-pressed": String(tile?.counter === card.letter),
                                  title: allowed ? card.title : t("{card} cannot travel {terrain}", { card: card.title, terrain: t(road.terrain) }),
                                  onclick: () => setTile(card.letter, Boolean(tile?.obstacle)) },
                        `${card.letter} ${card.title}${held}`);
    button.style.background = card.colour;
    button.style.color = textColour(card.colour);
    return button;
  }));
  $("#sheet-obstacle").setAttribute("aria-pressed", String(Boolean(tile?.obstacle)));
}

function closeSheet() {
  page.road = null;
  $("#sheet").hidden = true;
  for (const node of document.querySelectorAll("#map .picked")) node.classList.remove("picked");
  for (const node of document.querySelectorAll("#sheet-problems")) node.replaceChildren();
}

async function setTile(counter, obstacle) {
  const tile = page.view.position.tiles.find((t) => t.road === page.road);
  if (inGame()) {  // the counter (or obstacle) of the player whose turn it is
    const made = await act({ action: obstacle && tile && !tile.obstacle ? `X@${page.road}` : `${counter}@${page.road}` });
    if (made) closeSheet();
    return;
  }
  let change = { op: "tile", road: page.road, counter, obstacle };
  if (placing() && counter !== null && !tile) change = { op: "place", road: page.road, counter, by: page.by };
  else if (placing() && obstacle && tile && !tile.obstacle) change = { op: "place", road: page.road, obstacle: true, by: page.by };
  if (await send(change, "#sheet-problems")) closeSheet();
}

// -- the controls --------------------------------------------------------------------------------------------------
function watchControls() {
  for (const button of document.querySelectorAll("#town-mode button")) {
    button.addEventListener("click", () => {
      page.mode = button.dataset.mode;
      for (const other of document.querySelectorAll("#town-mode button")) {
        other.setAttribute("aria-pressed", String(other === button));
      }
    });
  }
  $("#undo").addEventListener("click", () => send({ op: "undo" }));
  $("#redo").addEventListener("click", () => send({ op: "redo" }));
  $("#zoom-in").addEventListener("click", () => zoom(1));
  $("#zoom-out").addEventListener("click", () => zoom(-1));
  $("#sheet-close").addEventListener("click", closeSheet);
  $("#sheet-none").addEventListener("click", () => setTile(null, false));
  $("#sheet-obstacle").addEventListener("click", () => {
    const tile = page.view.position.tiles.find((t) => t.road === page.road);
    setTile(tile?.counter ?? null, !tile?.obstacle);
  });
  $("#clear-hand").addEventListener("click", () => send({ op: "hand", hand: "-" }));
  $("#round-down").addEventListener("click", () => send({ op: "round", round: page.view.position.round - 1 }));
  $("#round-up").addEventListener("click", () => send({ op: "round", round: page.view.position.round + 1 }));
  $("#new-round").addEventListener("click", () => send(newRoundChange(), "#game-problems"));
  $("#travel").addEventListener("click", (event) => send({ op: "travel", route: event.target.dataset.route }));
  $("#show-alternatives").addEventListener("change", (event) =>
    send({ op: "alternatives", count: event.target.checked ? 3 : 1 }));
  $("#notation").addEventListener("input", (event) => { event.target.dataset.edited = "1"; });
  $("#notation-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("#notation");
    if (await send({ op: "notation", text: input.value }, "#notation-problems")) {
      delete input.dataset.edited;
      input.blur();
    }
  });
  $("#copy-share").addEventListener("click", async () => {
    const share = $("#share");
    try {
      await navigator.clipboard.writeText(share.value);
      $("#copy-share").textContent = t("copied");
    } catch {
      share.select();  // no clipboard on a plain-http page: the link is selected for a manual copy
    }
  });
}

function zoom(step) {
  const map = $("#map");
  const svg = $("#map svg");
  const before = svg ? svg.getBoundingClientRect().width : 0;
  page.zoom = Math.max(0, Math.min(ZOOMS.length - 1, page.zoom + step));
  map.classList.toggle("zoomed", page.zoom > 0);
  map.style.setProperty("--zoom-pct", String(ZOOMS[page.zoom] * 100));
  map.style.setProperty("--zoom", String(ZOOMS[page.zoom]));
  map.dataset.zoom = String(ZOOMS[page.zoom]);
  if (svg && before) {  // keep the middle of what was shown in the middle
    const ratio = svg.getBoundingClientRect().width / before;
    map.scrollLeft = (map.scrollLeft + map.clientWidth / 2) * ratio - map.clientWidth / 2;
    map.scrollTop = (map.scrollTop + map.clientHeight / 2) * ratio - map.clientHeight / 2;
  }
  $("#zoom-out").disabled = page.zoom === 0;
  $("#zoom-in").disabled = page.zoom === ZOOMS.length - 1;
}

function tickSolving() {
  if (page.solvingSince && page.view?.solving) {
    $("#solve-status").textContent = `solving… ${((performance.now() - page.solvingSince) / 1000).toFixed(1)} s`;
  }
}

// The header's height, for the landscape layout that fits the map under it (CSS cannot measure it).
function watchHeader() {
  const header = $("#top");
  const update = () => document.documentElement.style.setProperty("--top", `${header.offsetHeight}px`);
  new ResizeObserver(update).observe(header);
  update();
}

async function start() {
  await loadTexts();
  makeGameText();
  document.addEventListener("pointerdown", (event) => { page.tapped = event.target; }, true);
  watchControls();
  watchRound();
  watchGame();
  watchExplain();
  watchHeader();
  watchMap();
  zoom(0);
  page.board = await getJson("/api/board");
  startGameMode();
  page.join = (await getJson("/api/join")).url;
  $("#join").value = page.join;
  $("#join-code").src = "/api/join.svg";
  render(await getJson("/api/view"));
  listen();
  setInterval(tickSolving, 250);
  const shared = new URLSearchParams(location.search).get("p");
  if (shared !== null) {
    history.replaceState(null, "", "/");
    if (shared !== page.view.position.notation) offerShared(shared);
  }
  document.body.dataset.ready = "true";
}

// A shared link's position is offered, never loaded over the table's: loading it is a change undo takes back.
function offerShared(shared) {
  $("#shared").hidden = false;
  $("#shared-text").textContent = t("The link you opened holds another position: {notation}", { notation: shared });
  $("#shared-load").onclick = async () => {
    $("#shared").hidden = true;
    if (await send({ op: "notation", text: shared }, "#notation-problems")) {
      toast(t("the shared position is loaded"), () => send({ op: "undo" }, "#notation-problems"));
    } else {
      const input = $("#notation");
      input.value = shared;  // leave the shared text to fix, beside its problems
      input.dataset.edited = "1";
    }
  };
  $("#shared-ignore").onclick = () => { $("#shared").hidden = true; };
}

start().catch((error) => {
  $("#verdict").textContent = t("the page could not start: {why}", { why: error instanceof Refused ? error.message
    : t("the table did not answer; reload the page when it runs again") });
});
