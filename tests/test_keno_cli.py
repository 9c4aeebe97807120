"""``felt keno``: keno requests from the writer's flags (N.J.A.C. 19:47-15.1 "Conditioning",
15.2(c), 15.7(a)), the HTTP client's sessions and retries, the reports' output, and end-to-end runs
against a real ``felt serve``."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import re
import socket
import stat
import subprocess
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from felt.cli.main import build_parser, main
from felt.core.errors import FeltError
from felt.games.keno import cli, tickets
from felt.games.keno import system as keno_system
from felt.games.keno.exact import DRAWN, POOL, way_count
from felt.games.keno.ratecard import example_rate_card
from tests.server_helpers import (
    ADMIN_PASSWORD,
    fast_specs,
    keno_spec,
    live_server,
    postgres_schema_url,
)
from tests.server_process import FELT, ServeProcess, free_port

CARD = example_rate_card()


def parse(*argv: str) -> argparse.Namespace:
    """``felt keno ARGV`` parsed."""
    return build_parser().parse_args(["keno", *argv])


def issue_request(*flags: str) -> dict[str, Any]:
    """The keno request ``felt keno issue --station 1 FLAGS`` sends."""
    return cli.request_from_args(parse("issue", "--station", "1", *flags))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["keno", *argv])
    out, err = capsys.readouterr()
    return status, out, err


# ----------------------------------------------------------------------------- requests from flags


def test_straight_request_is_read_by_the_core_as_written() -> None:
    """A straight ticket: the numbers as one group, conditioned by its spot count (15.2(c)1)."""
    request = issue_request("--numbers", "3 17 22 40 61 75", "--rate", "1.00", "--games", "5")
    assert request == {"kind": "straight", "numbers": [3, 17, 22, 40, 61, 75], "rate": "1.00",
                       "games": 5}  # fmt: skip
    t = tickets.read_request(request, CARD)
    assert (t.kind, t.numbers, t.conditioning, t.games, t.price) == (
        "straight", (3, 17, 22, 40, 61, 75), "6", 5, 500)  # fmt: skip


def test_numbers_may_be_separated_by_commas() -> None:
    assert issue_request("--numbers", "3,17, 22", "--rate", "2")["numbers"] == [3, 17, 22]


def test_quick_pick_request_leaves_the_numbers_to_the_system() -> None:
    """A quick-pick marks no numbers: the system selects them (15.1 "Quick-pick")."""
    request = issue_request("--quick-pick", "6", "--rate", "1.00")
    assert request == {"quick_pick": 6, "rate": "1.00"}


@pytest.mark.parametrize(
    ("kind", "groups", "conditions", "ways", "price"),
    [
        ("way", "1 2 3 4 / 5 6 7 8 / 9 10 11 12", "3/8", 3, 300),
        ("split", "1 2 3 4 / 5 6 7 8", "2/4", 2, 200),
        ("combination", "1 2 3 / 4 5 6 / 7 8 9", "3/3 3/6 1/9", 7, 700),
        ("king", "1 / 5 6 7 / 8 9 10", "2/4 1/6 1/7", 4, 400),
    ],
)
def test_grouped_requests_as_keno_writers_write_them(
    kind: str, groups: str, conditions: str, ways: int, price: int
) -> None:
    """Split, way, combination and king tickets (15.2(c)2-5) from --groups and --conditions:
    the core reads the ways the fractions name (counted here by hand)."""
    request = issue_request("--kind", kind, "--groups", groups, "--conditions", conditions,
                            "--rate", "1.00")  # fmt: skip
    t = tickets.read_request(request, CARD)
    assert (t.kind, t.conditioning, t.ways, t.price) == (kind, conditions, ways, price)
    assert [list(g) for g in t.groups] == [[int(n) for n in g.split()] for g in groups.split("/")]


def test_conditions_may_carry_their_own_rates_without_rate() -> None:
    request = issue_request("--kind", "combination", "--groups", "1 2 3 / 4 5 6 / 7 8 9",
                            "--conditions", "3/3@1.00 3/6@2.00 1/9@5")  # fmt: skip
    assert "rate" not in request
    assert tickets.read_request(request, CARD).price == 300 + 600 + 500


def test_price_is_sent_for_the_server_to_check() -> None:
    """A stated price the rate card does not give is refused by the core (15.4(a))."""
    request = issue_request("--numbers", "1 2 3", "--rate", "1", "--price", "2.00")
    assert request["price"] == "2.00"
    with pytest.raises(FeltError, match="priced"):
        tickets.read_request(request, CARD)


def test_request_json_is_sent_as_given() -> None:
    text = '{"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/4"]}'
    assert issue_request("--request", text) == json.loads(text)


@st.composite
def any_ticket(draw: st.DrawFn) -> tickets.Ticket:
    """A ticket the core accepts under the example card, of any kind: random groups from a
    shuffled pool, conditioned with every way they make of some spot counts."""
    kind = draw(st.sampled_from(cli.KINDS))
    pool = draw(st.permutations(range(1, 81)))
    if kind == "straight":
        sizes = [draw(st.integers(1, CARD.max_spots))]
    elif kind == "way":
        sizes = [draw(st.integers(2, 4))] * draw(st.integers(3, 4))
    else:
        low = 1 if kind == "king" else 2
        sizes = draw(st.lists(st.integers(low, 5), min_size=2, max_size=4))
    groups, at = [], 0
    for size in sizes:
        groups.append(sorted(pool[at : at + size]))
        at += size
    if kind == "straight":
        spots = [sizes[0]]
    elif kind == "split":
        spots = sorted(set(sizes))
    elif kind == "way":
        spots = [sizes[0] * draw(st.integers(2, len(sizes) - 1))]
    else:
        top = min(sum(sizes), CARD.max_spots)
        spots = sorted(draw(st.sets(st.integers(2, top), min_size=1, max_size=4)))
    single = kind in ("straight", "split")
    request = {"kind": kind, "groups": groups, "rate": "1.00", "games": draw(st.integers(1, 3)),
               "conditions": [f"{way_count(sizes, s, single)}/{s}" for s in spots]}  # fmt: skip
    try:
        return tickets.read_request(request, CARD)
    except FeltError:
        reject()


@settings(max_examples=150, deadline=None)
@given(any_ticket())
def test_flags_written_from_any_ticket_read_back_as_the_same_play(t: tickets.Ticket) -> None:
    """Property: a ticket written out as a keno writer's flags (groups separated by '/', the
    conditioning as printed on the ticket, the rate) is read by the core as the same wagers."""
    flags = ["--rate", "1.00", "--games", str(t.games)]
    if t.kind == "straight":
        flags += ["--numbers", " ".join(map(str, t.groups[0]))]
    else:
        flags += ["--kind", t.kind, "--groups", " / ".join(" ".join(map(str, g)) for g in t.groups),
                  "--conditions", t.conditioning]  # fmt: skip
    again = tickets.read_request(issue_request(*flags), CARD)
    assert tickets.same_play(again, t)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        ([], "mark the ticket one way: --numbers (straight), --quick-pick SPOTS, --groups"),
        (["--numbers", "1 2", "--groups", "1 / 2", "--rate", "1"], "mark the ticket one way"),
        (["--numbers", "1 2 81", "--rate", "1"], "'81' is not a keno number: 1 to 80"),
        (["--numbers", "1 two", "--rate", "1"], "'two' is not a keno number: 1 to 80"),
        (["--numbers", "1 ²", "--rate", "1"], "'²' is not a keno number: 1 to 80"),
        (["--numbers", "0003 0004", "--rate", "1", "--games", "x"], "argument --games: invalid int"),
        (["--numbers", " ", "--rate", "1"], "--numbers names no numbers"),
        (["--numbers", "1 2"], "--rate is needed: the wager per way in dollars"),
        (["--numbers", "1 2", "--rate", "abc"], "--rate must be an amount in dollars such as"),
        (["--numbers", "1 2", "--rate", "0"], "--rate must be more than 0.00 dollars"),
        (["--numbers", "1 2", "--rate", "1", "--games", "0"], "--games must be 1 or more"),
        (["--numbers", "1 2", "--rate", "1", "--kind", "way"],
         "a way ticket is written with --groups"),
        (["--numbers", "1 2", "--rate", "1", "--conditions", "2"], "--conditions goes with --groups"),
        (["--quick-pick", "81", "--rate", "1"], "--quick-pick is the number of spots, 1 to 80"),
        (["--quick-pick", "x", "--rate", "1"], "argument --quick-pick: a whole number 1 or more"),
        (["--groups", "1 2 / 3 4", "--conditions", "2/2", "--rate", "1"],
         "--groups needs --kind split, way, combination or king"),
        (["--groups", "1 2 / 3 4", "--kind", "split", "--rate", "1"],
         "--groups needs --conditions, the fractions ways/spots"),
        (["--groups", "1 2 3 4", "--kind", "way", "--conditions", "1/4", "--rate", "1"],
         "--groups needs at least two groups separated by '/'"),
        (["--groups", "1 2 / / 3", "--kind", "way", "--conditions", "1/4", "--rate", "1"],
         "--groups: group 2 is empty"),
        (["--groups", "1 2 / 3 99", "--kind", "way", "--conditions", "1/4", "--rate", "1"],
         "--groups (group 2): '99' is not a keno number"),
        (["--groups", "1 2 / 3 4", "--kind", "split", "--conditions", "2-2", "--rate", "1"],
         "'2-2' is not a fraction ways/spots such as 3/8"),
        (["--groups", "1 2 / 3 4", "--kind", "split", "--conditions", "2/2"],
         "--rate is needed"),
        (["--groups", "1 2 / 3 4", "--kind", "fancy", "--conditions", "2/2"],
         "invalid choice: 'fancy' (choose from 'straight', 'split', 'way', 'combination', 'king')"),
        (["--request", "{not json"], "--request is not valid JSON"),
        (["--request", "[1, 2]"], "--request must be a JSON object"),
        (["--request", "{}", "--rate", "1"], "--request is the whole request as JSON: give it alone, not with --rate"),
    ],
)  # fmt: skip
def test_bad_issue_flags_are_refused_before_any_connection(
    capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    """Bad flags: one line naming what was wrong and what is allowed, exit 2, no traceback, and
    no connection (the server given does not exist: port 9 on loopback)."""
    status, out, err = run(capsys, "--server", "http://127.0.0.1:9", "--user", "kw",
                           "--system", "k", "issue", "--station", "1", *flags)  # fmt: skip
    assert (status, out) == (2, "")
    assert err.count("\n") == 1, err
    assert err.startswith("felt: error: ")
    assert message in err
    assert "cannot reach" not in err


_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30) | st.from_regex(
    r"[0-9 /,@.$]{0,30}", fullmatch=True
)


@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "numbers": _TEXT,
            "quick_pick": st.integers(-5, 100),
            "groups": _TEXT,
            "conditions": _TEXT,
            "kind": st.sampled_from(cli.KINDS),
            "rate": _TEXT,
            "games": st.integers(-3, 30),
            "price": _TEXT,
            "request": _TEXT,
        },
    )
)
def test_any_issue_flags_give_a_request_or_one_clear_error(flags: dict[str, Any]) -> None:
    """Whatever is typed, the request builder answers a request or a FeltError (which the
    command prints as one line), never another exception."""
    outcome: dict[str, Any] | str
    try:
        outcome = cli.build_request(**flags)
    except FeltError as err:
        outcome = str(err)
    assert isinstance(outcome, dict) or "\n" not in outcome


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["void", "--station", "1", "x12"], "a ticket number such as 12 or 00000012, got 'x12'"),
        (["void", "--station", "1", "1²"], "a ticket number such as 12 or 00000012, got '1²'"),
        (["void", "--station", "²", "1"], "argument --station: a whole number 1 or more"),
        (["year-end", "²⁰²⁶", "--to", "keno jackpot"], "a year such as 2026"),
        (["void", "12"], "the following arguments are required: --station"),
        (["void", "--station", "0", "12"], "argument --station: a whole number 1 or more"),
        (["redeem", "--station", "1", "12", "--method", "gold"],
         "invalid choice: 'gold' (choose from 'cash', 'gaming chips', 'casino check')"),
        (["override", "pause", "--reason", "x"], "choose from 'hold', 'release', 'lock'"),
        (["override", "hold"], "required: --reason"),
        (["override", "hold", "--reason", "  "], "--reason must say why"),
        (["cancel-races", "12", "--reason", ""], "--reason must say why"),
        (["manual-pay", "--station", "1", "12", "eight"], "AMOUNT must be an amount in dollars"),
        (["year-end", "26", "--to", "keno jackpot"], "a year such as 2026, got '26'"),
        (["year-end", "2026", "--to", "charity"],
         "choose from 'keno jackpot', 'Casino Revenue Fund'"),
        (["games", "--day", "2026-13-01"], "a date YYYY-MM-DD, got '2026-13-01'"),
        (["unclaimed", "--year", "last"], "a year such as 2026"),
        (["ticket"], "required: TICKET"),
        (["issue", "--station", "1", "--numbers", "1", "--rate", "1", "--key", ""],
         "a key of 1 to 128 printable characters"),
        (["shuffle"], "invalid choice: 'shuffle'"),
    ],
)  # fmt: skip
def test_bad_command_flags_are_refused_with_what_is_allowed(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "--server", "http://127.0.0.1:9", "--user", "kw",
                           "--system", "k", *argv)  # fmt: skip
    assert (status, out) == (2, "")
    assert err.count("\n") == 1, err
    assert message in err


@pytest.mark.parametrize(
    ("argv", "action"),
    [
        (["void", "--station", "2", "00000012"], {"action": "void", "station": 2, "ticket": 12}),
        (["redeem", "--station", "1", "7"], {"action": "redeem", "station": 1, "ticket": 7,
                                            "method": "cash", "manual_entry": False}),
        (["redeem", "--station", "1", "7", "--method", "casino check", "--manual-entry"],
         {"action": "redeem", "station": 1, "ticket": 7, "method": "casino check",
          "manual_entry": True}),
        (["approve", "7"], {"action": "approve", "ticket": 7}),
        (["notice"], {"action": "closing_notice"}),
        (["lock-out"], {"action": "lock_out"}),
        (["lock-out", "--approved-by", "sam"], {"action": "lock_out", "approved_by": "sam"}),
        (["override", "release", "--reason", " board fixed "],
         {"action": "override", "what": "release", "reason": "board fixed"}),
        (["cancel-races", "9", "--reason", "patron left"],
         {"action": "cancel_races", "ticket": 9, "reason": "patron left"}),
        (["system-down"], {"action": "system_down"}),
        (["system-up"], {"action": "system_up"}),
        (["manual-pay", "--station", "3", "9", "8"],
         {"action": "manual_pay", "station": 3, "ticket": 9, "amount": "8.00"}),
        (["year-end", "2026", "--to", "Casino Revenue Fund"],
         {"action": "year_end", "year": 2026, "to": "Casino Revenue Fund"}),
    ],
)  # fmt: skip
def test_commands_send_the_actions_of_the_contract(argv: list[str], action: dict[str, Any]) -> None:
    assert cli.action_from_args(parse(*argv)) == action


def test_options_are_taken_before_or_after_the_command() -> None:
    """--server, --user, --system and --json may come before or after the command; after it
    wins, and before it is not overwritten by the command's absent option."""
    before = parse("--server", "http://a:1", "--user", "u", "--json", "board")
    assert (before.server, before.user, before.json, before.system) == (
        "http://a:1",
        "u",
        True,
        None,
    )
    after = parse("--server", "http://a:1", "board", "--server", "http://b:2", "--system", "s")
    assert (after.server, after.system, after.json) == ("http://b:2", "s", False)


