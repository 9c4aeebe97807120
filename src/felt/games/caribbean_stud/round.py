"""A round of Caribbean Stud Poker by N.J.A.C. 19:47-16 as dealt in New Jersey.

The seed text gives 16.1 to 16.5(b)7: the wagers and the qualifying hand as defined terms (16.1),
the deck (16.2), the shuffle, the cut with the cover card and the supervisor's recut (16.4) and the
rankings (16.5).  What 16.6 to 16.13 say (titles only) is taken from the public descriptions named
in docs/interpretations.md ("Caribbean Stud Poker"):

- A player places an ante within the table's limits and, where the table offers it, the
  progressive wager of the table's one amount with it (16.6, 16.11).  When wagers close ("No more
  bets") each progressive wager leaves the layout: the rate's share (floored to the cent) onto the
  progressive meter, the rest to the house; it is not returned unless the round is void (then
  the house returns it).
- Cards are dealt one at a time, face down, to each position with a wager from the dealer's left
  and then to the dealer, five times round; the dealer's last card is dealt face up, the four
  before it are the hole cards (16.7-16.9, titles only; the order of the public descriptions named
  in docs/interpretations.md).
- Each player then bets (a bet wager of exactly twice the ante, 16.1 "Bet wager") or folds,
  forfeiting the ante and any progressive wager (16.1 "Fold", 16.10).
- The dealer reveals.  A hand below A-K-4-3-2 does not qualify (16.1 "Qualifying hand"): the ante
  wins 1 to 1 and the bet is returned.  Otherwise the higher hand wins: a player who beats the
  dealer is paid the ante 1 to 1 and the bet by the pay table on the player's own hand; the
  dealer's higher hand takes both; an exact tie returns both (16.10, 16.12).  What one hand's
  ante and bet win in a round is capped by the table's payout limit (16.12), the reduction
  falling on the bet.
- A player who bet and holds a progressive payout hand (16.1) is paid on it whatever the dealer
  holds (16.11): fixed amounts by the house, percentages off the meter (``meter``, carried by the
  settlement action, is the meter as it stood when the settlement was recorded), seats in
  settlement order, royal flushes sharing the meter, which the house then resets to its seed.

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
from felt.games.caribbean_stud.actions import (
    Bet,
    CutCards,
    DealerCardExposed,
    Fold,
    Settle,
    Wagers,
)
from felt.games.caribbean_stud.config import (
    EDITION,
    CaribbeanConfig,
    ProgressiveSettings,
    percent_text,
    rules,
)
from felt.games.caribbean_stud.hand import describe, hand_key, hand_name, qualifies
from felt.rounds.actions import Action, Deal, Misdeal, NoMoreBets, Reveal, ShufflerJam
from felt.rounds.actions import Settle as SharedSettle
from felt.rounds.engine import (
    HOUSE,
    LAYOUT,
    PROGRESSIVE,
    SettlementLine,
    VoidAll,
    check_deck,
    seat_party,
)
from felt.rounds.stud import StudPosition, StudRound, card_count

WAGERS = ("ante", "bet", "progressive")
"""The wagers a position may have on the layout, in the order a statement lists them."""
CARDS = 5
"""Cards dealt to each position and to the dealer (16.1 "Hand")."""


class Phase(StrEnum):
    """Where a Caribbean Stud Poker round stands."""

    BETTING = "betting"
    CUT_DONE = "cut done"
    """The cards are cut (16.4(c)); wagers are still taken."""
    RECUT = "recut"
    """A supervisor required a recut (16.4(d)); the dealer cuts again before any card is dealt."""
    CLOSED = "closed"
    """ "No more bets" announced: progressive wagers gone to the meter; the cards to be dealt."""
    DECISIONS = "decisions"
    """All cards dealt; each player bets or folds (16.1 "Bet wager", "Fold")."""
    REVEALED = "revealed"
    """The dealer's hole cards are turned over; the wagers are to be settled."""
    COMPLETE = "complete"
    VOID = "void"


