"""``felt keno``: the keno writer's and supervisor's terminal and the keno reports, as a client of
a running ``felt serve`` over HTTP (the standard library only; every rule lives on the server);
and keno's own options of ``felt analyze`` (a rate card, one ticket).  Both are mounted on the
``felt`` command through :class:`felt.games.keno.game.Keno`.

Requests are written as keno writers write them (``--groups "1 2 3 4 / 5 6 7 8" --conditions
3/4``, N.J.A.C. 19:47-15.1 "Conditioning"); the flags are checked here only for their form, and
the server reads the request against its rate card (19:47-15.7(a)).  Each action carries a fresh
idempotency key and a lost reply is retried with the same key, so it is never done twice.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import hashlib
import json
import os
import re
import secrets
import sys
import textwrap
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.readers import parse_json

DEFAULT_SERVER: Final = "http://127.0.0.1:8000"
"""``felt serve``'s own default address (serve's --host and --port)."""
WIDTH: Final = 80
"""Every line printed fits a terminal of this many columns."""
ATTEMPTS: Final = 4
"""Tries of one request before an unreachable server is reported."""
BACKOFF: Final = (0.25, 0.75, 1.5)
"""Seconds to wait before the second, third and fourth try."""
TIMEOUT: Final = 30.0
"""Seconds to wait for an answer before the try counts as a lost reply."""
RETRY_STATUS: Final = frozenset({502, 503, 504})
"""Answers of a proxy or a server not ready: tried again like a lost reply."""

POOL: Final = 80
"""Keno numbers are 1 to 80 (19:47-15.2(a)); felt.games.keno.exact.POOL, not imported here so
that ``felt`` starts without loading the keno core."""
KINDS: Final = ("straight", "split", "way", "combination", "king")
"""The ticket kinds of 19:47-15.2(c)1-5 (felt.games.keno.tickets.KINDS; a test keeps them equal)."""
GROUPED: Final = KINDS[1:]
"""The kinds written as groups of numbers."""
PAYMENT_METHODS: Final = ("cash", "gaming chips", "casino check")
"""How a winning ticket is paid (19:47-15.6(a); felt.games.keno.system.PAYMENT_METHODS)."""
DISPOSITIONS: Final = ("keno jackpot", "Casino Revenue Fund")
"""Where the year's expired unclaimed winnings go (19:47-15.6(d); system.DISPOSITIONS)."""
OVERRIDES: Final = ("hold", "release", "lock")
"""What a keno supervisor's override of the automatic lock-out does (19:47-15.5(e))."""
_CONDITION: Final = re.compile(r"^\d{1,7}(?:/\d{1,3})?(?:@\$?[0-9][0-9,]*(?:\.[0-9]+)?)?$")
_REQUEST_FLAGS: Final = ("numbers", "quick_pick", "groups", "conditions", "kind", "rate", "games",
                         "price")  # fmt: skip


