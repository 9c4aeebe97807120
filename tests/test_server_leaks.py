"""The leak test of the table server: a whole session at a Boston 5, a Boston 7 and a Double
Down Stud table, played over the WebSocket API by bots that make every kind of election, with a
dealer, a supervisor and a cashier watching; every message each client receives is recorded.

When each client became entitled to see each card is worked out from the stored event log alone
(``round_events``: the cards each event dealt and to whom, and the events that expose, reveal or
settle), by the rule texts and never with felt's view code:

* Boston 5 and 7 (N.J.A.C. 19:47-24, 13:69F-24): every card is dealt face down (24.7(d),
  24.10(d)).  A player sees their own seat's cards when dealt; another seat's first three once
  exposed for the optional bonus (24.10(a)) and its hand once turned over at settlement
  (24.10(f)), never its Boston 7 discards; the dealer's cards once revealed (24.10(e)).
* Double Down Stud (19:47-17.8(b)): each area's card and the dealer's three up cards are dealt
  face up, so the whole table sees them when dealt; the hole card, dealt face down before them,
  once turned over (17.8(d)).
* Nobody sees an undealt card, the stub or the discard rack.

A client who holds no seat in a round (the dealer, the supervisor, the cashier, a player
watching another table) is held to what the whole table may see.  Each table message names its
round and the last event it reflects (``seq``), so the check is exact.  The last test runs the
session against views deliberately made to leak, and the same checks must catch them.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from websockets.asyncio.client import connect

from felt.core.money import dollars
from felt.games.boston import view_json as boston_view_json
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.games.boston.view import seat_view
from felt.games.double_down import view_json as double_down_view_json
from felt.games.double_down.config import DoubleDownConfig
from felt.games.double_down.round import DoubleDownRound
from felt.games.double_down.view import area_view
from felt.server import host
from felt.server.spec import TableSpec
from felt.server.store import accounts, round_events, rounds
from tests.server_helpers import Harness, live_server

DDS = "double-down-stud"
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
"""A card as the API writes it (``As``, ``Td``), wherever it stands in a string."""
ROUNDS = 3
"""Rounds played at each table."""
SESSION_SECONDS = 120.0

SEATS: dict[str, dict[str, list[int]]] = {
    "ann": {"b5": [1, 2], "dds": [5]},
    "bob": {"b5": [4], "b7": [3], "dds": [2, 3]},
    "cat": {"b5": [6], "b7": [1, 2]},
    "dan": {"b7": [5], "dds": [6]},
}
"""Who sits where: two players hold two seats at one table."""
WATCHERS = {"dealer1": "dealer", "cage": "cashier"}
"""Clients with no seat (besides the supervisor 'admin')."""


def _spec(tid: str, game: str, edition: str | None, **settings: Any) -> TableSpec:
    return TableSpec(
        tid,
        game,
        edition=edition,
        settings={"decision_seconds": 20, **settings},
        pace_seconds=0.0,
        betting_seconds=3.0,
        between_rounds_seconds=0.2,
    )


def leak_specs() -> list[TableSpec]:
    """Boston 5 under the 2003 text (exposure for the bonus optional, 19:47-24.10(a)), Boston 7
    under 13:69F (exposure required, two positions a player), Double Down Stud with two areas a
    player and a double down of up to the wager."""
    return [
        _spec("b5", "boston5", "nj-19-47-24"),
        _spec("b7", "boston7", "nj-13-69f-24", positions_per_player=2),
        _spec("dds", DDS, None, two_areas=True, double_down="up-to"),
    ]


TABLES = ("b5", "b7", "dds")


def _pick(options: tuple[str, ...], number: int, seat: int, salt: int = 0) -> str:
    """A choice that varies with the round and the seat, so every option is taken."""
    return options[(number + seat + salt) % len(options)]


@dataclass
class Bot:
    """A player's client: wagers at each of its seats for :data:`ROUNDS` rounds and answers each
    election pending at its seats once."""

    name: str
    seats: dict[str, list[int]]
    configs: dict[str, TableConfig | DoubleDownConfig]
    answered: set[tuple[str, int, str]] = field(default_factory=set)

    def react(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """The action messages to send on receiving ``msg``."""
        table = msg.get("table")
        if msg.get("type") != "table" or table not in self.seats or not msg.get("mine"):
            return []
        assert isinstance(table, str)
        number, rid = int(msg["number"]), str(msg["round"])
        if msg["finished"] or number > ROUNDS:
            return []
        out: list[dict[str, Any]] = []
        for seat in self.seats[table]:
            view = msg["mine"].get(str(seat))
            if view is None:
                continue
            wants = ["wager"] if view["phase"] == "betting" else []
            wants += [p["election"] for p in view["pending"] if p["seat"] == seat]
            for what in wants:
                if (rid, seat, what) in self.answered:
                    continue
                self.answered.add((rid, seat, what))
                action = self.choose(table, number, seat, what, view)
                out.append({"table": table, "action": action, "key": f"{self.name}/{rid}/{seat}/{what}"})  # fmt: skip
        return out

    def choose(
        self, table: str, number: int, seat: int, what: str, view: dict[str, Any]
    ) -> dict[str, Any]:
        """The action for one wager or election."""
        cfg = self.configs[table]
        if what == "wager" and isinstance(cfg, DoubleDownConfig):
            return {"action": "bet", "seat": seat, "amount": dollars(cfg.minimum)}
        if what == "wager":
            assert isinstance(cfg, TableConfig)
            wager = {"action": "wager", "seat": seat, "ante": dollars(cfg.minimum),
                     "first": dollars(cfg.first_ratio * cfg.minimum)}  # fmt: skip
            if (number + seat) % 3:
                wager["bonus"] = dollars(cfg.bonus_minimum)
            return wager
        if what == "expose or decline":
            return {"action": _pick(("expose", "decline"), number, seat), "seat": seat}
        if what == "second or fold":
            return {"action": _pick(("second", "fold"), number, seat), "seat": seat}
        if what == "discard or keep":
            if _pick(("discard", "keep"), number, 0, seat // 2) == "keep":
                return {"action": "keep", "seat": seat}
            return {"action": "discard", "seat": seat, "cards": view["own_cards"][5:7]}
        if what == "cut or decline":
            if (
                _pick(("cut", "decline_cut"), number, 0) == "decline_cut"
            ):  # by round: some round declines
                return {"action": "decline_cut", "seat": seat}
            return {"action": "cut", "seat": seat, "position": 10 + (7 * number + seat) % 33}
        assert what == "double or stand", what
        return {"action": _pick(("double", "stand"), number, seat), "seat": seat}


async def _client(
    url: str,
    token: str,
    log: list[dict[str, Any]],
    bot: Bot | None,
    stop: asyncio.Event,
) -> None:
    """One WebSocket client: log in, watch every table, record every message, let the bot act."""
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"token": token}))
        for table in TABLES:
            await ws.send(json.dumps({"subscribe": table}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.1)
            except TimeoutError:
                continue
            msg = json.loads(raw)
            log.append(msg)
            for out in bot.react(msg) if bot else []:
                await ws.send(json.dumps(out))


def _played(log: list[dict[str, Any]], table: str, rounds_wanted: int) -> bool:
    return any(
        m.get("type") == "table"
        and m["table"] == table
        and m.get("number") == rounds_wanted
        and m.get("finished")
        for m in log
    )


async def _play(h: Harness, rounds_wanted: int) -> dict[str, list[dict[str, Any]]]:
    """Every client connected at once until each table has finished ``rounds_wanted`` rounds."""
    configs = {s.id: s.config() for s in leak_specs()}
    logs: dict[str, list[dict[str, Any]]] = {name: [] for name in h.tokens}
    bots = {name: Bot(name, seats, configs) for name, seats in SEATS.items()}
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(_client(h.ws_url, h.tokens[name], logs[name], bots.get(name), stop))
        for name in logs
    ]
    end = time.monotonic() + SESSION_SECONDS
    try:
        while not all(_played(logs["admin"], t, rounds_wanted) for t in TABLES):
            for task in tasks:
                if task.done():
                    task.result()  # a client that failed fails the test
                    raise AssertionError("a client stopped before the session ended")
            if time.monotonic() > end:
                raise AssertionError(f"the session did not finish {rounds_wanted} rounds a table")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return logs


# --------------------------------------------------------------------------- the event log


@dataclass(frozen=True)
class Logged:
    """One stored event."""

    seq: int
    actor: int | None
    action: dict[str, Any]
    effects: list[dict[str, Any]]


@dataclass
class Sight:
    """When each card of one round came into view, worked out from the round's event log by the
    rule texts (see the module docstring)."""

    game: str
    everyone: dict[str, int] = field(default_factory=dict)
    """Card -> the event from which the whole table may see it."""
    own: dict[int, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    """Account -> card -> the event that dealt it to a seat of that account's."""
    holder: dict[str, int | None] = field(default_factory=dict)
    """Card -> the seat it was dealt to (None: the dealer)."""
    dealt_at: dict[str, int] = field(default_factory=dict)
    owners: dict[int, int] = field(default_factory=dict)
    """Seat -> the account whose wager is on it."""

    def earliest(self, account: int, card: str) -> int | None:
        """The first event from which ``account`` may see ``card`` (None: never)."""
        times = [t for t in (self.everyone.get(card), self.own[account].get(card)) if t is not None]
        return min(times) if times else None


