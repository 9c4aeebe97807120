"""Shared set-up of the Caribbean Stud Poker session and simulation tests.

The suggested play is the exact strategy's (``felt.games.caribbean_stud.strategy.should_bet``,
written with the exact analysis).  Where that module is not importable, :func:`suggested_play`
puts a stand-in in its place that bets a pair or better (the published "raise pair or better"
rule), so a session or simulation can run; no test that uses it depends on which play it is.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Sequence

import pytest

from felt.core.ranking import Category, five_card_key

STRATEGY = "felt.games.caribbean_stud.strategy"


def suggested_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave the exact strategy in place, or stand in for it while it is missing."""
    try:
        importlib.import_module(STRATEGY)
    except ImportError:
        stand_in = types.ModuleType(STRATEGY)

        def should_bet(hand: Sequence[int], up: int, pays: object) -> bool:
            return five_card_key(hand)[0] > Category.HIGH_CARD

        setattr(stand_in, "should_bet", should_bet)  # noqa: B010
        monkeypatch.setitem(sys.modules, STRATEGY, stand_in)
