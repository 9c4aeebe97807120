"""The patron's guide to one poker table, built from the table's own configuration and rendered by
the shared guide renderer (:mod:`felt.guide`), in every format it renders (Markdown and HTML).

The seed text gives N.J.A.C. 19:47-14.15(e)-(q) (irregularities), 14.16 (conduct of players),
14.17 (minimum and maximum wagers) and 14.18 (waiting list); 14.1-14.14 only by their titles.
Each paragraph cites the clause it rests on, or the section whose title it falls under, marked
"title only"; what the title-only sections would say follows felt's interpretations
(docs/interpretations.md, "The poker room").  The game, the limits, the forced bets, the raise
cap, the buy-in and the rake are this table's own (:class:`~.config.PokerConfig`).

>>> from felt.games.poker.config import PokerConfig
>>> text = render(PokerConfig.from_mapping({}), "md")
>>> print(text.splitlines()[0])
# Texas hold 'em, fixed limit: the patron's guide
>>> "| Turn | $4.00 | 3 |" in text
True
"""

from __future__ import annotations

from typing import Final

from felt.core.errors import FeltError
from felt.games.poker.analysis import LIMIT_NAMES, ROUNDS, VARIANT_NAMES, par_sheet, round_bets
from felt.games.poker.config import PercentRake, PokerConfig
from felt.guide import (
    FIVE_CARD_RANKS,
    FORMATS,
    Guide,
    Items,
    Para,
    Section,
    Table,
    money,
    render_html,
    render_markdown,
)

TEXT: Final = "N.J.A.C. 19:47-14"
TITLE_ONLY: Final = " (title only)"
"""How a citation of a section the seed text gives only by its title is marked."""
TITLE_ONLY_SECTIONS: Final = frozenset(str(n) for n in range(1, 15))
"""14.1 to 14.14: in the seed by their titles only."""


def cite(*clauses: str) -> str:
    """Clauses of 19:47-14, the first in full: ``N.J.A.C. 19:47-14.15(f)1, 14.15(f)2``; a
    section the seed gives only by its title is marked so.

    >>> cite("15(f)1", "15(f)2"), cite("3")
    ('N.J.A.C. 19:47-14.15(f)1, 14.15(f)2', 'N.J.A.C. 19:47-14.3 (title only)')
    """
    out = []
    for i, clause in enumerate(clauses):
        text = f"{TEXT}.{clause}" if i == 0 else f"14.{clause}"
        section = clause.split("(")[0]
        out.append(text + (TITLE_ONLY if section in TITLE_ONLY_SECTIONS else ""))
    return ", ".join(out)


def game_name(config: PokerConfig) -> str:
    """The game and its limit as a patron reads them: ``Texas hold 'em, fixed limit``."""
    return f"{VARIANT_NAMES[config.variant]}, {LIMIT_NAMES[config.limit]}"


def _table(c: PokerConfig) -> tuple[Para, ...]:
    """The posted limits, the buy-in, the seats and the time to act."""
    if c.limit == "fixed":
        limits = (
            f"Wagers: {money(c.small_bet)} in the early rounds and {money(c.big_bet)} in the late "
            f"rounds, each bet or raise exactly that amount; at most a bet and {c.max_raises} "
            "raises in any one betting round."
        )
    elif c.limit == "pot":
        limits = (
            f"Wagers: pot limit. A bet or raise is at least {money(c.big_blind)} (a raise at "
            "least the size of the last bet or raise in the round), and at most the size of the "
            "pot after you call. The number of raises is not limited."
        )
    else:
        limits = (
            f"Wagers: no limit. A bet or raise is at least {money(c.big_blind)} (a raise at least "
            "the size of the last bet or raise in the round), and at most all the chips you have "
            "in front of you. The number of raises is not limited."
        )
    return (
        Para(
            f"The game: {game_name(c)}, posted at the table as {c.limits_text()!r}, with the "
            "minimum and maximum wagers and the most raises a round.",
            cite("17", "8"),
        ),
        Para(limits, cite("17", "7")),
        Para(
            "If every player seated at the table agrees, the minimum wager may be raised at "
            "once, without the usual notice; the agreement is recorded, and the new minimum "
            "applies from the next hand.",
            cite("17"),
        ),
        Para(
            f"Buying in: your chips in front of you must come to at least {money(c.min_buy_in)} "
            f"and at most {money(c.max_buy_in)} when you sit down or add chips, which you may "
            "do only between hands. Only the chips in front of you when a hand begins play in "
            "it (table stakes).",
            cite("7"),
        ),
        Para(
            f"Seats: {c.seats}. When it is your turn you have {c.decision_seconds} seconds to act.",
            cite("6"),
        ),
    )