def sight_of(game: str, events: list[Logged]) -> Sight:
    """The :class:`Sight` of one round from its stored events."""
    s = Sight(game)
    boston = game != DDS
    hands: dict[int, list[str]] = defaultdict(list)
    discarded: dict[int, set[str]] = defaultdict(set)
    dealer: list[str] = []

    def show(cards: list[str], seq: int) -> None:
        for c in cards:
            s.everyone.setdefault(c, seq)

    for e in events:
        if e.action.get("action") in ("wager", "bet"):
            assert e.actor is not None
            s.owners[int(e.action["seat"])] = e.actor
        for f in e.effects:
            kind, cards = f["kind"], list(f.get("cards", []))
            seat: Any = f.get("seat")
            if kind == "deal":
                for c in cards:
                    s.holder[c], s.dealt_at[c] = seat, e.seq
                if seat is None:
                    for c in cards:
                        dealer.append(c)
                        if not boston and len(dealer) > 1:  # 17.8(b): three up after the hole
                            show([c], e.seq)
                elif boston:  # 24.7(d), 24.10(d): face down, to the seat's player only
                    hands[seat] += cards
                    for c in cards:
                        s.own[s.owners[seat]].setdefault(c, e.seq)
                else:  # 17.8(b): face up
                    hands[seat] += cards
                    show(cards, e.seq)
            elif kind == "expose":  # 24.10(a): the first three cards
                show(hands[seat][:3], e.seq)
            elif kind == "discard":  # 13:69F-24.10(c): to the rack unseen
                discarded[seat].update(cards)
            elif kind == "reveal":  # 24.10(e): all the dealer's cards; 17.8(d): the hole card
                show(dealer if boston else dealer[:1], e.seq)
            elif kind == "rack" and e.action.get("dealer") == "settle" and seat is not None:
                # 24.10(f): each hand still in play is turned over as it is settled
                show([c for c in hands[seat] if c not in discarded[seat]], e.seq)
    return s


