"""19:47-15.3(e) on every ticket the writer can issue, not only the rate card's standard forms:
"notwithstanding any maximum payoff amount, the house advantage shall not exceed 30 percent for
the minimum wager which is offered".  Checked against figures we did not compute (the outside
audit of issue 18) and against a brute force written here from first principles."""

from __future__ import annotations

import copy
import json
import pickle
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, product
from math import factorial, prod
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.games.keno import advantage
from felt.games.keno.advantage import (
    CHOSEN_WAYS,
    ISSUE_WORK,
    LIMIT,
    advantage_of,
    check_issue,
    many_way_forms,
    ticket_advantage,
)
from felt.games.keno.analysis import analyze_ticket
from felt.games.keno.grading import grade, sets_of
from felt.games.keno.ratecard import RateCard, example_rate_card
from felt.games.keno.system import Issue
from felt.games.keno.tickets import groups_of
from tests.keno_helpers import ticket
from tests.test_keno_system import ANN, Booth


def kings(n: int, ways: int, spots: int) -> dict[str, Any]:
    """A request for ``n`` kings played ``ways/spots``."""
    return {"kind": "king", "groups": groups_of([1] * n), "conditions": [f"{ways}/{spots}"]}


# The outside audit of N.J.A.C. 19:47-15 (issue 18) quotes these house advantages, at the $1
# minimum wager of felt's example rate card, to two decimals; they are not from felt's code.
AUDIT = [(14, 2002, 9, "43.15"), (13, 1287, 8, "42.48"), (9, 9, 8, "30.67")]


@pytest.mark.parametrize(("n", "ways", "spots", "quoted"), AUDIT)
def test_15_3_e_many_way_king_tickets_match_the_audits_figures(
    n: int, ways: int, spots: int, quoted: str
) -> None:
    a = advantage_of(example_rate_card(), ticket(kings(n, ways, spots)))
    assert a.capped
    assert a.exact
    assert f"{float(a.house_advantage) * 100:.2f}" == quoted
    assert not a.complies


def test_15_3_e_the_audits_scan_27_of_377_many_way_forms_above_30_percent() -> None:
    forms = many_way_forms(example_rate_card())
    assert len(forms) == 377
    assert sum(not f.advantage.complies for f in forms) == 27


def test_15_3_e_a_14_king_2002_9_ticket_at_1_dollar_is_not_issued() -> None:
    booth = Booth()
    request = {"rate": "1.00"} | kings(14, 2002, 9)
    booth.refused(
        Issue(booth.tick(0.1), 1, ANN, request),
        r"43\.1497% \(50419062275661/116846778893845\).*30%.*N\.J\.A\.C\. 19:47-15\.3\(e\)"
        r".*nothing was issued",
    )
    assert not booth.system.tickets


def test_15_3_e_each_audit_ticket_refused_at_issue_and_a_compliant_one_issued() -> None:
    card = example_rate_card()
    for n, ways, spots, _ in AUDIT:
        with pytest.raises(FeltError, match=r"15\.3\(e\)"):
            check_issue(card, ticket(kings(n, ways, spots)))
    # 8 kings 8/7: many ways, the limit can bind, and within 30%.
    a = check_issue(card, ticket(kings(8, 8, 7)))
    assert a.complies
    booth = Booth()
    assert booth.issue(kings(8, 8, 7)) == 1


def test_15_3_e_checked_at_the_minimum_wager_whatever_the_rate_written() -> None:
    # The clause bounds the minimum wager: the same form at $5 a way is refused the same way.
    with pytest.raises(FeltError, match=r"43\.1497%"):
        check_issue(example_rate_card(), ticket({"rate": "5.00"} | kings(14, 2002, 9)))


# ----------------------------------------------------------------------------- brute force

BIG = {
    "name": "a card whose small tickets reach the limit",
    "ticket_types": ["straight", "king", "combination"],
    "quick_pick": False,
    "minimum_wager": "1.00",
    "max_payoff": "100000.00",
    "aggregate_limit": "100000.00",
    "pays": {
        "1": {"1": "3.00"},
        "2": {"2": "40000.00"},
        "3": {"2": "1.00", "3": "70000.00"},
        "4": {"3": "10.00", "4": "100000.00"},
    },
}


