"""A keno rate card (19:47-15.1 "Rate card"): the ticket types offered, the pay tables, the wagers,
the limits and the validity of winning tickets, checked against 19:47-15 when it is loaded.

The file is TOML; amounts are dollars in the file and cents inside.  Each pay table gives, for a
straight ticket of that many spots, what each catch pays for the minimum wager; a larger wager is
paid in exact proportion (19:47-15.3(e)) until the maximum payoff, if any, is reached.  Every bad
value is refused with the clause it breaks, including a house advantage above 30 percent for the
minimum wager on any ticket analysed (:mod:`felt.games.keno.analysis`).
"""

from __future__ import annotations

import calendar
import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from felt.core.errors import FeltError, excerpt
from felt.core.money import cents, dollars
from felt.core.tablefile import check_keys, flag, read_toml
from felt.games.keno.exact import DRAWN, POOL
from felt.games.keno.tickets import TICKET_TYPES, cite

if TYPE_CHECKING:
    from felt.games.keno.analysis import CardAnalysis

MIN_AGGREGATE: Final = 10_000_000
"""$100,000: the least maximum aggregate payoff per game a casino may set (19:47-15.3(e))."""
MAX_HOUSE_ADVANTAGE_PERCENT: Final = 30
"""The house advantage for the minimum wager may not exceed 30 percent (19:47-15.3(e))."""
SHARING: Final = {
    "pro-rata": "when the winnings of a game exceed the limit, each winner is paid the limit "
    "times the winner's share of the winnings, rounded down to the cent",
}
"""How a maximum aggregate payoff is distributed to the winners of a game (15.4(c)11)."""
MAX_WAYS: Final = 100_000
MAX_GAMES: Final = 1_000
_VALIDITY = re.compile(r"^\s*(\d{1,6})\s*(minute|hour|day|year)s?\s*$", re.IGNORECASE | re.ASCII)
_KEYS = {"name", "ticket_types", "quick_pick", "max_spots", "minimum_wager", "maximum_wager",
         "wager_step", "max_games", "max_ways", "max_payoff", "aggregate_limit",
         "aggregate_sharing", "ticket_validity", "multi_race_refund", "pays"}  # fmt: skip


@dataclass(frozen=True)
class Validity:
    """How long a winning ticket may be presented: ``count`` ``unit``\\ s from the start of the
    (last) game it was sold for (19:47-15.6(c))."""

    count: int
    unit: str

    def expires(self, start: datetime) -> datetime:
        """The last moment a winning ticket of a game started at ``start`` may be paid.  A year
        is the same date a year later (28 February for 29 February)."""
        if self.unit == "year":
            year = start.year + self.count
            day = min(start.day, calendar.monthrange(year, start.month)[1])
            return start.replace(year=year, day=day)
        return start + timedelta(**{f"{self.unit}s": self.count})

    def __str__(self) -> str:
        return f"{self.count} {self.unit}{'s' if self.count != 1 else ''}"

    @classmethod
    def parse(cls, value: object, where: str) -> Validity:
        """``"1 year"``, ``"30 days"``, ``"2 hours"``, ``"5 minutes"``: at least five minutes,
        at most one year."""
        match = _VALIDITY.match(value) if isinstance(value, str) and len(value) < 30 else None
        if match is None:
            raise FeltError(f"{where}: ticket_validity must be a time such as '1 year', "
                            f"'30 days' or '15 minutes', got {excerpt(value)}")  # fmt: skip
        out = cls(int(match[1]), match[2].lower())
        start = datetime(2001, 1, 1)  # no leap day within a year of it
        span = out.expires(start) - start
        if span < timedelta(minutes=5):
            raise FeltError(f"{where}: ticket_validity {out} is less than five minutes from the "
                            f"start of the game ({cite('6(c)')})")  # fmt: skip
        if span > timedelta(days=365):
            raise FeltError(f"{where}: ticket_validity {out} is more than one year "
                            f"({cite('6(c)')})")  # fmt: skip
        return out


