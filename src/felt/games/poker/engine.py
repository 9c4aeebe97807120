"""PokerKit underneath a felt poker hand: the state, the cards, the pots.

PokerKit (PyPI ``pokerkit``) keeps the betting: whose turn, the legal amounts of each limit, the
street order, the main and side pots, the hand ranks.  felt keeps the deck: every card is shuffled
by felt and handed to PokerKit one step at a time (``deal_hole``, ``burn_card``, ``deal_board``);
PokerKit's automations are only bookkeeping (ante, blind and bet collection, showing the hands
left in at showdown, killing the hands that cannot win, one run of the board).  The state is a
cash game's: a player may fold when a check is free (14.15(k)1 folds a hand discarded on any
turn).  felt awards the pots itself (the rake
off the top first, then each pot split with felt's odd chip rule): PokerKit's raking works per
pot with a float percentage and gives an odd chip to the lowest player index in every variant.

felt builds the PokerKit state from its own streets (PokerKit has no fixed-limit high-only Omaha
and no pot-limit hold'em among its ready games), without PokerKit's raise cap: the fixed-limit
cap of 14.17 is felt's (``PokerConfig.max_raises``), counted by the hand.

>>> from felt.games.poker.config import PokerConfig
>>> state = new_state(PokerConfig.from_mapping({}), [10_000, 10_000, 10_000])
>>> state.bets, state.stacks
([100, 200, 0], [9900, 9800, 10000])
>>> str(felt_card(pk_card(Card.parse("Ts"))))
'Ts'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from felt.core.cards import Card
from felt.games.poker.config import PokerConfig

if TYPE_CHECKING:  # PokerKit builds its hand tables as it is imported (0.6 s): only when dealt
    import pokerkit

AUTOMATIONS: Final = (
    "ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING",
    "HOLE_CARDS_SHOWING_OR_MUCKING", "HAND_KILLING", "RUNOUT_COUNT_SELECTION",
)  # fmt: skip
"""The bookkeeping felt lets PokerKit do (its ``Automation`` names); every card and every chip
push is felt's own step."""
BETTING: Final = {"fixed": "FIXED_LIMIT", "pot": "POT_LIMIT", "no": "NO_LIMIT"}
"""felt's limit to PokerKit's ``BettingStructure`` name."""
HOLE_CARDS: Final = {"holdem": 2, "omaha": 4}


def _no_rake(amount: int, state: pokerkit.State | None = None) -> tuple[int, int]:
    """PokerKit rakes nothing: felt takes the rake itself before the award."""
    return 0, amount


def streets(config: PokerConfig) -> tuple[pokerkit.Street, ...]:
    """The dealing and betting rounds: hold'em and Omaha pre-flop, flop (burn, three), turn and
    river (burn, one each); stud third street (two down, one up; the low card brings it in),
    fourth to sixth (one up), seventh (one down); the high hand showing opens from fourth."""
    import pokerkit

    low, high = config.small_bet, config.big_bet
    if config.limit != "fixed":
        low = high = config.big_blind
    street = pokerkit.Street
    if config.variant == "stud7":
        opening = pokerkit.Opening.HIGH_CARD
        return (
            street(False, (False, False, True), 0, False, pokerkit.Opening.LOW_CARD, low, None),
            street(True, (True,), 0, False, opening, low, None),
            street(True, (True,), 0, False, opening, high, None),
            street(True, (True,), 0, False, opening, high, None),
            street(True, (False,), 0, False, opening, high, None),
        )
    position = pokerkit.Opening.POSITION
    return (
        street(False, (False,) * HOLE_CARDS[config.variant], 0, False, position, low, None),
        street(True, (), 3, False, position, low, None),
        street(True, (), 1, False, position, high, None),
        street(True, (), 1, False, position, high, None),
    )


def new_state(config: PokerConfig, stacks: Sequence[int]) -> pokerkit.State:
    """A PokerKit state for one hand with ``stacks`` (cents) in PokerKit's order: hold'em and
    Omaha from the seat left of the button (the small blind), stud in seat order."""
    import pokerkit

    stud = config.variant == "stud7"
    hand_type: type[pokerkit.Hand] = (
        pokerkit.OmahaHoldemHand if config.variant == "omaha" else pokerkit.StandardHighHand
    )
    return pokerkit.State(
        tuple(pokerkit.Automation[name] for name in AUTOMATIONS),
        pokerkit.Deck.STANDARD,
        (hand_type,),
        streets(config),
        pokerkit.BettingStructure[BETTING[config.limit]],
        True,
        config.ante,
        () if stud else (config.small_blind, config.big_blind),
        config.bring_in if stud else 0,
        tuple(stacks),
        len(stacks),
        mode=pokerkit.Mode.CASH_GAME,
        divmod=divmod,
        rake=_no_rake,
    )


def pk_card(card: Card) -> pokerkit.Card:
    """felt's card as PokerKit's."""
    import pokerkit

    return next(iter(pokerkit.Card.parse(str(card))))


def felt_card(card: pokerkit.Card) -> Card:
    """PokerKit's card as felt's."""
    return Card.parse(f"{card.rank}{card.suit}")
