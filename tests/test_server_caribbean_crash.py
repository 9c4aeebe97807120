"""kill -9 of a real ``felt serve`` while progressive wagers and jackpot payments are in flight
(issue 21; 19:47-16.11), on SQLite and on PostgreSQL.

Bots play two Caribbean Stud tables linked to one meter, always with the progressive wager; the
server runs with every third deck it shuffles stacked so the position in play is dealt a royal
flush, and each payment off the meter waits a moment inside its transaction after writing a
marker file.  The campaign kills the server (SIGKILL) now at such a marker, with a jackpot's
transaction open, now at a random moment, restarts it under the same node name, and after every
kill and at the end finds: the meter's row equal to its account's postings and never negative,
the ledger summing to zero and every wallet equal to its rows, every finished round's postings
exactly its record's chip movements replayed (a jackpot paid once or not at all, never twice),
every settlement carrying the meter the ledger held when it was recorded, and every action a bot
was acknowledged for on record as sent.  Bots and server process: tests/crash_campaign.py.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, select

from felt.cli.script import run_script
from felt.games.registry import table_game
from felt.rounds.engine import HOUSE, LAYOUT, PROGRESSIVE
from felt.server.store import (
    HOUSE_ACCOUNT,
    accounts,
    layout_account,
    player_account,
    postings,
    progressive_account,
    progressive_meters,
    round_events,
    rounds,
    sqlalchemy_url,
)
from tests.crash_campaign import ADMIN_PASSWORD, Bot, ServerProcess, Shared, free_port
from tests.server_helpers import CRASH_SUMMARIES, postgres_schema_url

CS = "caribbean_stud"
METER = "crashpot"
TABLES = ("c1", "c2")
SEATS = (2,)
"""One player a table, so the one position in play is the one a stacked deck deals a royal."""
KILLS = 4
LAUNCHER = """
import itertools, os, sys, time
from felt.core.cards import parse_cards
from felt.rounds import shuffle
from felt.server import store

ROYAL = parse_cards("As Ks Qs Js Ts")
real_shuffle = shuffle.SystemShuffle.shuffle
count = itertools.count()

def stacked(self, cards):
    order = real_shuffle(self, cards)
    if len(cards) == 52 and next(count) % 3 == 2:  # a new round's deck: the one position in
        rest = iter([c for c in order if c not in ROYAL])  # play dealt a royal, round the
        royal = iter(ROYAL)  # table one card at a time (its cards are the 1st, 3rd ... 9th)
        order = tuple(next(royal) if i in (0, 2, 4, 6, 8) else next(rest) for i in range(52))
    return order

shuffle.SystemShuffle.shuffle = stacked
real_post = store.Store.post

def slow_jackpot(self, conn, txn, entries):
    real_post(self, conn, txn, entries)
    if any(p.account.startswith("progressive:") and p.amount < 0 for p in entries):
        open(os.environ["FELT_TEST_JACKPOT_MARKER"], "a").write(txn + "\\n")
        time.sleep(0.4)  # a jackpot's transaction open: the campaign kills here

store.Store.post = slow_jackpot
from felt.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def tables_toml() -> str:
    out = []
    for tid in TABLES:
        out.append(
            f'[[table]]\nid = "{tid}"\ngame = "{CS}"\npace_seconds = 0\n'
            f"betting_seconds = 0.4\nbetween_rounds_seconds = 0.1\n"
            f'[table.settings]\ndecision_seconds = 3\nshuffling = "shuffler"\n'
            f'[table.settings.progressive]\nmeter = "{METER}"\nseed = "100.00"\nrate = "50%"\n'
        )
    return "\n".join(out)


class StackedServer(ServerProcess):
    """``felt serve`` through :data:`LAUNCHER` (stacked decks, slow jackpots with a marker)."""

    marker: Path

    def start(self, database: str | None = None) -> None:
        env = {**os.environ, "FELT_ADMIN_PASSWORD": ADMIN_PASSWORD,
               "FELT_TEST_JACKPOT_MARKER": str(self.marker)}  # fmt: skip
        argv = [sys.executable, "-c", LAUNCHER, "serve", "--database", database or self.database,
                "--port", str(self.port), "--tables", str(self.tables), "--node", self.node]  # fmt: skip
        with self.log.open("ab") as out:
            out.write(f"--- start {self.starts}\n".encode())
            out.flush()
            self.proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
        self.starts += 1


class CaribbeanBot(Bot):
    """A player at a Caribbean Stud table: ante and the progressive wager every round; bets
    (folds now and then, which forfeits both)."""

    def wager(self) -> dict[str, Any]:
        return {"action": "wager", "seat": self.seat, "ante": "5.00", "progressive": "1.00"}

    def answer(self, election: str, mine: dict[str, Any]) -> dict[str, Any] | None:
        assert election == "bet or fold", election
        return {"action": "fold" if self.rng.random() < 0.1 else "bet", "seat": self.seat}