def test_choices_are_the_cores() -> None:
    """The CLI's lists (kept here so 'felt' starts without the keno core) are the core's."""
    assert cli.KINDS == tickets.KINDS
    assert cli.PAYMENT_METHODS == keno_system.PAYMENT_METHODS
    assert cli.DISPOSITIONS == keno_system.DISPOSITIONS
    assert cli.POOL == POOL


@pytest.mark.parametrize(
    "url",
    ["127.0.0.1:8000", "ftp://x", "http://", "http://h:99999", "http://[::1", "http://a b:80",
     "http://h:1/?q=1", "http://é.example:1", "http://h\x00:1"],
)  # fmt: skip
def test_bad_server_url_is_refused(capsys: pytest.CaptureFixture[str], url: str) -> None:
    status, _, err = run(capsys, "--server", url, "--system", "k", "board")
    assert status == 2
    assert "--server" in err
    assert err.count("\n") == 1


# ----------------------------------------------------------------------------- the HTTP client


class FakeServer:
    """A sender standing in for the network: answers from ``script`` in turn (an exception is
    raised, a (status, body) returned) and records every request."""

    def __init__(self, *script: tuple[int, Any] | Exception) -> None:
        self.script = list(script)
        self.sent: list[tuple[str, str, Any, str | None]] = []

    def __call__(self, request: urllib.request.Request, timeout: float) -> tuple[int, bytes]:
        data = request.data
        body = json.loads(data) if isinstance(data, bytes) else None
        self.sent.append((request.get_method(), request.full_url, body,
                          request.get_header("Authorization")))  # fmt: skip
        step = self.script.pop(0)
        if isinstance(step, Exception):
            raise step
        status, answer = step
        return status, json.dumps(answer).encode()


