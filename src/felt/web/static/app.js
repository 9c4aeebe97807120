// felt's screens: a hash router over the login, the player's lobby, table and recall, the
// dealer's and the supervisor's consoles, and the screens a game keeps in its own folder (found
// in /games/index.json with the routes, roles and links they serve). No screen here names a game:
// a table is drawn from its layout (the lobby's), a game's name comes from the index.
import { api, session, ApiError, whenSessionEnds, ended } from "./api.js";
import { h, mount, toast, money } from "./dom.js";
import { dealerHand, dealerLabel, hand, holeCard } from "./cards.js";
import { tableScreen } from "./player.js";
import { dealerScreen, floorScreen, roundScreen, parSheetScreen } from "./staff.js";
import { cageScreen, cageReportScreen } from "./cage.js";
import { accountsScreen, passwordScreen } from "./accounts.js";

const app = document.getElementById("app");
let leave = null; // the current screen's clean-up

const HOME = { player: "#/lobby", dealer: "#/dealer", supervisor: "#/floor", cashier: "#/cashier" };
const PUBLIC = new Set(["login"]); // screens anyone may open without logging in
const NAV = {
  player: [["#/lobby", "Lobby"], ["#/recall", "Recall"]],
  dealer: [["#/dealer", "Tables"]],
  supervisor: [["#/floor", "Floor"], ["#/accounts", "Staff"], ["#/cage-report", "Cage report"]],
  cashier: [["#/cashier", "Cage"], ["#/cage-report", "Cage report"]],
};
const OWN = {}; // hash screen -> a game's own screen: { module, fn }
const TITLES = {}; // game id -> its name on the screens
const TABLE_SCREEN = {}; // game id -> the game's own screen of one table (its screens.json "table")

// The registered games, read once: their names, and their own screens' routes, roles and links.
let games = null;
function loadGames() {
  games = games || api("GET", "/games/index.json").then((index) => {
    for (const g of index.games) {
      Object.assign(TITLES, g.titles);
      const s = g.screens;
      if (!s) continue;
      if (s.table) for (const gid of Object.keys(g.titles)) TABLE_SCREEN[gid] = s.table;
      for (const [screen, fn] of Object.entries(s.routes)) OWN[screen] = { module: s.module, fn };
      for (const screen of s.public) PUBLIC.add(screen);
      for (const [role, home] of Object.entries(s.home)) HOME[role] = HOME[role] || home;
      for (const [role, links] of Object.entries(s.nav)) NAV[role] = (NAV[role] || []).concat(links);
      for (const href of s.styles) document.head.append(h("link", { rel: "stylesheet", href }));
    }
  }).catch((e) => { games = null; throw e; }); // asked again on the next screen
  return games;
}

export async function refreshBalance() {
  const s = session.get();
  const box = document.getElementById("balance");
  if (!s || s.role !== "player") { box.textContent = ""; return; }
  try {
    const me = await api("GET", "/api/me");
    box.textContent = "Balance " + money(me.balance);
    box.dataset.balance = me.balance;
  } catch { /* shown on the next change */ }
}

function header() {
  const s = session.get();
  document.getElementById("who").textContent = s ? `${s.name} (${s.role})` : "";
  const links = (s && NAV[s.role]) || [];
  const nav = document.getElementById("nav");
  mount(nav, links.map(([href, text]) => h("a", { href, "aria-current": location.hash === href ? "page" : null }, text)),
    s ? h("a", { href: "#/password", "aria-current": location.hash === "#/password" ? "page" : null }, "Password") : null,
    s ? h("button", { type: "button", class: "link", onclick: logout }, "Log out") : null);
  refreshBalance();
}

async function logout() {
  try { await api("POST", "/api/logout"); } catch { /* ended anyway */ }
  session.clear();
  location.hash = "#/login";
}

