"""Linked progressive meters on the server: which tables share which meter, opening a meter (its
seed funded by the house, once), and this process's view of every meter's amount for the
tables' screens.

A meter is the ledger account ``progressive:<id>`` and its row in
:data:`felt.server.store.progressive_meters`; :meth:`felt.server.store.Store.post` keeps the row's
amount equal to the account's postings.  Tables know their meter only through
:meth:`felt.games.base.TableGame.progressive`.  A payout off a meter reads it with its row
locked inside the paying action's own transaction (:meth:`felt.server.host.TableHost.apply_now`);
what is shown here is only for the screens, never for paying.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, select

from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.base import Progressive
from felt.games.registry import table_game
from felt.server.spec import TableSpec, any_spec_from_json
from felt.server.store import Store, felt_tables


def progressive_of(spec: TableSpec) -> Progressive | None:
    """The meter a table is linked to (:meth:`~felt.games.base.TableGame.progressive` of its
    configuration), or None."""
    return table_game(spec.game).progressive(spec.config())


def linked(specs: Iterable[TableSpec]) -> dict[str, tuple[Progressive, list[str]]]:
    """Each meter the tables ``specs`` are linked to, with the ids of its tables; tables linked
    to one meter must agree on its seed and its terms (one clear error naming both otherwise)."""
    out: dict[str, tuple[Progressive, list[str]]] = {}
    for spec in specs:
        prog = progressive_of(spec)
        if prog is None:
            continue
        seen = out.get(prog.meter)
        if seen is None:
            out[prog.meter] = (prog, [spec.id])
            continue
        if seen[0].seed != prog.seed:
            raise FeltError(
                f"tables {seen[1][0]} and {spec.id} are linked to the progressive meter "
                f"{prog.meter!r} with different seeds ({dollars(seen[0].seed)} and "
                f"{dollars(prog.seed)}); tables linked to one meter must have the same seed"
            )
        if seen[0].terms != prog.terms:
            raise FeltError(
                f"tables {seen[1][0]} and {spec.id} are linked to the progressive meter "
                f"{prog.meter!r} on different terms ({seen[0].terms} and {prog.terms}); tables "
                "linked to one meter must take the same wager at the same rate and pay the same"
            )
        seen[1].append(spec.id)
    return out


def stored_specs(conn: Connection) -> list[TableSpec]:
    """Every table stored in the database (a system game's systems left out)."""
    out = []
    for (text,) in conn.execute(select(felt_tables.c.spec)):
        spec = any_spec_from_json(text)
        if isinstance(spec, TableSpec):
            out.append(spec)
    return out


def open_meters(store: Store, conn: Connection) -> list[str]:
    """Open every meter a stored table is linked to that the database does not have yet (its
    seed funded by the house, in the caller's transaction); check that the tables linked to each
    meter agree on its seed, and with the seed it was opened with.  Returns the meters opened.
    Run at a server's start, in the transaction and under the lock of the migration, so
    processes started together open each meter once."""
    opened = []
    have = store.meters(conn)
    for meter, (prog, tables) in sorted(linked(stored_specs(conn)).items()):
        row = have.get(meter)
        if row is not None:
            if int(row["seed"]) != prog.seed:
                raise FeltError(
                    f"table {tables[0]} is linked to the progressive meter {meter!r} with the seed "
                    f"{dollars(prog.seed)}, but the meter was opened with "
                    f"{dollars(int(row['seed']))}; tables linked to one meter must have its seed"
                )
            continue
        store.open_meter(conn, meter, prog.seed, prog.label)
        opened.append(meter)
    return opened


@dataclass
class MeterBoard:
    """This process's view of the meters for the screens: each meter's last known version and
    amount (a newer version replaces an older one, whichever thread or read brings it first),
    and which version the screens last showed (:meth:`Server.meters_moved
    <felt.server.app.Server.meters_moved>`)."""

    known: dict[str, tuple[int, int]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    shown: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, meter: str, version: int, amount: int, label: str | None = None) -> None:
        """A meter as a read or a commit found it (kept only if newer than what is known)."""
        with self.lock:
            old = self.known.get(meter)
            if old is None or version > old[0]:
                self.known[meter] = (version, amount)
            if label is not None:
                self.labels[meter] = label

    def read(self, store: Store, conn: Connection) -> None:
        """Note every meter's row as ``conn`` reads it."""
        for meter, row in store.meters(conn).items():
            self.note(meter, int(row["version"]), int(row["amount"]), str(row["label"]))

    def amount(self, meter: str) -> int | None:
        """A meter's amount as last known (None before its first read)."""
        with self.lock:
            found = self.known.get(meter)
        return None if found is None else found[1]

    def view(self, prog: Progressive) -> dict[str, Any]:
        """A linked table's ``progressive`` part of its messages: the meter's id, its label and
        its amount in dollars (None before the first read)."""
        amount = self.amount(prog.meter)
        return {
            "meter": prog.meter,
            "label": self.labels.get(prog.meter, prog.label),
            "amount": None if amount is None else dollars(amount),
        }

    def moved(self) -> list[str]:
        """The meters whose known version the screens have not shown yet (marked shown now)."""
        out = []
        with self.lock:
            for meter, (version, _amount) in self.known.items():
                if self.shown.get(meter) != version:
                    self.shown[meter] = version
                    out.append(meter)
        return out