@dataclass
class Spot(StudPosition):
    """One betting position: its wagers on the layout, what was placed, its five cards."""

    decision: str | None = None
    """``bet`` or ``fold`` once decided; None before."""
    status: str = "in"
    """``in``, ``folded``, ``settled`` (the hand turned over and paid) or ``void``."""
    progressive: int = 0
    """The progressive wager once wagers closed (it left the layout for the meter and the house);
    0: none, or not yet closed (then it is in :attr:`wagers`)."""

    def hand_cards(self) -> list[Card]:
        """The five cards the position plays."""
        return list(self.cards)


@dataclass(frozen=True)
class ProgressivePayment:
    """One progressive payout of a settlement: who, on what hand, how it was figured, how much."""

    seat: int
    hand: str
    amount: int
    source: str
    """:data:`HOUSE` (a fixed amount) or :data:`PROGRESSIVE` (a share of the meter)."""
    basis: str
    """How the amount was figured, in words: ``$100.00``, ``10% of the meter $12,000.00``."""
    meter_before: int
    """The meter as it stood when the payment was figured."""


def progressive_payments(
    order: list[tuple[int, str]], meter: int, settings: ProgressiveSettings
) -> tuple[list[ProgressivePayment], list[int], int]:
    """The progressive payouts of a settlement (16.11): ``order`` the seats with a progressive
    wager that bet, in settlement order, with their hands; ``meter`` the meter as it stood.

    Fixed amounts come from the house.  A percentage is of the meter as it stands when that seat
    is paid, floored to the cent.  Seats holding a royal flush share equally the meter as it stood
    when the first of them is paid (odd cents one each to the earlier seats), all paid then; the
    house then resets the meter to its seed, and any later percentage is of the reset meter.
    Returns the payments in order, the resets (each the seed, in order), and the meter after."""
    out: list[ProgressivePayment] = []
    resets: list[int] = []
    m = meter
    royals = [seat for seat, hand in order if hand == "royal flush" and hand in settings.percent]
    for seat, hand in order:
        if hand in settings.fixed:
            amount = settings.fixed[hand]
            out.append(ProgressivePayment(seat, hand, amount, HOUSE, f"${dollars(amount)}", m))
        elif hand == "royal flush" and seat in royals:
            if seat != royals[0]:
                continue  # paid with the first royal flush
            pot = _floor(m * settings.percent[hand])
            base, odd = divmod(pot, len(royals))
            what = f"{percent_text(settings.percent[hand])} of the meter ${dollars(m)}"
            if len(royals) > 1:
                what += f", shared by {len(royals)} royal flushes"
            for i, holder in enumerate(royals):
                out.append(ProgressivePayment(holder, hand, base + (i < odd), PROGRESSIVE, what, m))
            m -= pot
            resets.append(settings.seed)
            m += settings.seed
        elif hand in settings.percent:
            amount = _floor(m * settings.percent[hand])
            what = f"{percent_text(settings.percent[hand])} of the meter ${dollars(m)}"
            out.append(ProgressivePayment(seat, hand, amount, PROGRESSIVE, what, m))
            m -= amount
    return out, resets, m


def stacked_deck(hands: Sequence[Sequence[Card]], dealer: Sequence[Card]) -> tuple[Card, ...]:
    """The deck whose deal gives ``hands`` (five cards each, to the positions with a wager in
    position order) and the dealer's five (the last face up), every other card after them in
    order: the deal goes one card at a time round the table, five times (:meth:`CaribbeanRound._do_deal`).

    >>> from felt.core.cards import parse_cards
    >>> [str(c) for c in stacked_deck([parse_cards("As Ks Qs Js Ts")], parse_cards("2c 3d 4h 5s 7c"))[:4]]
    ['As', '2c', 'Ks', '3d']
    """
    rows = [list(h) for h in (*hands, dealer)]
    if any(len(r) != CARDS for r in rows):
        raise FeltError("each hand and the dealer's are five cards")
    given = [r[i] for i in range(CARDS) for r in rows]
    return check_deck((*given, *(c for c in ALL_CARDS if c not in given)))


