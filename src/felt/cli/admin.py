"""``felt admin``: the operator's recovery of accounts from the server machine itself, straight on
the database (no server, no log-in needed): unlock an account locked by failed log-ins
(13:69O-1.4(i)), or give it a new password.  The only supervisor locked out is recovered so."""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from felt.core.errors import FeltError


def _read_password(name: str) -> str:
    """The new password: typed twice at a terminal (not echoed), else the first line of stdin.
    Never from the command line, where other users of the machine could read it."""
    if sys.stdin.isatty():
        first = getpass.getpass(f"new password for {name}: ")
        if getpass.getpass("again: ") != first:
            raise FeltError("the two passwords typed differ; nothing changed")
        return first
    line = sys.stdin.readline()
    return line[:-1] if line.endswith("\n") else line


def _run(args: argparse.Namespace) -> int:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from felt.server import auth
    from felt.server.store import Store, default_database_url, sqlalchemy_url

    name = auth.check_existing_name(args.name)
    password = auth.check_password(_read_password(name)) if args.admin_command == "password" else ""
    url = args.database or default_database_url()
    full = sqlalchemy_url(url)
    path = make_url(full).database if full.startswith("sqlite") else None
    if path and path != ":memory:" and not Path(path).is_file():  # before Store creates it
        raise FeltError(f"no database at {path[:200]} (give the --database felt serve uses)")
    store = Store(url)
    try:
        if args.admin_command == "unlock":
            auth.unlock(store, name)
            print(f"unlocked {name}: its failed log-ins are cleared")
        else:
            auth.set_password(store, name, password)
            print(f"new password set for {name}; its sessions are ended")
    except SQLAlchemyError as err:
        first = str(err.orig if hasattr(err, "orig") else err).splitlines()[0][:200]
        raise FeltError(
            f"the database cannot be used (has 'felt serve' run on it?): {first}"
        ) from err
    finally:
        store.dispose()
    return 0


def add_parser(sub: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """Register ``felt admin`` and its commands on the ``felt`` subcommands ``sub``."""
    p = sub.add_parser(
        "admin",
        help="recover accounts on the server machine: unlock, set a new password",
        formatter_class=formatter,
        description="Recover an account straight on the server's database, from the machine\n"
        "itself (no running server or log-in needed): the way back when the only supervisor\n"
        "is locked out (13:69O-1.4(i)) or its password is lost. Each change is written to the\n"
        "account's history (the Staff screen) as made on the server machine.\n\n"
        "examples:\n"
        "  felt admin unlock admin --database postgresql://127.0.0.1:5432/felt\n"
        "  felt admin password admin --database sqlite:///var/lib/felt/felt.db\n"
        "  printf '%s\\n' \"$NEW\" | felt admin password admin --database ...",
    )
    cmds = p.add_subparsers(dest="admin_command", required=True, parser_class=type(p),
                            metavar="COMMAND", help="what to do (each has --help)")  # fmt: skip
    for cmd, text in (
        ("unlock", "unlock an account locked by failed log-ins and clear its count"),
        ("password", "give an account a new password, read from the terminal (typed twice, "
                     "not shown) or from the first line of stdin; ends its sessions"),
    ):  # fmt: skip
        c = cmds.add_parser(cmd, help=text, description=text, formatter_class=formatter)
        c.add_argument("name", metavar="NAME", help="the account's name")
        c.add_argument(
            "--database",
            help="sqlite:///PATH or postgresql://HOST:PORT/DB, as given to felt serve (default: "
            "SQLite in the user's data directory, ~/.local/share/felt/felt.db)",
        )
        c.set_defaults(run=_run)
