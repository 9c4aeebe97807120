// The dealer's console (a table's state, its dealer steps, the irregularities a dealer witnesses)
// and the supervisor's (the floor, opening and closing tables, any round's reconstruction, table
// procedures and recuts, a table's par sheet).  What is particular to the game (the dealer's
// cards, the irregularities and their fields, the staff's extra steps, the words of each dealer
// step) is the table's layout.
import { api, Live, session } from "./api.js";
import { h, mount, toast, money } from "./dom.js";
import { dealerHand, dealerLabel, hand, holeCard } from "./cards.js";
import { gameName, linesTable, meterBanner, phaseWords, tableHref, toOwnTableScreen } from "./app.js";

function publicTable(view, layout) {
  const pub = view.public;
  if (!pub) return h("div", {}, meterBanner(view), h("p", {}, "No round yet."));
  const hole = holeCard(pub, layout);
  return h("div", {}, meterBanner(view),
    h("p", { class: "round-phase", dataset: { phase: pub.phase } }, `Round ${view.number} · ${phaseWords(layout, pub.phase, view.finished)}`),
    h("section", { class: "panel dealer", "aria-label": dealerLabel(layout) }, h("h2", {}, dealerLabel(layout)), dealerHand(pub, layout),
      hole ? hand([hole]) : null, pub.dealer_hand ? h("p", { class: "hand-name" }, "Dealer's hand: ", h("strong", {}, pub.dealer_hand)) : null),
    h("ul", { class: "grid others", role: "list" }, (pub.others || []).map((o) => h("li", { class: "panel other" },
      h("h3", {}, `Seat ${o.seat}`, view.seats[String(o.seat)] ? ` · ${view.seats[String(o.seat)]}` : "", " ", h("span", { class: "tag" }, o.status || "")),
      hand(o.cards || [], Math.max(0, (o.card_count || o.cards.length) - o.cards.length)),
      o.hand ? h("p", { class: "hand-name" }, "Hand: ", h("strong", {}, o.hand)) : null,
      h("p", { class: "muted" }, Object.entries(o.wagers || {}).map(([k, v]) => `${k} ${money(v)}`).join(", "))))
      .concat((view.sitting_out || []).map((n) => h("li", { class: "panel other", dataset: { seat: n } },
        h("h3", {}, `Seat ${n}`, view.seats[String(n)] ? ` · ${view.seats[String(n)]}` : "", " ", h("span", { class: "tag" }, "sitting out")))))),
    (pub.pending || []).length ? h("p", {}, "Waiting for: ", pub.pending.map((p) => `seat ${p.seat} (${p.election})`).join(", ")) : null,
    view.finished ? payAndCollect(view.settlement || pub.lines) : null,
    statement(view.settlement || pub.lines, view.round));
}

// The settlement line by line, folded away under the pay and collect list (opened on request,
// and kept open across the round's redraws).
let statementOpen = null; // the round whose statement is open
function statement(lines, round) {
  if (!lines || !lines.length) return null;
  const open = statementOpen === round;
  const box = h("details", { class: "panel statement", open }, h("summary", {}, "The statement, line by line"),
    open ? linesTable(lines) : null); // a closed box holds no table
  box.addEventListener("toggle", () => {
    statementOpen = box.open ? round : null;
    const shown = [...box.children].filter((c) => c.tagName !== "SUMMARY");
    if (box.open && !shown.length) box.append(linesTable(lines));
    if (!box.open) shown.forEach((c) => c.remove());
  });
  return box;
}

// A dollar string ("12.50", "-3") as whole cents, exactly (no floating point on money).
function cents(d) {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(String(d).trim());
  if (!m) return 0;
  const c = Number(m[2]) * 100 + Number((m[3] || "0").padEnd(2, "0"));
  return m[1] ? -c : c;
}

function dollars(c) {
  const a = Math.abs(c);
  return (c < 0 ? "-" : "") + `${Math.floor(a / 100)}.${String(a % 100).padStart(2, "0")}`;
}

