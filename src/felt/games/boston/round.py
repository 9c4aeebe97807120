"""A round of Boston 5 or Boston 7 Stud Poker, by N.J.A.C. 19:47-24, 205 CMR and 13:69F-24.

The round is a state machine driven by :class:`~felt.rounds.actions.Action` values.  :meth:`Round.check`
refuses an action that is not allowed (a :class:`FeltError` naming the rule, nothing changed);
:meth:`Round.apply` performs an allowed one and records an immutable :class:`~felt.rounds.engine.Event`.
Replaying the recorded actions on the same deck rebuilds the round exactly (:meth:`Round.replay`).

Seats are numbered 1-6 from the dealer's left: seat 1 is "the player farthest to [the dealer's]
left" and is dealt first (24.7(d)); seat 6 is "farthest to his or her right" and is settled first
(24.10(f)).  The texts set no order for the players' elections (exposing for the bonus, 24.10(a);
second wager or fold, 24.10(b); a Boston 7 discard, 13:69F-24.10(c)), so they are taken in any
order, and no dealer step cuts one off: it waits for the player or a recorded timeout.  Clause numbers below are section numbers of the subchapter; each edition cites its
own text (``N.J.A.C. 19:47-24.10(f)``, ``N.J.A.C. 13:69F-24.10(f)``, ``... Section 10(f)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from felt.core.cards import Card, format_cards
from felt.core.errors import FeltError
from felt.core.evaluator import HandValue, evaluate, evaluate_three
from felt.core.money import dollars
from felt.core.paytable import Payout
from felt.games.boston.actions import (
    CountStub,
    DealAdditional,
    DealerCardExposed,
    Decline,
    Discard,
    Expose,
    Fold,
    Keep,
    Leave,
    PlaceWagers,
    ResolveBonuses,
    Second,
    ShoeJam,
    Withdraw,
)
from felt.games.boston.config import THREE_CARD_ROYAL, TableConfig
from felt.rounds.actions import Action, Deal, Misdeal, NoMoreBets, Reveal, Settle
from felt.rounds.engine import (
    LAYOUT,
    VoidAll,
    seat_party,
)
from felt.rounds.round_core import RoundCore


class Phase(StrEnum):
    """Where a round stands."""

    BETTING = "betting"
    """Wagers may be placed (24.6(b))."""
    CLOSED = "closed"
    """"No more bets" announced; the first cards are to be dealt."""
    BONUS = "bonus"
    """Optional bonus wagers await exposure and resolution (24.10(a))."""
    DECISIONS = "decisions"
    """Each seat places a second wager or folds (24.10(b))."""
    READY = "ready"
    """Every seat has decided; second wagers may still be withdrawn (24.10(c))."""
    DEALT = "dealt"
    """Additional cards dealt; stub count; Boston 7 discards (13:69F-24.10(c))."""
    REVEALED = "revealed"
    """The dealer's hand is revealed and set (24.10(e))."""
    COMPLETE = "complete"
    VOID = "void"


WAGER_ORDER = ("ante", "first", "second", "bonus")
PAYING = frozenset({"win", "paid"})
"""Statement outcomes that pay the player, and so count toward the payout limit (24.11(e))."""
CARDS_TO_COME = frozenset({Phase.BETTING, Phase.CLOSED, Phase.BONUS, Phase.DECISIONS, Phase.READY})
"""Phases in which cards remain to be dealt (where 24.12(b) and (d) can still arise)."""


@dataclass
class SeatState:
    """One betting position during a round."""

    number: int
    player: str
    wagers: dict[str, int]
    """Wagers still in action, in cents, by name (ante, first, second, bonus)."""
    cards: list[Card] = field(default_factory=list)
    status: str = "in"
    """``in``, ``folded``, ``void`` (24.12(d)), ``settled``."""
    exposed: bool = False
    bonus_decision: str | None = None
    """``expose`` or ``decline`` once the seat has elected (a timeout declines)."""
    timed_out: bool = False
    """Whether the seat's decision time ran out on an election (the record says which)."""
    decision: str | None = None
    """``second``, ``fold`` or ``withdraw`` once the seat has decided."""
    discarded: tuple[Card, ...] | None = None
    kept: bool = False
    misdealt: bool = False
    placed: dict[str, int] = field(default_factory=dict)
    """Every wager ever placed, for the statement."""

    def hand_cards(self) -> list[Card]:
        """The cards the hand is played with (after a Boston 7 discard)."""
        if self.discarded:
            return [c for c in self.cards if c not in self.discarded]
        return list(self.cards)


