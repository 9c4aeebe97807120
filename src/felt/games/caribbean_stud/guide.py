"""The patron's guide to a Caribbean Stud Poker table, built from the table's own configuration
and rendered by the shared guide renderer (:mod:`felt.guide`).

The seed text gives N.J.A.C. 19:47-16.1 to 16.5 (definitions, cards, opening, shuffle and cut,
rankings to two pairs) and only the titles of 16.6 to 16.13; each paragraph cites the clause it
rests on, or the section whose title it falls under, and the opening says which is which.

>>> from felt.games.caribbean_stud.config import CaribbeanConfig
>>> text = render(CaribbeanConfig.from_mapping({}), "md")
>>> print(text.splitlines()[0])
# Caribbean Stud Poker: the patron's guide
>>> "| Royal flush | 100 to 1 |" in text, "| Straight flush | 10% of the meter |" in text
(True, True)
"""

from __future__ import annotations

from fractions import Fraction

from felt.core.errors import FeltError
from felt.games.caribbean_stud.config import CaribbeanConfig, percent_text, rules

NAME = "Caribbean Stud Poker"
FORMATS = ("md", "html")


def _odds(odds: Fraction) -> str:
    """Odds as posted, with the word "to" (``100 to 1``, ``3 to 2``)."""
    return f"{odds.numerator:,} to {odds.denominator:,}"


def _hand(name: str) -> str:
    """A pay-table hand as a heading-cased phrase (``ace king`` as the patron says it)."""
    name = "ace and king, no pair or better" if name == "ace king" else name
    return name[:1].upper() + name[1:]


