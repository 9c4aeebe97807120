"""The tables a server runs: ``felt serve --tables FILE``, a TOML file of ``[[table]]`` entries,
each a table configuration as a table file has it plus the table's pace.

    [[table]]
    id = "table-1"
    game = "..."                 # a table game's id (felt.games.registry.game_ids("table"))
    edition = "..."              # a game with more than one rule text only (default: its first)
    pace_seconds = 1.0           # between the dealer's steps
    dealer = "automatic"         # or "manual": the dealer's console takes each step
    betting_seconds = 15         # betting stays open this long after the first wager
    between_rounds_seconds = 5
    [table.settings]             # as in a table file: limits, pay tables, decision_seconds ...
    minimum = "5.00"

and ``[[keno]]`` entries, one keno system each (:class:`KenoSpec`), in the same id space:

    [[keno]]
    id = "keno-1"
    rate_card = "example"        # or a rate-card TOML file, read and checked now
    stations = [1, 2, 3]
    closing = "countdown"        # or "notice" (N.J.A.C. 19:47-15.5(c))
    automatic_lockout = true     # 15.5(d)-(e)
    game_seconds = 300           # countdown: open -> close
    draw_seconds = 5             # lock-out -> draw
    between_games_seconds = 30   # draw -> next game
    timezone = "UTC"             # the gaming day is the date in this zone
"""

from __future__ import annotations

import functools
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from felt.core.errors import FeltError, excerpt
from felt.core.tablefile import check_keys, read_toml
from felt.games.keno.ratecard import RateCard
from felt.games.keno.system import CLOSINGS, SystemConfig
from felt.games.registry import game_ids, table_game

MAX_TABLES: Final = 2000
MAX_SECONDS: Final = 3600.0
DEALING_MODES: Final = ("automatic", "manual")
"""Who takes a table's dealer steps: the table at its pace, or the dealer at the console."""