def client(fake: FakeServer, tmp_path: Path, password: str = "pw") -> cli.Client:
    return cli.Client("http://keno.test:8000", "kw", lambda: password, tmp_path / "sessions",
                      fake, lambda _s: None)  # fmt: skip


LOGIN: tuple[int, Any] = (200, {"token": "t1", "name": "kw", "role": "keno_writer"})


def test_a_lost_reply_is_retried_with_the_same_key(tmp_path: Path) -> None:
    """A connection reset after sending: the action goes again with the SAME idempotency key,
    so the server answers the first request's result instead of doing it twice."""
    ok = (200, {"system": "k", "seq": 3, "action": "void", "effects": []})
    fake = FakeServer(LOGIN, cli._Lost("connection reset"), cli._Lost("timed out"), ok)
    answer = client(fake, tmp_path).act("k", {"action": "void", "station": 1, "ticket": 2})
    assert answer["seq"] == 3
    actions = [body for method, url, body, _ in fake.sent if url.endswith("/actions")]
    assert len(actions) == 3
    assert len({a["key"] for a in actions}) == 1
    assert len(actions[0]["key"]) == 32


def test_an_unreachable_server_is_reported_with_its_url_and_the_key(tmp_path: Path) -> None:
    fake = FakeServer(LOGIN, *[cli._Lost("Connection refused")] * cli.ATTEMPTS)
    with pytest.raises(FeltError) as caught:
        client(fake, tmp_path).act("k", {"action": "notice"}, key="abc123")
    text = str(caught.value)
    assert "cannot reach the felt server at http://keno.test:8000 (Connection refused" in text
    assert f"tried {cli.ATTEMPTS} times" in text
    assert "--key abc123" in text
    assert len(fake.sent) == 1 + cli.ATTEMPTS


