"""Keno rate cards and tickets by N.J.A.C. 19:47-15.2, 15.3 and 15.7(a), one test per clause:
every bad value refused with the clause it breaks."""

from __future__ import annotations

import json
from datetime import datetime
from fractions import Fraction
from typing import Any

import pytest

from felt.cli.main import main
from felt.core.errors import FeltError
from felt.games.keno.analysis import analyze_card
from felt.games.keno.ratecard import Validity, example_rate_card, example_rate_card_path
from felt.games.keno.tickets import choose, quick_pick, read_request
from felt.rounds.shuffle import SeededShuffle
from tests.keno_helpers import card, card_data, ticket

EXAMPLE = example_rate_card()


def refused(request: dict[str, Any], match: str) -> None:
    with pytest.raises(FeltError, match=match) as err:
        ticket(request)
    assert str(err.value).startswith("keno request returned to the player (N.J.A.C. 19:47-15.7(a))")


# ----------------------------------------------------------------------------- 15.2


def test_15_2_a_eighty_consecutive_numbers_from_one() -> None:
    assert ticket({"numbers": [1, 80]}).numbers == (1, 80)
    for bad in (0, 81, -3, True, "7"):
        refused(
            {"numbers": [1, bad]}, r"is not a keno number: 1 to 80 \(N.J.A.C. 19:47-15.2\(a\)\)"
        )


def test_15_2_b_maximum_spots_set_in_the_rate_card() -> None:
    assert EXAMPLE.max_spots == 15
    refused(
        {"numbers": list(range(1, 17))},
        r"16 spots is not offered .* at most 15\) \(N.J.A.C. 19:47-15.2\(b\)\)",
    )
    refused({"numbers": list(range(1, 12))}, r"11 spots is not offered")
    with pytest.raises(
        FeltError,
        match=r"max_spots must be the largest number of spots with a pay table, 15 \(N.J.A.C. 19:47-15.2\(b\)\)",
    ):
        card(max_spots=20)


