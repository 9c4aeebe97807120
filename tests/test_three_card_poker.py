"""Three Card Poker (N.J.A.C. 19:47-20; the seed has the titles of 20.1-20.12 only): the rules
data, the table configuration, the round and the views.  What each section says is taken from
the public descriptions named in docs/interpretations.md ("Three Card Poker")."""

from __future__ import annotations

from typing import Any

import pytest

from felt.core.cards import ALL_CARDS, Card, parse_cards
from felt.core.errors import FeltError
from felt.games.three_card_poker.actions import (
    CutCards,
    DealerCardExposed,
    Fold,
    Play,
    Wagers,
    parse_action,
)
from felt.games.three_card_poker.config import ThreeCardConfig, load_three_card_table, rules
from felt.games.three_card_poker.hand import describe, hand_key, hand_name, qualifies
from felt.games.three_card_poker.round import Phase, ThreeCardRound
from felt.games.three_card_poker.strategy import should_play, suggest
from felt.games.three_card_poker.table import ThreeCardTable
from felt.games.three_card_poker.view import spot_view
from felt.rounds.actions import (
    Deal,
    DecisionTimeout,
    DrawnInError,
    FaceUpCard,
    Misdeal,
    NoMoreBets,
    Reveal,
    Settle,
    ShufflerJam,
)
from felt.rounds.shuffle import FixedOrder, SeededShuffle


def deck(*hands: str) -> tuple[Card, ...]:
    """The given cards on top in dealing order, every other card after them."""
    given = [c for h in hands for c in parse_cards(h)]
    return (*given, *(c for c in ALL_CARDS if c not in given))


def config(**settings: Any) -> ThreeCardConfig:
    """A minimum table whose shuffler loads the shoe, so scripts' decks are dealt as given."""
    return ThreeCardConfig.from_mapping({"shuffling": "shuffler-to-shoe", **settings})


def dealt(
    hands: dict[int, str], dealer: str, wagers: dict[int, tuple[int, int]], **settings: Any
) -> ThreeCardRound:
    """A round dealt with ``hands`` (position -> cards) and the dealer's, wagers as given."""
    rnd = ThreeCardRound(config(**settings), deck(*(hands[n] for n in sorted(hands)), dealer))
    for n, (ante, pair_plus) in wagers.items():
        rnd.apply(Wagers(n, ante, pair_plus))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    return rnd


def results(rnd: ThreeCardRound, seat: int) -> dict[str, tuple[str, int]]:
    """Each wager of ``seat``: (outcome, the player's result in cents)."""
    return {line.wager: (line.outcome, line.amount) for line in rnd.lines if line.seat == seat}


# ----------------------------------------------------------------------------- rules data (20.11)


def test_20_11_minimum_pay_tables_are_the_published_ones() -> None:
    """Ante bonus straight 1, three of a kind 4, straight flush 5 to 1; pair plus pair 1, flush 4,
    straight 6, three of a kind 30, straight flush 40 to 1 (the public descriptions, not the seed)."""
    r = rules()
    assert {h: str(p) for h, p in r.ante_bonus.lines} == {
        "straight flush": "5 to 1", "three of a kind": "4 to 1", "straight": "1 to 1",
    }  # fmt: skip
    assert {h: str(p) for h, p in r.pair_plus.lines} == {
        "straight flush": "40 to 1", "three of a kind": "30 to 1", "straight": "6 to 1",
        "flush": "4 to 1", "pair": "1 to 1",
    }  # fmt: skip
    assert r.cite("11") == "N.J.A.C. 19:47-20.11"