def test_a_server_error_on_an_action_gives_its_key(tmp_path: Path) -> None:
    """A 500 may come from a commit whose outcome the server did not hear of: the writer is
    told the key to repeat the action with, so a ticket is never issued twice; a refusal (4xx)
    did nothing and needs no key."""
    fake = FakeServer(LOGIN, (500, {"error": "the server could not record the action"}))
    with pytest.raises(FeltError) as caught:
        client(fake, tmp_path).act("k", {"action": "notice"}, key="abc123")
    assert "server error 500" in str(caught.value)
    assert "--key abc123" in str(caught.value)
    fake = FakeServer((400, {"error": "ticket 9 was voided"}))  # the session is kept: no login
    with pytest.raises(cli.ServerError) as refused:
        client(fake, tmp_path).act("k", {"action": "redeem"}, key="abc123")
    assert str(refused.value) == "ticket 9 was voided"


def test_only_an_action_sent_unanswered_gives_its_key(tmp_path: Path) -> None:
    """An unanswered login means the action was never sent (no key to chase); a missing
    password is its own error."""
    fake = FakeServer(*[cli._Lost("Connection refused")] * cli.ATTEMPTS)
    with pytest.raises(cli.Unreachable) as caught:
        client(fake, tmp_path).act("k", {"action": "notice"}, key="abc123")
    assert "--key" not in str(caught.value)
    assert caught.value.path == "/api/login"
    no_password = cli.Client("http://keno.test:8000", "kw", None, tmp_path, FakeServer())
    with pytest.raises(FeltError, match=r"^no password: set FELT_PASSWORD$"):
        no_password.act("k", {"action": "notice"})


def test_a_busy_proxy_is_retried_but_a_refusal_is_not(tmp_path: Path) -> None:
    fake = FakeServer(LOGIN, (503, {}), (400, {"error": "game 4 is locked out"}))
    with pytest.raises(cli.ServerError, match=r"^game 4 is locked out$") as caught:
        client(fake, tmp_path).act("k", {"action": "void", "station": 1, "ticket": 2})
    assert caught.value.status == 400
    assert len(fake.sent) == 3


def test_session_is_kept_private_and_reused(tmp_path: Path) -> None:
    """The token goes to a 0600 file keyed by server and account; the next command reuses it
    without logging in."""
    fake = FakeServer(LOGIN, (200, {"systems": []}))
    client(fake, tmp_path).call("GET", "/api/keno")
    files = list((tmp_path / "sessions").iterdir())
    assert len(files) == 1
    assert stat.S_IMODE(files[0].stat().st_mode) == 0o600
    assert fake.sent[0][2] == {"name": "kw", "password": "pw"}
    again = FakeServer((200, {"systems": []}))
    client(again, tmp_path).call("GET", "/api/keno")
    assert [(m, u, a) for m, u, _, a in again.sent] == [
        ("GET", "http://keno.test:8000/api/keno", "Bearer t1")
    ]
    other = cli.Client("http://other:1", "kw", lambda: "pw", tmp_path / "sessions", FakeServer())
    assert other._stored_token() is None


def test_an_ended_session_logs_in_again_once(tmp_path: Path) -> None:
    """401 on a kept token: log in again and send the same request (same key) again."""
    fake = FakeServer(LOGIN, (200, {}))
    client(fake, tmp_path).call("GET", "/api/keno")
    fake = FakeServer(
        (401, {"error": "session expired"}), (200, {"token": "t2"}), (200, {"seq": 1})
    )
    client(fake, tmp_path).act("k", {"action": "notice"}, key="kk")
    assert [a for *_, a in fake.sent] == ["Bearer t1", None, "Bearer t2"]
    assert fake.sent[0][2] == fake.sent[2][2] == {"action": {"action": "notice"}, "key": "kk"}
    assert client(FakeServer(), tmp_path)._stored_token() == "t2"


def test_a_wrong_password_is_one_error_without_retry(tmp_path: Path) -> None:
    fake = FakeServer((401, {"error": "wrong name or password"}))
    with pytest.raises(cli.ServerError, match="wrong name or password"):
        client(fake, tmp_path).call("GET", "/api/keno")
    assert len(fake.sent) == 1


def test_421_names_the_process_that_runs_the_system(tmp_path: Path) -> None:
    fake = FakeServer(LOGIN, (421, {"error": "keno-1 is run at 10.0.0.2:8001; connect there",
                                    "owner": "10.0.0.2:8001"}))  # fmt: skip
    with pytest.raises(cli.ServerError) as caught:
        client(fake, tmp_path).act("keno-1", {"action": "notice"})
    assert "--server http://10.0.0.2:8001" in str(caught.value)
    assert caught.value.owner == "10.0.0.2:8001"


def test_server_errors_are_one_line(tmp_path: Path) -> None:
    fake = FakeServer(LOGIN, (400, {"error": "first\nsecond"}))
    with pytest.raises(cli.ServerError, match=r"^first second$"):
        client(fake, tmp_path).call("GET", "/api/keno")


@pytest.mark.parametrize("body", [b"<html>busy</html>", b"[1, 2]", b""])
def test_an_answer_that_is_not_a_json_object_is_one_error(tmp_path: Path, body: bytes) -> None:
    """Something else listening at the URL: a clear error, not a crash in the output code."""

    def send(request: urllib.request.Request, timeout: float) -> tuple[int, bytes]:
        return 200, body

    c = cli.Client("http://elsewhere:80", None, None, tmp_path, send, lambda _s: None)
    with pytest.raises(FeltError, match=r"did not answer with a JSON object .* a felt server"):
        c.call("GET", "/api/keno/k", public=True)


def test_the_system_is_the_only_one_the_server_runs_unless_given(tmp_path: Path) -> None:
    """Issue 20, item 9: found from the public list of keno boards, with no log-in."""
    one = FakeServer((200, {"systems": ["keno-9"]}))
    assert cli._system(client(one, tmp_path), parse("board")) == "keno-9"
    assert [(m, u, a) for m, u, _, a in one.sent] == [
        ("GET", "http://keno.test:8000/api/keno-boards", None)
    ]
    assert cli._system(client(FakeServer(), tmp_path), parse("--system", "k", "board")) == "k"
    two = FakeServer((200, {"systems": ["a", "b"]}))
    with pytest.raises(FeltError, match=r"runs 2 keno systems \(a, b\): choose one with --system"):
        cli._system(client(two, tmp_path), parse("board"))
    none = FakeServer((200, {"systems": []}))
    with pytest.raises(FeltError, match="runs no keno system"):
        cli._system(client(none, tmp_path), parse("board"))


