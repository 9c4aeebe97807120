"""A crash campaign against a real ``felt serve`` process: bots play over HTTP at fast tables
(Boston 5, Boston 7, Double Down Stud) while the server is killed with SIGKILL at random moments
and restarted under the same node name; after every kill the database is checked, and after
every restart the server's views are compared with what the players saw before the kill.

What is checked (see :func:`check_books` and :func:`check_views`):
every action a bot got an acknowledgement for is in ``round_events`` as sent and by its sender;
round numbers per table run 1..n with every round finished but the one open round; event
numbers within a round run without a gap; each settlement line appears once per seat and wager;
every round's ledger transaction belongs to a recorded event and sums to zero; a finished
round's postings are exactly the chip movements of its record replayed (so no payout is made
twice or lost); all postings sum to zero; each wallet equals the sum of its ledger rows; the
recovered round is the one open at the kill, and each player still sees their own cards.

Shared by ``tests/test_server_crash.py`` (the CI run) and ``bench/server_crash.py`` (longer).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import Engine, create_engine, select, text

from felt.cli.script import run_script
from felt.games.registry import table_game
from felt.rounds.engine import HOUSE, LAYOUT
from felt.server.store import (
    HOUSE_ACCOUNT,
    accounts,
    cage_receipts,
    felt_tables,
    idempotency,
    layout_account,
    player_account,
    postings,
    round_events,
    rounds,
    sqlalchemy_url,
)

ADMIN_PASSWORD = "crash-admin-password"
FELT = Path(sys.executable).with_name("felt")
GAMES: dict[str, str] = {"b5": "boston5", "b7": "boston7", "dds": "double-down-stud"}
SEATS: tuple[int, ...] = (2, 4)
"""The seats the bots take at every table (two players a table)."""


def tables_toml(decision_seconds: int = 2) -> str:
    """The campaign's tables: one of each game, dealing at once, short betting windows."""
    out = []
    for tid, game in GAMES.items():
        out.append(
            f'[[table]]\nid = "{tid}"\ngame = "{game}"\npace_seconds = 0\n'
            f"betting_seconds = 0.4\nbetween_rounds_seconds = 0.1\n"
            f"[table.settings]\ndecision_seconds = {decision_seconds}\n"
        )
    return "\n".join(out)


def free_port() -> int:
    """A TCP port nobody listens on now (kept for every restart of the campaign)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class ServerProcess:
    """``felt serve`` as a child process, started and SIGKILLed again and again."""

    database: str
    port: int
    tables: Path
    log: Path
    node: str = "crash-node"
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0

    def start(self, database: str | None = None) -> None:
        """Spawn the server (not waiting for it)."""
        env = {**os.environ, "FELT_ADMIN_PASSWORD": ADMIN_PASSWORD}
        argv = [str(FELT), "serve", "--database", database or self.database,
                "--port", str(self.port), "--tables", str(self.tables), "--node", self.node]  # fmt: skip
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        self.starts += 1

    def ready(self) -> bool:
        """Whether the server answers HTTP (uvicorn listens only once start-up has finished)."""
        try:
            httpx.get(f"http://127.0.0.1:{self.port}/api/me", timeout=1.0)
        except httpx.TransportError:
            return False
        return True

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Seconds until the server answers; raises if it exits or never answers."""
        begun = time.monotonic()
        while not self.ready():
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(
                    f"felt serve exited with {self.proc.returncode}:\n{self.tail()}"
                )
            if time.monotonic() - begun > timeout:
                raise AssertionError(f"felt serve not ready after {timeout} s:\n{self.tail()}")
            time.sleep(0.03)
        return time.monotonic() - begun

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        """A clean stop (SIGINT: uvicorn runs the shutdown)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.kill()

    def tail(self, lines: int = 40) -> str:
        """The end of the server's log."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


@dataclass(frozen=True)
class Ack:
    """An acknowledgement a bot received: the action as sent and where the server put it."""

    table: str
    round: str
    seq: int
    name: str
    sent: dict[str, Any]
    account_id: int
    key: str
    replayed: bool
    attempts: int


@dataclass
class Shared:
    """What the bots and the campaign share (under ``lock``)."""

    base: str
    stop: threading.Event = field(default_factory=threading.Event)
    in_flight: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    refused_retries: list[tuple[int, str]] = field(default_factory=list)
    """(account, idempotency key) of actions refused when sent again: none may be on record."""

    def count(self, what: str, n: int = 1) -> None:
        """Add to a tally."""
        with self.lock:
            self.counts[what] += n


