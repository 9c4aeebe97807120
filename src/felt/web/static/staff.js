// The dealer's console (a table's state, its dealer steps, the irregularities a dealer witnesses)
// and the supervisor's (the floor, opening and closing tables, any round's reconstruction, table
// procedures and recuts, a table's par sheet).  What is particular to the game (the dealer's
// cards, the irregularities and their fields, the staff's extra steps) is the table's layout.
import { api, Live, session } from "./api.js";
import { h, mount, toast, money } from "./dom.js";
import { dealerHand, hand, holeCard } from "./cards.js";
import { gameName, linesTable } from "./app.js";

function publicTable(view, layout) {
  const pub = view.public;
  if (!pub) return h("p", {}, "No round yet.");
  const hole = holeCard(pub, layout);
  return h("div", {},
    h("p", {}, `Round ${view.number} · phase ${pub.phase}`, view.finished ? " · finished" : ""),
    h("section", { class: "panel dealer", "aria-label": "Dealer" }, h("h2", {}, "Dealer"), dealerHand(pub, layout),
      hole ? hand([hole]) : null, pub.dealer_hand ? h("p", { class: "hand-name" }, "Dealer's hand: ", h("strong", {}, pub.dealer_hand)) : null),
    h("ul", { class: "grid others", role: "list" }, (pub.others || []).map((o) => h("li", { class: "panel other" },
      h("h3", {}, `Seat ${o.seat}`, view.seats[String(o.seat)] ? ` · ${view.seats[String(o.seat)]}` : "", " ", h("span", { class: "tag" }, o.status || "")),
      hand(o.cards || [], Math.max(0, (o.card_count || o.cards.length) - o.cards.length)),
      o.hand ? h("p", { class: "hand-name" }, "Hand: ", h("strong", {}, o.hand)) : null,
      h("p", { class: "muted" }, Object.entries(o.wagers || {}).map(([k, v]) => `${k} ${money(v)}`).join(", "))))
      .concat((view.sitting_out || []).map((n) => h("li", { class: "panel other", dataset: { seat: n } },
        h("h3", {}, `Seat ${n}`, view.seats[String(n)] ? ` · ${view.seats[String(n)]}` : "", " ", h("span", { class: "tag" }, "sitting out")))))),
    (pub.pending || []).length ? h("p", {}, "Waiting for: ", pub.pending.map((p) => `seat ${p.seat} (${p.election})`).join(", ")) : null,
    linesTable(pub.lines));
}

export async function dealerScreen(root, tableId) {
  if (!tableId) {
    const tables = await api("GET", "/api/lobby");
    mount(root, h("h1", {}, "Tables"), h("ul", { class: "grid", role: "list" }, tables.map((t) =>
      h("li", { class: "panel" }, h("a", { href: `#/dealer/${encodeURIComponent(t.id)}` }, `${t.id} · ${gameName(t.game)}`)))));
    return null;
  }
  let view = null;
  const status = h("p", { class: "live", role: "status" }, "Connecting…");
  const live = new Live((msg) => { if (msg.type === "table" && msg.table === tableId) { view = msg; draw(); } },
    (s) => { status.textContent = s === "live" ? "Live" : "Reconnecting…"; });
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
        try { await api("POST", `/api/tables/${encodeURIComponent(tableId)}/${view.open ? "close" : "open"}`); } catch (e) { toast(e.message); }
      } }, view.open ? "Close the table" : "Open the table")));
  }

  function draw() {
    if (!view) { mount(root, h("h1", {}, tableId), status); return; }
    const step = view.next_step;
    mount(root, h("h1", {}, `${me.role === "supervisor" ? "Supervisor" : "Dealer"}: ${tableId} `, h("span", { class: "tag" }, gameName(view.game))), status,
      h("div", { class: "row" },
        step ? h("button", { type: "button", class: "primary", onclick: async (ev) => {
          ev.currentTarget.disabled = true; // one step a click: the next view brings the next button
          await act(step);
        } }, `Next step: ${step.dealer || step.action}`) : h("span", { class: "muted" }, "No dealer step due"),
        h("span", { class: "muted" }, " The table also takes its steps by itself at its pace.")),
      publicTable(view, layout()), view.public && (layout().irregularities || []).length ? irregularityForm(layout().irregularities) : null,
      supervisorPanel());
  }
  draw();
  return () => { gone = true; live.close(); };
}

export async function floorScreen(root, alive = () => true) {
  const tables = await api("GET", "/api/floor");
  if (!alive()) return;
  const change = async (id, what) => {
    try { await api("POST", `/api/tables/${encodeURIComponent(id)}/${what}`); if (alive()) floorScreen(root, alive); } catch (e) { toast(e.message); }
  };
  const find = h("form", { class: "row", onsubmit: (ev) => { ev.preventDefault(); location.hash = "#/round/" + encodeURIComponent(ev.target.round.value.trim()); } },
    h("label", { for: "round" }, "Round id "), h("input", { id: "round", name: "round", placeholder: `${tables.length ? tables[0].id : "table"}:1`, required: true }),
    h("button", { type: "submit" }, "Reconstruct"));
  mount(root, h("h1", {}, "Floor"), find,
    h("div", { class: "scroll" }, h("table", { class: "floor" },
      h("caption", {}, "Tables now (house result since midnight UTC, from the ledger)"),
      h("thead", {}, h("tr", {}, ["Table", "Game", "State", "Players", "Rounds last hour", "House today", "Round in play", ""].map((x) => h("th", { scope: "col" }, x)))),
      h("tbody", {}, tables.map((t) => h("tr", { dataset: { table: t.id } },
        h("th", { scope: "row" }, t.id), h("td", {}, gameName(t.game)), h("td", {}, t.open ? "open" : "closed"),
        h("td", {}, `${t.players}`), h("td", {}, `${t.rounds_last_hour}`), h("td", {}, money(t.house_today)),
        h("td", {}, t.round_in_play ? h("a", { href: "#/round/" + encodeURIComponent(t.round_in_play) }, t.round_in_play) : "—"),
        h("td", {}, h("div", { class: "row" },
          h("button", { type: "button", onclick: () => change(t.id, t.open ? "close" : "open") }, t.open ? "Close" : "Open"),
          h("a", { class: "button", href: "#/par-sheet/" + encodeURIComponent(t.id) }, "Par sheet"),
          h("a", { class: "button", href: "#/dealer/" + encodeURIComponent(t.id) }, "Watch")))))))));
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
    h("p", {}, `${gameName(rec.game)} under ${rec.edition} · ${rec.phase}`, rec.void_reason ? ` · void: ${rec.void_reason}` : "",
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
  mount(root, h("h1", {}, title ? title.textContent : `Par sheet: ${tableId}`), h("p", { class: "muted" }, `Table ${tableId}: the exact figures of its configuration (felt analyze)`),
    h("img", { src: p.plot, alt: "Distribution of a round's result per ante", class: "plot" }), body);
}
