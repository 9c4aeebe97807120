// The cashier's cage: find a player, deposit or withdraw with a printed, numbered receipt, and
// the day's cage report (opening, movements, closing, by cashier) reconciled with the ledger.
import { api, newKey, session, ApiError } from "./api.js";
import { h, mount, money } from "./dom.js";

const CASINO = "felt"; // the floor's name on a printed receipt
const MAX_CENTS = 1000000000; // $10,000,000.00, the most the server takes at once

// The cage's own sheet, added once (the shared style.css stays the other screens').
function sheet() {
  if (document.getElementById("cage-css")) return;
  document.head.append(h("link", { id: "cage-css", rel: "stylesheet", href: "/static/cage.css" }));
}

// An amount as typed, checked as the server checks it: dollars (a "$" before is fine), more
// than 0, at most 10000000.00, whole cents. Returns { cents, dollars } or { error }.
export function readAmount(text) {
  const t = String(text).trim().replace(/^\$/, "");
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(t) || /^()\.(\d{1,2})$/.exec(t);
  if (!m) return { error: "Type an amount in dollars, such as 25 or 12.50 (whole cents, no commas)." };
  const cents = Number(m[1] || "0") * 100 + Number((m[2] || "").padEnd(2, "0"));
  if (cents <= 0) return { error: "The amount must be more than $0.00." };
  if (cents > MAX_CENTS) return { error: "The amount must be at most $10000000.00." };
  return { cents, dollars: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}` };
}

// A balance as the server writes it ("12345678.90", any size) in cents: no limit, unlike an
// amount typed for one transaction.
function balanceCents(text) {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(String(text));
  return m ? (m[1] ? -1 : 1) * (Number(m[2]) * 100 + Number(m[3])) : 0;
}

const KIND = { deposit: "Deposit", withdrawal: "Withdrawal" };

// A refusal shown where it happened; a session that ended goes back to log-in.
function ended(e) {
  if (e instanceof ApiError && e.status === 401) { location.hash = "#/login"; return true; }
  return false;
}

function when(iso) {
  return iso ? iso.replace("T", " ").replace("Z", " UTC") : "never";
}

// A receipt as the cashier hands it over: numbered, the floor's name, date and time, cashier,
// player, what and how much, and the balance before and after. Printing prints this alone.
export function receiptView(r) {
  const line = (term, value, key) => [h("dt", {}, term), h("dd", { dataset: { field: key } }, value)];
  return h("section", { id: "cage-receipt", class: "panel receipt", "aria-label": `Receipt ${r.number}`, dataset: { number: r.number } },
    h("p", { class: "receipt-casino" }, CASINO),
    h("h2", {}, `Cage receipt no. ${r.number}`),
    h("dl", { class: "receipt-lines" },
      line("Date and time", when(r.time), "time"),
      line("Cashier", r.cashier, "cashier"),
      line("Player", r.player, "player"),
      line("Transaction", KIND[r.kind] || r.kind, "kind"),
      line("Amount", money(r.amount), "amount"),
      line("Balance before", money(r.balance_before), "balance_before"),
      line("Balance after", money(r.balance_after), "balance_after")),
    r.replayed ? h("p", { class: "muted" }, "This is the receipt already given for this transaction; nothing was paid twice.") : null,
    h("div", { class: "row no-print" },
      h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print receipt")));
}

export async function cageScreen(root, arg, alive = () => true) {
  sheet();
  const state = { player: null, pending: null, receipt: null };
  const search = h("input", { id: "cage-search", name: "q", type: "search", autocomplete: "off", maxlength: 64, placeholder: "name or part of it" });
  const results = h("div", { id: "cage-results", "aria-live": "polite" });
  const chosen = h("div", { id: "cage-player" });
  const printed = h("div", { id: "cage-printed" });

  let asked = 0; // the latest search: an answer for an earlier one draws nothing
  async function find() {
    const q = search.value.trim();
    const mine = ++asked;
    try {
      const r = await api("GET", "/api/cage/players?q=" + encodeURIComponent(q));
      if (!alive() || mine !== asked) return;
      mount(results, r.players.length
        ? h("ul", { class: "cage-players", role: "list" }, r.players.map((p) => h("li", { class: "cage-found", dataset: { player: p.name } },
            h("span", { class: "cage-name" }, p.name),
            h("span", {}, "Balance ", h("strong", {}, money(p.balance))),
            h("span", { class: "muted" }, p.state, " · last log-in ", when(p.last_login)),
            h("button", { type: "button", "aria-label": `Choose ${p.name}`, onclick: () => choose(p.name) }, "Choose"))))
        : h("p", {}, q ? `No player's name holds "${q}".` : "No players yet."),
        r.more ? h("p", { class: "muted" }, "More players match: type more of the name.") : null);
    } catch (e) {
      if (!ended(e) && mine === asked) mount(results, h("p", { class: "error", role: "alert" }, e.message));
    }
  }

  let turn = 0; // the latest choice of player: an answer for an earlier one draws nothing
  async function choose(name) {
    const mine = ++turn;
    let r;
    try { r = await api("GET", `/api/cage/players/${encodeURIComponent(name)}/receipts?limit=10`); }
    catch (e) { if (!ended(e) && mine === turn) mount(chosen, h("p", { class: "error", role: "alert" }, e.message)); return; }
    if (!alive() || mine !== turn) return;
    state.player = r.player;
    drawPlayer(r.receipts);
    const amount = document.getElementById("cage-amount");
    if (amount) amount.focus();
  }

  function drawPlayer(receipts) {
    const p = state.player;
    const amount = h("input", { id: "cage-amount", name: "amount", inputmode: "decimal", autocomplete: "off", required: true, placeholder: "25.00" });
    const error = h("p", { id: "cage-error", class: "error", role: "alert" });
    const form = h("form", { class: "cage-cash", onsubmit: (ev) => { ev.preventDefault(); submit(ev.submitter && ev.submitter.value === "withdrawal" ? "withdrawal" : "deposit"); } },
      h("label", { for: "cage-amount" }, "Amount in dollars"), amount,
      h("div", { class: "row" },
        h("button", { type: "submit", class: "primary", name: "kind", value: "deposit" }, "Deposit"),
        h("button", { type: "submit", name: "kind", value: "withdrawal" }, "Withdraw")));
    const submit = async (kind) => {
      error.textContent = "";
      const a = readAmount(amount.value);
      if (a.error) { error.textContent = a.error; amount.focus(); return; }
      if (kind === "withdrawal" && a.cents > balanceCents(p.balance)) {
        error.textContent = `${p.name}'s balance is ${money(p.balance)}: at most that can be paid out.`;
        return;
      }
      // one key per transaction: a retry after a lost answer sends the same key, and the
      // server answers with the receipt it already wrote instead of paying twice
      const same = state.pending && state.pending.kind === kind && state.pending.player === p.name && state.pending.cents === a.cents;
      if (!same) state.pending = { kind, player: p.name, cents: a.cents, key: newKey() };
      const path = kind === "deposit" ? "/api/cashier/deposit" : "/api/cashier/withdraw";
      const buttons = [...form.querySelectorAll("button")];
      if (buttons.some((b) => b.disabled)) return; // one request at a time: a double click sends one
      buttons.forEach((b) => { b.disabled = true; });
      const asked = turn; // the player chosen when the request left
      try {
        const r = await api("POST", path, { player: p.name, amount: a.dollars, key: state.pending.key });
        state.pending = null;
        if (!alive()) return;
        mount(printed, receiptView(r));
        if (asked !== turn) { find(); return; } // another player chosen meanwhile: their panel stays
        state.player = { ...p, balance: r.balance_after };
        const mine = ++turn;
        const again = await api("GET", `/api/cage/players/${encodeURIComponent(p.name)}/receipts?limit=10`);
        if (!alive() || mine !== turn) return; // the cashier has chosen another player meanwhile
        state.player = again.player;
        drawPlayer(again.receipts);
        find(); // the list shows the new balance too
        document.getElementById("cage-receipt").scrollIntoView({ block: "nearest" });
      } catch (e) {
        if (!(e instanceof ApiError) || e.status !== 0) state.pending = null; // refused: a new try is a new transaction
        if (!ended(e)) error.textContent = e.message;
      } finally {
        buttons.forEach((b) => { b.disabled = false; });
      }
    };
    mount(chosen, h("section", { class: "panel", "aria-labelledby": "cage-player-name", dataset: { player: p.name } },
      h("h2", { id: "cage-player-name" }, p.name),
      h("p", {}, "Balance ", h("strong", { id: "cage-balance", dataset: { balance: p.balance } }, money(p.balance)),
        h("span", { class: "muted" }, ` · ${p.state} · last log-in ${when(p.last_login)}`)),
      form,
      error,
      h("h3", {}, "Recent receipts"),
      receipts.length
        ? h("ul", { class: "cage-recent", role: "list" }, receipts.map((r) => h("li", { dataset: { number: r.number } },
            h("span", {}, `No. ${r.number}`), h("span", {}, KIND[r.kind] || r.kind, " ", money(r.amount)),
            h("span", { class: "muted" }, when(r.time), " · ", r.cashier),
            h("button", { type: "button", class: "link", "aria-label": `Show receipt ${r.number}`, onclick: () => { mount(printed, receiptView(r)); document.getElementById("cage-receipt").scrollIntoView({ block: "nearest" }); } }, "Show"))))
        : h("p", { class: "muted" }, "No receipts yet.")));
  }

  let timer = null;
  search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(find, 250); });
  mount(root, h("h1", {}, "Cage"),
    h("div", { class: "cage-layout" },
      h("div", {},
        h("form", { role: "search", class: "panel", onsubmit: (ev) => { ev.preventDefault(); clearTimeout(timer); find(); } },
          h("label", { for: "cage-search" }, "Find a player"),
          h("div", { class: "row" }, search, h("button", { type: "submit" }, "Find")),
          results),
        chosen),
      printed));
  await find();
  if (arg && alive()) await choose(arg);
  else search.focus();
  return () => clearTimeout(timer);
}

