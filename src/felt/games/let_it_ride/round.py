"""A round of Let It Ride Poker by N.J.A.C. 19:47-18 as dealt in New Jersey.

The seed text gives 18.1 to 18.4: the community cards, the hand of three cards and the two
community cards, "let it ride" as not taking back a wager that may be withdrawn (18.1), the deck
(18.2) and the rankings (18.3).  What 18.5 to 18.12 say (titles only) is taken from the public
descriptions named in docs/interpretations.md ("Let It Ride Poker"):

- A player places three equal wagers ("1", "2" and "$": ``first``, ``second``, ``third``), each
  within the table's limits, with, where the table offers them, the let it ride bonus wager of
  the table's one amount (18.6A) and the three-card bonus wager within its own limits (18.6B).
- The cards are shuffled and, after a manual shuffle, cut with the cover card (18.5).  When
  wagers close the dealer deals one card at a time, face down, to each position with wagers from
  the dealer's left and then to the community area, three times round (18.7-18.9).  The community
  area's first card (the bottom of its stack) is burned: discarded unseen, shown to no one; the
  other two are the community cards, face down in front of the table inventory container (18.1
  "Community card").
- Each player then takes back wager 1 or lets it ride (18.1 "Let it ride"); once all have
  decided the dealer turns community card 1 face up.  Each then takes back wager 2 or lets it
  ride, whatever they did with wager 1; the dealer turns community card 2.  Wager 3 always stays.
  A player whose decision time ran out lets the wager ride: a wager stays unless taken back.
- Each wager left on the layout is paid by the pay table on the hand of the player's three cards
  and the two community cards (18.1 "Hand"), or lost below a pair of tens (18.11).  What one
  hand's three wagers win together is capped by the table's payout limit, the cut falling on the
  third wager first.  The bonus wagers are paid in full, outside the limit: the let it ride bonus
  on the five-card hand whether or not wagers were taken back, the three-card bonus on the
  player's own three cards.

Positions are numbered 1 to ``seats`` from the dealer's left; the deal starts at 1, settlement at
the highest number (the dealer's right), as the other stud games of the chapter order them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import ClassVar

from felt.core.cards import ALL_CARDS, Card
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.games.let_it_ride.actions import (
    WITHDRAWABLE,
    CommunityCardExposed,
    CutCards,
    LetItRide,
    TakeBack,
    TurnCard,
    Wagers,
)
from felt.games.let_it_ride.config import EDITION, LetItRideConfig, odds_text, rules
from felt.games.let_it_ride.hand import bonus_hand, describe, pay_hand, three_card_hand
from felt.rounds.actions import Action, Deal, Misdeal, Reveal, Settle, ShufflerJam
from felt.rounds.engine import VoidAll, check_deck
from felt.rounds.stud import StudPosition, StudRound, card_count

MAIN: tuple[str, ...] = ("first", "second", "third")
"""The three equal wagers, "1", "2" and "$", as the ledger, the statement and the view name them."""
WAGERS: tuple[str, ...] = (*MAIN, "bonus", "three_card_bonus")
"""Every wager a position may have on the layout, in the order a statement lists them."""
CARDS = 3
"""Cards dealt to each position (18.1 "Hand": the player's three cards)."""
COMMUNITY_STACK = 3
"""Cards dealt to the community area: one burned, then the two community cards."""
NUMBER_WORDS = {1: "first", 2: "second", 3: "third"}


class Phase(StrEnum):
    """Where a Let It Ride Poker round stands."""

    BETTING = "betting"
    CUT_DONE = "cut done"
    """The cards are cut (18.5); wagers are still taken."""
    RECUT = "recut"
    """A supervisor required a recut; the dealer cuts again before any card is dealt."""
    CLOSED = "closed"
    """ "No more bets" announced; the cards to be dealt."""
    FIRST = "first wager"
    """All cards dealt; each player takes back wager 1 or lets it ride."""
    SECOND = "second wager"
    """Community card 1 face up; each player takes back wager 2 or lets it ride."""
    REVEALED = "revealed"
    """Both community cards face up; the wagers are to be settled."""
    COMPLETE = "complete"
    VOID = "void"


ELECTION_OF = {Phase.FIRST: 1, Phase.SECOND: 2}
"""The wager each decision phase is for."""
ELECTION_NAMES = {1: "first wager", 2: "second wager"}
"""The election (as ``pending`` names it) for each withdrawable wager."""


@dataclass
class Spot(StudPosition):
    """One betting position: its wagers on the layout, what was placed, its three cards and what
    its player did with wagers 1 and 2."""

    decisions: dict[str, str] = field(default_factory=dict)
    """``first``/``second`` -> ``let it ride`` or ``take back``, once decided."""
    status: str = "in"
    """``in``, ``settled`` (the hand turned over and paid) or ``void``."""

    def hand_cards(self) -> list[Card]:
        """The player's own three cards (the hand adds the community cards, 18.1 "Hand")."""
        return list(self.cards)


def stacked_deck(
    hands: Sequence[Sequence[Card]], community: Sequence[Card], burn: Card | None = None
) -> tuple[Card, ...]:
    """The deck whose deal gives ``hands`` (three cards each, to the positions with wagers in
    position order), burns ``burn`` and gives the two ``community`` cards (card 1 first), every
    other card after them in order: the deal goes one card at a time round the table and then to
    the community area, three times (:meth:`LetItRideRound._do_deal`); the community area's first
    card is the burn card.  ``burn`` None: the lowest card not otherwise given.

    >>> from felt.core.cards import parse_cards
    >>> deck = stacked_deck([parse_cards("As Ks Qs")], parse_cards("Js Ts"), parse_cards("2c")[0])
    >>> [str(c) for c in deck[:6]]
    ['As', '2c', 'Ks', 'Js', 'Qs', 'Ts']
    """
    rows = [list(h) for h in hands]
    if any(len(r) != CARDS for r in rows) or len(community) != 2:
        raise FeltError("each hand is three cards and the community two")
    given = [c for r in rows for c in r] + list(community)
    if burn is None:
        burn = next(c for c in ALL_CARDS if c not in given)
    stack = [burn, *community]
    order = [r[i] for i in range(CARDS) for r in [*rows, stack]]
    return check_deck((*order, *(c for c in ALL_CARDS if c not in order)))


def _win(stake: int, odds: Fraction) -> int:
    """What ``stake`` wins at ``odds`` to 1, floored to the cent."""
    return stake * odds.numerator // odds.denominator


@dataclass
class LetItRideRound(StudRound):
    """One round of Let It Ride Poker; see the module docstring."""

    config: LetItRideConfig
    deck_name: str = "A"
    """Which deck is in play: ``A``, or ``A``/``B`` alternating at a two-deck table (18.2(b))."""
    phase: Phase = Phase.BETTING
    seats: dict[int, Spot] = field(default_factory=dict)
    community: list[Card] = field(default_factory=list)
    """The two community cards, card 1 first, face down until turned (18.1 "Community card")."""
    turned: int = 0
    """How many community cards are face up (0, 1 or 2)."""
    burn_card: Card | None = None
    """The community area's first card, burned unseen to the discard rack at the deal: in the
    record for replay and dispute only, in no view."""
    cut_positions: list[int] = field(default_factory=list)
    """Where the dealer cut this round, the recuts after the first (18.5)."""
    recut_from: str | None = None
    """The phase a required recut returns to once made."""
    pending_misdeals: dict[int | None, int] = field(default_factory=dict)
    face_up_clause: ClassVar[str] = "12"
    drawn_in_error_clause: ClassVar[str] = "12"
    shuffler_jam_clause: ClassVar[str] = "12"
    seat_label: ClassVar[str] = "seat"
    position_noun: ClassVar[str] = "position"
    WAGERS: ClassVar[tuple[str, ...]] = WAGERS
    cards_per_position: ClassVar[int] = CARDS
    dealer_card_count: ClassVar[int] = COMMUNITY_STACK
    misdeal_clause: ClassVar[str] = "12"
    cut_first_clause: ClassVar[str] = "5"
    cover_cut_clauses: ClassVar[dict[str, tuple[str, ...]]] = {
        "no cut": ("5",), "when": ("5",), "position": ("5",), "cut": ("5",), "recut": ("5",),
    }  # fmt: skip
    CUT_STEP: ClassVar[type[Action]] = CutCards
    DEALER_STEPS: ClassVar[dict[str, type[Action]]] = {
        Phase.FIRST: TurnCard,
        Phase.SECOND: TurnCard,
        Phase.RECUT: CutCards,
    }
    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "first wager": ("to let it ride (a wager stays unless taken back)", "1"),
        "second wager": ("to let it ride (a wager stays unless taken back)", "1"),
    }

    def seat_count(self) -> int:
        """Betting positions at this table."""
        return self.config.seats

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-18.<section>``."""
        return rules().cite(section)

    def must_stay_seated(self, seat: int) -> str:
        """A hand is its wagering player's until the round is settled (18.1 "Round of play")."""
        return (
            f"seat {seat}: your wagers are in action until the round is settled ({self.cite('1')}); "
            "the position stays yours until then"
        )

    @property
    def title(self) -> str:
        """19:47-18."""
        return rules().title

    @property
    def edition_name(self) -> str:
        """The one text of this game."""
        return EDITION

    @property
    def rack_clause(self) -> str:
        """18.10 (title only): the cards collected as the wagers are settled."""
        return self.cite("10")

    @property
    def community_up(self) -> tuple[Card, ...]:
        """The community cards face up (what anyone may see of them)."""
        return tuple(self.community[: self.turned])

    def hand_of(self, spot: Spot) -> list[Card]:
        """18.1 "Hand": the player's three cards and the two community cards."""
        return [*spot.cards, *self.community]

    # ----------------------------------------------------------------- pending and dealer steps
    def pending(self) -> list[tuple[int, str]]:
        """Each player who has not yet decided on the wager the phase is for."""
        number = ELECTION_OF.get(self.phase)
        if number is None:
            return []
        key = NUMBER_WORDS[number]
        return [
            (s.number, ELECTION_NAMES[number]) for s in self.in_play() if key not in s.decisions
        ]

    def window_actions(self) -> tuple[type[Action], ...]:
        """The decisions the current phase is for, while a player still has one to make (once
        all have decided, the dealer turns the card and the next decision's moment comes)."""
        if self.phase in ELECTION_OF and self.pending():
            return (TakeBack, LetItRide, CommunityCardExposed)
        return ()

    def cards_to_come(self) -> bool:
        """Cards remain to be dealt until the deal (not while a recut is due)."""
        return self.phase is not Phase.RECUT and super().cards_to_come()

    # ----------------------------------------------------------------- wagers (18.6, 18.6A, 18.6B)
    def _check_wager(self, a: Wagers) -> None:
        cfg = self.config
        where = f"seat {a.seat}"
        if self.phase not in (Phase.BETTING, Phase.CUT_DONE):
            raise FeltError(f'{where}: no wager after "No more bets" ({self.cite("6")})')
        if a.seat in self.seats:
            raise FeltError(f"{where} already has its wagers this round")
        if not cfg.minimum <= a.amount <= cfg.maximum:
            raise FeltError(
                f"{where}: each of the three equal wagers must be within the table limits "
                f"{dollars(cfg.minimum)} to {dollars(cfg.maximum)}, got {dollars(a.amount)}; the "
                f"bonus wagers are placed only with them ({self.cite('6')})"
            )
        if a.bonus:
            if cfg.bonus is None:
                raise FeltError(
                    f"{where}: this table offers no let it ride bonus wager (its settings have "
                    f"bonus = false; {self.cite('6A')})"
                )
            if a.bonus != cfg.bonus.wager:
                raise FeltError(
                    f"{where}: the let it ride bonus wager is {dollars(cfg.bonus.wager)} exactly, "
                    f"got {dollars(a.bonus)} ({self.cite('6A')})"
                )
        if a.three_card_bonus:
            three = cfg.three_card_bonus
            if three is None:
                raise FeltError(
                    f"{where}: this table offers no three-card bonus wager (its settings have "
                    f"three_card_bonus = false; {self.cite('6B')})"
                )
            if not three.minimum <= a.three_card_bonus <= three.maximum or a.three_card_bonus % 100:
                raise FeltError(
                    f"{where}: the three-card bonus wager must be whole dollars from "
                    f"{dollars(three.minimum)} to {dollars(three.maximum)}, got "
                    f"{dollars(a.three_card_bonus)} ({self.cite('6B')})"
                )
        self._check_room_for(a.seat)
        player = a.player or where
        mine = sorted(n for n, s in self.seats.items() if s.player == player)
        if mine:
            raise FeltError(
                f"{player} already wagers at seat {mine[0]}: one position per player "
                f"({self.cite('6')})"
            )

    def _do_wager(self, a: Wagers) -> None:
        placed = dict.fromkeys(MAIN, a.amount)
        if a.bonus:
            placed["bonus"] = a.bonus
        if a.three_card_bonus:
            placed["three_card_bonus"] = a.three_card_bonus
        self.seats[a.seat] = Spot(a.seat, a.player or f"seat {a.seat}", dict(placed), placed)
        for wager, amount in placed.items():
            self._place(a.seat, wager, amount)

    # ----------------------------------------------------------------- shuffle and cut (18.5)
    def cover_cut_least(self) -> int:
        """At least 10 cards from the top (18.5, title only; the rules data)."""
        return rules().cut_min_from_top

    def cover_card(self) -> str:
        """The solid yellow or green card of 18.2(a)."""
        return f"the cover card (the solid yellow or green card of {self.cite('2(a)')})"

    # ----------------------------------------------------------------- dealing (18.7-18.9)
    def _do_deal(self, a: Deal) -> None:
        """One card at a time, face down, to each position from the dealer's left and then to the
        community area, three times round; the community area's first card burned unseen to the
        discard rack (18.7-18.9, titles only; the public descriptions).  A misdeal given deals its
        wrong count and voids every hand once the deal is done (18.12)."""
        spots = self.in_play()
        counts = {s.number: self.pending_misdeals.pop(s.number, CARDS) for s in spots}
        stack = self.pending_misdeals.pop(None, COMMUNITY_STACK)
        for i in range(max([stack, *counts.values()])):
            for spot in spots:
                if i < counts[spot.number]:
                    self._deal_cards(spot.cards, 1, spot.number, "face down")
            if i == 0 and stack:
                burned: list[Card] = []
                self._deal_cards(burned, 1, None, "community area, face down: the burn card")
                self.burn_card = burned[0]
                self.rack.put("burn card, unseen", burned)
                self._effect("burn", None, burned,
                             detail="the community area's first card burned unseen to the "
                             f"discard rack ({self.cite('7')})")  # fmt: skip
            elif i < stack:
                k = len(self.community) + 1
                self._deal_cards(self.community, 1, None, f"community card {k}, face down")
        for number, count in counts.items():
            if count != CARDS:
                raise VoidAll(self.cite("12"), f"seat {number} was dealt {card_count(count)}")
        if stack != COMMUNITY_STACK:
            raise VoidAll(
                self.cite("12"),
                f"the community area was dealt {card_count(stack)} (three: one burned and the two "
                "community cards)",
            )
        self.phase = Phase.FIRST

    def _cards_needed(
        self, misdeal: tuple[int | None, int] | None = None, new_seat: int | None = None
    ) -> int:
        """Every card the deal will take: it goes round to the end even when a misdeal given
        voids the hands (the void is declared once the cards are out)."""
        if not self.cards_to_come():
            return 0
        given = dict(self.pending_misdeals)
        if misdeal is not None:
            given[misdeal[0]] = misdeal[1]
        numbers = [s.number for s in self.in_play()] + ([] if new_seat is None else [new_seat])
        return sum(given.get(n, CARDS) for n in numbers) + given.get(None, COMMUNITY_STACK)

    # ----------------------------------------------------------------- take back or let it ride
    def _deciding(self, seat: int, wager: int, verb: str) -> Spot:
        """The position deciding on ``wager`` now, or one clear error saying which wager may be
        decided now (or that none may)."""
        if wager == 3:
            raise FeltError(
                f'seat {seat}: the third wager ($) always stays ({self.cite("1")} "Let it ride": '
                "only wagers 1 and 2 may be taken back)"
            )
        if wager not in WITHDRAWABLE:
            raise FeltError(
                f"seat {seat}: wager must be 1 or 2 (the wagers that may be taken back)"
            )
        now = ELECTION_OF.get(self.phase)
        if now is None:
            when = (
                "wager 1 is decided once the cards are dealt, wager 2 once community card 1 is "
                "turned"
                if self.phase in (Phase.BETTING, Phase.CUT_DONE, Phase.RECUT, Phase.CLOSED)
                else "both community cards are face up"
            )
            raise FeltError(
                f"seat {seat}: no wager may be taken back or left to ride now (the round is at "
                f"{self.phase}; {when}) ({self.cite('1')})"
            )
        if wager != now:
            why = (
                "its moment has passed: community card 1 is face up"
                if wager < now
                else "its moment has not come: community card 1 is turned first"
            )
            raise FeltError(
                f"seat {seat}: cannot {verb} wager {wager} now ({why}); wager {now} may be "
                f"decided now ({self.cite('1')})"
            )
        spot = self.seats.get(seat)
        if spot is None or spot.status != "in":
            raise FeltError(f"seat {seat} has no hand in this round")
        key = NUMBER_WORDS[wager]
        if key in spot.decisions:
            done = "taken back" if spot.decisions[key] == "take back" else "let ride"
            raise FeltError(
                f"seat {seat} has already {done} wager {wager}: a decision is final "
                f"({self.cite('1')})"
            )
        return spot

    def _check_take_back(self, a: TakeBack) -> None:
        self._deciding(a.seat, a.wager, "take back")

    def _do_take_back(self, a: TakeBack) -> None:
        """18.1 "Let it ride": a wager that may be withdrawn, withdrawn; it is returned."""
        spot = self.seats[a.seat]
        key = NUMBER_WORDS[a.wager]
        spot.decisions[key] = "take back"
        self._effect("take back", a.seat, amount=spot.wagers[key],
                     detail=f"wager {a.wager} taken back ({self.cite('1')})")  # fmt: skip
        self._line(spot, key, "withdrawn", self.cite("1"),
                   hand=f"taken back before community card {a.wager} was turned")  # fmt: skip

    def _check_let_it_ride(self, a: LetItRide) -> None:
        self._deciding(a.seat, a.wager, "let ride")

    def _do_let_it_ride(self, a: LetItRide) -> None:
        self._ride(a.seat, a.wager, "let it ride")

    def _ride(self, seat: int, wager: int, detail: str) -> None:
        self.seats[seat].decisions[NUMBER_WORDS[wager]] = "let it ride"
        self._effect("let it ride", seat, amount=self.seats[seat].wagers[NUMBER_WORDS[wager]],
                     detail=f"wager {wager}: {detail} ({self.cite('1')})")  # fmt: skip

    def _deem(self, seat: int, what: str) -> None:
        """A player whose time ran out did not take the wager back: it rides (18.1 "Let it
        ride")."""
        wager = 1 if what == "first wager" else 2
        self._ride(seat, wager, "left to ride: decision time ran out")

    # ----------------------------------------------------------------- turning the community cards
    def _check_turn(self, a: TurnCard) -> None:
        if self.phase not in ELECTION_OF:
            raise FeltError(
                "the dealer turns a community card once the cards are dealt and every player has "
                f"decided on the wager it closes ({self.cite('10')}); the round is at {self.phase}"
            )
        self._refuse_while_pending(f"turn community card {self.turned + 1} ({self.cite('10')})")

    def _do_turn(self, a: TurnCard) -> None:
        self.turned += 1
        card = self.community[self.turned - 1]
        self._effect("turn", None, (card,), detail=f"community card {self.turned} face up")
        self.phase = Phase.SECOND if self.turned == 1 else Phase.REVEALED

    # ----------------------------------------------------------------- settlement (18.10, 18.11)
    def _check_reveal(self, a: Reveal) -> None:
        raise FeltError(
            "Let It Ride has no dealer's hand to reveal: the dealer turns the community cards "
            '({"dealer": "turn"})'
        )

    def _check_settle(self, a: Settle) -> None:
        if self.phase is not Phase.REVEALED:
            raise FeltError(
                "wagers are settled once both community cards are face up "
                f"({self.cite('10')}); the round is at {self.phase}"
            )

    def outcomes(self, spot: Spot) -> list[tuple[str, str, int, str]]:
        """How each wager of ``spot`` still on the layout is settled: (wager, ``win`` or
        ``lose``, the win before the payout limit, the odds); wagers 1 to 3 on the pay table's
        line of the five-card hand (18.11), the bonus on its own (18.6A), the three-card bonus
        on the player's three cards (18.6B)."""
        cfg = self.config
        hand = self.hand_of(spot)
        line = pay_hand(hand)
        out: list[tuple[str, str, int, str]] = []
        for wager in WAGERS:
            stake = spot.wagers.get(wager)
            if stake is None:
                continue
            odds: Fraction | None = None
            if wager in MAIN:
                odds = None if line is None else cfg.pays[line]
            elif wager == "bonus" and cfg.bonus is not None:
                name = bonus_hand(hand, tuple(cfg.bonus.pays))
                odds = None if name is None else cfg.bonus.pays[name]
            elif wager == "three_card_bonus" and cfg.three_card_bonus is not None:
                odds = cfg.three_card_bonus.pays.get(three_card_hand(spot.cards))
            if odds is None:
                out.append((wager, "lose", 0, ""))
            else:
                out.append((wager, "win", _win(stake, odds), odds_text(odds)))
        return out

    def limit_cuts(self, plan: list[tuple[str, str, int, str]]) -> dict[str, int]:
        """The payout limit (18.11) on what one hand's three wagers win together: the excess
        withheld from the third wager first, then the second, then the first; the bonus wagers
        are paid in full."""
        limit = self.config.payout_limit
        wins = {w: win for w, outcome, win, _ in plan if w in MAIN and outcome == "win"}
        excess = 0 if limit is None else max(0, sum(wins.values()) - limit)
        cuts: dict[str, int] = {}
        for wager in reversed(MAIN):
            cut = min(excess, wins.get(wager, 0))
            if cut:
                cuts[wager] = cut
            excess -= cut
        return cuts

    def _do_settle(self, a: Settle) -> None:
        """Losing wagers collected first, then winners paid, each from the dealer's right
        (18.10, 18.11); the hands, then the community cards, then the stub to the rack."""
        order = self.settle_order()
        plans = {s.number: self.outcomes(s) for s in order}
        cuts = {n: self.limit_cuts(p) for n, p in plans.items()}
        for kind in ("lose", "win"):
            for spot in order:
                hand = self.hand_of(spot)
                for wager, outcome, win, odds in plans[spot.number]:
                    if outcome != kind:
                        continue
                    clause, shown = self._basis(wager, spot, hand)
                    if outcome == "lose":
                        self._line(spot, wager, "lose", clause, hand=shown)
                    else:
                        cut = cuts[spot.number].get(wager, 0)
                        self._line(spot, wager, "win", clause, win=win - cut, odds=odds,
                                   hand=shown, reduction=cut)  # fmt: skip
        for spot in order:
            spot.status = "settled"
            self.rack.put(f"seat {spot.number}", spot.cards)
            self._effect("rack", spot.number, spot.cards, detail="hand turned over and collected")
        self._close_settlement()

    def _basis(self, wager: str, spot: Spot, hand: list[Card]) -> tuple[str, str]:
        """The clause a wager is settled by and the hand it is settled on, in words."""
        if wager == "three_card_bonus":
            return self.cite("6B"), f"three cards: {three_card_hand(spot.cards)}"
        clause = self.cite("6A") if wager == "bonus" else f"{self.cite('10')}, {self.cite('11')}"
        return clause, describe(hand)

    def _close_settlement(self) -> None:
        """After the hands: the community cards, then the stub, to the rack; the round
        complete."""
        self.rack.put("community cards", self.community)
        self._effect("rack", None, self.community, detail="community cards")
        self._stub_to_rack("stub")
        self.phase = Phase.COMPLETE

    # ----------------------------------------------------------------- void
    def _void_all(self, clause: str, reason: str) -> None:
        """Every hand void: every wager still on the layout returned, the bonus wagers too; the
        cards to the rack (18.12, title only)."""
        for spot in self.settle_order():
            for wager in [w for w in WAGERS if w in spot.wagers]:
                self._line(spot, wager, "void", clause, hand=reason)
            spot.status = "void"
            self.rack.put(f"seat {spot.number} void hand", spot.cards)
        if self.community:
            self.rack.put("community cards", self.community)
        if self.shoe.remaining():
            self._stub_to_rack("stub")
        self.void_reason = f"{reason} ({clause}); the cards are reshuffled"
        self.phase = Phase.VOID
        self._effect("void", None, detail=self.void_reason)

    def cards_accounted(self) -> list[Card]:
        """Every card in the rack (the burn card among them), on the layout or in the shoe."""
        layout: list[Card] = []
        if not self.finished:
            for spot in self.seats.values():
                layout += spot.cards
            layout += self.community
        return self.rack.cards() + layout + list(self.shoe.order[self.shoe.position :])

    # ----------------------------------------------------------------- irregularities (18.12)
    def _check_community_card_exposed(self, a: CommunityCardExposed) -> None:
        if a.card not in (1, 2):
            raise FeltError(f"card must be 1 or 2 (the community cards), got {a.card}")
        if len(self.community) < 2 or self.phase not in (*ELECTION_OF, Phase.REVEALED):
            raise FeltError(
                "no community card is dealt yet (the round is at "
                f"{self.phase}): a card seen before the deal is a card found face up "
                f"(face_up_card, {self.cite('12')})"
            )
        if a.card <= self.turned:
            raise FeltError(f"community card {a.card} is already face up")

    def _do_community_card_exposed(self, a: CommunityCardExposed) -> None:
        """A community card exposed before its moment: no player may decide with it seen early,
        and the house keeps no wager of a round whose information leaked: every hand void, every
        wager returned (18.12, title only; felt's decision).  The next card exposed once every
        decision it closes is made has come at its moment: it stands as turned and the round goes
        on, for nothing was learned early."""
        if a.card == self.turned + 1 and self.phase in ELECTION_OF and not self.pending():
            self._do_turn(TurnCard())
            self._effect(
                "exposed", None, detail=f"community card {a.card} exposed at its moment: turned"
            )
            return
        raise VoidAll(
            self.cite("12"),
            f"community card {a.card} was exposed before the dealer turned it",
        )

    def _check_misdeal_count(self, a: Misdeal) -> None:
        """A misdeal is a wrong count: three, the right one, is none (18.12)."""
        if a.cards == CARDS:
            what = "the community area" if a.seat is None else f"seat {a.seat}"
            raise FeltError(
                f"a misdeal is a wrong number of cards; three is the right number to {what} "
                f"({self.cite('12')})"
            )

    def _check_shuffler_jam(self, a: ShufflerJam) -> None:
        if self.config.shuffling == "manual":
            raise FeltError("this table shuffles by hand: there is no shuffler to jam")
        if self.phase not in (Phase.BETTING, Phase.CLOSED):
            raise FeltError(
                f"the shuffler jams while it shuffles, before the deal ({self.cite('12')}); "
                f"the round is at {self.phase}"
            )
        super()._check_shuffler_jam(a)
