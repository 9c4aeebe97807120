"""``felt keno``: keno requests from the writer's flags (N.J.A.C. 19:47-15.1 "Conditioning",
15.2(c), 15.7(a)), the HTTP client's sessions and retries, the reports' output, and end-to-end runs
against a real ``felt serve``."""

from __future__ import annotations

import argparse
import json
import re
import stat
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from felt.cli import keno as cli
from felt.cli.main import build_parser, main
from felt.core.errors import FeltError
from felt.games.keno import system as keno_system
from felt.games.keno import tickets
from felt.games.keno.exact import DRAWN, POOL, way_count
from felt.games.keno.ratecard import example_rate_card

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


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["void", "--station", "1", "x12"], "a ticket number such as 12 or 00000012, got 'x12'"),
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


@pytest.mark.parametrize("url", ["127.0.0.1:8000", "ftp://x", "http://", "http://h:99999"])
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


def test_unreachable_server_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real connection refused (nothing listens on the port): one line naming the URL."""
    monkeypatch.setattr(cli, "BACKOFF", (0.0,))
    from tests.server_process import free_port

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
