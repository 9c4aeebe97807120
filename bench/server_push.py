"""One push of a table's change to its watchers (issue 25, target 1): the CPU of building every
watcher's message when the messages of the push share what they have in common
(:class:`felt.server.views.Shared`: the parts every viewer sees and each seat's view, built
once), beside the peer, the same messages each built alone as the server built them before, in
the same run.  The table is a Boston 5 with six players wagered and their cards dealt; the
watchers are the six players, the dealer and a spectator, and a push of a table watched by its
one player alone is timed the same way.  Printed: microseconds per push of each way, their
ratio, and the load average.  Run with ``./dev bench server_push``."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' helpers
from felt.games.boston.actions import PlaceWagers
from felt.server.auth import Account, create_account, log_in
from felt.server.host import TableHost, new_table_row
from felt.server.store import Posting, Store, felt_tables, player_account
from felt.server.views import Shared
from tests.server_helpers import fast_specs

PLAYERS = ("ann", "bob", "cat", "dan", "eve", "fay")


def dealt_table(work: Path) -> tuple[TableHost, list[Account]]:
    """A Boston 5 table whose six seats have wagered and been dealt, and its players."""
    store = Store(f"sqlite:///{work / 'push.db'}")
    store.migrate()
    spec = fast_specs()[0]
    with store.transaction() as conn:
        conn.execute(insert(felt_tables).values(**new_table_row(spec, "bench")))
    host = TableHost(store, spec, "bench")
    host.load()
    host.start_round()
    players = []
    for seat, name in enumerate(PLAYERS, start=1):
        create_account(store, name, "player", f"{name}-password")
        token, who = log_in(store, name, f"{name}-password")
        with store.transaction() as conn:
            store.post(conn, f"cash:{name}", [Posting("cage", -100_000, "deposit"),
                                              Posting(player_account(who.id), 100_000, "deposit")])  # fmt: skip
        host.sit(who, seat)
        host.apply_now(PlaceWagers(seat, ante=500, first=1000), who, f"k{seat}", "d", token)
        players.append(who)
    assert host.round is not None
    step = host.game.dealer_step(host.table, host.round)
    assert step is not None
    host.apply_now(step, None)
    return host, players


def per_call(work: Callable[[], object], rounds: int = 7, calls: int = 400) -> float:
    """The least CPU seconds per call of ``work`` over ``rounds`` rounds of ``calls`` calls."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.process_time()
        for _ in range(calls):
            work()
        best = min(best, (time.process_time() - t0) / calls)
    return best


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="felt-push-") as tmp:
        host, players = dealt_table(Path(tmp))
        watchers: list[Account | None] = [*players, Account(900, "dealer1", "dealer"), None]
        for label, who in (("8 watchers (6 players, dealer, spectator)", watchers),
                           ("1 watcher (its one player)", watchers[:1])):  # fmt: skip

            def shared(who: list[Account | None] = who) -> None:
                together = Shared()
                for w in who:
                    host.message_for(w, together)

            def alone(who: list[Account | None] = who) -> None:
                for w in who:
                    host.message_for(w)

            each, peer = per_call(shared), per_call(alone)
            load = os.getloadavg()
            print(f"push to {label}: shared {each * 1e6:7.1f} us, each built alone "
                  f"{peer * 1e6:7.1f} us ({peer / each:.2f}x)  "
                  f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")  # fmt: skip
        host.store.dispose()


if __name__ == "__main__":
    main()
