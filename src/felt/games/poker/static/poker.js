// The poker room (N.J.A.C. 19:47-14.15 to 14.18): one screen of a poker table for every role.
// The table oval with each seat's stack, bet, cards (backs for the face-down ones), the button,
// the board, the pot and the side pots, whose turn it is with the time left to act; the player's
// own cards and hand, and on their turn only the choices the server's view gives (fold, check,
// call, bet or raise within its range, all in); sitting down, buying in and cashing out between
// hands; each hand's result.  The dealer's and the supervisor's console on the same screen: the
// next dealer step and a form for each irregularity of 14.15 the layout lists, with its clause.
// Everything shown comes from the table's view as the server built it for this account.
import { api, Live, session } from "/static/api.js";
import { h, mount, toast, money } from "/static/dom.js";
import { hand } from "/static/cards.js";
import { linesTable, phaseWords, refreshBalance } from "/static/app.js";
import { dollarsOf, toCents } from "/static/player.js";

export { waitlistScreen } from "./waitlist.js";

const WORDS = { fold: "Fold", check: "Check", call: "Call", bring_in: "Bring in", all_in: "All in", bet: "Bet", raise_to: "Raise to" };
const STATUS = { in: "in the hand", folded: "folded", "sitting in": "sitting in" };

// Where each of ``count`` seats sits round the oval, in percent of the ring: the dealer's place at
// the top, the seats clockwise from the dealer's left, spaced evenly along the rail (by its
// length, so a wide oval does not crowd the seats at its ends).
const ASPECT = 2; // the ring's width over its height at a desktop's width (poker.css)
const PLACES = {};
function places(count) {
  if (PLACES[count]) return PLACES[count];
  const steps = 720;
  const walk = [[-Math.PI / 2, 0]];
  for (let i = 1; i <= steps; i += 1) {
    const [t0, d0] = walk[i - 1];
    const t = -Math.PI / 2 + (2 * Math.PI * i) / steps;
    walk.push([t, d0 + Math.hypot(ASPECT * (Math.cos(t) - Math.cos(t0)), Math.sin(t) - Math.sin(t0))]);
  }
  const total = walk[steps][1];
  PLACES[count] = Array.from({ length: count }, (_, k) => {
    const [t] = walk.find(([, d]) => d >= (total * (k + 1)) / (count + 1));
    return `left: ${(50 + 42 * Math.cos(t)).toFixed(2)}%; top: ${(50 + 41 * Math.sin(t)).toFixed(2)}%;`;
  });
  return PLACES[count];
}

// Why an amount typed for a wager (dollars) cannot be sent, or "" when it can: within the range
// the view gives, in whole cents (the server checks the same, and says so if it refuses).
export function amountProblem(text, minimum, maximum) {
  const a = toCents(text);
  if (!Number.isInteger(a)) return `Type an amount in dollars and cents from ${money(minimum)} to ${money(maximum)}`;
  if (a < toCents(minimum) || a > toCents(maximum)) return `The amount must be ${money(minimum)} to ${money(maximum)}`;
  return "";
}

// "-6.00" -> -600: a statement line's amount, signed.
function signedCents(text) {
  const t = String(text);
  return t.startsWith("-") ? -toCents(t.slice(1)) : toCents(t);
}

