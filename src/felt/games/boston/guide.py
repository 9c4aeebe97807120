"""The patron's guide to a Boston 5 or Boston 7 table under its edition (:mod:`felt.guide`)."""

from __future__ import annotations

from felt.games.boston.config import TableConfig
from felt.games.boston.editions import Edition
from felt.games.boston.game import GAME
from felt.guide import (
    FIVE_CARD_RANKS,
    ODDS_NOTE,
    Block,
    Guide,
    Items,
    Para,
    Section,
    Table,
    cites,
    hand_name,
    money,
    pay_rows,
)


def _item(ed: Edition, section: str, number: int) -> str:
    """A numbered paragraph of a subsection: ``10(f)1``, or ``10(f)(1)`` in Massachusetts.

    The New Jersey texts number paragraphs bare (``(f)1``); the Massachusetts text writes them in
    parentheses (``(f)(1)``).
    """
    numbered = f"{number}" if ed.clause_format.startswith("N.J.A.C.") else f"({number})"
    return f"{section}{numbered}"


def _wager_clauses(ed: Edition) -> tuple[str, str]:
    """The subsections of 24.6 for the optional bonus wager and the second wager, which follows
    it: 2003 (c) and (d); 13:69F renumbered them (e) and (f)."""
    letter = ed.bonus_wager_clause[-2]
    return ed.bonus_wager_clause, f"6({chr(ord(letter) + 1)})"


def _ratio_words(ratio: int) -> str:
    return "exactly twice the ante" if ratio == 2 else "exactly equal to the ante"


def _boston_table_section(c: TableConfig, ed: Edition) -> Section:
    bonus_clause, _ = _wager_clauses(ed)
    first_lo, first_hi = c.first_ratio * c.minimum, c.first_ratio * c.maximum
    points = [
        Para(f"Ante: at least {money(c.minimum)}, at most {money(c.maximum)}."),
        Para(
            f"First wager, and the second wager if you make one: {_ratio_words(c.first_ratio)}, "
            f"so {money(first_lo)} to {money(first_hi)} each.",
            ed.cite(ed.game(c.game).ratio_clause),
        ),
        Para(
            f"Optional bonus wager: at least {money(c.bonus_minimum)}, at most "
            f"{money(c.bonus_maximum)}.",
            ed.cite(bonus_clause),
        ),
        Para(
            f"Payout limit: {money(c.payout_limit)} on any one hand (see below)."
            if c.payout_limit is not None
            else "Payout limit: none at this table (see below).",
            ed.cite("11(e)"),
        ),
    ]
    if c.decks == 2:
        points.append(
            Para(
                "Cards: two decks with backs of different colors, used in alternate rounds "
                "(one is shuffled while the other is dealt).",
                ed.cite("2(b)"),
            )
        )
    else:
        points.append(
            Para("Cards: one 52-card deck, machine-shuffled after every round.", ed.cite("4(a)"))
        )
    dealing = {
        "manual-shoe": ("The cards are dealt from a dealing shoe.", "7"),
        "hand": ("The cards are dealt from the dealer's hand.", "8"),
        "automated-shoe": ("The first cards come from an automated shoe, in stacks of three.", "9"),
    }[c.dealing]
    points.append(Para(dealing[0], ed.cite(dealing[1])))
    if c.positions_per_player is not None:
        many = c.positions_per_player
        points.append(
            Para(
                "You may play one player position."
                if many == 1
                else f"You may play up to {many} player positions.",
                ed.cite("13"),
            )
        )
    points.append(
        Para(
            "Only seated players may wager; once you have wagered and received cards you remain "
            "seated until the round is over.",
            ed.cite(ed.remain_seated_clause),
        )
    )
    return Section("The table", (Items(tuple(points)),))


