"""Schema migrations: a database made before a revision is brought up to the newest schema with
its rows kept, on both back ends."""

from __future__ import annotations

from sqlalchemy import insert, inspect, select, text

from felt.server.store import Store, accounts

OLD_ACCOUNTS = """CREATE TABLE accounts (
    id {id} PRIMARY KEY, name VARCHAR(64) NOT NULL UNIQUE, role VARCHAR(16) NOT NULL,
    password_hash VARCHAR(256) NOT NULL, failed_logins INTEGER NOT NULL,
    locked BOOLEAN NOT NULL, balance BIGINT NOT NULL, created_at FLOAT NOT NULL)"""


def test_r0005_adds_the_staff_columns_to_accounts_made_before_it(database_url: str) -> None:
    """A database at r0004 whose ``accounts`` has the columns of issue 19 gets the three new
    ones (an existing account: never logged in, no forced change, not retired) and the two new
    tables, and keeps its rows."""
    store = Store(database_url)
    store.migrate()
    with store.engine.begin() as conn:  # take the new revision back out, as a pre-r0005 database
        for t in ("account_changes", "cage_receipts", "sessions", "accounts"):
            conn.execute(text(f"DROP TABLE {t}{'' if store.is_sqlite else ' CASCADE'}"))
        conn.execute(text(OLD_ACCOUNTS.format(id="INTEGER" if store.is_sqlite else "SERIAL")))
        conn.execute(text("UPDATE alembic_version SET version_num = 'r0004'"))
        conn.execute(
            text("INSERT INTO accounts (name, role, password_hash, failed_logins, locked, "
                 "balance, created_at) VALUES ('old', 'player', 'x', 0, false, 250, 1.0)")
        )  # fmt: skip
    store.migrate()
    names = {c["name"] for c in inspect(store.engine).get_columns("accounts")}
    assert {"last_login_at", "must_change_password", "retired_at"} <= names
    assert {"account_changes", "cage_receipts"} <= set(inspect(store.engine).get_table_names())
    with store.engine.connect() as conn:
        row = conn.execute(select(accounts).where(accounts.c.name == "old")).mappings().one()
        assert (row["balance"], row["must_change_password"], row["retired_at"]) == (
            250,
            False,
            None,
        )
    with store.engine.begin() as conn:  # and a new account is written as the store declares it
        conn.execute(insert(accounts).values(name="new", role="player", password_hash="x",
                                             failed_logins=0, locked=False, balance=0,
                                             created_at=2.0))  # fmt: skip


def test_r0006_adds_the_progressive_meters_to_a_database_made_before_it(
    database_url: str,
) -> None:
    """A database at r0005 gets ``progressive_meters`` (issue 21) and keeps its rows; a meter
    then opens on it with its seed on the ledger."""
    from felt.server.store import progressive_meters

    store = Store(database_url)
    store.migrate()
    with store.engine.begin() as conn:
        conn.execute(text("DROP TABLE progressive_meters"))
        conn.execute(text("UPDATE alembic_version SET version_num = 'r0005'"))
        conn.execute(
            text("INSERT INTO accounts (name, role, password_hash, failed_logins, locked, "
                 "balance, created_at) VALUES ('old', 'player', 'x', 0, false, 250, 1.0)")
        )  # fmt: skip
    assert "progressive_meters" not in inspect(store.engine).get_table_names()
    store.migrate()
    assert "progressive_meters" in inspect(store.engine).get_table_names()
    with store.transaction() as conn:
        assert store.open_meter(conn, "m", 1000, "Jackpot")
    with store.engine.connect() as conn:
        assert conn.execute(select(progressive_meters.c.amount)).scalar() == 1000
        assert conn.execute(select(accounts.c.balance).where(accounts.c.name == "old")).scalar()
    assert store.account_sum("progressive:m") == 1000
    assert store.ledger_sum() == 0
    store.dispose()