function loginScreen() {
  const error = h("p", { class: "error", role: "alert" });
  const why = ended.get(); // the last session ended by itself: say so, and why if the server said
  const gone = why === null ? null : h("p", { class: "notice", role: "status", id: "session-ended" },
    "Your session ended: log in again.", why ? ` The server said: ${why}.` : "");
  const name = h("input", { id: "name", name: "name", autocomplete: "username", required: true });
  const password = h("input", { id: "password", name: "password", type: "password", autocomplete: "current-password", required: true });
  const form = h("form", { class: "panel narrow", onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    session.clear(); // a stale token is not sent with the password
    try {
      const r = await api("POST", "/api/login", { name: name.value, password: password.value });
      session.set({ token: r.token, name: r.name, role: r.role, must_change: r.must_change_password });
      ended.clear();
      location.hash = r.must_change_password ? "#/password" : HOME[r.role] || "#/lobby";
    } catch (e) { error.textContent = e.message; }
  } },
  h("h1", {}, "Log in"), gone,
  h("label", { for: "name" }, "Name"), name,
  h("label", { for: "password" }, "Password"), password,
  h("button", { type: "submit", class: "primary" }, "Log in"), error);
  mount(app, form);
  name.focus();
}

async function lobbyScreen(alive) {
  mount(app, h("h1", {}, "Lobby"), h("p", {}, "Loading tables…"));
  const tables = await api("GET", "/api/lobby");
  if (!alive()) return;
  const rows = tables.map((t) => h("li", { class: "panel table-card", dataset: { table: t.id } },
    h("h2", {}, t.id, " ", h("span", { class: "tag" }, gameName(t.game))),
    h("p", {}, `${wagerWord(t.layout)} ${money(t.minimum)} to ${money(t.maximum)}`, t.open ? "" : " · closed"),
    h("p", { class: "muted" }, `${t.free.length} of ${t.seats} seats free · ${t.decision_seconds} s a decision`),
    h("div", { class: "row" },
      t.free.slice(0, 7).map((n) => h("button", { type: "button", disabled: !t.open, "aria-label": `Sit at ${t.id} seat ${n}`,
        onclick: async () => {
          try { await api("POST", `/api/tables/${encodeURIComponent(t.id)}/sit`, { seat: n }); location.hash = tableHref(t.game, t.id); }
          catch (e) { toast(e.message); }
        } }, `Sit ${n}`)),
      h("a", { href: tableHref(t.game, t.id), class: "button" }, Object.values(t.taken).includes(session.get().name) ? "Return" : "Watch"))));
  mount(app, h("h1", {}, "Lobby"), h("ul", { class: "grid", role: "list" }, rows));
}

export function gameName(game) {
  return TITLES[game] || game;
}

// Where one table of ``game`` is shown: the game's own screen of a table where it keeps one,
// else ``shared`` (the lobby's ``table``, the consoles' ``dealer``).
export function tableHref(game, id, shared = "table") {
  return `#/${TABLE_SCREEN[game] || shared}/${encodeURIComponent(id)}`;
}

// A shared table screen opened on a table of a game with its own (an old link, a typed address)
// goes there instead: true when it did.
export function toOwnTableScreen(game, id) {
  if (!TABLE_SCREEN[game]) return false;
  location.replace(tableHref(game, id));
  return true;
}

// A table linked to a progressive meter: the meter's label and amount as the server last sent
// them in the table's view (every linked table's view follows each move of the meter).
export function meterBanner(view) {
  const p = view && view.progressive;
  if (!p) return null;
  return h("p", { class: "meter", dataset: { meter: p.meter }, "aria-live": "polite" },
    h("span", { class: "meter-label" }, p.label), " ",
    h("strong", { class: "meter-amount" }, p.amount === null ? "…" : money(p.amount)));
}

// The word before a table's limits (the lobby's and the table's): what its wager form takes.
export function wagerWord(layout) {
  return (layout && layout.wager && layout.wager.label) || "Wager";
}

// Where a round stands in the words of the people at the table (the layout's ``phase_words``),
// never the phase's own name: without words, only whether it is finished.
export function phaseWords(layout, phase, finished) {
  const words = layout && layout.phase_words && layout.phase_words[phase];
  return words || (finished ? "finished" : "in play");
}

