"""Helpers for Boston round tests: a table, a stacked deck, a round run to a point."""

from __future__ import annotations

from typing import Any

from felt.cli.script import complete_deck
from felt.core.cards import parse_cards
from felt.games.boston.actions import PlaceWagers
from felt.games.boston.config import TableConfig
from felt.games.boston.round import Round
from felt.rounds.actions import Action


def table(game: str = "boston5", edition: str | None = None, **kw: Any) -> TableConfig:
    data: dict[str, Any] = {"game": game, **kw}
    if edition:
        data["edition"] = edition
    return TableConfig.from_mapping(data)


def new_round(
    cards: str = "",
    wagers: dict[int, tuple[int, ...]] | None = None,
    game: str = "boston5",
    edition: str | None = None,
    **kw: Any,
) -> Round:
    """A round on a deck with ``cards`` on top; ``wagers`` maps seat to (ante, first[, bonus]) cents."""
    due = kw.pop("stub_count_due", False)
    rnd = Round(
        table(game, edition, **kw), complete_deck(list(parse_cards(cards))), stub_count_due=due
    )
    for seat, w in (wagers or {}).items():
        ante, first, bonus = (*w, 0)[:3]
        rnd.apply(PlaceWagers(seat, ante, first, bonus))
    return rnd


def play(rnd: Round, *actions: Action) -> Round:
    """Apply actions in course (dealer steps as due), then finish as a round script does: the
    dealer goes on and an election still open is timed out (recorded as a ``timeout``)."""
    from felt.cli.script import _apply_in_course, finish_round

    for a in actions:
        _apply_in_course(rnd, a)
    finish_round(rnd)
    return rnd


def lines_of(rnd: Round, seat: int) -> dict[str, tuple[str, int]]:
    """wager -> (outcome, amount) for one seat."""
    return {line.wager: (line.outcome, line.amount) for line in rnd.lines if line.seat == seat}