def test_20_11_a_table_may_pay_more_never_less() -> None:
    more = ThreeCardConfig.from_mapping(
        {"ante_bonus": {"straight flush": "6 to 1"}, "pair_plus_table": {"flush": "5 to 1"}}
    )
    assert str(more.ante_bonus.get("straight flush")) == "6 to 1"
    assert str(more.ante_bonus.get("straight")) == "1 to 1"
    assert str(more.pair_plus_table.get("flush")) == "5 to 1"
    with pytest.raises(FeltError, match=r"'flush' pays 3 to 1, less than the minimum 4 to 1"):
        ThreeCardConfig.from_mapping({"pair_plus_table": {"flush": "3 to 1"}})
    with pytest.raises(FeltError, match=r"'three of a kind' pays 3 to 1, less than"):
        ThreeCardConfig.from_mapping({"ante_bonus": {"three of a kind": "3 to 1"}})
    with pytest.raises(FeltError, match=r"'two pair' is not a Three Card Poker hand"):
        ThreeCardConfig.from_mapping({"pair_plus_table": {"two pair": "9 to 1"}})
    with pytest.raises(FeltError, match=r"lines are odds"):
        ThreeCardConfig.from_mapping({"ante_bonus": {"straight flush": "$5000"}})


def test_table_settings_are_checked_with_one_clear_error() -> None:
    c = ThreeCardConfig.from_mapping({})
    assert (c.minimum, c.maximum, c.pair_plus_minimum, c.pair_plus_maximum) == (
        500,
        50000,
        500,
        50000,
    )
    assert c.seats == 6
    assert c.cut_required
    assert c.decision_seconds == 60
    assert ThreeCardConfig.from_mapping(c.to_mapping()) == c
    bad: list[tuple[dict[str, Any], str]] = [
        ({"minimum": "10", "maximum": "5"}, "need 0 < minimum <= maximum"),
        ({"pair_plus_minimum": "0"}, "need 0 < pair_plus_minimum"),
        ({"seats": 8}, "seats .betting positions. must be 1 to 7"),
        ({"pair_plus": "yes"}, "pair_plus must be true or false"),
        ({"dealing": "robot"}, "dealing must be one of manual-shoe, hand, automated-shoe"),
        ({"shuffling": "shuffler-to-shoe", "dealing": "hand"}, "needs a dealing shoe"),
        ({"colour": "green"}, "unknown key 'colour'"),
        ({"game": "boston5"}, "game must be 'three-card-poker'"),
        ({"decision_seconds": 0}, "decision_seconds must be a whole number"),
    ]
    for settings, message in bad:
        with pytest.raises(FeltError, match=message):
            ThreeCardConfig.from_mapping(settings)


def test_table_file_is_read_and_checked(tmp_path: Any) -> None:
    path = tmp_path / "tcp.toml"
    path.write_text(
        'game = "three-card-poker"\nminimum = "10"\n[pair_plus_table]\npair = "2 to 1"\n'
    )
    c = load_three_card_table(path)
    assert c.minimum == 1000
    assert str(c.pair_plus_table.get("pair")) == "2 to 1"


# ----------------------------------------------------------------------------- rankings (20.3)


def test_20_3_ranking_straight_flush_trips_straight_flush_pair_high() -> None:
    """The later New Jersey text's order; A-K-Q the highest straight, 3-2-A the lowest, K-A-2 none."""
    order = ["As Ks Qs", "2c 3c 4c", "2d 2h 2s", "Ac Kd Qh", "Ac 2d 3h", "Kc 8c 3c",
             "Ac Ad 2h", "2c 2d 3h", "Ac Kd Jh", "Kc Ad 2h", "5c 3d 2h"]  # fmt: skip
    keys = [hand_key(parse_cards(h)) for h in order]
    assert keys == sorted(keys, reverse=True)
    names = [hand_name(parse_cards(h)) for h in order]
    assert names == ["straight flush"] * 2 + ["three of a kind", "straight", "straight", "flush",
                     "pair", "pair", "high card", "high card", "high card"]  # fmt: skip
    assert describe(parse_cards("Ac 2d 3h")) == "straight, three high"
    assert hand_key(parse_cards("Qs 6h 4d")) == hand_key(parse_cards("Qd 6c 4s"))  # suits are equal