class ServerError(FeltError):
    """A refusal from the server: its HTTP status and, for 421, the process that runs the
    system."""

    def __init__(self, message: str, status: int, owner: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.owner = owner


class Unreachable(FeltError):
    """Every try of a request went unanswered; ``path`` is the request's."""

    def __init__(self, message: str, path: str) -> None:
        super().__init__(message)
        self.path = path


class _Lost(Exception):
    """No answer: the connection failed or the reply was lost (the request may have been done)."""


# ----------------------------------------------------------------------------- requests from flags


def _whole(text: str, digits: int) -> bool:
    """Whether ``text`` is 1 to ``digits`` ASCII digits (``str.isdigit`` also takes ``²``,
    which ``int`` refuses)."""
    return re.fullmatch(f"[0-9]{{1,{digits}}}", text) is not None


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def parse_numbers(text: str, what: str) -> list[int]:
    """Keno numbers as written, separated by spaces or commas: ``"3 17 22"``."""
    parts = [p for p in re.split(r"[\s,]+", text.strip()) if p]
    if not parts:
        raise FeltError(f"{what} names no numbers; write them as '3 17 22 40' (1 to {POOL})")
    out = []
    for part in parts:
        if not _whole(part, 3) or not 1 <= int(part) <= POOL:
            raise FeltError(f"{what}: {excerpt(part)} is not a keno number: 1 to {POOL} "
                            "(N.J.A.C. 19:47-15.2(a))")  # fmt: skip
        out.append(int(part))
    return out


def parse_groups(text: str) -> list[list[int]]:
    """Groups of numbers separated by slashes: ``"1 2 3 4 / 5 6 7 8"``."""
    pieces = text.split("/")
    if len(pieces) < 2:
        raise FeltError("--groups needs at least two groups separated by '/', e.g. "
                        "'1 2 3 4 / 5 6 7 8 / 9 10 11 12'")  # fmt: skip
    groups = []
    for i, piece in enumerate(pieces, 1):
        if not piece.strip():
            raise FeltError(f"--groups: group {i} is empty; write the groups as "
                            "'1 2 3 4 / 5 6 7 8 / 9 10 11 12'")  # fmt: skip
        groups.append(parse_numbers(piece, f"--groups (group {i})"))
    return groups


def parse_conditions(text: str) -> list[str]:
    """The conditioning as written: fractions ``ways/spots``, each optionally ``@rate``."""
    parts = text.split()
    if not parts:
        raise FeltError("--conditions names no condition; write fractions ways/spots such as "
                        "'3/8' or '3/3 3/6 1/9'")  # fmt: skip
    for part in parts:
        if not _CONDITION.match(part):
            raise FeltError(f"--conditions: {excerpt(part)} is not a fraction ways/spots such as "
                            "3/8, optionally with its rate per way, 3/8@1.00")  # fmt: skip
    return parts


def _amount(value: str, what: str) -> str:
    """A dollar amount checked and written as the API writes money (``"1.00"``)."""
    amount = cents(value, what)
    if amount <= 0:
        raise FeltError(f"{what} must be more than 0.00 dollars, got {excerpt(value)}")
    return dollars(amount)


def build_request(
    *,
    numbers: str | None = None,
    quick_pick: int | None = None,
    groups: str | None = None,
    conditions: str | None = None,
    kind: str | None = None,
    rate: str | None = None,
    games: int | None = None,
    price: str | None = None,
    request: str | None = None,
) -> dict[str, Any]:
    """The keno request (as ``tickets.read_request`` reads it) that the issue flags write.

    >>> build_request(numbers="3 17 22", rate="1")
    {'kind': 'straight', 'numbers': [3, 17, 22], 'rate': '1.00'}
    >>> build_request(groups="1 2 / 3 4 / 5 6", conditions="3/4", kind="way", rate="1.00")
    {'kind': 'way', 'groups': [[1, 2], [3, 4], [5, 6]], 'conditions': ['3/4'], 'rate': '1.00'}
    """
    given = {k: v for k, v in locals().items() if v is not None and k != "request"}
    if request is not None:
        if given:
            extra = ", ".join(_flag(k) for k in given)
            raise FeltError(
                f"--request is the whole request as JSON: give it alone, not with {extra}"
            )
        data = parse_json(request, "--request", "numbers 1 to 80 and counts")
        if not isinstance(data, dict):
            raise FeltError('--request must be a JSON object such as {"numbers": [3, 17], '
                            f'"rate": "1.00"}}, got {excerpt(data)}')  # fmt: skip
        return data
    ways = [x for x in (numbers, quick_pick, groups) if x is not None]
    if len(ways) != 1:
        raise FeltError("mark the ticket one way: --numbers (straight), --quick-pick SPOTS, "
                        "--groups with --kind and --conditions, or --request JSON")  # fmt: skip
    out: dict[str, Any] = {}
    if groups is not None:
        if kind not in GROUPED:
            raise FeltError(f"--groups needs --kind {', '.join(GROUPED[:-1])} or {GROUPED[-1]} "
                            "(a straight ticket is written with --numbers)")  # fmt: skip
        if conditions is None:
            raise FeltError("--groups needs --conditions, the fractions ways/spots as written, "
                            "e.g. '3/8' or '3/3 3/6 1/9'")  # fmt: skip
        out = {
            "kind": kind,
            "groups": parse_groups(groups),
            "conditions": parse_conditions(conditions),
        }
    else:
        if kind not in (None, "straight"):
            raise FeltError(f"a {kind} ticket is written with --groups (and --conditions); "
                            "--numbers and --quick-pick make a straight ticket")  # fmt: skip
        if conditions is not None:
            raise FeltError("--conditions goes with --groups; a straight ticket is conditioned by "
                            "its number of spots")  # fmt: skip
        if numbers is not None:
            out = {"kind": "straight", "numbers": parse_numbers(numbers, "--numbers")}
        else:
            assert quick_pick is not None
            if not 1 <= quick_pick <= POOL:
                raise FeltError(
                    f"--quick-pick is the number of spots, 1 to {POOL}, got {quick_pick}"
                )
            out = {"quick_pick": quick_pick}
    if rate is not None:
        out["rate"] = _amount(rate, "--rate")
    elif not all("@" in c for c in out.get("conditions", [""])):
        raise FeltError("--rate is needed: the wager per way in dollars, e.g. --rate 1.00 (or "
                        "each condition's own, --conditions 3/8@1.00)")  # fmt: skip
    if games is not None:
        if games < 1:
            raise FeltError(f"--games must be 1 or more (a multi-race ticket), got {games}")
        out["games"] = games
    if price is not None:
        out["price"] = _amount(price, "--price")
    return out


def request_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The keno request of ``felt keno issue``'s flags."""
    return build_request(request=args.request, **{k: getattr(args, k) for k in _REQUEST_FLAGS})


def ticket_number(text: str) -> int:
    """A ticket number as printed (``00000012``) or plain (``12``)."""
    if not _whole(text, 12) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a ticket number such as 12 or 00000012, got {text!r}")
    return int(text)


def _day(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"a date YYYY-MM-DD, got {text!r}") from None


def _positive(text: str) -> int:
    if not _whole(text, 7) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number 1 or more, got {text!r}")
    return int(text)


def _year(text: str) -> int:
    if not _whole(text, 4) or not 1900 <= int(text) <= 9999:
        raise argparse.ArgumentTypeError(f"a year such as 2026, got {text!r}")
    return int(text)


def action_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The action a writer's or supervisor's command sends (the server fills the time, the staff
    member and any quick-pick numbers)."""
    cmd = args.keno_command
    if cmd == "issue":
        return {"action": "issue", "station": args.station, "request": request_from_args(args)}
    if cmd == "void":
        return {"action": "void", "station": args.station, "ticket": args.ticket}
    if cmd == "redeem":
        return {"action": "redeem", "station": args.station, "ticket": args.ticket,
                "method": args.method, "manual_entry": args.manual_entry}  # fmt: skip
    if cmd == "approve":
        return {"action": "approve", "ticket": args.ticket}
    if cmd == "notice":
        return {"action": "closing_notice"}
    if cmd == "lock-out":
        approver = {} if args.approved_by is None else {"approved_by": args.approved_by}
        return {"action": "lock_out"} | approver
    if cmd == "override":
        return {"action": "override", "what": args.what, "reason": _reason(args.reason)}
    if cmd == "cancel-races":
        return {"action": "cancel_races", "ticket": args.ticket, "reason": _reason(args.reason)}
    if cmd in ("system-down", "system-up"):
        return {"action": cmd.replace("-", "_")}
    if cmd == "manual-pay":
        return {"action": "manual_pay", "station": args.station, "ticket": args.ticket,
                "amount": _amount(args.amount, "AMOUNT")}  # fmt: skip
    if cmd == "year-end":
        return {"action": "year_end", "year": args.year, "to": args.to}
    raise AssertionError(cmd)  # pragma: no cover


def _reason(text: str) -> str:
    if not text.strip():
        raise FeltError("--reason must say why (it is recorded with the action)")
    return text.strip()


# ----------------------------------------------------------------------------- the HTTP client


def data_dir() -> Path:
    """felt's data directory (``$XDG_DATA_HOME/felt`` or ``~/.local/share/felt``), as the
    server's default database uses."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "felt"


def check_server(url: str) -> str:
    """The server's base URL, checked: ``http(s)://HOST[:PORT]`` with no trailing slash."""
    text = url.strip()
    wrong = FeltError(f"--server must be a URL such as {DEFAULT_SERVER}, got {excerpt(url)}")
    try:
        parts = urllib.parse.urlsplit(text)
        parts.port  # noqa: B018 -- a bad port or address raises here
    except ValueError:
        raise wrong from None
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or not text.isascii()
        or any(c.isspace() or not c.isprintable() for c in text)
    ):
        raise wrong
    return text.rstrip("/")


