"""The game interface: everything the outer layers (CLI, scripts, server, browser, analysis,
simulation, guide, register) may know about a game.  A game's folder ``felt/games/<game>/``
implements it once, as a :class:`Game` (a house-banked table game: a :class:`TableGame`), and
registers it as an entry point of the group ``felt.games`` (:mod:`felt.games.registry`); nothing
outside the folder names the game.

The interface is a class, not a bare protocol, so a game gets the shared behaviour (reading an
action, a game's table-file key) for free and overrides only what is particular to it.  What a
game does not have (Keno has no seats, a game may have no fast simulation) answers ``None`` or
refuses with a clear error naming the game.

Heavy modules (analysis kernels, the server) are imported inside the methods, so looking a game
up costs an import of its folder's ``game`` module only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from felt.core.errors import FeltError

if TYPE_CHECKING:
    import argparse

    from felt.core.cards import Card
    from felt.rounds.actions import Action
    from felt.rounds.round_core import RoundCore
    from felt.simulate import Simulation

Log = Callable[[str], None]
"""Where long work reports progress (standard error in the CLI)."""


class Sheet(Protocol):
    """An exact analysis in every format ``felt analyze`` prints (a par sheet)."""

    def to_json_text(self) -> str:
        """The figures as JSON, exact values as fractions."""
        ...

    def to_markdown(self) -> str:
        """The sheet as Markdown."""
        ...

    def to_html(self) -> str:
        """The sheet as a standalone HTML page."""
        ...

    def to_text(self) -> str:
        """The sheet as plain text."""
        ...


class GameTable(Protocol):
    """A table across rounds (what carries from one round to the next: counts, rotations, the
    devices in use): the game's own class, driven through :class:`TableGame`."""

    config: Any
    history: list[Any]
    rounds_played: int

    def new_round(self) -> RoundCore:
        """The next round, on a deck the table shuffles by its own rules."""
        ...

    def finish(self, rnd: Any) -> None:
        """Record ``rnd`` as played (counts and rotations move on)."""
        ...