def _floor(value: Fraction) -> int:
    return value.numerator // value.denominator


@dataclass
class CaribbeanRound(StudRound):
    """One round of Caribbean Stud Poker; see the module docstring."""

    config: CaribbeanConfig
    deck_name: str = "A"
    """Which deck is in play: ``A``, or ``A``/``B`` alternating at a two-deck table (16.2(b))."""
    phase: Phase = Phase.BETTING
    seats: dict[int, Spot] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    """The four hole cards, then the face-up card."""
    dealer_revealed: bool = False
    cut_positions: list[int] = field(default_factory=list)
    """Where the dealer cut this round, the recuts after the first (16.4(c), (d))."""
    recut_from: str | None = None
    """The phase a required recut returns to once made."""
    meter_used: int | None = None
    """The meter the settlement was figured on (from its action, so replay is exact)."""
    meter_after: int | None = None
    """The meter once this round's progressive payouts and resets were made."""
    pending_misdeals: dict[int | None, int] = field(default_factory=dict)
    face_up_clause: ClassVar[str] = "13"
    drawn_in_error_clause: ClassVar[str] = "13"
    shuffler_jam_clause: ClassVar[str] = "13"
    seat_label: ClassVar[str] = "seat"
    position_noun: ClassVar[str] = "position"
    WAGERS: ClassVar[tuple[str, ...]] = WAGERS
    cards_per_position: ClassVar[int] = CARDS
    dealer_card_count: ClassVar[int] = CARDS
    misdeal_clause: ClassVar[str] = "13"
    cut_first_clause: ClassVar[str] = "4(b)"
    cover_cut_clauses: ClassVar[dict[str, tuple[str, ...]]] = {
        "no cut": ("4(b)1",), "when": ("4(c)", "4(d)"), "position": ("4(c)1ii",),
        "cut": ("4(c)1",), "recut": ("4(d)",),
    }  # fmt: skip
    CUT_STEP: ClassVar[type[Action]] = CutCards
    DEALER_STEPS: ClassVar[dict[str, type[Action]]] = {
        Phase.DECISIONS: Reveal,
        Phase.RECUT: CutCards,
    }
    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "bet or fold": ("to fold: the ante and any progressive wager forfeited", "1"),
    }

    def seat_count(self) -> int:
        """Betting positions at this table."""
        return self.config.seats

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-16.<section>``."""
        return rules().cite(section)

    def must_stay_seated(self, seat: int) -> str:
        """A hand is its wagering player's until the round is settled (16.1 "Round of play")."""
        return (
            f"seat {seat}: your wagers are in action until the round is settled ({self.cite('1')}); "
            "the position stays yours until then"
        )

    @property
    def title(self) -> str:
        """19:47-16."""
        return rules().title

    @property
    def edition_name(self) -> str:
        """The one text of this game."""
        return EDITION

    @property
    def rack_clause(self) -> str:
        """16.10 (title only): the cards collected as the wagers are settled."""
        return self.cite("10")

    @property
    def up_card(self) -> Card | None:
        """The dealer's face-up card, once dealt."""
        return self.dealer_cards[4] if len(self.dealer_cards) == CARDS else None

    # ----------------------------------------------------------------- pending and dealer steps
    def pending(self) -> list[tuple[int, str]]:
        """Each player who has neither bet nor folded, once the cards are dealt."""
        if self.phase is not Phase.DECISIONS:
            return []
        return [(s.number, "bet or fold") for s in self.in_play() if s.decision is None]

    def window_actions(self) -> tuple[type[Action], ...]:
        """The decisions the current phase is for."""
        return (Bet, Fold, DealerCardExposed) if self.phase is Phase.DECISIONS else ()

    def next_dealer_action(self) -> Action | None:
        """The shared stud steps, with this game's settlement (the meter left for whoever runs
        the table to fill in)."""
        step = super().next_dealer_action()
        if isinstance(step, SharedSettle) and not isinstance(step, Settle):
            return Settle()
        return step

    def cards_to_come(self) -> bool:
        """Cards remain to be dealt until the deal (not while a recut is due)."""
        return self.phase is not Phase.RECUT and super().cards_to_come()

    def progressive_in_play(self) -> list[Spot]:
        """Positions whose progressive wager can still be paid (they have not folded)."""
        return [s for s in self.in_play() if s.progressive or "progressive" in s.wagers]

    # ----------------------------------------------------------------- wagers (16.6, 16.11)
    def _check_wager(self, a: Wagers) -> None:
        cfg = self.config
        where = f"seat {a.seat}"
        if self.phase not in (Phase.BETTING, Phase.CUT_DONE):
            raise FeltError(f'{where}: no wager after "No more bets" ({self.cite("6")})')
        if a.seat in self.seats:
            raise FeltError(f"{where} already has its wagers this round")
        if not cfg.minimum <= a.ante <= cfg.maximum:
            raise FeltError(
                f"{where}: ante {dollars(a.ante)} is outside the table limits "
                f"{dollars(cfg.minimum)} to {dollars(cfg.maximum)}; an ante is needed to play "
                f"({self.cite('1')})"
            )
        if a.progressive:
            if cfg.progressive is None:
                raise FeltError(f"{where}: this table offers no progressive wager")
            if a.progressive != cfg.progressive.wager:
                raise FeltError(
                    f"{where}: the progressive wager is {dollars(cfg.progressive.wager)} exactly, "
                    f"got {dollars(a.progressive)} ({self.cite('11')})"
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
        placed = {k: v for k, v in (("ante", a.ante), ("progressive", a.progressive)) if v}
        self.seats[a.seat] = Spot(a.seat, a.player or f"seat {a.seat}", dict(placed), placed)
        for wager, amount in placed.items():
            self._place(a.seat, wager, amount)

    # ----------------------------------------------------------------- shuffle and cut (16.4)
    def cover_cut_least(self) -> int:
        """At least 10 cards from the top (16.4(c)1ii; the rules data)."""
        return rules().cut_min_from_top

    # ----------------------------------------------------------------- wagers close
    def _do_no_more_bets(self, a: NoMoreBets) -> None:
        """Wagers close: each progressive wager leaves the layout, the rate's share (floored to
        the cent) onto the meter and the rest to the house (16.12, title only)."""
        super()._do_no_more_bets(a)
        settings = self.config.progressive
        for spot in self.in_play():
            stake = spot.wagers.pop("progressive", 0)
            if not stake or settings is None:
                continue
            spot.progressive = stake
            share = _floor(stake * settings.rate)
            self.ledger.move(LAYOUT, PROGRESSIVE, share, "progressive wager to the meter")
            self.ledger.move(LAYOUT, HOUSE, stake - share, "progressive wager to the house")
            self._effect("progressive", spot.number, amount=share,
                         detail=f"progressive wager {dollars(stake)}: {dollars(share)} onto the "
                         f"meter at {percent_text(settings.rate)} ({self.cite('12')})")  # fmt: skip

    # ----------------------------------------------------------------- dealing (16.7-16.9)
    def _do_deal(self, a: Deal) -> None:
        """One card at a time, face down, to each position from the dealer's left and then to
        the dealer, five times round; the dealer's last card face up (16.7-16.9, titles only;
        the public descriptions).  A misdeal given deals its wrong count and voids every hand
        once the deal is done (16.13)."""
        spots = self.in_play()
        counts = {s.number: self.pending_misdeals.pop(s.number, CARDS) for s in spots}
        dealer = self.pending_misdeals.pop(None, CARDS)
        for i in range(max([dealer, *counts.values()])):
            for spot in spots:
                if i < counts[spot.number]:
                    self._deal_cards(spot.cards, 1, spot.number, "face down")
            if i < dealer:
                face = "face up" if i == CARDS - 1 else "face down"
                self._deal_cards(self.dealer_cards, 1, None, f"dealer, {face}")
        for number, count in counts.items():
            if count != CARDS:
                raise VoidAll(self.cite("13"), f"seat {number} was dealt {card_count(count)}")
        if dealer != CARDS:
            raise VoidAll(self.cite("13"), f"the dealer was dealt {card_count(dealer)}")
        self.phase = Phase.DECISIONS

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
        return sum(given.get(n, CARDS) for n in numbers) + given.get(None, CARDS)

    # ----------------------------------------------------------------- bet or fold (16.1)
    def _deciding(self, number: int) -> Spot:
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                f"seat {number}: a player bets or folds after all cards are dealt and before the "
                f"dealer's hole cards are exposed ({self.cite('1')}); the round is at {self.phase}"
            )
        spot = self.seats.get(number)
        if spot is None or spot.status != "in":
            raise FeltError(f"seat {number} has no hand in this round")
        if spot.decision is not None:
            raise FeltError(
                f"seat {number} has already {'bet' if spot.decision == 'bet' else 'folded'}"
            )
        return spot

    def _check_bet(self, a: Bet) -> None:
        self._deciding(a.seat)

    def _do_bet(self, a: Bet) -> None:
        spot = self.seats[a.seat]
        amount = 2 * spot.placed["ante"]
        spot.decision = "bet"
        spot.wagers["bet"] = spot.placed["bet"] = amount
        self._place(a.seat, "bet", amount)

    def _check_fold(self, a: Fold) -> None:
        self._deciding(a.seat)

    def _do_fold(self, a: Fold) -> None:
        self._fold(self.seats[a.seat], "fold")

    def _fold(self, spot: Spot, why: str) -> None:
        """16.1 "Fold": the ante and any progressive wager forfeited, the cards to the rack
        unexposed."""
        spot.decision = "fold"
        self._line(spot, "ante", "forfeit", self.cite("1"), hand=why)
        if spot.progressive:
            self._progressive_line(spot, "forfeit", why)
        spot.status = "folded"
        self.rack.put(f"seat {spot.number} folded", spot.cards)
        self._effect("rack", spot.number, (), detail="folded hand, not exposed")

    def _deem(self, seat: int, what: str) -> None:
        """A player whose time ran out placed no bet wager: the hand is folded
        (docs/interpretations.md, "A dealer step never cuts off an election")."""
        self._fold(self.seats[seat], "fold: decision time ran out")

    def _progressive_line(self, spot: Spot, outcome: str, why: str) -> None:
        """The statement line of a progressive wager that left the layout when wagers closed: kept
        (``lose``, ``forfeit``: no chips move, they already went to the meter and the house) or
        ``void`` (returned by the house: the meter is never decreased but by a payout,
        13:69D-1.52(f))."""
        stake = spot.progressive
        if outcome == "void":
            self.ledger.move(HOUSE, seat_party(spot.number), stake, "progressive wager returned")
        amount = 0 if outcome == "void" else -stake
        clause = self.cite("13") if outcome == "void" else self.cite("11")
        self._record(SettlementLine(spot.number, "progressive", stake, outcome, amount, clause,
                                    hand=why))  # fmt: skip
        spot.progressive = 0

    def _record(self, line: SettlementLine) -> None:
        self.lines.append(line)
        self._new_lines.append(line)

    # ----------------------------------------------------------------- reveal and settle (16.10)
    def _check_reveal(self, a: Reveal) -> None:
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                f"the dealer reveals once the cards are dealt (the round is at {self.phase})"
            )
        self._refuse_while_pending(f"expose the hole cards ({self.cite('1')})")

    def _do_reveal(self, a: Reveal) -> None:
        self.dealer_revealed = True
        self.phase = Phase.REVEALED
        verdict = "qualifies" if self.dealer_qualifies() else "does not qualify (below A-K-4-3-2)"
        self._effect("reveal", None, self.dealer_cards[:4],
                     detail=f"dealer: {describe(self.dealer_cards)}; {verdict}")  # fmt: skip

    def dealer_qualifies(self) -> bool:
        """16.1 "Qualifying hand": A-K-4-3-2 or better."""
        return qualifies(self.dealer_cards, rules().qualifier)

    def _check_settle(self, a: SharedSettle) -> None:
        if self.phase is not Phase.REVEALED:
            raise FeltError(
                f"wagers are settled once the dealer's hand is revealed ({self.cite('10')})"
            )
        meter = getattr(a, "meter", None)
        if meter is None and self.progressive_in_play():
            raise FeltError(
                "the settlement pays progressive wagers off the meter: give the meter as it "
                'stands now ({"dealer": "settle", "meter": "12345.67"}) '
                f"({self.cite('11')})"
            )
        if meter is not None and meter < 0:
            raise FeltError(f"the meter cannot be below zero, got {dollars(meter)}")

    def outcomes(self, spot: Spot) -> list[tuple[str, str, Fraction | None]]:
        """How the ante and bet of a position that bet are settled against the revealed dealer's
        hand: (wager, outcome, odds "to 1" for a win)."""
        if not self.dealer_qualifies():
            return [("ante", "win", Fraction(1)), ("bet", "push", None)]
        mine, theirs = hand_key(spot.cards), hand_key(self.dealer_cards)
        if mine == theirs:
            return [("ante", "push", None), ("bet", "push", None)]
        if mine < theirs:
            return [("ante", "lose", None), ("bet", "lose", None)]
        return [
            ("ante", "win", Fraction(1)),
            ("bet", "win", self.config.bet_pays[hand_name(spot.cards)]),
        ]

    def _do_settle(self, a: SharedSettle) -> None:
        """Losing wagers collected first, then wagers returned, then winners paid, each from the
        dealer's right; then the progressive payouts in the same order (16.10, 16.11); the hands,
        then the dealer's, then the stub to the rack."""
        order = self.settle_order()
        plans = {s.number: self.outcomes(s) for s in order}
        dealer = f"dealer {describe(self.dealer_cards)}"
        if not self.dealer_qualifies():
            dealer += ", not qualifying"
        c10, c12 = self.cite("10"), self.cite("12")
        wins = {s.number: [_win(s.wagers[w], odds) if odds is not None else 0
                           for w, _, odds in plans[s.number]] for s in order}  # fmt: skip
        cuts = {n: self._limit_cuts(w) for n, w in wins.items()}
        for kinds in (("lose",), ("push",), ("win",)):
            for spot in order:
                shown = f"{describe(spot.cards)} v. {dealer}"
                plan = plans[spot.number]
                for (wager, outcome, odds), win, cut in zip(
                    plan, wins[spot.number], cuts[spot.number], strict=True
                ):
                    if outcome not in kinds:
                        continue
                    if outcome == "win":
                        clause = c10 if wager == "ante" else f"{c10}, {c12}"
                        self._line(spot, wager, "win", clause, win=win - cut,
                                   odds=_odds(odds), hand=shown, reduction=cut)  # fmt: skip
                    else:
                        self._line(spot, wager, outcome, c10, hand=shown)
        self._settle_progressive(order, getattr(a, "meter", None))
        for spot in order:
            spot.status = "settled"
            self.rack.put(f"seat {spot.number}", spot.cards)
            self._effect("rack", spot.number, spot.cards, detail="hand turned over and collected")
        self._close_settlement()

    def _limit_cuts(self, wins: list[int]) -> list[int]:
        """The payout limit (16.12) on what one hand's ante and bet win: the excess withheld,
        from the bet (paid last) first."""
        limit = self.config.payout_limit
        excess = 0 if limit is None else max(0, sum(wins) - limit)
        cuts = [0] * len(wins)
        for i in reversed(range(len(wins))):
            cuts[i] = min(excess, wins[i])
            excess -= cuts[i]
        return cuts

    def _settle_progressive(self, order: list[Spot], meter: int | None) -> None:
        """16.11: each progressive wager kept; the progressive payout hands paid (see
        :func:`progressive_payments`), each line saying how its amount was figured."""
        settings = self.config.progressive
        holders = [s for s in order if s.progressive]
        self.meter_used = meter
        if settings is None or not holders:
            self.meter_after = meter
            return
        assert meter is not None  # _check_settle refused a settlement without it
        for spot in holders:
            self._progressive_line(
                spot, "lose", f"{describe(spot.cards)}; the progressive wager is not returned"
            )
        plan, resets, after = progressive_payments(
            [(s.number, hand_name(s.cards)) for s in holders], meter, settings
        )
        c11 = self.cite("11")
        reset_done = 0
        for p in plan:
            who = seat_party(p.seat)
            self.ledger.move(p.source, who, p.amount, f"progressive {p.hand} paid")
            line = SettlementLine(p.seat, "progressive payout", settings.wager, "paid", p.amount,
                                  f"{c11}, {self.cite('12')}", p.basis, p.hand)  # fmt: skip
            self._record(line)
            self._effect("progressive payout", p.seat, amount=p.amount,
                         detail=f"{p.hand}: {p.basis}: {dollars(p.amount)}"
                         + (" from the meter" if p.source == PROGRESSIVE else " from the house"))  # fmt: skip
            if p.hand == "royal flush" and reset_done < len(resets) and p is _last_royal(plan):
                self.ledger.move(HOUSE, PROGRESSIVE, resets[reset_done], "meter reset")
                self._effect("meter reset", None, amount=resets[reset_done],
                             detail=f"the meter reset to its seed {dollars(resets[reset_done])} "
                             f"by the house ({c11})")  # fmt: skip
                reset_done += 1
        self.meter_after = after

    # ----------------------------------------------------------------- void
    def _void_all(self, clause: str, reason: str) -> None:
        """Every hand void: the ante and bet returned from the layout, a progressive wager that
        already left it returned by the house (16.13, title only)."""
        for spot in self.settle_order():
            if spot.progressive:
                self._progressive_line(spot, "void", reason)
        super()._void_all(clause, reason)

    # ----------------------------------------------------------------- irregularities (16.13)
    def _check_dealer_card_exposed(self, a: DealerCardExposed) -> None:
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                "a dealer's hole card exposed concerns the dealer's hand between the deal and the "
                f"reveal ({self.cite('13')}); the round is at {self.phase}"
            )

    def _do_dealer_card_exposed(self, a: DealerCardExposed) -> None:
        if not self.pending():
            self._effect(
                "irregularity",
                detail="a dealer's hole card exposed after every player decided: no effect "
                f"({self.cite('13')})",
            )
            return
        raise VoidAll(
            self.cite("13"), "a dealer's hole card was exposed before every player decided"
        )

    def _check_misdeal_count(self, a: Misdeal) -> None:
        """A misdeal is a wrong count: five cards, the right one, is none (16.13)."""
        if a.cards == CARDS:
            raise FeltError(
                f"a misdeal is a wrong number of cards; five is the right number ({self.cite('13')})"
            )

    def _check_shuffler_jam(self, a: ShufflerJam) -> None:
        if self.config.shuffling == "manual":
            raise FeltError("this table shuffles by hand: there is no shuffler to jam")
        if self.phase not in (Phase.BETTING, Phase.CLOSED):
            raise FeltError(
                f"the shuffler jams while it shuffles, before the deal ({self.cite('13')}); "
                f"the round is at {self.phase}"
            )
        super()._check_shuffler_jam(a)


def _win(stake: int, odds: Fraction) -> int:
    """What ``stake`` wins at ``odds`` to 1, floored to the cent."""
    return stake * odds.numerator // odds.denominator


def _odds(odds: Fraction | None) -> str:
    return "" if odds is None else f"{odds.numerator} to {odds.denominator}"


def _last_royal(plan: list[ProgressivePayment]) -> ProgressivePayment | None:
    royals = [p for p in plan if p.hand == "royal flush" and p.source == PROGRESSIVE]
    return royals[-1] if royals else None