def _players(base: str) -> tuple[dict[str, str], dict[str, int]]:
    import httpx

    tokens: dict[str, str] = {}
    ids: dict[str, int] = {}
    with httpx.Client(base_url=base, timeout=30.0) as http:

        def login(name: str, password: str) -> dict[str, str]:
            r = http.post("/api/login", json={"name": name, "password": password})
            assert r.status_code == 200, r.text
            return {"Authorization": f"Bearer {r.json()['token']}"}

        admin = login("admin", ADMIN_PASSWORD)
        names = [f"{t}-s{s}" for t in TABLES for s in SEATS]
        for name, role in [("cage", "cashier"), *((p, "player") for p in names)]:
            r = http.post("/api/accounts", headers=admin,
                          json={"name": name, "role": role, "password": f"{name}-password"})  # fmt: skip
            assert r.status_code == 200, r.text
            ids[name] = int(r.json()["id"])
        cage = login("cage", "cage-password")
        for p in names:
            body = {"player": p, "amount": "100000.00", "key": f"float-{p}"}
            assert http.post("/api/cashier/deposit", json=body, headers=cage).status_code == 200
            tokens[p] = login(p, f"{p}-password")["Authorization"][7:]
    return tokens, ids


def check_record(engine: Engine, shared: Shared, replayed: set[str]) -> Counter[str]:
    """Every invariant of the module docstring, on the record as it stands; returns tallies."""
    tally: Counter[str] = Counter()
    game = table_game(CS)
    with engine.connect() as conn:
        names = {
            str(r.name): int(r.id) for r in conn.execute(select(accounts.c.id, accounts.c.name))
        }
        balances = {
            int(r.id): int(r.balance)
            for r in conn.execute(select(accounts.c.id, accounts.c.balance))
        }
        meter_rows = conn.execute(select(progressive_meters)).mappings().all()
        rows = conn.execute(select(postings.c.id, postings.c.txn, postings.c.account,
                                   postings.c.amount, postings.c.reason)
                            .order_by(postings.c.id)).all()  # fmt: skip
        events = conn.execute(select(round_events)).all()
        round_rows = conn.execute(select(rounds)).all()
    assert sum(int(p.amount) for p in rows) == 0, "the ledger does not sum to zero"
    per: Counter[str] = Counter()
    for p in rows:
        per[str(p.account)] += int(p.amount)
    for aid, balance in balances.items():
        assert per[player_account(aid)] == balance, f"wallet {aid}"
    [meter] = meter_rows
    assert int(meter["amount"]) == per[progressive_account(METER)] >= 0, (
        f"meter {meter['amount']} but its postings sum to {per[progressive_account(METER)]}"
    )
    # each settlement carried the meter the ledger held just before it
    running, before_txn = 0, dict[str, int]()
    for p in rows:
        if str(p.account) == progressive_account(METER):
            before_txn.setdefault(str(p.txn), running)
            running += int(p.amount)
    keyed = {(str(e.round_id), int(e.seq)): e for e in events}
    for (rid, seq), e in keyed.items():
        action = json.loads(e.action)
        if action.get("dealer") != "settle":
            continue
        txn = f"{rid}#{seq}"
        if txn in before_txn:
            carried = game.parse_action(action, "stored").meter  # type: ignore[attr-defined]
            assert carried == before_txn[txn], f"{txn} carried {carried}, ledger {before_txn[txn]}"
    # a finished round's postings are its record replayed, each movement once
    txns: dict[str, list[Any]] = {}
    for p in rows:
        txns.setdefault(str(p.txn), []).append(p)
    for r in round_rows:
        rid = str(r.id)
        if not r.finished or rid in replayed:
            continue
        rnd = run_script(json.loads(r.record)["script"])

        def account(party: str, rnd: Any = rnd, table: str = str(r.table_id)) -> str:
            if party == HOUSE:
                return HOUSE_ACCOUNT
            if party == LAYOUT:
                return layout_account(table)
            if party == PROGRESSIVE:
                return progressive_account(METER)
            return player_account(names[rnd.seats[int(party.split()[1])].player])

        want: Counter[tuple[str, int, str]] = Counter()
        for t in rnd.ledger.transfers:
            want[(account(t.source), -t.amount, t.reason)] += 1
            want[(account(t.target), t.amount, t.reason)] += 1
        got: Counter[tuple[str, int, str]] = Counter()
        for txn, ps in txns.items():
            if txn.rpartition("#")[0] == rid:
                for p in ps:
                    got[(str(p.account), int(p.amount), str(p.reason))] += 1
        assert got == want, f"round {rid}: {got - want} / {want - got}"
        if any(a == progressive_account(METER) and n < 0 for (a, n, _r) in got):
            tally["jackpot payments on record, each once"] += 1
        replayed.add(rid)
    # every acknowledged action is on record as sent, by its sender
    for ack in list(shared.acks):
        row = keyed.get((ack.round, ack.seq))
        assert row is not None, f"acknowledged {ack.name} {ack.round}#{ack.seq} not on record"
        stored = json.loads(row.action)
        stored.pop("player", None)
        sent = game.parse_action(ack.sent, "sent").to_json()
        sent.pop("player", None)
        assert stored == sent, f"{ack.round}#{ack.seq}: {stored} but sent {sent}"
        assert row.actor == ack.account_id
    tally["acknowledged actions on record"] = len(shared.acks)
    return tally