function amountCell(label, value) {
  return h("td", { class: "num", dataset: { label } }, money(value));
}

export async function cageReportScreen(root, arg, alive = () => true) {
  sheet();
  const [date, only] = (arg || "").split("/");
  const today = new Date().toISOString().slice(0, 10);
  const day = h("input", { id: "cage-date", name: "date", type: "date", value: date || today, max: today, required: true });
  const who = h("select", { id: "cage-cashier", name: "cashier" }, h("option", { value: "" }, "Whole cage"));
  const form = h("form", { class: "row panel no-print", onsubmit: (ev) => {
    ev.preventDefault();
    location.hash = "#/cage-report/" + encodeURIComponent(day.value) + (who.value ? "/" + encodeURIComponent(who.value) : "");
  } },
  h("label", { for: "cage-date" }, "Day (UTC)"), day,
  h("label", { for: "cage-cashier" }, "Cashier"), who,
  h("button", { type: "submit" }, "Show report"));
  mount(root, h("h1", {}, "Cage day report"), form, h("p", { role: "status" }, "Loading…"));
  const query = [date ? "date=" + encodeURIComponent(date) : "", only ? "cashier=" + encodeURIComponent(only) : ""].filter(Boolean).join("&");
  const r = await api("GET", "/api/cage/report" + (query ? "?" + query : ""));
  if (!alive()) return;
  day.value = r.date;
  // a supervisor may narrow the report to any cashier who worked that day, a cashier to themself
  const me = session.get();
  const names = me && me.role === "cashier" ? [me.name] : r.by_cashier.map((t) => t.cashier);
  for (const n of new Set([...names, ...(only ? [only] : [])])) who.append(h("option", { value: n }, n));
  who.value = only || "";
  const NUMERIC = new Set(["Deposits", "Withdrawals", "Receipts", "Net", "Amount", "Balance before", "Balance after"]);
  const heads = (cols) => h("thead", {}, h("tr", {}, cols.map((x) => h("th", { scope: "col", class: NUMERIC.has(x) ? "num" : null }, x))));
  const position = h("table", { class: "cage-table cage-position" },
    h("caption", {}, `Cage position ${r.date} (cash taken in minus paid out)`),
    h("tbody", {},
      [["Opening", r.opening, "opening"], ["Taken in (deposits)", r.deposits, "deposits"], ["Paid out (withdrawals)", r.withdrawals, "withdrawals"],
        ["Net for the day", r.net, "net"], [r.complete ? "Closing" : "Closing so far", r.closing, "closing"], [r.complete ? "Ledger at the day's end" : "Ledger now", r.ledger.closing, "ledger"]]
        .map(([label, v, key]) => h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, label), h("td", { class: "num" }, money(v))))));
  const byCashier = h("table", { class: "cage-table cage-cards cage-by-cashier" },
    h("caption", {}, "By cashier"),
    heads(["Cashier", "Deposits", "Withdrawals", "Receipts", "Net"]),
    h("tbody", {}, r.by_cashier.length
      ? r.by_cashier.map((t) => h("tr", { dataset: { cashier: t.cashier } },
          h("th", { scope: "row", dataset: { label: "Cashier" } }, t.cashier), amountCell("Deposits", t.deposits), amountCell("Withdrawals", t.withdrawals),
          h("td", { class: "num", dataset: { label: "Receipts" } }, String(t.count)), amountCell("Net", t.net)))
      : h("tr", {}, h("td", { colspan: 5 }, "No movements."))));
  const movements = h("table", { class: "cage-table cage-cards cage-movements" },
    h("caption", {}, `Movements (${r.count})`),
    heads(["Receipt", "Time (UTC)", "Cashier", "Player", "Transaction", "Amount", "Balance before", "Balance after"]),
    h("tbody", {}, r.movements.length
      ? r.movements.map((m) => h("tr", { dataset: { number: m.number } },
          h("th", { scope: "row", dataset: { label: "Receipt" } }, `No. ${m.number}`),
          h("td", { dataset: { label: "Time (UTC)" } }, m.time.slice(11, 19)),
          h("td", { dataset: { label: "Cashier" } }, m.cashier), h("td", { dataset: { label: "Player" } }, m.player),
          h("td", { dataset: { label: "Transaction" } }, KIND[m.kind] || m.kind),
          amountCell("Amount", m.amount), amountCell("Balance before", m.balance_before), amountCell("Balance after", m.balance_after)))
      : h("tr", {}, h("td", { colspan: 8 }, "No movements."))));
  mount(root, h("h1", {}, "Cage day report"), form,
    h("p", { id: "cage-reconciliation", role: "status", class: r.reconciled ? "cage-ok" : "cage-off", dataset: { reconciled: String(r.reconciled) } },
      r.reconciled ? "Reconciled with the ledger to the cent." : "Not reconciled: " + r.reconciliation),
    h("p", { class: "muted" }, `${r.date} from 00:00 to 24:00 UTC`, r.complete ? "" : ` · so far, as of ${r.as_of.slice(11, 16)} UTC`,
      r.cashier ? ` · movements of ${r.cashier} only; the position and reconciliation are the whole cage's` : ""),
    position, byCashier, movements);
}
