"""The patron's guide to one table: the game as its rule text writes it, in plain words.

The guide is built from the same table configuration the table runs on, so every limit and pay
table in it is that table's own.  It is built first as a small document (sections of paragraphs,
lists and tables, each with the clause it rests on) and then rendered, so Markdown and HTML carry
the same content.

>>> from felt.games.boston.config import TableConfig
>>> text = render_guide(TableConfig.from_mapping({"game": "boston5"}), "md")
>>> print(text.splitlines()[0])
# Boston 5 Stud Poker: the patron's guide
>>> "| Two pair | 2 to 1 |" in text
True
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from felt.core.errors import FeltError, excerpt
from felt.core.paytable import Payout, PayTable
from felt.core.tablefile import read_toml
from felt.games.boston.config import TableConfig
from felt.games.boston.editions import Edition
from felt.games.double_down.config import GAME as DOUBLE_DOWN
from felt.games.double_down.config import DoubleDownConfig, rules

FORMATS: Final = ("md", "html")
"""The formats a guide renders to: Markdown (the default) and a standalone HTML page."""

GAME_NAMES: Final = {
    "boston5": "Boston 5 Stud Poker",
    "boston7": "Boston 7 Stud Poker",
    DOUBLE_DOWN: "Double Down Stud",
}

# --- the document -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Para:
    """A paragraph (or a list item), with the clause it rests on in small print."""

    text: str
    cite: str = ""


@dataclass(frozen=True)
class Items:
    """A list of points; ``ordered`` when they are steps taken in turn."""

    items: tuple[Para, ...]
    ordered: bool = False


@dataclass(frozen=True)
class Table:
    """A table with a caption, a header row and the clause it rests on."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    cite: str = ""


Block = Para | Items | Table


@dataclass(frozen=True)
class Section:
    """A titled part of the guide."""

    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Guide:
    """The whole guide: a title, an opening, then the sections in reading order."""

    title: str
    opening: tuple[Block, ...]
    sections: tuple[Section, ...]


# --- words shared by both games -----------------------------------------------------------------


def money(amount: int) -> str:
    """Cents as a patron reads dollars: ``$1,000.00``.

    >>> money(2500000), money(100)
    ('$25,000.00', '$1.00')
    """
    whole, part = divmod(amount, 100)
    return f"${whole:,}.{part:02d}"


def odds(payout: Payout) -> str:
    """One pay line as posted: odds with the word "to" (never "for", 24.11(a)), or a fixed amount.

    >>> odds(Payout.parse("1000 to 1")), odds(Payout.parse("$5000"))
    ('1,000 to 1', '$5,000.00 (a fixed amount)')
    """
    if payout.amount is not None:
        return f"{money(payout.amount)} (a fixed amount)"
    return f"{payout.to_win:,} to {payout.to_stake:,}"


_HAND_NAMES: Final = {"jacks or better": "Pair of jacks, queens, kings or aces"}


def _hand(name: str) -> str:
    """A pay-table hand as a heading-cased phrase."""
    name = _HAND_NAMES.get(name, name)
    return name[:1].upper() + name[1:]


def _rows(table: PayTable) -> tuple[tuple[str, str], ...]:
    return tuple((_hand(hand), odds(p)) for hand, p in table.lines)


def _cites(clause_format: str, *sections: str) -> str:
    """Several sections of one text, the first cited in full: ``N.J.A.C. 19:47-24.10(b), 24.10(c)``.

    >>> _cites("N.J.A.C. 19:47-24.{}", "10(f)1", "10(f)3")
    'N.J.A.C. 19:47-24.10(f)1, 24.10(f)3'
    """
    cut = max(clause_format.rfind("-"), clause_format.rfind(" ")) + 1
    short = clause_format[cut:]
    first, *rest = sections
    return ", ".join([clause_format.format(first), *(short.format(s) for s in rest)])


ODDS_NOTE: Final = (
    'Odds are stated with the word "to": at 8 to 1 a winning $10.00 wager wins $80.00, '
    "and the $10.00 wagered is returned with it."
)
FIVE_CARD_RANKS: Final = (
    "Hands rank as in poker, highest first: royal flush, straight flush, four of a kind, "
    "full house, flush, straight, three of a kind, two pair, one pair, then hands with none of "
    "these. Aces are high, and low only in the straight (or straight flush) "
    "ace-two-three-four-five. No suit ranks above another."
)