if TYPE_CHECKING:  # the networking modules load only when a request is sent (felt starts light)
    import urllib.request

    from felt.games.base import Game, Sheet
    from felt.games.keno.ratecard import RateCard

    Sender = Callable[[urllib.request.Request, float], tuple[int, bytes]]
"""Send one request; the status and body of the answer (an HTTP error status too)."""


def send_urllib(request: urllib.request.Request, timeout: float) -> tuple[int, bytes]:
    """Send ``request`` with urllib; a failed connection or a lost reply is :class:`_Lost`."""
    import http.client
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return int(reply.status), reply.read()
    except urllib.error.HTTPError as err:
        with err:
            return err.code, err.read()
    except urllib.error.URLError as err:
        reason = err.reason
        raise _Lost(reason.strerror if isinstance(reason, OSError) and reason.strerror
                    else str(reason)) from err  # fmt: skip
    except (OSError, http.client.HTTPException) as err:  # reset, timed out, closed mid-reply
        raise _Lost(str(err) or type(err).__name__) from err
    except ValueError as err:  # a URL http.client cannot send
        raise FeltError(f"cannot send to {request.full_url}: {err}") from None


@dataclass
class Client:
    """A keno client of one server as one account: logs in when needed, keeps the session token
    in a 0600 file keyed by server and account, and retries lost replies."""

    server: str
    user: str | None
    password: Callable[[], str] | None = None
    sessions: Path | None = None
    send: Sender = send_urllib
    sleep: Callable[[float], None] = time.sleep
    timeout: float = TIMEOUT
    token: str | None = field(default=None, init=False)

    # -- sessions

    def _session_file(self) -> Path:
        assert self.user is not None
        name = hashlib.sha256(f"{self.server}\0{self.user}".encode()).hexdigest()[:32]
        return (self.sessions or data_dir() / "sessions") / f"{name}.json"

    def _stored_token(self) -> str | None:
        try:
            data = parse_json(self._session_file().read_text(encoding="utf-8"), "session file")
        except (OSError, ValueError, FeltError):
            return None
        ok = isinstance(data, dict) and data.get("server") == self.server
        ok = ok and data.get("user") == self.user and isinstance(data.get("token"), str)
        return str(data["token"]) if ok else None

    def _store_token(self, token: str) -> None:
        path = self._session_file()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                os.fchmod(out.fileno(), 0o600)
                json.dump({"server": self.server, "user": self.user, "token": token}, out)
        except OSError as err:
            print(f"felt: note: session not kept ({path}: {err.strerror})", file=sys.stderr)

    def _forget_token(self) -> None:
        with contextlib.suppress(OSError):  # a file that cannot be removed is overwritten next
            self._session_file().unlink(missing_ok=True)

    def log_in(self) -> str:
        """A new session (POST /api/login), kept for the next command."""
        if self.user is None:
            raise FeltError("this needs an account: give --user NAME or set FELT_USER")
        if self.password is None:
            raise FeltError("no password: set FELT_PASSWORD")
        answer = self._retrying("POST", "/api/login",
                                {"name": self.user, "password": self.password()}, None)  # fmt: skip
        token = answer.get("token") if isinstance(answer, dict) else None
        if not isinstance(token, str):
            raise FeltError(f"the server at {self.server} answered the login without a token")
        self.token = token
        self._store_token(token)
        return token

    # -- requests

    def call(
        self, method: str, path: str, body: Any = None, *, public: bool = False
    ) -> dict[str, Any]:
        """Send a request (as the account unless ``public``) and return its JSON answer; an
        ended session (401) logs in again once and sends the same request again."""
        if public:
            return self._retrying(method, path, body, None)
        if self.user is None:
            raise FeltError("this needs an account: give --user NAME or set FELT_USER")
        token = self.token or self._stored_token() or self.log_in()
        try:
            return self._retrying(method, path, body, token)
        except ServerError as err:
            if err.status != 401:
                raise
        self._forget_token()
        return self._retrying(method, path, body, self.log_in())

    def _retrying(self, method: str, path: str, body: Any, token: str | None) -> dict[str, Any]:
        import urllib.request

        url = self.server + path
        data = None if body is None else json.dumps(body).encode()
        headers = {"Accept": "application/json"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        last = ""
        for attempt in range(ATTEMPTS):
            if attempt:
                self.sleep(BACKOFF[min(attempt - 1, len(BACKOFF) - 1)])
            request = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                status, raw = self.send(request, self.timeout)
            except _Lost as err:
                last = str(err)
                continue
            if status in RETRY_STATUS:
                last = f"HTTP {status}"
                continue
            return self._answer(status, raw, url)
        raise Unreachable(f"cannot reach the felt server at {self.server} ({last}; tried "
                          f"{ATTEMPTS} times): is 'felt serve' running there?", path)  # fmt: skip

    def _answer(self, status: int, raw: bytes, url: str) -> dict[str, Any]:
        try:
            answer = parse_json(raw, "the server's answer") if raw else None
        except FeltError:
            answer = None
        if 200 <= status < 300:
            if not isinstance(answer, dict):
                raise FeltError(f"the server at {self.server} did not answer with a JSON object "
                                f"({url}): is it a felt server?")  # fmt: skip
            return answer
        error = answer.get("error") if isinstance(answer, dict) else None
        text = one_line(
            str(error) if error else raw.decode("utf-8", "replace")[:200] or "no reason"
        )
        owner = answer.get("owner") if isinstance(answer, dict) else None
        if status == 421 and isinstance(owner, str) and owner:
            server = owner if "://" in owner else f"http://{owner}"
            raise ServerError(f"{text} (the process at {owner} runs it: --server {server})", 421,
                              owner)  # fmt: skip
        if status == 401 and not error:
            text = "not logged in"
        raise ServerError(text if status < 500 else f"server error {status}: {text}", status)

    def act(self, system: str, action: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        """Send an action with an idempotency key (fresh unless given); a lost reply is tried
        again with the same key, so the action is done at most once."""
        key = key or secrets.token_hex(16)
        path = f"{system_path(system)}/actions"
        try:
            return self.call("POST", path, {"action": action, "key": key})
        except (Unreachable, ServerError) as err:
            if isinstance(err, Unreachable) and err.path != path:
                raise  # the login went unanswered: the action was never sent
            if isinstance(err, ServerError) and err.status < 500:
                raise  # refused: nothing was done
            # unanswered, or a server error around a commit whose outcome it did not hear of
            raise FeltError(
                f"{err}; the action may or may not have been done: repeat the same "
                f"command with --key {key} to find out without doing it twice"
            ) from None


def system_path(system: str) -> str:
    """The API path of a keno system."""
    return "/api/keno/" + urllib.parse.quote(system, safe="")


def one_line(text: str) -> str:
    """Text as a single line (a server's message may hold line breaks)."""
    return " ".join(text.split())


# ----------------------------------------------------------------------------- output


def _fit(text: str, indent: str = "") -> list[str]:
    """``text`` wrapped to :data:`WIDTH` columns, later lines indented."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [""]


def _money(value: object) -> str:
    return f"${value}" if isinstance(value, str) and value[:1] != "$" else str(value)


def _clock(value: object) -> str:
    """An ISO time as ``HH:MM:SS`` (the day is shown once per report)."""
    if not isinstance(value, str):
        return "-"
    try:
        return datetime.fromisoformat(value).strftime("%H:%M:%S")
    except ValueError:
        return value[:19]


def _when(value: object) -> str:
    if not isinstance(value, str):
        return "-"
    try:
        return datetime.fromisoformat(value).isoformat(sep=" ", timespec="seconds")
    except ValueError:
        return value


def board_grid(numbers: Sequence[int]) -> list[str]:
    """The keno board: 1 to 80 in eight rows of ten, the numbers drawn in brackets, the top
    (1-40) and bottom (41-80) halves apart as on a keno board (19:47-15.5(g))."""
    drawn = set(numbers)
    rows = []
    for top in range(1, POOL + 1, 10):
        if top == 41:
            rows.append("")
        rows.append(
            "".join(
                f"[{n:2d}]" if n in drawn else f" {n:2d} " for n in range(top, top + 10)
            ).rstrip()
        )
    return rows


def _remaining(status: Mapping[str, Any]) -> float | None:
    """Seconds until the open game closes: the server's count, else from its closing time."""
    remaining = status.get("remaining_seconds")
    if isinstance(remaining, int | float) and not isinstance(remaining, bool):
        return float(remaining)
    closes = status.get("closes_at")
    if not isinstance(closes, str):
        return None
    try:
        end = datetime.fromisoformat(closes)
    except ValueError:
        return None
    if end.tzinfo is None:
        end = end.replace(tzinfo=UTC)
    return (end - datetime.now(UTC)).total_seconds()


def format_board(status: Mapping[str, Any]) -> str:
    """The public status of a keno system: the game, its state and countdown, and the last game
    drawn with its 20 numbers as a keno board (19:47-15.5(c), (g))."""
    system, game, state, day = (
        status.get("system"),
        status.get("game"),
        status.get("state"),
        status.get("day"),
    )
    lines = []
    if state is None or day is None:
        lines.append(f"keno {system}: no game open")
    else:
        line = f"keno {system}: game {game} of {day}"
        if state == "open":
            remaining = _remaining(status)
            if remaining is not None:
                whole = max(0, int(remaining))
                line += f", open: closes in {whole // 60}:{whole % 60:02d}"
            else:
                line += ", open: closes on the writer's closing notice"
        elif state == "locked":
            line += ", locked out: numbers being drawn"
        else:
            line += ", drawn: the next game opens shortly"
        lines.append(line)
    if status.get("held"):
        lines.append("held by a keno supervisor's override (N.J.A.C. 19:47-15.5(e))")
    if status.get("down"):
        lines.append("KENO SYSTEM DOWN: winners are paid by hand (N.J.A.C. 19:47-15.7(c))")
    board = status.get("board")
    if isinstance(board, Mapping) and board.get("numbers"):
        numbers = [n for n in board["numbers"] if isinstance(n, int)]
        lines += ["", f"game {board.get('game')} of {board.get('day')}: numbers in the order drawn"]
        lines += _fit(" ".join(map(str, numbers)), "")
        lines += ["", *board_grid(numbers)]
    else:
        lines += ["", "no game drawn yet"]
    return "\n".join(lines)


def format_games(report: Mapping[str, Any]) -> str:
    """Every game of a day with its numbers (19:47-15.5(b), (h))."""
    games = report.get("games") or []
    lines = [f"keno games of {report.get('day')}: {len(games)}", "game  started   numbers"]
    shared = False
    for g in games:
        numbers = g.get("numbers") or []
        mark = "*" if g.get("shared") else " "
        shared = shared or mark == "*"
        text = " ".join(f"{n:2d}" for n in numbers) if numbers else "(not drawn)"
        lines += _fit(
            f"{g.get('game', '?'):>4}{mark} {_clock(g.get('started_at')):<8}  {text}", " " * 16
        )
    if shared:
        lines.append("* winners of the game shared the aggregate limit (N.J.A.C. 19:47-15.3(c))")
    return "\n".join(lines)


_SUMMARY_KEYS: Final = ("number", "ticket", "issued_at", "voided_at", "at", "station", "writer",
                        "kind", "conditioning", "games", "price", "won", "owed", "amount", "expires",
                        "expired")  # fmt: skip


def ticket_summary(summary: Any) -> str:
    """One ticket of a report on one (wrapped) line: its number first, then what the server
    says of it."""
    if not isinstance(summary, Mapping):
        return str(summary)
    number = summary.get("number", summary.get("ticket"))
    parts = [f"{number:08d}" if isinstance(number, int) else str(number)]
    first, last = summary.get("first_game"), summary.get("last_game")
    if first is not None:
        parts.append(f"game {first}" if last in (None, first) else f"games {first} to {last}")
    rest = sorted(set(summary) - set(_SUMMARY_KEYS) - {"first_game", "last_game"})
    for key in (*_SUMMARY_KEYS[2:], *rest):
        value = summary.get(key)
        if value is None or value == {} or value == []:
            continue
        if key in ("price", "owed", "amount", "won") and isinstance(value, str):
            value = _money(value)
        elif key.endswith("_at") or key in ("at", "expires", "expired"):
            value = _when(value)
        elif isinstance(value, Mapping | list):
            value = json.dumps(value, separators=(",", ":"))
        parts.append(f"{key.replace('_', ' ')} {value}")
    return "  ".join(parts)


def format_voids(report: Mapping[str, Any]) -> str:
    """Voided tickets per keno work station (19:47-15.4(e))."""
    stations = report.get("stations") or {}
    total = sum(len(v) for v in stations.values())
    lines = [f"voided keno tickets of {report.get('day')}: {total} (N.J.A.C. 19:47-15.4(e))"]
    for station in sorted(stations, key=lambda s: (len(str(s)), str(s))):
        tickets = stations[station]
        lines.append(f"work station {station}: {len(tickets)}")
        for t in tickets:
            lines += _fit("  " + ticket_summary(t), "      ")
    return "\n".join(lines)


def format_unclaimed(report: Mapping[str, Any]) -> str:
    """Expired unclaimed winning tickets of a year and their total (19:47-15.6(d))."""
    tickets = report.get("tickets") or []
    lines = [f"expired unclaimed winning keno tickets of {report.get('year')}: {len(tickets)} "
             "(N.J.A.C. 19:47-15.6(d))"]  # fmt: skip
    for t in tickets:
        lines += _fit("  " + ticket_summary(t), "      ")
    taken = "taken at the year's end" if report.get("taken") else "not yet taken (year-end)"
    lines.append(f"total {_money(report.get('total'))}, {taken}")
    return "\n".join(lines)


def format_ticket(record: Mapping[str, Any]) -> str:
    """A ticket as printed, then its standing: voided, won, owed, paid, expiry."""
    lines = [line for text in str(record.get("text", "")).splitlines() for line in _fit(text, "  ")]
    lines.append("")
    if record.get("voided"):
        lines.append(f"standing:  VOIDED at work station {record.get('void_station')}")
    elif record.get("cancelled"):
        lines.append("standing:  remaining races cancelled")
    else:
        lines.append("standing:  valid")
    won = record.get("won") or {}
    if isinstance(won, Mapping) and won:
        text = ", ".join(f"game {g} {_money(v)}" for g, v in won.items())
        lines += _fit(f"won:       {text}", " " * 11)
    elif not record.get("voided"):
        lines.append("won:       nothing yet")
    if record.get("owed") is not None:
        lines.append(f"owed:      {_money(record.get('owed'))}")
    if record.get("paid") is not None:
        lines.append(f"paid:      {_money(record.get('paid'))} at {_when(record.get('paid_at'))}")
    if record.get("expires") is not None:
        lines.append(f"expires:   {_when(record.get('expires'))}")
    return "\n".join(lines)


def format_action(answer: Mapping[str, Any]) -> str:
    """What an action did: the issued ticket as printed, the amount paid, and each effect."""
    lines = []
    ticket = answer.get("ticket")
    if isinstance(ticket, Mapping) and ticket.get("text"):
        lines += [line for t in str(ticket["text"]).splitlines() for line in _fit(t, "  ")]
    else:
        for effect in answer.get("effects") or []:
            if not isinstance(effect, Mapping):
                continue
            head = str(effect.get("kind", ""))
            if isinstance(effect.get("ticket"), int):
                head += f" ticket {effect['ticket']:08d}"
            amount = effect.get("amount")
            if amount not in (None, "0.00", 0):
                head += f" {_money(amount)}"
            detail = effect.get("detail")
            lines += _fit(f"{head}: {detail}" if detail else head, "    ")
        if answer.get("paid") is not None:
            lines.append(f"paid {_money(answer['paid'])}")
        if not lines:
            lines.append(f"{answer.get('action', 'action')} done")
    if answer.get("replayed"):
        lines.append("(this action had already been done: its first answer is shown)")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- commands


def _client(args: argparse.Namespace) -> Client:
    server = check_server(args.server or os.environ.get("FELT_SERVER") or DEFAULT_SERVER)
    user = args.user or os.environ.get("FELT_USER") or None

    def password() -> str:
        env = os.environ.get("FELT_PASSWORD")
        if env is not None:
            return env
        try:
            return getpass.getpass(f"password for {user} at {server}: ")
        except EOFError:
            raise FeltError("no password: set FELT_PASSWORD or run in a terminal") from None

    return Client(server, user, password)


def _system(client: Client, args: argparse.Namespace) -> str:
    """--system, else the only keno system the server runs (from its public list of keno
    boards, so no log-in is needed: ``felt keno board`` alone shows the board)."""
    if args.system:
        return str(args.system)
    systems = client.call("GET", "/api/keno-boards", public=True).get("systems")
    ids = [s for s in systems or [] if isinstance(s, str)]
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise FeltError(f"the server at {client.server} runs no keno system")
    raise FeltError(f"the server at {client.server} runs {len(ids)} keno systems "
                    f"({', '.join(ids)}): choose one with --system")  # fmt: skip


def _print(answer: Any, args: argparse.Namespace, text: Callable[[Any], str]) -> int:
    print(json.dumps(answer) if args.json else text(answer))
    return 0


def _query(path: str, params: Mapping[str, object]) -> str:
    given = {k: v for k, v in params.items() if v is not None}
    return path + ("?" + urllib.parse.urlencode(given) if given else "")


def run(args: argparse.Namespace) -> int:
    """Run one ``felt keno`` command."""
    cmd = args.keno_command
    client = _client(args)
    if cmd == "board":
        system = _system(client, args)
        return _print(client.call("GET", system_path(system), public=True), args, format_board)
    if cmd in REPORTS:
        system = _system(client, args)
        path, params, text = REPORTS[cmd](args)
        return _print(client.call("GET", _query(system_path(system) + path, params)), args, text)
    action = action_from_args(args)  # flags checked before any connection
    system = _system(client, args)
    return _print(client.act(system, action, args.key), args, format_action)


COMMANDS: Final = ("issue", "void", "redeem", "board", "approve", "notice", "lock-out", "override",
                   "cancel-races", "system-down", "system-up", "manual-pay", "year-end", "games",
                   "voids", "unclaimed", "ticket")  # fmt: skip
"""The ``felt keno`` commands: the writer's, the supervisor's and the reports."""
Report = Callable[[argparse.Namespace], tuple[str, dict[str, object], Callable[[Any], str]]]
REPORTS: Final[dict[str, Report]] = {
    "games": lambda a: ("/games", {"day": a.day}, format_games),
    "voids": lambda a: ("/voids", {"day": a.day, "station": a.station}, format_voids),
    "unclaimed": lambda a: ("/unclaimed", {"year": a.year}, format_unclaimed),
    "ticket": lambda a: (f"/tickets/{a.number}", {}, format_ticket),
}


# ----------------------------------------------------------------------------- the parser


def _common(parser: argparse.ArgumentParser, default: Any) -> None:
    """The connection options, accepted before or after the command (``default`` SUPPRESS after
    it, so an option given before is not overwritten)."""
    parser.add_argument("--server", default=default,
                        help=f"the felt server's URL (default: $FELT_SERVER, else {DEFAULT_SERVER})")  # fmt: skip
    parser.add_argument("--user", default=default,
                        help="your keno account (default: $FELT_USER); the password is read from "
                        "$FELT_PASSWORD or asked for")  # fmt: skip
    parser.add_argument(
        "--system",
        default=default,
        help="the keno system's id (default: the only one the server runs)",
    )
    parser.add_argument("--json", action="store_true", default=default,
                        help="print the server's JSON answer (default: off)")  # fmt: skip


def add_parser(sub: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """Register ``felt keno`` and its commands on the ``felt`` subcommands ``sub``."""
    p = sub.add_parser(
        "keno",
        help="the keno writer's terminal and keno reports, on a running 'felt serve'",
        formatter_class=formatter,
        description="Issue, void and redeem keno tickets, run the supervisor's procedures and\n"
        "print the keno reports, on a running 'felt serve' (N.J.A.C. 19:47-15).\n"
        "Log in with --user (or FELT_USER) and the password in FELT_PASSWORD (or typed);\n"
        "the session is kept in the user's data directory until it ends.\n\n"
        "examples:\n"
        '  felt keno --user kw1 issue --station 1 --numbers "3 17 22 40 61 75" --rate 1\n'
        "  felt keno --user kw1 issue --station 1 --quick-pick 6 --rate 1.00 --games 5\n"
        "  felt keno --user kw1 issue --station 1 --kind way --conditions 3/8 --rate 1\n"
        '      --groups "1 2 3 4 / 5 6 7 8 / 9 10 11 12"\n'
        "  felt keno board   (the only keno system's board; no log-in)\n"
        "  felt keno --user kw1 redeem --station 1 00000012 --method 'gaming chips'\n"
        "  felt keno --user ks1 year-end 2026 --to 'keno jackpot'",
    )
    _common(p, None)
    p.set_defaults(json=False)
    cmds = p.add_subparsers(dest="keno_command", required=True, parser_class=type(p),
                            metavar="COMMAND", help="what to do (each has --help)")  # fmt: skip

    def command(name: str, help: str, action: bool = False) -> argparse.ArgumentParser:
        assert name in COMMANDS, name
        c: argparse.ArgumentParser = cmds.add_parser(name, help=help, description=help,
                                                     formatter_class=formatter)  # fmt: skip
        _common(c, argparse.SUPPRESS)
        if action:
            c.add_argument("--key", type=_key,
                           help="the idempotency key: repeat an action whose answer was lost "
                           "without doing it twice (default: a fresh key)")  # fmt: skip
        else:
            c.set_defaults(key=None)
        return c

    def station(c: argparse.ArgumentParser) -> None:
        c.add_argument("--station", type=_positive, required=True,
                       help="the keno work station (required)")  # fmt: skip

    def ticket(c: argparse.ArgumentParser) -> None:
        c.add_argument("ticket", type=ticket_number, metavar="TICKET",
                       help="the ticket number, e.g. 12 or 00000012")  # fmt: skip

    c = command("issue", "issue a keno ticket from a keno request (15.4)", action=True)
    station(c)
    how = c.add_argument_group("the request (one of --numbers, --quick-pick, --groups, --request)")
    how.add_argument("--numbers", help='a straight ticket\'s numbers, e.g. "3 17 22 40 61 75"')
    how.add_argument("--quick-pick", type=_positive, metavar="SPOTS",
                     help="a straight ticket of SPOTS numbers the system selects")  # fmt: skip
    how.add_argument("--groups", help='groups of numbers separated by /, e.g. "1 2 3 / 4 5 6"')
    how.add_argument("--kind", choices=KINDS,
                     help="the ticket type; with --groups: split, way, combination or king")  # fmt: skip
    how.add_argument("--conditions", help='the conditioning as written, e.g. "3/8" or '
                     '"3/3 3/6 1/9"; a condition may carry its own rate, "3/8@1.00"')  # fmt: skip
    how.add_argument("--rate", help="the wager per way per game in dollars, e.g. 1.00")
    how.add_argument("--games", type=int, help="games played, more than 1 for a multi-race "
                     "ticket (default: 1)")  # fmt: skip
    how.add_argument("--price", help="the total price you expect; refused if the rate card "
                     "prices it otherwise (default: not checked)")  # fmt: skip
    how.add_argument("--request", metavar="JSON", help="the whole keno request as JSON, e.g. "
                     '\'{"numbers": [3, 17], "rate": "1.00"}\'')  # fmt: skip

    c = command("void", "void a ticket before its game starts (15.4(d)-(e))", action=True)
    station(c)
    ticket(c)
    c = command("redeem", "pay a winning ticket (15.6(a)-(b), 15.7(b))", action=True)
    station(c)
    ticket(c)
    c.add_argument("--method", choices=PAYMENT_METHODS, default="cash", help="how it is paid")
    c.add_argument("--manual-entry", action="store_true",
                   help="the ticket was not read by the system and is entered by hand (15.7(b))")  # fmt: skip

    c = command("board", "the keno board: game, state, countdown, last numbers (15.5(g))")
    c = command("approve", "authorise a writer's payout of $1,500 or more (15.6(b))", action=True)
    ticket(c)
    command("notice", "announce that the game closes in a minute (15.5(c))", action=True)
    c = command("lock-out", "start the game: lock out every station (15.5(d))", action=True)
    c.add_argument("--approved-by", metavar="NAME",
                   help="a keno writer names the keno supervisor who approved the lock-out "
                   "(15.5(d); recorded with it)")  # fmt: skip
    c = command("override", "override the automatic lock-out (15.5(e))", action=True)
    c.add_argument("what", choices=OVERRIDES, help="hold, release or lock the game")
    c.add_argument("--reason", required=True, help="why (recorded; required)")
    c = command("cancel-races", "cancel a multi-race ticket's remaining games", action=True)
    ticket(c)
    c.add_argument("--reason", required=True, help="why (recorded; required)")
    command("system-down", "the keno computer system is not operational (15.7(c))", action=True)
    command("system-up", "the system is operational again", action=True)
    c = command("manual-pay", "pay a winner by hand while the system is down (15.7(c))",
                action=True)  # fmt: skip
    station(c)
    ticket(c)
    c.add_argument("amount", metavar="AMOUNT", help="dollars paid, e.g. 8.00")
    c = command("year-end", "the year's expired unclaimed winnings (15.6(d))", action=True)
    c.add_argument("year", type=_year, metavar="YEAR", help="the year, e.g. 2026")
    c.add_argument("--to", choices=DISPOSITIONS, required=True,
                   help="where the total goes (required)")  # fmt: skip

    c = command("games", "every game of a day with its numbers (15.5(b), (h))")
    c.add_argument("--day", type=_day, help="YYYY-MM-DD (default: the current gaming day)")
    c = command("voids", "voided tickets per work station (15.4(e))")
    c.add_argument("--day", type=_day, help="YYYY-MM-DD (default: the current gaming day)")
    c.add_argument("--station", type=_positive, help="one work station (default: all)")
    c = command("unclaimed", "expired unclaimed winnings and the yearly total (15.6(d))")
    c.add_argument(
        "--year",
        type=_year,
        help="the year (default: the server's choice, the year before this one)",
    )
    c = command("ticket", "a ticket's record and standing")
    c.add_argument("number", type=ticket_number, metavar="TICKET",
                   help="the ticket number, e.g. 12 or 00000012")  # fmt: skip
    p.set_defaults(run=run)


def _key(text: str) -> str:
    if not 1 <= len(text) <= 128 or not text.isprintable():
        raise argparse.ArgumentTypeError("a key of 1 to 128 printable characters")
    return text


# ----------------------------------------------------------------------------- felt analyze keno

TICKET_SPEC: Final = (
    "KIND: GROUPS: CONDITIONS as the writer writes them, e.g. "
    "'way: 1 2 3 4 / 5 6 7 8 / 9 10 11 12: 3/8', 'king: 1/2/3/4/5/6/7/8/9: 9/8', "
    "'straight: 3 17 22 40'"
)


def add_analyze_options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """``felt analyze keno``'s own options, ``--rate-card`` and ``--ticket``, and its examples."""
    added = [
        parser.add_argument(
            "--rate-card",
            help="keno rate card (TOML) (default: felt's example rate card)",
        ),
        parser.add_argument(
            "--ticket",
            metavar="SPEC",
            help=f"keno: analyse one ticket at the minimum wager, {TICKET_SPEC} (default: the card)",
        ),
    ]
    parser.epilog = "\n".join(
        filter(None, (parser.epilog, "for keno, every ticket a rate card offers, with the 30% "
                      "house advantage check.\n\nkeno examples:\n"
                      "  felt analyze keno --rate-card card.toml --json\n"
                      "  felt analyze keno --ticket 'king: 1/2/3/4/5/6/7/8/9: 9/8'"))
    )  # fmt: skip
    return added


def analyze_command(game: Game, args: argparse.Namespace) -> Sheet | None:
    """``felt analyze keno``: the exact analysis of a rate card (every ticket it offers), or of
    one ticket (printed here, so None)."""
    from felt.games.keno.ratecard import example_rate_card, load_rate_card

    for option, value in (("--edition", args.edition), ("--table", args.table),
                          ("--ante", args.ante), ("--plot", args.plot)):  # fmt: skip
        if value is not None:
            raise FeltError(f"{option} does not apply to keno (a rate card sets every wager)")
    card = load_rate_card(args.rate_card) if args.rate_card else example_rate_card()
    if args.ticket is not None:
        _analyze_ticket(card, args)
        return None
    sheet: Sheet = game.analyze("keno", card, None)
    return sheet


def keno_ticket_request(spec: str, rate: str) -> dict[str, Any]:
    """The keno request ``--ticket SPEC`` names (``KIND: GROUPS: CONDITIONS``, the groups and
    the conditioning as ``felt keno issue`` takes them), at ``rate`` per way."""
    parts = [p.strip() for p in spec.split(":")]
    kind = parts[0]
    if kind == "straight" and len(parts) == 2:
        return build_request(numbers=parts[1], rate=rate)
    if len(parts) != 3 or not kind:
        raise FeltError(f"--ticket {spec!r} is not {TICKET_SPEC}")
    return build_request(kind=kind, groups=parts[1], conditions=parts[2], rate=rate)


def _analyze_ticket(card: RateCard, args: argparse.Namespace) -> None:
    """``felt analyze keno --ticket SPEC``: one ticket's exact house advantage at the minimum
    wager and the verdict the writer's station gives it (19:47-15.3(e))."""
    from felt.games.keno.advantage import LIMIT, advantage_of
    from felt.games.keno.tickets import read_request

    if args.format != "text":
        raise FeltError("--ticket prints text or --json")
    request = keno_ticket_request(args.ticket, dollars(card.minimum_wager))
    ticket = read_request(request, card)
    a = advantage_of(card, ticket)
    h = a.house_advantage
    verdict = "issued" if a.complies else "refused at issue"
    if args.json:
        print(json.dumps({
            "rate_card": card.name, "kind": ticket.kind, "conditioning": ticket.conditioning,
            "groups": list(ticket.sizes), "numbers": ticket.marked(), "ways": a.ways,
            "minimum_wager_dollars": card.minimum_wager / 100, "price_dollars": a.price / 100,
            "aggregate_limit_binds": a.capped, "house_advantage_exact": f"{h.numerator}/{h.denominator}",
            "house_advantage": float(h), "complies_15_3_e": a.complies, "at_issue": verdict,
        }, indent=2))  # fmt: skip
        return
    print(f"Keno ticket under {card.name}: {ticket.kind} {ticket.conditioning}, numbers "
          f"{ticket.marked()} (groups {'+'.join(map(str, ticket.sizes))})")  # fmt: skip
    print(f"  ways: {a.ways:,}; price at the minimum wager ${dollars(card.minimum_wager)} per "
          f"way: ${dollars(a.price)} per game")  # fmt: skip
    print(f"  the aggregate limit can cut its payout: {'yes' if a.capped else 'no'}")
    print(f"  house advantage at the minimum wager: {a.figure}")
    print(f"  at most {float(LIMIT) * 100:.0f}% (N.J.A.C. 19:47-15.3(e)): "
          f"{'yes' if a.complies else 'NO'}; {verdict}")  # fmt: skip