class Bot(threading.Thread):
    """One player at one seat, playing as a client does: read the table, sit, wager, answer
    the elections pending for the seat; every action carries an idempotency key, and after a
    connection error the same request is sent again with the same key until it is answered."""

    def __init__(
        self,
        shared: Shared,
        name: str,
        account_id: int,
        token: str,
        table: str,
        seat: int,
        seed: int,
    ) -> None:
        super().__init__(name=f"bot-{name}", daemon=True)
        self.shared, self.player, self.account_id = shared, name, account_id
        self.table, self.seat, self.rng = table, seat, random.Random(seed)
        self.http = httpx.Client(
            base_url=shared.base,
            headers={"Authorization": f"Bearer {token}"},
            timeout=httpx.Timeout(15.0, connect=2.0),
        )
        self.done: set[tuple[str, str]] = set()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.shared.stop.is_set():
                self.step()
        except BaseException as err:  # reported by the campaign
            self.failure = err
        finally:
            self.http.close()

    def step(self) -> None:
        """Look at the table once and do what is due."""
        view = self.get(f"/api/tables/{self.table}")
        if view is None:
            return
        if str(self.seat) not in view["seats"]:
            self.request("sit", f"/api/tables/{self.table}/sit", {"seat": self.seat})
            return
        rid, mine = view.get("round"), (view.get("mine") or {}).get(str(self.seat))
        if rid is None or view.get("finished") or not mine:
            time.sleep(0.05)
            return
        todo: list[tuple[str, dict[str, Any] | None]] = []
        if mine["phase"] == "betting":
            todo.append(("wager", self.wager()))
        for p in mine["pending"]:
            if p["seat"] == self.seat:
                todo.append((p["election"], self.answer(p["election"], mine)))
        for what, action in todo:
            if (rid, what) in self.done:
                continue
            self.done.add((rid, what))
            if action is None:  # this time the bot lets the decision time run out
                self.shared.count("elections left to time out")
                continue
            self.act(rid, action)
            return
        time.sleep(0.08)

    def wager(self) -> dict[str, Any]:
        if self.table == "dds":
            return {"action": "bet", "seat": self.seat, "amount": "5.00"}
        out = {"action": "wager", "seat": self.seat, "ante": "5.00", "first": "10.00"}
        if self.rng.random() < 0.3:
            out["bonus"] = "1.00"
        return out

    def answer(self, election: str, mine: dict[str, Any]) -> dict[str, Any] | None:
        """A choice for an election (now and then none: the clock decides)."""
        if self.rng.random() < 0.02:
            return None
        s, r = self.seat, self.rng.random()
        if election == "expose or decline":
            return {"action": "expose" if r < 0.5 else "decline", "seat": s}
        if election == "second or fold":
            return {"action": "second" if r < 0.7 else "fold", "seat": s}
        if election == "discard or keep":
            if r < 0.5:
                return {"action": "keep", "seat": s}
            return {"action": "discard", "seat": s, "cards": self.rng.sample(mine["own_cards"], 2)}
        if election == "cut or decline":
            if r < 0.5:
                return {"action": "decline_cut", "seat": s}
            return {"action": "cut", "seat": s, "position": self.rng.randint(12, 40)}
        if election == "double or stand":
            return {"action": "double" if r < 0.5 else "stand", "seat": s}
        raise AssertionError(f"unknown election {election!r}")

    def get(self, path: str) -> dict[str, Any] | None:
        """GET, or None while the server is down."""
        try:
            r = self.http.get(path)
        except httpx.TransportError:
            self.shared.count("connection errors")
            time.sleep(0.05)
            return None
        if r.status_code >= 500:
            self.server_error(r)
            return None
        assert r.status_code == 200, f"{self.player}: GET {path}: {r.status_code} {r.text}"
        return dict(r.json())

    def request(
        self, what: str, path: str, body: dict[str, Any], impatient: bool = False
    ) -> tuple[httpx.Response | None, int]:
        """POST until answered (the same body, so the same idempotency key, every time); the
        answer and how many times it was sent.  An ``impatient`` client gives up on its first
        try after a few milliseconds and sends again while the server may still be working."""
        attempts, cut_off = 0, False
        while True:
            attempts += 1
            wait = self.rng.uniform(0.005, 0.05) if impatient and attempts == 1 else 15.0
            self.shared.in_flight.set()
            try:
                r = self.http.post(path, json=body, timeout=httpx.Timeout(wait, connect=2.0))
            except httpx.TransportError as err:
                if self.shared.stop.is_set():
                    return None, attempts
                late = isinstance(err, httpx.TimeoutException)
                cut_off = cut_off or not late
                if attempts == 1:
                    self.shared.count(
                        "requests sent again after a client time-out"
                        if late
                        else "requests sent again after a connection error"
                    )
                self.shared.count("connection errors")
                if not late:  # the server is down: give it a moment
                    time.sleep(0.1)
                continue
            if r.status_code >= 500:
                self.server_error(r)
                if attempts < 5:
                    continue
                return None, attempts
            if r.status_code != 200:
                with self.shared.lock:
                    self.shared.refusals[f"{what}: {r.json().get('error', '')[:70]}"] += 1
                    if attempts > 1 and "key" in body:
                        self.shared.refused_retries.append((self.account_id, str(body["key"])))
                return None, attempts
            if cut_off and r.json().get("replayed"):
                self.shared.count(
                    "replies lost to a kill, answered from the record after the restart"
                )
            return r, attempts

    def act(self, rid: str, action: dict[str, Any]) -> None:
        """Send one action with a fresh idempotency key; keep the acknowledgement."""
        key = secrets.token_hex(12)
        path, impatient = f"/api/tables/{self.table}/actions", self.rng.random() < 0.1
        r, attempts = self.request(
            action["action"], path, {"action": action, "key": key}, impatient
        )
        if r is None:
            return
        ack = r.json()
        got = Ack(self.table, str(ack["round"]), int(ack["seq"]), str(ack["action"]), action,
                  self.account_id, key, bool(ack.get("replayed")), attempts)  # fmt: skip
        with self.shared.lock:
            if got.round != rid:
                self.shared.counts["actions that landed in a later round after a retry"] += 1
            self.shared.acks.append(got)
            self.shared.counts["actions acknowledged"] += 1
            if got.replayed:
                self.shared.counts["acknowledgements replayed from the idempotency record"] += 1

    def server_error(self, r: httpx.Response) -> None:
        with self.shared.lock:
            self.shared.server_errors.append(
                f"{r.request.method} {r.request.url}: {r.status_code} {r.text[:300]}"
            )