# --- Boston 5 and Boston 7 ----------------------------------------------------------------------


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
                _cites(ed.clause_format, ratio, "6(b)"),
            ),
            Para(
                "Optional bonus wager. With your ante and first wager you may also wager on your "
                f"first three cards alone, with a chip of at least {money(c.bonus_minimum)} "
                f"(at most {money(c.bonus_maximum)} here). It is settled by the optional bonus "
                "pay table before anyone decides on a second wager.",
                _cites(ed.clause_format, bonus_clause, "10(a)"),
            ),
            Para(
                "Second wager or fold. After seeing your first three cards you either place a "
                "second wager, equal to your first wager, or fold. Folding forfeits your ante and "
                "your first wager; your cards are collected without being shown.",
                _cites(ed.clause_format, ratio, "10(b)"),
            ),
            Para(
                "Withdrawing the second wager. You may take back your second wager at any time "
                f"before {extra} are dealt. Those cards go only to players who have placed and "
                "not withdrawn a second wager, so withdrawing ends your round as a fold does: "
                "the ante and first wager are forfeited.",
                _cites(ed.clause_format, "10(c)", "10(d)", "10(b)"),
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
            _cites(ed.clause_format, "10(b)", "10(c)"),
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
    lowest = _hand(c.ante_bonus.hands[-1]).lower()
    qualifies = Para(
        f"Your hand qualifies for an ante bonus when it is {lowest} or better: see the ante "
        "bonus pay table. The ante bonus is paid whether or not your hand beats the dealer's.",
        _cites(ed.clause_format, "11(c)", f3),
    )
    blocks: list[Block] = [
        Items(
            (
                Para(
                    "Dealer's hand higher: your ante, first and second wagers lose; if your hand "
                    "qualifies for an ante bonus, you still receive the ante bonus payout.",
                    _cites(ed.clause_format, f1, f3),
                ),
                Para(
                    "Your hand higher: your first and second wagers are paid 1 to 1; your ante is "
                    "paid its ante bonus odds if your hand qualifies, and otherwise returned to "
                    "you.",
                    _cites(ed.clause_format, f3, "11(b)"),
                ),
                Para(
                    "A tie: a push; your wagers are neither collected nor paid, and the ante "
                    "bonus is still paid if your hand qualifies.",
                    _cites(ed.clause_format, f2, f3),
                ),
            )
        ),
        qualifies,
        Para(
            "Two hands of the same kind are compared as in poker: the higher four of a kind, "
            "three of a kind or pair first, then the highest card one hand holds and the other "
            "does not. Hands identical in rank tie.",
            _cites(ed.clause_format, "5(b)", "5(c)"),
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
        Table("Ante bonus", ("Hand", "Pays"), _rows(c.ante_bonus), ed.cite("11(c)")),
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
                _cites(ed.clause_format, "5(e)", "11(c)"),
            )
        )
    blocks.append(
        Table(
            "Optional bonus (your first three cards)",
            ("Hand", "Pays"),
            _rows(c.optional_bonus),
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
    three = ", ".join(_hand(h).lower() for h in c.optional_bonus.hands)
    blocks: list[Block] = [
        Para(FIVE_CARD_RANKS, _cites(ed.clause_format, "5(a)", "5(b)")),
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
    name = GAME_NAMES[c.game]
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


# --- Double Down Stud ---------------------------------------------------------------------------


def double_down_guide(c: DoubleDownConfig) -> Guide:
    """The guide to a Double Down Stud table under N.J.A.C. 19:47-17."""
    r = rules()
    name = GAME_NAMES[DOUBLE_DOWN]
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
                    Para(f"Cards: {cards}, {shuffled}.", _cites(r.clause_format, "2", "4(a)")),
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
                _cites(r.clause_format, "8(c)", "9"),
            ),
        ),
    )
    if c.cut_required:
        cut = Para(
            "The cards are cut. The cut is offered to the first player at the table when the "
            "game begins, and then to the player farthest to the dealer's right, the offer moving "
            "counterclockwise round after round. If no player accepts, the dealer cuts. The "
            f"cutting card goes at least {r.cut_min_from_end} cards from either end.",
            _cites(r.clause_format, "4(c)", "4(d)", "4(e)"),
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
                        _cites(r.clause_format, "9(c)", "10(b)"),
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
                    *_rows(c.pay_table),
                    ("Pair of sixes, sevens, eights, nines or tens", "Push"),
                    ("Pair of fives or less", "Lose"),
                ),
                r.cite("10(b)"),
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
    ranks = Section("Hand ranks", (Para(FIVE_CARD_RANKS, _cites(r.clause_format, "5(a)", "5(b)")),))
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


def build_guide(config: TableConfig | DoubleDownConfig) -> Guide:
    """The guide to the table ``config`` describes."""
    if isinstance(config, DoubleDownConfig):
        return double_down_guide(config)
    return boston_guide(config)


def table_game(path: str | Path) -> str:
    """The game a table file is for: its ``game`` key (Boston 5 when absent, as load_table reads it).

    Only the choice of loader rests on this; the loader then checks the whole file.
    """
    game = read_toml(path).get("game", "boston5")
    return game if isinstance(game, str) else excerpt(game)


# --- rendering ----------------------------------------------------------------------------------

_MD_SPECIAL: Final = re.compile(r"([\\`*_\[\]<>|#])")


def _md(text: str) -> str:
    """Text with Markdown's special characters escaped, so data never turns into markup."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def _md_para(p: Para) -> str:
    return _md(p.text) + (f" *({_md(p.cite)})*" if p.cite else "")


def _md_block(block: Block) -> list[str]:
    if isinstance(block, Para):
        return [_md_para(block), ""]
    if isinstance(block, Items):
        return [
            *(
                f"{f'{n}.' if block.ordered else '-'} {_md_para(p)}"
                for n, p in enumerate(block.items, 1)
            ),
            "",
        ]
    lines = [f"**{_md(block.caption)}**", ""]
    lines.append("| " + " | ".join(_md(h) for h in block.header) + " |")
    lines.append("|" + "|".join("---" for _ in block.header) + "|")
    lines += ["| " + " | ".join(_md(cell) for cell in row) + " |" for row in block.rows]
    lines.append("")
    if block.cite:
        lines += [f"*({_md(block.cite)})*", ""]
    return lines


def render_markdown(guide: Guide) -> str:
    """The guide as Markdown."""
    lines = [f"# {_md(guide.title)}", ""]
    for block in guide.opening:
        lines += _md_block(block)
    for section in guide.sections:
        lines += [f"## {_md(section.title)}", ""]
        for block in section.blocks:
            lines += _md_block(block)
    return "\n".join(lines).rstrip("\n") + "\n"


_STYLE: Final = """
body { font-family: Georgia, "Times New Roman", serif; max-width: 44rem; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.5; color: #1a1a1a; background: #fdfdf8; }
h1 { font-size: 1.7rem; border-bottom: 2px solid #2e5e3e; padding-bottom: .3rem; }
h2 { font-size: 1.25rem; color: #2e5e3e; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0 .25rem; }
caption { text-align: left; font-weight: bold; padding-bottom: .25rem; }
th, td { border: 1px solid #b8b8a8; padding: .25rem .75rem; text-align: left; }
td:last-child { text-align: right; white-space: nowrap; }
small.cite { color: #5a5a5a; font-size: .8em; }
""".strip()


def _h(text: str) -> str:
    return html.escape(text, quote=True)


def _html_para(p: Para) -> str:
    cite = f' <small class="cite">({_h(p.cite)})</small>' if p.cite else ""
    return _h(p.text) + cite


def _html_block(block: Block) -> list[str]:
    if isinstance(block, Para):
        return [f"<p>{_html_para(block)}</p>"]
    if isinstance(block, Items):
        tag = "ol" if block.ordered else "ul"
        return [f"<{tag}>", *(f"<li>{_html_para(p)}</li>" for p in block.items), f"</{tag}>"]
    lines = ["<table>", f"<caption>{_h(block.caption)}</caption>", "<thead><tr>"]
    lines += [f'<th scope="col">{_h(h)}</th>' for h in block.header]
    lines += ["</tr></thead>", "<tbody>"]
    lines += [
        "<tr>" + "".join(f"<td>{_h(cell)}</td>" for cell in row) + "</tr>" for row in block.rows
    ]
    lines += ["</tbody>", "</table>"]
    if block.cite:
        lines.append(f'<p><small class="cite">({_h(block.cite)})</small></p>')
    return lines


def render_html(guide: Guide) -> str:
    """The guide as one standalone HTML page (no external resources), every text escaped."""
    lines = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_h(guide.title)}</title>",
        f"<style>\n{_STYLE}\n</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{_h(guide.title)}</h1>",
    ]
    for block in guide.opening:
        lines += _html_block(block)
    for section in guide.sections:
        lines += ["<section>", f"<h2>{_h(section.title)}</h2>"]
        for block in section.blocks:
            lines += _html_block(block)
        lines.append("</section>")
    lines += ["</main>", "</body>", "</html>"]
    return "\n".join(lines) + "\n"


def render_guide(config: TableConfig | DoubleDownConfig, fmt: str = "md") -> str:
    """The guide to ``config``'s table in ``fmt`` (``md`` or ``html``)."""
    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    guide = build_guide(config)
    return render_markdown(guide) if fmt == "md" else render_html(guide)