def _forced(c: PokerConfig) -> tuple[Para, ...]:
    """The blinds, or the antes and the bring-in."""
    if c.blinds:
        out = [
            Para(
                "A button marks the dealer's position and moves one seat clockwise after each "
                f"hand. Before the cards are dealt, the first player clockwise from the button "
                f"posts the small blind of {money(c.small_blind)} and the next the big blind of "
                f"{money(c.big_blind)}: wagers made before seeing a card. With only two "
                "players the button posts the small blind and the other the big blind.",
                cite("10", "11"),
            )
        ]
        if c.ante:
            out.append(Para(f"Every player also posts an ante of {money(c.ante)}.", cite("7")))
        return tuple(out)
    ante = f"Every player posts an ante of {money(c.ante)} before the deal. " if c.ante else ""
    return (
        Para(
            f"{ante}After third street is dealt, the player showing the lowest up card must "
            f"bring it in for {money(c.bring_in)} or complete the bet to {money(c.small_bet)} "
            "(between cards of the same rank, the lowest suit brings it in: clubs, then "
            "diamonds, hearts, spades).",
            cite("9", "7"),
        ),
    )


def _deal(c: PokerConfig) -> Items:
    """The deal and the betting rounds, in order."""
    steps: tuple[str, ...]
    if c.variant == "stud7":
        steps = (
            "Third street: two cards face down and one face up to each player; the low card "
            "brings it in, then the betting goes clockwise.",
            "Fourth, fifth and sixth streets: one card face up to each player still in; the "
            "highest hand showing acts first.",
            "Seventh street: one last card face down; the highest hand showing acts first.",
            "Each player still in after the last round shows; the best five cards of seven win.",
        )
        return Items(tuple(Para(s, cite("9")) for s in steps), ordered=True)
    holes = "two cards" if c.variant == "holdem" else "four cards"
    section = "10" if c.variant == "holdem" else "11"
    steps = (
        f"Each player is dealt {holes} face down, one at a time from the small blind clockwise; "
        "the first betting round begins with the player after the big blind.",
        "The flop: a card is burned and three cards are dealt face up in the middle of the "
        "table, shared by every player; a betting round begins with the first player still in "
        "clockwise from the button.",
        "The turn: a card burned, one more face up; a betting round.",
        "The river: a card burned, a fifth face up; the last betting round.",
        "Each player still in after the last round shows; the best hand wins.",
    )
    return Items(tuple(Para(s, cite(section)) for s in steps), ordered=True)


def _betting_table(c: PokerConfig) -> Table:
    """Each round's bet and its raise cap (fixed limit) or least bet."""
    fixed = c.limit == "fixed"
    rows = []
    for name, bet, _ in round_bets(c):
        label = name[:1].upper() + name[1:]
        cap = (str(c.max_raises),) if fixed else ()
        rows.append((label, money(bet), *cap))
    header = ("Round", "Bet and raise" if fixed else "Least bet") + (
        ("Most raises",) if fixed else ()
    )
    return Table("The betting rounds at this table", header, tuple(rows), cite("17", "7"))


def _showdown(c: PokerConfig) -> tuple[Para, ...]:
    """Hand ranking, how the hand is made, split pots and side pots."""
    if c.variant == "omaha":
        made = (
            "In Omaha your hand is exactly two of your four cards and exactly three of the five "
            "cards on the board."
        )
    elif c.variant == "holdem":
        made = "Your hand is the best five of your two cards and the five on the board."
    else:
        made = "Your hand is the best five of your seven cards."
    odd = (
        "starting with the first winner clockwise from the button"
        if c.blinds
        else "starting with the winner holding the highest card by suit (spades, hearts, "
        "diamonds, clubs)"
    )
    return (
        Para(FIVE_CARD_RANKS + " " + made, cite("3", "8")),
        Para(
            "Equal hands split the pot evenly; any odd cents go one each to the tied winners "
            f"in turn, {odd}.",
            cite("6"),
        ),
        Para(
            "A player who goes all in can win only the chips matched against their own: the "
            "rest of the betting makes side pots, each won by the best hand among the players "
            "who put chips in it. A bet no one calls is returned to its bettor.",
            cite("6", "7"),
        ),
        Para(
            "A folded hand is dead: it is not shown and wins nothing. Your cards are never "
            "shown to another player before the showdown.",
            cite("15(k)1"),
        ),
    )