def test_20_10_dealer_qualifies_with_queen_high_or_better() -> None:
    assert qualifies(parse_cards("Qs 3h 2d"))
    assert qualifies(parse_cards("Kc Ad 2h"))  # ace high, not a straight
    assert qualifies(parse_cards("2c 2d 3h"))
    assert qualifies(parse_cards("4c 3d 2h"))  # a straight
    assert not qualifies(parse_cards("Jc 3d 2h"))
    assert not qualifies(parse_cards("Js Th 8d"))


# ----------------------------------------------------------------------------- the round (20.6-20.10)


def test_20_10_dealer_not_qualifying_pays_the_ante_and_returns_the_play_wager() -> None:
    rnd = dealt({1: "2c 7d 9h"}, "Js Th 8d", {1: (500, 0)})
    rnd.apply(Play(1))
    rnd.run_dealer()
    assert results(rnd, 1) == {"ante": ("win", 500), "play": ("push", 0)}
    assert rnd.finished
    assert rnd.net(1) == 500
    assert "not qualifying" in rnd.lines[0].hand


@pytest.mark.parametrize(
    ("player", "outcome", "net"),
    [("Qc 4h 3h", "win", 500), ("Qh 3c 2s", "push", 0), ("Jc Th 8h", "lose", -500)],
)
def test_20_10_qualified_dealer_higher_hand_wins_both_tie_pushes_both(
    player: str, outcome: str, net: int
) -> None:
    """Against the dealer's Q-3-2 (the lowest qualifying hand): Q-4-3 wins, Q-3-2 of other suits
    ties (suits are equal), J-T-8 loses, the ante and the play wager alike."""
    rnd = dealt({1: player}, "Qs 3d 2c", {1: (500, 0)})
    rnd.apply(Play(1))
    rnd.run_dealer()
    assert results(rnd, 1) == {"ante": (outcome, net), "play": (outcome, net)}


def test_20_11_ante_bonus_paid_whatever_the_dealer_holds() -> None:
    """A straight loses to the dealer's three of a kind and is still paid 1 to 1 on the ante; a
    straight flush against a dealer who does not qualify wins the ante, pushes the play wager and
    is paid 5 to 1 on the ante."""
    rnd = dealt({1: "5c 6d 7h", 2: "9s Ts Js"}, "4c 4d 4h", {1: (500, 0), 2: (1000, 0)})
    rnd.apply(Play(1))
    rnd.apply(Play(2))
    rnd.run_dealer()
    assert results(rnd, 1) == {"ante": ("lose", -500), "play": ("lose", -500),
                               "ante bonus": ("paid", 500)}  # fmt: skip
    assert results(rnd, 2) == {"ante": ("win", 1000), "play": ("win", 1000),
                               "ante bonus": ("paid", 5000)}  # fmt: skip
    other = dealt({1: "9s Ts Js"}, "2c 5d 9h", {1: (1000, 0)})
    other.apply(Play(1))
    other.run_dealer()
    assert results(other, 1) == {"ante": ("win", 1000), "play": ("push", 0),
                                 "ante bonus": ("paid", 5000)}  # fmt: skip


def test_20_10_fold_forfeits_ante_and_pair_plus_and_no_bonus_is_paid() -> None:
    """A player who places no play wager forfeits the ante and the pair plus wager with it; the
    ante bonus is paid only to a player who played (docs/interpretations.md)."""
    rnd = dealt({1: "5c 6d 7h"}, "2c 5d 9h", {1: (500, 500)})
    rnd.apply(Fold(1))
    assert results(rnd, 1) == {"ante": ("forfeit", -500), "pair plus": ("forfeit", -500)}
    rnd.run_dealer()
    assert results(rnd, 1) == {"ante": ("forfeit", -500), "pair plus": ("forfeit", -500)}
    assert rnd.seats[1].status == "folded"


def test_20_6_pair_plus_alone_is_settled_on_the_players_cards_with_no_decision() -> None:
    rnd = dealt({1: "Ac Ad 7h", 2: "Kc Qd 7c"}, "As Ks Qs", {1: (0, 500), 2: (0, 500)})
    assert rnd.pending() == []
    rnd.run_dealer()
    assert results(rnd, 1) == {"pair plus": ("win", 500)}
    assert results(rnd, 2) == {"pair plus": ("lose", -500)}