# --------------------------------------------------------------------------- the database checks
def normalized(action: dict[str, Any], game_id: str) -> dict[str, Any]:
    """An action as the server stores it (amounts, cards spelt by the engine), without the
    player name the server adds to a wager."""
    out = table_game(game_id).parse_action(action, "action").to_json()
    out.pop("player", None)
    return out


@dataclass
class Books:
    """What one check of the database saw."""

    rounds: dict[str, int] = field(default_factory=dict)
    """Rounds started per table."""
    finished: int = 0
    events: int = 0
    postings: int = 0
    open_rounds: dict[str, str | None] = field(default_factory=dict)
    open_events: dict[str, int] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)


def check_books(
    engine: Engine, acks: list[Ack], replayed: set[str], refused: list[tuple[int, str]]
) -> Books:
    """Check every invariant of the record (see the module docstring); ``replayed`` holds the
    finished rounds whose ledger was already compared with their replay (skipped again);
    ``refused`` the (account, key) of actions refused when sent again, none of which may have
    been applied (a retry of an applied action is answered with its acknowledgement)."""
    books = Books()
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"))
        else:
            integrity = conn.execute(text("PRAGMA integrity_check")).scalar()
            assert integrity == "ok", f"SQLite integrity check after the kill: {integrity}"
        keys = {
            (int(r.account_id), str(r.key))
            for r in conn.execute(select(idempotency.c.account_id, idempotency.c.key))
        }
        names = {
            str(r.name): int(r.id) for r in conn.execute(select(accounts.c.id, accounts.c.name))
        }
        balances = {
            int(r.id): int(r.balance)
            for r in conn.execute(select(accounts.c.id, accounts.c.balance))
        }
        states = {str(r.id): (json.loads(r.state), int(r.version))
                  for r in conn.execute(select(felt_tables.c.id, felt_tables.c.state, felt_tables.c.version))}  # fmt: skip
        round_rows = conn.execute(select(rounds.c.id, rounds.c.table_id, rounds.c.number,
                                         rounds.c.finished, rounds.c.record)).all()  # fmt: skip
        event_rows = conn.execute(select(round_events.c.round_id, round_events.c.seq, round_events.c.action,
                                         round_events.c.effects, round_events.c.actor)).all()  # fmt: skip
        posting_rows = conn.execute(select(postings.c.txn, postings.c.account, postings.c.amount,
                                           postings.c.reason)).all()  # fmt: skip
        receipt_txns = [str(t) for t in conn.execute(select(cage_receipts.c.txn)).scalars()]
    books.events, books.postings = len(event_rows), len(posting_rows)

    # money: zero in all, each wallet its rows
    assert sum(int(p.amount) for p in posting_rows) == 0, "the ledger does not sum to zero"
    per_account: Counter[str] = Counter()
    for p in posting_rows:
        per_account[str(p.account)] += int(p.amount)
    for aid, balance in balances.items():
        assert per_account[player_account(aid)] == balance, (
            f"account {aid}: balance {balance} but its ledger rows sum to "
            f"{per_account[player_account(aid)]}"
        )

    # rounds: numbered 1..n per table, all finished but the open one
    by_table: dict[str, list[Any]] = {}
    for r in round_rows:
        by_table.setdefault(str(r.table_id), []).append(r)
    for tid, (state, version) in states.items():
        books.versions[tid] = version
        rows = sorted(by_table.get(tid, []), key=lambda r: int(r.number))
        numbers = [int(r.number) for r in rows]
        assert numbers == list(range(1, len(rows) + 1)), f"table {tid}: round numbers {numbers}"
        assert all(str(r.id) == f"{tid}:{r.number}" for r in rows)
        unfinished = [str(r.id) for r in rows if not r.finished]
        assert unfinished == ([str(rows[-1].id)] if unfinished else []), (
            f"table {tid}: unfinished rounds {unfinished} of {len(rows)}"
        )
        open_id = state.get("round_id")
        assert open_id == (unfinished[0] if unfinished else None), (
            f"table {tid}: the table's open round is {open_id}, the rounds table says {unfinished}"
        )
        snapshot = state.get("table") or {}
        assert int(snapshot.get("rounds_played", 0)) == len(rows) - len(unfinished), (
            f"table {tid}: {snapshot.get('rounds_played')} rounds played on record, "
            f"{len(rows) - len(unfinished)} finished"
        )
        books.rounds[tid] = len(rows)
        books.open_rounds[tid] = open_id
        books.finished += len(rows) - len(unfinished)

    # events: no gap within a round; each settlement line once
    events: dict[str, list[Any]] = {}
    for e in event_rows:
        events.setdefault(str(e.round_id), []).append(e)
    for rid, rows in events.items():
        seqs = sorted(int(e.seq) for e in rows)
        assert seqs == list(range(1, len(seqs) + 1)), f"round {rid}: event numbers {seqs}"
        lines = [
            (x["seat"], x["wager"])
            for e in rows
            for x in json.loads(e.effects)
            if x["kind"] == "line"
        ]
        assert len(lines) == len(set(lines)), (
            f"round {rid}: a settlement line twice: {sorted(lines)}"
        )
    for tid, open_id in books.open_rounds.items():
        if open_id is not None:
            books.open_events[tid] = len(events.get(open_id, []))
    keyed = {(str(e.round_id), int(e.seq)): e for e in event_rows}

    # the ledger: each round transaction is one recorded event and sums to zero
    txns: dict[str, list[Any]] = {}
    for p in posting_rows:
        txns.setdefault(str(p.txn), []).append(p)
    for txn, rows in txns.items():
        assert sum(int(p.amount) for p in rows) == 0, f"transaction {txn} does not sum to zero"
        if txn.startswith("cash:"):
            assert len(rows) == 2, f"cashier transaction {txn} posted {len(rows)} rows"
            assert txn in receipt_txns, f"cashier transaction {txn} has no receipt"
            continue
        rid, _, seq = txn.rpartition("#")
        assert (rid, int(seq)) in keyed, f"transaction {txn} has no event"

    # each cage receipt is one cashier transaction of the ledger, and no transaction has two
    assert len(receipt_txns) == len(set(receipt_txns)), "a cashier transaction has two receipts"
    assert set(receipt_txns) <= set(txns), "a cage receipt without its ledger postings"

    # a finished round's postings are its record's chip movements, each exactly once
    for r in round_rows:
        rid = str(r.id)
        if not r.finished or rid in replayed:
            continue
        record = json.loads(r.record)
        rnd = run_script(record["script"])
        layout = layout_account(str(r.table_id))

        def account(party: str, rnd: Any = rnd, layout: str = layout) -> str:
            if party == HOUSE:
                return HOUSE_ACCOUNT
            if party == LAYOUT:
                return layout
            return player_account(names[rnd.seats[int(party.split()[1])].player])

        want: Counter[tuple[str, int, str]] = Counter()
        for t in rnd.ledger.transfers:
            want[(account(t.source), -t.amount, t.reason)] += 1
            want[(account(t.target), t.amount, t.reason)] += 1
        got: Counter[tuple[str, int, str]] = Counter()
        for txn, rows in txns.items():
            if txn.rpartition("#")[0] == rid:
                for p in rows:
                    got[(str(p.account), int(p.amount), str(p.reason))] += 1
        assert got == want, (
            f"round {rid}: postings differ from its replay: {got - want} / {want - got}"
        )
        assert sum(a for (acc, a, _), n in got.items() for _ in range(n) if acc == layout) == 0
        replayed.add(rid)

    # every acknowledged action is on record, as sent and by its sender
    for ack in acks:
        row = keyed.get((ack.round, ack.seq))
        assert row is not None, f"acknowledged {ack.name} ({ack.round} #{ack.seq}) is not on record"
        stored = json.loads(row.action)
        stored.pop("player", None)
        assert stored == normalized(ack.sent, GAMES[ack.round.split(":")[0]]), (
            f"{ack.round} #{ack.seq}: {stored} but sent {ack.sent}"
        )
        assert row.actor == ack.account_id, f"{ack.round} #{ack.seq} recorded for {row.actor}"
    applied = [k for k in refused if k in keys]
    assert not applied, f"actions applied, then refused when sent again: {applied}"
    sent = [(a.account_id, a.key) for a in acks]
    assert len(sent) == len(set(sent)), "one idempotency key acknowledged twice"
    assert set(sent) <= keys, "an acknowledged action's idempotency key is not on record"
    places = [(a.round, a.seq) for a in acks]
    assert len(places) == len(set(places)), "two acknowledgements for one event"
    return books