class Game:
    """One game (or a family of games sharing one rule text, such as Boston 5 and Boston 7).

    Subclasses set the class attributes and override the methods their game supports."""

    family: ClassVar[str] = ""
    """The folder and register name (``boston``); also the entry point's name."""
    ids: ClassVar[tuple[str, ...]] = ()
    """The game ids a table, a command or a script names (``boston5``, ``boston7``)."""
    kind: ClassVar[str] = "table"
    """``table`` (a house-banked table game with seats and rounds) or ``system`` (Keno: tickets
    written at a counter against draws, see docs/design.md)."""
    package: ClassVar[str] = ""
    """The game's package (``felt.games.boston``): its data, register and screens live there."""

    # ----------------------------------------------------------------- identity and editions
    def title(self, game_id: str) -> str:
        """The game's name as a patron reads it (``Boston 5 Stud Poker``)."""
        raise NotImplementedError

    def editions(self, game_id: str) -> tuple[str, ...]:
        """The rule texts the game may be played under, the default first; one text for a game
        with a single edition."""
        raise NotImplementedError

    def check_edition(self, game_id: str, edition: str | None) -> str:
        """``edition`` (the default when None), refused with the ones allowed if the game has no
        such edition."""
        names = self.editions(game_id)
        if edition is None:
            return names[0]
        if edition not in names:
            if len(names) == 1:
                raise FeltError(f"--edition does not apply to {game_id} (one text: {names[0]})")
            raise FeltError(
                f"unknown edition {edition!r} for {game_id} (allowed: {', '.join(names)})"
            )
        return edition

    # ----------------------------------------------------------------- data files
    def resource(self, name: str) -> Traversable:
        """A file of the game's folder (``register.toml``, ``data/...``, ``static/...``)."""
        return resources.files(self.package).joinpath(name)

    def register_toml(self) -> str:
        """The clause register of the game's rule text, as TOML (see :mod:`felt.register`)."""
        return self.resource("register.toml").read_text(encoding="utf-8")

    def static_dir(self) -> Traversable | None:
        """The folder of the game's own browser screens (served under ``/games/<family>/``), or
        None when the shared table screen draws it from :meth:`TableGame.layout`."""
        folder = self.resource("static")
        return folder if folder.is_dir() else None

    # ----------------------------------------------------------------- configuration
    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "table",
    ) -> Any:  # fmt: skip
        """The configuration ``settings`` (a table file's keys, dollars as strings) describes for
        ``game_id`` under ``edition``, checked against the regulatory minimums; ``{}`` gives the
        minimum table."""
        raise NotImplementedError

    def load_config(self, path: str | Path) -> tuple[str, Any]:
        """The game id and configuration of a table file (or Keno's rate card)."""
        raise NotImplementedError

    def config_game(self, config: Any) -> str:
        """The game id a configuration is for."""
        return self.ids[0]

    def config_edition(self, config: Any) -> str:
        """The edition a configuration is played under."""
        return self.editions(self.config_game(config))[0]

    # ----------------------------------------------------------------- the command line
    def add_commands(self, commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
        """Add the game's own ``felt`` commands (Keno's ``felt keno``) to ``commands``, the
        ``felt`` parser's subparsers, with ``formatter`` for their help; none by default."""

    def add_analyze_options(self, parser: argparse.ArgumentParser) -> list[argparse.Action]:
        """Add the ``felt analyze`` options that only this game takes (Keno's ``--rate-card``)
        to ``parser`` and return them: ``felt analyze`` refuses them for every other game."""
        return []

    def analyze_command(self, game_id: str, options: argparse.Namespace) -> Sheet | None:
        """``felt analyze`` of a game that is not analysed at a table (a table file, an edition
        and an ante, then :meth:`analyze`): what its own ``options`` ask for, as the sheet to
        print, or None when the game printed its answer itself."""
        raise NotImplementedError(f"{self.family} has no felt analyze of its own")

    # ----------------------------------------------------------------- analysis and guide
    config_types: ClassVar[tuple[type, ...]] = ()
    """The classes of the game's configurations: a layer handed only a configuration (the
    simulation, the guide) finds its game by them."""

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact analysis (the par sheet, a :class:`Sheet`) of ``config`` at ``ante`` cents
        (None: the minimum)."""
        raise NotImplementedError

    def analysis_pending(self, config: Any) -> str | None:
        """Why the exact analysis cannot be served at once (minutes of precomputation not yet on
        this machine), or None when it can."""
        return None

    def guide(self, config: Any, fmt: str) -> str:
        """The patron's guide to the table ``config`` describes, rendered as ``fmt``."""
        raise NotImplementedError(f"{self.family} has no patron's guide")

    def edition_text(self, edition: str) -> tuple[str, str] | None:
        """The title of ``edition``'s rule text and how it cites a clause of its own subchapter
        (a format with one ``{}``: ``N.J.A.C. 19:47-24.{}``), from the game's own data, so its
        register need not repeat them; None when the register carries them."""
        return None

    def simulation(self, config: Any) -> Simulation:
        """How ``felt simulate`` plays tables of ``config``: the game's compiled fast path where
        it has one (its ``simulation`` module), else every round through its round engine with
        the suggested play (:class:`felt.simulate.Simulation`)."""
        from felt.simulate import Simulation

        if not isinstance(self, TableGame):
            raise FeltError(f"{self.family} cannot be simulated: it is not a table game")
        return Simulation(self, config)

    # ----------------------------------------------------------------- systems
    # A system game (kind ``system``, such as Keno) is run by the server as systems of its own
    # beside the tables; these say what the server needs of it (:mod:`felt.server.systems`).  The
    # game's answers live in its server adapter, imported here only when asked for.
    def roles(self) -> tuple[str, ...]:
        """The staff roles the game adds to the server's accounts (none by default)."""
        return ()

    def declare_tables(self, metadata: Any) -> None:
        """Declare the game's own database tables on the server's SQLAlchemy ``metadata`` (the
        one the migrations and ``create_all`` read); none by default."""

    def system_entry(self) -> str:
        """What a server's ``--tables`` file calls an entry of one of the game's systems (an
        array of tables ``[[<entry>]]``): the family name."""
        return self.family

    def system_spec(self, data: Mapping[str, Any], where: str, base: Path | None = None) -> Any:
        """One system read and checked (a :class:`felt.server.systems.SystemSpec`) from an
        entry of a ``--tables`` file whose folder is ``base`` (files named relative to it), or
        as stored (``base`` None; it has ``game``); refused with one clear error."""
        raise NotImplementedError(f"{self.family} is not a system game")

    def default_systems(self) -> list[Any]:
        """The systems (:class:`felt.server.systems.SystemSpec`) a server runs when no
        ``--tables`` file is given."""
        return []

    def system_host(self, store: Any, spec: Any, owner: str) -> Any:
        """The host (a :class:`felt.server.systems.SystemHost`) that runs the system ``spec`` in
        the server process ``owner`` on ``store`` (a :class:`felt.server.store.Store`)."""
        raise NotImplementedError(f"{self.family} is not a system game")

    def mount(self, app: Any, server: Any, who: Any) -> None:
        """Add the game's own routes to the server's FastAPI ``app`` (``server``: the
        :class:`felt.server.app.Server`; ``who``: the logged-in-account dependency)."""


@dataclass(frozen=True)
class Progressive:
    """A table's progressive meter as the server needs it: tables whose configurations name the
    same ``meter`` share one meter (one ledger account, ``progressive:<meter>``), so their seeds
    must agree.  ``seed`` (cents) is the reset amount, funded by the house when the meter opens and
    after each payout that empties it; the round itself moves contributions and payouts."""

    meter: str
    seed: int
    label: str = "Progressive"
    terms: str = ""
    """What every table linked to the meter must offer alike besides the seed (the wager, the
    rate of progression, the payouts), as text: one meter, one set of terms (13:69D-1.52(e))."""


class TableGame(Game):
    """A house-banked table game: seats, rounds driven by actions (a
    :class:`~felt.rounds.round_core.RoundCore`), a table across rounds."""

    action_types: ClassVar[tuple[type[Action], ...]] = ()
    """The game's own actions (a player's, the dealer's, its irregularities); the ones every game
    shares (:data:`felt.rounds.actions.SHARED_ACTIONS`) are added by :meth:`parse_action`."""
    seat_word: ClassVar[str] = "seat"
    """What a betting position is called at this game (``seat``, ``area``)."""

    # ----------------------------------------------------------------- tables and rounds
    def seat_count(self, config: Any) -> int:
        """Betting positions at a table of ``config``."""
        raise NotImplementedError

    def new_table(self, config: Any, snapshot: Mapping[str, Any] | None = None) -> GameTable:
        """A table as ``snapshot`` (from :meth:`table_snapshot`) left it; a new one when None.
        The server stores snapshots with its tables, so every form it ever wrote must load."""
        raise NotImplementedError

    def table_snapshot(self, table: GameTable) -> dict[str, Any]:
        """What carries between rounds at ``table``, as JSON-ready data."""
        raise NotImplementedError

    def new_round(self, config: Any, deck: Sequence[Card], origin: Mapping[str, Any]) -> RoundCore:
        """A round on ``deck`` as :meth:`round_origin` recorded it (its number and what the table
        handed it), for replay and recovery."""
        raise NotImplementedError

    def round_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """What a round was made with besides its configuration and deck (JSON-ready)."""
        raise NotImplementedError

    def parse_action(self, entry: object, where: str) -> Action:
        """One action as JSON (scripts, the API) read for this game, or one clear error naming
        what is allowed."""
        from felt.rounds.actions import action_from_json

        return action_from_json(entry, where, self.action_types)

    def dealer_step(self, table: GameTable, rnd: RoundCore) -> Action | None:
        """The dealer's next step at ``table`` (the table may fill in what the round leaves to it,
        such as where the shuffler cuts)."""
        return rnd.next_dealer_action()

    def complete_action(
        self, table: GameTable, action: Action, rnd: RoundCore | None = None
    ) -> Action:
        """``action`` as the server applies it at ``table`` to ``rnd`` (the round in play, when
        known), after it was authorized and before it is tried: a game fills in here what only
        the table may supply at that moment (the dice of an electronic craps table, thrown when
        the roll is applied) or refuses what a person may not send.  The recorded action is the
        completed one, so replay never asks again.  Only a dealer's step (family ``dealer``)
        may be completed: the server checks such a step's session and idempotency key before it
        asks, so a retried or refused step spends no throw.  By default the action is unchanged."""
        return action

    def carried_owner(self, table: GameTable, seat: int) -> str | None:
        """The player whose wagers ``table`` carries at ``seat`` from the last round into the
        next (a game whose wagers stay on the layout across rounds: craps), or None.  Between
        rounds the server treats such a seat as in play: its player may not stand up and no one
        else may sit down to it, and the table may not be closed with chips on its layout.
        None by default (every other game settles every wager within its round)."""
        return None

    plays_on_when_closed: ClassVar[bool] = True
    """Whether a closed table whose seats carry chips into the next round (:meth:`carried_owner`)
    still plays that round through (craps rolls on, taking no new wagers, until its layout is
    clear).  False: the round it opens takes no dealer's step while its wagers are open, so the
    seats only take their chips back (a poker table deals no new hand once closed)."""

    def betting_closes_early(self, rnd: RoundCore, seated: set[int]) -> bool:
        """Whether the server's betting clock may close ``rnd``'s wagers before its full
        ``betting_seconds`` because every seated seat (``seated``) has a hand: the default, so a
        full table need not wait.  A game whose wagers carry from round to round (every seat
        "has a hand" at once) answers False."""
        hands: Mapping[int, Any] = getattr(rnd, "seats", {})  # every game's round keeps them so
        return seated <= set(hands)

    def betting_open(self, rnd: RoundCore) -> bool:
        """Whether ``rnd`` still takes wagers (the server's betting clock runs while it does)."""
        return str(getattr(rnd, "phase", "")) == "betting"

    def procedures(self) -> dict[str, str]:
        """The supervisor's table-level steps (methods of the game's table, which the server
        calls on a copy of it and keeps if they succeed) and the argument each needs ("" for
        none)."""
        return {}

    def clocked_procedures(self) -> frozenset[str]:
        """The procedures of :meth:`procedures` that record when they were done (each listed
        there with "", as the supervisor sends nothing): the server passes its own clock
        (seconds since the epoch) as their argument, so no one types the time.  None by
        default."""
        return frozenset()

    def open_table(self, table: GameTable, now: float) -> None:
        """``table``, new to a server (no snapshot), is put in service at ``now`` (the server's
        clock, seconds since the epoch): record what starts with it, such as when the cards in
        use were opened.  Nothing by default."""

    def round_blocked(self, table: GameTable, now: float) -> str | None:
        """Why ``table`` may not open a new round at ``now`` (the server's clock, seconds since
        the epoch), in words for the dealer and the supervisor, who clear it with one of
        :meth:`procedures` (cards in use longer than the rules allow are changed first); None
        (the default) when it may.  The server asks before every round it opens."""
        return None

    def progressive(self, config: Any) -> Progressive | None:
        """The progressive meter a table of ``config`` is linked to, or None (no progressive)."""
        return None

    # ----------------------------------------------------------------- what a client sees
    def seat_view(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """The round as seat ``seat`` may see it (0: as anyone may), JSON-ready, built from the
        game's view of that seat and never by filtering the full state.

        Every game's view has the keys of :func:`felt.rounds.view_json.view_json`: ``seat``,
        ``phase``, ``own_cards``, ``others`` (each ``seat``, ``wagers``, ``cards``, ``hand``: its
        hand named once turned over, ``status``), ``pending``, ``lines`` (each statement line with
        ``result``, the player's word for its outcome, and ``reason``, why it won, pushed or lost
        in the player's words, which the game writes), ``void_reason``, ``hand`` (the viewer's
        hand named once complete), ``dealer_hand`` (the dealer's hand named once revealed; ""
        where the dealer holds no hand) and ``discarded`` (the viewer's Boston 7 discards; empty
        elsewhere), and the game's own keys of the dealer's cards (:meth:`layout` ``dealer``)."""
        raise NotImplementedError

    def layout(self, config: Any) -> dict[str, Any]:
        """The data the browser draws a table of ``config`` from (JSON-ready, dollars as
        strings), so the shared table screens hold no game's code:

        - ``title``: the game's name on the screens.
        - ``wager``: the wager form: ``label`` (the word before the limits, ``Ante``),
          ``minimum`` and ``maximum`` (the table's limits as the lobby shows them), ``legend``
          (after ``Seat N:``), ``action`` (the action's name), ``button`` (its verb), ``phases``
          (the round phases that take wagers) and ``spots``, each with ``field`` (the action's
          field) and ``label``, and either an amount the player chooses: ``minimum``,
          ``maximum`` and ``step`` (dollars: the amount is a whole number of steps, ``0.01``
          for whole cents), ``optional`` (true: the spot may be left empty, sent as no field);
          or an amount that follows another spot: ``follows`` (that spot's ``field``) and
          ``times`` (a whole number: the amount is that spot's times this, placed when it is).
          A spot may add ``count`` (a whole number, 1 when absent): the amount is placed on
          that many equal wagers (Let It Ride's three), so the total at risk counts it so often.
          The game accepts exactly the wagers that place every spot not ``optional``, at least
          one spot, each chosen amount within its limits and on its step; the server also
          refuses a total over the player's balance (13:69O-1.4(h)), so the screen does too.
        - ``decisions``: by election (as the round's ``pending`` names it): ``buttons`` (each
          ``label``, ``action`` (the JSON without the seat), ``primary``, ``adds``: the fields
          the election's inputs fill in, and ``places`` for a button that puts money on the
          layout: ``wager`` (the key of the seat's ``wagers`` in the view it follows), ``times``
          (the amount is that wager times this), ``label`` (the words before the amount on the
          button: ``Second wager $20.00``), and, where the player may place less, ``field``
          (the action's field the amount goes in, one of ``adds``), ``minimum`` and ``step``:
          any amount from ``minimum`` up to the one above, a whole number of steps), ``pick``
          (``field``, ``count``, ``prompt``: cards of the seat's hand to choose) and ``number``
          (``field``, ``label``, ``min``, ``max``, ``value``: a number to give).
        - ``dealer``: how the dealer's cards show: ``cards`` (the view's key of the cards face
          up) and either ``count`` (the key of how many there are, the rest face down) or
          ``hole`` and ``hole_label`` (one card face down until the view's ``hole`` shows it),
          and ``label``, what the screens call these cards (``Dealer`` when absent; a game whose
          shared cards are no dealer's hand names them, such as ``Community cards``).
        - ``irregularities``: the dealer's forms: ``name``, ``label`` (with its clause) and
          ``fields`` (each ``field`` and ``label``: whole numbers, empty for none).
        - ``steps``: the staff's extra buttons: ``label``, ``action`` and the ``role`` that
          has them.
        - ``dealer_steps``: the dealer console's button for each step the round can ask the
          dealer for (:meth:`dealer_step`), by the step's name: what the dealer says or does
          (``"no_more_bets": "No more bets"``, ``"deal_additional": "Deal the fourth and fifth
          cards"``).
        - ``phase_words``: every phase the game's round can be in (its ``phase``, as the views
          give it), in the words of the players and dealers who see it (``"betting": "taking
          wagers"``, ``"complete": "settled"``), so the screens never show a phase's name.

        A game without it (``{}``) gets the shared screens' parts that need no data."""
        return {}

    # ----------------------------------------------------------------- scripts and play
    # A round script (:mod:`felt.cli.script`) is JSON with the shared fields ``game``,
    # ``edition`` (a game of several texts), ``table``, ``deck``, ``wagers``, ``actions`` and
    # ``wager_order``, and the game's own (:attr:`script_fields`): what the round carried from its
    # table.  The shared runner reads the shared ones and asks the game for the rest.
    script_fields: ClassVar[tuple[str, ...]] = ()
    """The fields of a round script that only this game takes (``stub_count_due``)."""

    def script_round(
        self, game_id: str, script: Mapping[str, Any], table: Mapping[str, Any],
        deck: tuple[Card, ...],
    ) -> RoundCore:  # fmt: skip
        """The round ``script`` begins: a table of ``game_id`` with the ``table`` settings (and
        the script's edition), on ``deck``, carrying the script's own fields; a malformed field is
        one clear error naming it."""
        raise NotImplementedError

    def script_wager(self, key: str, entry: object) -> Action:
        """The wagers a script places for the seat ``key`` (as written: ``"3"``) from its
        ``wagers`` entry, or one clear error naming ``field 'wagers'.<key>``."""
        raise NotImplementedError

    def script_wager_entry(self, action: Action) -> tuple[int, dict[str, Any]] | None:
        """The seat and ``wagers`` entry of a script (as :meth:`script_wager` reads it) for
        ``action``, or None when ``action`` places no wagers."""
        raise NotImplementedError

    def script_origin(self, rnd: RoundCore) -> dict[str, Any]:
        """The game's own script fields that replay ``rnd`` exactly (what it carried from its
        table)."""
        return {}

    def report_dealer(self, rnd: RoundCore) -> dict[str, Any] | None:
        """The dealer's part of a round's report while the dealer's hand is not set (a hole card
        once revealed); None by default."""
        return None

    def report_dealer_text(self, rnd: RoundCore, symbols: bool) -> list[str]:
        """Printed lines on the dealer's cards before the dealer's hand is set (none by
        default); ``symbols``: suits as symbols."""
        return []

    def report_hand(self, rnd: RoundCore, seat: int) -> dict[str, Any]:
        """The hand of the settled seat ``seat`` in a round's report: by default the best
        five-card poker hand of its cards (a game of other hands, such as three cards, gives its
        own)."""
        from felt.core.evaluator import evaluate

        played: Any = rnd
        value = evaluate(played.seats[seat].hand_cards())
        return {"category": value.category.label, "rank": value.rank,
                "best_five": [str(c) for c in value.best_five], "description": value.describe()}  # fmt: skip

    def report_extra(self, rnd: RoundCore) -> dict[str, Any]:
        """The game's own keys of a round's report (such as where the cut's rotation stands)."""
        return {}

    def suggest(self, rnd: RoundCore, seat: int, election: str) -> Action:
        """The suggested play for the election pending at ``seat``."""
        raise NotImplementedError

    def play(self, config: Any, options: Mapping[str, Any]) -> None:
        """``felt play``: an interactive session at a table of ``config`` on the terminal, with
        ``felt play``'s options (``seats``, ``seat``, ``seed``, ``rounds``, ``save``, ``cite``,
        ``symbols`` and ``note``, where a note for standard error goes; see
        :func:`felt.cli.play.session_options`)."""
        raise NotImplementedError
