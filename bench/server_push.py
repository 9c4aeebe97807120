"""One push of a table's change to its watchers (issue 25, target 1): the CPU of building every
watcher's message when the messages of the push share what they have in common
(:class:`felt.server.views.Shared`: the parts every viewer sees and each seat's view, built
once), beside the peer, the same messages each built alone as the server built them before, in
the same run.  The table is a Boston 5 with six players wagered and their cards dealt; the
watchers are the six players, the dealer and a spectator, and a push of a table watched by its
one player alone is timed the same way.  Printed: microseconds per push of each way, their
ratio, and the load average; then the mean push (shared) over every state the rest of that
round passes through, to the eight watchers and to the one, settlement and the next round's
opening included.  Run with ``./dev bench server_push``."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' helpers
from felt.games.boston.actions import PlaceWagers, Second
from felt.rounds.round_core import RoundCore
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


State = tuple[RoundCore | None, int, str | None, dict[int, dict[str, Any]]]
"""What a table's push is built from: its round, version, round id and seats' last results."""


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
        states = rest_of_round(host, players)
        for label, who in (("8 watchers", watchers), ("1 watcher", watchers[:1])):

            def every_state(who: list[Account | None] = who) -> None:
                for state in states:
                    host.round, host.version, host.round_id, host.last = state
                    together = Shared()
                    for w in who:
                        host.message_for(w, together)

            each = per_call(every_state, calls=20) / len(states)
            load = os.getloadavg()
            print(f"the rest of the round ({len(states)} states) pushed to {label}: "
                  f"{each * 1e6:7.1f} us a push  "
                  f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")  # fmt: skip
        host.store.dispose()


def rest_of_round(host: TableHost, players: list[Account]) -> list[State]:
    """Play the dealt round to its end (each seat places its second wager, the dealer steps),
    and return each state it passed through, the dealt one first, the next round's opening
    with the seats' last results last: what a push is built from at each."""
    states: list[State] = []
    while True:
        rnd = host.round
        assert rnd is not None
        states.append((rnd, host.version, host.round_id, dict(host.last)))
        if rnd.finished:
            break
        pending = sorted(rnd.pending())
        if pending:
            seat = pending[0][0]
            host.apply_now(Second(seat), players[seat - 1], f"s{seat}")
        else:
            step = host.game.dealer_step(host.table, rnd)
            assert step is not None
            host.apply_now(step, None)
    host.start_round()
    states.append((host.round, host.version, host.round_id, dict(host.last)))
    return states


if __name__ == "__main__":
    main()