@dataclass
class Session:
    """What a session left: each client's messages, and the sight of every round."""

    received: dict[str, list[dict[str, Any]]]
    ids: dict[str, int]
    roles: dict[str, str]
    sights: dict[str, Sight]
    events: dict[str, list[Logged]]
    tables: dict[str, str]
    """Round id -> table id."""


def run_session(url: str, rounds_wanted: int = ROUNDS) -> Session:
    """Open the accounts, seat the players, play the session, read the event log."""
    with live_server(url, leak_specs()) as h:
        for name in SEATS:
            h.account(name, "player", "1000.00")
        for name, role in WATCHERS.items():
            if name not in h.tokens:
                h.account(name, role)
        for name, places in SEATS.items():
            for table, seats in places.items():
                for seat in seats:
                    r = h.post(name, f"/api/tables/{table}/sit", {"seat": seat})
                    assert r.status_code == 200, r.text
        received = asyncio.run(_play(h, rounds_wanted))
        games = {s.id: s.game for s in leak_specs()}
        with h.server.store.engine.connect() as conn:
            who = conn.execute(select(accounts.c.name, accounts.c.id, accounts.c.role)).all()
            tables = {str(r.id): str(r.table_id) for r in conn.execute(select(rounds))}
            rows = conn.execute(select(round_events).order_by(round_events.c.seq)).all()
    events: dict[str, list[Logged]] = defaultdict(list)
    for row in rows:
        events[row.round_id].append(
            Logged(row.seq, row.actor, json.loads(row.action), json.loads(row.effects))
        )
    return Session(
        received,
        {str(n): int(i) for n, i, _ in who},
        {str(n): str(r) for n, _, r in who},
        {rid: sight_of(games[tables[rid]], evs) for rid, evs in events.items()},
        dict(events),
        tables,
    )