async function recallScreen(alive) {
  mount(app, h("h1", {}, "Recall"), h("p", {}, "Loading…"));
  const rounds = await api("GET", "/api/recall");
  if (!alive()) return;
  const items = rounds.map((r) => h("li", { class: "panel recall-round", dataset: { round: r.round } },
    h("h2", {}, `${r.table} round ${r.number}`, r.finished ? "" : " (in play)"),
    r.balance_before !== undefined ? h("p", {}, `Balance before ${money(r.balance_before)}, after ${money(r.balance_after)}`) : null,
    h("p", {}, "Your choices: ", r.decisions.map((d) => d.action + (d.seat ? ` (seat ${d.seat})` : "")).join(", ") || "none"),
    Object.entries(r.seats || {}).map(([n, v]) => recallSeat(n, v)),
    !Object.keys(r.seats || {}).length && r.dealer ? h("p", {}, "Dealer: ", String(r.dealer.hand || r.dealer.cards || "")) : null));
  mount(app, h("h1", {}, "Recall: your last ten rounds"),
    h("p", { class: "notice", role: "note" }, "RECALL — these rounds are over; nothing here can be played."),
    items.length ? h("ol", { class: "stack" }, items) : h("p", {}, "No rounds yet."));
}

function recallSeat(n, v) {
  return h("div", { class: "recall-seat", dataset: { seat: n } },
    h("h3", {}, `Seat ${n}`),
    seatHands(v, null),
    linesTable(v.lines));
}

// A seat's settled hands as its view names them: its cards (any discards apart, dimmed,
// under the word "Discarded"), its hand's name, and the dealer's cards (drawn as the layout says,
// when given) and hand's name.
export function seatHands(v, layout) {
  const gone = new Set(v.discarded || []);
  const kept = (v.own_cards || []).filter((c) => !gone.has(c));
  const dealerCards = layout ? dealerHand(v, layout) : (v.dealer_cards || []).length ? hand(v.dealer_cards) : null;
  const hole = layout ? holeCard(v, layout) : null;
  return h("div", { class: "hands" },
    h("div", { class: "hand-row" }, h("span", { class: "hand-label" }, "Your cards"), hand(kept),
      gone.size ? h("span", { class: "discarded", "aria-label": `Discarded: ${[...gone].join(" ")}` },
        h("span", { class: "discarded-word" }, "Discarded"), hand([...gone])) : null),
    v.hand ? h("p", { class: "hand-name" }, "Your hand: ", h("strong", {}, v.hand)) : null,
    dealerCards ? h("div", { class: "hand-row" }, h("span", { class: "hand-label" }, dealerLabel(layout)), dealerCards, hole ? hand([hole]) : null) : null,
    v.dealer_hand ? h("p", { class: "hand-name" }, "Dealer's hand: ", h("strong", {}, v.dealer_hand)) : null);
}

const RESULT = { win: "won", lose: "lost", forfeit: "lost", push: "pushed", void: "returned", paid: "paid" };

