"""Boston 5 and Boston 7 Stud Poker by N.J.A.C. 19:47-24, 205 CMR and 13:69F-24: the editions as
data (:mod:`.editions`), table settings (:mod:`.config`), the round (:mod:`.round`), the suggested
play (:mod:`.strategy`), what one seat may see (:mod:`.view`) and the table across rounds
(:mod:`.table`)."""

from felt.games.boston.config import TableConfig, load_table
from felt.games.boston.editions import GAMES, Edition, default_edition, edition
from felt.games.boston.round import Phase, Round, SeatState
from felt.games.boston.table import Table
from felt.games.boston.view import View, seat_view

__all__ = [
    "GAMES",
    "Edition",
    "Phase",
    "Round",
    "SeatState",
    "Table",
    "TableConfig",
    "View",
    "default_edition",
    "edition",
    "load_table",
    "seat_view",
]