# --------------------------------------------------------------------------- the checks


def cards_in(value: Any) -> set[str]:
    """Every card written anywhere in a message (field values, lists, text)."""
    if isinstance(value, str):
        return set(CARD.findall(value))
    if isinstance(value, dict):
        return set().union(*(cards_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(cards_in(v) for v in value)) if value else set()
    return set()


@dataclass(frozen=True)
class Leak:
    """A card a client received too early: ``check`` is ``entitled`` (before the client was
    entitled) or ``face down`` (another seat's face-down card or the dealer's hidden card)."""

    check: str
    client: str
    table: str
    round: str | None
    seq: int | None
    card: str
    first: int | None


def leaks(session: Session) -> list[Leak]:
    """Every card any client received before it was entitled to it."""
    found: list[Leak] = []
    for name, messages in session.received.items():
        account = session.ids[name]
        for m in messages:
            found += last_leaks(session, name, account, m.get("last") or {})
            m = {k: v for k, v in m.items() if k != "last"}  # checked against its own round
            cards = cards_in(m)
            if not cards:
                continue
            rid, seq = m.get("round"), m.get("seq")
            if m.get("type") != "table" or rid is None or seq is None:
                found += [Leak("entitled", name, str(m.get("table")), rid, seq, c, None) for c in cards]  # fmt: skip
                continue
            sight = session.sights.get(rid, Sight(""))
            for c in sorted(cards):
                first = sight.earliest(account, c)
                if first is None or first > seq:
                    found.append(Leak("entitled", name, m["table"], rid, seq, c, first))
            if session.roles[name] == "player":
                found += face_down(name, account, m, sight)
    return found


def last_leaks(session: Session, name: str, account: int, last: dict[str, Any]) -> list[Leak]:
    """A player's last results (issue 20: each seat's settled result, kept until the player's
    next wager): each must be a seat the player wagered in the round it names, and hold only
    cards the player may see once that round is over."""
    found: list[Leak] = []
    for seat, entry in last.items():
        rid = str(entry.get("round"))
        sight = session.sights.get(rid, Sight(""))
        table = session.tables.get(rid, "?")
        if sight.owners.get(int(seat)) != account:
            found.append(Leak("another's result", name, table, rid, None, f"seat {seat}", None))
        for c in sorted(cards_in(entry)):
            if sight.earliest(account, c) is None:
                found.append(Leak("entitled", name, table, rid, None, c, None))
    return found


def face_down(name: str, account: int, m: dict[str, Any], sight: Sight) -> list[Leak]:
    """Another seat's face-down cards and the dealer's unrevealed cards (Boston: all of them;
    Double Down Stud: the hole card) in a player's message."""
    seq = int(m["seq"])
    mine = {seat for seat, owner in sight.owners.items() if owner == account}
    hidden: set[str] = set()
    dealer_cards = [c for c, seat in sight.holder.items() if seat is None]
    for c, seat in sight.holder.items():
        if sight.dealt_at[c] > seq or seat in mine:
            continue
        turned = sight.everyone.get(c)
        face_up_when_dealt = sight.game == DDS and not (seat is None and c == dealer_cards[0])
        if not face_up_when_dealt and (turned is None or turned > seq):
            hidden.add(c)
    return [
        Leak("face down", name, m["table"], m["round"], seq, c, sight.everyone.get(c))
        for c in sorted(cards_in(m) & hidden)
    ]


# --------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def sessions() -> dict[str, Session]:
    """Sessions played, by database URL (each back end plays once for the tests below)."""
    return {}


@pytest.fixture
def session(database_url: str, sessions: dict[str, Session]) -> Session:
    """The full session on this back end."""
    kind = database_url.split(":")[0]
    if kind not in sessions:
        sessions[kind] = run_session(database_url)
    return sessions[kind]


def test_no_client_receives_a_card_before_it_is_entitled(session: Session) -> None:
    found = leaks(session)
    assert not found, "\n".join(str(x) for x in found[:20])


def test_the_session_made_every_kind_of_election_at_every_table(session: Session) -> None:
    taken: dict[str, set[str]] = defaultdict(set)
    for rid, events in session.events.items():
        for e in events:
            name = e.action.get("action") or e.action.get("dealer")
            taken[session.tables[rid]].add(str(name))
            taken[session.tables[rid]].update(f["kind"] for f in e.effects)
    assert {"expose", "decline", "second", "fold", "reveal", "settle"} <= taken["b5"]
    assert {"expose", "second", "fold", "discard", "keep", "settle"} <= taken["b7"]
    assert {"cut", "decline_cut", "double", "stand", "reveal", "settle"} <= taken["dds"]
    finished: dict[str, int] = defaultdict(int)
    for rid, table in session.tables.items():
        if any(e.action.get("dealer") == "settle" for e in session.events.get(rid, [])):
            finished[table] += 1
    assert all(finished[t] >= ROUNDS for t in TABLES), finished


def test_every_client_saw_cards_and_no_errors(session: Session) -> None:
    """The leak check is not vacuous: each player received their own cards and every client the
    cards the whole table may see; and no client's message was refused."""
    for name, messages in session.received.items():
        seen = set().union(*(cards_in(m) for m in messages))
        assert len(seen) > 20, name
        errors = [m for m in messages if m.get("type") == "error"]
        assert not errors, (name, errors[:3])
        assert any(m.get("type") == "hello" for m in messages)
        if name in SEATS:
            acks = [m for m in messages if m.get("type") == "ack"]
            assert len(acks) >= ROUNDS * sum(map(len, SEATS[name].values())), name


def _dealer_always(rnd: Round, viewer: int) -> Any:
    return replace(seat_view(rnd, viewer), dealer_cards=tuple(rnd.dealer_cards))


def _hole_always(rnd: DoubleDownRound, viewer: int) -> Any:
    view = area_view(rnd, viewer)
    return replace(view, hole_card=rnd.dealer_cards[0] if rnd.dealer_cards else None)


def _others_always(rnd: Round, viewer: int) -> Any:
    view = seat_view(rnd, viewer)
    shown = tuple(replace(o, cards=tuple(rnd.seats[o.number].cards)) for o in view.others)
    return replace(view, others=shown)


WRONG_VIEWS: dict[str, tuple[dict[tuple[Any, str], Callable[..., Any]], set[tuple[str, str]]]] = {
    "dealer's cards before the reveal": (
        {
            (boston_view_json, "seat_view"): _dealer_always,
            (double_down_view_json, "area_view"): _hole_always,
        },
        {(c, t) for c in ("entitled", "face down") for t in TABLES},
    ),
    "other seats' face-down cards": (
        {(boston_view_json, "seat_view"): _others_always},
        {(c, t) for c in ("entitled", "face down") for t in ("b5", "b7")},
    ),
}


LAST_RESULTS = host.last_results
"""The server's own last results (the wrong ones below add to them)."""


def _last_with_the_deck(game: Any, rnd: Any, round_id: str) -> dict[int, dict[str, Any]]:
    """Last results made to leak: each carries the round's whole deck."""
    out = LAST_RESULTS(game, rnd, round_id)
    for entry in out.values():
        entry["deck"] = [str(c) for c in rnd.shoe.order]
    return out


def test_a_last_result_made_to_leak_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host, "last_results", _last_with_the_deck)
    found = leaks(run_session(f"sqlite:///{tmp_path / 'leaky.db'}", rounds_wanted=1))
    assert {(x.check, x.table) for x in found} == {("entitled", t) for t in TABLES}
    assert {x.client for x in found} <= set(SEATS)
    assert all(x.seq is None for x in found)  # found in the last results, not the round's view


@pytest.mark.parametrize("wrong", sorted(WRONG_VIEWS))
def test_a_view_made_to_leak_is_caught(
    wrong: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    patches, expected = WRONG_VIEWS[wrong]
    for (module, name), fake in patches.items():  # where each game's JSON view reads its view
        monkeypatch.setattr(module, name, fake)
    found = leaks(run_session(f"sqlite:///{tmp_path / 'leaky.db'}", rounds_wanted=1))
    assert {(x.check, x.table) for x in found} == expected
    assert {x.client for x in found} == {*SEATS, "admin", *WATCHERS}
