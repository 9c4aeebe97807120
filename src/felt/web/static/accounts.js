// Staff and accounts (a supervisor's screen): open an account of any role with a temporary
// password, find accounts by name, role and state, lock, unlock, reset a password, retire, and
// read an account's history. And every user's own "Change password" screen.
import { api, session } from "./api.js";
import { h, mount, toast, money } from "./dom.js";

const STATES = [["", "Any state"], ["active", "Active"], ["locked", "Locked"],
  ["must-change", "Must change password"], ["retired", "Retired"]];
const STATE_WORDS = Object.fromEntries(STATES.filter(([k]) => k));
const CHANGE_WORDS = { opened: "Opened", locked: "Locked", unlocked: "Unlocked",
  "password reset": "Password reset", "password changed": "Password changed",
  "password set": "Password set", retired: "Retired" };

// A readable moment in the browser's time zone ("Nov 26, 2026, 9:04 PM"), or "never".
// Times as the cage shows them (UTC, written out), so staff and cage records read alike.
function when(iso) {
  if (!iso) return "never";
  return String(iso).replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, " UTC");
}

// A temporary password to read out or hand over: 12 letters and digits without look-alikes.
export function temporaryPassword() {
  const letters = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => letters[b % letters.length]).join("");
}

// A modal question naming the account: resolves with true (the named action) or false (Cancel).
function confirmDialog(title, text, yes, extra) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" });
    const done = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    mount(dialog,
      h("form", { method: "dialog", onsubmit: (ev) => { ev.preventDefault(); done(true); } },
        h("h2", { id: "confirm-title" }, title),
        h("p", {}, text),
        extra || null,
        h("div", { class: "row" },
          h("button", { type: "submit", class: "primary" }, yes),
          h("button", { type: "button", onclick: () => done(false) }, "Cancel"))));
    dialog.addEventListener("cancel", (ev) => { ev.preventDefault(); done(false); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export async function accountsScreen(app, alive) {
  const roles = await api("GET", "/api/roles");
  if (!alive()) return;
  const words = Object.fromEntries(roles.map((r) => [r.role, r.words]));

  // --- open an account
  const error = h("p", { class: "error", role: "alert" });
  const name = h("input", { id: "new-name", name: "name", autocomplete: "off", required: true, maxlength: 64,
    pattern: "[A-Za-z0-9][A-Za-z0-9._\\-]*", "aria-describedby": "new-name-help" });
  const role = h("select", { id: "new-role", name: "role" },
    roles.map((r) => h("option", { value: r.role }, r.words)));
  const password = h("input", { id: "new-password", name: "password", autocomplete: "off", required: true,
    minlength: 8, maxlength: 256, spellcheck: "false" });
  const forced = h("input", { id: "new-forced", type: "checkbox", checked: true });
  const create = h("form", { class: "panel open-account", onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const body = { name: name.value.trim(), role: role.value, password: password.value, must_change_password: forced.checked };
    try {
      await api("POST", "/api/accounts", body);
      toast(`Opened ${body.name} (${words[body.role]}). Give them the temporary password.`);
      name.value = ""; password.value = ""; forced.checked = true;
      await refresh();
    } catch (e) { error.textContent = e.message; }
  } },
  h("h2", {}, "Open an account"),
  h("div", { class: "fields" },
    h("div", {}, h("label", { for: "new-name" }, "Name"), name,
      h("p", { id: "new-name-help", class: "muted hint" }, "Letters, digits, - _ or . (starting with a letter or digit)")),
    h("div", {}, h("label", { for: "new-role" }, "Role"), role),
    h("div", {}, h("label", { for: "new-password" }, "Temporary password"),
      h("div", { class: "row" }, password,
        h("button", { type: "button", onclick: () => { password.value = temporaryPassword(); password.focus(); } }, "Generate")))),
  h("label", { class: "check" }, forced, "They choose their own password when they first log in"),
  h("button", { type: "submit", class: "primary" }, "Open account"), error);

  // --- find accounts
  const q = h("input", { id: "find-name", type: "search", autocomplete: "off", maxlength: 64 });
  const roleFilter = h("select", { id: "find-role" }, h("option", { value: "" }, "Any role"),
    roles.map((r) => h("option", { value: r.role }, r.words)));
  const stateFilter = h("select", { id: "find-state" }, STATES.map(([v, t]) => h("option", { value: v }, t)));
  let timer = null;
  const later = () => { clearTimeout(timer); timer = setTimeout(refresh, 250); };
  q.addEventListener("input", later);
  roleFilter.addEventListener("change", refresh);
  stateFilter.addEventListener("change", refresh);
  const find = h("form", { class: "panel find", role: "search", onsubmit: (ev) => { ev.preventDefault(); refresh(); } },
    h("h2", {}, "Find accounts"),
    h("div", { class: "fields" },
      h("div", {}, h("label", { for: "find-name" }, "Name contains"), q),
      h("div", {}, h("label", { for: "find-role" }, "Role"), roleFilter),
      h("div", {}, h("label", { for: "find-state" }, "State"), stateFilter)),
    h("button", { type: "submit" }, "Search"));

  const list = h("div", { id: "account-list" });
  const historyBox = h("section", { id: "account-history", "aria-live": "polite" });
  mount(app, h("h1", {}, "Staff and accounts"), create, find, list, historyBox);

  async function refresh() {
    const params = new URLSearchParams();
    if (q.value.trim()) params.set("q", q.value.trim());
    if (roleFilter.value) params.set("role", roleFilter.value);
    if (stateFilter.value) params.set("state", stateFilter.value);
    let rows;
    try { rows = await api("GET", "/api/accounts" + (params.toString() ? "?" + params : "")); }
    catch (e) { mount(list, h("p", { class: "error", role: "alert" }, e.message)); return; }
    if (!alive()) return;
    mount(list, rows.length ? accountsTable(rows) : h("p", { class: "panel" }, "No account matches."));
  }

  function accountsTable(rows) {
    const me = session.get().name;
    const cols = ["Name", "Role", "State", "Last log-in", "Balance", "Opened", "Actions"];
    return h("table", { class: "accounts" },
      h("caption", {}, `Accounts (${rows.length})`),
      h("thead", {}, h("tr", {}, cols.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows.map((a) => h("tr", { dataset: { account: a.name, state: a.state } },
        h("th", { scope: "row", "data-label": "Name" }, a.name),
        h("td", { "data-label": "Role" }, words[a.role] || a.role),
        h("td", { "data-label": "State", class: "state-" + a.state }, STATE_WORDS[a.state] || a.state),
        h("td", { "data-label": "Last log-in" }, when(a.last_login)),
        h("td", { "data-label": "Balance" }, a.balance === null ? "—" : money(a.balance)),
        h("td", { "data-label": "Opened" }, when(a.created)),
        h("td", { "data-label": "Actions" }, h("div", { class: "row actions" }, actions(a, me)))))));
  }

  function actions(a, me) {
    const out = [];
    const button = (text, label, fn) => h("button", { type: "button", "aria-label": `${label} ${a.name}`, onclick: fn }, text);
    if (!a.retired) {
      if (a.locked) out.push(button("Unlock", "Unlock", () => change(a, "unlock", `Unlock ${a.name}?`,
        `${a.name} can log in again, and their count of failed log-ins is cleared.`, `Unlock ${a.name}`)));
      else if (a.name !== me) out.push(button("Lock", "Lock", () => change(a, "lock", `Lock ${a.name}?`,
        `${a.name} cannot log in until a supervisor unlocks the account; their sessions end now.`, `Lock ${a.name}`)));
      if (a.name !== me) out.push(button("Reset password", "Reset the password of", () => reset(a)));
      else out.push(h("a", { class: "button", href: "#/password" }, "Change my password"));
      if (a.name !== me) out.push(button("Retire", "Retire", () => change(a, "retire", `Retire ${a.name}?`,
        `${a.name} can never log in again; their sessions end now. Their records stay.` +
        (a.balance !== null ? " A player is retired only with a balance of $0.00." : ""), `Retire ${a.name}`)));
    }
    out.push(button("History", "History of", () => showHistory(a.name)));
    return out;
  }

  async function change(a, what, title, text, yes) {
    if (!await confirmDialog(title, text, yes)) return;
    try {
      await api("POST", `/api/accounts/${encodeURIComponent(a.name)}/${what}`);
      toast(`${yes.replace(/^\w+/, (w) => ({ Unlock: "Unlocked", Lock: "Locked", Retire: "Retired" })[w] || w)}.`);
    } catch (e) { toast(e.message); }
    await refresh();
  }

  async function reset(a) {
    const temp = h("input", { id: "reset-password", autocomplete: "off", spellcheck: "false", required: true,
      minlength: 8, maxlength: 256, value: temporaryPassword() });
    const extra = h("div", {}, h("label", { for: "reset-password" }, "Temporary password"),
      h("div", { class: "row" }, temp, h("button", { type: "button", onclick: () => { temp.value = temporaryPassword(); } }, "Generate")));
    const ok = await confirmDialog(`Reset the password of ${a.name}?`,
      `${a.name}'s sessions end now; at the next log-in they must choose their own password. Give them the temporary password below.`,
      `Reset password of ${a.name}`, extra);
    if (!ok) return;
    try {
      await api("POST", `/api/accounts/${encodeURIComponent(a.name)}/password`, { password: temp.value });
      toast(`New temporary password for ${a.name}: ${temp.value}`);
    } catch (e) { toast(e.message); }
    await refresh();
  }

  async function showHistory(who) {
    let data;
    try { data = await api("GET", `/api/accounts/${encodeURIComponent(who)}/history`); }
    catch (e) { toast(e.message); return; }
    if (!alive()) return;
    const title = h("h2", { tabindex: "-1" }, `History of ${who}`);
    mount(historyBox, h("div", { class: "panel" }, title,
      h("table", { class: "accounts history" },
        h("caption", {}, `Changes to ${who}, newest first`),
        h("thead", {}, h("tr", {}, ["When", "Change", "By", "Detail"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, data.changes.map((c) => h("tr", {},
          h("td", { "data-label": "When" }, when(c.at)),
          h("td", { "data-label": "Change" }, CHANGE_WORDS[c.change] || c.change),
          h("td", { "data-label": "By" }, c.by || (c.change === "locked" ? "the server (failed log-ins)" : "the server machine")),
          h("td", { "data-label": "Detail" }, c.detail || "—")))))));
    title.focus();
  }

  await refresh();
}

// Every user's own password; ``forced`` after a supervisor's reset (nothing else until done).
export function passwordScreen(app, home) {
  const s = session.get();
  const forced = Boolean(s && s.must_change);
  const error = h("p", { class: "error", role: "alert" });
  const current = h("input", { id: "current-password", type: "password", autocomplete: "current-password", required: true });
  const fresh = h("input", { id: "new-password", type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 256 });
  const again = h("input", { id: "again-password", type: "password", autocomplete: "new-password", required: true, minlength: 8, maxlength: 256 });
  const form = h("form", { class: "panel narrow", onsubmit: async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    if (fresh.value !== again.value) { error.textContent = "The two new passwords differ."; return; }
    if (fresh.value === current.value) { error.textContent = "The new password must differ from the current one."; return; }
    try {
      await api("POST", "/api/password", { current: current.value, new: fresh.value });
      session.set({ ...session.get(), must_change: false });
      toast("Password changed. Your other sessions have ended.");
      location.hash = home;
    } catch (e) { error.textContent = e.message; }
  } },
  h("h1", {}, "Change password"),
  forced ? h("p", { class: "notice", role: "note" },
    "A supervisor set a temporary password for you. Choose your own before you go on.") : null,
  h("label", { for: "current-password" }, forced ? "Temporary password" : "Current password"), current,
  h("label", { for: "new-password" }, "New password (8 characters or more)"), fresh,
  h("label", { for: "again-password" }, "New password again"), again,
  h("button", { type: "submit", class: "primary" }, "Change password"), error);
  mount(app, form);
  current.focus();
}
