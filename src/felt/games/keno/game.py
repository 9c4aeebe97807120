"""Keno as the outer layers see it (:class:`felt.games.base.Game`, kind ``system``): registered as
the entry point ``keno`` of the group ``felt.games``.  Keno is no table game: tickets are written
at a counter against draws, so it has what of the interface fits (its rate card as its
configuration, the exact analysis, the register) and its own server and screens (docs/design.md)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from felt.core.errors import FeltError
from felt.games.base import Game, Log
from felt.games.keno.ratecard import RateCard, example_rate_card, load_rate_card

if TYPE_CHECKING:
    import argparse

    from felt.games.base import Sheet


class Keno(Game):
    """Keno (N.J.A.C. 19:47-15)."""

    family = "keno"
    ids = ("keno",)
    kind = "system"
    package = "felt.games.keno"

    # ----------------------------------------------------------------- identity and configuration
    def title(self, game_id: str) -> str:
        """Keno."""
        return "Keno"

    def editions(self, game_id: str) -> tuple[str, ...]:
        """One text: N.J.A.C. 19:47-15."""
        return ("nj-19-47-15",)

    def config(
        self, game_id: str, settings: Mapping[str, Any], *, edition: str | None = None,
        where: str = "rate card",
    ) -> RateCard:  # fmt: skip
        """A rate card from its keys (``{}``: the example rate card)."""
        if edition is not None and edition not in self.editions(game_id):
            raise FeltError(
                f"{where}: edition does not apply to keno (one text: N.J.A.C. 19:47-15)"
            )
        if not settings:
            return example_rate_card()
        return RateCard.from_mapping(dict(settings), where=where)

    def load_config(self, path: str | Path) -> tuple[str, RateCard]:
        """A rate card file."""
        return "keno", load_rate_card(path)

    # ----------------------------------------------------------------- analysis and guide
    config_types = (RateCard,)

    def analyze(self, game_id: str, config: Any, ante: int | None, log: Log | None = None) -> Any:
        """The exact analysis of a rate card: every ticket it offers (the wager is the card's)."""
        if ante is not None:
            raise FeltError("--ante does not apply to keno (a rate card sets every wager)")
        return config.analysis.with_many_way()

    # ----------------------------------------------------------------- the keno system's server
    # Keno's server adapter (felt.games.keno.spec, .tables, .server, .snapshots, .routes) imports
    # the server's modules: it is loaded only when the server asks for it.
    def roles(self) -> tuple[str, ...]:
        """The keno writer and keno supervisor of N.J.A.C. 19:47-15 (the casino's supervisor is
        their superior, :data:`felt.games.keno.server.KENO_ROLES`)."""
        return ("keno_writer", "keno_supervisor")

    def declare_tables(self, metadata: Any) -> None:
        """The keno systems' actions, drawn games and snapshots (:mod:`felt.games.keno.tables`)."""
        from felt.games.keno.tables import declare

        declare(metadata)

    def system_spec(self, data: Mapping[str, Any], where: str, base: Path | None = None) -> Any:
        """One ``[[keno]]`` entry, or a stored keno system (:mod:`felt.games.keno.spec`)."""
        from felt.games.keno.spec import keno_from_mapping

        return keno_from_mapping(data, where, base)

    def default_systems(self) -> list[Any]:
        """One keno system, ``keno-1``, on the example rate card."""
        from felt.games.keno.spec import KenoSpec, example_rate_card_data

        return [KenoSpec("keno-1", example_rate_card_data())]

    def system_host(self, store: Any, spec: Any, owner: str) -> Any:
        """A :class:`felt.games.keno.server.KenoHost`."""
        from felt.games.keno.server import KenoHost

        return KenoHost(store, spec, owner)

    def mount(self, app: Any, server: Any, who: Any) -> None:
        """Keno's routes under ``/api/keno`` (:mod:`felt.games.keno.routes`)."""
        from felt.games.keno.routes import mount

        mount(app, server, who)

    # ----------------------------------------------------------------- the command line
    def add_commands(self, commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
        """``felt keno``: the writer's and supervisor's terminal and the keno reports
        (:mod:`felt.games.keno.cli`)."""
        from felt.games.keno.cli import add_parser

        add_parser(commands, formatter)

    def add_analyze_options(self, parser: argparse.ArgumentParser) -> list[argparse.Action]:
        """``--rate-card`` and ``--ticket``."""
        from felt.games.keno.cli import add_analyze_options

        return add_analyze_options(parser)

    def analyze_command(self, game_id: str, options: argparse.Namespace) -> Sheet | None:
        """A rate card's analysis, or one ticket's (printed)."""
        from felt.games.keno.cli import analyze_command

        return analyze_command(self, options)


GAME = Keno()
"""The registered game."""