def _boston_wagers(c: TableConfig, ed: Edition) -> Section:
    bonus_clause, _ = _wager_clauses(ed)
    ratio = ed.game(c.game).ratio_clause
    example = f"{money(c.minimum)} ante goes with a {money(c.first_ratio * c.minimum)} first wager"
    chosen = (
        " The rules let the casino choose a first wager equal to the ante or twice it; this table "
        f"has chosen {'twice' if c.first_ratio == 2 else 'equal'}."
        if len(ed.game(c.game).first_ratios) > 1
        else ""
    )
    extra = "four more cards" if c.game == "boston7" else "the last two cards"
    return Section(
        "The wagers",
        (
            Para(
                "Ante and first wager. To play a round you place both before any cards are dealt "
                f'and before the dealer announces "No more bets". The first wager is '
                f"{_ratio_words(c.first_ratio)}: a {example}.{chosen}",
                cites(ed.clause_format, ratio, "6(b)"),
            ),
            Para(
                "Optional bonus wager. With your ante and first wager you may also wager on your "
                f"first three cards alone, with a chip of at least {money(c.bonus_minimum)} "
                f"(at most {money(c.bonus_maximum)} here). It is settled by the optional bonus "
                "pay table before anyone decides on a second wager.",
                cites(ed.clause_format, bonus_clause, "10(a)"),
            ),
            Para(
                "Second wager or fold. After seeing your first three cards you either place a "
                "second wager, equal to your first wager, or fold. Folding forfeits your ante and "
                "your first wager; your cards are collected without being shown.",
                cites(ed.clause_format, ratio, "10(b)"),
            ),
            Para(
                "Withdrawing the second wager. You may take back your second wager at any time "
                f"before {extra} are dealt. Those cards go only to players who have placed and "
                "not withdrawn a second wager, so withdrawing ends your round as a fold does: "
                "the ante and first wager are forfeited.",
                cites(ed.clause_format, "10(c)", "10(d)", "10(b)"),
            ),
            Para(
                "Apart from these, no wager may be made, increased or withdrawn once the dealer "
                'has announced "No more bets".',
                ed.cite("6(b)"),
            ),
        ),
    )


def _boston_round(c: TableConfig, ed: Edition) -> Section:
    first_deal = (
        (
            "The dealer hands each player a stack of three cards face down from the automated "
            "shoe, then takes a stack of three face down for the dealer's hand.",
            ed.cite("9(c)"),
        )
        if c.dealing == "automated-shoe"
        else (
            "Starting at the dealer's left, the dealer deals three cards face down to each "
            "player, then three face down for the dealer's hand.",
            ed.cite("7(d)" if c.dealing == "manual-shoe" else "8(c)"),
        )
    )
    if ed.bonus_exposure_required:
        exposure = Para(
            "If you placed an optional bonus wager, you are required to expose your three "
            "cards: exposure is required, not a choice. Hands that qualify are paid by the "
            "optional bonus pay table; the other bonus wagers lose.",
            ed.cite("10(a)"),
        )
    else:
        exposure = Para(
            "If you placed an optional bonus wager, you may elect to expose your three cards to "
            "qualify for the bonus payout. Exposure is elective (your choice), but a bonus wager "
            "whose three cards are not exposed loses. Exposed hands that qualify are paid by the "
            "optional bonus pay table; the other bonus wagers lose.",
            ed.cite("10(a)"),
        )
    steps = [
        Para(
            "Place your ante and first wager, and an optional bonus wager if you wish. The dealer "
            'announces "No more bets".',
            ed.cite("6(b)"),
        ),
        Para(*first_deal),
        exposure,
        Para(
            "Each player places a second wager or folds. A second wager may be withdrawn until "
            "the next cards are dealt.",
            cites(ed.clause_format, "10(b)", "10(c)"),
        ),
    ]
    if c.game == "boston7":
        steps += [
            Para(
                "The dealer deals four more cards face down (the fourth to seventh) to each "
                "player with a second wager, and four to the dealer's hand.",
                ed.cite("10(d)"),
            ),
            Para(
                "With your seven cards you may elect to discard two and play the other five. "
                "Discarding forfeits any six-card or seven-card royal flush payout. If you keep "
                "all seven, your hand is the best five of them.",
                ed.cite("10(c)"),
            ),
        ]
    else:
        steps.append(
            Para(
                "The dealer deals two more cards face down (the fourth and fifth) to each player "
                "with a second wager, and two to the dealer's hand.",
                ed.cite("10(d)"),
            )
        )
    steps.append(
        Para(
            "The dealer reveals all of the dealer's cards at once and sets the highest-ranking "
            "five-card poker hand.",
            ed.cite("10(e)"),
        )
    )
    if c.settlement == "alternative":
        steps.append(
            Para(
                "Starting at the dealer's right and going counterclockwise, the dealer turns over "
                "the players' cards, collects every losing wager first, then pays every winning "
                "wager and ante bonus.",
                ed.cite("10(g)"),
            )
        )
    else:
        steps.append(
            Para(
                "Starting at the dealer's right and going counterclockwise, the dealer turns over "
                "each player's cards and settles that player's wagers before moving on.",
                ed.cite("10(f)"),
            )
        )
    return Section("How a round goes", (Items(tuple(steps), ordered=True),))


