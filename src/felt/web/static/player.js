// The player's table: seats, the cards the rules let this player see, wagers with chips, each
// decision with its remaining time, the settlement, and the balance.  Everything shown comes from
// the view the server built for this player; the page keeps nothing else.  What is particular to
// the game (the wager spots, each decision's buttons, how the dealer's cards show) is the table's
// layout, from the lobby.
import { api, Live, session } from "./api.js";
import { h, mount, toast, money } from "./dom.js";
import { dealerHand, hand, holeCard } from "./cards.js";
import { gameName, linesTable, refreshBalance, seatHands, wagerWord } from "./app.js";

export function tableScreen(root, tableId) {
  let view = null;
  let info = null;
  let chosen = new Set(); // the cards picked for a decision that takes some (a discard)
  let ante = null; // the chip: the amount the chip-sized wager spots are a multiple of
  const optional = new Set(); // the optional spots ticked
  const status = h("p", { class: "live", role: "status" }, "Connecting…");
  const live = new Live(onMessage, (state) => {
    status.textContent = { live: "Live", reconnecting: "Connection lost: reconnecting…", ended: "Session ended: log in again" }[state];
    status.dataset.state = state;
  });
  live.subscribe(tableId);
  api("GET", "/api/lobby").then((ts) => { if (gone) return; info = ts.find((t) => t.id === tableId) || null; draw(); }).catch(() => {});
  const guideBox = h("dialog", { class: "guide", "aria-label": "Rules and pay tables" });
  document.body.append(guideBox); // outside the screen, so a new view does not close it
  const timer = setInterval(tick, 250);

  let gone = false;
  function onMessage(msg) {
    if (gone) return;
    if (msg.type === "table" && msg.table === tableId) {
      const settled = msg.finished && !(view && view.finished && view.round === msg.round);
      if (view && msg.round !== view.round) { chosen = new Set(); }
      view = msg;
      view.receivedAt = performance.now();
      draw();
      if (settled || !view.round) refreshBalance(); // the balance moves with wagers and settlements
    } else if (msg.type === "moved") {
      status.textContent = "The table moved to another server process: following it…";
      status.dataset.state = "reconnecting";
      follow(1);
    } else if (msg.type === "error") {
      toast(msg.error);
    }
  }

  async function act(action) {
    try {
      await live.act(tableId, action, view && !view.finished ? view.round : null);
      refreshBalance();
    } catch (e) { toast(e.message); }
  }

  // After a "moved", subscribe again with growing waits until the table's view comes back
  // (its new process may take a few seconds to take it over).
  function follow(attempt) {
    if (gone || attempt > 8) return;
    const before = view ? view.version : null;
    setTimeout(() => {
      if (gone) return;
      live.subscribe(tableId);
      setTimeout(() => { if (!gone && (!view || view.version === before)) follow(attempt + 1); }, 1000);
    }, Math.min(500 * 2 ** (attempt - 1), 8000));
  }

  async function showGuide() {
    try {
      const g = await api("GET", `/api/tables/${encodeURIComponent(tableId)}/guide`);
      // the server's own patron guide (escaped there), read as a separate document: only its
      // content comes in, never its page style
      const doc = new DOMParser().parseFromString(g.html, "text/html");
      const from = doc.querySelector("main") || doc.body;
      const body = h("div", { class: "guide-body" }, [...from.childNodes].filter((n) => n.nodeName !== "STYLE")
        .map((n) => document.importNode(n, true)));
      mount(guideBox, h("button", { type: "button", class: "close", onclick: () => guideBox.close() }, "Close"), body);
      guideBox.showModal();
    } catch (e) { toast(e.message); }
  }

  function tick() {
    if (!view || !view.clock) return;
    const gone = (performance.now() - view.receivedAt) / 1000;
    for (const el of root.querySelectorAll("[data-clock]")) {
      const left = Math.max(0, Number(el.dataset.clock) - gone);
      el.textContent = `${Math.ceil(left)} s left`;
      el.classList.toggle("urgent", left < 10);
    }
  }

  function mySeats() {
    return view && view.mine ? Object.keys(view.mine).map(Number) : [];
  }

  function seatedHere() {
    const me = session.get().name;
    return view ? Object.entries(view.seats).filter(([, name]) => name === me).map(([n]) => Number(n)) : [];
  }

  function layout() {
    return (info && info.layout) || {};
  }

  // The wager form: a chip from the table's minimum up, the spots it sizes (each a multiple of
  // it), the optional spots of a fixed amount to tick.
  function wagerForm(seat, w) {
    const min = Number(w.minimum);
    const max = Number(w.maximum);
    const chips = [1, 2, 5, 10, 20].map((k) => k * min).filter((v) => v <= max);
    if (ante === null || !chips.includes(ante)) ante = chips[0];
    const sized = w.spots.filter((s) => s.times !== undefined);
    const ticks = w.spots.filter((s) => s.optional);
    return h("fieldset", { class: "wager" },
      h("legend", {}, `Seat ${seat}: ${w.legend}`),
      h("div", { class: "row chips", role: "radiogroup", "aria-label": "Chip value" },
        chips.map((v) => h("button", { type: "button", class: "chip" + (v === ante ? " on" : ""), role: "radio",
          "aria-checked": String(v === ante), onclick: () => { ante = v; draw(); } }, money(v.toFixed(2))))),
      ticks.map((s) => h("label", { class: "check" }, h("input", { type: "checkbox", checked: optional.has(s.field),
        onchange: (e) => { if (e.target.checked) optional.add(s.field); else optional.delete(s.field); } }),
      ` ${s.label} ${money(s.amount)}`)),
      h("button", { type: "button", class: "primary", onclick: () => {
        const a = { action: w.action, seat };
        for (const s of w.spots) {
          if (s.optional && !optional.has(s.field)) continue;
          a[s.field] = s.times !== undefined ? (ante * s.times).toFixed(2) : s.amount;
        }
        return act(a);
      } }, `${w.button} ${sized.map((s) => money((ante * s.times).toFixed(2))).join(" + ")}`));
  }

  // Each election pending at the seat with its buttons, and what it takes besides (cards picked
  // from the hand, a number).
  function decisions(seat, own) {
    const pending = (own.pending || []).filter((p) => p.seat === seat);
    const all = layout().decisions || {};
    return pending.map((p) => {
      const clock = (view.clock || []).find((c) => c.seat === seat && c.election === p.election);
      const e = all[p.election] || { buttons: [] };
      const buttons = e.buttons.map((b) => h("button", {
        type: "button", class: b.primary ? "primary" : "",
        dataset: { action: b.action.action },
        onclick: () => {
          const a = { ...b.action, seat };
          for (const field of b.adds || []) {
            if (e.pick && field === e.pick.field) {
              if (chosen.size !== e.pick.count) { toast(e.pick.prompt); return; }
              a[field] = [...chosen];
            } else if (e.number && field === e.number.field) {
              a[field] = Number(root.querySelector(`#${field}-${seat}`).value);
            }
          }
          return act(a);
        } }, b.label));
      const n = e.number;
      return h("div", { class: "decision", role: "group", "aria-label": `Seat ${seat}: ${p.election}` },
        h("strong", {}, `Your decision: ${p.election}`), " · ",
        clock ? h("span", { class: "clock", dataset: { clock: clock.seconds } }, `${Math.ceil(clock.seconds)} s left`) : null,
        n ? h("label", {}, ` ${n.label} `, h("input", { id: `${n.field}-${seat}`, type: "number", min: n.min, max: n.max, value: n.value, size: 3 })) : null,
        h("div", { class: "row" }, buttons));
    });
  }

  // The player's seat: its cards and hand named, its wagers, the wager form while wagers are
  // taken, its decisions, and its statement; a seat with no hand once wagers close is "sitting
  // out".  The seat's last settled result (the server keeps it until the player's next wager)
  // stays in a "Last round" panel, in place of the finished round's own statement.
  function ownSeat(seat) {
    const own = view.mine[String(seat)];
    const all = layout().decisions || {};
    const picking = (own.pending || []).map((p) => p.seat === seat && all[p.election] && all[p.election].pick).find(Boolean);
    const seen = ((view.public && view.public.others) || []).find((o) => o.seat === seat) || {};
    const wagers = Object.entries(seen.wagers || {});
    // wagers are taken in the phases the layout names (until "No more bets")
    const w = layout().wager;
    const betting = w && w.phases.includes(own.phase) && !view.finished && !wagers.length;
    const out = (view.sitting_out || []).includes(seat);
    const last = (view.last || {})[String(seat)];
    const showLast = last && (last.round === view.round || !wagers.length);
    const thisRound = !(last && last.round === view.round);
    const gone = new Set(own.discarded || []);
    const kept = (own.own_cards || []).filter((c) => !gone.has(c));
    return h("section", { class: "panel mine", "aria-label": `Your seat ${seat}`, dataset: { seat } },
      h("h2", {}, `Your seat ${seat}`, " ", h("span", { class: "tag" }, out ? "sitting out" : own.phase)),
      thisRound && (kept.length || !showLast) ? hand(picking ? own.own_cards : kept, 0, picking ? { each: (c) => ({ button: true, selected: chosen.has(c), onclick: () => {
        if (chosen.has(c)) chosen.delete(c); else if (chosen.size < picking.count) chosen.add(c);
        draw();
      } }) } : {}) : null,
      thisRound && gone.size ? h("span", { class: "discarded", "aria-label": `Discarded: ${[...gone].join(" ")}` },
        h("span", { class: "discarded-word" }, "Discarded"), hand([...gone])) : null,
      thisRound && own.hand ? h("p", { class: "hand-name" }, "Your hand: ", h("strong", {}, own.hand)) : null,
      wagers.length && thisRound ? h("p", {}, "Wagers: ", wagers.map(([k, v]) => `${k} ${money(v)}`).join(", ")) : null,
      out && !showLast ? h("p", { class: "muted" }, "Sitting out this round: no wager placed.") : null,
      betting ? wagerForm(seat, w) : null,
      decisions(seat, own),
      own.void_reason && thisRound ? h("p", { class: "error" }, own.void_reason) : null,
      thisRound ? linesTable(own.lines) : null,
      showLast ? lastRound(seat, last) : null);
  }

  // The seat's last settled result: the round, the hands named, each line with its reason, the
  // net; it stays until the player's next wager is accepted.
  function lastRound(seat, last) {
    const net = Number(last.net);
    return h("section", { class: "last-round", "aria-label": `Seat ${seat}: last round`, dataset: { round: last.round } },
      h("h3", {}, `Last round: round ${last.number}`),
      seatHands(last, layout()),
      last.void_reason ? h("p", { class: "error" }, last.void_reason) : null,
      linesTable(last.lines),
      h("p", { class: "net " + (net > 0 ? "up" : net < 0 ? "down" : "even") }, "Net ", net > 0 ? "+" : "", money(last.net)),
      last.round === view.round ? null : h("p", { class: "muted" }, "This stays until your next wager."));
  }

  function dealer(pub) {
    const hole = holeCard(pub, layout());
    return h("section", { class: "panel dealer", "aria-label": "Dealer" }, h("h2", {}, "Dealer"),
      dealerHand(pub, layout()),
      hole ? h("p", {}, `${layout().dealer.hole_label} `, hand([hole])) : null,
      pub.dealer_hand ? h("p", { class: "hand-name" }, "Dealer's hand: ", h("strong", {}, pub.dealer_hand)) : null);
  }

  function others(pub) {
    const mine = new Set(mySeats());
    const rows = (pub.others || []).filter((o) => !mine.has(o.seat)).map((o) => h("li", { class: "panel other", dataset: { seat: o.seat } },
      h("h3", {}, `Seat ${o.seat}`, view.seats[String(o.seat)] ? ` · ${view.seats[String(o.seat)]}` : "", " ", h("span", { class: "tag" }, o.status || "")),
      hand(o.cards || [], Math.max(0, (o.card_count || o.cards.length) - o.cards.length)),
      o.hand ? h("p", { class: "hand-name" }, "Hand: ", h("strong", {}, o.hand)) : null,
      Object.keys(o.wagers || {}).length ? h("p", { class: "muted" }, Object.entries(o.wagers).map(([k, v]) => `${k} ${money(v)}`).join(", ")) : null));
    const listed = new Set((pub.others || []).map((o) => o.seat));
    for (const n of view.sitting_out || []) {
      if (mine.has(n) || listed.has(n)) continue;
      rows.push(h("li", { class: "panel other", dataset: { seat: n } },
        h("h3", {}, `Seat ${n}`, view.seats[String(n)] ? ` · ${view.seats[String(n)]}` : "", " ", h("span", { class: "tag" }, "sitting out"))));
    }
    return rows.length ? h("ul", { class: "grid others", role: "list", "aria-label": "Other seats" }, rows) : null;
  }

  function draw() {
    if (!view) { mount(root, h("h1", {}, tableId), status, h("p", {}, "Waiting for the table…")); return; }
    const pub = view.public;
    const seated = seatedHere();
    const free = info ? Array.from({ length: info.seats }, (_, i) => i + 1).filter((n) => !(String(n) in view.seats)) : [];
    const sitRow = !seated.length && view.open ? h("div", { class: "row" }, free.map((n) => h("button", { type: "button",
      onclick: async () => { try { await api("POST", `/api/tables/${encodeURIComponent(tableId)}/sit`, { seat: n }); } catch (e) { toast(e.message); } } }, `Sit at seat ${n}`))) : null;
    mount(root, h("div", { class: "table-screen", dataset: { table: tableId, round: view.round || "", seq: view.seq ?? "", number: view.number ?? "", finished: String(!!view.finished) } },
      h("div", { class: "table-head" },
        h("h1", {}, `${tableId} `, h("span", { class: "tag" }, gameName(view.game))),
        status,
        h("p", {}, info ? `${wagerWord(info.layout)} ${money(info.minimum)} to ${money(info.maximum)} · ` : "", view.open ? "open" : "closed",
          view.number ? ` · round ${view.number}` : "", view.finished ? " (finished: the next round opens shortly)" : ""),
        h("div", { class: "row" },
          h("button", { type: "button", onclick: showGuide }, "Rules and pay tables"),
          seated.map((n) => h("button", { type: "button", onclick: async () => {
            try { await api("POST", `/api/tables/${encodeURIComponent(tableId)}/stand`, { seat: n }); } catch (e) { toast(e.message); }
          } }, `Leave seat ${n}`)))),
      sitRow,
      pub ? dealer(pub) : h("p", {}, "No round yet."),
      mySeats().map(ownSeat),
      pub ? others(pub) : null));
    tick();
  }

  draw();
  return () => { gone = true; clearInterval(timer); live.close(); guideBox.remove(); };
}