@pytest.mark.parametrize(
    ("hand", "odds"),
    [("9s Ts Js", 40), ("7c 7d 7h", 30), ("Ac 2d 3h", 6), ("Kc 8c 3c", 4), ("Ac Ad 7h", 1)],
)
def test_20_11_pair_plus_pays_by_its_table(hand: str, odds: int) -> None:
    rnd = dealt({1: hand}, "2c 5d 9h", {1: (500, 1000)})
    rnd.apply(Play(1))
    rnd.run_dealer()
    assert results(rnd, 1)["pair plus"] == ("win", odds * 1000)


def test_20_6_wagers_are_checked() -> None:
    rnd = ThreeCardRound(config(), deck())
    refused = [
        (Wagers(1), "place an ante, a pair plus wager, or both"),
        (Wagers(1, 400), "ante 4.00 is outside the table limits 5.00 to 500.00"),
        (Wagers(1, 500, 60000), "pair plus wager 600.00 is outside the table limits"),
        (Wagers(7, 500), "seat 7 does not exist"),
    ]
    for action, message in refused:
        with pytest.raises(FeltError, match=message):
            rnd.apply(action)
    rnd.apply(Wagers(1, 500, player="ann"))
    with pytest.raises(FeltError, match="already has its wagers"):
        rnd.apply(Wagers(1, 500))
    with pytest.raises(FeltError, match="one position per player"):
        rnd.apply(Wagers(2, 500, player="ann"))
    no_pp = ThreeCardRound(config(pair_plus=False), deck())
    with pytest.raises(FeltError, match="does not offer the pair plus wager"):
        no_pp.apply(Wagers(1, 500, 500))
    two = ThreeCardRound(config(two_positions=True), deck())
    two.apply(Wagers(3, 500, player="bo"))
    with pytest.raises(FeltError, match="two adjacent positions"):
        two.apply(Wagers(5, 500, player="bo"))
    two.apply(Wagers(4, 500, player="bo"))
    rnd.apply(NoMoreBets())
    with pytest.raises(FeltError, match='no wager after "No more bets"'):
        rnd.apply(Wagers(2, 500))


def test_20_10_play_and_fold_once_each_and_the_dealer_waits() -> None:
    rnd = dealt({1: "Ac Kd 2h", 2: "3c 5d 9h"}, "2c 5s 9s", {1: (500, 0), 2: (500, 0)})
    assert rnd.pending() == [(1, "play or fold"), (2, "play or fold")]
    assert rnd.next_dealer_action() is None
    with pytest.raises(FeltError, match="while a player's election is pending"):
        rnd.apply(Reveal())
    rnd.apply(Play(2))
    with pytest.raises(FeltError, match="has already played"):
        rnd.apply(Fold(2))
    rnd.apply(DecisionTimeout(1))  # the deemed choice: fold
    assert results(rnd, 1) == {"ante": ("forfeit", -500)}
    assert isinstance(rnd.next_dealer_action(), Reveal)
    with pytest.raises(FeltError, match="settled once the dealer's hand is revealed"):
        rnd.apply(Settle())
    rnd.run_dealer()
    assert rnd.phase is Phase.COMPLETE


def test_20_5_the_dealer_cuts_at_least_10_cards_from_either_end() -> None:
    cfg = ThreeCardConfig.from_mapping({})
    order = deck("2c 3c 4c")
    rnd = ThreeCardRound(cfg, order)
    rnd.apply(Wagers(1, 500))
    assert isinstance(rnd.next_dealer_action(), CutCards)
    with pytest.raises(FeltError, match="cut before"):
        rnd.apply(NoMoreBets())
    for bad in (9, 43):
        with pytest.raises(FeltError, match="at least 10 cards from either end"):
            rnd.apply(CutCards(bad))
    rnd.apply(CutCards(42))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    assert rnd.seats[1].cards == list(order[42:45])
    no_cut = ThreeCardRound(config(), order)
    no_cut.apply(Wagers(1, 500))
    with pytest.raises(FeltError, match="no cut"):
        no_cut.apply(CutCards(20))


