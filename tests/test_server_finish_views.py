"""The seat views of a round the table just finished are built once: :func:`last_results`
builds each seat's view for the seat's last result, and the push after the round's commit
hands out those same views (:meth:`TableHost.seed_views`) instead of building them again.
Every message must be exactly the one built with no view kept, and a view kept of another
round (or another state of it) is never handed out."""

from __future__ import annotations

from typing import Any

from felt.server.app import message_text
from felt.server.auth import Account
from felt.server.host import TableHost, last_results
from felt.server.store import Store
from felt.server.views import PUBLIC, Shared, seat_message
from tests.test_server_push import _step, _viewers
from tests.test_server_push import boston as boston  # the fixture: a Boston 5 table, a round open


def _finished(
    store: Store, host: TableHost
) -> tuple[list[Account | None], Any, dict[int, dict[str, Any]]]:
    """Two players' round played to its end: the viewers, the round and the views kept."""
    viewers = _viewers(store, host)
    while host.round is not None and not host.round.finished:
        _step(host)
    assert host.round is not None
    assert host.finished_views is not None
    return viewers, host.round, host.finished_views[2]


def test_the_push_after_a_round_finishes_shows_the_views_its_last_results_built(
    boston: tuple[Store, TableHost],
) -> None:
    viewers, rnd, kept = _finished(*boston)
    host = boston[1]
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
    viewers, rnd, kept = _finished(*boston)
    host = boston[1]
    for wrong in ((rnd.copy(), len(rnd.events)), (rnd, len(rnd.events) - 1)):
        host.finished_views = (*wrong, kept)  # an equal round not in view; another state of it
        shared = Shared()
        host.message_for(viewers[0], shared)
        assert shared.views
        assert all(v is not kept.get(n) for n, v in shared.views.items())
    host.start_round()  # the next round: nothing of the last is kept
    assert host.finished_views is None


def test_last_results_keep_the_views_they_were_built_from(
    boston: tuple[Store, TableHost],
) -> None:
    _, rnd, _ = _finished(*boston)
    results = last_results(boston[1].game, rnd, "r")
    assert set(results.views) == set(results) == {2, 4}
    for n, view in results.views.items():
        assert {k: v for k, v in results[n].items() if k in view} == {
            k: v for k, v in view.items() if k not in ("others", "pending")
        }


def test_a_kept_view_under_the_public_number_is_never_the_public_view(
    boston: tuple[Store, TableHost],
) -> None:
    """Whatever the kept views hold, the public view every watcher is sent is built as the
    view of no seat: a seat's own view kept under :data:`PUBLIC` is not handed out."""
    viewers, rnd, kept = _finished(*boston)
    host = boston[1]
    private = kept[2]
    host.finished_views = (rnd, len(rnd.events), {**kept, PUBLIC: private})
    shared = Shared()
    host.message_for(viewers[0], shared)
    assert shared.views[PUBLIC] is not private
    assert shared.views[PUBLIC] == seat_message(host.game, rnd, PUBLIC)