// After the settlement, what the dealer pays or collects at each seat: the seat's lines of the
// public statement summed (a line's amount is the player's result on that wager).
export function settlementMoves(lines) {
  const seats = new Map();
  for (const l of lines || []) {
    const s = seats.get(l.seat) || { seat: l.seat, net: 0, outcomes: new Set() };
    s.net += cents(l.amount);
    s.outcomes.add(l.outcome);
    seats.set(l.seat, s);
  }
  return [...seats.values()].sort((a, b) => Number(a.seat) - Number(b.seat)).map((s) => {
    const text = s.net > 0 ? `Pay seat ${s.seat} ${money(dollars(s.net))}`
      : s.net < 0 ? `Collect from seat ${s.seat} ${money(dollars(-s.net))}`
      : [...s.outcomes].every((o) => o === "void") ? `Seat ${s.seat}: return the wagers`
      : [...s.outcomes].every((o) => o === "push" || o === "void") ? `Seat ${s.seat}: push` : `Seat ${s.seat}: even, nothing to pay or collect`;
    return { seat: s.seat, net: dollars(s.net), text };
  });
}

function payAndCollect(lines) {
  const moves = settlementMoves(lines);
  if (!moves.length) return null;
  return h("section", { class: "panel pay-collect", "aria-label": "Pay and collect" }, h("h2", {}, "Pay and collect"),
    h("ul", { class: "moves" }, moves.map((m) => h("li", { dataset: { seat: m.seat, net: m.net }, class: m.net.startsWith("-") ? "collect" : "pay" }, m.text))));
}

// A question the page asks in its own dialog (not window.confirm): resolves true when ``yes``
// is pressed, false on ``no`` or Escape.
export function ask(question, yes, no) {
  return new Promise((resolve) => {
    const dlg = h("dialog", { class: "confirm", "aria-label": question },
      h("form", { method: "dialog" }, h("p", {}, question),
        h("div", { class: "row" },
          h("button", { type: "submit", value: "yes", class: "primary danger" }, yes),
          h("button", { type: "submit", value: "no", autofocus: true }, no))));
    dlg.addEventListener("close", () => { dlg.remove(); resolve(dlg.returnValue === "yes"); });
    document.body.append(dlg);
    dlg.showModal();
  });
}

// Close a table once the supervisor confirms it, naming the table; open one at once.
export async function openOrClose(id, isOpen) {
  if (isOpen && !await ask(`Close table ${id}? It starts no new round; a round in play is finished first.`, `Close table ${id}`, "Keep it open")) return false;
  await api("POST", `/api/tables/${encodeURIComponent(id)}/${isOpen ? "close" : "open"}`);
  return true;
}

