"""A round of Three Card Poker by N.J.A.C. 19:47-20 as dealt in New Jersey.

The seed text gives only the titles of 20.1-20.12; what each section says here is taken from the
public descriptions named in docs/interpretations.md ("Three Card Poker").  A player places an
ante, a pair plus wager, or both (20.6).  Three cards go to each position with a wager, from the
dealer's left, then three to the dealer, all face down, from one shuffled deck (20.2, 20.7-20.9).
Each player with an ante then plays (a play wager equal to the ante) or folds, forfeiting the ante
and any pair plus wager (20.10).  The dealer reveals: a hand below queen high does not qualify,
and the ante wins 1 to 1 with the play wager returned; otherwise the higher hand wins both wagers
1 to 1 and a tie returns both.  A player who played is paid the ante bonus on a straight or
better whatever the dealer holds; the pair plus wager is paid by its own table on the player's
three cards (20.11).  Irregularities (20.12) follow the other stud games' texts (19:47-17.11).

Positions are numbered 1 to ``seats`` from the dealer's left; the deal starts at 1, settlement at
the highest number (the dealer's right), as 19:47-17.8(b) and 17.9(c) order them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.core.money import dollars
from felt.core.paytable import Payout
from felt.games.three_card_poker.actions import (
    CutCards,
    DealerCardExposed,
    Fold,
    Play,
    Wagers,
)
from felt.games.three_card_poker.config import EDITION, ThreeCardConfig, rules
from felt.games.three_card_poker.hand import describe, hand_key, hand_name, qualifies
from felt.rounds.actions import Action, Deal, Misdeal, Reveal, Settle, ShufflerJam
from felt.rounds.engine import VoidAll
from felt.rounds.stud import StudPosition, StudRound, card_count

WAGERS = ("ante", "play", "pair plus")
"""The wagers a position may have in action, in the order a statement lists them."""


class Phase(StrEnum):
    """Where a Three Card Poker round stands."""

    BETTING = "betting"
    CUT_DONE = "cut done"
    """The cards are cut (20.5); wagers are still taken."""
    CLOSED = "closed"
    """ "No more bets" announced; the cards are to be dealt."""
    DECISIONS = "decisions"
    """All cards dealt; each player with an ante plays or folds (20.10)."""
    REVEALED = "revealed"
    """The dealer's hand is turned over; the wagers are to be settled."""
    COMPLETE = "complete"
    VOID = "void"


@dataclass
class Spot(StudPosition):
    """One betting position: its wagers still in action, what was placed, its three cards."""

    decision: str | None = None
    """``play`` or ``fold`` once the player with an ante has decided; None before (and for a
    position with a pair plus wager only, which has nothing to decide)."""
    status: str = "in"
    """``in``, ``folded``, ``settled`` (the hand turned over and paid) or ``void``."""

    def hand_cards(self) -> list[Card]:
        """The three cards the position plays."""
        return list(self.cards)

    @property
    def has_ante(self) -> bool:
        """Whether the position plays against the dealer."""
        return "ante" in self.placed


