"""Craps as the outer layers see it (:class:`felt.games.base.TableGame`): registered as the entry
point ``craps`` of the group ``felt.games``.  A craps "round" is one roll
(:mod:`felt.games.craps.round`); the table carries the layout from roll to roll.  Nothing outside
this folder names the game; the analysis, simulation, guide and terminal session are imported
only when asked for."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.cards import Card
from felt.core.errors import FeltError
from felt.games.base import GameTable, Log, TableGame
from felt.games.craps.actions import ACTIONS
from felt.games.craps.config import EDITION, CrapsConfig
from felt.games.craps.config import GAME as GAME_ID
from felt.rounds.actions import Action
from felt.rounds.round_core import RoundCore

if TYPE_CHECKING:
    from felt.games.craps.round import CrapsRound
    from felt.games.craps.table import CrapsTable
    from felt.simulate import Simulation

TITLE = "Craps"
_CARD_ACTIONS = frozenset(
    {"deal", "reveal", "settle", "timeout", "face_up_card", "drawn_in_error", "misdeal",
     "shuffler_jam"}
)  # fmt: skip
"""The shared actions of the card games, which craps does not read."""


class Craps(TableGame):
    """Craps (N.J.A.C. 19:47-1, as dealt in New Jersey)."""

    family = "craps"
    ids = (GAME_ID,)
    package = "felt.games.craps"
    seat_word = "seat"
    action_types = ACTIONS

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Craps."""
        return TITLE

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-1."""
        return (EDITION,)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> CrapsConfig:  # fmt: skip
        """A craps table; ``{}`` is the minimum table."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(f"{where}: edition does not apply to {GAME_ID} (one text: {EDITION})")
        return CrapsConfig.from_mapping(dict(settings), where=where)

    def load_config(self, path: str | Path) -> tuple[str, CrapsConfig]:
        """A craps table file."""
        from felt.games.craps.config import load_craps_table

        return GAME_ID, load_craps_table(path)

    # ----------------------------------------------------------------- analysis, simulation, guide
    config_types = (CrapsConfig,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact par sheet of the table (every wager's edge; ``ante`` is not used: craps has
        no ante, each wager's edge is per unit wagered): :func:`.analysis.par_sheet`."""
        from felt.games.craps.analysis import par_sheet

        return par_sheet(config)

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to a craps table."""
        from felt.games.craps.guide import render

        return render(config, fmt)

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The title and citation format of N.J.A.C. 19:47-1, from the game's rules data."""
        from felt.games.craps.config import rules

        r = rules()
        return r.title, r.clause_format

    def simulation(self, config: Any) -> Simulation:
        """Whole tables of players with betting systems on the game's fast path
        (:mod:`.simulation`)."""
        from felt.games.craps.simulation import CrapsSimulation

        return CrapsSimulation(config)

    # ----------------------------------------------------------------- tables, rounds, views
    def seat_count(self, config: Any) -> int:
        """The player positions around the table."""
        return int(config.seats)

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> GameTable:
        """A table as :meth:`table_snapshot` left it (the layout, the point, the shooter, the
        last rolls, the rolls played); its dice from the operating system's CSPRNG."""
        from felt.games.craps.table import CrapsTable

        if snapshot:
            return CrapsTable.from_snapshot(config, snapshot)
        return CrapsTable(config)

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """What carries between rolls: the next roll's origin and the rolls played."""
        return self._table(table).snapshot()

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> RoundCore:
        """The roll :meth:`round_origin` recorded (the deck is ignored: craps has none)."""
        from felt.games.craps.round import round_from_origin

        return round_from_origin(config, origin)

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The layout, point, shooter and last rolls the roll began with."""
        return self._round(rnd).origin_json()

    def parse_action(self, entry: object, where: str) -> Action:
        """One action as JSON, read as every game reads it, but the shared actions of a card
        game: craps deals no cards, settles each roll as it is thrown and asks no decisions."""
        if isinstance(entry, dict):
            for family in ("dealer", "irregularity"):
                name = entry.get(family)
                if name in _CARD_ACTIONS:
                    raise FeltError(
                        f"{where}: craps has no {name!r}: it is played with dice; the dealer "
                        'calls "no more bets" and the dice are rolled ({"dealer": "roll"}), and '
                        'a throw that does not count is {"irregularity": "invalid_roll"}'
                    )
        return super().parse_action(entry, where)

    def dealer_step(self, table: GameTable, rnd: RoundCore) -> Action | None:
        """ "No more bets" once a wager and a shooter are there; then the roll: an electronic
        table's ``Roll()`` (the dice are thrown as it is applied, :meth:`complete_action`); at a
        live table none: the stickperson enters the dice."""
        step = rnd.next_dealer_action()
        from felt.games.craps.actions import Roll

        if isinstance(step, Roll) and self._table(table).config.dice == "entered":
            return None
        return step

    def carried_owner(self, table: GameTable, seat: int) -> str | None:
        """The player whose chips lie at ``seat`` on the layout between rolls: wagers stay the
        player's until decided or taken down (1.3, title only)."""
        held = self._table(table).seats.get(seat)
        if held is None or not held.wagers:
            return None
        return str(held.player or f"seat {seat}")

    def complete_action(
        self, table: GameTable, action: Action, rnd: RoundCore | None = None
    ) -> Action:
        """The roll at an electronic table gets its dice from the table's source as it is
        applied; dice sent by a person are refused there, and a roll without dice is refused at
        a live table (the stickperson enters both)."""
        from felt.games.craps.actions import Roll

        if not isinstance(action, Roll):
            return action
        if rnd is not None and str(getattr(rnd, "phase", "")) != "closed":
            return action  # no throw spent on a roll the round refuses (wagers still open)
        craps = self._table(table)
        given = action.die1 is not None or action.die2 is not None
        if craps.config.dice == "table":
            if given:
                raise FeltError(
                    "roll: an electronic table's dice come from its random number generator; "
                    'send {"dealer": "roll"} without dice'
                )
            return Roll(*craps.throw())
        if not given:
            raise FeltError(
                'roll: the stickperson enters both dice at a live table ({"dealer": "roll", '
                '"die1": 3, "die2": 4})'
            )
        return action

    def betting_closes_early(self, rnd: RoundCore, seated: set[int]) -> bool:
        """Never: wagers carry from roll to roll, so every roll's betting window runs its full
        time."""
        return False

    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """:func:`.view.seat_json` of ``seat`` (0: what anyone sees)."""
        from felt.games.craps.view import seat_json

        return seat_json(self._round(rnd), seat)

    # ----------------------------------------------------------------- the browser's layout
    def layout(self, config: Any) -> dict[str, Any]:
        """The table as the browser draws it (the keys: :meth:`TableGame.layout`): one wager
        at a time on a spot, within the table's limits; the dealer's steps; the invalid roll."""
        from felt.core.money import dollars
        from felt.games.craps.spots import SPOTS

        flat = {"minimum": dollars(config.minimum), "maximum": dollars(config.maximum)}
        prop = {"minimum": dollars(config.proposition_minimum), "maximum": dollars(config.maximum)}
        spots = [
            {"spot": s.id, "label": s.label,
             **(prop if (s.kind == "hard" or s.one_roll) else flat),
             "odds": s.odds}
            for s in SPOTS
            if s.betting
        ]  # fmt: skip
        return {
            "title": TITLE,
            "wager": {
                "label": "Wager",
                "minimum": dollars(min(config.minimum, config.proposition_minimum)),
                "maximum": dollars(config.maximum),
                "legend": "chips on a spot of the layout; odds behind a line wager",
                "action": "bet",
                "button": "Bet",
                "phases": ["betting"],
                "spots": [
                    {
                        "field": "amount",
                        "label": "Amount",
                        "minimum": dollars(min(config.minimum, config.proposition_minimum)),
                        "maximum": dollars(config.maximum),
                        "step": "0.01",
                    },
                ],
                "layout_spots": spots,
            },
            "decisions": {},
            "dealer": {"cards": "dice", "count": "invalid_rolls", "label": "Dice"},
            "irregularities": [
                {"name": "invalid_roll", "label": "Invalid roll (19:47-1.9)", "fields": []}
            ],
            "steps": [],
            "dealer_steps": {"no_more_bets": "No more bets", "roll": "Roll the dice"},
            "phase_words": {
                "betting": "place your bets",
                "closed": "no more bets: the dice are out",
                "complete": "roll settled",
            },
        }

    # ----------------------------------------------------------------- scripts and play
    script_fields = ("layout",)

    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """The roll a script begins: a table of the ``table`` settings with the layout the
        script carries (``layout``, an origin); the deck is not used."""
        from felt.games.craps.script import script_round

        return script_round(table, script)

    def script_wager(self, key: str, entry: object) -> Action:
        """A seat's wager from a script: ``{"pass": "10.00"}`` (one spot)."""
        from felt.games.craps.script import wager

        return wager(key, entry)

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The seat and entry of a bet."""
        from felt.games.craps.script import wager_entry

        return wager_entry(action)

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The layout the roll began with, when anything was on it."""
        from felt.games.craps.script import script_origin

        return script_origin(self._round(rnd))

    def report_dealer_text(self, rnd: RoundCore, symbols: bool) -> list[str]:
        """The roll: the dice, the point it found and the point it left, the shooter."""
        played = self._round(rnd)
        before, after = played.point_before(), played.point
        head = f"shooter    seat {played.shooter}" if played.shooter else "shooter    none yet"
        if played.dice is None:
            return [f"{head}; point {before or 'off (a come out roll)'}"]
        d1, d2 = played.dice
        no_roll = (
            f"; {played.invalid_rolls} invalid roll(s) before it" if played.invalid_rolls else ""
        )
        return [
            f"{head}  rolled {d1} and {d2} ({d1 + d2}){no_roll}",
            f"point      {before or 'off (come out roll)'} -> {after or 'off'}",
        ]

    def report_hand(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """Craps has no hands."""
        return {}

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """The dice, the point after the roll and the layout left."""
        played = self._round(rnd)
        return {
            "dice": list(played.dice) if played.dice else None,
            "point": played.point,
            "shooter": played.shooter,
            "invalid_rolls": played.invalid_rolls,
            "layout": {str(n): dict(s.wagers) for n, s in sorted(played.seats.items()) if s.wagers},
        }

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """Craps asks no player for a decision: nothing to suggest."""
        raise FeltError(
            f"craps has no elections (asked for {election!r} at seat {seat}): a wager stays as "
            "it lies until its owner moves it"
        )

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """``felt play``: a session at a craps table (:func:`.play.play`)."""
        from felt.games.craps.play import play

        play(config, options)

    @staticmethod
    def _round(rnd: RoundCore) -> CrapsRound:
        from felt.games.craps.round import CrapsRound

        assert isinstance(rnd, CrapsRound)
        return rnd

    @staticmethod
    def _table(table: GameTable) -> CrapsTable:
        from felt.games.craps.table import CrapsTable

        assert isinstance(table, CrapsTable)
        return table


GAME = Craps()
"""The registered game."""