export async function dealerScreen(root, tableId, alive = () => true) {
  if (!tableId) {
    const tables = await api("GET", "/api/lobby");
    if (!alive()) return null; // left meanwhile (a table's console opened): draw nothing over it
    mount(root, h("h1", {}, "Tables"), h("ul", { class: "grid", role: "list" }, tables.map((t) =>
      h("li", { class: "panel" }, h("a", { href: tableHref(t.game, t.id, "dealer") }, `${t.id} · ${gameName(t.game)}`)))));
    return null;
  }
  let view = null;
  const status = h("p", { class: "live", role: "status" }, "Connecting…");
  const live = new Live((msg) => {
    if (msg.type !== "table" || msg.table !== tableId || toOwnTableScreen(msg.game, tableId)) return;
    view = msg;
    draw();
  },
    (s) => { status.textContent = { live: "Live", reconnecting: "Reconnecting…", ended: "Session ended" }[s]; });
  live.subscribe(tableId);
  const act = async (action) => { try { await live.act(tableId, action); } catch (e) { toast(e.message); } };

  function irregularityForm(list) {
    const select = h("select", { id: "irregularity" }, list.map((x) => h("option", { value: x.name }, x.label)));
    const fields = h("div", { class: "row" });
    const showFields = () => {
      const chosen = list.find((x) => x.name === select.value);
      mount(fields, chosen.fields.map((f) => h("label", {}, f.label, " ", h("input", { type: "number", min: 0, name: f.field, size: 4 }))));
    };
    select.addEventListener("change", showFields);
    showFields();
    return h("form", { class: "panel", onsubmit: (ev) => {
      ev.preventDefault();
      const action = { irregularity: select.value };
      for (const input of fields.querySelectorAll("input")) if (input.value !== "") action[input.name] = Number(input.value);
      act(action);
    } }, h("h2", {}, "Report an irregularity"), h("label", { for: "irregularity" }, "What happened"), select, fields,
    h("button", { type: "submit" }, "Record it"));
  }

  const me = session.get();
  let info = null;
  let gone = false;
  const layout = () => (info && info.layout) || {}; // the table's, from the lobby
  api("GET", "/api/lobby").then((ts) => { if (gone) return; info = ts.find((t) => t.id === tableId) || null; draw(); }).catch(() => {});

  function supervisorPanel() {
    if (me.role !== "supervisor" || !info) return null;
    const steps = (layout().steps || []).filter((x) => x.role === "supervisor");
    const names = Object.keys(info.procedures);
    const select = h("select", { id: "procedure" }, names.map((n) => h("option", { value: n }, n.replaceAll("_", " "))));
    const argument = h("input", { id: "argument", size: 14 });
    const hint = h("span", { class: "muted" });
    const showHint = () => { hint.textContent = info.procedures[select.value] || "no argument"; argument.disabled = !info.procedures[select.value]; };
    select.addEventListener("change", showHint);
    showHint();
    return h("form", { class: "panel", onsubmit: async (ev) => {
      ev.preventDefault();
      const body = { procedure: select.value };
      if (!argument.disabled && argument.value !== "") body.argument = /^\d+$/.test(argument.value) ? Number(argument.value) : argument.value;
      try { await api("POST", `/api/tables/${encodeURIComponent(tableId)}/procedure`, body); toast(`${select.value.replaceAll("_", " ")}: done`); }
      catch (e) { toast(e.message); }
    } }, h("h2", {}, "Supervisor: table procedures and authorisations"),
    h("div", { class: "row" }, h("label", { for: "procedure" }, "Procedure"), select, h("label", { for: "argument" }, "Argument"), argument, hint,
      h("button", { type: "submit" }, "Apply")),
    steps.length ? h("div", { class: "row" },
      steps.map((x) => h("button", { type: "button", onclick: () => act(x.action) }, x.label))) : null,
    h("div", { class: "row" },
      h("button", { type: "button", onclick: async () => {
        try { await openOrClose(tableId, view.open); } catch (e) { toast(e.message); }
      } }, `${view.open ? "Close" : "Open"} table ${tableId}`)));
  }

  // The step's button in the dealer's words (the layout's), else its name as the round gives it.
  function stepLabel(step) {
    const name = step.dealer || step.action;
    const words = (layout().dealer_steps || {})[name];
    return words || name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
  }

  // Who takes the steps: at a manual table the dealer takes every one; else the table at its pace.
  function paceNote() {
    const mine = me.role === "dealer";
    if (view.dealer === "manual") {
      return mine ? "You take every step at this table: nothing moves on until you press the step's button."
        : "The dealer takes every step at this table: nothing moves on until a step's button is pressed.";
    }
    const pace = view.pace_seconds ? ` about every ${view.pace_seconds} s` : "";
    return `The table takes its steps by itself${pace}; ${mine ? "you" : "the dealer"} may take the next one sooner.`;
  }

  function draw() {
    if (!view) { mount(root, h("h1", {}, tableId), status); return; }
    const step = view.next_step;
    // the wrapper says what it shows (the table's version, its round), as the table screen does
    mount(root, h("div", { class: "console", dataset: { table: tableId, version: view.version, round: view.round || "",
      finished: String(!!view.finished), words: info ? "layout" : "names" } },
    h("h1", {}, `${me.role === "supervisor" ? "Supervisor" : "Dealer"}: ${tableId} `, h("span", { class: "tag" }, gameName(view.game))), status,
      h("div", { class: "row" },
        step ? h("button", { type: "button", id: "next-step", class: "primary step", dataset: { step: step.dealer || step.action }, onclick: async (ev) => {
          ev.currentTarget.disabled = true; // one step a click: the next view brings the next button
          await act(step);
        } }, stepLabel(step)) : h("span", { class: "muted no-step" }, !view.public ? "No round yet" : view.finished ? "Round settled: the next round opens shortly"
          : (view.public.pending || []).length ? "No dealer step due: waiting for the players' decisions" : "No dealer step due: waiting for wagers")),
      h("p", { class: "muted pace", dataset: { dealer: view.dealer || "" } }, paceNote()),
      // why the table opens no new round (a schedule the staff clear with a table procedure)
      view.blocked ? h("p", { class: "blocked error", role: "alert" }, "No new round: ", view.blocked) : null,
      publicTable(view, layout()), view.public && (layout().irregularities || []).length ? irregularityForm(layout().irregularities) : null,
      supervisorPanel()));
  }
  draw();
  return () => { gone = true; live.close(); };
}

