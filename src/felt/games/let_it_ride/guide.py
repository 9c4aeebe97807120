"""The patron's guide to a Let It Ride Poker table, built from the table's own configuration and
rendered by the shared guide renderer (:mod:`felt.guide`).

The seed text gives N.J.A.C. 19:47-18.1 to 18.4 (definitions, cards, rankings, the opening of
the table) and only the titles of 18.5 to 18.12; each paragraph cites the clause it rests on, or
the section whose title it falls under, and the opening says which is which.  The wagers, the
take-backs, the community cards, the pay tables, the bonus wagers and the payout limit are this
table's own (:class:`~.config.LetItRideConfig`); how to play best is the optimal decision's rule
in words (:mod:`.strategy`, read when the guide is rendered).

>>> from felt.games.let_it_ride.config import LetItRideConfig
>>> text = render(LetItRideConfig.from_mapping({}), "md")
>>> print(text.splitlines()[0])
# Let It Ride Poker: the patron's guide
>>> "| Royal flush | 1,000 to 1 |" in text, "| Mini royal (ace, king and queen of one suit) | 50 to 1 |" in text
(True, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from felt.core.errors import FeltError
from felt.games.let_it_ride.config import LetItRideConfig, rules

NAME: Final = "Let It Ride Poker"
FORMATS: Final = ("md", "html")
_HANDS: Final = {
    "tens or better": "Pair of tens, jacks, queens, kings or aces",
    "mini royal": "Mini royal (ace, king and queen of one suit)",
}
"""Pay-table lines whose name alone does not say the hand."""


def _odds(odds: Fraction) -> str:
    """Odds as posted, with the word "to" (``1,000 to 1``)."""
    return f"{odds.numerator:,} to {odds.denominator:,}"


def _hand(name: str) -> str:
    """A pay-table hand as a heading-cased phrase."""
    name = _HANDS.get(name, name)
    return name[:1].upper() + name[1:]


def _play_best(config: LetItRideConfig) -> list[str]:
    """How to play best at the table minimum, in plain words: the optimal decisions' rules as
    the strategy module states them for this table's pay table and payout limit
    (:func:`.strategy.rules_text`)."""
    from felt.games.let_it_ride.strategy import rules_text

    return rules_text(config)


def render(config: LetItRideConfig, fmt: str = "md") -> str:
    """The guide to ``config``'s table in ``fmt`` (``md`` or ``html``)."""
    from felt.guide import (
        FIVE_CARD_RANKS,
        ODDS_NOTE,
        Guide,
        Items,
        Para,
        Section,
        Table,
        money,
        render_html,
        render_markdown,
    )

    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    r = rules()
    c = config
    cite = r.cite

    def defined(term: str) -> str:
        """18.1's definition of ``term``: ``N.J.A.C. 19:47-18.1 "Let it ride"``."""
        return f'{cite("1")} "{term}"'

    shuffled = (
        "shuffled by hand and cut"
        if c.cut_required
        else "shuffled by an automated card shuffling device (not cut)"
    )
    dealt = {
        "manual-shoe": "from a dealing shoe",
        "hand": "from the dealer's hand",
        "automated-shoe": "from an automated dealing shoe",
    }.get(c.dealing, c.dealing)
    decks = (
        "one 52-card deck"
        if c.decks == 1
        else "two 52-card decks of different backs, used in turn, one shuffled while the other "
        "is dealt"
    )
    table_items = [
        Para(
            f"Three equal wagers, marked 1, 2 and $: each at least {money(c.minimum)}, at most "
            f"{money(c.maximum)}.",
            cite("6"),
        )
    ]
    if c.bonus is not None:
        table_items.append(
            Para(
                f"Let it ride bonus wager (optional): exactly {money(c.bonus.wager)}, placed "
                "only with the three wagers.",
                f"{cite('6A')}",
            )
        )
    if c.three_card_bonus is not None:
        tcb = c.three_card_bonus
        table_items.append(
            Para(
                f"Three card bonus wager (optional): whole dollars from {money(tcb.minimum)} to "
                f"{money(tcb.maximum)}, placed only with the three wagers.",
                f"{cite('6B')}",
            )
        )
    table_items.append(
        Para(f"Cards: {decks}, {shuffled}, dealt {dealt}.", f"{cite('2')}, 18.5, 18.7-18.9")
    )
    source = "the hand" if c.dealing == "hand" else "a shoe"
    table_items.append(
        Para(
            f"The cards in use are changed at least every {c.change_hours} hours (cards dealt "
            f"from {source}). Until they are, no new round is dealt at the table.",
            cite("4(e)"),
        )
    )
    if c.payout_limit is not None:
        table_items.append(
            Para(
                f"Payout limit: the most one hand's three wagers can win together in one round "
                f"is {money(c.payout_limit)}; anything above it is not paid."
                + (
                    " The bonus wagers are paid in full, outside the limit."
                    if c.bonus or c.three_card_bonus
                    else ""
                ),
                cite("11"),
            )
        )
    else:
        table_items.append(Para("This table sets no payout limit on the three wagers.", cite("11")))

    wagers = [
        Para(
            "Before any card is dealt you place three equal wagers, in the circles marked 1, 2 "
            "and $. You play against the pay table, not against the dealer or the other players.",
            cite("6"),
        ),
        Para(
            "After seeing your three cards you may take back wager 1, or let it ride. After the "
            "first community card is turned you may take back wager 2, or let it ride, whatever "
            "you did with wager 1. Letting a wager ride means not taking it back.",
            f"{defined('Let it ride')}, 18.10",
        ),
        Para(
            "Wager $ always stays: it cannot be taken back.",
            f"{defined('Let it ride')}, 18.10",
        ),
        Para(
            f"You have {c.decision_seconds} seconds for each decision. If you have not decided "
            "in that time, the wager rides: it stays on the layout unless you take it back. (A "
            "house rule: the rule text sets no time.)",
            defined("Let it ride"),
        ),
    ]
    if c.bonus is not None or c.three_card_bonus is not None:
        wagers.append(
            Para(
                "A bonus wager, once placed, stays until the settlement: taking back wager 1 or "
                "2 does not take it back.",
                ", ".join(
                    x for x, on in ((cite("6A"), c.bonus), ("18.6B", c.three_card_bonus)) if on
                ),
            )
        )

    cut = (
        Para(
            "The dealer cuts the cards onto the solid yellow or green cover card, "
            f"taking at least {r.cut_min_from_top} cards from the top; a casino supervisor may "
            "have the cards cut again before any card is dealt.",
            f"{cite('2(a)')}, 18.5",
        )
        if c.cut_required
        else Para("The shuffler's cards are dealt as they come: they are not cut.", cite("5"))
    )
    steps = Items(
        (
            Para(
                "Place your three wagers"
                + (" and, if you wish, the bonus wagers." if c.bonus or c.three_card_bonus else ".")
            ),
            Para("The cards are shuffled before every round.", cite("5")),
            cut,
            Para(
                "The cards are dealt face down, one at a time, three times round: to each "
                "position with wagers, from the dealer's left, and then to the community area. "
                "The first card dealt to the community area is burned: it is put aside unseen "
                "and never shown. The other two are the community cards, face down in front of "
                "the table inventory container (the dealer's chip rack).",
                f"{defined('Community card')}, 18.7-18.9",
            ),
            Para(
                "Look at your three cards. Take back wager 1 or let it ride.",
                f"{defined('Let it ride')}, 18.10",
            ),
            Para(
                "When every player has decided, the dealer turns the first community card face "
                "up. Take back wager 2 or let it ride.",
                cite("10"),
            ),
            Para(
                "When every player has decided, the dealer turns the second community card face "
                "up and settles each wager, starting from the dealer's right.",
                cite("10"),
            ),
        ),
        ordered=True,
    )
    settle = [
        Para(
            "Your hand is your three cards and the two community cards: every player shares the "
            "community cards.",
            defined("Hand"),
        ),
        Para(
            "Each wager still on the layout is paid by the table below on your hand, if it is a "
            "pair of tens or better. Any lower hand loses every wager still on the layout. A "
            "wager you took back neither wins nor loses.",
            cite("11"),
        ),
    ]
    if c.payout_limit is not None:
        settle.append(
            Para(
                f"If the three wagers together would win more than {money(c.payout_limit)}, "
                "they are paid the limit: the amount over it is taken first from wager $, then "
                "from wager 2, then from wager 1.",
                cite("11"),
            )
        )
    pays: list[Para | Table] = [
        Para(ODDS_NOTE),
        Table(
            "Wagers 1, 2 and $ (each wager still on the layout)",
            ("Your hand", "Pays"),
            tuple((_hand(h), _odds(p)) for h, p in c.pays.items()),
            cite("11"),
        ),
    ]
    bonus: list[Para | Table] = []
    if c.bonus is not None:
        bonus += [
            Para(
                f"The let it ride bonus wager ({money(c.bonus.wager)}) is paid on your five-card "
                "hand (your three cards and the two community cards), whether or not you took "
                "back wager 1 or 2. A hand below the lowest line of its table loses it.",
                cite("6A"),
            ),
            Table(
                "The let it ride bonus wager",
                ("Your hand", "Pays"),
                tuple((_hand(h), _odds(p)) for h, p in c.bonus.pays.items()),
                cite("6A"),
            ),
        ]
    if c.three_card_bonus is not None:
        bonus += [
            Para(
                "The three card bonus wager is paid on your own three cards alone; the "
                "community cards do not count. In three cards a straight ranks above a flush. "
                "Less than a pair loses it.",
                cite("6B"),
            ),
            Table(
                "The three card bonus wager",
                ("Your three cards", "Pays"),
                tuple((_hand(h), _odds(p)) for h, p in c.three_card_bonus.pays.items()),
                cite("6B"),
            ),
        ]
    best = [Para(f"With each wager at the table minimum, {money(c.minimum)}:")]
    best += [Para(text) for text in _play_best(c)]
    best.append(
        Para(
            "The house's suggested play at this table follows the exact analysis of this "
            "table's pay table"
            + (
                " and payout limit (with large wagers, where the limit would cut a win, the "
                "best play may differ)."
                if c.payout_limit is not None
                else "."
            )
            + " Played that way on the minimum pay table, the house keeps about 3.5% of one of "
            "the three wagers over the long run (a published figure"
            + (", without the bonus wagers)." if c.bonus or c.three_card_bonus else ").")
        )
    )
    ranks = Section(
        "Hand ranks",
        (
            Para(FIVE_CARD_RANKS, cite("3(b)")),
            Para(
                "An ace counts low only in ace-two-three-four-five; queen-king-ace-two-three is "
                "no straight.",
                f"{cite('3(a)')}, 18.3(b)6",
            ),
        ),
    )
    opening = (
        Para(
            f"This is the guide to {NAME} at this table, dealt under {r.title}; every limit and "
            "payout below is this table's own."
        ),
        Para(
            "felt's copy of that text gives its definitions, the cards, the hand ranks and the "
            "opening of the table (18.1 to 18.4) and only the titles of 18.5 to 18.12; the "
            "shuffle, the deal, the wagers, the settlement and the payout limit stated here "
            "follow the published descriptions of the game as dealt in New "
            "Jersey, and each cites the section whose title it falls under."
        ),
    )
    sections = [
        Section("The table", (Items(tuple(table_items)),)),
        Section("The wagers and taking them back", tuple(wagers)),
        Section("How a round goes", (steps,)),
        Section("How wagers are settled", (Items(tuple(settle)),)),
        Section("Pay tables", tuple(pays)),
    ]
    if bonus:
        sections.append(Section("The bonus wagers", tuple(bonus)))
    sections += [Section("How to play best", tuple(best)), ranks]
    guide = Guide(f"{NAME}: the patron's guide", opening, tuple(sections))
    return render_markdown(guide) if fmt == "md" else render_html(guide)
