// The player's table: seats, the cards the rules let this player see, wagers with chips, each
// decision with its remaining time, the settlement, and the balance.  Everything shown comes from
// the view the server built for this player; the page keeps nothing else.  What is particular to
// the game (the wager spots, each decision's buttons, how the dealer's cards show) is the table's
// layout, from the lobby.
import { api, Live, session } from "./api.js";
import { h, mount, toast, money } from "./dom.js";
import { dealerHand, dealerLabel, hand, holeCard } from "./cards.js";
import { gameName, linesTable, meterBanner, phaseWords, refreshBalance, seatHands, toOwnTableScreen, wagerWord } from "./app.js";

export function tableScreen(root, tableId) {
  let view = null;
  let info = null;
  let chosen = new Set(); // the cards picked for a decision that takes some (a discard)
  const forms = new Map(); // seat -> its wager form, kept while the round takes wagers
  const placing = new Map(); // "seat election" -> the amount typed for a decision that takes one
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
  // the wager form and the buttons that place money check the balance: follow it as it moves
  const balanceWatch = new MutationObserver(() => { if (!gone) draw(); });
  balanceWatch.observe(document.getElementById("balance"), { attributes: true, attributeFilter: ["data-balance"] });

  let gone = false;
  function onMessage(msg) {
    if (gone) return;
    if (msg.type === "table" && msg.table === tableId) {
      if (toOwnTableScreen(msg.game, tableId)) return;
      const settled = msg.finished && !(view && view.finished && view.round === msg.round);
      if (view && msg.round !== view.round) { chosen = new Set(); placing.clear(); }
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

  // One action in flight at a time: its buttons stay disabled until the answer comes (the new
  // view comes before it), so a second tap never sends the same decision twice.
  let sending = 0;
  async function act(action) {
    sending++;
    draw();
    try {
      await live.act(tableId, action, view && !view.finished ? view.round : null);
      refreshBalance();
    } catch (e) { toast(e.message); } finally { sending--; draw(); }
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

  // The wager form, drawn from the layout's spots: each amount the player chooses typed (dollars
  // and cents) or built from chips, the spots that follow another shown as they follow, the total
  // at risk, "Repeat last wager", and the place button, disabled with the reason whenever the
  // server would refuse the wager (limits, step, the balance: 13:69O-1.4(h)).  The form is built
  // once a seat and round and kept across redraws, so what is being typed is never lost.
  function wagerForm(seat, w) {
    let form = forms.get(seat);
    if (!form || form.round !== view.round) {
      form = buildWagerForm(seat, w);
      forms.set(seat, form);
    }
    form.refresh();
    return form.el;
  }

  function balanceCents() {
    const text = document.getElementById("balance").dataset.balance;
    return text === undefined ? null : toCents(text);
  }

  function lastWagerKey() { return `felt.last-wager.${tableId}`; }

  function buildWagerForm(seat, w) {
    const chosen = w.spots.filter((s) => s.follows === undefined);
    const texts = {}; // field -> the amount as typed
    const first = chosen.find((s) => !s.optional) || chosen[0];
    for (const s of chosen) texts[s.field] = s === first ? s.minimum : "";
    const inputs = {};
    const chipRows = {};
    const follows = w.spots.filter((s) => s.follows !== undefined).map((s) => ({ spot: s, text: h("span", {}) }));
    const total = h("span", { class: "total-amount" });
    const reason = h("p", { id: `wager-reason-${seat}`, class: "reason", role: "status" });
    const place = h("button", { type: "button", id: `wager-place-${seat}`, class: "primary", "aria-describedby": reason.id,
      onclick: () => placeWager(seat, w, form) });
    const repeat = h("button", { type: "button", id: `wager-repeat-${seat}`, onclick: () => {
      const last = JSON.parse(sessionStorage.getItem(lastWagerKey()) || "null");
      if (!last) return;
      for (const s of chosen) texts[s.field] = last[s.field] || "";
      form.refresh();
      place.focus();
    } }, "Repeat last wager");
    const clear = h("button", { type: "button", id: `wager-clear-${seat}`, onclick: () => {
      for (const s of chosen) texts[s.field] = "";
      form.refresh();
    } }, "Clear");
    const spots = {};
    for (const s of chosen) spots[s.field] = (() => {
      const id = `wager-${s.field}-${seat}`;
      const lo = toCents(s.minimum), hi = toCents(s.maximum), step = toCents(s.step);
      inputs[s.field] = h("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", size: 9,
        placeholder: s.optional ? "none" : "", "aria-describedby": `${id}-limits`,
        oninput: (e) => { texts[s.field] = e.target.value; form.refresh(); } });
      const denominations = CHIPS.filter((c) => c <= hi && c % step === 0);
      chipRows[s.field] = denominations.map((c) => h("button", { type: "button", class: "chip", id: `chip-${s.field}-${seat}-${c}`,
        dataset: { chip: c }, "aria-label": `Add ${chipText(c)} to the ${s.label.toLowerCase()}`,
        onclick: () => {
          const now = toCents(texts[s.field]);
          texts[s.field] = dollarsOf((Number.isInteger(now) ? now : 0) + c);
          form.refresh();
        } }, chipText(c)));
      return h("div", { class: "spot", dataset: { field: s.field, minimum: s.minimum, maximum: s.maximum, ...(s.optional ? { optional: "true" } : {}) } },
        h("div", { class: "row" }, h("label", { for: id }, s.label), h("span", { class: "amount" }, h("span", { "aria-hidden": "true" }, "$"), inputs[s.field]),
          h("span", { id: `${id}-limits`, class: "muted" }, `${money(s.minimum)} to ${money(s.maximum)}`,
            step > 1 ? ` in steps of ${money(s.step)}` : "", s.optional ? " · optional" : "",
            s.count > 1 ? ` · placed ${s.count} times` : "")),
        h("div", { class: "row chips", role: "group", "aria-label": `Chips for the ${s.label.toLowerCase()}` }, chipRows[s.field]));
    })();
    const form = {
      round: view.round,
      el: h("fieldset", { class: "wager" },
        h("legend", {}, `Seat ${seat}: ${w.legend}`),
        w.spots.map((s) => spots[s.field] || h("p", { class: "follows", dataset: { field: s.field } },
          follows.find((f) => f.spot === s).text)),
        h("p", { class: "total" }, "Total at risk ", total),
        reason,
        h("div", { class: "row" }, place, repeat, clear)),
      verdict: null,
      texts,
      refresh() {
        const balance = balanceCents();
        const v = wagerVerdict(w, texts, balance);
        form.verdict = v;
        for (const s of chosen) {
          if (inputs[s.field].value !== texts[s.field]) inputs[s.field].value = texts[s.field];
          inputs[s.field].setAttribute("aria-invalid", String(v.field === s.field));
          const now = toCents(texts[s.field]);
          for (const chip of chipRows[s.field]) chip.disabled = (Number.isInteger(now) ? now : 0) + Number(chip.dataset.chip) > toCents(s.maximum);
        }
        for (const f of follows) {
          const a = v.amounts[f.spot.field];
          f.text.textContent = `${f.spot.label} ${Number.isInteger(a) ? money(dollarsOf(a)) : "—"} (${f.spot.times} × the ${labelOf(w, f.spot.follows).toLowerCase()})`;
        }
        total.textContent = Number.isInteger(v.total) ? money(dollarsOf(v.total)) : "—";
        reason.textContent = v.reason || "";
        place.disabled = !!v.reason || sending > 0;
        place.textContent = Number.isInteger(v.total) && v.total > 0 ? `${w.button} ${money(dollarsOf(v.total))}` : w.button;
        const last = JSON.parse(sessionStorage.getItem(lastWagerKey()) || "null");
        const again = last && wagerVerdict(w, Object.fromEntries(chosen.map((s) => [s.field, last[s.field] || ""])), balance);
        repeat.hidden = !again || !!again.reason;
        if (again && !again.reason) repeat.textContent = `Repeat last wager ${money(dollarsOf(again.total))}`;
      },
    };
    return form;
  }

  async function placeWager(seat, w, form) {
    const v = wagerVerdict(w, form.texts, balanceCents());
    if (v.reason) { toast(v.reason); return; }
    const a = { action: w.action, seat };
    for (const s of w.spots) if (v.amounts[s.field]) a[s.field] = dollarsOf(v.amounts[s.field]);
    sending++;
    form.refresh();
    try {
      await live.act(tableId, a, view && !view.finished ? view.round : null);
      const last = {};
      for (const s of w.spots) if (s.follows === undefined && v.amounts[s.field]) last[s.field] = dollarsOf(v.amounts[s.field]);
      sessionStorage.setItem(lastWagerKey(), JSON.stringify(last));
      refreshBalance();
    } catch (e) { toast(e.message); } finally { sending--; form.refresh(); }
  }

  // Each election pending at the seat with its buttons, and what it takes besides (cards picked
  // from the hand, a number, an amount).  A button that places money says how much ("Second wager
  // $20.00": the layout's ``places``, from the seat's wagers in the view) and is disabled with
  // the reason when the amount is more than the balance (13:69O-1.4(h)).
  function decisions(seat, own) {
    const pending = (own.pending || []).filter((p) => p.seat === seat);
    const all = layout().decisions || {};
    const seen = ((view.public && view.public.others) || []).find((o) => o.seat === seat) || {};
    return pending.map((p) => {
      const clock = (view.clock || []).find((c) => c.seat === seat && c.election === p.election);
      const e = all[p.election] || { buttons: [] };
      const extra = [];
      const buttons = e.buttons.map((b) => {
        const pl = b.places;
        const full = pl ? toCents((seen.wagers || {})[pl.wager] || "0") * pl.times : 0;
        const key = `${seat} ${p.election}`;
        const reason = pl ? h("p", { class: "reason", role: "status", id: `reason-${b.action.action}-${seat}` }) : null;
        const button = h("button", {
          type: "button", class: b.primary ? "primary" : "", disabled: sending > 0,
          dataset: { action: b.action.action }, "aria-describedby": reason ? reason.id : null,
          onclick: () => {
            const a = { ...b.action, seat };
            for (const field of b.adds || []) {
              if (e.pick && field === e.pick.field) {
                if (chosen.size !== e.pick.count) { toast(e.pick.prompt); return; }
                a[field] = [...chosen];
              } else if (e.number && field === e.number.field) {
                a[field] = Number(root.querySelector(`#${field}-${seat}`).value);
              } else if (pl && field === pl.field) {
                a[field] = dollarsOf(toCents(placing.get(key) ?? dollarsOf(full)));
              }
            }
            return act(a);
          } }, b.label);
        if (!pl) return button;
        // the amount the button places, checked as the server checks it
        const update = () => {
          const text = pl.field ? (placing.get(key) ?? dollarsOf(full)) : dollarsOf(full);
          const a = toCents(text);
          const balance = balanceCents();
          let why = null;
          if (pl.field && (!Number.isInteger(a) || a < toCents(pl.minimum) || a > full || a % toCents(pl.step) !== 0)) {
            why = `The amount must be ${money(pl.minimum)} to ${money(dollarsOf(full))}, in whole cents`;
          } else if (balance !== null && Number.isFinite(balance) && a > balance) {
            why = `${money(dollarsOf(a))} is more than your balance ${money(dollarsOf(balance))}`;
          }
          button.textContent = Number.isInteger(a) ? `${pl.label} ${money(dollarsOf(a))}` : pl.label;
          button.disabled = !!why || sending > 0;
          reason.textContent = why || "";
        };
        if (pl.field) {
          const id = `place-${pl.field}-${seat}`;
          extra.push(h("label", { for: id }, ` ${pl.label} `), h("input", { id, type: "text", inputmode: "decimal", size: 9,
            autocomplete: "off", value: placing.get(key) ?? dollarsOf(full),
            oninput: (ev) => { placing.set(key, ev.target.value); update(); } }),
          h("span", { class: "muted" }, ` ${money(pl.minimum)} to ${money(dollarsOf(full))}`));
        }
        update();
        extra.push(reason);
        return button;
      });
      const n = e.number;
      return h("div", { class: "decision", role: "group", "aria-label": `Seat ${seat}: ${p.election}` },
        h("strong", {}, `Your decision: ${p.election}`), " · ",
        clock ? h("span", { class: "clock", dataset: { clock: clock.seconds } }, `${Math.ceil(clock.seconds)} s left`) : null,
        n ? h("label", {}, ` ${n.label} `, h("input", { id: `${n.field}-${seat}`, type: "number", min: n.min, max: n.max, value: n.value, size: 3 })) : null,
        extra.filter((x) => x.tagName !== "P"),
        h("div", { class: "row" }, buttons),
        extra.filter((x) => x.tagName === "P"));
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
      h("h2", {}, `Your seat ${seat}`, " ", h("span", { class: "tag", dataset: { phase: own.phase } }, out ? "sitting out" : phaseWords(layout(), own.phase, view.finished))),
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
    const label = dealerLabel(layout());
    return h("section", { class: "panel dealer", "aria-label": label }, h("h2", {}, label),
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
        meterBanner(view),
        view.blocked ? h("p", { class: "blocked", role: "status" }, "No new round: ", view.blocked) : null,
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
  return () => { gone = true; clearInterval(timer); balanceWatch.disconnect(); live.close(); guideBox.remove(); };
}

// ----------------------------------------------------------------- wager amounts
// Amounts on the screen are dollar strings, as the layout and the server write them; the form
// reckons in whole cents, as the server does.

const CHIPS = [100, 500, 2500, 10000, 50000, 100000, 500000, 2500000];
// the usual casino chip denominations in cents: $1, $5, $25, $100, $500, $1,000, $5,000, $25,000

// Dollars as typed ("7.35", "$1,250", "20") in cents: a fraction of a cent stays a fraction (it is
// off any step), NaN when the text is no amount, Infinity when it is beyond any limit.
export function toCents(text) {
  const t = String(text ?? "").trim().replace(/^\$/, "");
  if (!/^(\d{1,3}(,\d{3})+|\d+)?(\.\d*)?$/.test(t) || !/\d/.test(t)) return NaN;
  const [whole, frac = ""] = t.replace(/,/g, "").split(".");
  if (whole.replace(/^0+/, "").length > 9) return Infinity;
  const cents = Number(whole || "0") * 100 + Number((frac + "00").slice(0, 2));
  const rest = frac.slice(2).replace(/0+$/, "");
  return rest ? cents + Number(`0.${rest}`) : cents;
}

export function dollarsOf(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

function chipText(cents) {
  return `$${(cents / 100).toLocaleString("en-US")}`;
}

function labelOf(w, field) {
  const s = w.spots.find((x) => x.field === field);
  return s ? s.label : field;
}

// What the wager form would send for the amounts typed (``texts``: field -> text) and whether
// the server would take it: {amounts (cents, 0 for a spot left empty), total, reason (null when
// it would), field (the spot at fault)}.  The rules are the layout's (base.py TableGame.layout):
// every spot not optional placed, at least one spot, each chosen amount within its limits and on
// its step, a following spot its times the one it follows, the total within the balance
// (13:69O-1.4(h); ``balance`` in cents, null when not known).
export function wagerVerdict(w, texts, balance) {
  const amounts = {};
  let reason = null;
  let field = null;
  const fault = (s, why) => { if (!reason) { reason = why; field = s.field; } };
  for (const s of w.spots.filter((x) => x.follows === undefined)) {
    const text = String(texts[s.field] ?? "").trim();
    const name = s.label.toLowerCase();
    const a = text ? toCents(text) : 0;
    amounts[s.field] = a;
    if (Number.isNaN(a)) fault(s, `Type the ${name} in dollars and cents, such as ${s.minimum}`);
    else if (a === 0 && !s.optional) fault(s, `Place the ${name}: ${money(s.minimum)} to ${money(s.maximum)}`);
    else if (a !== 0 && (a < toCents(s.minimum) || a > toCents(s.maximum))) fault(s, `The ${name} must be ${money(s.minimum)} to ${money(s.maximum)}`);
    else if (a !== 0 && (!Number.isInteger(a) || a % toCents(s.step) !== 0)) {
      fault(s, toCents(s.step) === 1 ? `The ${name} must be in whole cents` : `The ${name} must be in steps of ${money(s.step)}`);
    }
  }
  for (const s of w.spots.filter((x) => x.follows !== undefined)) amounts[s.field] = s.times * amounts[s.follows];
  // a spot of ``count`` equal wagers (three at Let It Ride) puts its amount on each of them
  const values = w.spots.map((s) => amounts[s.field] * (s.count || 1));
  const total = values.every(Number.isFinite) ? values.reduce((x, y) => x + y, 0) : NaN;
  if (!reason && total === 0) {
    reason = `Place ${w.spots.filter((x) => x.follows === undefined).map((x) => `the ${x.label.toLowerCase()}`).join(" or ")}`;
  }
  if (!reason && balance !== null && Number.isFinite(balance) && total > balance) {
    reason = `The total ${money(dollarsOf(total))} is more than your balance ${money(dollarsOf(balance))}`;
  }
  return { amounts, total, reason, field };
}