def test_unreachable_server_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real connection refused (nothing listens on the port): one line naming the URL."""
    monkeypatch.setattr(cli, "BACKOFF", (0.0,))
    url = f"http://127.0.0.1:{free_port()}"
    status, out, err = run(capsys, "--server", url, "--system", "k", "board")
    assert (status, out) == (2, "")
    assert err.startswith(f"felt: error: cannot reach the felt server at {url} (")
    assert err.count("\n") == 1


# ----------------------------------------------------------------------------- output


def _fits(text: str) -> bool:
    return all(len(line) <= cli.WIDTH for line in text.splitlines())


@given(st.lists(st.integers(1, 80), min_size=DRAWN, max_size=DRAWN, unique=True))
def test_board_shows_each_number_once_and_the_drawn_ones_marked(numbers: list[int]) -> None:
    """15.5(g): the 20 numbers and the game number on the board, in 80 columns."""
    status = {"system": "keno-1", "day": "2026-11-26", "game": 8, "state": "open",
              "remaining_seconds": 125.4, "held": False, "down": False,
              "board": {"day": "2026-11-26", "game": 7, "numbers": numbers}}  # fmt: skip
    text = cli.format_board(status)
    assert _fits(text)
    assert "game 8 of 2026-11-26, open: closes in 2:05" in text
    assert "game 7 of 2026-11-26" in text
    grid = "\n".join(cli.board_grid(numbers))
    marked = [int(x) for x in re.findall(r"\[\s*(\d+)\]", grid)]
    assert sorted(marked) == sorted(numbers)
    assert sorted(int(x) for x in grid.replace("[", " ").replace("]", " ").split()) == list(
        range(1, 81)
    )


def test_board_of_a_held_system_that_is_down() -> None:
    text = cli.format_board({"system": "k", "day": None, "game": 0, "state": None, "held": True,
                             "down": True, "board": None})  # fmt: skip
    assert "no game open" in text
    assert "held" in text
    assert "DOWN" in text
    assert "no game drawn" in text


def test_games_report_fits_80_columns() -> None:
    games = [{"game": g, "opened_at": "2026-11-26T10:00:00+00:00",
              "started_at": "2026-11-26T10:05:00+00:00", "numbers": list(range(61, 81)),
              "shared": g == 2} for g in range(1, 1001)]  # fmt: skip
    games.append(
        {"game": 1001, "opened_at": "x", "started_at": None, "numbers": [], "shared": False}
    )
    text = cli.format_games({"day": "2026-11-26", "games": games})
    assert _fits(text)
    lines = text.splitlines()
    assert lines[2].split() == ["1", "10:05:00", *map(str, range(61, 81))]
    assert lines[3].startswith("   2*")
    assert "shared the aggregate limit" in lines[-1]
    assert "(not drawn)" in lines[-2]


Formatter = Callable[[Any], str]


@pytest.mark.parametrize(
    ("formatter", "report"),
    [
        (cli.format_voids, {"day": "2026-11-26", "stations": {"10": [{"number": 3}], "2": [
            {"number": 12, "price": "3.00", "voided_at": "2026-11-26T10:00:00+00:00",
             "writer": "kw" * 30, "extra": {"a": [1] * 40}}]}}),
        (cli.format_unclaimed, {"year": 2026, "total": "12.00", "taken": False, "tickets": [
            {"number": 5, "owed": "12.00", "expires": "2026-12-01T00:00:00+00:00"}]}),
        (cli.format_ticket, {"number": 5, "text": "KENO TICKET 00000005\n" + "x " * 60,
                             "voided": False, "won": {"3": "2.00", "4": "1.00"}, "owed": "3.00",
                             "paid": "3.00", "paid_at": "2026-11-26T10:00:00+00:00",
                             "expires": "2027-11-26T10:00:00+00:00", "cancelled": False}),
        (cli.format_action, {"action": "redeem", "paid": "12.00", "effects": [
            {"kind": "paid", "ticket": 5, "amount": "12.00", "detail": "cash; " * 30}]}),
    ],
)  # fmt: skip
def test_reports_fit_80_columns(formatter: Formatter, report: dict[str, Any]) -> None:
    text = formatter(report)
    assert _fits(text)
    assert text.strip()


def test_voids_are_listed_by_station_in_number_order() -> None:
    text = cli.format_voids(
        {"day": "d", "stations": {"10": [{"number": 3}], "2": [{"number": 12}]}}
    )
    assert text.splitlines() == [
        "voided keno tickets of d: 2 (N.J.A.C. 19:47-15.4(e))",
        "work station 2: 1",
        "  00000012",
        "work station 10: 1",
        "  00000003",
    ]


# ----------------------------------------------------------------------------- end to end

KENO_1 = """
[[keno]]
id = "keno-1"                 # games drawn while the tests run
rate_card = "example"
stations = [1, 2]
game_seconds = 8
draw_seconds = 0.5
between_games_seconds = 0.5
"""
KENO_TOML = (
    KENO_1
    + """
[[keno]]
id = "keno-2"                 # a game that stays open for the whole test run
rate_card = "example"
stations = [1, 2]
game_seconds = 3600
"""
)
PASSWORD = "keno-test-password"
K1 = ("--system", "keno-1")


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sessions go to the test's own data directory; nothing comes from the caller's shell."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("FELT_PASSWORD", PASSWORD)
    for name in ("FELT_USER", "FELT_SERVER"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A real ``felt serve`` on each back end running two keno systems, with a keno writer
    ``kw``, a keno supervisor ``ks`` and a table supervisor ``sup``; its URL."""
    root = tmp_path_factory.mktemp("keno-serve")
    if request.param == "sqlite":
        yield from _serve(f"sqlite:///{root / 'felt.db'}", root)
    else:
        for url in postgres_schema_url():
            yield from _serve(url, root)


def _serve(database: str, root: Path) -> Iterator[str]:
    tables = root / "tables.toml"
    tables.write_text(KENO_TOML)
    proc = ServeProcess(database, tables, root / "serve.log", ADMIN_PASSWORD)
    proc.start()
    try:
        url = f"http://{proc.name}"
        with httpx.Client(base_url=url, timeout=30) as http:
            token = http.post("/api/login", json={"name": "admin", "password": ADMIN_PASSWORD})
            headers = {"Authorization": f"Bearer {token.json()['token']}"}
            for name, role in (("kw", "keno_writer"), ("ks", "keno_supervisor"),
                               ("sup", "supervisor")):  # fmt: skip
                made = http.post("/api/accounts", headers=headers,
                                 json={"name": name, "role": role, "password": PASSWORD})  # fmt: skip
                assert made.status_code == 200, made.text
        yield url
    finally:
        proc.stop()