export async function pokerTable(root, tableId, alive) {
  const me = session.get();
  const staff = me.role === "dealer" || me.role === "supervisor";
  let view = null;
  let info = null;
  let gone = false;
  let sending = 0; // one action in flight at a time: the buttons wait for its answer
  const typed = new Map(); // what is being typed (a raise, a buy-in), kept across redraws
  const status = h("span", { class: "live", role: "status" }, "Connecting…");
  const live = new Live((msg) => {
    if (gone) return;
    if (msg.type === "table" && msg.table === tableId) {
      const settled = msg.finished && !(view && view.finished && view.round === msg.round);
      if (view && view.round !== msg.round) typed.delete("raise");
      view = msg;
      view.receivedAt = performance.now();
      draw();
      if (settled) refreshBalance();
    } else if (msg.type === "error") toast(msg.error);
  }, (state) => {
    status.textContent = { live: "Live", reconnecting: "Connection lost: reconnecting…", ended: "Session ended: log in again" }[state];
    status.dataset.state = state;
  });
  live.subscribe(tableId);
  api("GET", "/api/lobby").then((ts) => { if (gone) return; info = ts.find((t) => t.id === tableId) || null; draw(); }).catch(() => {});
  const timer = setInterval(tick, 250);

  async function act(action) {
    sending += 1;
    draw();
    try {
      await live.act(tableId, action, view && !view.finished ? view.round : null);
      refreshBalance();
    } catch (e) { toast(e.message); } finally { sending -= 1; draw(); }
  }

  async function post(path, body) {
    sending += 1;
    draw();
    try { await api("POST", `/api/tables/${encodeURIComponent(tableId)}/${path}`, body); refreshBalance(); }
    catch (e) { toast(e.message); } finally { sending -= 1; draw(); }
  }

  // the decision clock counts down between views (view.clock: the seconds left when it was sent)
  function tick() {
    if (!view) return;
    const passed = (performance.now() - view.receivedAt) / 1000;
    for (const el of root.querySelectorAll("[data-clock]")) {
      const left = Math.max(0, Number(el.dataset.clock) - passed);
      el.textContent = `${Math.ceil(left)} s left`;
      el.classList.toggle("urgent", left < 10);
    }
  }

  const layout = () => (info && info.layout) || {};
  const pub = () => (view && view.public) || {};
  const mySeats = () => (me.role === "player" && view && view.mine ? Object.keys(view.mine).map(Number) : []);
  const other = (n) => (pub().others || []).find((o) => o.seat === n) || null;
  const clockOf = (n) => (view.clock || []).find((c) => c.seat === n) || null;
  const clock = (n) => { const c = clockOf(n); return c ? h("span", { class: "clock", dataset: { clock: c.seconds } }, `${Math.ceil(c.seconds)} s left`) : null; };
  const balance = () => { const b = document.getElementById("balance").dataset.balance; return b === undefined ? null : toCents(b); };

  // One seat round the oval: who sits there, the stack, the bet in front, the cards, the button.
  function seatBox(n, count) {
    const name = view.seats[String(n)];
    const o = other(n);
    const own = view.mine && view.mine[String(n)];
    const p = pub();
    const acting = p.to_act === n && !view.finished;
    const stack = own ? own.stack : o ? o.stack : null;
    const bet = own ? own.bet : o && o.wagers.bet;
    const cards = own ? own.own_cards || [] : (o && o.cards) || [];
    const down = own ? 0 : o ? Math.max(0, o.card_count - o.cards.length) : 0;
    const word = o ? (o.status === "in" && stack === "0.00" ? "all in" : STATUS[o.status] || o.status) : name ? "no chips" : "free";
    const canSit = !name && me.role === "player" && !mySeats().length && view.open;
    return h("div", { class: `seat${own ? " own" : ""}${acting ? " acting" : ""}${name ? "" : " empty"}`, style: places(count)[n - 1],
      dataset: { seat: n, status: word }, "aria-label": `Seat ${n}${name ? `, ${name}` : ", free"}${acting ? ", to act" : ""}` },
    h("div", { class: "seat-head" }, h("strong", {}, `Seat ${n}`),
      p.button === n ? h("span", { class: "button-puck", "aria-label": "Dealer button", title: "Dealer button" }, "D") : null),
    name ? h("div", { class: "seat-name" }, name) : null,
    canSit ? h("button", { type: "button", disabled: sending > 0, "aria-label": `Sit at seat ${n}`, onclick: () => post("sit", { seat: n }) }, "Sit") : null,
    stack !== null && stack !== undefined ? h("div", { class: "seat-stack" }, "Stack ", h("strong", {}, money(stack))) : null,
    cards.length || down ? hand(cards, down) : null,
    o && o.hand ? h("div", { class: "seat-hand", title: o.hand }, o.hand) : null,
    h("div", { class: "seat-foot" }, h("span", { class: "seat-status" }, word),
      bet && bet !== "0.00" ? h("span", { class: "bet-chip", "aria-label": `Bet ${money(bet)}` }, money(bet)) : null,
      acting ? clock(n) : null));
  }

  // The middle of the felt: the board, the pot and its side pots, whose turn it is.
  function centre() {
    const p = pub();
    const pots = p.pots || [];
    return h("div", { class: "centre", "aria-label": "Board and pot" },
      h("div", { class: "board", "aria-label": "Board" }, (p.board || []).length ? hand(p.board) : h("span", { class: "muted" }, "No board yet")),
      h("p", { class: "pot" }, "Pot ", h("strong", { class: "pot-amount" }, money(p.pot || "0.00"))),
      pots.length > 1 ? h("ul", { class: "pots", "aria-label": "Pots" }, pots.map((x, i) => h("li", {},
        `${i ? `Side pot ${i}` : "Main pot"} ${money(x.amount)} (seats ${x.seats.join(", ")})`))) : null,
      p.to_act && !view.finished ? h("p", { class: "to-act" }, `Seat ${p.to_act} to act `, clock(p.to_act)) : null);
  }

  function oval() {
    const count = (info && info.seats) || Math.max(2, ...Object.keys(view.seats).map(Number), ...(pub().others || []).map((o) => o.seat));
    const seats = [];
    for (let n = 1; n <= count; n += 1) seats.push(seatBox(n, count));
    return h("section", { class: "ring", "aria-label": "The table" }, h("div", { class: "oval" }, centre()), seats);
  }

  // The player's choices on their turn: only what the view gives, each with its amount; a bet or
  // a raise takes an amount typed within the view's range.
  function choices(seat, own) {
    const list = own.choices || [];
    if (!list.length) return null;
    const buttons = list.map((c) => {
      const word = WORDS[c.action] || c.action;
      if (c.minimum === undefined) {
        return h("button", { type: "button", class: c.action === "call" || c.action === "check" ? "primary" : null, disabled: sending > 0,
          dataset: { action: c.action }, onclick: () => act({ action: c.action, seat }) }, c.amount ? `${word} ${money(c.amount)}` : word);
      }
      const fixed = c.minimum === c.maximum;
      return amountForm({ key: "raise", id: `amount-${c.action}-${seat}`, word, action: c.action, fixed, start: c.minimum,
        low: c.minimum, high: c.maximum, check: () => "", send: (amount) => { typed.delete("raise"); act({ action: c.action, seat, amount }); } });
    });
    return h("div", { class: "choices", role: "group", "aria-label": `Seat ${seat}: your action` },
      h("p", {}, h("strong", {}, "Your turn"), " · ", clock(seat)), h("div", { class: "row" }, buttons));
  }

  // Between hands: buy in (the stack after it within the table's buy-in limits, 14.17) or add on,
  // cash the whole stack out, leave the seat.
  function sitting(seat, own) {
    const w = layout().wager;
    if (!w || pub().phase !== "betting" || view.finished) return null;
    const stack = toCents(own.stack);
    const low = Math.max(1, toCents(w.minimum) - stack);
    const high = toCents(w.maximum) - stack;
    const full = high <= 0 ? `Your stack is at the table's maximum buy-in ${money(w.maximum)}` : "";
    const wallet = balance();
    const check = (text) => (wallet !== null && toCents(text) > wallet ? `${money(dollarsOf(toCents(text)))} is more than your balance ${money(dollarsOf(wallet))}` : "");
    return h("div", { class: "sitting", role: "group", "aria-label": `Seat ${seat}: buy in or cash out` },
      h("div", { class: "row" },
        full ? h("p", { class: "muted" }, full) : amountForm({ key: "buy", id: `buy-in-${seat}`, word: "Buy in", action: "buy_in", fixed: false,
          start: dollarsOf(low), low: dollarsOf(low), high: dollarsOf(high), check, send: (amount) => { typed.delete("buy"); act({ action: "buy_in", seat, amount }); } }),
        stack > 0 ? h("button", { type: "button", disabled: sending > 0, dataset: { action: "cash_out" },
          onclick: () => act({ action: "cash_out", seat }) }, `Cash out ${money(own.stack)}`) : null));
  }

  // An amount typed (a bet or raise, a buy-in) and the button sending it: the button says how
  // much and is disabled with the reason whenever the server would refuse the amount; typing
  // updates them in place (the text is kept across redraws under ``key``).
  function amountForm({ key, id, word, action, fixed, start, low, high, check, send }) {
    const text = () => typed.get(key) ?? start;
    const why = h("span", { id: `${id}-why`, class: "reason", role: "status" });
    const button = h("button", { type: "button", class: "primary", dataset: { action }, "aria-describedby": why.id,
      onclick: () => { if (!update()) send(dollarsOf(toCents(text()))); } });
    const update = () => {
      const problem = amountProblem(text(), low, high) || check(text());
      why.textContent = problem;
      button.disabled = sending > 0 || !!problem;
      button.textContent = problem ? word : `${word} ${money(dollarsOf(toCents(text())))}`;
      return problem;
    };
    update();
    return h("span", { class: "amount-form" },
      fixed ? null : h("label", { for: id }, `${word} (${money(low)} to ${money(high)}) $`),
      fixed ? null : h("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", size: 8, value: text(),
        oninput: (ev) => { typed.set(key, ev.target.value); update(); } }),
      button, why);
  }

  // A seat's result once its hand is over: the lines, and the hand it held.
  function result(seat, r, cls) {
    if (!r || !(r.lines || []).length) return null;
    const net = (r.lines || []).reduce((a, l) => a + signedCents(l.amount), 0);
    return h("section", { class: cls, "aria-label": `Seat ${seat}: result`, dataset: r.round ? { round: r.round } : {} },
      h("h3", {}, r.number ? `Hand ${r.number}` : "This hand"),
      cls === "last-round" && (r.own_cards || []).length ? h("p", {}, "Your cards ", hand(r.own_cards)) : null,
      cls === "last-round" && r.hand ? h("p", { class: "hand-name" }, "Your hand: ", h("strong", {}, r.hand)) : null,
      linesTable(r.lines),
      h("p", { class: `net ${net > 0 ? "up" : net < 0 ? "down" : "even"}` }, "Net ", net > 0 ? "+" : net < 0 ? "-" : "", money(dollarsOf(Math.abs(net)))));
  }

  function ownSeat(seat) {
    const own = view.mine[String(seat)];
    const seen = other(seat); // a seat still in a hand in play stays seated until it is over
    const inHand = !view.finished && pub().phase === "playing" && !!seen && seen.status === "in";
    const last = (view.last || {})[String(seat)];
    return h("section", { class: "panel own-seat", dataset: { seat }, "aria-label": `Your seat ${seat}` },
      h("div", { class: "row own-head" }, h("h2", {}, `Your seat ${seat} `, h("span", { class: "tag" }, phaseWords(layout(), own.phase, view.finished))),
        h("span", {}, "Stack ", h("strong", { class: "own-stack" }, money(own.stack)), own.bet !== "0.00" ? ` · bet ${money(own.bet)}` : "")),
      choices(seat, own),
      (own.own_cards || []).length ? h("div", { class: "own-cards" }, hand(own.own_cards)) : null,
      own.hand ? h("p", { class: "hand-name" }, "Your hand: ", h("strong", {}, own.hand)) : null,
      inHand && !(own.choices || []).length && pub().to_act ? h("p", { class: "muted" }, `Waiting for seat ${pub().to_act}`) : null,
      sitting(seat, own),
      inHand ? null : h("button", { type: "button", disabled: sending > 0, "aria-label": `Leave seat ${seat}`,
        onclick: () => post("stand", { seat }) }, `Leave seat ${seat}`),
      view.finished ? result(seat, own, "this-hand") : null,
      last && last.round !== view.round ? result(seat, last, "last-round") : null);
  }

  // The dealer's console: the next step (every step at a manual table, or sooner than the
  // table's pace), and each irregularity of 14.15 as a form with its clause and fields.
  function console_() {
    const step = view.next_step || null;
    const name = step && (step.dealer || step.action);
    const words = name && ((layout().dealer_steps || {})[name] || name.replaceAll("_", " "));
    const forms = (layout().irregularities || []).map((x) => {
      const kind = (f) => f.kind || (f.text ? "text" : "number");
      const inputs = x.fields.map((f) => {
        const id = `irr-${x.name}-${f.field}`;
        const attrs = { text: { type: "text", size: 4, autocomplete: "off" }, bool: { type: "checkbox" },
          number: { type: "number", min: 1, step: 1, inputmode: "numeric" } }[kind(f)] || { type: "text" };
        return h("span", { class: "field" }, h("label", { for: id }, f.label), h("input", { id, name: f.field, ...attrs }));
      });
      return h("form", { class: "irregularity", dataset: { irregularity: x.name }, onsubmit: (ev) => {
        ev.preventDefault();
        const action = { irregularity: x.name };
        for (const f of x.fields) { // each field as its kind: text as typed, a number, true or false
          const input = ev.currentTarget.elements[f.field];
          const v = input.value.trim();
          if (kind(f) === "bool") action[f.field] = input.checked;
          else if (v !== "") action[f.field] = kind(f) === "number" ? Number(v) : v;
        }
        act(action);
      } }, h("fieldset", {}, h("legend", {}, x.label), inputs,
        h("button", { type: "submit", disabled: sending > 0 || !view.round || view.finished, "aria-label": `Record: ${x.label}` }, "Record")));
    });
    return h("section", { class: "panel poker-console", "aria-label": "Dealer's console" },
      h("h2", {}, me.role === "supervisor" ? "Supervisor's console" : "Dealer's console"),
      h("p", { class: "muted" }, view.dealer === "manual" ? "You take every step at this table." : "The table takes its steps by itself; you may take the next one sooner."),
      step ? h("button", { type: "button", id: "next-step", class: "primary", disabled: sending > 0, dataset: { step: name },
        onclick: () => act(step) }, words) : h("p", { class: "muted no-step" }, view.finished ? "Hand over: the next opens shortly"
        : (pub().pending || []).length ? "Waiting for the player to act" : "Waiting for the players to buy in"),
      h("h3", {}, "Irregularities (N.J.A.C. 19:47-14.15)"), h("div", { class: "irregularities" }, forms),
      view.finished && (view.settlement || []).length ? linesTable(view.settlement) : null);
  }

  function draw() {
    if (gone || !alive()) return;
    if (!view) { mount(root, h("h1", {}, tableId), h("p", {}, status)); return; }
    const seats = mySeats();
    const w = layout().wager;
    mount(root, h("div", { class: `table-screen poker${seats.length ? " seated" : ""}`, dataset: { table: tableId, version: view.version, round: view.round || "",
      seq: view.seq ?? "", number: view.number ?? "", finished: String(!!view.finished), phase: pub().phase || "", toAct: pub().to_act || "" } },
    h("h1", {}, `${tableId} `, h("span", { class: "tag" }, layout().title || "Poker room")),
    h("p", { class: "phase" }, status, " · ", view.number ? `Hand ${view.number}: ${phaseWords(layout(), pub().phase, view.finished)}` : "Waiting for the next hand",
      w ? ` · buy-in ${money(w.minimum)} to ${money(w.maximum)}` : "", view.blocked ? ` · ${view.blocked}` : ""),
    h("div", { class: "poker-grid" },
      oval(),
      h("div", { class: "side" }, seats.map(ownSeat), staff ? console_() : null,
        me.role === "player" && !seats.length ? h("p", { class: "muted" }, view.open ? "Choose a free seat to sit down." : "The table is closed.") : null))));
    tick();
  }

  draw();
  return () => { gone = true; clearInterval(timer); live.close(); };
}