def _campaign(database: str, workdir: Path, backend: str) -> str:
    rng = random.Random(secrets.randbelow(2**31))
    tables = workdir / "tables.toml"
    tables.write_text(tables_toml())
    server = StackedServer(database, free_port(), tables, workdir / "serve.log")
    server.marker = workdir / "jackpots"
    base = f"http://127.0.0.1:{server.port}"
    engine = create_engine(sqlalchemy_url(database))
    shared = Shared(base)
    bots: list[Bot] = []
    replayed: set[str] = set()
    modes: Counter[str] = Counter()
    tally: Counter[str] = Counter()
    began = time.monotonic()
    try:
        server.start()
        server.wait_ready()
        tokens, ids = _players(base)
        bots = [CaribbeanBot(shared, f"{t}-s{s}", ids[f"{t}-s{s}"], tokens[f"{t}-s{s}"], t, s,
                             rng.randrange(2**31)) for t in TABLES for s in SEATS]  # fmt: skip
        for bot in bots:
            bot.start()
        for k in range(KILLS):
            if k % 2 == 0:  # at a jackpot, its transaction open
                seen = server.marker.stat().st_size if server.marker.exists() else 0
                end = time.monotonic() + 60
                while not server.marker.exists() or server.marker.stat().st_size == seen:
                    assert time.monotonic() < end, f"no jackpot in 60 s:\n{server.tail()}"
                    time.sleep(0.01)
                time.sleep(rng.uniform(0.0, 0.2))
                modes["at a jackpot in flight"] += 1
            else:
                time.sleep(rng.uniform(0.3, 2.0))
                modes["random"] += 1
            os.kill(server.proc.pid, signal.SIGKILL)  # type: ignore[union-attr]
            server.proc.wait()  # type: ignore[union-attr]
            if backend == "postgresql":
                time.sleep(0.5)  # the killed server's connections end with it
            tally.update(check_record(engine, shared, replayed))
            server.start()
            server.wait_ready()
        time.sleep(2.0)
    finally:
        shared.stop.set()
        for bot in bots:
            bot.join(timeout=30)
        server.stop()
    for bot in bots:
        assert bot.failure is None, f"{bot.name}: {bot.failure!r}"
    assert not shared.server_errors, shared.server_errors[:5]
    final = check_record(engine, shared, replayed)
    engine.dispose()
    jackpots = (
        tally["jackpot payments on record, each once"]
        + final["jackpot payments on record, each once"]
    )
    assert jackpots >= 1
    with_tb = server.log.read_text(errors="replace").count("Traceback")
    lines = [
        f"Caribbean Stud progressive crash campaign on {backend}: {KILLS} SIGKILLs in "
        f"{time.monotonic() - began:.0f} s ({', '.join(f'{n} {m}' for m, n in sorted(modes.items()))})",
        f"  rounds with a jackpot paid off the meter, each once on record: {jackpots}",
        f"  acknowledged actions, all on record: {final['acknowledged actions on record']}",
        f"  server log tracebacks: {with_tb}",
    ]
    lines += [f"  {what}: {n}" for what, n in sorted(shared.counts.items())]
    return "\n".join(lines)


@pytest.fixture(params=["sqlite", "postgresql"])
def crash_database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        yield request.param, f"sqlite:///{tmp_path / 'felt.db'}"
    else:
        for url in postgres_schema_url():
            yield request.param, url


def test_sigkill_with_progressive_wagers_and_jackpots_in_flight_loses_nothing(
    crash_database: tuple[str, str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """19:47-16.11: the meter and the ledger stay whole through kill -9 at jackpot payments
    and at random moments (see the module docstring for what is checked)."""
    backend, url = crash_database
    summary = _campaign(url, tmp_path, backend)
    request.config.stash.setdefault(CRASH_SUMMARIES, []).append(summary)


def test_the_checks_catch_a_meter_apart_from_its_postings(tmp_path: Path) -> None:
    """The campaign's check fails on a meter whose row differs from its postings by one cent,
    and on a ledger that does not sum to zero (so the campaign above can fail)."""
    from sqlalchemy import update

    from felt.server.store import Store

    store = Store(f"sqlite:///{tmp_path / 'felt.db'}")
    store.migrate()
    try:
        with store.transaction() as conn:
            store.open_meter(conn, METER, 10000, "Jackpot")
        shared = Shared("http://127.0.0.1:1")
        assert check_record(store.engine, shared, set())["acknowledged actions on record"] == 0
        with store.engine.begin() as conn:
            conn.execute(update(progressive_meters).values(amount=progressive_meters.c.amount + 1))
        with pytest.raises(AssertionError, match="meter 10001 but its postings sum to 10000"):
            check_record(store.engine, shared, set())
        with store.engine.begin() as conn:
            conn.execute(update(progressive_meters).values(amount=10000))
            conn.execute(postings.insert().values(txn="x#1", account="house", amount=5,
                                                  reason="stray", at=0.0))  # fmt: skip
        with pytest.raises(AssertionError, match="does not sum to zero"):
            check_record(store.engine, shared, set())
    finally:
        store.dispose()