def choose(n: int, k: int) -> int:
    """Binomial coefficient from factorials (not math.comb, which the code under test uses)."""
    return 0 if k < 0 or k > n else factorial(n) // (factorial(k) * factorial(n - k))


def brute_force(
    card: RateCard, sizes: list[int], spots: list[int], chosen: list[tuple[int, ...]] | None = None
) -> Fraction:
    """House advantage at the minimum wager: every catch of every group, every way listed (or
    the ``chosen`` ones), each way capped at the maximum payoff and the whole at the aggregate
    limit; draws counted by the multivariate hypergeometric over all comb(80, 20) draws."""
    marked = sum(sizes)
    ways = chosen or [
        pick
        for r in range(1, len(sizes) + 1)
        for pick in combinations(range(len(sizes)), r)
        if sum(sizes[i] for i in pick) in spots
    ]
    cap = card.aggregate_limit
    assert cap is not None
    paid = 0
    draws = 0
    for catch in product(*(range(g + 1) for g in sizes)):
        k = sum(catch)
        n = prod(choose(g, c) for g, c in zip(sizes, catch, strict=True))
        n *= choose(80 - marked, 20 - k)
        total = 0
        for pick in ways:
            s = sum(sizes[i] for i in pick)
            t = sum(catch[i] for i in pick)
            total += min(card.pays[s].get(t, 0), cap)
        paid += n * min(total, cap)
        draws += n
    assert draws == choose(80, 20)
    price = len(ways) * card.minimum_wager
    return 1 - Fraction(paid, draws * price)


@pytest.mark.parametrize(
    ("sizes", "spots"),
    [([1, 1, 1, 2], [2, 3]), ([1, 1, 1, 1, 1], [2, 4]), ([1, 2, 2, 1], [3, 4]),
     ([2, 2, 2], [2, 4]), ([1, 1, 3], [2, 4])],
)  # fmt: skip
def test_15_3_e_fast_path_equals_brute_force_on_reduced_king_tickets(
    sizes: list[int], spots: list[int]
) -> None:
    card = RateCard.from_mapping(BIG)
    a = ticket_advantage(card, sizes, spots, False)
    assert a.capped
    expected = brute_force(card, sizes, spots)
    assert a.house_advantage == expected
    bounded = ticket_advantage(card, sizes, spots, False, exact=False)
    assert bounded.low <= expected <= bounded.high


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kings_=st.integers(1, 4),
    others=st.lists(st.integers(2, 5), min_size=1, max_size=4),
    data=st.data(),
)
def test_15_3_e_fast_path_equals_full_enumeration(
    kings_: int, others: list[int], data: st.DataObject
) -> None:
    """Property: the search (only draws above the limit) equals the full enumeration of every
    catch pattern (felt.games.keno.exact.distribution) on the example card, and the issue-time
    bounds contain it."""
    card = example_rate_card()
    sizes = [1] * kings_ + sorted(others)
    request_groups = groups_of(sizes)
    from felt.games.keno.exact import way_count

    possible = [s for s in card.pays if s >= 2 and way_count(sizes, s)]
    if not possible:
        return
    chosen = data.draw(st.lists(st.sampled_from(possible), min_size=1, max_size=3, unique=True))
    conditions = [f"{way_count(sizes, s)}/{s}" for s in sorted(chosen)]
    try:
        t = ticket({"kind": "king", "groups": request_groups, "conditions": conditions})
    except FeltError:
        return  # a form the writer refuses anyway (e.g. a group played by no condition)
    exact = analyze_ticket(card, t).house_advantage
    assert advantage_of(card, t).house_advantage == exact
    bounded = advantage_of(card, t, exact=False)
    assert bounded.low <= exact <= bounded.high
    if bounded.complies:
        assert exact <= LIMIT
    if bounded.exact:
        assert bounded.complies == (exact <= LIMIT)