def test_15_2_c_ticket_types_offered_by_the_rate_card() -> None:
    straight_only = card(ticket_types=["straight"], max_games=1)
    with pytest.raises(FeltError, match=r"does not offer way tickets .*15.2\(c\)"):
        read_request(
            {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/4"], "rate": "1"},
            straight_only,
        )
    with pytest.raises(FeltError, match=r"ticket_types must list some of .*15.2\(c\)"):
        card(ticket_types=["straight", "parlay"])
    refused(
        {"kind": "lottery", "numbers": [1]},
        r"kind must be one of straight, split, way, combination, king",
    )


def test_15_2_c1_straight_ticket_without_groupings() -> None:
    t = ticket({"numbers": [5, 17, 44]})
    assert (t.kind, t.conditioning, t.ways, t.price) == ("straight", "3", 1, 100)
    assert t.marked() == "5 17 44"
    refused(
        {"kind": "straight", "groups": [[1, 2], [3]]},
        r"a straight ticket has its spots without any grouping",
    )
    refused(
        {"numbers": [1, 2, 3], "conditions": ["1/4"]},
        r"a straight ticket of 3 spots is conditioned 3",
    )


def test_15_2_c2_split_groups_separate_never_shared() -> None:
    t = ticket({"kind": "split", "groups": [[1, 2, 3], [4, 5, 6]], "conditions": ["2/3"]})
    assert (t.ways, t.price, t.conditioning) == (2, 200, "2/3")
    refused(
        {"kind": "split", "groups": [[1, 2, 3], [3, 5, 6]], "conditions": ["2/3"]},
        r"number 3 is marked twice.*\(N.J.A.C. 19:47-15.2\(c\)2\)",
    )
    refused(
        {"kind": "split", "groups": [[1, 2, 3], [4, 5, 6]], "conditions": ["1/6"]},
        r"a split ticket plays each group separately: its groups are conditioned 2/3",
    )


def test_15_2_c2i_equal_split_groups_one_rate() -> None:
    refused(
        {"kind": "split", "groups": [[1, 2], [3, 4]], "conditions": ["1/2@1", "1/2@2"]},
        r"wagered at the same rate for each group.*15.2\(c\)2i\)",
    )
    t = ticket({"kind": "split", "groups": [[1, 2], [3, 4]], "conditions": ["2/2@3.00"]})
    assert {c.rate for c in t.conditions} == {300}


def test_15_2_c2ii_unequal_split_groups_may_differ_in_rate() -> None:
    t = ticket(
        {"kind": "split", "groups": [[1, 2], [3, 4, 5, 6]], "conditions": ["1/2@1.00", "1/4@5.00"]}
    )
    assert t.price == 600
    assert t.rates == "1/2 at $1.00 per way, 1/4 at $5.00 per way"


def test_15_2_c3_way_ticket_equal_groups_same_rate() -> None:
    t = ticket(
        {
            "kind": "way",
            "groups": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]],
            "conditions": ["3/8"],
        }
    )
    assert (t.ways, t.price, t.conditioning) == (3, 300, "3/8")
    refused(
        {
            "kind": "way",
            "groups": [[1, 2, 3, 4], [5, 6, 7], [9, 10, 11, 12]],
            "conditions": ["3/8"],
        },
        r"the groups of a way ticket contain an equal number of spots, got 4, 3, 4 \(N.J.A.C. 19:47-15.2\(c\)3\)",
    )
    refused(
        {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/4@1", "1/6@2"]},
        r"each group played on a way ticket is wagered at the same rate",
    )
    refused(
        {"kind": "way", "groups": [[1, 2], [3, 4]], "conditions": ["1/4"]},
        r"this one plays one way",
    )
    refused(
        {"kind": "way", "groups": [[1, 2], [3, 4]], "conditions": ["1/3"]},
        r"a way ticket combines its 2 groups of 2: 1/3 is not 1 to 2 whole groups",
    )
    refused(
        {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["2/4"]},
        r"2/4 names 2 way\(s\), but the groups make 3 way\(s\) of 4 spots \(3/4\)",
    )


def test_15_2_c4_combination_ticket_player_chooses_how_groups_combine() -> None:
    groups = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    t = ticket({"kind": "combination", "groups": groups, "conditions": ["3/3", "3/6", "1/9"]})
    assert (t.ways, t.conditioning) == (7, "3/3 3/6 1/9")
    fewer = ticket({"kind": "combination", "groups": groups, "conditions": ["3/6@2", "1/9@1"]})
    assert (fewer.ways, fewer.price) == (4, 700)
    refused(
        {"kind": "combination", "groups": [[1, 2], [3, 4, 5], [6]], "conditions": ["1/2", "1/3"]},
        r"a single circled spot is a king",
    )
    refused(
        {
            "kind": "combination",
            "groups": [[1, 2], [3, 4, 5], [6, 7, 8, 9]],
            "conditions": ["1/2", "1/3"],
        },
        r"group 3 \(6 7 8 9\) is not played by any condition",
    )


def test_15_2_c5_king_ticket_kings_combine_with_groups() -> None:
    t = ticket(
        {"kind": "king", "groups": [[5], [1, 2, 3], [7, 8, 9]], "conditions": ["2/4", "1/7"]}
    )
    assert (t.ways, t.marked()) == (3, "[K 5] [1 2 3] [7 8 9]")
    kings = ticket(
        {"kind": "king", "groups": [[1], [2], [3], [4], [5], [6]], "conditions": ["6/5"]}
    )
    assert kings.ways == 6  # six kings played as a six-way five-spot
    refused(
        {"kind": "king", "groups": [[5], [1, 2, 3]], "conditions": ["1/1", "1/4"]},
        r"a king plays only combined with other groups, never alone",
    )
    refused(
        {"kind": "king", "groups": [[1, 2], [3, 4]], "conditions": ["1/4", "2/2"]},
        r"a king ticket has at least one king",
    )


def test_15_2_c6_multi_race_consecutive_games_same_rate() -> None:
    t = ticket({"numbers": [1, 2, 3, 4], "games": 5, "rate": "2.00"})
    assert (t.multi_race, t.price, t.price_per_game) == (True, 1000, 200)
    refused(
        {"numbers": [1, 2], "games": 21},
        r"games must be a whole number from 1 to 20, got 21 \(N.J.A.C. 19:47-15.2\(c\)6\)",
    )
    with pytest.raises(
        FeltError, match=r"multi-race tickets need max_games of 2 or more.*15.2\(c\)6"
    ):
        card(ticket_types=["straight"])
    single = card(ticket_types=["straight"], max_games=1)
    with pytest.raises(FeltError, match=r"multi-race .*15.2\(c\)6"):
        read_request({"numbers": [1, 2], "games": 2, "rate": "1"}, single)


# ----------------------------------------------------------------------------- 15.3


def test_15_3_d_minimum_and_maximum_wagers_in_the_rate_card() -> None:
    assert (EXAMPLE.minimum_wager, EXAMPLE.maximum_wager) == (100, 10000)
    for rate in ("0.50", "100.01", "101", "1.50"):
        refused(
            {"numbers": [1, 2], "rate": rate},
            r"is not a wager of the rate card: \$1.00 to \$100.00 in steps of \$1.00 \(N.J.A.C. 19:47-15.3\(d\)\)",
        )
    with pytest.raises(
        FeltError,
        match=r"minimum wager above zero and a maximum no less \(N.J.A.C. 19:47-15.3\(d\)\)",
    ):
        card(maximum_wager="0.50")


def test_15_3_e_payoffs_increase_in_proportion_to_the_wager_up_to_the_maximum() -> None:
    assert [EXAMPLE.payoff(8, 8, r) for r in (100, 200, 300, 400, 500)] == [
        2_500_000,
        5_000_000,
        7_500_000,
        10_000_000,
        10_000_000,
    ]
    assert EXAMPLE.payoff(6, 5, 700) == 7 * EXAMPLE.payoff(6, 5, 100)
    data = card_data(minimum_wager="1.00", wager_step="0.50")
    data["pays"]["1"]["1"] = "3.01"
    with pytest.raises(
        FeltError, match=r"pays.1.1: \$3.01 .* cannot increase in proportion .*15.3\(e\)"
    ):
        card(**data)


def test_15_3_e_aggregate_limit_at_least_100000_and_equal_to_the_individual_maximum() -> None:
    with pytest.raises(
        FeltError, match=r"not less than \$100000.00 per game \(N.J.A.C. 19:47-15.3\(e\)\)"
    ):
        card(max_payoff="50000", aggregate_limit="50000")
    with pytest.raises(
        FeltError, match=r"must equal the maximum payoff of an individual wager .*15.3\(e\)"
    ):
        card(max_payoff="100000", aggregate_limit="250000")
    only_one = card(max_payoff=None, aggregate_limit="250000")
    assert only_one.max_payoff == only_one.aggregate_limit == 25_000_000
    unlimited = card(max_payoff=None, aggregate_limit=None)
    assert unlimited.limit_statement().startswith("No maximum aggregate payoff")


def test_15_3_e_house_advantage_at_most_30_percent_for_the_minimum_wager() -> None:
    analysis = EXAMPLE.analysis
    assert analysis.complies
    worst = analysis.worst
    assert worst.label == "way 4/9 (groups 3+3+3+3)"
    assert str(worst.house_advantage) == "517573412687/1743981774535"
    data = card_data()
    data["pays"]["1"]["1"] = "2.50"  # a 1-spot paying 2.5 for 1: house advantage 37.5%
    with pytest.raises(
        FeltError,
        match=r"straight 1-spot ticket at the minimum wager \$1.00 is 37.5000% \(3/8\), above 30% \(N.J.A.C. 19:47-15.3\(e\)\)",
    ):
        card(pays=data["pays"])
    data["pays"]["1"]["1"] = "2.80"  # exactly 30%: allowed
    assert card(pays=data["pays"]).analysis.of("straight")[0].house_advantage == Fraction(3, 10)


def test_15_3_e_grouped_tickets_are_checked_jointly_with_the_limits() -> None:
    """Two 10-spots hitting together would pay $200,000, so the lone-winner cap of the aggregate
    makes the split ticket's house advantage slightly above its straight ticket's."""
    split10 = next(t for t in EXAMPLE.analysis.of("split") if t.spots == 10)
    straight10 = next(t for t in EXAMPLE.analysis.of("straight") if t.spots == 10)
    assert split10.house_advantage > straight10.house_advantage
    assert max(split10.payouts) == 10_000_000
    assert analyze_card(card(max_payoff=None, aggregate_limit=None)).worst.complies


# ----------------------------------------------------------------------------- 15.6(c) on the card


def test_15_6_c_validity_five_minutes_to_one_year() -> None:
    assert str(EXAMPLE.validity) == "1 year"
    start = datetime(2024, 2, 29, 21, 0)
    assert Validity(1, "year").expires(start) == datetime(2025, 2, 28, 21, 0)
    assert Validity(5, "minute").expires(start) == datetime(2024, 2, 29, 21, 5)
    with pytest.raises(
        FeltError,
        match=r"less than five minutes from the start of the game \(N.J.A.C. 19:47-15.6\(c\)\)",
    ):
        card(ticket_validity="4 minutes")
    with pytest.raises(FeltError, match=r"more than one year \(N.J.A.C. 19:47-15.6\(c\)\)"):
        card(ticket_validity="366 days")
    with pytest.raises(FeltError, match=r"ticket_validity must be a time"):
        card(ticket_validity="forever")
    assert str(card(ticket_validity="30 days").validity) == "30 days"


# ----------------------------------------------------------------------------- 15.7(a) and requests


@pytest.mark.parametrize(
    ("request_", "match"),
    [
        ({}, r"mark the numbers played"),
        ({"numbers": [1, 2], "groups": [[3]]}, r"mark the numbers played"),
        ({"numbers": []}, r"groups must be a list|group 1 must be a list"),
        ({"numbers": [1, 1]}, r"number 1 is marked twice"),
        ({"numbers": [1, 2], "rate": None}, r"must be an amount"),
        ({"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]]}, r"needs its conditioning"),
        (
            {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["three ways"]},
            r"is not a fraction ways/spots",
        ),
        (
            {"kind": "way", "groups": [[1, 2], [3, 4], [5, 6]], "conditions": ["3/5"]},
            r"5 spots|no set of the groups makes 5 spots|3/5 is not 1 to 3 whole groups",
        ),
        (
            {"numbers": [1, 2], "price": "2.00"},
            r"priced \$2.00, but the rate card prices 2 at \$1.00 per way for 1 game\(s\) at \$1.00 \(N.J.A.C. 19:47-15.4\(a\)\)",
        ),
        ({"numbers": [1, 2], "colour": "red"}, r"unknown key 'colour'"),
        ({"numbers": [1, 2], "quick_pick": 2}, r"quick_pick must be resolved"),
    ],
)
def test_15_7_a_unclear_requests_are_returned_with_the_reason(
    request_: dict[str, Any], match: str
) -> None:
    refused(request_, match)


def test_15_7_a_a_request_that_is_not_a_mapping_is_refused() -> None:
    with pytest.raises(FeltError, match=r"15.7\(a\)\): a keno request is a mapping"):
        read_request([1, 2, 3], EXAMPLE)


def test_15_1_quick_pick_is_a_straight_ticket_the_system_marks() -> None:
    request = quick_pick({"quick_pick": 8, "rate": "1.00"}, SeededShuffle(3))
    t = ticket(request)
    assert (t.kind, len(t.numbers), t.quick_pick) == ("straight", 8, True)
    assert request["numbers"] == sorted(choose(SeededShuffle(3), 8))
    with pytest.raises(FeltError, match=r"a quick-pick is a straight ticket"):
        quick_pick({"quick_pick": 4, "kind": "way"}, SeededShuffle(3))
    with pytest.raises(FeltError, match=r"a quick-pick request marks no numbers"):
        quick_pick({"quick_pick": 4, "numbers": [1]}, SeededShuffle(3))


def test_15_3_b_a_previous_ticket_is_the_request_for_the_next_game() -> None:
    t = ticket(
        {"kind": "king", "groups": [[5], [1, 2, 3], [7, 8, 9]], "conditions": ["2/4@2", "1/7@1"]}
    )
    again = read_request(t.to_request(), EXAMPLE)
    assert again == t


def test_choose_is_unbiased_over_a_small_pool() -> None:
    """Every 2 of 4 numbers equally often when the source runs through every value."""

    class Exhaustive:
        def __init__(self, values: list[int]) -> None:
            self.values = values

        def below(self, n: int) -> int:
            return self.values.pop(0) % n

    seen: dict[tuple[int, ...], int] = {}
    for a in range(4):
        for b in range(3):
            pick = tuple(sorted(choose(Exhaustive([a, b]), 2, pool=4)))
            seen[pick] = seen.get(pick, 0) + 1
    assert len(seen) == 6
    assert set(seen.values()) == {2}


# ----------------------------------------------------------------------------- CLI


def test_analyze_keno_prints_every_ticket_and_the_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyze", "keno", "--rate-card", str(example_rate_card_path()), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complies_15_3_e"] is True
    kinds = {t["kind"] for t in data["tickets"]}
    assert kinds == {"straight", "split", "way", "combination", "king", "multi-race"}
    assert data["max_house_advantage"]["exact"] == "517573412687/1743981774535"
    assert main(["analyze", "keno", "--format", "md"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Keno par sheet: felt example keno rate card")
    assert "| way 3/8 (groups 4+4+4) | $3.00 |" in md
    assert main(["analyze", "keno", "--format", "html"]) == 0
    assert capsys.readouterr().out.startswith("<!doctype html>")


def test_analyze_keno_refuses_a_bad_rate_card_in_one_line(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "card.toml"
    bad.write_text('minimum_wager = "1.00"\n[pays.1]\n1 = "2.00"\n')
    assert main(["analyze", "keno", "--rate-card", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "50.0000% (1/2), above 30% (N.J.A.C. 19:47-15.3(e))" in err
    assert main(["analyze", "boston5", "--rate-card", str(bad)]) == 2
    assert "--rate-card applies to keno only" in capsys.readouterr().err


def test_groups_never_share_a_number_on_any_grouped_ticket() -> None:
    """Interpretation: 15.2(c)2 forbids a number in two groups of a split ticket; felt holds every
    grouped ticket to it, since a way that counted a number twice would not be a straight ticket."""
    for kind, conditions in (("way", ["3/4"]), ("combination", ["3/2", "3/4"]), ("king", ["2/3"])):
        groups = [[1, 2], [2, 3], [4, 5]] if kind != "king" else [[9], [1, 2], [2, 3]]
        refused(
            {"kind": kind, "groups": groups, "conditions": conditions}, r"number 2 is marked twice"
        )


def test_maximum_spots_bound_each_way_not_the_numbers_marked() -> None:
    """Interpretation: 15.2(b)'s maximum is the spots of any one way (a straight ticket within the
    ticket); a grouped ticket may mark more numbers than that."""
    t = ticket({"kind": "combination", "groups": [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18]],
                "conditions": ["3/6", "3/12"]})  # fmt: skip
    assert len(t.numbers) == 18 > EXAMPLE.max_spots
    refused({"kind": "combination", "groups": [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [13, 14, 15, 16, 17, 18]],
             "conditions": ["3/6", "1/18"]}, r"18 spots is not offered")  # fmt: skip
