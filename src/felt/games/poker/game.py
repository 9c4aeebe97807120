"""The poker room as the outer layers see it (:class:`felt.games.base.TableGame`): registered as
the entry point ``poker`` of the group ``felt.games``.  A round is one hand with the sitting in
before it (:mod:`felt.games.poker.round`); the table carries the stacks from hand to hand.
Nothing outside this folder names the game; the analysis, the guide, the waiting list and the
terminal session are imported only when asked for."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, Sheet, TableGame
from felt.games.poker.config import GAME as GAME_ID
from felt.games.poker.config import PokerConfig
from felt.games.poker.round import EDITION, HAND_ACTIONS, ROUND_ACTIONS
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.games.poker.round import PokerRoomTable, PokerRound
    from felt.simulate import Simulation

TITLE = "Poker room"
_UNUSED = {
    "deal": "the dealer deals one card at a time (deal_hole, burn, deal_board)",
    "reveal": "the hands still in are shown at the award",
    "settle": "the pot is awarded (award)",
    "face_up_card": 'a card found face up in the deck goes to the discards ({"irregularity": '
    '"top_card_discarded", "clause": "i"})',
    "drawn_in_error": "a card dealt in error is 14.15(g), (m) or (n) (dealt_to_ineligible, "
    "top_card_discarded)",
    "misdeal": 'a misdeal deals the hand again from a new shuffle ({"irregularity": "redeal", '
    '"clause": "f1"})',
}
"""The shared actions of the house-banked card games that the poker room does otherwise."""


_TEXT = frozenset({"clause", "stated", "amount", "reason"})
_BOOL = frozenset({"fouled", "then_discards"})


def _form(name: str, label: str, **fields: str) -> dict[str, Any]:
    """A dealer's irregularity form: each field with its label and ``kind`` (``number``, a
    whole number; ``text``, a word or an amount, its allowed words in the label; ``bool``)."""
    out = []
    for field, words in fields.items():
        kind = "text" if field in _TEXT else "bool" if field in _BOOL else "number"
        text = f"{field.capitalize()} ({words})" if field in ("clause", "stated") else words
        out.append({"field": field, "label": text, "kind": kind, "text": kind == "text"})
    return {"name": name, "label": label, "fields": out}


class PokerRoom(TableGame):
    """The poker room (N.J.A.C. 19:47-14.15 to 14.18): hold'em, Omaha and seven-card stud."""

    family = "poker"
    ids = (GAME_ID,)
    package = "felt.games.poker"
    seat_word = "seat"
    action_types = HAND_ACTIONS + ROUND_ACTIONS
    plays_on_when_closed = False  # a closed poker table deals no new hand: its seats cash out

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """The poker room."""
        return TITLE

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-14."""
        return (EDITION,)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> PokerConfig:  # fmt: skip
        """A poker table; ``{}`` is fixed-limit hold'em $2/$4 with a 10% rake capped at $4."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(f"{where}: edition does not apply to {GAME_ID} (one text: {EDITION})")
        return PokerConfig.from_mapping(dict(settings))

    def load_config(self, path: str | Path) -> tuple[str, PokerConfig]:
        """A poker table file."""
        return GAME_ID, PokerConfig.from_file(Path(path))

    config_types = (PokerConfig,)

    # ----------------------------------------------------------------- analysis, guide, floor
    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The table's structure and what its rake takes (:func:`.analysis.par_sheet`; hand
        equities are the players' business, not the house's)."""
        from felt.games.poker.analysis import par_sheet

        return par_sheet(config)

    def analyze_command(self, game_id: str, options: argparse.Namespace) -> Sheet | None:
        """The default analysis."""
        return None

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a poker table."""
        from felt.games.poker.guide import render

        return render(config, fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The poker room's text."""
        return "N.J.A.C. 19:47-14", "N.J.A.C. 19:47-{}"

    def simulation(self, config: Any) -> Simulation:
        """Tables of players playing hands against each other (:mod:`.simulation`)."""
        from felt.games.poker.simulation import PokerSimulation

        return PokerSimulation(config)

    def declare_tables(self, metadata: Any) -> None:
        """The waiting lists' tables (:mod:`.store`)."""
        from felt.games.poker.store import declare_tables

        declare_tables(metadata)

    def mount(self, app: Any, server: Any, who: Any) -> None:
        """The waiting list's routes (:mod:`.routes`), the rake report and the hand histories
        (:mod:`.records`), under ``/api/poker``."""
        from felt.games.poker import records, routes

        routes.mount(app, server, who)
        records.mount(app, server, who)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """The table's seats."""
        return int(config.seats)

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> GameTable:
        """A table as :meth:`table_snapshot` left it (its stacks, players, button)."""
        from felt.games.poker.round import PokerRoomTable

        if snapshot:
            return PokerRoomTable.from_snapshot(config, snapshot)
        return PokerRoomTable(config)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """The stacks, whose they are, the button, the hands played and the rake taken."""
        return self._table(table).snapshot()

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> RoundCore:
        """The hand :meth:`round_origin` recorded, on ``deck``."""
        from felt.games.poker.round import PokerRound, origin_fields

        number = origin.get("number", 1)
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise FeltError(f"poker round origin: number must be 1 or more, got {number!r}")
        return PokerRound(config, tuple(deck), number=number, **origin_fields(config, origin))

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The stacks, players and button the round began with."""
        from felt.core.money import dollars

        r = self._round(rnd)
        return {
            "number": r.number,
            "stacks": {str(n): dollars(c) for n, c in sorted(r.stacks.items())},
            "players": {str(n): p for n, p in sorted(r.players.items())},
            "button": r._origin["button"],
            "redeal": r.redeal,
            "charged_at": {str(n): t for n, t in sorted(r._origin["charged_at"].items())},
        }

    def parse_action(self, entry: object, where: str) -> Action:
        """One action as JSON; the shared actions the poker room does otherwise are refused with
        what to send instead."""
        if isinstance(entry, dict):
            for family in ("dealer", "irregularity"):
                name = entry.get(family)
                if isinstance(name, str) and name in _UNUSED:
                    raise FeltError(f"{where}: the poker room has no {name!r}: {_UNUSED[name]}")
            if entry.get("irregularity") == "statement":
                return self._statement(entry, where)
        return super().parse_action(entry, where)

    def _statement(self, entry: dict[str, Any], where: str) -> Action:
        """14.15(k): the statement's flat form (:meth:`Statement.to_json`) read back: the stated
        action is read as a player's action of the same seat."""
        from felt.games.poker import hand as ph

        allowed = {"irregularity", "seat", "stated", "amount", "then_discards"}
        extra = sorted(set(entry) - allowed)
        if extra:
            raise FeltError(
                f"{where}: statement takes {', '.join(sorted(allowed))}; not {extra[0]!r}"
            )
        stated = entry.get("stated")
        names = ("fold", "check", "call", "bet", "raise_to", "all_in", "bring_in")
        if stated not in names:
            raise FeltError(f"{where}: stated must be one of {', '.join(names)}")
        said: dict[str, Any] = {"action": stated, "seat": entry.get("seat")}
        if "amount" in entry:
            said["amount"] = entry["amount"]
        action = super().parse_action(said, f"{where}: stated")
        then = entry.get("then_discards", False)
        if not isinstance(then, bool):
            raise FeltError(f"{where}: then_discards must be true or false")
        assert isinstance(action, ph.PlayerAction)
        return ph.Statement(action.seat, action, then)

    def complete_action(
        self, table: GameTable, action: Action, rnd: RoundCore | None = None
    ) -> Action:
        """A time-charge collection gets the table's clock as it is applied; a time sent by a
        person is refused (the server's clock alone says how long a seat sat)."""
        import time

        from felt.games.poker.round import TimeCharge

        if not isinstance(action, TimeCharge):
            return action
        if action.at is not None:
            raise FeltError(
                'time_charge: the table\'s clock gives the time; send {"dealer": "time_charge"}'
            )
        return TimeCharge(at=time.time())

    def carried_owner(self, table: GameTable, seat: int) -> str | None:
        """The player whose chips are at ``seat`` between hands: they stay theirs until cashed
        out."""
        t = self._table(table)
        if t.stacks.get(seat, 0) <= 0:
            return None
        return t.players.get(seat) or f"seat {seat}"

    def betting_closes_early(self, rnd: RoundCore, seated: set[int]) -> bool:
        """Never: between hands every seat has the table's whole betting window to buy in, add
        on or cash out (stacks carry from hand to hand, so every seat "has a hand" at once)."""
        return False

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`.view.seat_json` of ``seat`` (0: what anyone sees)."""
        from felt.games.poker.view import seat_json

        return seat_json(self._round(rnd), seat)

    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): the buy-in
        between hands; fold, check, call, bet or raise, all in on the player's turn; the board;
        the dealer's irregularities of 14.15."""
        from felt.core.money import dollars

        buy = {"minimum": dollars(config.min_buy_in), "maximum": dollars(config.max_buy_in)}
        act = [
            {"label": "Fold", "action": {"action": "fold"}},
            {"label": "Check", "action": {"action": "check"}},
            {"label": "Call", "action": {"action": "call"}, "primary": True},
            {"label": "All in", "action": {"action": "all_in"}},
        ]
        if config.variant == "stud7":
            act.insert(0, {"label": "Bring in", "action": {"action": "bring_in"}})
        return {
            "title": TITLE,
            "wager": {
                "label": "Buy-in",
                **buy,
                "legend": "chips for the table (between hands)",
                "action": "buy_in",
                "button": "Buy in",
                "phases": ["betting"],
                "spots": [{"field": "amount", "label": "Chips", **buy, "step": "0.01"}],
            },
            "decisions": {
                "act": {
                    "buttons": act,
                    "raise": {
                        "bet": "bet",
                        "raise": "raise_to",
                        "field": "amount",
                        "step": dollars(config.small_bet if config.limit == "fixed" else 1),
                    },
                }
            },
            "dealer": {"cards": "board", "count": "board_count", "label": "Board"},
            "irregularities": [
                _form("redeal", "Misdeal: deal again (14.15(f), (o))", clause="f1, f2, f3, f4, o"),
                _form("dead_round", "Cards missing or extra: round dead (14.15(h))"),
                _form(
                    "top_card_discarded",
                    "Top card to the discards (14.15(i), (m), (n))",
                    clause="i, m, n",
                    seat="Seat (n only)",
                ),
                _form(
                    "dealt_to_ineligible",
                    "Dealt to a seat not in the hand (14.15(g))",
                    seat="Seat",
                    count="Cards",
                ),
                _form(
                    "hand_killed",
                    "Hand dead (14.15(j), (j)3 refunded, (l))",
                    clause="j, j3, l",
                    seat="Seat",
                    fouled="Fouled, not collected",
                ),
                _form("hand_reconstructed", "Hand reconstructed (14.15(j)2)", seat="Seat"),
                _form("leave_without_comment", "Left without comment (14.15(j)4)", seat="Seat"),
                _form(
                    "statement",
                    "Verbal statement, binding (14.15(k))",
                    seat="Seat",
                    stated="fold, check, call, bet, raise_to, all_in, bring_in",
                    amount="Amount (bet, raise to)",
                    then_discards="Then threw the cards away ((k)2)",
                ),
                _form(
                    "stud_hole_exposed",
                    "Stud hole card exposed in dealing (14.15(l))",
                    seat="Seat",
                    card="Hole card (1 or 2)",
                ),
                _form("shuffler_removed", "Shuffler removed (14.15(p))"),
                _form(
                    "remove",
                    "Remove a player, between hands (14.16(b); a supervisor)",
                    seat="Seat",
                    reason="Reason",
                ),
            ],
            "steps": [],
            "dealer_steps": {
                "no_more_bets": "Deal the hand",
                "deal_hole": "Deal a hole card",
                "burn": "Burn a card",
                "deal_board": "Deal the board",
                "award": "Award the pot",
                "time_charge": "Collect the time charge",
            },
            "phase_words": {
                "betting": "sitting in: buy in or cash out",
                "playing": "hand in play",
                "complete": "pot awarded",
            },
        }

    # ----------------------------------------------------------------- scripts, reports, play
    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """A hand at a table of the ``table`` settings on ``deck``, with the script's
        ``stacks`` and ``button`` if given (else the seats buy in as its wagers)."""
        from felt.games.poker.round import PokerRound, origin_fields

        config = self.config(game_id, table, where="field 'table'")
        origin = {k: script[k] for k in self.script_fields if k in script}
        return PokerRound(config, deck, **origin_fields(config, origin))

    script_fields = ("stacks", "players", "button", "redeal", "charged_at")

    def script_wager(self, key: str, entry: object) -> Action:
        """A seat's buy-in from a script: ``{"amount": "100.00"}`` or ``"100.00"``."""
        from felt.core.money import cents
        from felt.games.poker.round import BuyIn

        try:
            seat = int(key)
        except ValueError:
            raise FeltError(f"field 'wagers'.{key}: a seat number 1 to 10") from None
        amount = entry.get("amount") if isinstance(entry, dict) else entry
        return BuyIn(seat, amount=cents(amount, f"field 'wagers'.{key}"))

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The seat and buy-in of a :class:`BuyIn`."""
        from felt.core.money import dollars
        from felt.games.poker.round import BuyIn

        if not isinstance(action, BuyIn):
            return None
        return action.seat, {"amount": dollars(action.amount)}

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The stacks and button the hand began with, when the table carried any."""
        origin = self.round_origin(rnd)
        return {k: origin[k] for k in self.script_fields if origin[k]}

    def report_hand(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """A seat's cards and its result (the hand is named in the view)."""
        r = self._round(rnd)
        cards = r.hand.hole_cards(seat) if r.hand is not None and seat in r.hand.start else ()
        return {"cards": [str(c) for c in cards], "net": r.net(seat)}

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """The board, the button, the rake and how the hand ended."""
        from felt.core.money import dollars

        r = self._round(rnd)
        hand = r.hand
        return {
            "board": [str(c) for c in hand.board()] if hand is not None else [],
            "button": r.button,
            "rake": dollars(hand.rake if hand is not None and r.ended_by == "awarded" else 0),
            "ended_by": r.ended_by,
        }

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """The play the decision clock would make: check where free, else fold (the house takes
        no side in a game the players play against each other)."""
        from felt.games.poker import hand as ph

        r = self._round(rnd)
        if election != "act" or r.hand is None:
            raise FeltError(f"no election {election!r} at the poker room (it has: act)")
        for action in (ph.Check(seat), ph.BringIn(seat), ph.Fold(seat)):
            if r.can(action):
                return action
        raise FeltError(f"seat {seat} is not to act")

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """``felt play``: a session at a poker table against simple players (:func:`.play.play`)."""
        from felt.games.poker.play import play

        play(config, options)

    @staticmethod
    def _round(rnd: RoundCore) -> PokerRound:
        from felt.games.poker.round import PokerRound

        assert isinstance(rnd, PokerRound)
        return rnd

    @staticmethod
    def _table(table: GameTable) -> PokerRoomTable:
        from felt.games.poker.round import PokerRoomTable

        assert isinstance(table, PokerRoomTable)
        return table


GAME = PokerRoom()
"""The registered game."""