# ----------------------------------------------------------------------------- irregularities (20.12)


def test_20_12_dealer_card_exposed_before_every_player_decided_voids_every_hand() -> None:
    """As 19:47-17.11(a): every hand void and every wager in action returned; a fold made before
    stands (docs/interpretations.md, "What survives a void")."""
    rnd = dealt({1: "2c 5d 9h", 2: "Ac Kd 2h"}, "Qs 3d 2d", {1: (500, 500), 2: (1000, 0)})
    rnd.apply(Fold(1))
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.VOID
    assert results(rnd, 1) == {"ante": ("forfeit", -500), "pair plus": ("forfeit", -500)}
    assert results(rnd, 2) == {"ante": ("void", 0)}
    assert sorted(rnd.rack.cards()) == list(range(52))


def test_20_12_dealer_card_exposed_after_every_player_decided_has_no_effect() -> None:
    rnd = dealt({1: "2c 5d 9h"}, "Qs 3d 2d", {1: (500, 0)})
    rnd.apply(Play(1))
    rnd.apply(DealerCardExposed())
    assert rnd.phase is Phase.DECISIONS
    rnd.run_dealer()
    assert results(rnd, 1)["ante"] == ("lose", -500)
    with pytest.raises(FeltError, match="between the deal and the reveal"):
        ThreeCardRound(config(), deck()).apply(DealerCardExposed())


def test_20_12_wrong_number_of_cards_voids_every_hand() -> None:
    """As 19:47-17.11(d): "If any player or the dealer is dealt an incorrect number of cards, all
    hands shall be void and the cards reshuffled"."""
    rnd = ThreeCardRound(config(), deck())
    rnd.apply(Wagers(1, 500, 500))
    rnd.apply(Wagers(2, 500))
    with pytest.raises(FeltError, match="three is the right number"):
        rnd.apply(Misdeal(3, seat=2))
    rnd.apply(Misdeal(4, seat=2))
    rnd.apply(NoMoreBets())
    rnd.apply(Deal())
    assert rnd.phase is Phase.VOID
    assert "seat 2 was dealt 4 cards" in rnd.void_reason
    assert results(rnd, 1) == {"ante": ("void", 0), "pair plus": ("void", 0)}
    assert sorted(rnd.rack.cards()) == list(range(52))
    dealer = ThreeCardRound(config(), deck())
    dealer.apply(Wagers(1, 500))
    dealer.apply(Misdeal(2))
    dealer.run_dealer()
    assert "the dealer was dealt 2 cards" in dealer.void_reason


def test_20_12_card_found_face_up_is_burned_and_a_second_voids() -> None:
    """As 19:47-17.11(b)."""
    rnd = ThreeCardRound(config(), deck("Ac Kd 2h", "3c 5d 9h"))
    rnd.apply(Wagers(1, 500))
    rnd.apply(FaceUpCard(1))
    rnd.run_dealer()
    assert rnd.seats[1].cards == list(parse_cards("Kd 2h 3c"))
    two = ThreeCardRound(config(), deck())
    two.apply(Wagers(1, 500))
    two.apply(FaceUpCard(2))
    two.apply(FaceUpCard(5))
    two.run_dealer()
    assert two.phase is Phase.VOID
    assert "more than one card found face up" in two.void_reason


def test_20_12_shuffler_jam_reshuffles_and_card_drawn_in_error_is_the_next() -> None:
    """As 19:47-17.11(e) and (c)."""
    new = deck("9s Ts Js", "2c 5d 9h")
    rnd = ThreeCardRound(ThreeCardConfig.from_mapping({}), deck())
    rnd.apply(ShufflerJam(new))
    rnd.apply(Wagers(1, 500))
    rnd.apply(CutCards(10))
    rnd.apply(DrawnInError())
    rnd.run_dealer()
    assert rnd.deck == new
    manual = ThreeCardRound(ThreeCardConfig.from_mapping({"shuffling": "manual"}), deck())
    with pytest.raises(FeltError, match="no shuffler to jam"):
        manual.apply(ShufflerJam())


