// Keno (N.J.A.C. 19:47-15): a keno writer's station (the request grid 1-80, ticket types,
// conditioning, price, issue, void, redeem, the printed ticket with every item of 15.4(c)) and
// the keno board (the game, its countdown, the 20 numbers as drawn, recent games; 15.5(c), (g)).
// Keno's own screens, served from its folder under /games/keno/ and routed by the shared shell
// as screens.json says; the shell calls each screen as (root, argument, alive) and calls what
// it returns when the screen is left.
import { api, newKey, session } from "/static/api.js";
import { h, mount, toast, money } from "/static/dom.js";

const KINDS = ["straight", "split", "way", "combination", "king"];

function countdown(status, since) {
  if (status.remaining_seconds === null || status.remaining_seconds === undefined) return null;
  return Math.max(0, status.remaining_seconds - (performance.now() - since) / 1000);
}

function clockText(left) {
  if (left === null) return "";
  const s = Math.ceil(left);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function stateText(status) {
  if (status.down) return "system down: manual payments only (15.7(c))";
  if (!status.state) return "no game open";
  return { open: "open for wagers", locked: "closed: drawing", drawn: "drawn" }[status.state] + (status.held ? " (lock-out held)" : "");
}

// Poll the public status (the board needs no log-in); call back on each change.
function watch(system, onStatus) {
  let stop = false;
  let version = null;
  async function loop() {
    while (!stop) {
      try {
        const st = await api("GET", `/api/keno/${encodeURIComponent(system)}`);
        if (stop) return;
        st.receivedAt = performance.now();
        onStatus(st, st.version !== version);
        version = st.version;
      } catch (e) { if (stop) return; onStatus(null, false, e); }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  loop();
  return () => { stop = true; };
}

export async function kenoList(root, _arg, alive = () => true) {
  const list = await api("GET", "/api/keno");
  if (!alive()) return;
  const s = session.get();
  mount(root, h("h1", {}, "Keno"), h("ul", { class: "grid", role: "list" }, list.systems.map((k) => h("li", { class: "panel" },
    h("h2", {}, k.id), h("p", { class: "muted" }, `work stations ${k.stations.join(", ")} · ${k.closing}`),
    h("div", { class: "row" },
      s && (s.role === "keno_writer" || s.role === "keno_supervisor") ? h("a", { class: "button", href: `#/keno-writer/${encodeURIComponent(k.id)}` }, "Writer station") : null,
      h("a", { class: "button", href: `#/keno-board/${encodeURIComponent(k.id)}` }, "Keno board"))))));
}

export function kenoBoard(root, system) {
  let status = null;
  let shown = 0; // how many of the last draw's numbers are lit (they light one by one)
  let lastGame = null;
  const timer = setInterval(draw, 250);
  const unwatch = watch(system, (st, changed, err) => {
    if (err) { status = status && { ...status, stale: true }; draw(); return; }
    if (st.board && (!lastGame || st.board.game !== lastGame.game || st.board.day !== lastGame.day)) {
      shown = lastGame === null ? st.board.numbers.length : 0; // a new draw lights up in order
      lastGame = st.board;
    }
    status = st;
    if (changed) {
      api("GET", `/api/keno/${encodeURIComponent(system)}/recent`).then((r) => { if (gone) return; recent = r.games; draw(); }).catch(() => {});
      draw();
    }
  });
  let recent = [];

  function draw() {
    if (!status) { mount(root, h("h1", {}, `Keno board ${system}`), h("p", {}, "Waiting for the system…")); return; }
    const board = status.board;
    if (board && shown < board.numbers.length) shown += 1;
    const lit = board ? board.numbers.slice(0, shown) : [];
    const litSet = new Set(lit);
    const left = countdown(status, status.receivedAt);
    mount(root, h("div", { class: "keno-board", dataset: { game: board ? board.game : "", shown } },
      h("h1", {}, `Keno · game ${status.game || "—"}`),
      h("p", { class: "board-state", role: "status" }, stateText(status),
        left !== null ? h("span", { class: "countdown", "aria-label": "Time to close" }, ` closes in ${clockText(left)}`) : null,
        status.stale ? h("span", { class: "error" }, " (connection lost)") : null),
      board ? h("h2", {}, `Game ${board.game} of ${board.day}: the numbers drawn`) : h("p", {}, "No game drawn yet today."),
      h("ol", { class: "drawn", "aria-label": "Numbers in the order drawn" }, lit.map((n) => h("li", {}, String(n)))),
      h("div", { class: "keno-grid board", role: "img", "aria-label": `Keno board: ${lit.join(", ") || "no numbers"}` },
        Array.from({ length: 80 }, (_, i) => h("span", { class: "n" + (litSet.has(i + 1) ? " hit" : ""), "aria-hidden": "true" }, String(i + 1)))),
      recent.length ? h("section", {}, h("h2", {}, "Recent games"),
        h("ul", { class: "recent" }, recent.map((g) => h("li", {}, h("strong", {}, `Game ${g.game}: `), g.numbers.slice().sort((a, b) => a - b).join(" "))))) : null));
  }
  let gone = false;
  draw();
  return () => { gone = true; clearInterval(timer); unwatch(); };
}

export function kenoWriter(root, system) {
  const me = session.get(); // read once: a session that ends takes the shell to the log-in screen
  let status = null;
  let kind = "straight";
  let groups = [[]]; // the writer marks numbers into groups (a king is a group of one)
  let current = 0;
  let ticket = null;
  const form = { station: null, rate: null, games: 1, conditions: "", quick: "" };
  const unwatch = watch(system, (st, changed) => {
    if (!st) return;
    const first = status === null;
    status = st;
    if (first) { form.station = st.stations[0]; form.rate = st.rate_card.minimum_wager; draw(); }
    else updateClock();
  });

  function updateClock() {
    const el = root.querySelector(".writer-status");
    if (el && status) el.textContent = `Game ${status.game || "—"}: ${stateText(status)}` + (status.remaining_seconds !== null ? `, closes in ${clockText(countdown(status, status.receivedAt))}` : "");
  }

  function request() {
    if (form.quick) return { quick_pick: Number(form.quick), rate: form.rate, games: Number(form.games) };
    const marked = groups.filter((g) => g.length);
    if (kind === "straight") return { kind, numbers: marked.flat().sort((a, b) => a - b), rate: form.rate, games: Number(form.games) };
    return { kind, groups: marked.map((g) => g.slice().sort((a, b) => a - b)), conditions: form.conditions.trim().split(/\s+/).filter(Boolean), rate: form.rate, games: Number(form.games) };
  }

  // One idempotency key per action until the server answers it: a double click or a retry
  // after a lost answer is the same action, done once (the server answers a key once).
  const keys = new Map();
  let busy = false;
  async function send(action) {
    const what = JSON.stringify(action);
    if (!keys.has(what)) keys.set(what, newKey());
    const body = { action, key: keys.get(what) };
    for (let attempt = 0; ; attempt++) {
      try {
        const answer = await api("POST", `/api/keno/${encodeURIComponent(system)}/actions`, body);
        keys.delete(what);
        return answer;
      } catch (e) {
        if (e.status !== 0 || attempt >= 4) {
          if (e.status && e.status < 500) keys.delete(what); // refused: nothing was done
          throw e;
        }
        await new Promise((r) => setTimeout(r, 400 * 2 ** attempt)); // unanswered: same key
      }
    }
  }

  let quoted = null; // the price of the request as marked, or why it is unclear (15.7(a))
  let quoteTimer = null;
  function requote() {
    clearTimeout(quoteTimer);
    quoteTimer = setTimeout(async () => {
      const req = request();
      if (!form.quick && !groups.some((g) => g.length)) { quoted = null; showQuote(); return; }
      try { quoted = await api("POST", `/api/keno/${encodeURIComponent(system)}/quote`, { request: req }); }
      catch (e) { quoted = { error: e.message }; }
      showQuote();
    }, 150);
  }
  function showQuote() {
    const el = root.querySelector(".quote");
    if (!el) return;
    el.classList.toggle("error", !!(quoted && quoted.error));
    el.textContent = !quoted ? "Mark the numbers, or give quick-pick spots." : quoted.error
      ? quoted.error : `${quoted.kind} ${quoted.conditioning} · ${quoted.ways} way(s) at ${quoted.rates} · ${quoted.games} game(s) · price ${money(quoted.price)}`;
  }

  function toggle(n) {
    const at = groups.findIndex((g) => g.includes(n));
    if (at >= 0) groups[at] = groups[at].filter((x) => x !== n);
    else groups[current].push(n);
    draw();
  }

  function grid() {
    const owner = new Map();
    groups.forEach((g, i) => g.forEach((n) => owner.set(n, i)));
    return h("div", { class: "keno-grid", role: "group", "aria-label": "Keno request: numbers 1 to 80" },
      Array.from({ length: 80 }, (_, i) => {
        const n = i + 1;
        const g = owner.get(n);
        return h("button", { type: "button", class: "n" + (g !== undefined ? ` marked g${g % 6}` : ""), "aria-pressed": String(g !== undefined),
          "aria-label": `${n}` + (g !== undefined ? `, group ${g + 1}` : ""), dataset: { n }, onclick: () => toggle(n) },
        String(n), g !== undefined && kind !== "straight" ? h("sub", {}, String(g + 1)) : null);
      }));
  }

  function draw() {
    if (!status) { mount(root, h("h1", {}, `Keno writer ${system}`), h("p", {}, "Connecting…")); return; }
    const card = status.rate_card;
    const kinds = KINDS.filter((k) => card.ticket_types.includes(k));
    const field = (id, label, input) => h("label", { for: id }, label, " ", input);
    mount(root,
      h("h1", {}, `Keno writer station · ${system}`),
      h("p", { class: "writer-status", role: "status" }),
      h("form", { class: "panel writer", onsubmit: async (ev) => {
        ev.preventDefault();
        if (busy) return; // the ticket asked for is still on its way
        busy = true;
        const button = root.querySelector("button[type=submit]");
        if (button) button.disabled = true;
        try {
          const r = await send({ action: "issue", station: Number(form.station), request: request() });
          ticket = r.ticket;
          groups = [[]]; current = 0;
        } catch (e) { toast(e.message); }
        busy = false;
        draw();
      } },
      h("div", { class: "row" },
        field("station", "Work station", h("select", { id: "station", onchange: (e) => { form.station = e.target.value; } },
          status.stations.map((s) => h("option", { value: s, selected: String(s) === String(form.station) }, String(s))))),
        field("kind", "Ticket type", h("select", { id: "kind", onchange: (e) => { kind = e.target.value; groups = [groups.flat()]; current = 0; draw(); } },
          kinds.map((k) => h("option", { value: k, selected: k === kind }, k)))),
        field("rate", "Rate $", h("input", { id: "rate", value: form.rate, size: 7, inputmode: "decimal", oninput: (e) => { form.rate = e.target.value; requote(); } })),
        field("games", "Games", h("input", { id: "games", type: "number", min: 1, max: card.max_games, value: form.games, size: 3, oninput: (e) => { form.games = e.target.value; requote(); } })),
        field("quick", "Quick-pick spots", h("input", { id: "quick", type: "number", min: 1, max: card.max_spots, value: form.quick, size: 3, placeholder: "—", oninput: (e) => { form.quick = e.target.value; requote(); } }))),
      kind !== "straight" ? h("div", { class: "row" },
        h("span", {}, "Marking group: "),
        groups.map((g, i) => h("button", { type: "button", class: i === current ? "primary" : "", "aria-pressed": String(i === current), onclick: () => { current = i; draw(); } }, `Group ${i + 1} (${g.length})`)),
        h("button", { type: "button", onclick: () => { groups.push([]); current = groups.length - 1; draw(); } }, "New group"),
        field("conditions", "Conditioning", h("input", { id: "conditions", value: form.conditions, placeholder: "e.g. 3/8 or 2/4 1/8", oninput: (e) => { form.conditions = e.target.value; requote(); } }))) : null,
      grid(),
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary" }, "Issue ticket"),
        h("button", { type: "button", onclick: () => { groups = [[]]; current = 0; draw(); } }, "Clear"),
        h("span", { class: "muted" }, `Rates ${money(card.minimum_wager)} to ${money(card.maximum_wager)} · up to ${card.max_spots} spots`)),
      h("p", { class: "quote", role: "status", "aria-live": "polite" })),
      ticket ? h("section", { class: "panel ticket-box", "aria-label": "Ticket issued" },
        h("pre", { class: "ticket", dataset: { ticket: ticket.number } }, ticket.text),
        h("button", { type: "button", onclick: () => window.print() }, "Print ticket")) : null,
      h("div", { class: "grid two" }, voidForm(), redeemForm()),
      me && me.role === "keno_supervisor" ? supervisorPanel() : null);
    updateClock();
    showQuote();
    requote();
  }

  // A keno supervisor's authorisations and overrides (15.5(c)-(e), 15.6(b), 15.7(c)).
  function supervisorPanel() {
    const ticket = h("input", { id: "approve-ticket", type: "number", min: 1 });
    const what = h("select", { id: "override" }, ["hold", "release", "lock"].map((w) => h("option", { value: w }, w)));
    const reason = h("input", { id: "reason", size: 30, placeholder: "why (recorded)" });
    const run = (action, done) => async () => {
      try { await send(action()); toast(done); } catch (e) { toast(e.message); }
    };
    return h("section", { class: "panel", "aria-label": "Keno supervisor" }, h("h2", {}, "Keno supervisor"),
      h("div", { class: "row" }, h("label", { for: "approve-ticket" }, "Authorise payment of ticket"), ticket,
        h("button", { type: "button", onclick: run(() => ({ action: "approve", ticket: Number(ticket.value) }), "Payment authorised for 10 minutes") }, "Authorise (15.6(b))")),
      h("div", { class: "row" }, h("label", { for: "override" }, "Lock-out override"), what, h("label", { for: "reason" }, "Reason"), reason,
        h("button", { type: "button", onclick: run(() => ({ action: "override", what: what.value, reason: reason.value }), "Override recorded") }, "Override (15.5(e))")),
      h("div", { class: "row" },
        h("button", { type: "button", onclick: run(() => ({ action: "closing_notice" }), "Closing notice given") }, "Closing notice (15.5(c))"),
        h("button", { type: "button", onclick: run(() => ({ action: "system_down" }), "System marked down") }, "System down (15.7(c))"),
        h("button", { type: "button", onclick: run(() => ({ action: "system_up" }), "System up") }, "System up")));
  }

  function voidForm() {
    const number = h("input", { id: "void-ticket", type: "number", min: 1, required: true });
    return h("form", { class: "panel", onsubmit: async (ev) => {
      ev.preventDefault();
      try {
        await send({ action: "void", station: Number(form.station), ticket: Number(number.value) });
        toast(`Ticket ${number.value} voided`);
        number.value = "";
      } catch (e) { toast(e.message); }
    } }, h("h2", {}, "Void a ticket (before its game starts, 15.4(e))"), h("label", { for: "void-ticket" }, "Ticket number"), number, h("button", { type: "submit" }, "Void"));
  }

  function redeemForm() {
    const number = h("input", { id: "redeem-ticket", type: "number", min: 1, required: true });
    const method = h("select", { id: "method" }, ["cash", "gaming chips", "casino check"].map((m) => h("option", { value: m }, m)));
    const result = h("p", { class: "paid", role: "status" });
    return h("form", { class: "panel", onsubmit: async (ev) => {
      ev.preventDefault();
      result.textContent = "";
      result.classList.remove("error");
      try {
        const r = await send({ action: "redeem", station: Number(form.station), ticket: Number(number.value), method: method.value });
        result.textContent = `Ticket ${number.value}: pay ${money(r.paid)}`;
      } catch (e) { result.textContent = e.message; result.classList.add("error"); }
    } }, h("h2", {}, "Redeem a winning ticket (15.6)"), h("label", { for: "redeem-ticket" }, "Ticket number"), number,
    h("label", { for: "method" }, "Paid by"), method, h("button", { type: "submit", class: "primary" }, "Redeem"), result);
  }

  draw();
  const timer = setInterval(updateClock, 500);
  return () => { clearInterval(timer); unwatch(); };
}