# --------------------------------------------------------------------------- the views
Views = dict[str, dict[str, Any]]
"""Each player's view of their table, by player name."""


def _prefix(before: list[Any] | None, after: list[Any] | None) -> bool:
    before, after = before or [], after or []
    return after[: len(before)] == before


def check_views(
    engine: Engine,
    before: Views | None,
    books: Books,
    after: Views,
    seats: dict[str, tuple[str, int]],
    counts: Counter[str],
) -> None:
    """Compare what each player sees after a restart with the record at the last kill and with
    what the same player saw before it (``seats``: each player's table and seat)."""
    for player, a in after.items():
        tid, seat = seats[player]
        version, open_round = books.versions[tid], books.open_rounds[tid]
        assert a["version"] >= version, (
            f"{player}: version {a['version']} after, {version} on record"
        )
        if a["version"] == version:
            assert a["round"] == open_round, (
                f"{player}: round {a['round']} after, {open_round} open"
            )
            counts["views read at the version of the kill"] += 1
        b = (before or {}).get(player)
        if b is None or b["round"] is None or b["finished"]:
            continue
        assert b["version"] <= version, f"{player}: saw version {b['version']}, {version} on record"
        mine_b = b["mine"][str(seat)]
        if a["version"] == b["version"]:
            # the decision clocks are time, not state: each restarts in full (docs/design.md, Time)
            a, b = _timeless(a), _timeless(b)
            assert a == b, f"{player}: the same version shows\n{b}\nbefore the kill and\n{a}\nafter"
            counts["mid-round views identical after the restart"] += 1
        elif a["round"] == b["round"]:
            mine_a = a["mine"][str(seat)]
            for key in ("own_cards", "lines"):
                assert _prefix(mine_b[key], mine_a[key]), (
                    f"{player}: {key} {mine_b[key]} then {mine_a[key]}"
                )
            for key in ("dealer_cards", "dealer_up"):
                if key in mine_b:
                    assert _prefix(mine_b[key], mine_a[key]), (
                        f"{player}: {key} {mine_b[key]} then {mine_a[key]}"
                    )
            counts["mid-round views continued after the restart"] += 1
        else:
            with engine.connect() as conn:
                row = conn.execute(
                    select(rounds.c.finished, rounds.c.record).where(rounds.c.id == b["round"])
                ).one()
            assert row.finished, f"{player}: round {b['round']} neither shown nor finished"
            cards = json.loads(row.record)["seats"][str(seat)]["cards"]
            assert _prefix(mine_b["own_cards"], cards), (
                f"{player}: saw {mine_b['own_cards']}, record {cards}"
            )
            counts["mid-round views finished after the restart"] += 1


