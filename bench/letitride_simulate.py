"""Let It Ride Poker simulation (the three wagers, the optimal decisions): the compiled fast
path's rounds per second beside the round engine's on the same decks at one and at seven seats,
and 10 million rounds against the exact house edge per wager (what and how:
``_fast_path.compare``).  Run with ``./dev bench letitride_simulate``.
"""

from __future__ import annotations

from _fast_path import compare

from felt.games.let_it_ride.config import LetItRideConfig


def main() -> None:
    compare(
        LetItRideConfig.from_mapping({}),
        "let_it_ride",
        " per wager",
        lambda data: f"; wagers riding per round {data['wagers_riding']:.5f}",
    )


if __name__ == "__main__":
    main()