@dataclass
class Round(RoundCore):
    """One round at one table; see the module docstring."""

    config: TableConfig
    stub_count_due: bool = False
    """Whether this round's stub must be counted (24.7(f): at least once every five rounds)."""
    phase: Phase = Phase.BETTING
    seats: dict[int, SeatState] = field(default_factory=dict)
    dealer_cards: list[Card] = field(default_factory=list)
    dealer_hand: HandValue | None = None
    pending_misdeals: dict[int | None, int] = field(default_factory=dict)
    jam_after_stacks: int | None = None
    stub_counted: bool = False
    deck_removed: bool = False

    # ----------------------------------------------------------------- rules of this game
    @property
    def seven(self) -> bool:
        """Whether this is Boston 7 (four additional cards) rather than Boston 5 (two)."""
        return self.config.game == "boston7"

    @property
    def hand_size(self) -> int:
        """Cards in a full hand: five (Boston 5) or seven (Boston 7)."""
        return 7 if self.seven else 5

    def cite(self, section: str) -> str:
        """The clause in this table's edition."""
        return self.config.edition.cite(section)

    # ----------------------------------------------------------------- queries
    def wagering_seats(self) -> list[SeatState]:
        """Seats with wagers, seat 1 first (the dealing order, 24.7(d))."""
        return [self.seats[n] for n in sorted(self.seats)]

    def seats_in_play(self) -> list[SeatState]:
        """Seats still playing their hand (not folded, withdrawn or void)."""
        return [s for s in self.wagering_seats() if s.status == "in"]

    def undecided(self) -> list[SeatState]:
        """Seats in play that have neither placed a second wager nor folded (24.10(b))."""
        return [s for s in self.seats_in_play() if s.decision is None]

    ELECTIONS: ClassVar[dict[str, tuple[str, str]]] = {
        "expose or decline": ("not to expose: the optional bonus wager loses as not exposed", "10(a)"),
        "second or fold": ("to fold: no second wager placed, ante and first wager forfeited", "10(b)"),
        "discard or keep": ("to keep all seven cards (no discard)", "10(c)"),
    }  # fmt: skip

    def pending(self) -> list[tuple[int, str]]:
        """Player elections the round is waiting for, every seat at once (the texts set no
        order): (seat, what) pairs."""
        if self.phase is Phase.BONUS and not self.config.edition.bonus_exposure_required:
            return [
                (s.number, "expose or decline")
                for s in self.seats_in_play()
                if s.wagers.get("bonus") and s.bonus_decision is None
            ]
        if self.phase is Phase.DECISIONS:
            return [(s.number, "second or fold") for s in self.undecided()]
        if self.phase is Phase.DEALT and self.seven:
            return [
                (s.number, "discard or keep")
                for s in self.seats_in_play()
                if s.discarded is None and not s.kept
            ]
        return []

    def window_actions(self) -> tuple[type[Action], ...]:
        """The decisions the current phase is for."""
        return {
            Phase.BONUS: (Expose, Decline),
            Phase.DECISIONS: (Second, Fold, Withdraw),
            Phase.READY: (Withdraw,),
            Phase.DEALT: (Discard, Keep, CountStub),
        }.get(self.phase, ())

    def next_dealer_action(self) -> Action | None:
        """The dealer's next step, or None while players must act first.

        While an election is pending (see :meth:`pending`) the dealer waits: no step closes it.
        """
        if self.pending():
            return None
        match self.phase:
            case Phase.BETTING:
                return NoMoreBets() if self.seats else None
            case Phase.CLOSED:
                return Deal()
            case Phase.BONUS:
                return ResolveBonuses()
            case Phase.READY:
                return DealAdditional()
            case Phase.DEALT:
                if self.stub_count_due and not self.stub_counted:
                    return CountStub()
                return Reveal()
            case Phase.REVEALED:
                return Settle()
        return None

    @property
    def finished(self) -> bool:
        """Whether the round is over (settled or void)."""
        return self.phase in (Phase.COMPLETE, Phase.VOID)

    def cards_to_come(self) -> bool:
        """Whether cards remain to be dealt this round."""
        return self.phase in CARDS_TO_COME

    @property
    def title(self) -> str:
        """The edition's title."""
        return self.config.edition.title

    @property
    def edition_name(self) -> str:
        """The edition's name."""
        return self.config.edition.name

    @property
    def rack_clause(self) -> str:
        """24.10(g), or 13:69F-24.10(h)."""
        return self.cite(self.config.edition.discard_rack_clause)

    # ----------------------------------------------------------------- wagers
    def _check_wager(self, a: PlaceWagers) -> None:
        cfg, ed = self.config, self.config.edition
        if self.phase is not Phase.BETTING:
            raise FeltError(
                f'seat {a.seat}: no wager may be made after "No more bets" ({self.cite("6(b)")})'
            )
        if a.seat in self.seats:
            raise FeltError(f"seat {a.seat} has already wagered this round")
        if a.ante < cfg.minimum or a.ante > cfg.maximum:
            raise FeltError(
                f"seat {a.seat}: ante {dollars(a.ante)} is outside the table limits "
                f"{dollars(cfg.minimum)} to {dollars(cfg.maximum)}"
            )
        if a.first != cfg.first_ratio * a.ante:
            rules = ed.game(cfg.game)
            raise FeltError(
                f"seat {a.seat}: first wager must be {cfg.first_ratio} x the ante = "
                f"{dollars(cfg.first_ratio * a.ante)}, got {dollars(a.first)} "
                f"({self.cite(rules.ratio_clause)})"
            )
        if a.bonus and not cfg.bonus_minimum <= a.bonus <= cfg.bonus_maximum:
            raise FeltError(
                f"seat {a.seat}: optional bonus wager must be {dollars(cfg.bonus_minimum)} to "
                f"{dollars(cfg.bonus_maximum)} ({self.cite(ed.bonus_wager_clause)}), got {dollars(a.bonus)}"
            )
        if a.bonus < 0:
            raise FeltError(f"seat {a.seat}: a wager cannot be negative")
        if self.pending_misdeals:
            self._check_cards_suffice(
                f"seat {a.seat}",
                f"with the misdeal given ({self.cite('12(d)')}) no further seat can be dealt in",
                new_seat=a.seat,
            )
        player = a.player or f"seat {a.seat}"
        limit = cfg.positions_per_player
        held = sum(1 for s in self.seats.values() if s.player == player)
        if limit is not None and held >= limit:
            raise FeltError(
                f"{player} already wagers on {held} position(s); this table allows {limit} "
                f"({edition_positions_clause(self)})"
            )

    def _do_wager(self, a: PlaceWagers) -> None:
        wagers = {"ante": a.ante, "first": a.first}
        if a.bonus:
            wagers["bonus"] = a.bonus
        seat = SeatState(a.seat, a.player or f"seat {a.seat}", dict(wagers), placed=dict(wagers))
        self.seats[a.seat] = seat
        for name, amount in wagers.items():
            self._place(a.seat, name, amount)

    def must_stay_seated(self, seat: int) -> str:
        """24.6(e) / 13:69F-24.6(g): a player who has wagered and received cards remains seated
        until the round is complete; before the cards, ``leave`` takes the wagers back."""
        clause = self.cite(self.config.edition.remain_seated_clause)
        if self.phase is Phase.BETTING:
            return (
                f"seat {seat}: your wagers are on the layout; take them back first "
                f'({{"action": "leave", "seat": {seat}}}) or stay seated until the round '
                f"is complete ({clause})"
            )
        return (
            f"seat {seat}: a player who has wagered and received cards must remain seated "
            f"until the round is complete ({clause})"
        )

    def _check_leave(self, a: Leave) -> None:
        seat = self.seats.get(a.seat)
        if seat is None:
            raise FeltError(f"seat {a.seat} has no player in this round")
        if self.phase is not Phase.BETTING:
            raise FeltError(
                f"seat {a.seat}: a player who has wagered and received cards must remain seated "
                f"until the round is complete ({self.cite(self.config.edition.remain_seated_clause)})"
            )

    def _do_leave(self, a: Leave) -> None:
        seat = self.seats.pop(a.seat)
        for name, amount in seat.wagers.items():
            self.ledger.move(LAYOUT, seat_party(a.seat), amount, f"{name} taken back")
        self._effect("leave", a.seat)

    # ----------------------------------------------------------------- dealing
    def _check_no_more_bets(self, a: NoMoreBets) -> None:
        if self.phase is not Phase.BETTING:
            raise FeltError('"No more bets" has already been announced')
        if not self.seats:
            raise FeltError("no seat has wagered: nothing to deal")

    def _do_no_more_bets(self, a: NoMoreBets) -> None:
        self.phase = Phase.CLOSED
        self._effect("announce", detail="No more bets")

    def _check_deal(self, a: Deal) -> None:
        if self.phase is not Phase.CLOSED:
            raise FeltError(
                f'the first cards are dealt after "No more bets", not during {self.phase}'
            )

    def _deal_to(self, seat: SeatState, normal: int) -> None:
        count = self.pending_misdeals.pop(seat.number, normal)
        self._deal_cards(seat.cards, count, seat.number, "face down")
        if count != normal:
            seat.misdealt = True
            self._void_seat(seat, self.cite("12(d)"), f"dealt {count} cards instead of {normal}")

    def _deal_dealer(self, normal: int, final: bool) -> None:
        count = self.pending_misdeals.pop(None, normal)
        self._deal_cards(self.dealer_cards, count, None, "dealer, face down")
        dealt_so_far = 3 + (self.hand_size - 3 if final else 0)
        have = len(self.dealer_cards)
        if (
            have > dealt_so_far
            or (not final and have < 3 - 1)
            or (final and have < self.hand_size - 1)
        ):
            raise VoidAll(self.cite("12(d)"), f"dealer misdealt: {have} cards")
        if final and have == self.hand_size - 1:
            self._deal_cards(
                self.dealer_cards, 1, None,
                f"additional card to complete the dealer's hand ({self.cite('12(d)')})",
            )  # fmt: skip

    def _do_deal(self, a: Deal) -> None:
        seats = self.wagering_seats()
        stacks = self.jam_after_stacks
        for i, seat in enumerate(seats):
            if stacks is not None and i >= stacks:
                break
            self._deal_to(seat, 3)
        if stacks is not None and stacks < len(seats) + 1:
            self._void_round_except_qualifying(
                self.cite("12(f)"), "the automated dealing shoe jammed"
            )
            return
        self._deal_dealer(3, final=False)
        if any(s.wagers.get("bonus") for s in self.seats_in_play()):
            self.phase = Phase.BONUS
        else:
            self.phase = Phase.DECISIONS
        self._after_decision()

    # ----------------------------------------------------------------- optional bonus
    def _check_expose(self, a: Expose) -> None:
        seat = self._bonus_seat(a.seat)
        if seat.bonus_decision is not None:
            raise FeltError(f"seat {a.seat} has already {seat.bonus_decision}d the bonus hand")

    def _bonus_seat(self, number: int) -> SeatState:
        if self.phase is not Phase.BONUS:
            raise FeltError(
                f"seat {number}: the bonus hand is exposed after the first three cards and before "
                f"the bonus wagers are resolved ({self.cite('10(a)')}); the round is at {self.phase}"
            )
        seat = self._seat_in_play(number)
        if not seat.wagers.get("bonus"):
            raise FeltError(f"seat {number} has no optional bonus wager to expose for")
        return seat

    def _do_expose(self, a: Expose) -> None:
        seat = self.seats[a.seat]
        seat.bonus_decision, seat.exposed = "expose", True
        self._effect("expose", a.seat, seat.cards[:3])

    def _check_decline(self, a: Decline) -> None:
        if self.config.edition.bonus_exposure_required:
            raise FeltError(
                f"seat {a.seat}: exposure is required under {self.cite('10(a)')}; it cannot be declined"
            )
        seat = self._bonus_seat(a.seat)
        if seat.bonus_decision is not None:
            raise FeltError(f"seat {a.seat} has already decided on the bonus hand")

    def _do_decline(self, a: Decline) -> None:
        self.seats[a.seat].bonus_decision = "decline"
        self._effect("decline", a.seat)

    def _check_resolve_bonuses(self, a: ResolveBonuses) -> None:
        if self.phase is not Phase.BONUS:
            raise FeltError(
                f"no optional bonus wagers await resolution (the round is at {self.phase})"
            )
        self._refuse_while_pending(f"resolve the optional bonus wagers ({self.cite('10(a)')})")

    def bonus_payout(self, cards: Sequence[Card]) -> tuple[str, Payout] | None:
        """The optional bonus line three cards qualify for, or None (24.5(d), 24.11(d)).

        A-K-Q suited pays as a three-card straight flush where the table has no royal line (the
        2003 texts, or a casino that does not offer it; see docs/interpretations.md).
        """
        label = evaluate_three(cards).category.label
        table = self.config.optional_bonus
        if label == THREE_CARD_ROYAL and table.get(label) is None:
            label = "three-card straight flush"
        payout = table.get(label)
        return None if payout is None else (label, payout)

    def _do_resolve_bonuses(self, a: ResolveBonuses) -> None:
        required = self.config.edition.bonus_exposure_required
        bonus_seats = [s for s in self.seats_in_play() if "bonus" in s.wagers]
        winners: list[tuple[SeatState, str, Payout]] = []
        for seat in bonus_seats:  # losing wagers first (24.10(a))
            if required and not seat.exposed:
                seat.exposed = True
                self._effect(
                    "expose", seat.number, seat.cards[:3], detail=f"required ({self.cite('10(a)')})"
                )
            if not seat.exposed:
                why = "not exposed (decision time ran out)" if seat.timed_out else "not exposed"
                self._line(seat, "bonus", "lose", self.cite("10(a)"), hand=why)
                continue
            qualifies = self.bonus_payout(seat.cards[:3])
            if qualifies is None:
                label = evaluate_three(seat.cards[:3]).category.label
                self._line(seat, "bonus", "lose", self.cite("10(a)"), hand=label)
            else:
                winners.append((seat, *qualifies))
        for seat, label, payout in winners:  # then winning ones
            win = payout.win(seat.wagers["bonus"])
            self._line(
                seat, "bonus", "win", self.cite("11(d)"), win=win, odds=str(payout), hand=label
            )
        self.phase = Phase.DECISIONS
        self._after_decision()

    # ----------------------------------------------------------------- second wager or fold
    def _seat_in_play(self, number: int) -> SeatState:
        seat = self.seats.get(number)
        if seat is None:
            raise FeltError(f"seat {number} has no wager in this round")
        if seat.status == "folded":
            raise FeltError(f"seat {number} has folded and takes no further part in the round")
        if seat.status == "void":
            raise FeltError(
                f"seat {number}'s hand is void ({self.cite('12(d)')}); it takes no further part"
            )
        return seat

    def _check_decision(self, number: int) -> SeatState:
        if self.phase is Phase.BONUS:
            raise FeltError(
                f"seat {number}: second wagers come after the optional bonus wagers are resolved "
                f"({self.cite('10(b)')})"
            )
        if self.phase is not Phase.DECISIONS:
            raise FeltError(
                f"seat {number}: no second-wager decision is due (the round is at {self.phase})"
            )
        seat = self._seat_in_play(number)
        if seat.decision is not None:
            raise FeltError(f"seat {number} has already decided ({seat.decision})")
        return seat

    def _check_second(self, a: Second) -> None:
        self._check_decision(a.seat)

    def _do_second(self, a: Second) -> None:
        seat = self.seats[a.seat]
        amount = seat.wagers["first"]
        seat.wagers["second"] = amount
        seat.placed["second"] = amount
        seat.decision = "second"
        self._place(a.seat, "second", amount)
        self._after_decision()

    def _check_fold(self, a: Fold) -> None:
        self._check_decision(a.seat)

    def _do_fold(self, a: Fold) -> None:
        self._forfeit(self.seats[a.seat], "fold", self.cite("10(b)"))
        self._after_decision()

    def _forfeit(self, seat: SeatState, how: str, clause: str, why: str = "") -> None:
        seat.decision = how
        for wager in ("ante", "first"):
            self._line(seat, wager, "forfeit", clause, hand=why or how)
        if "second" in seat.wagers:
            self._line(seat, "second", "void", clause, hand="withdrawn")
        seat.status = "folded"
        self._collect_cards(seat, "folded" if how == "fold" else "withdrew")

    def _check_withdraw(self, a: Withdraw) -> None:
        if self.phase not in (Phase.DECISIONS, Phase.READY):
            raise FeltError(
                f"seat {a.seat}: a second wager may be withdrawn only before the additional cards "
                f"are dealt ({self.cite('10(c)')}); the round is at {self.phase}"
            )
        seat = self._seat_in_play(a.seat)
        if seat.decision != "second":
            raise FeltError(f"seat {a.seat} has no second wager to withdraw")

    def _do_withdraw(self, a: Withdraw) -> None:
        self._forfeit(self.seats[a.seat], "withdraw", self.cite("10(c)"))
        self._after_decision()

    def _after_decision(self) -> None:
        if self.phase in (Phase.DECISIONS, Phase.READY):
            if not self.seats_in_play():
                self._finish_without_showdown()
            elif not self.undecided():
                self.phase = Phase.READY

    def _finish_without_showdown(self) -> None:
        """Every seat folded or is void: collect the remaining cards and end the round."""
        self._rack_remaining("every seat folded or is void")
        self.phase = Phase.COMPLETE

    # ----------------------------------------------------------------- additional cards
    def _check_deal_additional(self, a: DealAdditional) -> None:
        if self.phase is Phase.DECISIONS:
            self._refuse_while_pending(f"deal the additional cards ({self.cite('10(d)')})")
        if self.phase is not Phase.READY:
            raise FeltError(
                f"the additional cards are dealt once every seat has placed a second wager or "
                f"folded ({self.cite('10(d)')}); the round is at {self.phase}"
            )

    def _do_deal_additional(self, a: DealAdditional) -> None:
        extra = self.hand_size - 3
        for seat in self.seats_in_play():
            self._deal_to(seat, extra)
        self._deal_dealer(extra, final=True)
        self.phase = Phase.DEALT
        if not self.stub_count_due:
            self._stub_to_rack("stub")
        if not self.seats_in_play():
            self._finish_without_showdown()

    def _check_count_stub(self, a: CountStub) -> None:
        if self.phase is not Phase.DEALT:
            raise FeltError(
                f"the stub is counted after the additional cards are dealt ({self.cite('7(f)')}); "
                f"the round is at {self.phase}"
            )
        if self.stub_counted or not self.stub_count_due:
            raise FeltError(
                "the stub is already in the discard rack: it is counted in the rounds the table "
                f"marks as due ({self.cite('7(f)')}: at least once every five rounds)"
            )
        if a.count is not None and not 0 <= a.count <= 52:
            raise FeltError(f"count_stub count must be 0 to 52, got {a.count}")

    def _do_count_stub(self, a: CountStub) -> None:
        true = self.shoe.remaining()
        counted = true if a.count is None else a.count
        self.stub_counted = True
        self._effect(
            "count", None, amount=counted, detail=f"stub counted: {counted} (expected {true})"
        )
        if counted == true:
            self._stub_to_rack("stub (counted)")
            return
        if any(s.misdealt for s in self.seats.values()):
            raise VoidAll(self.cite("7(f)2"), "stub count wrong and the cards were misdealt")
        self.deck_removed = True
        raise VoidAll(
            self.cite("7(f)2"), "stub count wrong, no misdeal: the deck is removed from the table"
        )

    # ----------------------------------------------------------------- Boston 7 discards
    def _check_discard(self, a: Discard) -> None:
        seat = self._check_discard_window(a.seat)
        if len(a.cards) != 2 or len(set(a.cards)) != 2 or any(c not in seat.cards for c in a.cards):
            raise FeltError(
                f"seat {a.seat}: discard exactly two of your seven cards ({format_cards(seat.cards)}), "
                f"got {format_cards(a.cards) or 'none'}"
            )

    def _check_discard_window(self, number: int) -> SeatState:
        if not self.seven:
            raise FeltError("only Boston 7 players may discard (13:69F-24.10(c))")
        if self.phase is not Phase.DEALT:
            raise FeltError(
                f"seat {number}: a discard is made on receiving the four additional cards "
                f"({self.cite('10(c)')}); the round is at {self.phase}"
            )
        seat = self._seat_in_play(number)
        if seat.discarded is not None or seat.kept:
            raise FeltError(f"seat {number} has already chosen whether to discard")
        return seat

    def _do_discard(self, a: Discard) -> None:
        seat = self.seats[a.seat]
        seat.discarded = tuple(a.cards)
        self.rack.put(f"seat {a.seat} discards", a.cards)
        self._effect("discard", a.seat, a.cards, detail="forfeits six-/seven-card royal payouts")

    def _check_keep(self, a: Keep) -> None:
        self._check_discard_window(a.seat)

    def _do_keep(self, a: Keep) -> None:
        self.seats[a.seat].kept = True
        self._effect("keep", a.seat)

    # ----------------------------------------------------------------- decision time ran out
    def _deem(self, seat: int, what: str) -> None:
        """Apply the deemed choice of a seat whose decision time ran out (docs/interpretations.md:
        "A dealer step never cuts off an election; decision time")."""
        state = self.seats[seat]
        state.timed_out = True
        if what == "expose or decline":  # 19:47-24.10(a): "elect not to expose"
            state.bonus_decision = "decline"
            self._effect("decline", seat, detail="not exposed: decision time ran out")
        elif what == "second or fold":  # 24.10(b): no second wager placed is a fold
            self._forfeit(
                state, "fold", self.cite("10(b)"), "no second wager (decision time ran out)"
            )
            self._after_decision()
        else:  # 13:69F-24.10(c): the discard is elective; without one all seven play
            state.kept = True
            self._effect("keep", seat, detail="no discard: decision time ran out")

    # ----------------------------------------------------------------- reveal and settle
    def _check_reveal(self, a: Reveal) -> None:
        if self.phase is not Phase.DEALT:
            raise FeltError(
                f"the dealer reveals after the additional cards are dealt (the round is at {self.phase})"
            )
        if self.stub_count_due and not self.stub_counted:
            raise FeltError(f"the stub must be counted this round ({self.cite('7(f)')})")
        self._refuse_while_pending(f"reveal the dealer's cards ({self.cite('10(e)')})")

    def _do_reveal(self, a: Reveal) -> None:
        self.dealer_hand = evaluate(self.dealer_cards)
        self._effect("reveal", None, self.dealer_cards, detail=f"sets {self.dealer_hand}")
        self.phase = Phase.REVEALED

    def _check_settle(self, a: Settle) -> None:
        if self.phase is not Phase.REVEALED:
            raise FeltError(
                f"wagers are settled after the dealer's hand is revealed (the round is at {self.phase})"
            )

    def ante_bonus(self, seat: SeatState) -> tuple[str, Payout] | None:
        """The ante bonus line a hand qualifies for, paid once for the highest payout (24.11(c))."""
        hand = evaluate(seat.hand_cards())
        table = self.config.ante_bonus
        options = [hand.category.label]
        if self.seven and seat.discarded is None:
            length = hand.royal_flush_length
            if length == 7:
                options += ["seven-card royal flush", "six-card royal flush"]
            elif length == 6:
                options.append("six-card royal flush")
        stake = seat.wagers.get("ante", seat.placed["ante"])
        paying = [(label, p) for label in options if (p := table.get(label)) is not None]
        if not paying:
            return None
        return max(paying, key=lambda lp: lp[1].win(stake))

    def _do_settle(self, a: Settle) -> None:
        assert self.dealer_hand is not None
        order = sorted(self.seats_in_play(), key=lambda s: -s.number)  # seat 6 first (24.10(f))
        plans = {s.number: self._plan(s) for s in order}
        if self.config.settlement == "alternative":
            # 13:69F-24.10(g): every seat's losing wagers first, then the winning wagers and ante
            # bonuses (an ante returned goes back with them); cards go once a seat is done.
            passes = [
                [(seat, [p for p in plans[seat.number] if p[1] == "lose"]) for seat in order],
                [(seat, [p for p in plans[seat.number] if p[1] != "lose"]) for seat in order],
            ]
        else:
            passes = [[(seat, plans[seat.number]) for seat in order]]
        left = {seat.number: len(plans[seat.number]) for seat in order}
        for one_pass in passes:
            for seat, planned in one_pass:
                for wager, outcome, clause, win, odds, hand, red in planned:
                    if outcome == "paid":
                        self._pay(seat, wager, seat.placed["ante"], clause, win=win, odds=odds,
                                  hand=hand, reduction=red)  # fmt: skip
                        continue
                    self._line(
                        seat, wager, outcome, clause, win=win, odds=odds, hand=hand, reduction=red
                    )
                left[seat.number] -= len(planned)
                if planned and left[seat.number] == 0:
                    self._settled(seat)
        self.rack.put("dealer", self.dealer_cards)
        self._effect("rack", None, self.dealer_cards, detail="dealer")
        self.phase = Phase.COMPLETE

    def _settled(self, seat: SeatState) -> None:
        seat.status = "settled"
        self._collect_cards(seat, "hand")

    def _plan(self, seat: SeatState) -> list[tuple[str, str, str, int, str, str, int]]:
        """How each wager of a seat resolves: (wager, outcome, clause, win, odds, hand, reduction).

        24.10(f)1: if the dealer's hand is higher, the ante, first and second wagers lose.
        24.10(f)2: a tie is a push; nothing is collected or paid.  24.10(f)3: if the player's hand
        is higher, first and second wagers win 1 to 1 (24.11(b)) and the ante is paid its bonus
        odds (24.11(c)) or returned; and "a player is entitled to an ante bonus payout regardless of
        whether the hand of the player is higher", so on a loss or a tie an ante bonus hand is
        still paid its payout (an ``ante bonus`` line, outcome ``paid``) while the ante itself is
        collected or pushed.  Losing wagers come first, then winning ones, then the ante bonus.
        The payout limit (24.11(e)) caps first, second and ante bonus payouts together; a reduction
        falls on the last paid (the ante bonus, then the second, then the first wager).
        """
        assert self.dealer_hand is not None
        hand = evaluate(seat.hand_cards())
        c = self.cite
        dealer_higher = self.dealer_hand > hand
        tie = self.dealer_hand == hand
        label = hand.describe()
        bonus = self.ante_bonus(seat)
        plan: list[tuple[str, str, str, int, str, str, int]] = []
        bonus_clause = f"{c('10(f)3')}, {c('11(c)')}"
        if dealer_higher:
            for w in ("ante", "first", "second"):
                plan.append((w, "lose", c("10(f)1"), 0, "", label, 0))
        elif tie:
            for w in ("first", "second", "ante"):
                plan.append((w, "push", c("10(f)2"), 0, "", label, 0))
        else:
            for w in ("first", "second"):
                plan.append(
                    (w, "win", f"{c('10(f)3')}, {c('11(b)')}", seat.wagers[w], "1 to 1", label, 0)
                )
            if bonus is None:
                plan.append(
                    ("ante", "push", c("10(f)3"), 0, "", "no ante bonus hand: ante returned", 0)
                )
        if bonus is not None:
            name, payout = bonus
            win = payout.win(seat.wagers["ante"])
            if dealer_higher or tie:
                plan.append(("ante bonus", "paid", bonus_clause, win, str(payout),
                             f"ante bonus: {name}, paid regardless of the outcome", 0))  # fmt: skip
            else:
                plan.append(("ante", "win", bonus_clause, win, str(payout),
                             f"ante bonus: {name}", 0))  # fmt: skip
        return self._apply_limit(plan)

    def _apply_limit(
        self, plan: list[tuple[str, str, str, int, str, str, int]]
    ) -> list[tuple[str, str, str, int, str, str, int]]:
        limit = self.config.payout_limit
        if limit is None:
            return plan
        total = sum(p[3] for p in plan if p[1] in PAYING)
        excess = max(0, total - limit)
        out = list(plan)
        for i in range(len(out) - 1, -1, -1):
            if excess == 0:
                break
            wager, outcome, clause, win, odds, hand, _ = out[i]
            if outcome not in PAYING:
                continue
            cut = min(win, excess)
            excess -= cut
            out[i] = (wager, outcome, f"{clause}, {self.cite('11(e)')}", win - cut, odds, hand, cut)
        return out

    # ----------------------------------------------------------------- voids
    def _void_seat(self, seat: SeatState, clause: str, reason: str) -> None:
        """Void one hand: every wager still in action goes back; resolved ones stand."""
        for wager in [w for w in WAGER_ORDER if w in seat.wagers]:
            self._line(seat, wager, "void", clause, hand=reason)
        seat.status = "void"
        self._effect("void", seat.number, detail=f"{reason} ({clause})")
        self._collect_cards(seat, "void hand")

    def _void_all(self, clause: str, reason: str) -> None:
        for seat in self.seats_in_play():
            self._void_seat(seat, clause, reason)
        self._rack_remaining(f"void: {reason}")
        self.void_reason = f"{reason} ({clause})"
        self.phase = Phase.VOID
        self._effect("void", None, detail=self.void_reason)

    def _rack_remaining(self, why: str) -> None:
        """Collect every card still on the layout (seat 6 first, then the dealer), then the stub."""
        for seat in sorted(self.seats.values(), key=lambda s: -s.number):
            if seat.status == "in":
                self._collect_cards(seat, f"hand ({why})")
        self.rack.put("dealer", self.dealer_cards)
        if self.dealer_cards:
            self._effect("rack", None, self.dealer_cards, detail="dealer")
        if self.shoe.remaining():
            self._stub_to_rack("stub")

    def _void_round_except_qualifying(self, clause: str, reason: str) -> None:
        """24.12(a) and (f): all hands void except three-card hands that qualify for an ante
        bonus (three of a kind) or an optional bonus payout; those are paid what they qualify for
        and every other wager of theirs is returned.

        Under the 2003 and Massachusetts texts a three-card hand qualifies for the optional bonus
        payout only if the player elects to expose it (24.10(a)), so a bonus hand whose player
        declined to expose it is void like the rest (its wager returned, nothing paid).  A player
        who had not yet made the election when the dealer's error voided the round keeps it: a
        qualifying hand is paid, as exposing it can only gain (docs/interpretations.md).  Under
        13:69F exposure is required, so every qualifying hand is paid.
        """
        ante_trips = self.config.ante_bonus.get("three of a kind")
        for seat in sorted(self.seats_in_play(), key=lambda s: -s.number):
            three = seat.cards[:3]
            if len(seat.cards) < 3:
                continue
            exposed = seat.bonus_decision != "decline"
            if "bonus" in seat.wagers and exposed and (bonus := self.bonus_payout(three)):
                label, payout = bonus
                self._line(seat, "bonus", "win", f"{clause}, {self.cite('11(d)')}",
                           win=payout.win(seat.wagers["bonus"]), odds=str(payout), hand=label)  # fmt: skip
            is_trips = evaluate_three(three).category.label == "three of a kind"
            if is_trips and ante_trips is not None and "ante" in seat.wagers:
                win = ante_trips.win(seat.wagers["ante"])
                red = 0
                if self.config.payout_limit is not None and win > self.config.payout_limit:
                    red, win = win - self.config.payout_limit, self.config.payout_limit
                self._line(seat, "ante", "win", f"{clause}, {self.cite('11(c)')}", win=win,
                           odds=str(ante_trips), hand="ante bonus: three of a kind", reduction=red)  # fmt: skip
        raise VoidAll(clause, reason)

    # ----------------------------------------------------------------- irregularities
    def _check_dealer_card_exposed(self, a: DealerCardExposed) -> None:
        if not self.dealer_cards or self.phase not in (Phase.BONUS, Phase.DECISIONS, Phase.READY):
            raise FeltError(
                f"24.12(a) concerns the dealer's first three cards after they are dealt and "
                f"before the dealer reveals; the round is at {self.phase}"
            )

    def _do_dealer_card_exposed(self, a: DealerCardExposed) -> None:
        if self.phase is Phase.READY:
            self._effect(
                "irregularity",
                detail=f"dealer card exposed after every player decided: no effect ({self.cite('12(a)')})",
            )
            return
        self._effect("irregularity", detail=f"dealer card exposed ({self.cite('12(a)')})")
        self._void_round_except_qualifying(self.cite("12(a)"), "a dealer's card was exposed early")

    def _check_misdeal(self, a: Misdeal) -> None:
        if self.phase not in CARDS_TO_COME:
            raise FeltError(
                f"a misdeal is given before the deal it happens in; the round is at {self.phase}"
            )
        if a.cards < 0 or a.cards > 10:
            raise FeltError(f"misdeal cards must be 0 to 10, got {a.cards}")
        if a.seat is not None:
            seat = self.seats.get(a.seat)
            if seat is None or seat.status != "in":
                raise FeltError(f"seat {a.seat} receives no cards in the next deal")
        elif self.phase is Phase.READY and len(self.dealer_cards) != 3:
            raise FeltError("the dealer's hand is already void")
        if a.seat in self.pending_misdeals:
            raise FeltError("a misdeal for that position is already given for the next deal")
        self._check_misdeal_fits(a.seat, a.cards, self.cite("12(d)"))

    def _cards_needed(
        self, misdeal: tuple[int | None, int] | None = None, new_seat: int | None = None
    ) -> int:
        """The most cards the deals to come can take (24.7(d), 24.10(d)), with the misdeals given
        (24.12(d)): a seat dealt a wrong number is void and gets no more; a dealer's hand of four
        of five (six of seven) cards gets one more; any other misdeal to the dealer voids every
        hand once the dealer's cards are dealt; a jammed shoe (24.12(f)) stops the deal."""
        given = dict(self.pending_misdeals)
        if misdeal is not None:
            given[misdeal[0]] = misdeal[1]
        numbers = sorted(
            [s.number for s in self.seats_in_play()] + ([] if new_seat is None else [new_seat])
        )
        extra = self.hand_size - 3
        if self.phase in (Phase.BETTING, Phase.CLOSED):
            first = [given.get(n, 3) for n in numbers]
            if self.jam_after_stacks is not None:
                return sum(first[: self.jam_after_stacks])
            dealer = given.get(None, 3)
            need = sum(first) + dealer
            if not 2 <= dealer <= 3:
                return need
            return need + extra * (first.count(3) + 1) + (dealer == 2)
        if not self.cards_to_come():
            return 0
        dealer = given.get(None, extra)
        need = sum(given.get(n, extra) for n in numbers) + dealer
        return need + (len(self.dealer_cards) + dealer == self.hand_size - 1)

    def _do_misdeal(self, a: Misdeal) -> None:
        self.pending_misdeals[a.seat] = a.cards
        who = "the dealer" if a.seat is None else f"seat {a.seat}"
        self._effect(
            "irregularity",
            a.seat,
            detail=f"{who} will be dealt {a.cards} cards in the next deal ({self.cite('12(d)')})",
        )

    def _check_shoe_jam(self, a: ShoeJam) -> None:
        if self.config.dealing != "automated-shoe":
            raise FeltError(
                f"24.12(f) concerns an automated dealing shoe; this table deals by {self.config.dealing}"
            )
        if self.phase not in (Phase.BETTING, Phase.CLOSED):
            raise FeltError(
                f"shoe_jam is given before the deal, naming the stacks delivered; the round is at {self.phase}"
            )
        if not 0 <= a.stacks <= len(self.seats):
            raise FeltError(
                f"shoe_jam stacks must be 0 to {len(self.seats)} (stacks delivered to players), got {a.stacks}"
            )

    def _do_shoe_jam(self, a: ShoeJam) -> None:
        self.jam_after_stacks = a.stacks
        self._effect(
            "irregularity",
            detail=f"automated shoe will jam after {a.stacks} stack(s) ({self.cite('12(f)')})",
        )

    # ----------------------------------------------------------------- presentation helpers
    def cards_accounted(self) -> list[Card]:
        """Every card: in the rack, on the layout, or in the shoe (must be the 52, once each)."""
        on_layout: list[Card] = []
        if not self.finished:
            for seat in self.seats.values():
                if seat.status == "in":
                    on_layout += [
                        c for c in seat.cards if not seat.discarded or c not in seat.discarded
                    ]
            on_layout += self.dealer_cards
        return self.rack.cards() + on_layout + list(self.shoe.order[self.shoe.position :])


def edition_positions_clause(rnd: Round) -> str:
    """The clause limiting positions per player (13:69F-24.13), or a note that it is house policy."""
    return rnd.cite("13") if rnd.config.edition.positions_rule else "house rule"