def _rake(c: PokerConfig) -> tuple[Para | Table, ...]:
    """The house's charge: the rake by percentage with a cap, or a time charge."""
    rake = c.rake
    if not isinstance(rake, PercentRake):
        return (
            Para(
                f"The house charges each seated player {money(rake.per_half_hour)} each half "
                "hour, collected from the chips in front of you between hands. No pot is raked.",
                cite("14"),
            ),
        )
    sheet = par_sheet(c)
    out: list[Para | Table] = [
        Para(
            f"The house takes {rake.percent}% of each pot, rounded down to the cent, and never "
            f"more than {money(rake.cap)} a hand. The rake is taken before the pot is awarded, "
            "from the main pot first.",
            cite("14"),
        )
    ]
    if rake.no_flop_no_drop:
        where = "fourth street is dealt" if c.variant == "stud7" else "the flop"
        out.append(Para(f"No flop, no drop: a hand that ends before {where} is not raked.",
                        cite("14")))  # fmt: skip
    if sheet.cap_pot is not None:
        pots = sorted({c.big_blind * 5 or c.small_bet * 5, sheet.cap_pot // 2, sheet.cap_pot,
                       sheet.cap_pot * 3})  # fmt: skip
        rows = tuple((money(p), money(sheet.rake_of(p)), money(p - sheet.rake_of(p)))
                     for p in pots if p > 0)  # fmt: skip
        out.append(Table("The rake of a few pots", ("Pot", "Rake", "To the winner"), rows,
                         cite("14")))  # fmt: skip
    out.append(
        Para(
            "A hand called dead, every chip returned, is not raked; nor is the money refunded "
            "from the pot to a player whose hand was killed through no fault of their own.",
            cite("15(h)", "15(j)3"),
        )
    )
    return tuple(out)


def _irregularities(c: PokerConfig) -> Items:
    """14.15(e)-(q) in the players' words, the variant's own clauses only."""
    stud = c.variant == "stud7"
    items = [
        Para(
            "If you fold after posting a blind or forced bet, or on a round of checks, your "
            "position keeps receiving cards until someone makes a later wager, so everyone "
            "else gets the cards they would have had.",
            cite("15(e)"),
        ),
        Para(
            "A misdeal: all the cards go back to the dealer, are reshuffled and the hand is "
            "dealt again, with the blinds and antes as they were. It is a misdeal if the cards "
            "were not shuffled and cut as required, if more than one card is found face up in "
            "the deck, and, if noticed before two players have put in a wager of their own "
            "choosing, if the deal began at the wrong seat or missed a seated player due a hand.",
            cite("15(f)1", "15(f)2", "15(f)3", "15(f)4"),
        ),
        Para(
            "Cards dealt by mistake to a seat not in the hand are discarded, and only those; "
            "the hand goes on.",
            cite("15(g)"),
        ),
        Para(
            "If cards are found missing from the deck, or extra cards are found, the hand is "
            "dead and every chip in the pot goes back to the player who put it there.",
            cite("15(h)"),
        ),
        Para(
            "A card found face up in the deck, or dealt off the table, is not used: it goes to "
            "the discards.",
            cite("15(i)", "15(m)"),
        ),
        Para(
            "Protect your hand (keep your cards in view, a hand or chip on them): if you do not, "
            "and your hand is fouled or the dealer collects it by accident, you have no redress."
            + (" In stud your hole cards always count as protected." if stud else ""),
            cite("15(j)", "15(j)1") if stud else cite("15(j)"),
        ),
        Para(
            "If a protected hand touches the discards, the dealer reconstructs it if possible "
            "and the hand goes on. If your protected hand is collected or fouled by no fault of "
            "yours, you get back from the pot everything you put in it.",
            cite("15(j)2", "15(j)3"),
        ),
        Para(
            "If you leave the table without a word with your hand unprotected, you are taken to "
            "have no interest in the pot; your cards are collected and discarded.",
            cite("15(j)4"),
        ),
        Para(
            "What you say clearly to the dealer on your turn binds you, and counts before any "
            "gesture. When facing a bet, throwing your cards face down toward the discards or "
            "the pot"
            + (", or turning your up cards face down," if stud else "")
            + " is a fold. Throwing your cards away does not excuse a wager you must make (a "
            "blind, or one you have announced).",
            cite("15(k)", "15(k)1", "15(k)2"),
        ),
    ]
    if stud:
        items.append(
            Para(
                "If one of your first two (hole) cards is turned face up in the deal, your third "
                "card comes face down. If both are, they are collected, your hand is dead and "
                "your ante is returned.",
                cite("15(l)"),
            )
        )
    else:
        items.append(
            Para(
                "If one of your face-down cards is turned face up in the deal, the dealer "
                "replaces it with the top card of the deck and discards the exposed card.",
                cite("15(n)"),
            )
        )
    items += [
        Para(
            "If the shuffling machine jams, stops or does not finish a shuffle, the cards are "
            "reshuffled. A shuffling machine is taken off the table before the cards are "
            "shuffled any other way.",
            cite("15(o)", "15(p)"),
        ),
        Para(
            "The house's approved internal controls may clarify and add to these rules.",
            cite("15(q)"),
        ),
    ]
    return Items(tuple(items))


