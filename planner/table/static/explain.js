// The travel phase's "Why this route?" panel: why each step of the best route is paid so (a tap marks the step's
// road on the map), the fewest cards to every town still to collect, what one more card or counter would add (a
// tap shows its route on the map; the counter can go on the board as a change undo takes back), the last round's
// end towns, and my own route beside the best. Loaded before app.js, whose helpers ($, el, send, page) it calls
// once the page runs. Every sentence and number comes from the view's advice.explain (the explain command's JSON).
"use strict";

// A step's reasons (the machine values of the teaching notes) as the page says them, each a message.
const REASONS = {
  counter: N_("counter"), obstacle: N_("obstacle"), "caravan-only-way": N_("caravan: the only way"),
  "caravan-saves-matching-cards": N_("caravan saves matching cards"), "caravan-dearer": N_("caravan dearer"),
  downstream: N_("downstream"), upstream: N_("upstream"), ferry: N_("ferry"), "new-town": N_("new town"),
  capital: N_("capital"), "collected-before": N_("collected before"), backtrack: N_("backtrack"),
  "dead-end": N_("dead end"), end: N_("end"), home: N_("home"),
};

const explained = {
  step: null,     // { number, connection } of the step whose road is marked on the map
  whatIf: null,   // { kind, svg, text } of the what-if whose map is shown instead of the board
};

function explainOf(view) {
  const advice = adviceFor(view, "travel");
  return advice ? advice.explain : null;
}

function renderExplain(view) {
  const found = explainOf(view);
  // A marked step belongs to one round's best route: a new round, or a route without that step, clears it.
  const best = view.solution?.plans[0];
  const still = best?.steps?.[explained.step?.number - 1];
  if (explained.step && (view.position.round !== explained.step.round
      || (best && still?.connection !== explained.step.connection))) {
    markStep(null);
  }
  const status = found ? found.status : "waiting";
  $("#explain-panel").dataset.status = status;
  $("#explain-status").textContent = status === "done" ? (found.proven ? t("proven") : t("not every answer proven"))
    : status === "error" ? t("could not be worked out") : t("working out…");
  $("#explain-note").textContent = status === "error" ? found.note : "";  // the summary says "working out…"
  $("#yours").placeholder = t("your route, e.g. {route}", { route: (view.solution?.plans[0]?.route || "thr/E jac/D").toLowerCase() });
  if (document.activeElement !== $("#yours") && !$("#yours").dataset.edited) $("#yours").value = view.yours ?? "";
  $("#copy-best").disabled = !view.solution?.plans[0]?.steps.length;
  if (status !== "done") {
    for (const box of ["#explain-steps", "#explain-reach tbody", "#explain-whatif", "#explain-ends tbody", "#yours-result"]) {
      $(box).replaceChildren();
    }
    $("#explain-ends").hidden = true;
    return;
  }
  renderSteps(found);
  renderReach(found);
  renderWhatIf(found);
  renderEnds(found);
  renderYours(view, found);
}

// -- the best route's steps ----------------------------------------------------------------------------------------
function renderSteps(found) {
  if (!found.steps.length) {
    $("#explain-steps").replaceChildren(el("li", { text: t("No step pays off: the boot stays.") }));
    return;
  }
  $("#explain-steps").replaceChildren(...found.steps.map((step) => el("li", {},
    el("button", { type: "button", class: "step-head", "data-step": String(step.step),
                   "aria-pressed": String(explained.step?.number === step.step),
                   onclick: () => markStep(explained.step?.number === step.step ? null
                     : { number: step.step, connection: step.connection, round: page.view.position.round }) },
       el("b", { text: `${step.step}. ${townWord(step.to)}` }), ` · ${step.route} · ${step.reasons.map((reason) => t(REASONS[reason] ?? reason)).join(", ")}`),
    ...step.text.map((sentence) => el("p", { class: "note", text: sentence })))));
}

function markStep(step) {
  explained.step = step;
  for (const button of document.querySelectorAll("#explain-steps .step-head")) {
    button.setAttribute("aria-pressed", String(Number(button.dataset.step) === step?.number));
  }
  markExplain();
}

