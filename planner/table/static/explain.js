// The travel phase's "Why this route?" panel: why each step of the best route is paid so (a tap marks the step's
// road on the map), the fewest cards to every town still to collect, what one more card or counter would add (a
// tap shows its route on the map; the counter can go on the board as a change undo takes back), the last round's
// end towns, and my own route beside the best. Loaded before app.js, whose helpers ($, el, send, page) it calls
// once the page runs. Every sentence and number comes from the view's advice.explain (the explain command's JSON).
"use strict";

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
  $("#explain-status").textContent = status === "done" ? (found.proven ? "proven" : "not every answer proven")
    : status === "error" ? "could not be worked out" : "working out…";
  $("#explain-note").textContent = status === "error" ? found.note : "";  // the summary says "working out…"
  $("#yours").placeholder = "your route, e.g. " + (view.solution?.plans[0]?.route || "thr/E jac/D").toLowerCase();
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
    $("#explain-steps").replaceChildren(el("li", { text: "No step pays off: the boot stays." }));
    return;
  }
  $("#explain-steps").replaceChildren(...found.steps.map((step) => el("li", {},
    el("button", { type: "button", class: "step-head", "data-step": String(step.step),
                   "aria-pressed": String(explained.step?.number === step.step),
                   onclick: () => markStep(explained.step?.number === step.step ? null
                     : { number: step.step, connection: step.connection, round: page.view.position.round }) },
       el("b", { text: `${step.step}. ${step.to}` }), ` · ${step.route} · ${step.reasons.join(", ").replaceAll("-", " ")}`),
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
  $("#whatif-shown-text").textContent = shown ? `The map shows the best route ${explained.whatIf.text}.` : "";
}

// -- the fewest cards to each town ---------------------------------------------------------------------------------
function needText(need) {
  return `with ${need.addition}: ${plural(need.cards, "card")} (${need.route})`;
}

function renderReach(found) {
  $("#explain-reach tbody").replaceChildren(...found.reach.map((row) => {
    const needs = [row.card, row.counter].filter(Boolean).map(needText);
    return el("tr", { "data-town": row.code },
      el("td", { text: row.town }),
      el("td", { text: row.cards === null ? "—" : `${row.cards} · ${row.route}` }),
      el("td", { text: row.cards !== null ? "" : needs.length ? needs.join("; or ") : "out of reach this round" }));
  }));
}

// -- what if -------------------------------------------------------------------------------------------------------
// What the explanation counts: new towns, or in the last round points (the distance home costs some).
function pointWord() {
  return page.view?.position.last_round ? "point" : "town";
}

function gainText(gain) {
  const parts = [];
  if (gain.points) parts.push(`${gain.points > 0 ? "+" : "−"}${plural(Math.abs(gain.points), pointWord())}`);
  if (gain.cards_saved > 0) parts.push(`${plural(gain.cards_saved, "card")} fewer`);
  if (gain.cards_saved < 0) parts.push(`${plural(-gain.cards_saved, "card")} more`);
  return parts.length ? parts.join(", ") : "adds nothing";
}

function renderWhatIf(found) {
  const what = found.what_if;
  const box = $("#explain-whatif");
  if (!what) { box.replaceChildren(); return; }
  const rows = [];
  for (const [kind, ties] of [["card", what.card_ties], ["counter", what.counter_ties]]) {
    const gain = what[kind];
    if (!gain) {
      rows.push(el("p", { class: "hint", text: kind === "card" ? "No card to add." : "No empty road to add a counter on." }));
      continue;
    }
    const helps = gain.points > 0 || gain.cards_saved > 0;
    if (!helps) {
      rows.push(el("p", { class: "whatif", "data-kind": kind,
                          text: `No single extra ${kind} would help: the best stays as it is.` }));
      continue;
    }
    const text = `with ${gain.addition}`;
    const tools = [el("button", { type: "button", class: "show-whatif", "data-kind": kind,
                                  onclick: () => showWhatIf(kind, gain.svg, text) }, "show on map")];
    if (kind === "counter") {
      tools.push(el("button", { type: "button", class: "apply-whatif",
                                onclick: () => send({ op: "tile", road: gain.road, counter: gain.counter_letter }, "#explain-problems") },
                    "put it on the board"));
    }
    rows.push(el("div", { class: "whatif helps", "data-kind": kind },
      el("p", {}, el("b", { text: `${gain.addition[0].toUpperCase()}${gain.addition.slice(1)}: ` }),
         `${gainText(gain)} → ${plural(gain.score, pointWord())} for ${plural(gain.cards_spent, "card")}: ${gain.route || "stay"}`),
      ties.length ? el("p", { class: "hint", text: `As good: ${ties.join("; ")}.` }) : "",
      el("div", { class: "row" }, ...tools)));
  }
  if (!what.proven) rows.push(el("p", { class: "hint", text: "Not every what-if was proven: a better one may be missed." }));
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
  $("#explain-ends caption").textContent = `Where to end: home is ${ends.home}, each link from it costs a point`;
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
  const total = `Yours: ${plural(mine.score, pointWord())} for ${plural(mine.cards_spent, "card")}; the best: `
    + `${plural(best.score, pointWord())} for ${plural(best.cards_spent, "card")}.`;
  const lines = [];
  if (yours.optimal) {
    lines.push(el("p", { class: "advice", text: "Your route is as good as the best." }));
  } else if (yours.behind_at !== null) {
    const step = mine.route.split(" ")[yours.behind_at - 1];
    const cost = yours.step_cost;
    lines.push(el("p", { class: "advice", text: `Your route falls behind at step ${yours.behind_at} (${step}): it costs ${costText(cost)}.` }));
    if (yours.instead !== null) lines.push(el("p", { text: `From just before it, the best way on: ${yours.instead || "stay"}.` }));
  } else if (yours.stopped_early) {
    lines.push(el("p", { class: "advice", text: `Your route keeps to the best track but stops early: it loses ${costText(yours.lost)}.` }));
  }
  lines.push(el("p", { text: total }));
  box.replaceChildren(...lines);
}

function costText(cost) {
  const parts = [];
  if (cost.points) parts.push(plural(cost.points, pointWord()));
  if (cost.cards > 0) parts.push(`${plural(cost.cards, "card")} more`);
  if (cost.cards < 0) parts.push(`saves ${plural(-cost.cards, "card")}`);
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