def _conduct() -> tuple[Para, ...]:
    """14.16 and 14.18 in the players' words."""
    return (
        Para(
            "Play only to improve your own chance of winning: no action to help another player, "
            "and no passing of information to another player about a hand (collusion).",
            cite("16(a)"),
        ),
        Para(
            "A player the house has reasonable cause to believe has broken this rule must leave "
            "the game, and the house notifies the Commission and the Division.",
            cite("16(b)", "16(c)"),
        ),
        Para(
            "Waiting list: you may put your name down for a game and limit (on as many lists as "
            "you like). Seats are filled first come, first served; when a seat is yours you are "
            "called and have a set time to arrive. Only vacancies someone is waiting for are "
            "announced.",
            cite("18"),
        ),
    )


def render(config: PokerConfig, fmt: str = "md") -> str:
    """The guide to ``config``'s poker table in ``fmt`` (``md`` or ``html``)."""
    if fmt not in FORMATS:
        raise FeltError(f"unknown guide format {fmt!r} (allowed: {', '.join(FORMATS)})")
    c = config
    name = game_name(c)
    opening = (
        Para(
            f"This is the guide to {name} at this table, dealt under {TEXT} (Poker). The "
            "players play against each other: the house takes no part in the play, and its "
            "charge is the rake below. Every limit and amount here is this table's own."
        ),
        Para(
            "felt's copy of that text gives the general operating rules and irregularities of "
            "14.15(e)-(q), the conduct of players (14.16), minimum and maximum wagers (14.17) "
            "and the waiting list (14.18), and only the titles of 14.1 to 14.14 (among them the "
            "rankings, wagers, the games and poker revenue): what is said of those follows the "
            "card rooms' published rules and cites the section whose title it falls under, "
            'marked "title only".'
        ),
    )
    rounds = ", ".join(ROUNDS[c.variant])
    sections = (
        Section("The table", (Items(_table(c)),)),
        Section("Forced bets", _forced(c)),
        Section("The deal", (_deal(c),)),
        Section(
            "Betting",
            (
                Para(
                    f"The betting rounds are {rounds}. On your turn you may fold, check (when "
                    "there is nothing to call), call, bet or raise, or go all in.",
                    cite("7"),
                ),
                _betting_table(c),
            ),
        ),
        Section("The showdown", _showdown(c)),
        Section("The rake", _rake(c)),
        Section("Irregularities", (_irregularities(c),)),
        Section("Conduct and the waiting list", _conduct()),
    )
    guide = Guide(f"{name}: the patron's guide", opening, sections)
    return render_markdown(guide) if fmt == "md" else render_html(guide)
