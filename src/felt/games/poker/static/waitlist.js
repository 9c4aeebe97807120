// The poker room's waiting lists (N.J.A.C. 19:47-14.18). The floor (a supervisor) sees every list
// in order: add a player, call the first player not yet called to a seat with a time to arrive
// (the clock counts down), seat them, record a no-show, move a player down or remove them with a
// reason, and read the record of changes; a dealer sees the same lists without the controls. A
// player sees only their own place on each list, a call when it comes, and joins or leaves a list.
// Every answer is the server's view for the one asking: nothing here hides what was sent.
import { api, ApiError, newKey, session } from "/static/api.js";
import { h, mount, toast } from "/static/dom.js";

const POLL_MS = 3000;
const W = "/api/poker/waitlist";

function ordinal(n) {
  const tail = n % 100 >= 10 && n % 100 <= 20 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function timeOfDay(epoch) {
  return new Date(epoch * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

// What the arrival clock says for a called entry: time left, or how late.
function arrival(arriveBy, now) {
  const left = arriveBy - now;
  return left >= 0 ? { late: false, text: `${clockText(left)} left to arrive (by ${timeOfDay(arriveBy)})` }
    : { late: true, text: `late by ${clockText(-left)}: seat them or record a no-show` };
}

// A modal asking the floor's reason; resolves with the words, or null on Cancel.
function askReason(title) {
  return new Promise((resolve) => {
    const input = h("input", { id: "wl-reason", name: "reason", required: true, maxlength: 200, autocomplete: "off" });
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "wl-reason-title" });
    const done = (answer) => { dialog.close(); dialog.remove(); resolve(answer); };
    mount(dialog,
      h("form", { method: "dialog", onsubmit: (ev) => { ev.preventDefault(); if (input.value.trim()) done(input.value.trim()); } },
        h("h2", { id: "wl-reason-title" }, title),
        h("label", { for: "wl-reason" }, "Reason (recorded with your name and the time)"), input,
        h("div", { class: "row" },
          h("button", { type: "submit", class: "primary" }, "Record"),
          h("button", { type: "button", onclick: () => done(null) }, "Cancel"))));
    dialog.addEventListener("cancel", (ev) => { ev.preventDefault(); done(null); });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}

export function waitlistScreen(root, _arg, alive = () => true) {
  const me = session.get();
  const floor = me && me.role === "supervisor";
  let view = null;
  let offset = 0; // the server's clock minus this browser's, in seconds
  let busy = false;
  let error = "";
  let stopped = false;
  let changes = [];
  const status = h("p", { class: "error", role: "alert" });
  const calledTo = {}; // game -> the persistent "called to" input of that list
  // the floor's form to add a player, built once so a redraw keeps what is typed
  const addGame = h("input", { id: "wl-add-game", name: "game", list: "wl-games", required: true, maxlength: 64,
    autocomplete: "off", placeholder: "holdem 2.00/4.00 fixed", "aria-describedby": "wl-add-help" });
  const addPlayer = h("input", { id: "wl-add-player", name: "player", required: true, maxlength: 64, autocomplete: "off" });
  const addForm = h("form", { class: "panel wl-add", "aria-labelledby": "wl-add-title",
    onsubmit: (ev) => { ev.preventDefault(); send("join", { game: addGame.value.trim(), player: addPlayer.value.trim() },
      (c) => { addPlayer.value = ""; return `${c.player} is ${ordinal(c.place)} on ${c.game}`; }); } },
  h("h2", { id: "wl-add-title" }, "Add a player"),
  h("div", { class: "fields" },
    h("div", {}, h("label", { for: "wl-add-game" }, "Game and limit"), addGame,
      h("p", { id: "wl-add-help", class: "muted hint" }, "As the table posts it: variant, limits, fixed / pot / no")),
    h("div", {}, h("label", { for: "wl-add-player" }, "Player (account name)"), addPlayer)),
  h("button", { type: "submit", class: "primary", id: "wl-add-button" }, "Add to the list"));
  const joinGame = h("select", { id: "wl-join-game", name: "game" });

  const now = () => Date.now() / 1000 + offset;

  async function load() {
    const v = await api("GET", W);
    if (stopped || !alive()) return;
    offset = v.now - Date.now() / 1000;
    view = v;
    error = "";
    if (floor || (me && me.role === "dealer")) {
      try { changes = (await api("GET", `${W}/changes?limit=20`)).changes; } catch { /* the lists still show */ }
    }
    draw();
  }

  // an intended change keeps its key until the server has answered it: sent again after a lost
  // answer (the server unreachable), it is answered once, never made twice
  const pending = {};
  async function send(path, body, said) {
    if (busy) return;
    busy = true;
    status.textContent = "";
    draw();
    const what = JSON.stringify([path, body]);
    const key = pending[what] || (pending[what] = newKey());
    try {
      const r = await api("POST", `${W}/${path}`, { ...body, key });
      delete pending[what];
      view = r.view;
      offset = view.now - Date.now() / 1000;
      toast(said(r.change));
      await load();
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 0)) delete pending[what];
      status.textContent = e.message;
    } finally {
      busy = false;
      draw();
    }
  }

  function entryRow(game, e) {
    const clock = e.arrive_by !== null ? arrival(e.arrive_by, now()) : null;
    const who = `${e.player} (${game})`;
    const act = (path, text, label, extra, said) => h("button", { type: "button", disabled: busy, "aria-label": `${label} ${who}`,
      dataset: { action: `${path}-${e.player}-${game}` },
      onclick: async () => {
        const more = extra ? await extra() : {};
        if (more === null) return;
        send(path, { game, player: e.player, ...more }, said);
      } }, text);
    return h("li", { class: "wl-entry" + (floor ? " has-actions" : "") + (clock ? (clock.late ? " late" : " called") : ""), dataset: { player: e.player } },
      h("span", { class: "wl-place" }, ordinal(e.place)),
      h("span", { class: "wl-name" }, e.player),
      h("span", { class: "wl-state" },
        clock ? [`called${e.called_to ? ` to ${e.called_to}` : ""} at ${timeOfDay(e.called_at)}; `,
          h("span", { class: "clock wl-clock", dataset: { arriveBy: e.arrive_by, late: clock.late ? "1" : "0" } }, clock.text)]
          : `waiting since ${timeOfDay(e.joined)}`),
      floor ? h("span", { class: "row wl-actions" },
        clock && !clock.late ? act("seat", "Seat", "Seat", null, (c) => `${c.player} seated; off the ${c.game} list`) : null,
        clock && clock.late ? act("no-show", "No-show", "Record a no-show for", null,
          (c) => c.place ? `${c.player} moved down to ${ordinal(c.place)}` : `${c.player} removed: did not arrive`) : null,
        act("move-down", "Move down", "Move down", async () => {
          const reason = await askReason(`Move ${e.player} down one place on ${game}`);
          return reason === null ? null : { reason };
        }, (c) => `${c.player} is now ${ordinal(c.place)} on ${c.game}`),
        act("leave", "Remove", "Remove", async () => {
          const reason = await askReason(`Remove ${e.player} from ${game}`);
          return reason === null ? null : { reason };
        }, (c) => `${c.player} removed from ${c.game}`)) : null);
  }

  function listPanel(list) {
    const game = list.game;
    if (!calledTo[game]) {
      calledTo[game] = h("input", { id: `wl-to-${game.replace(/[^a-z0-9]+/gi, "-")}`, name: "called_to", maxlength: 64,
        autocomplete: "off", placeholder: "table 4 seat 7", "aria-label": `Seat to call to for ${game}` });
    }
    const uncalled = list.entries.some((e) => e.called_at === null);
    return h("section", { class: "panel wl-list", "aria-label": `Waiting list ${game}`, dataset: { game } },
      h("h2", {}, game, " ", h("span", { class: "tag" }, `${list.entries.length} waiting`)),
      h("ol", { class: "wl-entries", "aria-label": `Players waiting for ${game}, first come first served` },
        list.entries.map((e) => entryRow(game, e))),
      floor ? h("form", { class: "row wl-call", onsubmit: (ev) => {
        ev.preventDefault();
        const to = calledTo[game].value.trim();
        send("call", { game, ...(to ? { called_to: to } : {}) }, (c) => {
          calledTo[game].value = "";
          return `${c.player} called to ${to || "a seat"}: ${clockText(view.arrive_seconds)} to arrive`;
        });
      } }, calledTo[game],
      h("button", { type: "submit", class: "primary", disabled: busy || !uncalled, "aria-label": `Call the next player for ${game}` },
        "Call next")) : null);
  }

  function changeRow(c) {
    const words = { join: "joined", leave: "left", remove: "removed", call: "called", seat: "seated",
      no_show: "no-show", move_down: "moved down" }[c.change] || c.change;
    return h("li", {}, h("span", { class: "muted" }, timeOfDay(c.at)), " ", h("strong", {}, c.player), ` ${words} · ${c.game}`,
      c.place ? ` · now ${ordinal(c.place)}` : "", ` · ${c.reason} · by ${c.by}`);
  }

  function floorView() {
    const gamesList = h("datalist", { id: "wl-games" }, view.games.map((g) => h("option", { value: g })));
    return [
      h("h1", {}, "Waiting lists"),
      h("p", { class: "muted" }, `First come first served (14.18). A called player has ${clockText(view.arrive_seconds)} to arrive; `
        + `a no-show is ${view.no_show === "remove" ? "removed" : "moved down one place"}.`),
      status,
      floor ? [addForm, gamesList] : h("p", { class: "muted" }, "You may read the lists; the floor changes them."),
      view.lists.length ? h("div", { class: "wl-lists" }, view.lists.map(listPanel))
        : h("p", { class: "panel" }, "No one is waiting."),
      changes.length ? h("section", { class: "panel wl-record", "aria-label": "Recent changes" },
        h("h2", {}, "Recent changes"), h("ol", { class: "wl-changes", reversed: true }, changes.map(changeRow))) : null,
    ];
  }

  function playerView() {
    const mine = new Set(view.places.map((p) => p.game));
    const open = view.games.filter((g) => !mine.has(g));
    const chosen = joinGame.value;
    mount(joinGame, open.map((g) => h("option", { value: g, selected: g === chosen }, g)));
    return [
      h("h1", {}, "Waiting lists"),
      status,
      view.places.length ? h("ul", { class: "grid wl-places", "aria-label": "Your places" }, view.places.map((p) => {
        const clock = p.called ? arrival(p.arrive_by, now()) : null;
        return h("li", { class: "panel wl-place-card" + (p.called ? " called" : ""), dataset: { game: p.game } },
          h("h2", {}, p.game),
          h("p", { class: "wl-mine" }, h("strong", {}, ordinal(p.place)), ` of ${p.of} on the list`),
          p.called ? h("p", { class: "notice", role: "status" }, `Your seat is ready${p.called_to ? ` at ${p.called_to}` : ""}: `,
            h("span", { class: "clock wl-clock", dataset: { arriveBy: p.arrive_by, late: clock.late ? "1" : "0" } },
              clock.late ? "the time to arrive has passed; see the floor" : `come by ${timeOfDay(p.arrive_by)} (${clockText(p.arrive_by - now())} left)`)) : null,
          h("button", { type: "button", disabled: busy, "aria-label": `Leave the ${p.game} list`, dataset: { action: `leave-${p.game}` },
            onclick: () => send("leave", { game: p.game }, (c) => `You left the ${c.game} list`) }, "Leave list"));
      })) : h("p", { class: "panel" }, "You are not on a waiting list."),
      open.length ? h("form", { class: "panel row wl-join", onsubmit: (ev) => {
        ev.preventDefault();
        send("join", { game: joinGame.value }, (c) => `You are ${ordinal(c.place)} on ${c.game}`);
      } }, h("label", { for: "wl-join-game" }, "Join a list"), joinGame,
      h("button", { type: "submit", class: "primary", disabled: busy }, "Join")) : null,
    ];
  }

  function draw() {
    if (stopped) return;
    if (!view) { mount(root, h("h1", {}, "Waiting lists"), h("p", {}, error || "Loading…")); return; }
    mount(root, h("div", { class: "waitlist" }, me && me.role === "player" ? playerView() : floorView()));
  }

  // the arrival clocks count down between answers without redrawing the page
  function tick() {
    for (const el of root.querySelectorAll(".wl-clock")) {
      const by = Number(el.dataset.arriveBy);
      const a = arrival(by, now());
      if (a.late !== (el.dataset.late === "1")) { draw(); return; } // the controls change when the time is up
      el.textContent = me && me.role === "player" ? (a.late ? "the time to arrive has passed; see the floor"
        : `come by ${timeOfDay(by)} (${clockText(by - now())} left)`) : a.text;
    }
  }

  const ticker = setInterval(tick, 1000);
  const poller = setInterval(() => { if (!busy && !document.querySelector("dialog[open]")) load().catch((e) => { error = e.message; }); }, POLL_MS);
  draw();
  load().catch((e) => { error = e.message; draw(); });
  return () => { stopped = true; clearInterval(ticker); clearInterval(poller); };
}