// The marks the panel puts on the map, again after every redraw of it.
function markExplain() {
  for (const node of document.querySelectorAll("#map .explained")) node.classList.remove("explained");
  for (const node of document.querySelectorAll("#map .explain-mark")) node.remove();
  const road = explained.step?.connection;
  const link = road ? $(`#map .connection[data-connection="${CSS.escape(road)}"]`) : null;
  if (link) {
    // A wide mark under the link's own lines, the same on a road, a river or a lake crossing.
    link.classList.add("explained");
    const mark = document.createElementNS("http://www.w3.org/2000/svg", "g");
    mark.setAttribute("class", "explain-mark");
    mark.append(link.querySelector("path").cloneNode());
    link.prepend(mark);
  }
  const shown = explained.whatIf && page.shownSvg === explained.whatIf.svg;
  if (!shown) explained.whatIf = null;
  $("#whatif-shown").hidden = !shown;
  $("#whatif-shown-text").textContent = shown ? t("The map shows the best route {what}.", { what: explained.whatIf.text }) : "";
}

// -- the fewest cards to each town ---------------------------------------------------------------------------------
function needText(need) {
  return t("with {addition}: {cards} ({route})", { addition: need.addition, cards: counted(need.cards, "card"),
                                                  route: need.route });
}

function renderReach(found) {
  $("#explain-reach tbody").replaceChildren(...found.reach.map((row) => {
    const needs = [row.card, row.counter].filter(Boolean).map(needText);
    return el("tr", { "data-town": row.code },
      el("td", { text: row.town }),
      el("td", { text: row.cards === null ? "—" : `${row.cards} · ${row.route}` }),
      el("td", { text: row.cards !== null ? "" : needs.length ? needs.join(t("; or ")) : t("out of reach this round") }));
  }));
}

// -- what if -------------------------------------------------------------------------------------------------------
// What the explanation counts: new towns, or in the last round points (the distance home costs some).
function pointWord() {
  return page.view?.position.last_round ? "point" : "town";
}

// A count of cards, towns or points in the phone's language (1 karta, 2 karty, 5 karet).
function counted(n, word) {
  if (word === "card") return tn("{n} card", "{n} cards", n);
  return word === "point" ? tn("{n} point", "{n} points", n) : tn("{n} town", "{n} towns", n);
}

function gainText(gain) {
  const parts = [];
  if (gain.points) parts.push(`${gain.points > 0 ? "+" : "−"}${counted(Math.abs(gain.points), pointWord())}`);
  if (gain.cards_saved > 0) parts.push(t("{cards} fewer", { cards: counted(gain.cards_saved, "card") }));
  if (gain.cards_saved < 0) parts.push(t("{cards} more", { cards: counted(-gain.cards_saved, "card") }));
  return parts.length ? parts.join(", ") : t("adds nothing");
}

function renderWhatIf(found) {
  const what = found.what_if;
  const box = $("#explain-whatif");
  if (!what) { box.replaceChildren(); return; }
  const rows = [];
  for (const [kind, ties] of [["card", what.card_ties], ["counter", what.counter_ties]]) {
    const gain = what[kind];
    if (!gain) {
      rows.push(el("p", { class: "hint", text: kind === "card" ? t("No card to add.") : t("No empty road to add a counter on.") }));
      continue;
    }
    const helps = gain.points > 0 || gain.cards_saved > 0;
    if (!helps) {
      rows.push(el("p", { class: "whatif", "data-kind": kind,
                          text: kind === "card" ? t("No single extra card would help: the best stays as it is.")
                            : t("No single extra counter would help: the best stays as it is.") }));
      continue;
    }
    const text = t("with {addition}", { addition: gain.addition });
    const tools = [el("button", { type: "button", class: "show-whatif", "data-kind": kind,
                                  onclick: () => showWhatIf(kind, gain.svg, text) }, t("show on map"))];
    if (kind === "counter") {
      tools.push(el("button", { type: "button", class: "apply-whatif",
                                onclick: () => send({ op: "tile", road: gain.road, counter: gain.counter_letter }, "#explain-problems") },
                    t("put it on the board")));
    }
    rows.push(el("div", { class: "whatif helps", "data-kind": kind },
      el("p", {}, el("b", { text: `${gain.addition[0].toUpperCase()}${gain.addition.slice(1)}: ` }),
         t("{gain} → {score} for {cards}: {route}", { gain: gainText(gain), score: counted(gain.score, pointWord()),
                                                    cards: counted(gain.cards_spent, "card"),
                                                    route: gain.route || t("stay") })),
      ties.length ? el("p", { class: "hint", text: t("As good: {ties}.", { ties: ties.join("; ") }) }) : "",
      el("div", { class: "row" }, ...tools)));
  }
  if (!what.proven) rows.push(el("p", { class: "hint", text: t("Not every what-if was proven: a better one may be missed.") }));
  box.replaceChildren(...rows);
}