@dataclass(frozen=True)
class RateCard:
    """A casino's keno rate card, checked against 19:47-15."""

    name: str
    ticket_types: tuple[str, ...]
    quick_pick: bool
    max_spots: int
    pays: dict[int, dict[int, int]]
    """Spots -> catch -> cents paid for the minimum wager (catches not listed pay nothing)."""
    minimum_wager: int
    maximum_wager: int
    wager_step: int
    max_games: int
    max_ways: int
    max_payoff: int | None
    """The maximum payoff of an individual wager (one way), cents; equal to the aggregate."""
    aggregate_limit: int | None
    """The maximum aggregate payoff of a game to all winners, cents (None: no limit)."""
    aggregate_sharing: str
    validity: Validity
    multi_race_refund: bool

    # ------------------------------------------------------------------ payoffs
    def payoff(self, spots: int, caught: int, rate: int) -> int:
        """Cents one way of ``spots`` spots that caught ``caught`` pays at ``rate`` cents: the
        minimum-wager payoff in proportion to the wager, up to the maximum payoff (15.3(e))."""
        base = self.pays[spots].get(caught, 0)
        amount = base * rate // self.minimum_wager
        return amount if self.max_payoff is None else min(amount, self.max_payoff)

    def check_rate(self, rate: int, what: str = "wager") -> None:
        """Refuse a rate (per way, per game) outside the card's wagers (15.3(d))."""
        if not self.minimum_wager <= rate <= self.maximum_wager or rate % self.wager_step:
            raise FeltError(
                f"{what} ${dollars(rate)} is not a wager of the rate card: "
                f"${dollars(self.minimum_wager)} to ${dollars(self.maximum_wager)} in steps of "
                f"${dollars(self.wager_step)} ({cite('3(d)')})"
            )

    # ------------------------------------------------------------------ statements
    def limit_statement(self) -> str:
        """The maximum keno limit per game and how it is distributed (15.4(c)11)."""
        if self.aggregate_limit is None:
            return "No maximum aggregate payoff: every winning ticket is paid in full."
        return (
            f"Maximum keno limit ${dollars(self.aggregate_limit)} per game to all winners "
            f"together; {SHARING[self.aggregate_sharing]}."
        )

    def validity_statement(
        self, day: date | None = None, last_game: int | None = None, multi_race: bool = False
    ) -> str:
        """The time available to claim winnings (15.4(c)13, 15.6(c)): for a ticket, from the
        start of ``last_game`` of ``day``, the last game it was sold for, as the system applies
        it (:meth:`~felt.games.keno.system.KenoSystem.expires`)."""
        v = self.validity
        if day is None or last_game is None:
            return (
                f"Winning tickets must be presented within {v} of the start of the game "
                "(of the last game sold on a multi-race ticket)."
            )
        game = f"game {last_game} of {day.isoformat()}"
        if not multi_race:
            return f"Winning tickets must be presented within {v} of the start of {game}."
        return (
            f"Winning tickets must be presented within {v} of the start of {game}, the last game "
            f"this ticket was sold for, even if races are cancelled; if game {last_game} is not "
            f"played (the gaming day ends first), within {v} of the end of the gaming day, and "
            "the races not played are refunded."
        )

    @functools.cached_property
    def analysis(self) -> CardAnalysis:
        """The exact analysis of every ticket the card offers, at the minimum wager."""
        from felt.games.keno.analysis import analyze_card

        return analyze_card(self)

    # ------------------------------------------------------------------ reading
    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], where: str = "rate card") -> RateCard:
        """Build and check; every error names the clause broken."""
        check_keys(data, _KEYS, where)
        name = data.get("name", "keno rate card")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise FeltError(f"{where}: name must be text of 1 to 100 characters")
        types = data.get("ticket_types", ["straight"])
        if (
            not isinstance(types, list)
            or not types
            or any(t not in TICKET_TYPES for t in types)
            or len(set(types)) != len(types)
        ):
            raise FeltError(f"{where}: ticket_types must list some of {', '.join(TICKET_TYPES)} "
                            f"once each ({cite('2(c)')}), got {excerpt(types)}")  # fmt: skip
        minimum = cents(data.get("minimum_wager", "1.00"), f"{where}: minimum_wager")
        maximum = cents(data.get("maximum_wager", dollars(minimum)), f"{where}: maximum_wager")
        step = cents(data.get("wager_step", dollars(minimum)), f"{where}: wager_step")
        if minimum <= 0 or maximum < minimum or step <= 0:
            raise FeltError(f"{where}: the rate card states a minimum wager above zero and a "
                            f"maximum no less ({cite('3(d)')}), got ${dollars(minimum)} and "
                            f"${dollars(maximum)} in steps of ${dollars(step)}")  # fmt: skip
        if minimum % step or maximum % step:
            raise FeltError(f"{where}: minimum_wager and maximum_wager must be whole steps of "
                            f"${dollars(step)} ({cite('3(d)')})")  # fmt: skip
        pays = _pay_tables(data.get("pays"), where, minimum, step)
        max_spots = data.get("max_spots", max(pays))
        if isinstance(max_spots, bool) or not isinstance(max_spots, int) or max_spots != max(pays):
            raise FeltError(f"{where}: max_spots must be the largest number of spots with a pay "
                            f"table, {max(pays)} ({cite('2(b)')}), got {excerpt(max_spots)}")  # fmt: skip
        games = data.get("max_games", 1)
        multi = "multi-race" in types
        if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
            raise FeltError(f"{where}: max_games must be 1 to {MAX_GAMES}, got {excerpt(games)}")
        if multi != (games > 1):
            raise FeltError(f"{where}: multi-race tickets need max_games of 2 or more, and "
                            f"max_games above 1 needs multi-race offered ({cite('2(c)6')})")  # fmt: skip
        ways = data.get("max_ways", 1000)
        if isinstance(ways, bool) or not isinstance(ways, int) or not 1 <= ways <= MAX_WAYS:
            raise FeltError(f"{where}: max_ways must be 1 to {MAX_WAYS:,}, got {excerpt(ways)}")
        top, aggregate = _limits(data, where)
        sharing = data.get("aggregate_sharing", "pro-rata")
        if sharing not in SHARING:
            raise FeltError(f"{where}: aggregate_sharing must be one of {', '.join(SHARING)} "
                            f"({cite('4(c)11')}), got {excerpt(sharing)}")  # fmt: skip
        validity = Validity.parse(data.get("ticket_validity", "1 year"), where)
        card = cls(name, tuple(types), flag(data, "quick_pick", True, where), max_spots, pays,
                   minimum, maximum, step, games, ways, top, aggregate, str(sharing), validity,
                   flag(data, "multi_race_refund", False, where))  # fmt: skip
        if card.quick_pick and "straight" not in types:
            raise FeltError(f"{where}: a quick-pick is a straight ticket: offer straight tickets "
                            f"or set quick_pick = false ({cite('1')})")  # fmt: skip
        card.analysis.check(where)
        return card


