"""A keno system of the server (N.J.A.C. 19:47-15) as a ``--tables`` file gives it and as it is
stored with the system: ``[[keno]]`` entries, one keno system each (:class:`KenoSpec`), in the
same id space as the tables:

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

Part of Keno's server adapter, an outer layer that lives in the game's folder: it imports
:mod:`felt.server.spec` (a table entry's id and seconds are checked the same way); the game's pure
modules never import it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from felt.core.errors import FeltError, excerpt
from felt.core.readers import parse_json, parse_toml
from felt.core.tablefile import check_keys, read_toml
from felt.games.keno.ratecard import RateCard
from felt.games.keno.system import CLOSINGS, SystemConfig
from felt.server.spec import _check_id, _seconds

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
    return RateCard.from_mapping(parse_json(text, where), where)


def example_rate_card_data() -> dict[str, Any]:
    """The packaged example rate card as data."""
    text = resources.files("felt.games.keno").joinpath("data/example-rate-card.toml")
    return parse_toml(
        text.read_text(encoding="utf-8"), "felt's data file 'keno/data/example-rate-card.toml'"
    )


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
