// Craps (N.J.A.C. 19:47-1): one screen of a craps table for every role.  The felt is drawn as a
// layout (pass line, don't pass bar, come, don't come, field, the place numbers 4-10 with their
// come points, the centre propositions), the point puck, every seat's chips on the spots, a chip
// selector; the player's wagers with take down / call on / call off as the server allows; the
// dice and the roll history; the stickperson's console for the dealer and the supervisor.
// Everything shown comes from the table's view as the server built it for this account.
import { api, Live, session } from "/static/api.js";
import { h, mount, toast, money } from "/static/dom.js";
import { linesTable, phaseWords, refreshBalance } from "/static/app.js";

const NUMBERS = [4, 5, 6, 8, 9, 10];
const HARD = [4, 6, 8, 10];
const CHIPS = ["1", "5", "25", "100", "500"];
const MODES = [["place", "Place to win"], ["buy", "Buy"], ["place_lose", "Place to lose"], ["lay", "Lay"]];
const NAME = {
  pass: "Pass", dont_pass: "Don't pass", come: "Come", dont_come: "Don't come", place: "Place {} to win",
  place_lose: "Place {} to lose", buy: "Buy {}", lay: "Lay {}", hard: "Hard {}", field: "Field",
  any_seven: "Any seven", any_craps: "Any craps", craps_2: "Craps two", craps_3: "Craps three",
  craps_12: "Craps twelve", eleven: "Eleven in one roll", craps_eleven: "Craps-eleven", horn: "Horn",
};
const STANDING = new Set(["place", "place_lose", "buy", "lay", "hard"]);

// A spot's label as the statements read it (spots.py's Spot.label): "Place 6 to win", "Odds on come 5".
export function spotLabel(id) {
  let rest = id;
  const odds = rest.endsWith("_odds");
  if (odds) rest = rest.slice(0, -5);
  const m = /^(.*)_(\d+)$/.exec(rest);
  const kind = m && NAME[m[1]] ? m[1] : rest;
  const n = m && NAME[m[1]] ? m[2] : null;
  let name = NAME[kind] || id;
  if (STANDING.has(kind)) name = name.replace("{}", n);
  else if (n !== null) name = `${name} ${n}`;
  return odds ? `Odds on ${name[0].toLowerCase()}${name.slice(1)}` : name;
}

function cents(dollars) { return Math.round(Number(dollars) * 100); }