# ----------------------------------------------------------------------------- felt analyze keno


def test_15_3_e_analyze_keno_reports_the_worst_many_way_tickets(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from felt.cli.main import main

    assert main(["analyze", "keno", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    beyond = data["many_way"]
    assert beyond["forms"] == 377
    assert beyond["above_30_percent"] == 27
    assert beyond["worst"] == "king 2002/9 (14 kings)"
    assert beyond["refused_at_issue"][0]["house_advantage_exact"] == (
        "50419062275661/116846778893845"
    )
    assert main(["analyze", "keno"]) == 0
    text = capsys.readouterr().out
    assert "Many-way tickets beyond the standard forms" in text
    assert "king 2002/9 (14 kings)" in text


def test_15_3_e_analyze_keno_ticket_analyses_one_ticket(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from felt.cli.main import main

    spec = "king: " + "/".join(str(n) for n in range(1, 15)) + ": 2002/9"
    assert main(["analyze", "keno", "--ticket", spec, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["house_advantage_exact"] == "50419062275661/116846778893845"
    assert data["complies_15_3_e"] is False
    assert data["at_issue"] == "refused at issue"
    assert main(["analyze", "keno", "--ticket", "way: 1 2 3 4 / 5 6 7 8 / 9 10 11 12: 3/8"]) == 0
    out = capsys.readouterr().out
    assert "house advantage at the minimum wager: 29.6615% (4113947/13869635)" in out
    assert "yes; issued" in out
    for bad in ("way: 1 2 3 4 / 5 6 7 8", "way: 1 2 / 3 4: 9/4", "straight: 0 1"):
        assert main(["analyze", "keno", "--ticket", bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "Traceback" not in err
    assert main(["analyze", "boston5", "--ticket", "straight: 1 2"]) == 2
    assert "--ticket applies to keno only" in capsys.readouterr().err


# ----------------------------------------------------------------------------- ticket forms (15.2)


def test_15_2_c3_two_equal_groups_as_2_4_1_8_is_a_way_ticket() -> None:
    """Two groups of four, each alone and both together (2/4 1/8), is a way ticket: at least two
    groups of equal spots combined into several straight tickets, at one rate."""
    t = ticket(
        {"kind": "way", "groups": [[1, 2, 3, 4], [5, 6, 7, 8]], "conditions": ["2/4", "1/8"]}
    )
    assert (t.ways, t.price, t.conditioning) == (3, 300, "2/4 1/8")
    booth = Booth()
    number = booth.issue({"kind": "way", "groups": [[1, 2, 3, 4], [5, 6, 7, 8]],
                          "conditions": ["2/4", "1/8"]})  # fmt: skip
    assert booth.system.tickets[number].record.ticket.ways == 3


def test_15_2_c2ii_unequal_split_groups_differ_in_rate_even_when_some_are_equal() -> None:
    """Two groups of four and one of eight: the groups are not all equal, so each group may be
    wagered at its own rate, the two fours included (1/4@1 1/4@3 1/8@2).  Hand-settled: a draw
    of 21-24 and 5-12 pays the second four at $3 ($110 x 3) and the eight at $2 ($25,000 x 2)."""
    request = {
        "kind": "split",
        "groups": [[1, 2, 3, 4], [21, 22, 23, 24], [5, 6, 7, 8, 9, 10, 11, 12]],
        "conditions": ["1/4@1.00", "1/4@3.00", "1/8@2.00"],
    }
    t = ticket(request)
    assert (t.ways, t.price) == (3, 600)
    drawn = (21, 22, 23, 24, 5, 6, 7, 8, 9, 10, 11, 12, 41, 42, 43, 44, 45, 46, 47, 48)
    assert grade([t], drawn, example_rate_card()).tolist() == [110 * 3 * 100 + 25_000 * 2 * 100]
    other = (1, 2, 3, 4, *drawn[4:])
    assert grade([t], other, example_rate_card()).tolist() == [110 * 1 * 100 + 25_000 * 2 * 100]
    booth = Booth()
    number = booth.issue(request)
    assert booth.system.tickets[number].record.ticket.price == 600
    # One fraction per group when the rates are the groups' own; all groups equal: one rate.
    with pytest.raises(FeltError, match=r"1/4 each.*15\.2\(c\)2ii"):
        ticket({"kind": "split", "groups": [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14]],
                "conditions": ["2/4@1.00", "1/4@3.00", "1/2@1.00"]})  # fmt: skip
    with pytest.raises(FeltError, match=r"same rate for each group.*15\.2\(c\)2i\)"):
        ticket({"kind": "split", "groups": [[1, 2], [3, 4]], "conditions": ["1/2@1", "1/2@1"]})


def test_15_2_c4_the_player_chooses_how_the_groups_combine() -> None:
    """Three groups of four played 2/8 as the player chose, 1+2 and 2+3 (not 1+3): a
    combination ticket of two ways at $2.  Hand-settled: a draw catching groups 1 and 3 whole
    pays nothing (every combination would pay 1+3's 8 of 8, $25,000); catching 1 and 2 pays
    $25,000."""
    groups = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    request = {"kind": "combination", "groups": groups, "conditions": ["2/8"],
               "combinations": [[1, 2], [2, 3]]}  # fmt: skip
    t = ticket(request)
    assert (t.ways, t.price, t.conditioning) == (2, 200, "2/8 (1+2 2+3)")
    rest = tuple(range(41, 53))
    card_ = example_rate_card()
    assert grade([t], (1, 2, 3, 4, 9, 10, 11, 12, *rest), card_).tolist() == [0]
    assert grade([t], (1, 2, 3, 4, 5, 6, 7, 8, *rest), card_).tolist() == [2_500_000]
    every = ticket({"kind": "combination", "groups": groups, "conditions": ["3/8"]})
    assert grade([every], (1, 2, 3, 4, 9, 10, 11, 12, *rest), card_).tolist() == [2_500_000]
    booth = Booth()
    number = booth.issue(request)
    assert booth.system.tickets[number].record.ticket.chosen == ((0, 1), (1, 2))
    for bad, conditions, match in [
        (["2/8"], ["2/8"], r"must list distinct group numbers"),
        ("1+2", ["2/8"], r"sets of group numbers"),
        ([[1, 2], [2, 3], [1, 3]], ["2/8"], r"the groups make 3 way\(s\) of 8 spots"),
        ([[1, 2], [1, 2]], ["2/8"], r"listed twice"),
        ([[1, 4]], ["2/8"], r"group numbers, 1 to 3"),
        ([[1, 2], [2]], ["1/8", "1/4"], r"group 3 .* is not in any combination chosen"),
        ([[1, 2], [3]], ["1/8"], r"the combination 3 makes 4 spots, which no condition names"),
    ]:
        with pytest.raises(FeltError, match=match + r".*15\.2\(c\)4"):
            ticket(request | {"combinations": bad, "conditions": conditions})
    with pytest.raises(FeltError, match=r"only a combination ticket lists"):
        ticket(request | {"kind": "way"})


def test_15_3_e_chosen_combinations_fast_path_equals_brute_force() -> None:
    card = RateCard.from_mapping(BIG)
    sizes = [2, 2, 1, 2]
    chosen: list[tuple[int, ...]] = [(0, 1), (1, 3), (2, 3), (0, 2)]
    spots = [3, 4]
    a = ticket_advantage(card, sizes, spots, False, chosen=chosen)
    assert a.capped
    assert a.house_advantage == brute_force(card, sizes, spots, chosen)
    b = ticket_advantage(card, sizes, spots, False, chosen=chosen, exact=False)
    assert b.low <= a.house_advantage <= b.high


@settings(max_examples=60, deadline=None)
@given(sizes=st.lists(st.integers(1, 6), min_size=1, max_size=9), spots=st.integers(1, 15))
def test_grading_lists_the_same_ways_as_every_subset(sizes: list[int], spots: int) -> None:
    """The ways grading lists (found without visiting the 2^groups subsets: 24 kings played
    276/2 took 36 s to grade, more kings stalled the draw) are every subset of the groups that
    adds up to the spots, in the same order."""
    every = [
        pick
        for r in range(1, len(sizes) + 1)
        for pick in combinations(range(len(sizes)), r)
        if sum(sizes[i] for i in pick) == spots
    ]
    assert sets_of(sizes, spots) == every


def test_15_2_b_maximum_spots_bound_each_way_not_the_numbers_marked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The rate card's maximum (15 on the example card) bounds the spots of each straight ticket
    a way plays; a grouped ticket may mark more numbers, within the 80 and the card's ways
    (docs/interpretations.md, "The maximum number of spots"); the par sheet says so."""
    twenty = ticket({"kind": "king", "groups": groups_of([1] * 20), "conditions": ["190/2"]})
    assert (len(twenty.numbers), twenty.ways) == (20, 190)
    eight_by_two = ticket({"kind": "way", "groups": groups_of([8, 8]), "conditions": ["2/8"]})
    assert len(eight_by_two.numbers) == 16
    with pytest.raises(FeltError, match=r"16 spots is not offered.*at most 15.*15\.2\(b\)"):
        ticket({"numbers": list(range(1, 17))})
    with pytest.raises(FeltError, match=r"16 spots is not offered.*15\.2\(b\)"):
        ticket({"kind": "way", "groups": groups_of([8, 8]), "conditions": ["2/8", "1/16"]})
    from felt.cli.main import main

    assert main(["analyze", "keno"]) == 0
    out = capsys.readouterr().out
    assert "1 to 15 per way, each way a straight ticket" in out
    assert "a grouped ticket may mark more numbers" in out


# ----------------------------------------------------------------------------- the check's bound


def combination(sizes: list[int], chosen: Sequence[tuple[int, ...]]) -> dict[str, Any]:
    """A combination request for ``chosen`` (0-based group indices), conditioned as listed."""
    made = Counter(sum(sizes[i] for i in w) for w in chosen)
    return {"kind": "combination", "groups": groups_of(sizes),
            "conditions": [f"{n}/{s}" for s, n in sorted(made.items())],
            "combinations": [[i + 1 for i in w] for w in chosen]}  # fmt: skip


# The review of issue 18 item 9: the check took 4.9 s on the first ticket and 2.1 s on the second
# (every node of the search went through every chosen way, charged as one node).
FOURTEEN_PAIRS_1000 = combination([2] * 14, list(combinations(range(14), 4))[:1000])
TWELVE_PAIRS_EVERY = combination(
    [2] * 12, [*combinations(range(12), 3), *combinations(range(12), 4)]
)


@pytest.mark.parametrize(
    "request_",
    [FOURTEEN_PAIRS_1000, TWELVE_PAIRS_EVERY,
     combination([2] * 15, list(combinations(range(15), 5))[:2000]),
     combination([2] * 14, list(combinations(range(14), 4))[:300])],
    ids=["14 pairs, 1000 of 4", "12 pairs, every 3 and 4", "15 pairs, 2000 of 5",
         "14 pairs, 300 of 4"],
)  # fmt: skip
def test_15_3_e_check_at_issue_on_chosen_combinations_stays_within_its_work(
    request_: dict[str, Any],
) -> None:
    """The check's bound of work bounds what it does on every ticket form: on combinations the
    player chose, a node's work over every chosen way is charged, so the ways the search
    goes through stay within the budget (counted, never timed: a replay decides the same)."""
    t = ticket(request_)
    a = advantage_of(example_rate_card(), t, exact=False, budget=ISSUE_WORK)
    assert a.work <= ISSUE_WORK
    assert a.nodes * t.ways <= ISSUE_WORK * CHOSEN_WAYS  # ways visited, node by node
    assert a.low <= a.high
    again = advantage_of(example_rate_card(), t, exact=False, budget=ISSUE_WORK)
    assert (again.low, again.high, again.nodes, again.work) == (a.low, a.high, a.nodes, a.work)


def test_15_3_e_fourteen_pairs_1000_chosen_refused_as_not_shown_within_the_bound() -> None:
    card = example_rate_card()
    t = ticket(FOURTEEN_PAIRS_1000)
    a = advantage_of(card, t, exact=False, budget=ISSUE_WORK)
    assert not a.exact
    assert a.low <= LIMIT < a.high
    with pytest.raises(FeltError, match=r"not shown to be at most 30% within the 4,500 steps"):
        check_issue(card, t)


def test_15_3_e_every_combination_listed_is_the_ticket_without_the_list() -> None:
    """Listing every way the conditions name (220/6 495/8 on twelve pairs) is the same bet as the
    ticket without the list: the same exact figure as the full enumeration of every catch
    pattern of that ticket, decided at issue (29.79%: issued)."""
    card = example_rate_card()
    listed = ticket(TWELVE_PAIRS_EVERY)
    plain = ticket({"kind": "combination", "groups": groups_of([2] * 12),
                    "conditions": ["220/6", "495/8"]})  # fmt: skip
    exact = analyze_ticket(card, plain).house_advantage
    a = check_issue(card, listed)
    assert a.exact
    assert a.house_advantage == exact
    assert f"{float(exact) * 100:.4f}" == "29.7919"
    assert a.work <= ISSUE_WORK


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sizes=st.lists(st.integers(1, 3), min_size=2, max_size=5),
    data=st.data(),
    budget=st.sampled_from([None, 8, 40]),
)
def test_15_3_e_chosen_combinations_search_equals_brute_force(
    sizes: list[int], data: st.DataObject, budget: int | None
) -> None:
    """Property: on a card whose small tickets reach the limit, the chosen-combination search
    equals the brute force over every catch of every group; with a small budget of work, the
    bounds it returns contain the exact figure (and it never works past the budget)."""
    card = RateCard.from_mapping(BIG)
    every = [
        pick
        for r in range(1, len(sizes) + 1)
        for pick in combinations(range(len(sizes)), r)
        if sum(sizes[i] for i in pick) in card.pays
    ]
    if not every:
        return
    chosen = data.draw(st.lists(st.sampled_from(every), min_size=1, max_size=8, unique=True))
    spots = sorted({sum(sizes[i] for i in w) for w in chosen})
    expected = brute_force(card, sizes, spots, chosen)
    assert ticket_advantage(card, sizes, spots, False, chosen=chosen).house_advantage == expected
    a = ticket_advantage(card, sizes, spots, False, chosen=chosen, exact=False, budget=budget)
    assert a.low <= expected <= a.high
    assert budget is None or a.work <= budget


def test_15_3_e_checks_remembered_per_card_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The card remembers the last ISSUE_CACHE checks, least recently used dropped first, keyed
    small (a digest of the combinations chosen), so quotes varying the combinations cannot grow
    memory without bound; a copy of the card shares them."""
    monkeypatch.setattr(advantage, "ISSUE_CACHE", 3)
    card = RateCard.from_mapping(BIG)
    forms = [ticket(kings(n, n * (n - 1) // 2, 2), card) for n in range(3, 9)]
    checks = [check_issue(card, t) for t in forms]
    known = card.__dict__["_issue_checks"]
    assert len(known) == 3
    assert check_issue(card, forms[-1]) is checks[-1]  # remembered
    assert check_issue(card, forms[0]) is not checks[0]  # dropped, worked out again
    assert len(known) == 3
    assert copy.deepcopy(card).__dict__["_issue_checks"] is known
    assert len(pickle.loads(pickle.dumps(card)).__dict__["_issue_checks"]) == 0
    big = example_rate_card()
    with pytest.raises(FeltError, match=r"not shown"):  # refused, and remembered as refused
        check_issue(big, ticket(combination([2] * 14, list(combinations(range(14), 4))[:40])))
    assert all(len(repr(key)) < 300 for key in big.__dict__["_issue_checks"]._items)
