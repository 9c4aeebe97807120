"""Schemathesis against the server's own OpenAPI schema, in process (ASGI), on SQLite and
PostgreSQL: requests generated from the schema, fitting it and deliberately not, sent as a
supervisor, a player and a cashier.  No response may be a server error; each must have a status,
content type and body the schema documents; data that breaks the schema must be refused.

The generation is bounded (a fixed number of examples per operation and role, derandomized:
:data:`EXAMPLES`; ``./dev bench server_schema`` runs it at twice the size or more); ``POST /api/logout`` is left out, as it would end the session the rest of
the run is authorised with (it takes nothing but the token, which the bad-input tests cover).
For the same reason the staff routes that end sessions (lock, retire, reset a password) are
sent only generated names, never the run's own accounts, and ``POST /api/password`` only data
that breaks the schema (three wrong current passwords would lock the account; the staff tests
cover its accepted requests).
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path
from typing import Any, Final, get_args

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import ServerError
from schemathesis.core.result import Ok
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from felt.core.money import MAX_AMOUNT, cents
from felt.games.registry import game_ids, table_game
from felt.server import app as app_module
from felt.server import auth
from felt.server.app import Server, create_app
from felt.server.store import Store
from tests.server_helpers import ADMIN_PASSWORD, fast_specs

EXAMPLES = int(os.environ.get("FELT_SCHEMA_EXAMPLES", "4"))
"""Examples per operation, role, path and generation mode: 4 in the test run (about a minute
a database), 8 or more in the longer campaign, ``./dev bench server_schema``."""
NAMES = {role: f"{role}-7c1f" for role in ("supervisor", "player", "cashier")}
"""The run's accounts, named so no fuzzer's dictionary guesses them: schemathesis does try
``admin`` with empty passwords, and three tries lock an account (13:69O-1.4(i))."""
REAL = {"table": ("b5", "dds"), "round_id": ("b5:1",), "name": (NAMES["player"],)}
"""Path parameters that name something that exists, besides the generated ones (which mostly
name nothing, so would stop at a 404)."""
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


def _login(client: Any, name: str, password: str) -> str:
    r = client.post("/api/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return str(r.json()["token"])


def _accounts(client: Any) -> dict[str, str]:
    """A supervisor, a seated player with money, and a cashier: their bearer tokens."""
    headers = {"Authorization": f"Bearer {_login(client, 'admin', ADMIN_PASSWORD)}"}
    tokens: dict[str, str] = {}
    for role, name in NAMES.items():
        body = {"name": name, "role": role, "password": f"{name}-password"}
        assert client.post("/api/accounts", json=body, headers=headers).status_code == 200
        tokens[role] = _login(client, name, f"{name}-password")
    deposit = {"player": NAMES["player"], "amount": "500.00", "key": secrets.token_hex(8)}
    cashier = {"Authorization": f"Bearer {tokens['cashier']}"}
    assert client.post("/api/cashier/deposit", json=deposit, headers=cashier).status_code == 200
    player = {"Authorization": f"Bearer {tokens['player']}"}
    for table, seat in (("b5", 2), ("dds", 3)):
        r = client.post(f"/api/tables/{table}/sit", json={"seat": seat}, headers=player)
        assert r.status_code == 200, r.text
    return tokens


ENDS_SESSIONS: Final = {f"/api/accounts/{{name}}/{what}" for what in ("lock", "retire", "password")}
"""The staff routes that would end the run's sessions if sent a real name."""


def _paths(operation: Any) -> list[dict[str, str] | None]:
    """Generated path parameters (None), and each real value of the one this path has."""
    if operation.path in ENDS_SESSIONS:
        return [None]
    named = [name for name in REAL if "{" + name + "}" in operation.path]
    return [None] + [{name: value} for name in named for value in REAL[name]]


def _fuzz(operation: Any, token: str, path: dict[str, str] | None) -> None:
    """Send ``operation`` generated requests, fitting the schema and not, with ``token``."""
    headers = {"Authorization": f"Bearer {token}"}
    cases = operation.as_strategy(generation_mode=GenerationMode.NEGATIVE, path_parameters=path)
    if operation.path != "/api/password":
        cases = st.one_of(
            operation.as_strategy(generation_mode=GenerationMode.POSITIVE, path_parameters=path),
            cases,
        )

    @settings(
        max_examples=2 * EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases)
    def run(case: Any) -> None:
        response = case.call(headers=headers)
        case.validate_response(response, checks=CHECKS, headers=headers)

    run()


def test_schemathesis_finds_no_server_error(database_url: str) -> None:
    server = Server(Store(database_url), fast_specs(decision_seconds=600), "node-a")
    app = create_app(server)
    try:
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)  # starts the server
        asgi_app: Any = app  # FastAPI's scope type is wider than schemathesis's ASGIApp
        with asgi.get_client(asgi_app) as client:
            tokens = _accounts(client)
        results = list(schema.get_all_operations())
        operations = [result.ok() for result in results if isinstance(result, Ok)]
        assert len(operations) == len(results) >= 15
        for operation in operations:
            if operation.path == "/api/logout":
                continue
            for role in ("supervisor", "player", "cashier"):
                for path in _paths(operation):
                    _fuzz(operation, tokens[role], path)
        with asgi.get_client(asgi_app) as client:
            for role in tokens:  # every session survived the run
                r = client.get("/api/me", headers={"Authorization": f"Bearer {tokens[role]}"})
                assert r.status_code == 200, (role, r.text)
        assert server.store.ledger_sum() == 0
    finally:
        asgi.shutdown_lifespans()