def render(config: CaribbeanConfig, fmt: str = "md") -> str:
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
        """16.1's definition of ``term``: ``N.J.A.C. 19:47-16.1 "Bet wager"``."""
        return f'{cite("1")} "{term}"'

    prog = c.progressive
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
        Para(f"Ante: at least {money(c.minimum)}, at most {money(c.maximum)}.", cite("6")),
        Para(
            f"The bet wager is always exactly twice your ante: at most {money(2 * c.maximum)}.",
            defined("Bet wager"),
        ),
    ]
    if prog is not None:
        table_items.append(
            Para(
                f"Progressive wager (optional): exactly {money(prog.wager)}, placed only with an "
                "ante.",
                f"{cite('11')}, 16.12",
            )
        )
    table_items.append(
        Para(
            f"Cards: {decks}, {shuffled}, dealt {dealt}.",
            f"{cite('2')}, 16.4, 16.7-16.9",
        )
    )
    if c.payout_limit is not None:
        table_items.append(
            Para(
                f"Payout limit: the most one hand's ante and bet wagers can win in one round is "
                f"{money(c.payout_limit)}; anything above it is not paid. Progressive payouts "
                "are not counted toward it.",
                cite("12"),
            )
        )
    else:
        table_items.append(
            Para("This table sets no payout limit on the ante and bet wagers.", cite("12"))
        )

    wagers = [
        Para(
            "The ante is placed before any card is dealt, to play a hand against the dealer's.",
            defined("Ante wager"),
        ),
        Para(
            "The bet wager, twice your ante, is placed after every card of the round is dealt "
            "and before the dealer's hole cards are turned over, if you choose to stay in. "
            "Otherwise you fold: you give up your hand and lose your ante.",
            f'{defined("Bet wager")}, "Fold"',
        ),
    ]
    if prog is not None:
        wagers.append(
            Para(
                "The progressive wager is paid on your own five cards alone, whatever the "
                "dealer holds, if you do not fold. It is not returned unless the round is void: "
                "when wagers close, "
                f"{percent_text(prog.rate)} of it goes onto the progressive meter and the rest "
                "is the house's.",
                f"{cite('11')}, 16.12",
            )
        )

    cut = (
        Para(
            "The dealer cuts the cards with one hand onto the cover card, taking at least "
            f"{r.cut_min_from_top} cards from the top; a casino supervisor may have the cards "
            "cut again before any card is dealt.",
            f"{cite('4(c)')}, 16.4(d)",
        )
        if c.cut_required
        else Para("The shuffler's cards are dealt as they come: they are not cut.", cite("4(b)1"))
    )
    steps = Items(
        (
            Para(
                "Place your ante" + (" and, if you wish, the progressive wager." if prog else ".")
            ),
            Para("The cards are shuffled after every round.", cite("4(a)")),
            cut,
            Para('The dealer announces "No more bets".', cite("7")),
            Para(
                "The cards are dealt one at a time, five times round: each position with an "
                "ante gets five cards face down; the dealer gets four face down (the hole cards) "
                "and, last, one face up, which every player sees.",
                f"{defined('Hole card')}, 16.7-16.9",
            ),
            Para(
                "Look at your cards and the dealer's face-up card. Place the bet wager to stay in, "
                "or fold"
                + (
                    ": folding loses your ante and your progressive wager."
                    if prog
                    else ": folding loses your ante."
                ),
                f'{defined("Bet wager")}, "Fold"',
            ),
            Para(
                "When every player has decided, the dealer turns over the four hole cards and "
                "settles each wager.",
                cite("10"),
            ),
        ),
        ordered=True,
    )
    settle = [
        Para(
            "The dealer's hand qualifies with an ace, a king, a four, a three and a two "
            "(A-K-4-3-2) or better: that is, any pair or better, or a hand holding an ace and a "
            "king.",
            defined("Qualifying hand"),
        ),
        Para(
            "If the dealer's hand does not qualify, your ante is paid 1 to 1 and your bet wager "
            "is returned.",
            cite("10"),
        ),
        Para(
            "If it qualifies and your hand is higher, your ante is paid 1 to 1 and your bet wager "
            "by the table below, on your own hand. If the dealer's hand is higher, both wagers "
            "lose.",
            cite("10"),
        ),
        Para(
            "Hands of the same rank are compared card by card, highest first; if all five cards "
            "match in rank, it is a tie (a push) and both wagers are returned.",
            f"{defined('Push')}, 16.10",
        ),
    ]
    pays: list[Para | Table] = [
        Para(ODDS_NOTE),
        Table(
            "The bet wager (when a qualifying dealer's hand is beaten)",
            ("Your hand", "Pays"),
            tuple((_hand(h), _odds(p)) for h, p in c.bet_pays.items()),
            cite("12"),
        ),
    ]
    progressive: list[Para | Table] = []
    if prog is not None:
        rows = [(_hand(h), f"{percent_text(p)} of the meter") for h, p in prog.percent.items()]
        rows += [(_hand(h), money(a)) for h, a in prog.fixed.items()]
        order = {h.lower(): i for i, h in enumerate(c.bet_pays)}
        rows.sort(key=lambda row: order.get(row[0].lower(), len(order)))
        progressive = [
            Table("The progressive wager", ("Your hand", "Pays"), tuple(rows), cite("12")),
            Para(
                "A share of the meter is taken from the meter as it stands when your hand is "
                "paid, to the cent below. If two or more players hold a royal flush in the same "
                "round, they share equally the meter as it stood when the first of them was "
                "paid.",
                cite("11"),
            ),
            Para(
                f"After a royal flush the meter starts again at {money(prog.seed)}, paid in by "
                "the house. Tables linked to the same meter share it.",
                f"{cite('11')}, 16.12",
            ),
        ]
    decision = Section(
        "Your decision",
        (
            Para(
                "Bet or fold, once you see your five cards and the dealer's face-up card. Always "
                "bet with a pair or better; fold with less than an ace and a king. With an ace "
                "and a king and no pair, the best play depends on your other cards and the "
                "dealer's face-up card: the house's suggestion at this table follows the exact "
                "analysis."
            ),
            Para(
                "Played that way, the house keeps about 5.2% of the ante over the long run; "
                "betting every hand gives it about 16.6%. (Published figures for the minimum pay "
                "table, without the progressive.)"
            ),
            Para(
                f"This table gives you {c.decision_seconds} seconds to decide. If you have not "
                "decided in that time your hand is folded and the dealer goes on. (A house rule: "
                "the rule text sets no time.)"
            ),
        ),
    )
    ranks = Section(
        "Hand ranks",
        (
            Para(FIVE_CARD_RANKS, cite("5")),
            Para(
                "An ace counts low only in ace-two-three-four-five; queen-king-ace-two-three is "
                "no straight.",
                cite("5(b)6"),
            ),
        ),
    )
    opening = (
        Para(
            f"This is the guide to {NAME} at this table, dealt under {r.title}; every limit and "
            "payout below is this table's own."
        ),
        Para(
            "felt's copy of that text gives its definitions, the cards, the opening of the "
            "table, the shuffle and cut and the hand ranks (16.1 to 16.5) and only the titles of "
            "16.6 to 16.13; the wagers, the settlement and the progressive payout stated here "
            "follow the published descriptions of the game as dealt in New Jersey, and each "
            "cites the section whose title it falls under."
        ),
    )
    sections = [
        Section("The table", (Items(tuple(table_items)),)),
        Section("The wagers", tuple(wagers)),
        Section("How a round goes", (steps,)),
        Section("How wagers are settled", (Items(tuple(settle)),)),
        Section("Pay tables", tuple(pays)),
    ]
    if progressive:
        sections.append(Section("The progressive payout", tuple(progressive)))
    sections += [decision, ranks]
    guide = Guide(f"{NAME}: the patron's guide", opening, tuple(sections))
    return render_markdown(guide) if fmt == "md" else render_html(guide)