export async function floorScreen(root, alive = () => true) {
  const [tables, meters] = await Promise.all([api("GET", "/api/floor"), api("GET", "/api/progressive")]);
  if (!alive()) return;
  const change = async (t) => {
    try { if (await openOrClose(t.id, t.open) && alive()) await floorScreen(root, alive); } catch (e) { toast(e.message); }
  };
  const HEADS = ["Table", "Game", "State", "Players", "Rounds last hour", "House today", "Round in play", "Actions"];
  // each cell carries its column's name, so at a phone's width a row becomes a card of labelled lines
  const cell = (i, ...content) => h("td", { dataset: { label: HEADS[i] } }, ...content);
  const find = h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); location.hash = "#/round/" + encodeURIComponent(ev.target.round.value.trim()); } },
    h("label", { for: "round" }, "Round id "), h("input", { id: "round", name: "round", placeholder: `${tables.length ? tables[0].id : "table"}:1`, required: true }),
    h("button", { type: "submit" }, "Reconstruct"));
  mount(root, h("h1", {}, "Floor"), find,
    h("div", { class: "scroll" }, h("table", { class: "floor" },
      h("caption", {}, "Tables now (house result since midnight UTC, from the ledger)"),
      h("thead", {}, h("tr", {}, HEADS.map((x, i) => h("th", { scope: "col" }, i === HEADS.length - 1 ? h("span", { class: "visually-hidden" }, x) : x)))),
      h("tbody", {}, tables.map((t) => h("tr", { dataset: { table: t.id } },
        h("th", { scope: "row", dataset: { label: HEADS[0] } }, t.id), cell(1, gameName(t.game)), cell(2, t.open ? "open" : "closed"),
        cell(3, `${t.players}`), cell(4, `${t.rounds_last_hour}`), cell(5, money(t.house_today)),
        cell(6, t.round_in_play ? h("a", { href: "#/round/" + encodeURIComponent(t.round_in_play) }, t.round_in_play) : "—"),
        cell(7, h("div", { class: "row" },
          h("button", { type: "button", class: t.open ? "danger" : null, onclick: () => change(t) }, `${t.open ? "Close" : "Open"} ${t.id}`),
          h("a", { class: "button", href: "#/par-sheet/" + encodeURIComponent(t.id) }, "Par sheet"),
          h("a", { class: "button", href: tableHref(t.game, t.id, "dealer") }, "Watch")))))))),
    meters.length ? meterTable(meters) : null);
  if (meters.length) followMeters(root, alive);
}

// The floor's meters follow the meters: read again every two seconds while this floor is the
// one on screen (a redraw of the floor starts its own follower and ends this one).
const METER_POLL_MS = 2000;
let floorFollower = 0;
async function followMeters(root, alive) {
  const mine = ++floorFollower;
  while (alive() && mine === floorFollower) {
    await new Promise((done) => setTimeout(done, METER_POLL_MS));
    if (!alive() || mine !== floorFollower) return;
    let now;
    try { now = await api("GET", "/api/progressive"); } catch { continue; }
    for (const m of now) {
      const amount = root.querySelector(`tr[data-meter="${CSS.escape(m.meter)}"] .meter-amount`);
      if (amount && amount.textContent !== money(m.amount)) amount.textContent = money(m.amount);
    }
  }
}

