"""The seat views of a round the table just finished are built once: :func:`last_results`
builds each seat's view for the seat's last result, and the push after the round's commit
hands out those same views (:meth:`TableHost.seed_views`) instead of building them again.
Every message must be exactly the one built with no view kept, and a view kept of another
round (or another state of it) is never handed out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import insert

from felt.server.app import message_text
from felt.server.auth import Account
from felt.server.host import TableHost, last_results, new_table_row
from felt.server.store import Store, felt_tables
from felt.server.views import PUBLIC, Shared, seat_message
from tests.server_helpers import fast_specs
from tests.test_server_push import _step, _viewers


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


def _finish(host: TableHost) -> None:
    """Take the table's steps until the round in play is finished."""
    while host.round is not None and not host.round.finished:
        _step(host)


def _messages(host: TableHost, viewers: list[Account | None]) -> list[str]:
    """Each viewer's message of one push, as sent."""
    shared = Shared()
    return [message_text(host.message_for(who, shared)) for who in viewers]


def test_the_push_after_a_round_finishes_shows_the_views_its_last_results_built(
    boston: tuple[Store, TableHost],
) -> None:
    store, host = boston
    viewers = _viewers(store, host)
    _finish(host)
    rnd = host.round
    assert rnd is not None
    assert host.finished_views is not None
    kept = host.finished_views[2]
    assert set(kept) == {2, 4}
    for n, view in kept.items():  # the views kept are the seats' own views, as built now
        assert view == seat_message(host.game, rnd, n)
    shared = Shared()
    seeded = [message_text(host.message_for(who, shared)) for who in viewers]
    assert all(shared.views[n] is view for n, view in kept.items())  # handed out, not rebuilt
    assert PUBLIC in shared.views
    host.finished_views = None  # the same push with no view kept: every message the same
    shared = Shared()
    assert [message_text(host.message_for(who, shared)) for who in viewers] == seeded
    assert all(shared.views[n] is not view for n, view in kept.items())


def test_views_kept_of_another_round_or_state_are_never_handed_out(
    boston: tuple[Store, TableHost],
) -> None:
    store, host = boston
    viewers = _viewers(store, host)
    _finish(host)
    rnd = host.round
    assert rnd is not None
    assert host.finished_views is not None
    other = rnd.copy()  # an equal round that is not the one in view
    host.finished_views = (other, len(rnd.events), host.finished_views[2])
    shared = Shared()
    host.message_for(viewers[0], shared)
    assert all(v is not host.finished_views[2].get(n) for n, v in shared.views.items())
    host.finished_views = (rnd, len(rnd.events) - 1, host.finished_views[2])  # another state
    shared = Shared()
    host.message_for(viewers[0], shared)
    assert all(v is not host.finished_views[2].get(n) for n, v in shared.views.items())
    host.start_round()  # the next round: nothing of the last is kept
    assert host.finished_views is None


def test_last_results_keep_the_views_they_were_built_from(
    boston: tuple[Store, TableHost],
) -> None:
    store, host = boston
    _viewers(store, host)
    _finish(host)
    rnd = host.round
    assert rnd is not None
    results = last_results(host.game, rnd, "r")
    assert set(results.views) == set(results) == {2, 4}
    for n, view in results.views.items():
        assert {k: v for k, v in results[n].items() if k in view} == {
            k: v for k, v in view.items() if k not in ("others", "pending")
        }
