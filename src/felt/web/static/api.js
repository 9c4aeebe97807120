// The server's API: requests with the session token, and one WebSocket that survives restarts.

const KEY = "felt.session";

export const session = {
  get() {
    try { return JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch { return null; }
  },
  set(s) { sessionStorage.setItem(KEY, JSON.stringify(s)); },
  clear() { sessionStorage.removeItem(KEY); },
};

// A session that ends (expired, replaced by a log-in elsewhere, logged out, locked) is noticed
// here, in one place, whichever screen asked: an API answer 401 or a socket closed with 4401.
// The shell (app.js) registers what to do then: go to the log-in screen, which says why.
const ENDED = "felt.ended";
let onEnded = () => {};
export function whenSessionEnds(fn) { onEnded = fn; }

export function sessionEnded(why) {
  if (!session.get()) return; // already told
  session.clear();
  sessionStorage.setItem(ENDED, why || "");
  onEnded(why || "");
}

// Why the last session ended (null if it did not), read once by the log-in screen.
export const ended = {
  get() { return sessionStorage.getItem(ENDED); },
  clear() { sessionStorage.removeItem(ENDED); },
};

export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function api(method, path, body) {
  const s = session.get();
  const headers = { Accept: "application/json" };
  if (s) headers.Authorization = "Bearer " + s.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("the server cannot be reached; trying again shortly", 0);
  }
  let data = null;
  try { data = await res.json(); } catch { /* an empty or non-JSON answer */ }
  if (!res.ok) {
    if (res.status === 401 && s) sessionEnded(data && data.error); // a token was sent and refused
    throw new ApiError((data && data.error) || `the server answered ${res.status}`, res.status);
  }
  return data;
}

export function newKey() {
  return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random().toString(16).slice(2));
}

// One socket per page: it logs in with the token, re-subscribes after a reconnect, and sends an
// action again with the same key if its answer never came (the server applies a key once).
export class Live {
  constructor(onMessage, onState) {
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.subs = new Set();
    this.waiting = new Map(); // key -> {msg, resolve, reject}
    this.delay = 250;
    this.closed = false;
    this.open();
  }

  open() {
    const s = session.get();
    if (!s || this.closed) return;
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/ws";
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ token: s.token }));
    ws.onmessage = (ev) => {
      if (this.closed) return; // the screen that opened it is gone
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "hello") {
        this.delay = 250;
        this.onState("live");
        for (const t of this.subs) ws.send(JSON.stringify({ subscribe: t }));
        for (const w of this.waiting.values()) ws.send(JSON.stringify(w.msg));
        return;
      }
      if (msg.type === "error" && msg.status === 401) { // the close follows: the shell says it
        this.why = msg.error;
        if (!msg.key || !this.waiting.has(msg.key)) return;
      }
      if ((msg.type === "ack" || msg.type === "error") && msg.key && this.waiting.has(msg.key)) {
        const w = this.waiting.get(msg.key);
        this.waiting.delete(msg.key);
        if (msg.type === "ack") w.resolve(msg);
        else w.reject(new ApiError(msg.error, msg.status));
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.closed) return;
      if (ev.code === 4401) { this.onState("ended"); sessionEnded(this.why || ev.reason); return; }
      if (ev.code === 4403) { // a temporary password: nothing until the user chooses their own
        const s = session.get();
        if (s) session.set({ ...s, must_change: true });
        this.closed = true;
        location.hash = "#/password";
        return;
      }
      this.onState("reconnecting");
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 4000);
    };
  }

  subscribe(table) {
    this.subs.add(table);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ subscribe: table }));
  }

  // ``round``: the round the action is for, so a retry after a restart cannot land in the next
  act(table, action, round) {
    const key = newKey();
    const msg = { table, action, key };
    if (round) msg.round = round;
    return new Promise((resolve, reject) => {
      this.waiting.set(key, { msg, resolve, reject });
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    });
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