function showWhatIf(kind, svg, text) {
  $("#map").innerHTML = svg;  // our own SVG, every text escaped by the server's XML writer
  page.shownSvg = svg;
  explained.whatIf = { kind, svg, text };
  markProblems();
  markExplain();
  $("#map").scrollIntoView({ block: "nearest" });
}

function showBoard() {
  const svg = page.view?.svg;
  if (svg) {
    $("#map").innerHTML = svg;
    page.shownSvg = svg;
    markProblems();
    markAdvice(page.view);
  }
  markExplain();
}

// -- the last round's end towns ------------------------------------------------------------------------------------
function renderEnds(found) {
  const ends = found.end_towns;
  $("#explain-ends").hidden = !ends;
  if (!ends) return;
  $("#explain-ends caption").textContent = t("Where to end: home is {home}, each link from it costs a point", { home: ends.home });
  $("#explain-ends tbody").replaceChildren(...ends.rows.map((row) => el("tr", { class: row.best ? "best" : null },
    el("td", { text: row.end }), el("td", { text: String(row.towns) }), el("td", { text: String(row.home_distance) }),
    el("td", { text: String(row.score) }), el("td", { text: String(row.cards_spent) }))));
}

// -- my own route --------------------------------------------------------------------------------------------------
function renderYours(view, found) {
  const yours = found.yours;
  const box = $("#yours-result");
  if (!yours || !view.yours) { box.replaceChildren(); return; }
  const best = found.best;
  const mine = yours.plan;
  const total = t("Yours: {score} for {cards}; the best: {best_score} for {best_cards}.", {
    score: counted(mine.score, pointWord()), cards: counted(mine.cards_spent, "card"),
    best_score: counted(best.score, pointWord()), best_cards: counted(best.cards_spent, "card") });
  const lines = [];
  if (yours.optimal) {
    lines.push(el("p", { class: "advice", text: t("Your route is as good as the best.") }));
  } else if (yours.behind_at !== null) {
    const step = mine.route.split(" ")[yours.behind_at - 1];
    const cost = yours.step_cost;
    lines.push(el("p", { class: "advice", text: t("Your route falls behind at step {number} ({step}): it costs {cost}.",
                                                            { number: yours.behind_at, step, cost: costText(cost) }) }));
    if (yours.instead !== null) lines.push(el("p", { text: t("From just before it, the best way on: {route}.", { route: yours.instead || t("stay") }) }));
  } else if (yours.stopped_early) {
    lines.push(el("p", { class: "advice", text: t("Your route keeps to the best track but stops early: it loses {cost}.", { cost: costText(yours.lost) }) }));
  }
  lines.push(el("p", { text: total }));
  box.replaceChildren(...lines);
}

function costText(cost) {
  const parts = [];
  if (cost.points) parts.push(counted(cost.points, pointWord()));
  if (cost.cards > 0) parts.push(t("{cards} more", { cards: counted(cost.cards, "card") }));
  if (cost.cards < 0) parts.push(t("saves {cards}", { cards: counted(-cost.cards, "card") }));
  return parts.join(", ") || "nothing";
}

function watchExplain() {
  $("#yours").addEventListener("input", (event) => { event.target.dataset.edited = "1"; });
  $("#yours-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("#yours");
    if (await send({ op: "yours", route: input.value }, "#yours-problems")) {
      delete input.dataset.edited;
      input.blur();
    } else {
      $("#yours-result").replaceChildren();  // the comparison was of another route: it must not stay
    }
  });
  $("#copy-best").addEventListener("click", () => {
    const input = $("#yours");
    input.value = page.view.solution.plans[0].route.toLowerCase();
    input.dataset.edited = "1";
    input.focus();
  });
  $("#whatif-back").addEventListener("click", showBoard);
}