@dataclass
class ThreeCardRound(StudRound):
    """One round of Three Card Poker; see the module docstring."""

    config: ThreeCardConfig
    phase: Phase = Phase.BETTING
    seats: dict[int, Spot] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    dealer_revealed: bool = False
    cut_position: int | None = None
    """Where the dealer cut this round (None: not cut)."""
    pending_misdeals: dict[int | None, int] = field(default_factory=dict)
    face_up_clause: ClassVar[str] = "12"
    drawn_in_error_clause: ClassVar[str] = "12"
    shuffler_jam_clause: ClassVar[str] = "12"
    seat_label: ClassVar[str] = "seat"
    position_noun: ClassVar[str] = "position"
    WAGERS: ClassVar[tuple[str, ...]] = WAGERS
    cards_per_position: ClassVar[int] = 3
    dealer_card_count: ClassVar[int] = 3
    misdeal_clause: ClassVar[str] = "12"
    cut_first_clause: ClassVar[str] = "5"
    CUT_STEP: ClassVar[type[Action]] = CutCards
    DEALER_STEPS: ClassVar[dict[str, type[Action]]] = {Phase.DECISIONS: Reveal}
    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "play or fold": ("to fold: the ante and any pair plus wager forfeited", "10"),
    }

    def seat_count(self) -> int:
        """Betting positions at this table."""
        return self.config.seats

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-20.<section>``."""
        return rules().cite(section)

    def must_stay_seated(self, seat: int) -> str:
        """A hand is its wagering player's until the round is settled (20.6)."""
        return (
            f"seat {seat}: your wagers are in action until the round is settled ({self.cite('6')}); "
            "the position stays yours until then"
        )

    @property
    def title(self) -> str:
        """19:47-20."""
        return rules().title

    @property
    def edition_name(self) -> str:
        """The one text of this game."""
        return EDITION

    @property
    def rack_clause(self) -> str:
        """20.10: the cards collected as the wagers are settled."""
        return self.cite("10")

    # ----------------------------------------------------------------- pending and dealer steps
    def pending(self) -> list[tuple[int, str]]:
        """Each player with an ante who has neither played nor folded, once the cards are dealt."""
        if self.phase is not Phase.DECISIONS:
            return []
        return [(s.number, "play or fold") for s in self.in_play()
                if s.has_ante and s.decision is None]  # fmt: skip

    def window_actions(self) -> tuple[type[Action], ...]:
        """The decisions the current phase is for."""
        return (Play, Fold, DealerCardExposed) if self.phase is Phase.DECISIONS else ()

    # ----------------------------------------------------------------- wagers (20.6)
    def _check_wager(self, a: Wagers) -> None:
        cfg = self.config
        where = f"seat {a.seat}"
        if self.phase not in (Phase.BETTING, Phase.CUT_DONE):
            raise FeltError(f'{where}: no wager after "No more bets" ({self.cite("6")})')
        if a.seat in self.seats:
            raise FeltError(f"{where} already has its wagers this round")
        if a.ante == 0 and a.pair_plus == 0:
            raise FeltError(
                f"{where}: place an ante, a pair plus wager, or both ({self.cite('6')})"
                if cfg.pair_plus
                else f"{where}: place an ante ({self.cite('6')})"
            )
        if a.ante and not cfg.minimum <= a.ante <= cfg.maximum:
            raise FeltError(
                f"{where}: ante {dollars(a.ante)} is outside the table limits "
                f"{dollars(cfg.minimum)} to {dollars(cfg.maximum)}"
            )
        if a.pair_plus and not cfg.pair_plus:
            raise FeltError(f"{where}: this table does not offer the pair plus wager")
        if a.pair_plus and not cfg.pair_plus_minimum <= a.pair_plus <= cfg.pair_plus_maximum:
            raise FeltError(
                f"{where}: pair plus wager {dollars(a.pair_plus)} is outside the table limits "
                f"{dollars(cfg.pair_plus_minimum)} to {dollars(cfg.pair_plus_maximum)}"
            )
        self._check_room_for(a.seat)
        player = a.player or where
        mine = sorted(n for n, s in self.seats.items() if s.player == player)
        if mine:
            if not cfg.two_positions:
                raise FeltError(
                    f"{player} already wagers at seat {mine[0]}; this table allows one position "
                    f"per player ({self.cite('6')})"
                )
            if len(mine) >= 2 or abs(mine[0] - a.seat) != 1:
                raise FeltError(
                    f"{player} may wager at two adjacent positions at most: seat {mine[0]} and "
                    f"seat {a.seat} are not allowed together ({self.cite('6')})"
                )

    def _do_wager(self, a: Wagers) -> None:
        placed = {k: v for k, v in (("ante", a.ante), ("pair plus", a.pair_plus)) if v}
        self.seats[a.seat] = Spot(a.seat, a.player or f"seat {a.seat}", dict(placed), placed)
        for wager, amount in placed.items():
            self._place(a.seat, wager, amount)

    # ----------------------------------------------------------------- shuffle and cut (20.5)
    def _check_cut(self, a: CutCards) -> None:
        r = rules()
        if not self.config.cut_required:
            raise FeltError(
                f"no cut: the shuffler inserted the cards directly into the shoe ({self.cite('5')})"
            )
        if self.phase is not Phase.BETTING:
            raise FeltError(
                f'the cards are cut once, before "No more bets" ({self.cite("5")}); '
                f"the round is at {self.phase}"
            )
        self._check_cut_position(a.position, r.cut_min_from_end, "5")

    def _do_cut(self, a: CutCards) -> None:
        self._cut_shoe(a.position)
        self.cut_position = a.position
        self._effect("cut", None, amount=a.position,
                     detail=f"the dealer cuts {a.position} cards from the top ({self.cite('5')})")  # fmt: skip
        self.phase = Phase.CUT_DONE

    # ----------------------------------------------------------------- dealing (20.7-20.9)
    def _do_deal(self, a: Deal) -> None:
        self._deal_positions("face down")  # three cards face down to each position
        count = self.pending_misdeals.pop(None, 3)
        self._deal_cards(self.dealer_cards, count, None, "dealer, face down")
        if count != 3:
            raise VoidAll(self.cite("12"), f"the dealer was dealt {card_count(count)}")
        self.phase = Phase.DECISIONS

    # ----------------------------------------------------------------- play or fold (20.10)
    def _deciding(self, number: int) -> Spot:
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                f"seat {number}: a player plays or folds once the cards are dealt and before the "
                f"dealer reveals ({self.cite('10')}); the round is at {self.phase}"
            )
        spot = self.seats.get(number)
        if spot is None or spot.status != "in":
            raise FeltError(f"seat {number} has no hand in this round")
        if not spot.has_ante:
            raise FeltError(
                f"seat {number} has a pair plus wager only: it has no ante, so nothing to play "
                f"or fold ({self.cite('6')})"
            )
        if spot.decision is not None:
            raise FeltError(
                f"seat {number} has already {'played' if spot.decision == 'play' else 'folded'}"
            )
        return spot

    def _check_play(self, a: Play) -> None:
        self._deciding(a.seat)

    def _do_play(self, a: Play) -> None:
        spot = self.seats[a.seat]
        amount = spot.placed["ante"]
        spot.decision = "play"
        spot.wagers["play"] = spot.placed["play"] = amount
        self._place(a.seat, "play", amount)

    def _check_fold(self, a: Fold) -> None:
        self._deciding(a.seat)

    def _do_fold(self, a: Fold) -> None:
        self._fold(self.seats[a.seat], "fold")

    def _fold(self, spot: Spot, why: str) -> None:
        """20.10: the ante and any pair plus wager forfeited, the cards to the rack unexposed."""
        spot.decision = "fold"
        for wager in [w for w in WAGERS if w in spot.wagers]:
            self._line(spot, wager, "forfeit", self.cite("10"), hand=why)
        spot.status = "folded"
        self.rack.put(f"seat {spot.number} folded", spot.cards)
        self._effect("rack", spot.number, (), detail="folded hand, not exposed")

    def _deem(self, seat: int, what: str) -> None:
        """A player whose time ran out has placed no play wager: the hand is folded
        (docs/interpretations.md, "A dealer step never cuts off an election")."""
        self._fold(self.seats[seat], "fold: decision time ran out")

    # ----------------------------------------------------------------- reveal and settle (20.10)
    def _check_reveal(self, a: Reveal) -> None:
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                f"the dealer reveals once the cards are dealt (the round is at {self.phase})"
            )
        self._refuse_while_pending(f"reveal the dealer's hand ({self.cite('10')})")

    def _do_reveal(self, a: Reveal) -> None:
        self.dealer_revealed = True
        self.phase = Phase.REVEALED
        qualified = qualifies(self.dealer_cards, rules().qualifier)
        self._effect("reveal", None, self.dealer_cards,
                     detail=f"dealer: {describe(self.dealer_cards)}; "
                     + ("qualifies" if qualified else "does not qualify (below queen high)"))  # fmt: skip

    def _check_settle(self, a: Settle) -> None:
        if self.phase is not Phase.REVEALED:
            raise FeltError(
                f"wagers are settled once the dealer's hand is revealed ({self.cite('10')})"
            )

    def outcomes(self, spot: Spot) -> list[tuple[str, str, Payout | None, str]]:
        """How each wager of ``spot`` is settled against the revealed dealer's hand: (wager,
        outcome, payout odds for a win, the clause), ante bonus included as wager ``ante bonus``
        with outcome ``paid``."""
        c10, c11 = self.cite("10"), self.cite("11")
        even = Payout(1, 1)
        out: list[tuple[str, str, Payout | None, str]] = []
        cards = spot.cards
        if "play" in spot.wagers:
            if not qualifies(self.dealer_cards, rules().qualifier):
                out += [("ante", "win", even, c10), ("play", "push", None, c10)]
            else:
                mine, theirs = hand_key(cards), hand_key(self.dealer_cards)
                result = "win" if mine > theirs else "push" if mine == theirs else "lose"
                out += [
                    (w, result, even if result == "win" else None, c10) for w in ("ante", "play")
                ]
            bonus = self.config.ante_bonus.get(hand_name(cards))
            if bonus is not None:
                out.append(("ante bonus", "paid", bonus, c11))
        if "pair plus" in spot.wagers:
            pays = self.config.pair_plus_table.get(hand_name(cards))
            out.append(("pair plus", "lose" if pays is None else "win", pays, c11))
        return out

    def _do_settle(self, a: Settle) -> None:
        """Losing wagers collected first, then wagers returned, then winners paid, each from the
        dealer's right (as 19:47-17.9 orders Double Down Stud); the hands, then the dealer's, then
        the stub to the rack."""
        order = self.settle_order()
        plans = {s.number: self.outcomes(s) for s in order}
        dealer = f"dealer {describe(self.dealer_cards)}"
        if not qualifies(self.dealer_cards, rules().qualifier):
            dealer += ", not qualifying"
        for kinds in (("lose",), ("push",), ("win", "paid")):
            for spot in order:
                hand = describe(spot.cards)
                for wager, outcome, payout, clause in plans[spot.number]:
                    if outcome not in kinds:
                        continue
                    shown = hand if wager in ("pair plus", "ante bonus") else f"{hand} v. {dealer}"
                    if outcome == "paid":
                        assert payout is not None
                        ante = spot.placed["ante"]
                        self._pay(spot, wager, ante, clause, win=payout.win(ante),
                                  odds=str(payout), hand=shown)  # fmt: skip
                    elif outcome == "win":
                        assert payout is not None
                        win = payout.win(spot.wagers[wager])
                        self._line(
                            spot, wager, "win", clause, win=win, odds=str(payout), hand=shown
                        )
                    else:
                        self._line(spot, wager, outcome, clause, hand=shown)
        for spot in order:
            spot.status = "settled"
            self.rack.put(f"seat {spot.number}", spot.cards)
            self._effect("rack", spot.number, spot.cards, detail="hand turned over and collected")
        self._close_settlement()

    # ----------------------------------------------------------------- irregularities (20.12)
    def _check_dealer_card_exposed(self, a: DealerCardExposed) -> None:
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                "a dealer's card exposed concerns the dealer's hand between the deal and the "
                f"reveal ({self.cite('12')}); the round is at {self.phase}"
            )

    def _do_dealer_card_exposed(self, a: DealerCardExposed) -> None:
        if not self.pending():
            self._effect(
                "irregularity",
                detail="a dealer's card exposed after every player decided: no effect "
                f"({self.cite('12')})",
            )
            return
        raise VoidAll(self.cite("12"), "a dealer's card was exposed before every player decided")

    def _check_misdeal_count(self, a: Misdeal) -> None:
        """A misdeal is a wrong count: three cards, the right one, is none (20.12)."""
        if a.cards == 3:
            raise FeltError(
                f"a misdeal is a wrong number of cards; three is the right number ({self.cite('12')})"
            )

    def _check_shuffler_jam(self, a: ShufflerJam) -> None:
        if self.config.shuffling == "manual":
            raise FeltError("this table shuffles by hand: there is no shuffler to jam")
        if self.phase is not Phase.BETTING:
            raise FeltError(
                f"the shuffler jams while it shuffles, before the cut and the deal ({self.cite('12')}); "
                f"the round is at {self.phase}"
            )
        super()._check_shuffler_jam(a)
