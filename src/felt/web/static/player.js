// The player's table: seats, the cards the rules let this player see, wagers with chips, each
// decision with its remaining time, the settlement, and the balance.  Everything shown comes from
// the view the server built for this player; the page keeps nothing else.
import { api, Live, session } from "./api.js";
import { h, mount, toast, money } from "./dom.js";
import { hand } from "./cards.js";
import { gameName, linesTable, refreshBalance } from "./app.js";

const ELECTIONS = {
  "expose or decline": [["expose", "Expose for the bonus"], ["decline", "Do not expose"]],
  "second or fold": [["second", "Second wager"], ["fold", "Fold"]],
  "discard or keep": [["discard", "Discard the two chosen"], ["keep", "Keep all seven"]],
  "double or stand": [["double", "Double down"], ["stand", "Stand"]],
  "cut or decline": [["cut", "Cut"], ["decline_cut", "Decline the cut"]],
};

export function tableScreen(root, tableId) {
  let view = null;
  let info = null;
  let chosen = new Set(); // Boston 7: the two cards to discard
  let ante = null;
  let bonus = false;
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

  function wagerForm(seat) {
    const dds = view.game === "double-down-stud";
    const min = info ? Number(info.minimum) : 5;
    const max = info ? Number(info.maximum) : 1000;
    const chips = [1, 2, 5, 10, 20].map((k) => k * min).filter((v) => v <= max);
    if (ante === null || !chips.includes(ante)) ante = chips[0];
    const ratio = info && info.first_ratio ? info.first_ratio : 2;
    const bonusMin = info && info.bonus_minimum ? Number(info.bonus_minimum) : 1;
    return h("fieldset", { class: "wager" },
      h("legend", {}, dds ? `Seat ${seat}: your wager` : `Seat ${seat}: ante (the first wager is ${ratio} × the ante)`),
      h("div", { class: "row chips", role: "radiogroup", "aria-label": "Chip value" },
        chips.map((v) => h("button", { type: "button", class: "chip" + (v === ante ? " on" : ""), role: "radio",
          "aria-checked": String(v === ante), onclick: () => { ante = v; draw(); } }, money(v.toFixed(2))))),
      dds ? null : h("label", { class: "check" }, h("input", { type: "checkbox", checked: bonus, onchange: (e) => { bonus = e.target.checked; } }),
        ` Optional bonus wager ${money(bonusMin.toFixed(2))}`),
      h("button", { type: "button", class: "primary", onclick: () => {
        if (dds) return act({ action: "bet", seat, amount: ante.toFixed(2) });
        const a = { action: "wager", seat, ante: ante.toFixed(2), first: (ante * ratio).toFixed(2) };
        if (bonus) a.bonus = bonusMin.toFixed(2);
        return act(a);
      } }, dds ? `Bet ${money(ante.toFixed(2))}` : `Wager ${money(ante.toFixed(2))} + ${money((ante * ratio).toFixed(2))}`));
  }

  function decisions(seat, own) {
    const pending = (own.pending || []).filter((p) => p.seat === seat);
    return pending.map((p) => {
      const clock = (view.clock || []).find((c) => c.seat === seat && c.election === p.election);
      const buttons = (ELECTIONS[p.election] || []).map(([name, label]) => h("button", {
        type: "button", class: name === "fold" || name === "stand" || name === "decline" ? "" : "primary",
        dataset: { action: name },
        onclick: () => {
          if (name === "discard") {
            if (chosen.size !== 2) { toast("Choose the two cards to discard first"); return; }
            return act({ action: "discard", seat, cards: [...chosen] });
          }
          if (name === "cut") {
            const pos = Number(root.querySelector(`#cut-${seat}`).value);
            return act({ action: "cut", seat, position: pos });
          }
          return act({ action: name, seat });
        } }, label));
      return h("div", { class: "decision", role: "group", "aria-label": `Seat ${seat}: ${p.election}` },
        h("strong", {}, `Your decision: ${p.election}`), " · ",
        clock ? h("span", { class: "clock", dataset: { clock: clock.seconds } }, `${Math.ceil(clock.seconds)} s left`) : null,
        p.election === "cut or decline" ? h("label", {}, " Position ", h("input", { id: `cut-${seat}`, type: "number", min: 1, max: 51, value: 26, size: 3 })) : null,
        h("div", { class: "row" }, buttons));
    });
  }

  function ownSeat(seat) {
    const own = view.mine[String(seat)];
    const discarding = (own.pending || []).some((p) => p.seat === seat && p.election === "discard or keep");
    const seen = ((view.public && view.public.others) || []).find((o) => o.seat === seat) || {};
    const wagers = Object.entries(seen.wagers || {});
    // wagers are taken until "No more bets": in Double Down Stud also while the cut is offered
    // and after it (19:47-17.6, 17.4)
    const open = view.game === "double-down-stud" ? ["betting", "cut", "cut done"] : ["betting"];
    const betting = open.includes(own.phase) && !view.finished && !wagers.length;
    return h("section", { class: "panel mine", "aria-label": `Your seat ${seat}`, dataset: { seat } },
      h("h2", {}, `Your seat ${seat}`, " ", h("span", { class: "tag" }, own.phase)),
      hand(own.own_cards, 0, discarding ? { each: (c) => ({ button: true, selected: chosen.has(c), onclick: () => {
        if (chosen.has(c)) chosen.delete(c); else if (chosen.size < 2) chosen.add(c);
        draw();
      } }) } : {}),
      wagers.length ? h("p", {}, "Wagers: ", wagers.map(([k, v]) => `${k} ${money(v)}`).join(", ")) : null,
      betting ? wagerForm(seat) : null,
      decisions(seat, own),
      own.void_reason ? h("p", { class: "error" }, own.void_reason) : null,
      linesTable(own.lines));
  }

  function dealer(pub) {
    if (view.game === "double-down-stud") {
      return h("section", { class: "panel dealer", "aria-label": "Dealer" }, h("h2", {}, "Dealer"),
        hand(pub.dealer_up || [], pub.hole_card ? 0 : (pub.dealer_up && pub.dealer_up.length ? 1 : 0)),
        pub.hole_card ? h("p", {}, "Hole card ", hand([pub.hole_card])) : null);
    }
    const shown = pub.dealer_cards || [];
    return h("section", { class: "panel dealer", "aria-label": "Dealer" }, h("h2", {}, "Dealer"),
      hand(shown, Math.max(0, (pub.dealer_card_count || 0) - shown.length)));
  }

  function others(pub) {
    const mine = new Set(mySeats());
    const rows = (pub.others || []).filter((o) => !mine.has(o.seat)).map((o) => h("li", { class: "panel other", dataset: { seat: o.seat } },
      h("h3", {}, `Seat ${o.seat}`, view.seats[String(o.seat)] ? ` · ${view.seats[String(o.seat)]}` : "", " ", h("span", { class: "tag" }, o.status || "")),
      hand(o.cards || [], Math.max(0, (o.card_count || o.cards.length) - o.cards.length)),
      Object.keys(o.wagers || {}).length ? h("p", { class: "muted" }, Object.entries(o.wagers).map(([k, v]) => `${k} ${money(v)}`).join(", ")) : null));
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
        h("p", {}, info ? `${view.game === "double-down-stud" ? "Wager" : "Ante"} ${money(info.minimum)} to ${money(info.maximum)} · ` : "", view.open ? "open" : "closed",
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