def fetch_views(base: str, tokens: dict[str, str], seats: dict[str, tuple[str, int]]) -> Views:
    """Every player's view of their table now (raises while the server is down)."""
    out: Views = {}
    with httpx.Client(base_url=base, timeout=10.0) as http:
        for player, token in tokens.items():
            r = http.get(
                f"/api/tables/{seats[player][0]}", headers={"Authorization": f"Bearer {token}"}
            )
            assert r.status_code == 200, r.text
            out[player] = dict(r.json())
    return out


# --------------------------------------------------------------------------- the campaign
KILL_MODES: dict[str, float] = {"random": 0.5, "in flight": 0.35, "start-up": 0.15}
"""How a kill is timed, with its share: at a random moment while bots play; a few milliseconds
after a bot sent a request (its reply likely lost); or while the server is starting."""


COVERAGE = 3
"""Kills with a round mid-way, and mid-round views compared after a restart, that a campaign
must reach: it kills on past its number (up to twice it) until it has, since where the random
kills land is chance and a run that missed them would have tested less, not found a fault."""


@dataclass
class Report:
    """What a campaign did and saw."""

    backend: str
    seed: int
    kills: int = 0
    modes: Counter[str] = field(default_factory=Counter)
    counts: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    ready_after_kill: list[float] = field(default_factory=list)
    pg_linger: float = 0.0
    """The longest a killed server's PostgreSQL connections stayed after the kill (seconds)."""
    seconds: float = 0.0
    books: Books = field(default_factory=Books)

    def views_compared(self) -> int:
        """Mid-round views compared after a restart with what the same player saw before the
        kill (the same version, or the same round further on)."""
        counts = self.counts
        identical = counts["mid-round views identical after the restart"]
        return identical + counts["mid-round views continued after the restart"]

    def covered(self) -> bool:
        """Whether the kills have hit what the campaign exists to test, often enough: rounds
        mid-way (:data:`COVERAGE`), and mid-round views compared after the restart."""
        mid_way = self.counts["kills with a round mid-way (per table)"]
        return mid_way >= COVERAGE and self.views_compared() >= COVERAGE

    def summary(self) -> str:
        """The counts, one per line."""
        b = self.books
        ready = sorted(self.ready_after_kill) or [0.0]
        median = statistics.median(ready)
        lines = [
            f"crash campaign on {self.backend} (seed {self.seed}): {self.kills} SIGKILLs in "
            f"{self.seconds:.0f} s ({', '.join(f'{n} {m}' for m, n in sorted(self.modes.items()))})",
            f"  rounds started {sum(b.rounds.values())} ({', '.join(f'{t} {n}' for t, n in sorted(b.rounds.items()))}), "
            f"finished {b.finished}; events {b.events}; ledger rows {b.postings}",
            f"  restart to ready after a kill: median {median:.2f} s, max {ready[-1]:.2f} s",
        ]
        if self.backend == "postgresql":
            lines.append(f"  a killed server's connections gone within {self.pg_linger:.2f} s")
        lines += [f"  {what}: {n}" for what, n in sorted(self.counts.items())]
        lines += [f"  refused ({n}x) {what}" for what, n in self.refusals.most_common(8)]
        return "\n".join(lines)