def _pay_tables(raw: object, where: str, minimum: int, step: int) -> dict[int, dict[int, int]]:
    if not isinstance(raw, Mapping) or not raw:
        raise FeltError(f"{where}: pays must be a table of pay tables, one per number of spots "
                        f"offered ([pays.4] 2 = \"1.00\" ...) ({cite('2(b)')})")  # fmt: skip
    out: dict[int, dict[int, int]] = {}
    for key, table in raw.items():
        if not (isinstance(key, str) and key.isdigit() and 1 <= int(key) <= POOL):
            raise FeltError(f"{where}: pays.{excerpt(key)}: spots must be 1 to {POOL}")
        spots = int(key)
        w = f"{where}: pays.{spots}"
        if not isinstance(table, Mapping) or not table:
            raise FeltError(f"{w} must be a table of catch = payoff")
        line: dict[int, int] = {}
        for catch, amount in table.items():
            top = min(spots, DRAWN)
            if not (isinstance(catch, str) and catch.isdigit() and int(catch) <= top):
                raise FeltError(f"{w}: catch {excerpt(catch)} must be 0 to {top} (a {spots}-spot "
                                f"ticket catches at most {top} of the {DRAWN} numbers drawn)")  # fmt: skip
            paid = cents(amount, f"{w}.{catch}")
            if paid <= 0:
                raise FeltError(
                    f"{w}.{catch}: a payoff is above zero (omit a catch that pays nothing)"
                )
            if paid * step % minimum:
                raise FeltError(
                    f"{w}.{catch}: ${dollars(paid)} for the minimum wager ${dollars(minimum)} "
                    f"cannot increase in proportion to wagers in steps of ${dollars(step)} "
                    f"in whole cents ({cite('3(e)')})"
                )
            line[int(catch)] = paid
        out[spots] = dict(sorted(line.items()))
    return dict(sorted(out.items()))


def _limits(data: Mapping[str, Any], where: str) -> tuple[int | None, int | None]:
    top = data.get("max_payoff")
    aggregate = data.get("aggregate_limit")
    top_c = None if top is None else cents(top, f"{where}: max_payoff")
    agg_c = None if aggregate is None else cents(aggregate, f"{where}: aggregate_limit")
    if top_c is not None and agg_c is not None and top_c != agg_c:
        raise FeltError(f"{where}: the maximum aggregate payoff ${dollars(agg_c)} must equal the "
                        f"maximum payoff of an individual wager ${dollars(top_c)} "
                        f"({cite('3(e)')})")  # fmt: skip
    limit = agg_c if agg_c is not None else top_c
    if limit is not None and limit < MIN_AGGREGATE:
        raise FeltError(f"{where}: a maximum aggregate payoff is not less than "
                        f"${dollars(MIN_AGGREGATE)} per game ({cite('3(e)')}), "
                        f"got ${dollars(limit)}")  # fmt: skip
    return limit, limit


def load_rate_card(path: str | Path) -> RateCard:
    """Read and check a rate card file (TOML)."""
    return RateCard.from_mapping(read_toml(path), where=str(path))


@functools.cache
def example_rate_card() -> RateCard:
    """The example rate card shipped with felt (``data/example-rate-card.toml``)."""
    from felt.games.keno.spec import example_rate_card_data

    return RateCard.from_mapping(example_rate_card_data(), "example-rate-card.toml")


def example_rate_card_path() -> Path:
    """Where the example rate card is."""
    return Path(str(resources.files("felt.games.keno").joinpath("data/example-rate-card.toml")))