@dataclass(frozen=True)
class TableSpec:
    """One table of the server: its id, game, rule settings and pace."""

    id: str
    game: str
    edition: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    pace_seconds: float = 1.0
    betting_seconds: float = 15.0
    between_rounds_seconds: float = 5.0
    dealer: str = "automatic"
    """``automatic``: the table takes the dealer's steps at its pace; ``manual``: the dealer takes
    each from the dealer's console (the decision clock still runs)."""

    def config(self) -> Any:
        """The rule configuration, checked against the regulatory minimums as a table file is
        (:meth:`felt.games.base.Game.config`)."""
        return table_game(self.game).config(
            self.game, self.settings, edition=self.edition, where=f"table {self.id}: settings"
        )

    def to_json(self) -> str:
        """The spec as stored with the table."""
        return json.dumps(
            {
                "id": self.id,
                "game": self.game,
                "edition": self.edition,
                "settings": dict(self.settings),
                "pace_seconds": self.pace_seconds,
                "dealer": self.dealer,
                "betting_seconds": self.betting_seconds,
                "between_rounds_seconds": self.between_rounds_seconds,
            },
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> TableSpec:
        """A spec as stored."""
        return spec_from_mapping(json.loads(text), "stored table")


def _seconds(data: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = data.get(key, default)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 <= value <= MAX_SECONDS
    ):
        raise FeltError(
            f"{where}: {key} must be a number of seconds from 0 to {MAX_SECONDS:g}, got {excerpt(value)}"
        )
    return float(value)


def spec_from_mapping(data: Mapping[str, Any], where: str) -> TableSpec:
    """Read and check one ``[[table]]`` entry."""
    check_keys(
        data,
        {
            "id",
            "game",
            "edition",
            "settings",
            "pace_seconds",
            "betting_seconds",
            "between_rounds_seconds",
            "dealer",
        },
        where,
    )
    tid = _check_id(data.get("id"), where)
    game = data.get("game")
    tables = game_ids("table")
    if not isinstance(game, str) or game not in tables:
        raise FeltError(f"{where}: game must be one of {', '.join(tables)}, got {excerpt(game)}")
    edition = data.get("edition")
    family = table_game(game)
    texts = family.editions(game)
    if edition is not None and len({e for g in family.ids for e in family.editions(g)}) == 1:
        # one rule text for every game of the family: nothing to choose
        raise FeltError(f"{where}: edition does not apply to {game} (one text: {texts[0]})")
    if edition is not None and not isinstance(edition, str):
        raise FeltError(
            f"{where}: edition must be a name such as {texts[0]} (allowed: {', '.join(texts)})"
        )
    settings = data.get("settings", {})
    if not isinstance(settings, Mapping):
        raise FeltError(
            f"{where}: settings must be a table of table-file keys, got {excerpt(settings)}"
        )
    dealer = data.get("dealer", "automatic")
    if dealer not in DEALING_MODES:
        raise FeltError(
            f"{where}: dealer must be one of {', '.join(DEALING_MODES)}, got {excerpt(dealer)}"
        )
    spec = TableSpec(
        id=tid,
        game=str(game),
        edition=edition,
        settings=dict(settings),
        pace_seconds=_seconds(data, "pace_seconds", 1.0, where),
        betting_seconds=_seconds(data, "betting_seconds", 15.0, where),
        between_rounds_seconds=_seconds(data, "between_rounds_seconds", 5.0, where),
        dealer=str(dealer),
    )
    spec.config()  # checked now: a bad table never reaches a running server
    return spec


KENO: Final = "keno"
MAX_STATIONS: Final = 999


@dataclass(frozen=True)
class KenoSpec:
    """One keno system of the server (N.J.A.C. 19:47-15): its rate card's data (stored with the
    system, so any process can run it without the file), work stations, closing and schedule."""

    id: str
    rate_card: Mapping[str, Any]
    stations: tuple[int, ...] = (1,)
    closing: str = "countdown"
    automatic_lockout: bool = True
    game_seconds: float = 300.0
    draw_seconds: float = 5.0
    between_games_seconds: float = 30.0
    timezone: str = "UTC"
    game: ClassVar[str] = KENO

    def card(self) -> RateCard:
        """The rate card, checked (cached per card: checking analyses every ticket type)."""
        return _card(
            json.dumps(dict(self.rate_card), sort_keys=True, default=str),
            f"keno {self.id}: rate card",
        )

    def config(self) -> SystemConfig:
        """The keno system's configuration."""
        return SystemConfig(
            self.card(), self.stations, self.automatic_lockout, self.closing, self.timezone
        )

    def zone(self) -> ZoneInfo:
        """The zone whose date is the gaming day."""
        return ZoneInfo(self.timezone)

    def to_json(self) -> str:
        """The spec as stored with the system (``game`` ``keno``)."""
        return json.dumps(
            {
                "id": self.id,
                "game": KENO,
                "rate_card": dict(self.rate_card),
                "stations": list(self.stations),
                "closing": self.closing,
                "automatic_lockout": self.automatic_lockout,
                "game_seconds": self.game_seconds,
                "draw_seconds": self.draw_seconds,
                "between_games_seconds": self.between_games_seconds,
                "timezone": self.timezone,
            },
            sort_keys=True,
            default=str,
        )


@functools.lru_cache(maxsize=64)
def _card(text: str, where: str) -> RateCard:
    return RateCard.from_mapping(json.loads(text), where)


def example_rate_card_data() -> dict[str, Any]:
    """The packaged example rate card as data."""
    text = resources.files("felt.games.keno").joinpath("data/example-rate-card.toml")
    return tomllib.loads(text.read_text(encoding="utf-8"))


def _check_id(tid: object, where: str) -> str:
    if (
        not isinstance(tid, str)
        or not 1 <= len(tid) <= 64
        or not all(c.isascii() and (c.isalnum() or c in "-_") for c in tid)
    ):
        raise FeltError(
            f"{where}: id must be 1 to 64 ASCII letters, digits, '-' or '_', got {excerpt(tid)}"
        )
    return tid


def keno_from_mapping(data: Mapping[str, Any], where: str, base: Path | None = None) -> KenoSpec:
    """Read and check one ``[[keno]]`` entry (or a stored one, whose ``rate_card`` is the card's
    data): a bad rate card is refused with the clause it breaks."""
    keys = {"id", "rate_card", "stations", "closing", "automatic_lockout", "game_seconds",
            "draw_seconds", "between_games_seconds", "timezone", "game"}  # fmt: skip
    check_keys(data, keys, where)
    tid = _check_id(data.get("id"), where)
    raw = data.get("rate_card", "example")
    if raw == "example":
        card_data: Mapping[str, Any] = example_rate_card_data()
    elif isinstance(raw, Mapping):
        card_data = raw
    elif isinstance(raw, str) and raw:
        path = Path(raw) if base is None or Path(raw).is_absolute() else base / raw
        card_data = read_toml(path)
    else:
        raise FeltError(f"{where}: rate_card must be \"example\" or the path of a rate-card "
                        f"TOML file, got {excerpt(raw)}")  # fmt: skip
    stations = data.get("stations", [1])
    if (
        not isinstance(stations, list)
        or not stations
        or any(
            isinstance(s, bool) or not isinstance(s, int) or not 1 <= s <= MAX_STATIONS
            for s in stations
        )
        or len(set(stations)) != len(stations)
    ):
        raise FeltError(f"{where}: stations must list distinct work station numbers 1 to "
                        f"{MAX_STATIONS}, got {excerpt(stations)}")  # fmt: skip
    closing = data.get("closing", "countdown")
    if closing not in CLOSINGS:
        raise FeltError(f"{where}: closing must be one of {', '.join(CLOSINGS)} "
                        f"(N.J.A.C. 19:47-15.5(c)), got {excerpt(closing)}")  # fmt: skip
    automatic = data.get("automatic_lockout", True)
    if not isinstance(automatic, bool):
        raise FeltError(f"{where}: automatic_lockout must be true or false")
    zone = data.get("timezone", "UTC")
    try:
        if not isinstance(zone, str) or not zone or len(zone) > 64:
            raise ValueError(zone)
        ZoneInfo(zone)
    except (ValueError, ZoneInfoNotFoundError, OSError):
        raise FeltError(f"{where}: timezone must be a zone name such as UTC or "
                        f"America/New_York, got {excerpt(zone)}") from None  # fmt: skip
    spec = KenoSpec(
        id=tid,
        rate_card=dict(card_data),
        stations=tuple(stations),
        closing=str(closing),
        automatic_lockout=automatic,
        game_seconds=_positive(data, "game_seconds", 300.0, where),
        draw_seconds=_seconds(data, "draw_seconds", 5.0, where),
        between_games_seconds=_seconds(data, "between_games_seconds", 30.0, where),
        timezone=zone,
    )
    spec.card()  # checked now: a bad rate card never reaches a running server
    return spec


def _positive(data: Mapping[str, Any], key: str, default: float, where: str) -> float:
    value = _seconds(data, key, default, where)
    if value <= 0:
        raise FeltError(f"{where}: {key} must be above 0 seconds, got {value:g}")
    return value


AnySpec = TableSpec | KenoSpec


def any_spec_from_json(text: str) -> AnySpec:
    """A table's or a keno system's spec as stored."""
    data = json.loads(text)
    if isinstance(data, dict) and data.get("game") == KENO:
        return keno_from_mapping(data, "stored keno system")
    return spec_from_mapping(data, "stored table")


def load_specs(path: str | Path) -> list[AnySpec]:
    """The tables and keno systems of a ``--tables`` file."""
    data = read_toml(path)
    check_keys(data, {"table", "keno"}, str(path))
    tables = data.get("table", [])
    kenos = data.get("keno", [])
    if (
        not isinstance(tables, list)
        or not isinstance(kenos, list)
        or not 1 <= len(tables) + len(kenos) <= MAX_TABLES
    ):
        raise FeltError(f"{path}: give 1 to {MAX_TABLES} [[table]] and [[keno]] entries")
    specs: list[AnySpec] = [
        spec_from_mapping(e if isinstance(e, Mapping) else {"id": e}, f"{path}: table {i + 1}")
        for i, e in enumerate(tables)
    ]
    base = Path(path).parent
    for i, e in enumerate(kenos):
        where = f"{path}: keno {i + 1}"
        if not isinstance(e, Mapping):
            raise FeltError(f"{where}: a [[keno]] entry is a table of settings")
        if "game" in e:
            raise FeltError(f"{where}: a [[keno]] entry has no 'game' (it is keno)")
        specs.append(keno_from_mapping(e, where, base))
    ids = [s.id for s in specs]
    if len(set(ids)) != len(ids):
        raise FeltError(f"{path}: table and keno ids must be distinct")
    return specs


def default_specs() -> list[AnySpec]:
    """What a server runs when no ``--tables`` file is given: one table of each game and one
    keno system on the example rate card."""
    return [
        *(TableSpec(f"{_short(game)}-1", game) for game in game_ids("table")),
        KenoSpec("keno-1", example_rate_card_data()),
    ]


def _short(game: str) -> str:
    """A game id as a default table id begins: the id itself, or a hyphenated id's initials
    (``a-b-c``: ``abc``)."""
    return "".join(word[:1] for word in game.split("-")) if "-" in game else game
