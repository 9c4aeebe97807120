"""A seat's view of a round in a game whose hands lie face down until turned over: the other
seats with how many cards each holds (their cards once the viewer may see them), and the
dealer's cards once revealed with how many there are.  A game's ``view.py`` fills it by its own
rules; this module only holds the shape and its JSON."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from felt.core.cards import Card
from felt.rounds.engine import SettlementLine
from felt.rounds.view_json import cards_json, other_json, view_json


@dataclass(frozen=True)
class SeatSeen:
    """Another seat, as the viewer sees it."""

    number: int
    wagers: dict[str, int]
    cards: tuple[Card, ...]
    """The cards the viewer may see (possibly none)."""
    card_count: int
    status: str
    hand: str = ""
    """Its hand named, once the viewer may see all of it (turned over at settlement)."""

    @cached_property
    def json(self) -> dict[str, Any]:
        """The seat as JSON (:func:`felt.rounds.view_json.other_json`), built once: a game may
        hand the same seat to every viewer's view of one state (each but the seat's own), and
        no view's JSON is changed once built."""
        return other_json(self, card_count=self.card_count, hand=self.hand)


@dataclass(frozen=True)
class View:
    """Everything one seat may know about the round now (seat 0: what anyone may know)."""

    seat: int
    phase: StrEnum
    own_cards: tuple[Card, ...]
    others: tuple[SeatSeen, ...]
    dealer_cards: tuple[Card, ...]
    """The dealer's cards once revealed, else empty."""
    dealer_card_count: int
    pending: tuple[tuple[int, str], ...]
    lines: tuple[SettlementLine, ...] = ()
    """The viewer's own settlement statement so far."""
    void_reason: str = ""
    """Why the round was declared void, if it was (announced at the table)."""
    hand: str = ""
    """The viewer's hand named in full once complete ("two pair, jacks and fives, ...")."""
    dealer_hand: str = ""
    """The dealer's hand named in full once revealed."""
    reasons: tuple[str, ...] = ()
    """Why each of :attr:`lines` won, pushed or lost, in the player's words."""
    discarded: tuple[Card, ...] = ()
    """The viewer's discards (at a game whose players discard), shown apart from the hand."""


def seen_view_json(view: View) -> dict[str, Any]:
    """``view`` as JSON: the keys every game's view has (:mod:`felt.rounds.view_json`), each
    other seat's card count, and the dealer's cards once revealed with how many there are."""
    others = [o.json for o in view.others]
    out = view_json(
        view,
        view.seat,
        others,
        reasons=view.reasons,
        hand=view.hand,
        dealer_hand=view.dealer_hand,
        discarded=view.discarded,
    )
    out["dealer_cards"] = cards_json(view.dealer_cards)
    out["dealer_card_count"] = view.dealer_card_count
    return out