export async function crapsTable(root, tableId, alive) {
  const me = session.get();
  const staff = me.role === "dealer" || me.role === "supervisor";
  let view = null;
  let info = null;
  let gone = false;
  let chip = CHIPS[1]; // the amount a click on a spot bets, in dollars: a chip's, or one typed
  let mode = "place";
  let chosenSeat = null;
  let die1 = 1;
  let die2 = 1;
  const status = h("p", { class: "live", role: "status" }, "Connecting…");
  const live = new Live((msg) => {
    if (gone) return;
    if (msg.type === "table" && msg.table === tableId) {
      const settled = msg.finished && !(view && view.finished && view.round === msg.round);
      view = msg;
      draw();
      if (settled) refreshBalance();
    } else if (msg.type === "error") toast(msg.error);
  }, (state) => {
    status.textContent = { live: "Live", reconnecting: "Connection lost: reconnecting…", ended: "Session ended: log in again" }[state];
    status.dataset.state = state;
  });
  live.subscribe(tableId);
  api("GET", "/api/lobby").then((ts) => { if (gone) return; info = ts.find((t) => t.id === tableId) || null; draw(); }).catch(() => {});

  async function act(action) {
    try {
      await live.act(tableId, action, view && !view.finished ? view.round : null);
      refreshBalance();
    } catch (e) { toast(e.message); }
  }

  // the seats this player may act for: seated, or owning wagers on the layout
  function mySeats() {
    if (!view || me.role !== "player") return [];
    const seated = Object.entries(view.seats).filter(([, n]) => n === me.name).map(([n]) => Number(n));
    const owning = Object.keys(view.mine || {}).map(Number);
    return [...new Set([...seated, ...owning])].sort((a, b) => a - b);
  }

  function seatView(seat) {
    return (view && view.mine && view.mine[String(seat)]) || null;
  }

  function pub() { return (view && view.public) || {}; }

  // every seat's chips on one spot: [{seat, amount, working, call, player}]
  function chipsOn(id) {
    const out = [];
    for (const [seat, spots] of Object.entries(pub().layout || {})) {
      const w = spots[id];
      if (w) out.push({ seat: Number(seat), ...w });
    }
    return out;
  }

  // why a spot takes no chip now, in words (the button's title)
  function whyNot(seat, id, allowed) {
    if (!view || !view.round || view.finished) return "waiting for the next roll";
    if (pub().phase !== "betting") return "no more bets: the dice are out";
    if (seat === null) return staff ? "the staff place no wagers" : "take a seat to wager";
    if (allowed.includes(id)) return "";
    if (id === "pass" || id === "dont_pass") return "only before a come out roll (no point set)";
    if (id === "come" || id === "dont_come") return "only while a point is set";
    if (id.endsWith("_odds")) return "odds go behind your own line or come wager once it has a point";
    return "not offered now";
  }

  // One spot of the felt: a button (bets the selected chip) with every seat's chips on it.
  function spotButton(seat, id, text, allowed, cls = "") {
    const here = chipsOn(id);
    const mine = here.filter((c) => c.seat === seat);
    const others = here.filter((c) => c.seat !== seat);
    const why = whyNot(seat, id, allowed);
    const own = mine.length ? ` your wager ${money(mine[0].amount)}${mine[0].working ? "" : " (off)"}` : "";
    const label = `${spotLabel(id)},${own || " no wager of yours"}` + (others.length ? `, ${others.length} other seat${others.length > 1 ? "s" : ""}` : "");
    return h("button", { type: "button", class: `spot ${cls}`.trim(), dataset: { spot: id }, disabled: !!why,
      title: why || `Bet ${money(cents(chip))} on ${spotLabel(id)}`, "aria-label": label,
      onclick: () => act({ seat, action: "bet", spot: id, amount: chip }) },
    h("span", { class: "spot-name" }, text),
    mine.map((c) => h("span", { class: `chip mine${c.working ? "" : " off"}`, dataset: { seat: c.seat } }, money(c.amount), c.call ? ` ${c.call}` : "")),
    others.map((c) => h("span", { class: `chip other${c.working ? "" : " off"}`, dataset: { seat: c.seat }, title: `seat ${c.seat} (${c.player})` }, `S${c.seat} ${money(c.amount)}`)));
  }

  // A place number's box: the mode's wager, the come points and their odds, the puck when it is the point.
  function numberBox(seat, n, allowed) {
    const point = pub().point;
    const small = (id, text) => (chipsOn(id).length || allowed.includes(id)) ? spotButton(seat, id, text, allowed, "small") : null;
    return h("div", { class: "number-box", dataset: { number: n } },
      point === n ? h("span", { class: "puck on", "aria-label": `Point is ${n}` }, "ON") : null,
      spotButton(seat, `${mode}_${n}`, String(n), allowed, "number"),
      h("div", { class: "come-points" },
        small(`come_${n}`, "Come"), small(`come_${n}_odds`, "Odds"),
        small(`dont_come_${n}`, "Don't"), small(`dont_come_${n}_odds`, "Lay odds")));
  }

  function felt(seat, allowed) {
    const p = pub();
    const sb = (id, text, cls) => spotButton(seat, id, text, allowed, cls);
    return h("section", { class: "felt", "aria-label": "The craps layout" },
      h("div", { class: "modes", role: "radiogroup", "aria-label": "Wager on the numbers" },
        MODES.map(([m, text]) => h("button", { type: "button", role: "radio", "aria-checked": String(mode === m), class: mode === m ? "selected" : null,
          dataset: { mode: m }, onclick: () => { mode = m; draw(); } }, text))),
      h("div", { class: "numbers" }, NUMBERS.map((n) => numberBox(seat, n, allowed))),
      h("div", { class: "line-row" },
        sb("come", "Come", "come"),
        sb("dont_come", "Don't come", "dont-come"),
        p.point ? null : h("span", { class: "puck off", "aria-label": "No point: come out roll" }, "OFF")),
      sb("field", "Field 2 3 4 9 10 11 12", "field"),
      h("div", { class: "line-row" },
        sb("dont_pass", "Don't pass bar (12 barred)", "dont-pass"),
        sb("dont_pass_odds", "Lay odds", "odds")),
      h("div", { class: "line-row" }, sb("pass", "Pass line", "pass"), sb("pass_odds", "Odds", "odds")),
      h("div", { class: "centre", "aria-label": "Propositions" },
        h("div", { class: "props" }, HARD.map((n) => sb(`hard_${n}`, `Hard ${n}`, "prop"))),
        h("div", { class: "props" },
          sb("any_seven", "Any seven", "prop"), sb("any_craps", "Any craps", "prop"),
          sb("craps_2", "Craps 2", "prop"), sb("craps_3", "Craps 3", "prop"), sb("craps_12", "Craps 12", "prop"),
          sb("eleven", "Eleven", "prop"), sb("craps_eleven", "C and E", "prop"), sb("horn", "Horn", "prop"))));
  }

  // The chips, and the amount a click bets: a chip's, or any amount typed (a place 6 or 8 at a $5
  // table is bet $6, which no one chip makes: 7 to 6 must be payable in full, 1.4).
  function chipSelector() {
    const amount = h("input", { id: "stake", type: "number", min: "0.01", step: "0.01", inputmode: "decimal", value: chip,
      "aria-label": "Amount each click bets, in dollars",
      onchange: (ev) => { const v = Number(ev.target.value); if (v > 0) chip = String(v); else ev.target.value = chip; draw(); } });
    return h("div", { class: "chips" },
      h("div", { class: "row", role: "radiogroup", "aria-label": "Chip" },
        CHIPS.map((c) => h("button", { type: "button", role: "radio", "aria-checked": String(chip === c), class: `chip-pick${chip === c ? " selected" : ""}`,
          dataset: { chip: c }, "aria-label": `Chip $${c}`, onclick: () => { chip = c; draw(); } }, `$${c}`))),
      h("label", { class: "stake" }, "Bet $", amount));
  }

  // The player's own wagers with what may be done with each now.
  function myWagers(seat, v) {
    const wagers = (v && v.your_wagers) || {};
    const a = (v && v.allowed) || {};
    const can = (k, id) => (a[k] || []).includes(id);
    const rows = Object.entries(wagers).map(([id, w]) => h("li", { dataset: { wager: id } },
      h("span", {}, `${spotLabel(id)} ${money(w.amount)}`, w.working ? "" : " (off)", w.call ? ` · called ${w.call}` : ""),
      can("take_down", id) ? h("button", { type: "button", "aria-label": `Take down ${spotLabel(id)}`, onclick: () => act({ seat, action: "take_down", spot: id }) }, "Take down") : null,
      can("call_on", id) ? h("button", { type: "button", "aria-label": `Call on ${spotLabel(id)}`, onclick: () => act({ seat, action: "call_on", spot: id }) }, "Call on") : null,
      can("call_off", id) ? h("button", { type: "button", "aria-label": `Call off ${spotLabel(id)}`, onclick: () => act({ seat, action: "call_off", spot: id }) }, "Call off") : null));
    const balance = document.getElementById("balance").dataset.balance;
    return h("section", { class: "panel my-wagers", "aria-label": "Your wagers" },
      h("h2", {}, `Your wagers (seat ${seat})`),
      balance !== undefined ? h("p", { class: "balance" }, "Balance ", money(balance)) : null,
      rows.length ? h("ul", { class: "stack" }, rows) : h("p", { class: "muted" }, "No wagers on the layout."),
      pub().shooter === seat && pub().come_out && pub().phase === "betting"
        ? h("button", { type: "button", onclick: () => act({ seat, action: "pass_dice" }) }, "Pass the dice") : null);
  }

  function diceBox() {
    const p = pub();
    const rolls = p.rolls || [];
    const last = p.dice || (rolls.length ? rolls[rolls.length - 1].dice : null);
    return h("section", { class: "panel dice-box", "aria-label": "The dice" },
      h("p", { class: "dice", "aria-label": last ? `Last roll ${last[0]} and ${last[1]}, total ${last[0] + last[1]}` : "No roll yet" },
        last ? [h("span", { class: "die" }, String(last[0])), h("span", { class: "die" }, String(last[1])), h("strong", {}, ` = ${last[0] + last[1]}`)] : "No roll yet"),
      h("p", {}, "Point: ", h("strong", { class: "point" }, p.point ? String(p.point) : "off (come out roll)"),
        " · Shooter: ", h("strong", { class: "shooter" }, p.shooter ? `seat ${p.shooter}` : "waiting for a shooter: a pass or don't pass wager")),
      h("ol", { class: "history", "aria-label": "The last rolls, newest last" },
        rolls.slice(-20).map((r) => h("li", { title: `roll ${r.number}, seat ${r.shooter}` }, String(r.total)))));
  }

  // The stickperson's console: no more bets, the roll (two dice entered at a live table), an invalid roll.
  function console_() {
    const step = view.next_step || null;
    const phase = pub().phase;
    const stepName = step && (step.dealer || step.action);
    const out = [h("h2", {}, "Stickperson")];
    out.push(h("button", { type: "button", class: "primary", dataset: { step: "no_more_bets" }, disabled: stepName !== "no_more_bets",
      onclick: () => act({ dealer: "no_more_bets" }) }, "No more bets"));
    if (phase === "closed" && !view.finished) {
      if (stepName === "roll") {
        out.push(h("button", { type: "button", class: "primary", dataset: { step: "roll" }, onclick: () => act({ dealer: "roll" }) }, "Roll"));
      } else {
        const pick = (which, value, set) => h("label", {}, which, " ", h("select", { id: `die-${which === "Die 1" ? 1 : 2}`,
          onchange: (ev) => set(Number(ev.target.value)) }, [1, 2, 3, 4, 5, 6].map((n) => h("option", { value: n, selected: n === value }, String(n)))));
        out.push(h("div", { class: "row" }, pick("Die 1", die1, (x) => { die1 = x; }), pick("Die 2", die2, (x) => { die2 = x; }),
          h("button", { type: "button", class: "primary", dataset: { step: "roll-entered" }, onclick: () => act({ dealer: "roll", die1, die2 }) }, "Roll")));
      }
      out.push(h("button", { type: "button", dataset: { step: "invalid_roll" }, onclick: () => act({ irregularity: "invalid_roll" }) }, "Invalid roll (1.9)"));
    }
    if (!step && phase === "betting") out.push(h("p", { class: "muted" }, "Waiting: a shooter with a pass or don't pass wager, or the betting time."));
    return h("section", { class: "panel stick", "aria-label": "Stickperson's console" }, out);
  }

  function sitButtons() {
    if (me.role !== "player" || !info || mySeats().length) return null;
    const taken = new Set(Object.keys(view.seats).map(Number));
    const free = [];
    for (let n = 1; n <= info.seats; n += 1) if (!taken.has(n)) free.push(n);
    return h("div", { class: "row sit" }, free.map((n) => h("button", { type: "button", "aria-label": `Sit at seat ${n}`,
      onclick: async () => { try { await api("POST", `/api/tables/${encodeURIComponent(tableId)}/sit`, { seat: n }); } catch (e) { toast(e.message); } } }, `Sit at seat ${n}`)));
  }

  function draw() {
    if (gone || !alive()) return;
    if (!view) { mount(root, h("h1", {}, tableId), status); return; }
    const seats = mySeats();
    if (!seats.includes(chosenSeat)) chosenSeat = seats.length ? seats[0] : null;
    const seat = chosenSeat;
    const v = seat === null ? null : seatView(seat);
    const allowed = (v && v.allowed && v.allowed.bet) || [];
    const layout = (info && info.layout) || {};
    const last = seat !== null && view.last && view.last[String(seat)];
    const lines = (v && v.lines && v.lines.length) ? v.lines : staff ? view.settlement : last ? last.lines : null;
    mount(root, h("div", { class: "craps", dataset: { table: tableId, version: view.version, round: view.round || "", phase: pub().phase || "",
      point: pub().point || "", seat: seat === null ? "" : seat, rolls: (pub().rolls || []).length } },
      h("h1", {}, `${tableId} `, h("span", { class: "tag" }, "Craps")), status,
      h("p", { class: "phase" }, view.round ? `Roll ${view.number}: ${phaseWords(layout, pub().phase, view.finished)}` : "Waiting for the next roll",
        view.blocked ? ` · ${view.blocked}` : "", pub().waiting ? ` · ${pub().waiting}` : ""),
      sitButtons(),
      seats.length > 1 ? h("div", { class: "row" }, seats.map((n) => h("button", { type: "button", "aria-pressed": String(n === seat), onclick: () => { chosenSeat = n; draw(); } }, `Seat ${n}`))) : null,
      h("div", { class: "craps-grid" },
        h("div", { class: "felt-col" }, seat !== null ? chipSelector() : null, felt(seat, allowed)),
        h("div", { class: "side-col" }, diceBox(), staff ? console_() : null, seat !== null ? myWagers(seat, v) : null)),
      lines && lines.length ? h("section", { class: "panel settled" }, h("h2", {}, "Last roll settled"), linesTable(lines)) : null));
  }

  draw();
  return () => { gone = true; live.close(); };
}