// A settlement statement: a table at full width; under ~40rem each line is a card whose values
// carry their column's name (style.css, table.cards), the reason on a line of its own.
// A clause such as 13:69F-24.10(f)1 is one word: its hyphens do not break (U+2011), so a
// narrow column keeps it whole instead of splitting the citation over two lines.
export function linesTable(lines) {
  if (!lines || !lines.length) return null;
  const cols = ["Seat", "Wager", "Stake", "Result", "Odds", "Amount", "Why", "Rule"];
  const cell = (i, value, cls = "") => h("td", { "data-label": cols[i], class: cls || null }, value);
  return h("div", { class: "scroll" }, h("table", { class: "lines cards" },
    h("caption", {}, "Settlement"),
    h("thead", {}, h("tr", {}, cols.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, lines.map((l) => h("tr", { class: "outcome-" + l.outcome },
      cell(0, String(l.seat)), cell(1, l.wager), cell(2, money(l.stake)),
      cell(3, l.result || RESULT[l.outcome] || l.outcome, "result"),
      cell(4, l.odds || "—"), cell(5, money(l.amount)), cell(6, l.reason || l.hand || "—", "why"), cell(7, (l.clause || "—").replaceAll("-", "\u2011"), "rule"))))));
}

let routeSeq = 0;
async function route() {
  if (leave) { leave(); leave = null; }
  const mine = ++routeSeq;
  const alive = () => mine === routeSeq; // a screen whose answer comes late draws nothing
  const s = session.get();
  const hash = location.hash || "#/";
  try { await loadGames(); } catch { /* the shared screens work without it; asked again later */ }
  if (!alive()) return;
  header();
  const [, screen, ...rest] = hash.split("/");
  if (!s && !PUBLIC.has(screen)) { location.hash = "#/login"; return; }
  const arg = rest.map(decodeURIComponent).join("/");
  // a supervisor's temporary password: nothing but choosing one's own until it is done
  if (s && s.must_change && screen !== "password" && screen !== "login") { location.hash = "#/password"; return; }
  try {
    if (screen === "login") return loginScreen();
    if (screen === "" || screen === undefined) { location.hash = HOME[s.role] || "#/lobby"; return; }
    if (screen === "lobby") return await lobbyScreen(alive);
    if (screen === "recall") return await recallScreen(alive);
    if (screen === "table") { leave = tableScreen(app, arg); return; }
    if (screen === "dealer") { leave = await dealerScreen(app, arg, alive); return; }
    if (screen === "floor") return await floorScreen(app, alive);
    if (screen === "round") return await roundScreen(app, arg, alive);
    if (screen === "par-sheet") return await parSheetScreen(app, arg, alive);
    if (screen === "cashier") { leave = await cageScreen(app, arg, alive); return; }
    if (screen === "cage-report") return await cageReportScreen(app, arg, alive);
    if (screen === "accounts") return await accountsScreen(app, alive);
    if (screen === "password") return passwordScreen(app, HOME[s.role] || "#/lobby");
    if (OWN[screen]) return await ownScreen(OWN[screen], arg, alive);
    mount(app, h("h1", {}, "Not found"), h("p", {}, "No such screen."));
  } catch (e) {
    if (!alive()) return;
    if (e instanceof ApiError && e.status === 401) { location.hash = "#/login"; return; }
    if (e instanceof ApiError && e.status === 403 && s && e.message.startsWith("choose your own password")) {
      session.set({ ...s, must_change: true }); location.hash = "#/password"; return;
    }
    mount(app, h("h1", {}, "Something went wrong"), h("p", { class: "error", role: "alert" }, e.message));
  }
}

// A game's own screen: its module imported when first opened, its function drawing the screen;
// what it returns is called when the screen is left.
async function ownScreen({ module, fn }, arg, alive) {
  const mod = await import(module);
  if (!alive()) return;
  const done = await mod[fn](app, arg, alive);
  if (typeof done !== "function") return;
  if (alive()) leave = done; else done();
}

// Every screen goes through api.js, which notices a session's end (401, socket 4401): then the
// page goes to the log-in screen, which says so.  A screen anyone may open (a game's public
// board) stays, logged out.  The session is also asked after now and then, and when the page
// is looked at again, so a screen that sends nothing (the floor, a board) learns it too.
whenSessionEnds((why) => {
  const [, screen] = (location.hash || "#/").split("/");
  if (screen === "login") { route(); return; }
  if (PUBLIC.has(screen)) { header(); toast("Your session ended" + (why ? `: ${why}` : "")); return; }
  location.hash = "#/login";
});
const SESSION_CHECK_MS = 10_000;
function checkSession() {
  if (session.get() && document.visibilityState !== "hidden") api("GET", "/api/me").catch(() => {});
}
setInterval(checkSession, SESSION_CHECK_MS);
document.addEventListener("visibilitychange", checkSession);
window.addEventListener("focus", checkSession);

window.addEventListener("hashchange", route);
route();