# ----------------------------------------------------------------------------- views


def test_views_show_a_position_its_own_cards_and_others_only_once_turned_over() -> None:
    rnd = dealt({1: "Ac Kd 2h", 2: "3c 5d 9h", 3: "Qs Qd 4c"}, "Js Th 8d",
                {1: (500, 0), 2: (500, 0), 3: (0, 500)})  # fmt: skip
    v1 = spot_view(rnd, 1)
    assert v1.own_cards == parse_cards("Ac Kd 2h")
    assert all(o.cards == () and o.card_count == 3 for o in v1.others)
    assert v1.dealer_cards == ()
    assert v1.dealer_card_count == 3
    public = spot_view(rnd, 0)
    assert public.own_cards == ()
    assert all(o.cards == () for o in public.others)
    rnd.apply(Play(1))
    rnd.apply(Fold(2))
    rnd.run_dealer()
    v1 = spot_view(rnd, 1)
    shown = {o.number: o.cards for o in v1.others}
    assert shown == {2: (), 3: parse_cards("Qs Qd 4c")}  # the folded hand is never turned over
    assert v1.dealer_cards == parse_cards("Js Th 8d")
    assert {line.seat for line in v1.lines} == {1}


# ----------------------------------------------------------------------------- scripts, table, play


def test_actions_read_from_json_with_one_clear_error_each() -> None:
    for action in (Wagers(2, 500, 1000, "ann"), Wagers(1, 0, 500), Play(3), Fold(1), CutCards(12),
                   DealerCardExposed(), Misdeal(2, seat=1), FaceUpCard(4), ShufflerJam(deck())):  # fmt: skip
        assert parse_action(action.to_json(), "x") == action
    bad: list[tuple[object, str]] = [
        (
            {"seat": 1, "action": "second"},
            "unknown action .second. .allowed: wager, play, fold",
        ),
        ({"seat": 1, "action": "wager", "ante": "5.001"}, "whole cents"),
        ({"seat": 1, "action": "wager", "first": "5"}, "takes no 'first'"),
        ({"action": "play"}, "needs 'seat'"),
        ({"dealer": "cut", "position": -1}, "whole number from 0"),
        ({"dealer": "reveal", "action": "play"}, "give exactly one of"),
        ("play", "must be an object"),
    ]
    for entry, message in bad:
        with pytest.raises(FeltError, match=message):
            parse_action(entry, "x")


def test_table_across_rounds_with_the_suggested_play_replays_exactly() -> None:
    table = ThreeCardTable(
        ThreeCardConfig.from_mapping({}), SeededShuffle(7), cut_position=lambda: 23
    )
    for _ in range(20):
        rnd = table.new_round()
        with pytest.raises(FeltError, match="not finished"):
            table.new_round()
        rnd.apply(Wagers(1, 500, 500))
        rnd.apply(Wagers(4, 2500))
        while not rnd.finished:
            pending = rnd.pending()
            if pending:
                rnd.apply(suggest(rnd, pending[0][0]))
            else:
                step = rnd.next_dealer_action()
                assert step is not None
                rnd.apply(CutCards(table.cut_position()) if isinstance(step, CutCards) else step)
        for seat in rnd.seats.values():
            if seat.decision is not None:
                assert (seat.decision == "play") == should_play(seat.cards)
        assert rnd.replay_from_start().events == rnd.events
        assert rnd.house_net() == -(rnd.net(1) + rnd.net(4))
        table.finish(rnd)
    assert table.rounds_played == 20


def test_a_shuffler_is_removed_before_shuffling_another_way() -> None:
    table = ThreeCardTable(ThreeCardConfig.from_mapping({}), FixedOrder(deck()))
    with pytest.raises(FeltError, match="must be removed"):
        table.change_shuffling("manual")
    table.remove_shuffler()
    table.change_shuffling("manual")
    assert table.config.shuffling == "manual"
    with pytest.raises(FeltError, match="no shuffler to remove"):
        table.remove_shuffler()