def _with_app_name(database: str, name: str) -> str:
    """A PostgreSQL URL whose connections carry ``application_name`` (to find them later)."""
    if not database.startswith("postgres"):
        return database
    return f"{database}{'&' if '?' in database else '?'}application_name={name}"


def _pg_backends(engine: Engine, name: str) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :n"),
                                {"n": name}).scalar() or 0)  # fmt: skip


def _setup_players(base: str) -> tuple[dict[str, str], dict[str, int], dict[str, tuple[str, int]]]:
    """Open a cashier and two players a table with money; their tokens, ids and seats."""
    tokens: dict[str, str] = {}
    ids: dict[str, int] = {}
    seats = {f"{tid}-s{seat}": (tid, seat) for tid in GAMES for seat in SEATS}
    with httpx.Client(base_url=base, timeout=30.0) as http:

        def login(name: str, password: str) -> dict[str, str]:
            r = http.post("/api/login", json={"name": name, "password": password})
            assert r.status_code == 200, r.text
            return {"Authorization": f"Bearer {r.json()['token']}"}

        admin = login("admin", ADMIN_PASSWORD)
        for name, role in [("cage", "cashier"), *((p, "player") for p in seats)]:
            r = http.post(
                "/api/accounts",
                json={"name": name, "role": role, "password": f"{name}-password"},
                headers=admin,
            )
            assert r.status_code == 200, r.text
            ids[name] = int(r.json()["id"])
        cage = login("cage", "cage-password")
        for player in seats:
            body = {"player": player, "amount": "100000.00", "key": f"float-{player}"}
            assert http.post("/api/cashier/deposit", json=body, headers=cage).status_code == 200
            tokens[player] = login(player, f"{player}-password")["Authorization"][7:]
    return tokens, ids, seats