def _failures(err: BaseException) -> list[ServerError]:
    """The server errors schemathesis reported in ``err`` (one, or a group of them)."""
    if isinstance(err, ServerError):
        return [err]
    if isinstance(err, BaseExceptionGroup):
        return [f for e in err.exceptions for f in _failures(e)]
    return []


def test_the_run_catches_a_server_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same run against a server made to answer its refusals with 500 fails."""
    monkeypatch.setattr(app_module, "status_of", lambda err: 500)
    app = create_app(Server(Store(f"sqlite:///{tmp_path / 'felt.db'}"), fast_specs(), "node-a"))
    try:
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        operation = schema["/api/tables/{table}"]["GET"]
        caught: list[ServerError] = []
        try:
            _fuzz(operation, "no-such-token", None)
        except (AssertionError, BaseExceptionGroup) as err:  # one failure, or hypothesis's group
            caught = _failures(err)
        assert caught
    finally:
        asgi.shutdown_lifespans()


def test_every_documented_error_is_the_error_shape(tmp_path: Path) -> None:
    """The schema documents the API's one error shape for every refusal of every route."""
    app = create_app(Server(Store(f"sqlite:///{tmp_path / 'felt.db'}"), [], "node-a"))
    spec = app.openapi()
    for route, methods in spec["paths"].items():
        for method, op in methods.items():
            for status in ("400", "401", "403", "404", "409", "413", "421", "422"):
                schema = op["responses"][status]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorBody"}, (route, method)
    assert spec["components"]["schemas"]["ErrorBody"]["required"] == ["error"]


def test_the_served_schema_is_that_of_a_twin_built_with_the_error_models(tmp_path: Path) -> None:
    """``create_app`` leaves the error models out of its routes (building them was most of its
    start-up) and serves the schema of a ``documented`` twin built with them: the same routes, and
    the schema an app built with them from the start gives."""
    server = Server(Store(f"sqlite:///{tmp_path / 'felt.db'}"), fast_specs(), "node-a")
    served, twin = create_app(server), create_app(server, documented=True)

    def routes(app: Any) -> list[tuple[str, list[str]]]:
        return [(r.path, sorted(getattr(r, "methods", None) or [])) for r in app.routes]

    assert routes(served) == routes(twin)
    assert served.openapi() == twin.openapi()
    assert "ErrorBody" in twin.openapi()["components"]["schemas"]


def _bodies(spec: dict[str, Any], path: str) -> Any:
    """Request bodies the schema says are valid for ``POST path`` (schemathesis, positive)."""
    operation = schemathesis.openapi.from_dict(spec)[path]["POST"]
    return operation.as_strategy(generation_mode=GenerationMode.POSITIVE).map(lambda c: c.body)


def test_a_request_valid_by_the_schema_passes_felts_own_checks(tmp_path: Path) -> None:
    """Issue 18, item 6: the schema states the server's rules (patterns, bounds, lengths,
    strict types), so a body it allows is never refused for a reason it could have said: felt's
    own checks of names, roles, passwords, amounts and seats accept every generated body."""
    spec = create_app(Server(Store(f"sqlite:///{tmp_path / 'felt.db'}"), [], "node-a")).openapi()
    assert get_args(app_module.Role) == auth.ROLES
    procedures = {p for g in game_ids("table") for p in table_game(g).procedures()}
    assert set(get_args(app_module.Procedure)) == procedures
    bodies = st.one_of(
        _bodies(spec, "/api/accounts").map(lambda b: ("account", b)),
        _bodies(spec, "/api/cashier/deposit").map(lambda b: ("cash", b)),
        _bodies(spec, "/api/tables/{table}/sit").map(lambda b: ("seat", b)),
    )

    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))  # fmt: skip
    @given(kind_body=bodies)
    def run(kind_body: tuple[str, dict[str, Any]]) -> None:
        kind, body = kind_body
        if kind == "account":
            auth.check_name(body["name"])
            auth.check_password(body["password"])
            assert body["role"] in auth.ROLES
        elif kind == "cash":
            auth.check_existing_name(body["player"])
            assert 0 < cents(body["amount"]) <= MAX_AMOUNT, body
        else:
            assert not isinstance(body["seat"], bool), body
            assert body["seat"] == int(body["seat"]), body
            assert 1 <= body["seat"] <= 7, body

    run()


@given(amount=st.integers(1, MAX_AMOUNT))
def test_the_dollars_pattern_is_every_amount_a_cashier_may_move(amount: int) -> None:
    """The schema's pattern for a cashier's amount, checked against arithmetic rather than
    against itself: every whole-cent amount from 0.01 to 10000000.00 written plainly matches,
    and reads back as the same cents."""
    whole, part = divmod(amount, 100)
    for text in (f"{whole}.{part:02d}", f"${whole}.{part:02d}", str(amount / 100)):
        if "e" in text:
            continue
        assert re.fullmatch(app_module.DOLLARS_PATTERN, text), text
        assert cents(text) == amount


@given(text=st.text(alphabet="0123456789.$,_eE+- ", max_size=14))
def test_the_dollars_pattern_admits_nothing_felt_refuses(text: str) -> None:
    """Whatever the pattern admits, felt reads as an amount over 0.00 and at most the limit."""
    if re.fullmatch(app_module.DOLLARS_PATTERN, text):
        assert 0 < cents(text) <= MAX_AMOUNT, text
    for refused_text in ("0.00", "0", ".0", "10000000.01", "1_000", "1e3", "-5.00", "5.001", ".."):
        assert not re.fullmatch(app_module.DOLLARS_PATTERN, refused_text), refused_text
