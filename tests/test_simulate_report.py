"""Issue 20, item 9: ``felt simulate`` without ``--seed`` draws a fresh seed from the OS and says
it, so the run can be repeated; the text report shows the observed outcome frequencies beside the
exact ones (README, "Simulation")."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import numpy as np
import pytest

from felt.cli.main import main
from felt.core.paytable import Payout
from felt.games.double_down import DoubleDownConfig
from felt.simulate import FOLDS, frequencies_of, frequencies_text, simulate

SEED_NOTE = re.compile(r"^felt: seed (\d+) \(repeat with --seed \1\)$", re.MULTILINE)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_issue_20_item_9_simulate_without_seed_prints_one_and_it_repeats_the_report_byte_for_byte(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ("simulate", "double-down-stud", "--rounds", "3000")
    status, first, err = run(capsys, *argv)
    assert status == 0, err
    drawn = SEED_NOTE.search(err)
    assert drawn, err
    seed = drawn[1]
    assert first.splitlines()[0].endswith(f"seed {seed}")
    status, again, err = run(capsys, *argv, "--seed", seed)
    assert (status, again) == (0, first)
    assert not SEED_NOTE.search(err)  # a given seed is not announced
    _, other, err = run(capsys, *argv)
    other_seed = SEED_NOTE.search(err)
    assert other_seed
    assert other_seed[1] != seed  # drawn afresh (the OS's: two alike 1 in 10**9)
    assert other != first


@pytest.mark.parametrize("seats", [1, 3])
def test_issue_20_item_9_observed_counts_sum_to_the_seat_rounds_played(
    capsys: pytest.CaptureFixture[str], seats: int
) -> None:
    """In JSON and in the text report's total line (the oracle: rounds x seats)."""
    argv = ("simulate", "boston5", "--rounds", "2500", "--seed", "3", "--seats", str(seats))
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    data = json.loads(out)
    assert sum(data["counts"].values()) == 2500 * seats
    observed = sum(data["frequencies"].values()) + data["folds"]
    assert observed == pytest.approx(1)
    status, text, _ = run(capsys, *argv)
    total = [line for line in text.splitlines() if line.startswith("total ")]
    assert len(total) == 1
    assert total[0].split()[1] == f"{2500 * seats:,}"
    assert "outcome frequencies per seat-round, observed beside exact" in text
    for name, count in data["counts"].items():
        row = next(line for line in text.splitlines() if line.startswith(name + "  "))
        assert f"{count:,}" in row.split()


def test_issue_20_item_9_exact_frequencies_weigh_up_to_the_exact_edge() -> None:
    """Double Down Stud at one area: the exact frequencies sum to 1, and weighting each cell by
    what it pays per wager (17.9, 17.10(b); the oracle: the pay table, not the analysis) gives
    the exact house edge the report prints."""
    config = DoubleDownConfig.from_mapping({})
    result = simulate(config, 1000, seed=9)
    exact = result.exact_frequencies
    assert exact is not None
    assert sum(exact.values()) == 1
    net = Fraction(0)
    for key, p in exact.items():
        line, decision = key.split(" / ")
        units = 2 if decision == "double" else 1
        payout = config.pay_table.get(line)
        per_unit = {"lose": Fraction(-1), "push": Fraction(0)}.get(line)
        if per_unit is None:
            assert isinstance(payout, Payout)
            assert payout.odds is not None
            per_unit = payout.odds
        net += p * units * per_unit
    assert result.exact_edge == -net
    rows = result.frequency_rows()
    assert sum(count for _, count, _, _, _ in rows) == 1000
    for _, count, observed, exact_p, deviation in rows:
        assert observed == count / 1000
        if exact_p is not None and 0 < exact_p < 1:
            p = exact_p
            assert deviation == pytest.approx(
                (observed - float(p)) / float(p * (1 - p) / 1000) ** 0.5
            )


def test_issue_20_item_9_no_exact_frequencies_where_no_exact_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Double Down Stud with several areas (each sees the others' cards): observed only."""
    status, out, _ = run(capsys, "simulate", "double-down-stud", "--rounds", "500", "--seats", "2",
                         "--seed", "1")  # fmt: skip
    assert status == 0
    assert "exact: not available for this game / seat count" in out
    status, out, _ = run(capsys, "simulate", "three-card-poker", "--rounds", "20", "--seed", "1")
    assert status == 0
    assert "outcome frequencies: not counted on the round engine path" in out


@pytest.mark.parametrize(
    "stored", ["", "[]", '{"a": "1/2"}', '{"a": "x"}', '{"a": "3/2", "b": "-1/2"}', '{"a": "1/0"}']
)
def test_a_damaged_frequency_cache_is_not_trusted(stored: str) -> None:
    assert frequencies_of(np.array(stored)) is None


def test_frequencies_read_back_exactly() -> None:
    given = {"a / b": Fraction(1, 3), FOLDS: Fraction(2, 3)}
    assert frequencies_of(np.array(frequencies_text(given))) == given
