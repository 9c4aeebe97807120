"""A round of Double Down Stud by N.J.A.C. 19:47-17.2 to 17.11.

Each betting area gets one card face up; the dealer's area gets one card face down (the hole
card) and three face up, which complete every player's five-card hand (17.8(b)).  Before the hole
card is revealed a player may place a double down wager (17.8(c)).  A hand of a pair of fives or
less loses, sixes to tens push, jacks or better win by the pay table on the whole amount wagered
(17.9, 17.10).  Only what is particular to the game is here; the shared machinery is
:mod:`felt.rounds.stud`, :mod:`felt.rounds.round_core` and :mod:`felt.rounds.engine`.

Betting areas are numbered 1 to ``areas`` from the dealer's left: area 1 is "the player farthest
to the left of the dealer", dealt first (17.8(b)); the highest-numbered area is "farthest to the
right", paid first (17.9(c)) and offered the cut once the game is under way (17.4(d)2), the offer
then rotating counterclockwise: to the next lower-numbered area with a wager, wrapping round.

Double down choices (17.8(c)) are taken in any order, and the second "No more bets" (17.8(d))
waits for every one of them, or for a recorded timeout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from felt.core.cards import Card, Rank
from felt.core.errors import FeltError
from felt.core.evaluator import HandValue, evaluate
from felt.core.money import dollars
from felt.core.ranking import Category
from felt.games.double_down.actions import (
    DealerCut,
    DeclineCut,
    DoubleDown,
    HoleCardExposed,
    NoMoreDoubles,
    OfferCut,
    PlaceBet,
    PlayerCut,
    RequireRecut,
    Stand,
)
from felt.games.double_down.config import DoubleDownConfig, rules
from felt.rounds.actions import Action, Deal, Reveal, Settle
from felt.rounds.engine import VoidAll
from felt.rounds.stud import StudPosition, StudRound


def classify(hand: HandValue) -> str:
    """How 17.9 treats a hand: a pay-table line, ``"push"`` or ``"lose"``.

    Pair of fives or less loses (17.9(a)), pair of sixes to tens push (17.9(b)), jacks or better
    win (17.9(c)); from two pair up the line is the category (17.10(b)).
    """
    if hand.category > Category.ONE_PAIR:
        return hand.category.label
    if hand.category < Category.ONE_PAIR:
        return "lose"
    pair = max(c.rank for c in hand.best_five if sum(d.rank == c.rank for d in hand.best_five) == 2)
    if pair >= Rank.JACK:
        return "jacks or better"
    return "push" if pair >= Rank.SIX else "lose"


class Phase(StrEnum):
    """Where a Double Down Stud round stands."""

    BETTING = "betting"
    CUT = "cut"
    """The cut is offered (17.4(c)-(d))."""
    CUT_DONE = "cut done"
    """The cards are cut; a supervisor may still require a recut (17.4(f))."""
    CLOSED = "closed"
    DOUBLES = "doubles"
    """All cards dealt; double down wagers may be placed (17.8(c))."""
    REVEAL = "reveal"
    """Second "No more bets" announced; the hole card is to be revealed (17.8(d))."""
    REVEALED = "revealed"
    COMPLETE = "complete"
    VOID = "void"


@dataclass
class Area(StudPosition):
    """One betting area."""

    doubled: bool | None = None
    status: str = "in"
    community: list[Card] = field(default_factory=list)

    def hand_cards(self) -> list[Card]:
        """The area's card with the dealer's four (17.8(b))."""
        return self.cards + self.community


@dataclass
class DoubleDownRound(StudRound):
    """One round of Double Down Stud; see the module docstring."""

    config: DoubleDownConfig
    new_game: bool = True
    """Whether the game is just beginning: the cut goes to the first player to the table, the
    area whose wager was placed first this round (17.4(d)1)."""
    last_offered: int | None = None
    """Before this round, the area last offered the cut under the rotation of 17.4(d)2; None
    while the rotation has not begun (its first offer goes to the farthest right)."""
    phase: Phase = Phase.BETTING
    seats: dict[int, Area] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    """Hole card first, then the three face-up cards."""
    dealer_hand: HandValue | None = None
    """Always None: the dealer's four cards are community cards, not a hand (17.8(b))."""
    hole_revealed: bool = False
    cut_offered_to: int | None = None
    cutter: int | None = None
    """Who last cut: an area number, or 0 for the dealer."""
    rotation: int | None = field(default=None, init=False)
    """The area last offered the cut under 17.4(d)2 so far (``last_offered`` until this round
    makes such an offer): what the next round's ``last_offered`` is."""
    pending_misdeals: dict[int | None, int] = field(default_factory=dict)
    face_up_clause: ClassVar[str] = "11(b)"
    drawn_in_error_clause: ClassVar[str] = "11(c)"
    shuffler_jam_clause: ClassVar[str] = "11(e)"
    seat_label: ClassVar[str] = "area"
    position_noun: ClassVar[str] = "area"
    WAGERS: ClassVar[tuple[str, ...]] = ("wager", "double")
    cards_per_position: ClassVar[int] = 1
    dealer_card_count: ClassVar[int] = 4
    misdeal_clause: ClassVar[str] = "11(d)"
    cut_first_clause: ClassVar[str] = "8(a)"
    CUT_STEP: ClassVar[type[Action]] = OfferCut
    DEALER_STEPS: ClassVar[dict[str, type[Action]]] = {
        Phase.CUT: DealerCut,
        Phase.DOUBLES: NoMoreDoubles,
        Phase.REVEAL: Reveal,
    }
    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "cut or decline": ("to decline the cut: the dealer cuts", "4(c)"),
        "double or stand": ("to stand: no double down wager", "8(c)"),
    }

    def __post_init__(self) -> None:
        super().__post_init__()
        self.rotation = self.last_offered

    def seat_count(self) -> int:
        """Betting areas at this table."""
        return self.config.areas

    def cite(self, section: str) -> str:
        """``N.J.A.C. 19:47-17.<section>``."""
        return rules().cite(section)

    def must_stay_seated(self, seat: int) -> str:
        """17.6(b): the wager is in action until the round is settled, so the betting area
        stays its bettor's (docs/interpretations.md, seats and hands)."""
        return (
            f"seat {seat}: your wager is in action until the round is settled ({self.cite('6(b)')}); "
            "the betting area stays yours until then"
        )

    @property
    def title(self) -> str:
        """19:47-17."""
        return rules().title

    @property
    def edition_name(self) -> str:
        """The one text of this game."""
        return "nj-19-47-17"

    @property
    def rack_clause(self) -> str:
        """17.9(a)-(c): losing, push and winning hands collected in that order."""
        return self.cite("9")

    def hand_of(self, number: int) -> list[Card]:
        """The five cards an area plays once everything is dealt."""
        area = self.seats[number]
        return area.cards + self.dealer_cards if len(self.dealer_cards) == 4 else list(area.cards)

    # ----------------------------------------------------------------- pending and dealer steps
    def pending(self) -> list[tuple[int, str]]:
        """Player decisions awaited: the cut offer, and each area's double-down choice."""
        if self.phase is Phase.CUT and self.cut_offered_to:
            return [(self.cut_offered_to, "cut or decline")]
        if self.phase is Phase.DOUBLES:
            return [(a.number, "double or stand") for a in self.in_play() if a.doubled is None]
        return []

    def window_actions(self) -> tuple[type[Action], ...]:
        """The decisions the current phase is for."""
        return {
            Phase.CUT: (PlayerCut, DeclineCut, DealerCut),
            Phase.DOUBLES: (DoubleDown, Stand, HoleCardExposed),
        }.get(self.phase, ())

    # ----------------------------------------------------------------- wagers (17.6)
    def _check_bet(self, a: PlaceBet) -> None:
        cfg = self.config
        if self.phase not in (Phase.BETTING, Phase.CUT, Phase.CUT_DONE):
            raise FeltError(f'area {a.seat}: no wager after "No more bets" ({self.cite("6(b)")})')
        if a.seat in self.seats:
            raise FeltError(f"area {a.seat} already has a wager this round")
        if not cfg.minimum <= a.amount <= cfg.maximum:
            raise FeltError(
                f"area {a.seat}: wager {dollars(a.amount)} is outside the table limits {dollars(cfg.minimum)} to {dollars(cfg.maximum)}"
            )
        self._check_room_for(a.seat)
        player = a.player or f"area {a.seat}"
        mine = sorted(n for n, area in self.seats.items() if area.player == player)
        if mine:
            if not cfg.two_areas:
                raise FeltError(
                    f"{player} already wagers on area {mine[0]}; this table allows one area per player ({self.cite('6(c)')})"
                )
            if len(mine) >= 2:
                raise FeltError(
                    f"{player} may wager on no more than two betting areas ({self.cite('6(c)')})"
                )
            if abs(mine[0] - a.seat) != 1:
                raise FeltError(
                    f"{player}'s two betting areas must be adjacent: {mine[0]} and {a.seat} are not ({self.cite('6(c)')})"
                )

    def _do_bet(self, a: PlaceBet) -> None:
        self.seats[a.seat] = Area(
            a.seat, a.player or f"area {a.seat}", {"wager": a.amount}, {"wager": a.amount}
        )
        self._place(a.seat, "wager", a.amount)

    # ----------------------------------------------------------------- shuffle and cut (17.4)
    def first_to_table(self) -> int | None:
        """The area whose wager was placed first this round (wagers are kept in the order
        placed): at a new game, "the first player to the table" (17.4(d)1)."""
        return next(iter(self.seats), None)

    def cut_offers(self) -> list[int | None]:
        """The areas offered the cut this round, in order (None: the dealer, to recut)."""
        return [e.seat for ev in self.events for e in ev.effects if e.kind == "cut offer"]

    def next_in_rotation(self, after: int | None) -> int | None:
        """17.4(d)2: the next offer of the rotation after the one to area ``after``.

        With no offer yet, "the player at the farthest position to the right of the dealer" (the
        highest-numbered area with a wager); then counterclockwise, to the next lower-numbered
        area with a wager, wrapping round to the farthest right.  The offer goes to players, so
        a second area of the player last offered (17.6(c)) is passed over.
        """
        occupied = sorted(self.seats)
        if not occupied:
            return None
        if after is None:
            return occupied[-1]
        player = self.seats[after].player if after in self.seats else None
        ring = [n for n in reversed(occupied) if n < after] + [
            n for n in reversed(occupied) if n >= after
        ]
        return next((n for n in ring if self.seats[n].player != player), occupied[-1])

    def _entitled_to_cut(self) -> tuple[int | None, str]:
        """Who 17.4(d) offers the cut now, and the paragraph that names them."""
        if self.new_game:
            return self.first_to_table(), "4(d)1"
        return self.next_in_rotation(self.rotation), "4(d)2"

    def _check_offer_cut(self, a: OfferCut) -> None:
        if not self.config.cut_required:
            raise FeltError(
                f"no cut: the shuffler inserted the cards directly into the shoe ({self.cite('4(b)1')})"
            )
        if self.phase is not Phase.BETTING or not self.seats:
            raise FeltError(
                f'the cut is offered once players have wagered, before "No more bets" ({self.cite("4(d)")})'
            )

    def _do_offer_cut(self, a: OfferCut) -> None:
        self._offer(*self._entitled_to_cut(), "cut offered")

    def _offer(self, area: int | None, clause: str, what: str) -> None:
        if clause == "4(d)2":
            self.rotation = area
        self.cut_offered_to = area
        self.phase = Phase.CUT
        whom = "the first player to the table" if clause == "4(d)1" else "in rotation"
        self._effect("cut offer", area, detail=f"{what}: {whom} ({self.cite(clause)})")

    def _check_cut(self, a: PlayerCut | DealerCut) -> None:
        r = rules()
        if self.phase is not Phase.CUT:
            raise FeltError(
                f"the cards are cut when the cut has been offered ({self.cite('4(c)')}); the round is at {self.phase}"
            )
        if isinstance(a, PlayerCut) and a.seat != self.cut_offered_to:
            who = f"area {self.cut_offered_to}" if self.cut_offered_to else "the dealer"
            raise FeltError(f"area {a.seat}: the cut is for {who} ({self.cite('4(d)')})")
        if isinstance(a, DealerCut) and self.cut_offered_to is not None:
            raise FeltError(
                f"the dealer cuts only if no player accepts: area {self.cut_offered_to} has not declined ({self.cite('4(c)')})"
            )
        self._check_cut_position(a.position, r.cut_min_from_end, "4(e)")

    def _do_cut(self, a: PlayerCut | DealerCut) -> None:
        self._cut_shoe(a.position)
        self.cutter = a.seat if isinstance(a, PlayerCut) else 0
        who = f"area {a.seat}" if isinstance(a, PlayerCut) else "the dealer"
        self._effect("cut", self.cutter or None, amount=a.position,
                     detail=f"{who} cuts {a.position} cards from the top; cover card to the rack ({self.cite('4(e)')})")  # fmt: skip
        self.phase = Phase.CUT_DONE

    def _check_decline_cut(self, a: DeclineCut) -> None:
        if self.phase is not Phase.CUT or a.seat != self.cut_offered_to:
            raise FeltError(f"area {a.seat} has not been offered the cut")

    def _do_decline_cut(self, a: DeclineCut) -> None:
        self._decline_cut(a.seat, "")

    def _decline_cut(self, area: int, why: str) -> None:
        self.cut_offered_to = None
        self._effect("cut declined", area, detail=f"{why}the dealer will cut ({self.cite('4(c)')})")

    def _check_require_recut(self, a: RequireRecut) -> None:
        if self.phase is not Phase.CUT_DONE:
            raise FeltError(
                f"a recut may be required after the cut and before any card is dealt ({self.cite('4(f)')})"
            )

    def _do_require_recut(self, a: RequireRecut) -> None:
        """17.4(f): recut by the last cutter, or by the next person entitled (casino's option):
        the next offer of 17.4(d) (after the first player at a new game, the farthest right),
        also when the dealer made the cut; if that player declines, the dealer cuts (17.4(c))."""
        self._effect("recut", None, detail=f"supervisor requires a recut ({self.cite('4(f)')})")
        if self.config.recut_by == "last":
            self.cut_offered_to = self.cutter or None
            self.phase = Phase.CUT
            who = f"area {self.cutter}" if self.cutter else "the dealer"
            self._effect("cut offer", self.cut_offered_to, detail=f"recut by {who}, who last cut")
        else:
            target = self.next_in_rotation(self.rotation)  # after a dealer's cut too (17.4(c))
            if (
                target is not None
                and self.cutter
                and self.seats[target].player == self.seats[self.cutter].player
            ):
                target = self.next_in_rotation(target)  # the next person: not the one who cut
            self._offer(target, "4(d)2", "recut offered")

    # ----------------------------------------------------------------- dealing (17.8)
    def _do_deal(self, a: Deal) -> None:
        self._deal_positions("face up")  # 17.8(b): one card face up, from the dealer's left
        count = self.pending_misdeals.pop(None, 4)
        self._deal_cards(self.dealer_cards, min(count, 1), None, "hole card, face down")
        self._deal_cards(self.dealer_cards, count - min(count, 1), None, "dealer, face up")
        if count != 4:
            raise VoidAll(self.cite("11(d)"), f"the dealer was dealt {count} cards")
        for area in self.in_play():
            area.community = list(self.dealer_cards)
        self.phase = Phase.DOUBLES

    # ----------------------------------------------------------------- double down (17.8(c)-(d))
    def _check_double(self, a: DoubleDown) -> None:
        area = self._area_deciding(a.seat)
        wager = area.wagers["wager"]
        amount = wager if a.amount is None else a.amount
        if self.config.double_down == "equal" and amount != wager:
            raise FeltError(
                f"area {a.seat}: the double down wager equals the original wager, {dollars(wager)} (this table), got {dollars(amount)}"
            )
        if not 0 < amount <= wager:
            raise FeltError(
                f"area {a.seat}: the double down wager is more than 0.00 and at most the original wager, {dollars(wager)}"
            )

    def _area_deciding(self, number: int) -> Area:
        if self.phase is not Phase.DOUBLES:
            raise FeltError(
                f"area {number}: a double down wager is placed after all cards are dealt and before "
                f'the second "No more bets" ({self.cite("8(c)")}); the round is at {self.phase}'
            )
        area = self.seats.get(number)
        if area is None or area.status != "in":
            raise FeltError(f"area {number} has no wager in this round")
        if area.doubled is not None:
            raise FeltError(f"area {number} has already {'doubled' if area.doubled else 'stood'}")
        return area

    def _do_double(self, a: DoubleDown) -> None:
        area = self.seats[a.seat]
        amount = area.wagers["wager"] if a.amount is None else a.amount
        area.doubled = True
        area.wagers["double"] = area.placed["double"] = amount
        self._place(a.seat, "double", amount)

    def _check_stand(self, a: Stand) -> None:
        self._area_deciding(a.seat)

    def _do_stand(self, a: Stand) -> None:
        self.seats[a.seat].doubled = False
        self._effect("stand", a.seat)

    def _check_no_more_doubles(self, a: NoMoreDoubles) -> None:
        if self.phase is not Phase.DOUBLES:
            raise FeltError(f'the second "No more bets" follows the deal ({self.cite("8(d)")})')
        self._refuse_while_pending(f'announce the second "No more bets" ({self.cite("8(d)")})')

    def _deem(self, seat: int, what: str) -> None:
        """Apply the deemed choice of a seat whose decision time ran out (docs/interpretations.md:
        "A dealer step never cuts off an election; decision time")."""
        if what == "cut or decline":  # 17.4(c): "If no player accepts the cut", the dealer cuts
            self._decline_cut(seat, "not accepted in time: ")
        else:  # 17.8(c): the double down wager "may" be placed; none was
            self.seats[seat].doubled = False
            self._effect("stand", seat, detail="no double down: decision time ran out")

    def _do_no_more_doubles(self, a: NoMoreDoubles) -> None:
        self.phase = Phase.REVEAL
        self._effect("announce", detail=f"No more bets ({self.cite('8(d)')})")

    def _check_reveal(self, a: Reveal) -> None:
        if self.phase is not Phase.REVEAL:
            raise FeltError(
                f'the hole card is revealed after the second "No more bets" ({self.cite("8(d)")})'
            )

    def _do_reveal(self, a: Reveal) -> None:
        self._effect("reveal", None, self.dealer_cards[:1], detail="hole card")
        self.hole_revealed = True
        self.phase = Phase.REVEALED

    # ----------------------------------------------------------------- settlement (17.9, 17.10)
    def _check_settle(self, a: Settle) -> None:
        if self.phase is not Phase.REVEALED:
            raise FeltError(
                f"wagers are settled after the hole card is revealed ({self.cite('9(a)')})"
            )

    def _do_settle(self, a: Settle) -> None:
        order = self.settle_order()
        kinds = {ar.number: classify(evaluate(ar.hand_cards())) for ar in order}
        for area in order:  # 17.9(a): losing wagers first, losing hands to the rack
            if kinds[area.number] == "lose":
                hand = evaluate(area.hand_cards()).describe()
                for w in [w for w in ("wager", "double") if w in area.wagers]:
                    self._line(area, w, "lose", self.cite("9(a)"), hand=hand)
                self._rack_area(area, "losing hand")
        for area in order:  # 17.9(b): pushes, cards collected after all losers
            if kinds[area.number] == "push":
                hand = evaluate(area.hand_cards()).describe()
                for w in [w for w in ("wager", "double") if w in area.wagers]:
                    self._line(area, w, "push", self.cite("9(b)"), hand=hand)
                self._rack_area(area, "push")
        winners = [ar for ar in order if kinds[ar.number] not in ("lose", "push")]
        for area in winners:  # 17.9(c): from the dealer's right, counterclockwise
            payout = self.config.pay_table.get(kinds[area.number])
            assert payout is not None
            hand = evaluate(area.hand_cards()).describe()
            stakes = [w for w in ("wager", "double") if w in area.wagers]
            wins = [payout.win(area.wagers[w]) for w in stakes]
            # 17.10(c): the payout limit caps the hand; any reduction falls on the last paid.
            excess = max(0, sum(wins) - self.config.payout_limit)
            cuts = [0] * len(wins)
            for i in reversed(range(len(wins))):
                cuts[i] = min(excess, wins[i])
                excess -= cuts[i]
            for w, win, cut in zip(stakes, wins, cuts, strict=True):
                clause = f"{self.cite('9(c)')}, {self.cite('10(b)')}" + (
                    f", {self.cite('10(c)')}" if cut else ""
                )
                self._line(
                    area,
                    w,
                    "win",
                    clause,
                    win=win - cut,
                    odds=str(payout),
                    hand=hand,
                    reduction=cut,
                )
            area.status = "settled"
        for area in winners:
            self._rack_area(area, "winning hand")
        self._close_settlement()

    def _rack_area(self, area: Area, label: str) -> None:
        area.status = "settled"
        self.rack.put(f"area {area.number} {label}", area.cards)
        self._effect("rack", area.number, area.cards, detail=label)

    # ----------------------------------------------------------------- irregularities (17.11)
    def _check_hole_card_exposed(self, a: HoleCardExposed) -> None:
        if self.phase is not Phase.DOUBLES:
            raise FeltError(
                f'17.11(a) concerns the hole card between the deal and the second "No more bets"; the round is at {self.phase}'
            )

    def _do_hole_card_exposed(self, a: HoleCardExposed) -> None:
        raise VoidAll(self.cite("11(a)"), 'the hole card was exposed before "No more bets"')
