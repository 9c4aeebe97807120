"""One push of a table to its watchers (issue 25): the parts every viewer sees and each seat's
view are built once for all the messages of the push (:class:`felt.server.views.Shared`), and
each watcher's message is still exactly the one built for that watcher alone, with no seat view
it is not entitled to."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import insert

from felt.games.boston.actions import PlaceWagers
from felt.rounds.actions import DecisionTimeout
from felt.server.app import message_text
from felt.server.auth import Account
from felt.server.host import TableHost, new_table_row
from felt.server.store import Store, felt_tables
from felt.server.views import PUBLIC, Shared
from tests.server_helpers import fast_specs
from tests.test_server_store_path import _player


@pytest.fixture
def boston(database_url: str) -> Iterator[tuple[Store, TableHost]]:
    """A Boston 5 table with a round open, on each back end."""
    store = Store(database_url)
    store.migrate()
    try:
        with store.transaction() as conn:
            conn.execute(insert(felt_tables).values(**new_table_row(fast_specs()[0], "node-a")))
        host = TableHost(store, fast_specs()[0], "node-a")
        host.load()
        host.start_round()
        yield store, host
    finally:
        store.dispose()


def _viewers(store: Store, host: TableHost) -> list[Account | None]:
    """Two seated players, the dealer, a supervisor and a watcher with no account."""
    _, ann = _player(store, host, "ann", 2)
    _, bob = _player(store, host, "bob", 4)
    for who, seat in ((ann, 2), (bob, 4)):
        host.apply_now(PlaceWagers(seat, ante=500, first=1000), who, f"k{seat}", "d", None)
    return [ann, bob, Account(90, "dealer1", "dealer"), Account(91, "boss", "supervisor"), None]


def _step(host: TableHost) -> None:
    """The table's next step: a pending election's timeout, else the dealer's step."""
    rnd = host.round
    assert rnd is not None
    pending = sorted(rnd.pending())
    step = DecisionTimeout(pending[0][0]) if pending else host.game.dealer_step(host.table, rnd)
    assert step is not None
    host.apply_now(step, None)


def test_a_push_gives_every_watcher_the_message_built_for_it_alone(
    boston: tuple[Store, TableHost],
) -> None:
    store, host = boston
    viewers = _viewers(store, host)
    states = 0
    while True:
        shared = Shared()
        together = [host.message_for(who, shared) for who in viewers]
        alone = [host.message_for(who) for who in viewers]
        assert [message_text(m) for m in together] == [message_text(m) for m in alone]
        mine: list[Any] = [m.get("mine") for m in together]
        assert [None if m is None else set(m) for m in mine] == [{"2"}, {"4"}, None, None, None]
        assert all(m["public"] is together[0]["public"] for m in together)  # built once
        assert shared.views.keys() <= {PUBLIC, 2, 4}
        states += 1
        assert host.round is not None
        if host.round.finished:
            assert ["settlement" in m for m in together] == [False, False, True, True, False]
            assert [set(m["last"]) for m in together[:2]] == [{"2"}, {"4"}]
            break
        _step(host)
    assert states >= 4


def test_what_a_push_built_is_not_reused_once_the_table_moves_on(
    boston: tuple[Store, TableHost],
) -> None:
    store, host = boston
    ann = _viewers(store, host)[0]
    shared = Shared()
    before = host.message_for(ann, shared)
    _step(host)
    after = host.message_for(ann, shared)
    assert after["version"] == before["version"] + 1
    assert message_text(after) == message_text(host.message_for(ann))
    assert after["mine"]["2"] != before["mine"]["2"]


def test_a_subscription_handled_after_its_socket_closed_leaves_nothing_watching(
    database_url: str,
) -> None:
    """A message carrying ``subscribe`` runs in a task of its own, which may be handled after the
    socket's disconnect: the closed client must not be added to the table's watchers again (it
    would be pushed every later view into a queue no sender reads, for good)."""
    from felt.server.app import Client, Server

    server = Server(Store(database_url), fast_specs(), "node-a")
    try:
        table = fast_specs()[0].id
        gone = Client(server, Account(7, "ann", "player"), "token")
        server.sockets.add(gone)
        server.watch(gone, table)
        assert server.watchers[table] == {gone}
        server.disconnected(gone)
        assert table not in server.watchers
        server.watch(gone, table)  # the late subscription
        assert table not in server.watchers
        assert not gone.tables
    finally:
        server.store.dispose()
