"""The patron's guide to a Three Card Poker table, built from the table's own configuration and
rendered by the shared guide renderer (:mod:`felt.guide`).

The seed text holds only the titles of N.J.A.C. 19:47-20; each paragraph cites the section whose
title it falls under, and the opening says where the rules come from.

>>> from felt.games.three_card_poker.config import ThreeCardConfig
>>> text = render(ThreeCardConfig.from_mapping({}), "md")
>>> print(text.splitlines()[0])
# Three Card Poker: the patron's guide
>>> "| Straight flush | 40 to 1 |" in text
True
"""

from __future__ import annotations

from felt.core.errors import FeltError
from felt.core.paytable import PayTable
from felt.games.three_card_poker.config import ThreeCardConfig, rules

NAME = "Three Card Poker"
FORMATS = ("md", "html")


def _money(amount: int) -> str:
    whole, part = divmod(amount, 100)
    return f"${whole:,}.{part:02d}"


def _rows(table: PayTable) -> tuple[tuple[str, str], ...]:
    return tuple((hand[:1].upper() + hand[1:], str(p)) for hand, p in table.lines)


def render(config: ThreeCardConfig, fmt: str = "md") -> str:
    """The guide to ``config``'s table in ``fmt`` (``md`` or ``html``)."""
    from felt.guide import Guide, Items, Para, Section, Table, render_html, render_markdown

    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    r = rules()
    c = config
    cite = r.cite
    shuffled = {
        "manual": "shuffled by hand",
        "shuffler": "shuffled by machine",
        "shuffler-to-shoe": "shuffled by a machine that loads the dealing shoe",
    }[c.shuffling]
    dealt = {
        "manual-shoe": "from a dealing shoe",
        "hand": "from the dealer's hand",
        "automated-shoe": "from an automated dealing shoe",
    }[c.dealing]
    table_items = [
        Para(f"Ante: at least {_money(c.minimum)}, at most {_money(c.maximum)}.", cite("6")),
        Para("The play wager is always equal to your ante.", cite("6")),
    ]
    if c.pair_plus:
        table_items.append(
            Para(
                f"Pair plus wager (optional): at least {_money(c.pair_plus_minimum)}, at most "
                f"{_money(c.pair_plus_maximum)}.",
                cite("6"),
            )
        )
    table_items += [
        Para(
            "You may wager at one betting position"
            + (", or at two adjacent ones." if c.two_positions else "."),
            cite("6"),
        ),
        Para(
            f"Cards: one 52-card deck, {shuffled}, dealt {dealt}.", f"{cite('2')}, 20.5, 20.7-20.9"
        ),
    ]
    wagers = [
        Para(
            'The ante plays your hand against the dealer\'s. Place it before "No more bets".',
            cite("6"),
        ),
        Para(
            "The play wager, equal to your ante, is placed after you have seen your cards if you "
            "choose to stay in; otherwise you fold.",
            cite("10"),
        ),
    ]
    if c.pair_plus:
        wagers.append(
            Para(
                "The pair plus wager is paid on your own three cards alone, whatever the dealer "
                "holds. You may place it with an ante or on its own.",
                f"{cite('6')}, {cite('11')}",
            )
        )
    cut = (
        Para(
            f"The dealer cuts the cards, at least {r.cut_min_from_end} cards from either end.",
            cite("5"),
        )
        if c.cut_required
        else Para(
            "The shuffler loads the cards straight into the shoe: they are not cut.", cite("5")
        )
    )
    steps = Items(
        (
            Para("Place your ante" + (", your pair plus wager, or both." if c.pair_plus else ".")),
            cut,
            Para('The dealer announces "No more bets".', cite("7")),
            Para(
                "Starting at the dealer's left, each position with a wager gets three cards face "
                "down; the dealer then takes three cards face down.",
                cite("7"),
            ),
            Para(
                "Look at your cards. Place the play wager to stay in, or fold: folding loses your "
                "ante" + (" and your pair plus wager" if c.pair_plus else "") + ".",
                cite("10"),
            ),
            Para(
                "When every player has decided, the dealer turns over the dealer's cards and "
                "settles each wager.",
                cite("10"),
            ),
        ),
        ordered=True,
    )
    settle = [
        Para(
            "The dealer's hand qualifies with a queen high or better. If it does not qualify, "
            "your ante is paid 1 to 1 and your play wager is returned.",
            cite("10"),
        ),
        Para(
            "If it qualifies, the higher hand wins: a better hand than the dealer's pays your "
            "ante and play wager 1 to 1; a worse one loses both; a tie returns both.",
            cite("10"),
        ),
        Para(
            "The ante bonus: if you played, a straight or better is paid on your ante by the "
            "table below, whatever the dealer holds and whether you win or lose. A folded hand "
            "is paid no bonus.",
            cite("11"),
        ),
    ]
    if c.pair_plus:
        settle.append(
            Para(
                "The pair plus wager wins with a pair or better, by its own table, and loses "
                "otherwise.",
                cite("11"),
            )
        )
    pays: list[Para | Table] = [
        Para('Odds are "to 1": a winning wager keeps its stake and is paid the odds on it.'),
        Table("Ante bonus (on the ante)", ("Hand", "Pays"), _rows(c.ante_bonus), cite("11")),
    ]
    if c.pair_plus:
        pays.append(
            Table(
                "Pair plus",
                ("Hand", "Pays"),
                (*_rows(c.pair_plus_table), ("Anything lower", "Loses")),
                cite("11"),
            )
        )
    decision = Section(
        "Your decision",
        (
            Para(
                "Play or fold, once you see your three cards. The best play is to place the play "
                "wager with a queen, a six and a four (Q-6-4) or better and to fold anything "
                "lower; the house's suggestion at this table follows it."
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
            Para(
                "Highest first: straight flush (three in sequence of one suit), three of a kind, "
                "straight (three in sequence), flush (three of one suit), pair, high card. An ace "
                "is high, or low in A-2-3, the lowest straight; K-A-2 is not a straight. Hands of "
                "the same rank are compared by their highest card not in the other hand; suits "
                "are all equal.",
                cite("3"),
            ),
        ),
    )
    opening = (
        Para(
            f"This is the guide to {NAME} at this table, dealt under {r.title}; every limit and "
            "payout below is this table's own."
        ),
        Para(
            "Only the section titles of that text are in felt's rule texts; the rules stated "
            "here follow the published descriptions of the game as dealt in New Jersey, and each "
            "cites the section it falls under."
        ),
    )
    guide = Guide(
        f"{NAME}: the patron's guide",
        opening,
        (
            Section("The table", (Items(tuple(table_items)),)),
            Section("The wagers", tuple(wagers)),
            Section("How a round goes", (steps,)),
            Section("How wagers are settled", (Items(tuple(settle)),)),
            Section("Pay tables", tuple(pays)),
            decision,
            ranks,
        ),
    )
    return render_markdown(guide) if fmt == "md" else render_html(guide)