// The linked progressive meters (19:47-16.11): each meter's amount now, its seed (the reset
// amount the house funds) and the tables linked to it, whichever server process runs them.
function meterTable(meters) {
  const HEADS = ["Meter", "Label", "Amount", "Seed", "Linked tables"];
  const cell = (i, ...content) => h("td", { dataset: { label: HEADS[i] } }, ...content);
  return h("div", { class: "scroll" }, h("table", { class: "floor meters" },
    h("caption", {}, "Progressive meters (each is a ledger account)"),
    h("thead", {}, h("tr", {}, HEADS.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, meters.map((m) => h("tr", { dataset: { meter: m.meter } },
      h("th", { scope: "row", dataset: { label: HEADS[0] } }, m.meter), cell(1, m.label),
      cell(2, h("strong", { class: "meter-amount" }, money(m.amount))), cell(3, money(m.seed)),
      cell(4, m.tables.map((t, i) => [i ? ", " : "", h("a", { href: "#/dealer/" + encodeURIComponent(t) }, t)])))))));
}

export async function roundScreen(root, roundId, alive = () => true) {
  const r = await api("GET", "/api/rounds/" + encodeURIComponent(roundId));
  if (!alive()) return;
  const rec = r.record;
  mount(root, h("h1", {}, `Round ${r.round}`), h("p", {}, `${r.table} · round ${r.number} · ${r.finished ? "finished" : "in play"}`),
    rec ? reconstruction(rec) : null,
    h("section", { class: "panel" }, h("h2", {}, "Events in order"),
      h("ol", { class: "events" }, r.events.map((e) => h("li", {},
        h("code", {}, JSON.stringify(e.action)), " ",
        h("span", { class: "muted" }, (e.effects || []).map((x) => x.detail || x.kind || "").filter(Boolean).join("; ")))))));
}

// A finished round rebuilt from its record: the dealer's hand, each seat's cards, wagers and
// statement, the house's net, and the discard rack in pickup order (24.10(g), 17.10).
function reconstruction(rec) {
  const dollars = (x) => money(Number(x).toFixed(2));
  const seats = Object.entries(rec.seats || {});
  return h("section", { class: "panel reconstruction" }, h("h2", {}, "Reconstruction"),
    h("p", {}, `${gameName(rec.game)} under ${rec.edition}`, rec.void_reason ? ` · void: ${rec.void_reason}` : " · settled",
      ` · house net ${dollars(rec.house_net)}`),
    h("h3", {}, "Dealer"), hand(rec.dealer.cards || []), rec.dealer.description ? h("p", {}, rec.dealer.description) : null,
    seats.map(([n, seat]) => h("div", { class: "seat-record", dataset: { seat: n } },
      h("h3", {}, `Seat ${n}`, seat.player ? ` · ${seat.player}` : "", ` · ${seat.status}`),
      hand(seat.cards || []),
      (seat.discarded || []).length ? h("p", {}, "Discarded: ", hand(seat.discarded)) : null,
      seat.hand ? h("p", {}, seat.hand.description) : null,
      h("p", { class: "muted" }, Object.entries(seat.wagers || {}).map(([k, v]) => `${k} ${dollars(v)}`).join(", "), ` · net ${dollars(seat.net)}`),
      linesTable((seat.lines || []).map((l) => ({ ...l, seat: n, stake: Number(l.stake).toFixed(2), amount: Number(l.amount).toFixed(2) }))))),
    h("h3", {}, "Discard rack, in pickup order"),
    h("ol", { class: "rack" }, (rec.discard_rack || []).map((b) => h("li", {}, h("span", { class: "muted" }, b.what + " "), hand(b.cards)))));
}

export async function parSheetScreen(root, tableId, alive = () => true) {
  mount(root, h("h1", {}, `Par sheet: ${tableId}`), h("p", { role: "status" }, "Computing the exact figures…"));
  const p = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/par-sheet`);
  if (!alive()) return;
  // felt analyze's own HTML for this table's configuration, its long sections folded away
  const doc = new DOMParser().parseFromString(p.html, "text/html");
  const title = doc.querySelector("h1");
  const body = h("div", { class: "sheet" });
  let section = body;
  for (const node of [...doc.body.childNodes]) {
    if (node === title) continue;
    if (node.nodeName === "H2") {
      const open = ["Summary", "Pay tables", "Return table"].some((x) => node.textContent.startsWith(x));
      section = open ? h("section", {}) : h("details", {}, h("summary", {}, node.textContent));
      body.append(section);
      if (!open) continue;
    }
    section.append(document.importNode(node, true));
  }
  // on a phone, a table of three columns or more becomes a card a row, each value under its
  // column's name (the shared "cards" rule of style.css), so no exact figure runs off the screen
  for (const table of body.querySelectorAll("table")) {
    for (const cell of table.querySelectorAll("td")) { // a long exact fraction may break at its bar
      if (/\d{9,}\/\d{9,}/.test(cell.textContent)) cell.textContent = cell.textContent.replace(/(\d{9,})\/(\d{9,})/g, "$1 / $2");
    }
    const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent);
    if (names.length < 3) continue;
    table.classList.add("cards");
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, i) => { cell.dataset.label = names[i] || ""; });
    }
  }
  mount(root, h("h1", {}, title ? title.textContent : `Par sheet: ${tableId}`), h("p", { class: "muted" }, `Table ${tableId}: the exact figures of its configuration (felt analyze)`),
    h("img", { src: p.plot, alt: "Distribution of a round's result per ante", class: "plot" }), body);
}
