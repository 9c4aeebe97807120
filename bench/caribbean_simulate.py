"""Caribbean Stud Poker simulation (ante alone): the compiled fast path's rounds per second
beside the round engine's on the same decks at one and at seven seats, and 10 million rounds
against the exact house edge per ante (what and how: ``_fast_path.compare``).
Run with ``./dev bench caribbean_simulate``.
"""

from __future__ import annotations

from _fast_path import compare

from felt.games.caribbean_stud.config import CaribbeanConfig


def main() -> None:
    compare(CaribbeanConfig.from_mapping({}), "caribbean_stud", "", lambda data: "")


if __name__ == "__main__":
    main()