def run_campaign(
    database: str,
    workdir: Path,
    kills: int,
    backend: str,
    seed: int | None = None,
    say: Callable[[str], None] | None = None,
) -> Report:
    """Play at the campaign's tables while killing the server ``kills`` times (the first while
    it creates the schema, then as :data:`KILL_MODES` draws), and more, up to twice as many,
    until :meth:`Report.covered`; check the record after every kill and the views after every
    restart; return what happened."""
    campaign = Campaign(database, workdir, backend, seed, say)
    try:
        campaign.run(kills)
    finally:
        campaign.close()
    return campaign.finish()


class Campaign:
    """The state of one campaign: the server process, the bots, what was checked."""

    def __init__(
        self, database: str, workdir: Path, backend: str, seed: int | None,
        say: Callable[[str], None] | None,
    ) -> None:  # fmt: skip
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.report = Report(backend, self.seed)
        self.began = time.monotonic()
        self.database, self.say = database, say
        tables = workdir / "tables.toml"
        tables.write_text(tables_toml())
        self.tag = secrets.token_hex(4)
        self.server = ServerProcess(database, free_port(), tables, workdir / "serve.log")
        self.base = f"http://127.0.0.1:{self.server.port}"
        self.engine = create_engine(sqlalchemy_url(database))
        self.shared = Shared(self.base)
        self.bots: list[Bot] = []
        self.checked: set[str] = set()
        self.incarnation = 0
        self.before: Views | None = None
        self.books: Books | None = None
        self.tokens: dict[str, str] = {}
        self.seats: dict[str, tuple[str, int]] = {}

    def log(self, text: str) -> None:
        if self.say is not None:
            self.say(f"{time.monotonic() - self.began:6.1f} s {text}")

    def start(self) -> None:
        """Start the server's next incarnation (its PostgreSQL connections named after it)."""
        self.server.start(
            _with_app_name(self.database, f"felt-crash-{self.tag}-{self.incarnation}")
        )

    def run(self, kills: int) -> None:
        """The campaign proper."""
        rng, report = self.rng, self.report
        self.start()  # on the empty database: killed while it creates the schema
        time.sleep(rng.uniform(0.5, 2.5))
        self.kill("first start")
        self.start()
        first_ready = self.server.wait_ready()
        self.tokens, ids, self.seats = _setup_players(self.base)
        self.bots = [Bot(self.shared, p, ids[p], self.tokens[p], tid, seat, self.seed + n)
                     for n, (p, (tid, seat)) in enumerate(self.seats.items())]  # fmt: skip
        for bot in self.bots:
            bot.start()
        ready = True
        while report.kills < kills or (not report.covered() and report.kills < 2 * kills):
            mode = rng.choices(list(KILL_MODES), list(KILL_MODES.values()))[0]
            if not ready:
                self.start()
            if mode == "start-up" and not ready:
                time.sleep(rng.uniform(0.0, 1.2 * first_ready))
                if self.server.ready():
                    report.counts["start-up kills that came after the server was ready"] += 1
                self.kill(mode)
                continue
            if not ready:
                self.restarted()
            time.sleep(rng.uniform(0.3, 2.5) if mode == "random" else rng.uniform(0.3, 1.2))
            self.before = fetch_views(self.base, self.tokens, self.seats)
            if mode == "in flight":
                self.shared.in_flight.clear()
                self.shared.in_flight.wait(timeout=3.0)
                time.sleep(rng.uniform(0.0, 0.05))
            self.kill("random" if mode == "start-up" else mode)
            ready = False
        self.start()  # the last restart: play goes on at every table
        self.restarted()
        assert self.books is not None
        _wait_for_rounds(self.engine, self.books)

    def kill(self, mode: str) -> None:
        """SIGKILL the server, then check the record it left."""
        self.server.kill()
        report = self.report
        report.kills += 1
        report.modes[mode] += 1
        if self.database.startswith("postgres"):
            name = f"felt-crash-{self.tag}-{self.incarnation}"
            begun = time.monotonic()
            while _pg_backends(self.engine, name):
                assert time.monotonic() - begun < 15, (
                    f"connections of the killed server left: {name}"
                )
                time.sleep(0.05)
            report.pg_linger = max(report.pg_linger, time.monotonic() - begun)
        self.incarnation += 1
        if mode == "first start":
            return
        books = self.books = check_books(
            self.engine, list(self.shared.acks), self.checked, list(self.shared.refused_retries)
        )
        for tid, rid in books.open_rounds.items():
            if rid is None:
                report.counts["kills between rounds (per table)"] += 1
            elif books.open_events.get(tid):
                report.counts["kills with a round mid-way (per table)"] += 1
            else:
                report.counts["kills with a round just opened (per table)"] += 1
        self.log(f"kill {report.kills} ({mode}): {sum(books.rounds.values())} rounds, "
                 f"{books.events} events, {len(self.shared.acks)} acknowledged")  # fmt: skip

    def restarted(self) -> None:
        """Wait for the restarted server; compare its views with the record and the players'."""
        self.report.ready_after_kill.append(self.server.wait_ready())
        self.log(f"ready again after {self.report.ready_after_kill[-1]:.2f} s")
        assert self.books is not None
        after = fetch_views(self.base, self.tokens, self.seats)
        check_views(self.engine, self.before, self.books, after, self.seats, self.report.counts)

    def close(self) -> None:
        """Stop the bots and the server (a clean stop)."""
        self.shared.stop.set()
        for bot in self.bots:
            bot.join(timeout=30)
        self.server.stop()

    def finish(self) -> Report:
        """The last checks, once everything has stopped."""
        for bot in self.bots:
            assert bot.failure is None, f"{bot.name}: {bot.failure!r}"
        shared, report = self.shared, self.report
        assert not shared.server_errors, "server errors:\n" + "\n".join(shared.server_errors[:10])
        report.books = check_books(
            self.engine, list(shared.acks), self.checked, list(shared.refused_retries)
        )
        self.engine.dispose()
        report.counts.update(shared.counts)
        report.refusals = shared.refusals
        tracebacks = self.server.log.read_text(errors="replace").count("Traceback")
        assert not tracebacks, f"the server logged {tracebacks} tracebacks:\n{self.server.tail(80)}"
        report.seconds = time.monotonic() - self.began
        return report


def _wait_for_rounds(engine: Engine, books: Books, timeout: float = 30.0) -> None:
    """Wait until every table has finished a round it had not finished at the last kill."""
    deadline = time.monotonic() + timeout
    while True:
        with engine.connect() as conn:
            done = {str(t): int(n) for t, n in conn.execute(text(
                "SELECT table_id, count(*) FROM rounds WHERE finished GROUP BY table_id"))}  # fmt: skip
        behind = [
            t
            for t, n in books.rounds.items()
            if done.get(t, 0) <= n - (books.open_rounds[t] is not None)
        ]
        if not behind:
            return
        assert time.monotonic() < deadline, f"no round finished after the last restart at {behind}"
        time.sleep(0.2)


def _timeless(view: dict[str, Any]) -> dict[str, Any]:
    """A view without its decision clocks' seconds (which elections are timed stays in)."""
    clock = [{k: v for k, v in c.items() if k != "seconds"} for c in view.get("clock", [])]
    return {**view, "clock": clock}