def _boston_settlement(c: TableConfig, ed: Edition) -> Section:
    f1, f2, f3 = (_item(ed, "10(f)", n) for n in (1, 2, 3))
    lowest = hand_name(c.ante_bonus.hands[-1]).lower()
    qualifies = Para(
        f"Your hand qualifies for an ante bonus when it is {lowest} or better: see the ante "
        "bonus pay table. The ante bonus is paid whether or not your hand beats the dealer's.",
        cites(ed.clause_format, "11(c)", f3),
    )
    blocks: list[Block] = [
        Items(
            (
                Para(
                    "Dealer's hand higher: your ante, first and second wagers lose; if your hand "
                    "qualifies for an ante bonus, you still receive the ante bonus payout.",
                    cites(ed.clause_format, f1, f3),
                ),
                Para(
                    "Your hand higher: your first and second wagers are paid 1 to 1; your ante is "
                    "paid its ante bonus odds if your hand qualifies, and otherwise returned to "
                    "you.",
                    cites(ed.clause_format, f3, "11(b)"),
                ),
                Para(
                    "A tie: a push; your wagers are neither collected nor paid, and the ante "
                    "bonus is still paid if your hand qualifies.",
                    cites(ed.clause_format, f2, f3),
                ),
            )
        ),
        qualifies,
        Para(
            "Two hands of the same kind are compared as in poker: the higher four of a kind, "
            "three of a kind or pair first, then the highest card one hand holds and the other "
            "does not. Hands identical in rank tie.",
            cites(ed.clause_format, "5(b)", "5(c)"),
        ),
        Para(
            "The optional bonus wager is settled on your first three cards alone, before the "
            "second wagers, whatever happens later in the round.",
            ed.cite("10(a)"),
        ),
    ]
    return Section("How wagers are settled", tuple(blocks))


def _boston_pay_tables(c: TableConfig, ed: Edition) -> Section:
    blocks: list[Block] = [
        Para(ODDS_NOTE, ed.cite("11(a)")),
        Table(
            "First and second wagers",
            ("Result", "Pays"),
            (("Your hand higher than the dealer's", "1 to 1"),),
            ed.cite("11(b)"),
        ),
        Table("Ante bonus", ("Hand", "Pays"), pay_rows(c.ante_bonus), ed.cite("11(c)")),
    ]
    if "boston7" in ed.games:  # the amended text (13:69F) added "paid once" for both games
        several = (
            ": a hand that makes several lines (a seven-card royal flush is also a six-card and "
            "a five-card royal flush) is paid only the line worth the most on your ante"
            if c.game == "boston7"
            else ""
        )
        blocks.append(
            Para(
                f"Each winning ante bonus wager is paid once for the highest payout{several}.",
                ed.cite("11(c)"),
            )
        )
    if any(p.amount is not None for _, p in c.ante_bonus.lines):
        blocks.append(
            Para(
                "The six-card and seven-card royal flushes pay the fixed dollar amounts shown, "
                "whatever the size of your ante. A six-card royal flush is ace, king, queen, "
                "jack, ten and nine of one suit; a seven-card royal flush adds the eight.",
                cites(ed.clause_format, "5(e)", "11(c)"),
            )
        )
    blocks.append(
        Table(
            "Optional bonus (your first three cards)",
            ("Hand", "Pays"),
            pay_rows(c.optional_bonus),
            ed.cite("11(d)"),
        )
    )
    if not c.royal_offered:
        blocks.append(
            Para(
                "This table does not offer the three-card royal flush payout; ace, king and "
                "queen of one suit are paid as a three-card straight flush.",
                ed.cite("11(d)"),
            )
        )
    return Section("Pay tables", tuple(blocks))


