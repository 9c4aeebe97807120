"""The patron's guide to a Double Down Stud table under N.J.A.C. 19:47-17 (:mod:`felt.guide`)."""

from __future__ import annotations

from felt.games.double_down.config import GAME as GAME_ID
from felt.games.double_down.config import DoubleDownConfig, rules
from felt.games.double_down.game import GAME
from felt.guide import (
    FIVE_CARD_RANKS,
    ODDS_NOTE,
    Guide,
    Items,
    Para,
    Section,
    Table,
    cites,
    money,
    pay_rows,
)


def double_down_guide(c: DoubleDownConfig) -> Guide:
    """The guide to a Double Down Stud table under N.J.A.C. 19:47-17."""
    r = rules()
    name = GAME.title(GAME_ID)
    double = "equal to your wager" if c.double_down == "equal" else "of any amount up to your wager"
    areas = (
        "on one betting area, or on two adjacent betting areas"
        if c.two_areas
        else "on one betting area"
    )
    cards = (
        "two decks with backs of different colors, used in alternate rounds"
        if c.decks == 2
        else "one 52-card deck"
    )
    shuffled = {
        "manual": "shuffled by hand",
        "shuffler": "shuffled by machine",
        "shuffler-to-shoe": "shuffled by a machine that loads the dealing shoe",
    }[c.shuffling]
    table = Section(
        "The table",
        (
            Items(
                (
                    Para(f"Wager: at least {money(c.minimum)}, at most {money(c.maximum)}."),
                    Para(f"You may wager {areas}.", r.cite("6(c)")),
                    Para(f"Double down wager: {double.removeprefix('of ')}.", r.cite("8(c)")),
                    Para(
                        f"Payout limit: {money(c.payout_limit)} on any hand (see below).",
                        r.cite("10(c)"),
                    ),
                    Para(f"Cards: {cards}, {shuffled}.", cites(r.clause_format, "2", "4(a)")),
                    Para(
                        "The cards are dealt from a dealing shoe."
                        if c.dealing == "manual-shoe"
                        else "The cards are dealt from the dealer's hand.",
                        r.cite("8(a)"),
                    ),
                )
            ),
        ),
    )
    wagers = Section(
        "The wagers",
        (
            Para(
                'Your wager. Place it before the dealer announces "No more bets".',
                r.cite("6(b)"),
            ),
            Para(
                "The double down wager. When all the cards are dealt, and before the dealer "
                f"turns over the hole card, you may add a double down wager {double}. It is "
                "settled with your wager: both win, push or lose together, on the whole amount.",
                cites(r.clause_format, "8(c)", "9"),
            ),
        ),
    )
    if c.cut_required:
        cut = Para(
            "The cards are cut. The cut is offered to the first player at the table when the "
            "game begins, and then to the player farthest to the dealer's right, the offer moving "
            "counterclockwise round after round. If no player accepts, the dealer cuts. The "
            f"cutting card goes at least {r.cut_min_from_end} cards from either end.",
            cites(r.clause_format, "4(c)", "4(d)", "4(e)"),
        )
    else:
        cut = Para(
            "The shuffler places the cards straight into the dealing shoe, so they are not cut.",
            r.cite("4(b)"),
        )
    round_ = Section(
        "How a round goes",
        (
            Items(
                (
                    Para("Place your wager. The cards are shuffled.", r.cite("4(a)")),
                    cut,
                    Para('The dealer announces "No more bets".', r.cite("8(a)")),
                    Para(
                        "Starting at the dealer's left, each betting area gets one card face up. "
                        "The dealer then deals one card face down (the hole card) and three face "
                        "up in front of the dealer. Those four cards, with your own card, make "
                        "your five-card poker hand.",
                        r.cite("8(b)"),
                    ),
                    Para(
                        "Before the hole card is shown, you may place a double down wager.",
                        r.cite("8(c)"),
                    ),
                    Para(
                        'The dealer again announces "No more bets" and turns over the hole card.',
                        r.cite("8(d)"),
                    ),
                    Para(
                        "Losing wagers are collected first and pushes left in place; then winning "
                        "wagers are paid, starting at the dealer's right and going "
                        "counterclockwise.",
                        r.cite("9"),
                    ),
                ),
                ordered=True,
            ),
            Para("No player may touch the cards during a round.", r.cite("8(e)")),
        ),
    )
    settle = Section(
        "How wagers are settled",
        (
            Items(
                (
                    Para(
                        "A pair of fives or less, or no pair at all: your wager and double down "
                        "wager lose.",
                        r.cite("9(a)"),
                    ),
                    Para(
                        "A pair of sixes, sevens, eights, nines or tens: a push; your wagers are "
                        "neither collected nor paid.",
                        r.cite("9(b)"),
                    ),
                    Para(
                        "A pair of jacks or better: you win, paid by the pay table on the whole "
                        "amount wagered (your wager plus any double down wager).",
                        cites(r.clause_format, "9(c)", "10(b)"),
                    ),
                )
            ),
        ),
    )
    pays = Section(
        "Pay table",
        (
            Para(ODDS_NOTE, r.cite("10(a)")),
            Table(
                "Wager and double down wager",
                ("Hand", "Pays"),
                (
                    *pay_rows(c.pay_table),
                    *((u.hand[:1].upper() + u.hand[1:], u.result.capitalize()) for u in r.unpaid),
                ),
                cites(r.clause_format, "10(b)", "9(a)", "9(b)"),
            ),
        ),
    )
    limit = Section(
        "Payout limit",
        (
            Para(
                f"The payout limit is {money(c.payout_limit)} on any hand: the most paid on one "
                "hand's wager and double down wager together.",
                r.cite("10(c)"),
            ),
        ),
    )
    decisions = [
        Para(f"How much to wager ({money(c.minimum)} to {money(c.maximum)}).", r.cite("6(b)")),
    ]
    if c.two_areas:
        decisions.append(Para("Whether to play a second, adjacent betting area.", r.cite("6(c)")))
    if c.cut_required:
        decisions.append(
            Para("Whether to cut the cards when the cut is offered to you.", r.cite("4(c)"))
        )
    decisions.append(
        Para(
            "Whether to place a double down wager"
            + (", and how much" if c.double_down == "up-to" else "")
            + ", once you see your card and the dealer's three face-up cards.",
            r.cite("8(c)"),
        )
    )
    time_rule = Para(
        f"This table gives you {c.decision_seconds} seconds for each decision. If you have not "
        "decided in that time you are deemed not to double down"
        + (" and to decline the cut" if c.cut_required else "")
        + ", and the dealer goes on. (A house rule: the rule text sets no time.)"
    )
    yours = Section("Your decisions", (Items(tuple(decisions), ordered=True), time_rule))
    ranks = Section("Hand ranks", (Para(FIVE_CARD_RANKS, cites(r.clause_format, "5(a)", "5(b)")),))
    opening = (
        Para(
            f"This is the guide to the {name} game at this table. The table follows {r.title}; "
            "every limit and payout below is this table's own."
        ),
        Para(
            "Your hand is your one card and the dealer's four. You are not playing against the "
            "dealer's hand: what your five cards make decides your wager."
        ),
    )
    return Guide(
        f"{name}: the patron's guide",
        opening,
        (table, wagers, round_, settle, pays, limit, yours, ranks),
    )
