"""Settlements people can read (issue 20 item 5): every seat view names the player's hand and the
dealer's, shows Boston 7 discards, and gives each statement line its outcome word and a reason.

Oracles: hand-picked decks whose expected words are written here by hand from the rule texts
(Boston 19:47-24.10(f) and 24.11, Three Card Poker 20.10-20.11, Double Down Stud 17.9-17.10), and
a brute-force sample of rounds played through each game's layout with random choices, where every
line's reason must be there and say what its outcome says (a table written here, not felt's)."""

from __future__ import annotations

import random
import re
from decimal import Decimal
from typing import Any

import pytest

from felt.cli.script import report_text, run_script
from felt.core.errors import FeltError
from felt.games.registry import table_game
from felt.rounds.actions import DecisionTimeout

SHOE = {"shuffling": "shuffler-to-shoe"}
"""A table whose script deck is dealt as written (no cut)."""


def seat_views(script: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each seat's view JSON of the round ``script`` plays to its end."""
    rnd = run_script(script)
    game = table_game(script["game"])
    return {n: game.seat_view(rnd, n) for n in sorted(rnd.seats)}  # type: ignore[attr-defined]


def reasons(view: dict[str, Any]) -> dict[str, str]:
    """wager -> reason of one seat's lines."""
    return {line["wager"]: line["reason"] for line in view["lines"]}


def results(view: dict[str, Any]) -> dict[str, str]:
    """wager -> outcome word of one seat's lines."""
    return {line["wager"]: line["result"] for line in view["lines"]}


# --------------------------------------------------------------------------- hand-picked rounds


def test_boston5_two_pair_beats_a_pair_every_line_says_why() -> None:
    # seat 1: Js Jd 5c, then 5h Kd (two pair); dealer 9h 9c 2d, then 7s 3c (a pair of nines)
    views = seat_views({
        "game": "boston5", "deck": ["Js", "Jd", "5c", "9h", "9c", "2d", "5h", "Kd", "7s", "3c"],
        "wagers": {"1": {"ante": 5, "first": 10, "bonus": 5}},
        "actions": [{"seat": 1, "action": "expose"}, {"seat": 1, "action": "second"}],
    })  # fmt: skip
    v = views[1]
    assert v["hand"] == "two pair, jacks and fives, king kicker"
    assert v["dealer_hand"] == "one pair, nines"
    assert v["discarded"] == []
    beats = "your two pair, jacks and fives, king kicker beats the dealer's one pair, nines"
    assert reasons(v) == {
        "bonus": "bonus: your first three cards (one pair) pay 1 to 1",  # 24.11(d): a pair 1 to 1
        "first": f"{beats}: pays 1 to 1",  # 24.10(f)3, 24.11(b)
        "second": f"{beats}: pays 1 to 1",
        "ante": f"{beats}; ante bonus for two pair: pays 2 to 1",  # 24.11(c)
    }
    assert set(results(v).values()) == {"won"}


def test_boston5_dealer_higher_and_a_fold() -> None:
    # seat 1: 4c 7d 9h + 2s 3h (nine high); seat 2 folds Ks Kh 8c; dealer Qs Qd 6h + Jc Tc
    views = seat_views({
        "game": "boston5",
        "deck": ["4c", "7d", "9h", "Ks", "Kh", "8c", "Qs", "Qd", "6h", "2s", "3h", "Jc", "Tc"],
        "wagers": {"1": {"ante": 5, "first": 10}, "2": {"ante": 5, "first": 10}},
        "actions": [{"seat": 1, "action": "second"}, {"seat": 2, "action": "fold"}],
    })  # fmt: skip
    v1, v2 = views[1], views[2]
    assert v1["hand"] == "high card, nine-seven-four-three-two"
    assert v1["dealer_hand"].startswith("one pair, queens")
    lost = f"the dealer's {v1['dealer_hand']} beats your high card, nine-seven-four-three-two"
    assert reasons(v1) == {
        "ante": f"{lost}: the ante is lost",  # 24.10(f)1
        "first": f"{lost}: the first wager is lost",
        "second": f"{lost}: the second wager is lost",
    }
    assert set(results(v1).values()) == {"lost"}
    assert reasons(v2) == {
        "ante": "folded: the ante is lost",
        "first": "folded: the first wager is lost",
    }
    assert v2["hand"] == ""  # a folded hand of three cards is no five-card hand


def test_boston7_discards_are_shown_as_discarded() -> None:
    script = {
        "game": "boston7", "edition": "nj-13-69f-24", "table": {"first_ratio": 1},
        "deck": ["As", "Ks", "Qs", "2c", "3d", "4h", "Js", "Ts", "9s", "8s"],
        "wagers": {"1": {"ante": 5, "first": 5}},
        "actions": [{"seat": 1, "action": "second"}, {"seat": 1, "action": "discard", "cards": ["9s", "8s"]}],
    }  # fmt: skip
    v = seat_views(script)[1]
    assert v["discarded"] == ["9s", "8s"]
    assert v["hand"] == "royal flush"  # the five kept: As Ks Qs Js Ts
    assert v["dealer_hand"] == "four of a kind, twos, four kicker"
    # 13:69F-24.11(c): a discard forfeits the six- and seven-card royal lines, not the royal's
    assert reasons(v)["ante"].endswith("ante bonus for royal flush: pays 200 to 1")
    text = report_text(run_script(script), symbols=False)
    assert "seat 1     As Ks Qs Js Ts  discarded: 9s 8s  [settled]" in text
    assert (
        "\n             your royal flush beats the dealer's four of a kind" in text
    )  # felt replay


def test_three_card_dealer_does_not_qualify() -> None:
    # 20.10: queen high or better qualifies; nine-eight-two does not: ante 1 to 1, play returned
    v = seat_views({
        "game": "three-card-poker", "table": SHOE, "deck": ["Js", "Jd", "5c", "9h", "8c", "2d"],
        "wagers": {"1": {"ante": 5, "pair_plus": 5}}, "actions": [{"seat": 1, "action": "play"}],
    })[1]  # fmt: skip
    assert v["hand"] == "pair of jacks, five kicker"
    assert v["dealer_hand"] == "high card, nine-eight-two"
    no = "the dealer's high card, nine-eight-two does not qualify (queen high or better)"
    assert reasons(v) == {
        "ante": f"{no}: the ante pays 1 to 1",
        "play": f"{no}: the play wager is returned",
        "pair plus": "pair plus: your pair of jacks, five kicker pays 1 to 1",
    }
    assert results(v) == {"ante": "won", "play": "pushed", "pair plus": "won"}


def test_three_card_fold_and_a_qualifying_dealer() -> None:
    v = seat_views({
        "game": "three-card-poker", "table": SHOE,
        "deck": ["Js", "7d", "5c", "Kh", "Kc", "2d", "Qs", "Qd", "3h"],
        "wagers": {"1": {"ante": 5}, "2": {"ante": 5, "pair_plus": 5}},
        "actions": [{"seat": 1, "action": "play"}, {"seat": 2, "action": "fold"}],
    })  # fmt: skip
    lost = "the dealer's pair of queens, three kicker beats your high card, jack-seven-five"
    assert reasons(v[1]) == {
        "ante": f"{lost}: the ante is lost",
        "play": f"{lost}: the play wager is lost",
    }
    assert reasons(v[2]) == {
        "ante": "folded: the ante is lost",
        "pair plus": "folded: the pair plus wager is lost",
    }
    assert results(v[2]) == {"ante": "lost", "pair plus": "lost"}


def test_double_down_push_and_loss() -> None:
    # 17.9(b): a pair of sixes to tens pushes; 17.9(a): less than a pair of sixes loses
    v = seat_views({"game": "double-down-stud", "table": SHOE, "deck": ["6h", "6c", "Kd", "9s", "4c"],
                    "wagers": {"1": {"wager": "10.00"}}})[1]  # fmt: skip
    assert v["hand"] == "one pair, sixes"
    assert reasons(v) == {
        "wager": "your one pair, sixes: a pair of sixes to tens pushes: the wager is returned"
    }
    assert results(v) == {"wager": "pushed"}
    v = seat_views({"game": "double-down-stud", "table": SHOE, "deck": ["Qh", "6c", "Kd", "9s", "4c"],
                    "wagers": {"1": {"wager": "10.00"}}, "actions": [{"seat": 1, "action": "double"}]})[1]  # fmt: skip
    low = "your high card, king-queen-nine-six-four is less than a pair of sixes"
    assert reasons(v) == {
        "wager": f"{low}: the wager is lost",
        "double": f"{low}: the double is lost",
    }


# --------------------------------------------------------------------------- a brute-force sample

WORDS = {
    "win": "won",
    "lose": "lost",
    "forfeit": "lost",
    "push": "pushed",
    "void": "returned",
    "paid": "paid",
}
"""The word a player reads for each outcome (issue 20: "won", "pushed", "lost")."""
SAYS = {
    "win": re.compile(r"\bpays?\b"),
    "paid": re.compile(r"\bpaid\b"),
    "lose": re.compile(r"\bis lost\b"),
    "forfeit": re.compile(r"\bis lost\b"),
    "push": re.compile(r"\bis returned\b"),
    "void": re.compile(r"\bis returned\b"),
}
"""What the reason of a line of each outcome must say."""

GAMES = [("boston5", e) for e in table_game("boston5").editions("boston5")] + [
    ("boston7", None), ("double-down-stud", None), ("three-card-poker", None)
]  # fmt: skip


def random_round(game_id: str, edition: str | None, rng: random.Random) -> tuple[Any, Any]:
    """One round of a fresh table played to its end through the game's layout: random seats
    and wagers, a random button for each election (sometimes the decision time runs out)."""
    game = table_game(game_id)
    config = game.config(game_id, {}, edition=edition)
    layout = game.layout(config)
    table = game.new_table(config)
    rnd = table.new_round()
    w = layout["wager"]
    for n in rng.sample(range(1, game.seat_count(config) + 1), rng.randint(1, 3)):
        a: dict[str, Any] = {"action": w["action"], "seat": n}
        sized = [s for s in w["spots"] if "follows" not in s]  # the spots a player sizes
        values = {
            s["field"]: min(Decimal(s["minimum"]) * rng.choice([1, 2, 5]), Decimal(s["maximum"]))
            for s in sized
            if not s.get("optional") or rng.random() < 0.5
        } or {sized[0]["field"]: Decimal(sized[0]["minimum"])}  # at least one wager
        for s in w["spots"]:  # a spot that follows another: its multiple (Boston's first)
            if "follows" in s and s["follows"] in values:
                values[s["field"]] = values[s["follows"]] * s["times"]
        a.update({field: str(v) for field, v in values.items()})
        rnd.apply(game.parse_action(a, "test"))
    while not rnd.finished:
        pending = rnd.pending()
        if not pending:
            step = game.dealer_step(table, rnd)
            assert step is not None, "a round not finished with nothing pending has a step"
            rnd.apply(step)
            continue
        seat, election = pending[0]
        if rng.random() < 0.1:
            rnd.apply(DecisionTimeout(seat))
            continue
        d = layout["decisions"][election]
        b = rng.choice(d["buttons"])
        act: dict[str, Any] = {**b["action"], "seat": seat}
        for f in b["adds"]:
            if d.get("pick") and f == d["pick"]["field"]:
                act[f] = rng.sample(game.seat_view(rnd, seat)["own_cards"], d["pick"]["count"])
            elif d.get("number"):
                act[f] = rng.randint(d["number"]["min"], d["number"]["max"])
        try:
            rnd.apply(game.parse_action(act, "test"))
        except FeltError:
            rnd.apply(game.suggest(rnd, seat, election))
    return game, rnd


@pytest.mark.parametrize(("game_id", "edition"), GAMES)
def test_every_line_of_a_sample_says_why_in_its_outcome_word(
    game_id: str, edition: str | None
) -> None:
    rng = random.Random(f"{game_id}/{edition}")
    seen: set[str] = set()
    for _ in range(60):
        game, rnd = random_round(game_id, edition, rng)
        for n in rnd.seats:
            v = game.seat_view(rnd, n)
            assert len(v["lines"]) == sum(line.seat == n for line in rnd.lines)
            for line in v["lines"]:
                seen.add(line["outcome"])
                where = f"{game_id} seat {n}: {line}"
                assert line["reason"], where
                assert line["result"] == WORDS[line["outcome"]], where
                assert SAYS[line["outcome"]].search(line["reason"]), where
            showdown = [x for x in v["lines"] if x["outcome"] in ("win", "lose", "push")
                        and x["wager"] not in ("bonus", "pair plus")]  # fmt: skip
            if showdown and not rnd.void_reason:
                assert v["hand"], f"{game_id} seat {n}: a settled hand is named"
                if game_id != "double-down-stud":  # its dealer's cards are no hand (17.8(b))
                    assert v["dealer_hand"], f"{game_id}: the revealed dealer's hand is named"
            for o in v["others"]:  # a hand turned over is named; one never shown is not
                assert bool(o["hand"]) == (o["status"] == "settled"), (game_id, o)
            discarded = getattr(rnd.seats[n], "discarded", None) or ()
            assert v["discarded"] == [str(c) for c in discarded]
            assert set(v["discarded"]) <= set(v["own_cards"])
        public = game.seat_view(rnd, 0)
        assert public["hand"] == ""
        assert public["discarded"] == []
    assert {"win", "lose"} <= seen, seen


def test_felt_play_boston7_summary_shows_the_discards_as_discarded_and_each_reason() -> None:
    from felt.core.cards import format_cards
    from felt.games.boston.play import _boston_summary
    from felt.games.boston.view import seat_view

    rnd = run_script({
        "game": "boston7", "edition": "nj-13-69f-24", "table": {"first_ratio": 1},
        "deck": ["As", "Ks", "Qs", "2c", "3d", "4h", "Js", "Ts", "9s", "8s"],
        "wagers": {"1": {"ante": 5, "first": 5}},
        "actions": [{"seat": 1, "action": "second"}, {"seat": 1, "action": "discard", "cards": ["9s", "8s"]}],
    })  # fmt: skip
    text = _boston_summary(seat_view(rnd, 1), lambda cs: format_cards(cs, symbols=False), False)  # type: ignore[arg-type]
    assert "seat 1 (you)  As Ks Qs Js Ts: royal flush" in text
    assert "  discarded   9s 8s  (not part of the hand)" in text
    # each statement line with its reason under it
    assert (
        "\n      your royal flush beats the dealer's four of a kind, twos, four kicker: pays 1 to 1"
        in text
    )


def test_boston_withdrawn_second_wager() -> None:
    # 24.10(c): a second wager withdrawn before the additional cards is a fold; it is returned
    v = seat_views({
        "game": "boston5", "deck": ["4c", "7d", "9h", "Qs", "Qd", "6h", "2s", "3h", "Jc", "Tc"],
        "wagers": {"1": {"ante": 5, "first": 10}},
        "actions": [{"seat": 1, "action": "second"}, {"seat": 1, "action": "withdraw"}],
    })[1]  # fmt: skip
    assert reasons(v) == {
        "ante": "second wager withdrawn, so the hand folds: the ante is lost",
        "first": "second wager withdrawn, so the hand folds: the first wager is lost",
        "second": "second wager withdrawn: the second wager is returned",
    }
    assert results(v) == {"ante": "lost", "first": "lost", "second": "returned"}


def test_a_void_round_returns_every_wager_and_says_so() -> None:
    # 17.11(a): the hole card exposed before "No more bets" voids every hand
    v = seat_views({
        "game": "double-down-stud", "table": SHOE, "deck": ["Qh", "6c", "Kd", "9s", "4c"],
        "wagers": {"1": {"wager": "10.00"}}, "actions": [{"irregularity": "hole_card_exposed"}],
    })[1]  # fmt: skip
    assert [x["result"] for x in v["lines"]] == ["returned"]
    assert v["lines"][0]["reason"].startswith("the hand is void (")
    assert v["lines"][0]["reason"].endswith("): the wager is returned")