def _boston_limit(c: TableConfig, ed: Edition) -> Section:
    if c.payout_limit is None:
        text = (
            "This table has no payout limit: winning first wagers, second wagers and ante "
            "bonuses are paid in full at the odds above. (A casino may set one, posted at the "
            f"table, of at least {money(ed.payout_limit_floor)} or the most that can be won at "
            "the minimum wager, whichever is greater; it would never apply to the optional bonus.)"
        )
    else:
        text = (
            f"This table's payout limit is {money(c.payout_limit)}: the most paid on any single "
            "hand. It applies, per hand, to the winnings of your first wager, second wager and "
            "ante bonus together. It does not apply to the optional bonus wager, which is always "
            "paid in full. The limit is shown on the layout or posted at the table."
        )
    return Section("Payout limit", (Para(text, ed.cite("11(e)")),))


def _boston_decisions(c: TableConfig, ed: Edition) -> Section:
    bonus_clause, _ = _wager_clauses(ed)
    choices = [
        Para(
            f"How much to ante ({money(c.minimum)} to {money(c.maximum)}); the first wager "
            "follows from it.",
            ed.cite(ed.game(c.game).ratio_clause),
        ),
        Para(
            "Whether to place an optional bonus wager, and how much "
            f"({money(c.bonus_minimum)} to {money(c.bonus_maximum)}).",
            ed.cite(bonus_clause),
        ),
    ]
    if not ed.bonus_exposure_required:
        choices.append(
            Para(
                "With a bonus wager: whether to expose your three cards (an unexposed bonus "
                "wager loses).",
                ed.cite("10(a)"),
            )
        )
    choices += [
        Para("Second wager or fold, after seeing your first three cards.", ed.cite("10(b)")),
        Para(
            "Whether to withdraw your second wager before the next cards are dealt.",
            ed.cite("10(c)"),
        ),
    ]
    if c.game == "boston7":
        choices.append(
            Para(
                "With seven cards: keep all seven, or discard two and give up the six- and "
                "seven-card royal flush payouts.",
                ed.cite("10(c)"),
            )
        )
    if c.positions_per_player is not None and c.positions_per_player > 1:
        choices.append(Para(f"How many player positions to play (up to {c.positions_per_player})."))
    deemed = ["not to expose (the bonus wager loses)"] if not ed.bonus_exposure_required else []
    deemed.append("to fold (the ante and first wager are lost)")
    if c.game == "boston7":
        deemed.append("to keep all seven cards")
    time_rule = Para(
        f"This table gives you {c.decision_seconds} seconds for each decision. If you have not "
        f"decided in that time you are deemed {', '.join(deemed[:-1])}"
        f"{' or ' if len(deemed) > 1 else ''}{deemed[-1]}, and the dealer goes on. "
        "(A house rule: the rule text sets no time.)"
    )
    return Section("Your decisions", (Items(tuple(choices), ordered=True), time_rule))


def _boston_ranks(c: TableConfig, ed: Edition) -> Section:
    three = ", ".join(hand_name(h).lower() for h in c.optional_bonus.hands)
    blocks: list[Block] = [
        Para(FIVE_CARD_RANKS, cites(ed.clause_format, "5(a)", "5(b)")),
        Para(
            f"The optional bonus pays on these three-card hands, best first: {three}. In a "
            "three-card straight an ace may not join a king and a two.",
            ed.cite("5(d)"),
        ),
    ]
    return Section("Hand ranks", tuple(blocks))


def boston_guide(c: TableConfig) -> Guide:
    """The guide to a Boston 5 or Boston 7 table under its edition."""
    ed = c.edition
    name = GAME.title(c.game)
    opening = (
        Para(
            f"This is the guide to the {name} game at this table. The table follows "
            f"{ed.title}; every limit and payout below is this table's own."
        ),
        Para(
            "You play your own hand against the dealer's. You may also wager, separately, on your "
            "first three cards."
        ),
    )
    return Guide(
        f"{name}: the patron's guide",
        opening,
        (
            _boston_table_section(c, ed),
            _boston_wagers(c, ed),
            _boston_round(c, ed),
            _boston_settlement(c, ed),
            _boston_pay_tables(c, ed),
            _boston_limit(c, ed),
            _boston_decisions(c, ed),
            _boston_ranks(c, ed),
        ),
    )