def keno(
    capsys: pytest.CaptureFixture[str], url: str, user: str, *argv: str
) -> tuple[int, str, str]:
    """``felt keno --server URL --user USER ARGV`` in this process."""
    return run(capsys, "--server", url, "--user", user, *argv)


def status_of(url: str, system: str) -> dict[str, Any]:
    return dict(httpx.get(f"{url}/api/keno/{system}", timeout=10).json())


def issued_number(text: str) -> int:
    match = re.search(r"KENO TICKET (\d{8})", text)
    assert match, text
    return int(match[1])


def _read_request(conn: socket.socket) -> bytes:
    """One whole HTTP request (headers and a Content-Length body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    while length and len(body) < int(length[1]):
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


class DroppingProxy:
    """A proxy in front of the server that forwards each request whole and, for the first
    ``drops`` actions, reads the server's reply and closes the client's connection without it:
    the action was done, its answer lost on the way back."""

    def __init__(self, target: str, drops: int) -> None:
        parts = urllib.parse.urlsplit(target)
        assert parts.hostname is not None
        assert parts.port is not None
        self.target = (parts.hostname, parts.port)
        self.drops = drops
        self.dropped = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.1)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> DroppingProxy:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        self.thread.join(10)
        self.sock.close()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(30)
                request = _read_request(conn)
                with socket.create_connection(self.target, timeout=30) as upstream:
                    upstream.sendall(request)
                    reply = b""
                    while chunk := upstream.recv(65536):
                        reply += chunk
                action = request.split(b"\r\n", 1)[0].endswith(b"/actions HTTP/1.1")
                if action and self.dropped < self.drops:
                    self.dropped += 1
                    continue
                conn.sendall(reply)


def issue_on_keno_1(capsys: pytest.CaptureFixture[str], url: str, *flags: str) -> str:
    """Issue on keno-1, whose games close every few seconds: a refusal because the game is
    locked or drawn (nothing issued) is tried again once the next game opens."""
    end = time.monotonic() + 30
    while True:
        status, out, err = keno(capsys, url, "kw", *K1, "issue", "--station", "1", *flags)
        if status == 0:
            return out
        assert "no ticket may be issued" in err, err
        assert time.monotonic() < end, err
        time.sleep(0.2)


def test_issue_each_way_a_writer_writes_and_print_the_ticket(
    capsys: pytest.CaptureFixture[str], server: str
) -> None:
    """The printed ticket carries the 15.4(c) items of the request as written."""
    k2 = ("--system", "keno-2")
    status, out, err = keno(capsys, server, "kw", *k2, "issue", "--station", "1", "--numbers",
                            "3 17 22 40 61 75", "--rate", "1.00", "--games", "5")  # fmt: skip
    assert status == 0, err
    assert "numbers selected: 3 17 22 40 61 75" in out
    assert "total price: $5.00" in out
    assert "number of games: 5" in out
    status, out, err = keno(capsys, server, "kw", *k2, "issue", "--station", "2", "--kind", "way",
                            "--groups", "1 2 3 4 / 5 6 7 8 / 9 10 11 12", "--conditions", "3/8",
                            "--rate", "1.00")  # fmt: skip
    assert status == 0, err
    assert "conditioning: 3/8" in out
    assert "number of ways: 3" in out
    status, out, err = keno(capsys, server, "kw", *k2, "issue", "--station", "1", "--quick-pick",
                            "6", "--rate", "2.00")  # fmt: skip
    assert status == 0, err
    picked = re.search(r"numbers selected: ([\d ]+) \(quick-pick\)", out)
    assert picked
    assert len(set(picked[1].split())) == 6
    status, out, err = keno(capsys, server, "kw", *k2, "--json", "issue", "--station", "1",
                            "--request", '{"numbers": [80], "rate": "3.00"}')  # fmt: skip
    assert status == 0, err
    answer = json.loads(out)
    assert answer["ticket"]["price"] == "3.00"
    assert answer["ticket"]["text"].startswith("KENO TICKET")
    assert all(len(line) <= cli.WIDTH for line in out.splitlines()[1:] if not line.startswith("{"))


def test_void_then_the_voids_report_by_station(
    capsys: pytest.CaptureFixture[str], server: str
) -> None:
    """15.4(d)-(e): a ticket voided at station 2 is listed under station 2; voiding it twice is
    refused in one line."""
    k2 = ("--system", "keno-2")
    _, out, _ = keno(capsys, server, "kw", *k2, "issue", "--station", "2", "--numbers", "5 6",
                     "--rate", "1")  # fmt: skip
    number = issued_number(out)
    status, out, err = keno(capsys, server, "kw", *k2, "void", "--station", "2", f"{number:08d}")
    assert status == 0, err
    assert f"ticket {number:08d}" in out
    status, out, err = keno(capsys, server, "kw", *k2, "void", "--station", "2", str(number))
    assert (status, out) == (2, "")
    assert err.count("\n") == 1
    status, out, err = keno(capsys, server, "kw", *k2, "voids", "--station", "2")
    assert status == 0, err
    assert f"  {number:08d}" in out
    assert "work station 2:" in out
    status, out, _ = keno(capsys, server, "kw", *k2, "ticket", str(number))
    assert "VOIDED at work station 2" in out


def test_a_dropped_reply_is_retried_with_the_same_key_and_issues_one_ticket(
    capsys: pytest.CaptureFixture[str], server: str
) -> None:
    """The first reply is lost on the way back (the server did issue the ticket); the client
    sends the same key again and gets that ticket, and no second one exists."""
    with DroppingProxy(server, drops=1) as proxy:
        status, out, err = keno(capsys, proxy.url, "kw", "--system", "keno-2", "issue",
                                "--station", "1", "--numbers", "7 8 9", "--rate", "1")  # fmt: skip
        assert status == 0, err
        assert proxy.dropped == 1
    number = issued_number(out)
    assert "already been done" in out
    status, out, err = keno(capsys, server, "kw", "--system", "keno-2", "ticket", str(number + 1))
    assert status == 2
    assert err.count("\n") == 1
    _, out, _ = keno(capsys, server, "kw", "--system", "keno-2", "issue", "--station", "1",
                     "--numbers", "7 8 9", "--rate", "1")  # fmt: skip
    assert issued_number(out) == number + 1


def test_bad_input_exits_2_with_one_line_from_the_real_command(server: str, tmp_path: Path) -> None:
    """The installed ``felt`` command: refusals by the server and by the flags are one line on
    standard error, exit status 2, no traceback."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "FELT_PASSWORD": PASSWORD}
    base = [str(FELT), "keno", "--server", server, "--user", "kw", "--system", "keno-2"]
    for argv, message in [
        (["issue", "--station", "1", "--numbers", " ".join(map(str, range(1, 17))), "--rate", "1"],
         "keno request returned to the player"),
        (["issue", "--station", "9", "--numbers", "1", "--rate", "1"], "station"),
        (["redeem", "--station", "1", "99999"], "99999"),
        (["issue", "--station", "1", "--numbers", "1"], "--rate is needed"),
        (["year-end", "2025", "--to", "keno jackpot"], "keno_supervisor"),
    ]:  # fmt: skip
        done = subprocess.run([*base, *argv], capture_output=True, text=True, env=env, timeout=60)
        assert done.returncode == 2, (argv, done.stderr)
        assert done.stdout == ""
        assert done.stderr.count("\n") == 1, done.stderr
        assert done.stderr.startswith("felt: error: ")
        assert message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_wrong_password_and_public_board(
    capsys: pytest.CaptureFixture[str], server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board is public (no account); a wrong password is one line naming the failure."""
    status, out, err = run(capsys, "--server", server, "--system", "keno-2", "board")
    assert status == 0, err
    assert "keno keno-2: game 1 of " in out
    assert ", open: closes in 5" in out or ", open: closes in 6" in out
    monkeypatch.setenv("FELT_PASSWORD", "wrong")
    status, out, err = keno(capsys, server, "kw", "--system", "keno-2", "games")
    assert (status, out) == (2, "")
    assert err.count("\n") == 1


def test_drawn_games_pay_their_winners(capsys: pytest.CaptureFixture[str], server: str) -> None:
    """A one-spot ticket on each number 1 to 80: after the draw a ticket wins exactly when its
    number is among its game's 20 numbers in the games report, and is paid $3.00 (the example
    card's 1-spot pay at $1.00) once, by redeeming or by hand while the system is down
    (15.7(c)1); every other ticket is refused in one line; the board shows its game's numbers."""
    numbers: dict[int, int] = {}
    for n in range(1, 81):
        out = issue_on_keno_1(capsys, server, "--numbers", str(n), "--rate", "1.00")
        numbers[issued_number(out)] = n
    game_of: dict[int, int] = {}
    for number in numbers:
        _, out, _ = keno(capsys, server, "kw", *K1, "--json", "ticket", str(number))
        game, day = re.findall(r"first and last game: (\d+) to \d+ of (\S+)",
                               json.loads(out)["text"])[0]  # fmt: skip
        game_of[number] = int(game)
    end = time.monotonic() + 120
    while (status_of(server, "keno-1").get("board") or {}).get("game", 0) < max(game_of.values()):
        assert time.monotonic() < end, "keno-1 was not drawn in time"
        time.sleep(0.5)
    _, board, _ = run(capsys, "--server", server, "--system", "keno-1", "board")
    status, out, err = keno(capsys, server, "ks", *K1, "--json", "games", "--day", day)
    assert status == 0, err
    drawn = {g["game"]: set(g["numbers"]) for g in json.loads(out)["games"]}
    assert all(len(d) == DRAWN and d <= set(range(1, 81)) for d in drawn.values())
    shown = re.search(r"game (\d+) of \S+: numbers in the order drawn", board)
    assert shown, board
    assert {int(n) for n in re.findall(r"\[\s*(\d+)\]", board)} == drawn[int(shown[1])]
    status, out, err = keno(capsys, server, "ks", *K1, "games", "--day", day)
    assert all(len(line) <= cli.WIDTH for line in out.splitlines())
    for game in set(game_of.values()):
        assert re.search(rf"(?m)^{game:>4}\s", out), out
    winners = [t for t, spot in numbers.items() if spot in drawn[game_of[t]]]
    assert len(winners) == sum(
        len(drawn[g] & {s for t, s in numbers.items() if game_of[t] == g}) for g in drawn
    )
    by_hand = winners[0]
    status, out, err = keno(capsys, server, "ks", *K1, "system-down")
    assert status == 0, err
    status, out, err = keno(capsys, server, "kw", *K1, "manual-pay", "--station", "1",
                            str(by_hand), "3.00")  # fmt: skip
    assert status == 0, err
    assert "paid $3.00" in out
    status, out, err = keno(capsys, server, "ks", *K1, "system-up")
    assert status == 0, err
    assert "discrepancy" not in out
    for number in numbers:
        status, out, err = keno(capsys, server, "kw", *K1, "redeem", "--station", "2", str(number))
        if number in winners and number != by_hand:
            assert status == 0, err
            assert "paid $3.00" in out
        else:
            assert (status, out) == (2, "")
            assert err.count("\n") == 1
    for number in winners[:2]:
        _, out, _ = keno(capsys, server, "sup", *K1, "ticket", str(number))
        assert "paid:      $3.00" in out
    status, out, err = keno(capsys, server, "ks", *K1, "unclaimed")
    assert status == 0, err
    assert "total $0.00" in out


def test_supervisor_procedures_and_roles(capsys: pytest.CaptureFixture[str], server: str) -> None:
    """The keno supervisor's commands on an open game; a writer and a table supervisor may not
    take them (one line, exit 2)."""
    k2 = ("--system", "keno-2")
    for user in ("kw", "sup"):
        status, out, err = keno(capsys, server, user, *k2, "system-down")
        assert (status, out) == (2, "")
        assert "keno_supervisor" in err
    steps = [
        (("override", "hold", "--reason", "board check"), "lock-out override 'hold' by ks"),
        (("override", "release", "--reason", "board fixed"), "override 'release'"),
        (("system-down",), "not operational"),
        (("system-up",), "operational"),
        (("notice",), "will close in one minute"),
    ]
    for argv, said in steps:
        status, out, err = keno(capsys, server, "ks", *k2, *argv)
        assert status == 0, err
        assert said in out
    status, _, err = keno(capsys, server, "ks", *k2, "lock-out")
    assert status == 2
    assert "locks out automatically" in err
    status, out, err = keno(capsys, server, "ks", *k2, "--json", "unclaimed", "--year", "2025")
    assert status == 0, err
    assert json.loads(out)["taken"] is False
    status, out, err = keno(capsys, server, "ks", *k2, "year-end", "2025", "--to", "keno jackpot")
    assert status == 0, err
    status, out, err = keno(capsys, server, "ks", *k2, "unclaimed", "--year", "2025")
    assert status == 0, err
    assert "total $0.00, taken at the year's end" in out


@pytest.mark.parametrize("command", [None, *cli.COMMANDS])
def test_help_fits_80_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str | None
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as done:
        main(["keno", *([command] if command else []), "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "usage: felt keno" in out
    assert all(len(line) <= cli.WIDTH for line in out.splitlines()), out


def test_a_payout_of_1500_or_more_needs_a_supervisors_approval(
    capsys: pytest.CaptureFixture[str], server: str
) -> None:
    """15.6(b): a split ticket of the 80 numbers each played alone at $100 (80/1) catches
    exactly 20, $6,000.00 by the example card; a writer's redeem is refused until a keno
    supervisor approves it, then pays it."""
    groups = " / ".join(map(str, range(1, 81)))
    out = issue_on_keno_1(capsys, server, "--kind", "split", "--groups", groups,
                          "--conditions", "80/1", "--rate", "100")  # fmt: skip
    assert "total price: $8000.00" in out
    number = issued_number(out)
    game = int(re.findall(r"first and last game: (\d+)", out)[0])
    end = time.monotonic() + 60
    while (status_of(server, "keno-1").get("board") or {}).get("game", 0) < game:
        assert time.monotonic() < end, "keno-1 was not drawn in time"
        time.sleep(0.5)
    status, out, err = keno(capsys, server, "kw", *K1, "redeem", "--station", "1", str(number))
    assert (status, out) == (2, "")
    assert "15.6(b)" in err
    status, out, err = keno(capsys, server, "ks", *K1, "approve", str(number))
    assert status == 0, err
    status, out, err = keno(capsys, server, "kw", *K1, "redeem", "--station", "1", str(number),
                            "--method", "casino check")  # fmt: skip
    assert status == 0, err
    assert "paid $6000.00" in out


def test_a_process_that_does_not_run_the_system_names_the_one_that_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Two processes on one PostgreSQL database: the one that does not run the keno system
    answers 421, and the command names the process to use (--server); there it works."""
    for database in postgres_schema_url():
        tables = tmp_path / "tables.toml"
        tables.write_text(KENO_1)
        procs = [ServeProcess(database, tables, tmp_path / f"{n}.log", ADMIN_PASSWORD)
                 for n in "ab"]  # fmt: skip
        try:
            procs[0].start()
            procs[1].start()
            end = time.monotonic() + 30
            while True:
                codes = {p.name: httpx.get(f"http://{p.name}/api/keno/keno-1").status_code
                         for p in procs}  # fmt: skip
                if sorted(codes.values()) == [200, 421]:
                    break
                assert time.monotonic() < end, codes
                time.sleep(0.2)
            owner = next(name for name, code in codes.items() if code == 200)
            other = next(name for name, code in codes.items() if code == 421)
            with httpx.Client(base_url=f"http://{owner}", timeout=30) as http:
                token = http.post("/api/login", json={"name": "admin", "password": ADMIN_PASSWORD})
                made = http.post("/api/accounts", json={"name": "kw", "role": "keno_writer",
                                 "password": PASSWORD},
                                 headers={"Authorization": f"Bearer {token.json()['token']}"})  # fmt: skip
                assert made.status_code == 200, made.text
            issue = ("issue", "--station", "1", "--numbers", "1", "--rate", "1")
            status, out, err = keno(capsys, f"http://{other}", "kw", *issue)
            assert (status, out) == (2, "")
            assert err.count("\n") == 1
            assert f"--server http://{owner}" in err
            issue_on_keno_1(capsys, f"http://{owner}", *issue[3:])
        finally:
            for p in procs:
                p.stop()


def test_the_same_key_given_again_answers_the_first_action(
    capsys: pytest.CaptureFixture[str], server: str
) -> None:
    """--key K repeats an action whose answer was lost without doing it again; the same key for
    another request is refused (409) in one line."""
    argv = ("--system", "keno-2", "issue", "--station", "1", "--numbers", "4 5", "--rate", "1")
    key = ("--key", f"k-{time.time_ns()}")
    status, first, err = keno(capsys, server, "kw", *argv, *key)
    assert status == 0, err
    status, again, err = keno(capsys, server, "kw", *argv, *key)
    assert status == 0, err
    assert issued_number(again) == issued_number(first)
    assert "already been done" in again
    status, out, err = keno(capsys, server, "kw", *argv[:-1], "2", *key)
    assert (status, out) == (2, "")
    assert "was used for another request" in err


def test_the_password_is_asked_for_when_not_in_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No FELT_PASSWORD: the password is typed (getpass, never a flag); with no terminal to
    type it at, one clear error."""
    monkeypatch.delenv("FELT_PASSWORD")
    prompts: list[str] = []

    def typed(prompt: str) -> str:
        prompts.append(prompt)
        return "typed-secret"

    monkeypatch.setattr(getpass, "getpass", typed)
    c = cli._client(parse("--user", "kw", "--server", "http://h:1", "board"))
    assert c.password is not None
    assert c.password() == "typed-secret"
    assert prompts == ["password for kw at http://h:1: "]

    def no_terminal(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr(getpass, "getpass", no_terminal)
    with pytest.raises(FeltError, match="no password: set FELT_PASSWORD or run in a terminal"):
        c.password()


@pytest.mark.parametrize("systems", [["keno-1"], ["keno-1", "keno-2"], []])
def test_issue_20_item_9_board_finds_the_only_keno_system_without_system_or_log_in(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, systems: list[str]
) -> None:
    """``felt keno board`` alone, against a real server: the board of its only keno system;
    with two, one error listing both; with none, one error saying so (the oracle: the systems
    the server was started with)."""
    specs = [keno_spec(name) for name in systems] or fast_specs()[:1]
    with live_server(f"sqlite:///{tmp_path / 'felt.db'}", specs) as h:
        url = str(h.client.base_url).rstrip("/")
        status, out, err = run(capsys, "--server", url, "board")
    if len(systems) == 1:
        assert (status, err) == (0, ""), err
        assert out.startswith("keno keno-1: ")
    elif systems:
        assert (status, out) == (2, "")
        assert err == (f"felt: error: the server at {url} runs 2 keno systems (keno-1, keno-2): "
                       "choose one with --system\n")  # fmt: skip
    else:
        assert (status, out) == (2, "")
        assert err == f"felt: error: the server at {url} runs no keno system\n"
