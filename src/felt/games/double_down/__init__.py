"""Double Down Stud by N.J.A.C. 19:47-17: configuration and rules data (:mod:`.config`), the round
(:mod:`.round`), the suggested play (:mod:`.strategy`) and the table across rounds (:mod:`.table`)."""

from felt.games.double_down.config import (
    DEALING,
    DOUBLE_AMOUNTS,
    GAME,
    SHUFFLING,
    DoubleDownConfig,
    Rules,
    load_double_down_table,
    rules,
)
from felt.games.double_down.round import Area, DoubleDownRound, Phase, classify
from felt.games.double_down.strategy import double_expectation, suggest_double
from felt.games.double_down.table import DoubleDownTable

__all__ = [
    "DEALING",
    "DOUBLE_AMOUNTS",
    "GAME",
    "SHUFFLING",
    "Area",
    "DoubleDownConfig",
    "DoubleDownRound",
    "DoubleDownTable",
    "Phase",
    "Rules",
    "classify",
    "double_expectation",
    "load_double_down_table",
    "rules",
    "suggest_double",
]
