"""Simulation: the fast path against the round engine on the same decks, seeds independent of
workers (local processes and a local Dask cluster), and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from felt.analysis.kernels import BINOM
from felt.cli.main import main
from felt.core.errors import FeltError
from felt.core.tables import tables
from felt.games.boston.config import TableConfig
from felt.simulate import Job, _prepare, deal_decks, engine_nets, settle_boston, simulate

CONFIG = TableConfig.from_mapping({"game": "boston5"})


@pytest.mark.parametrize(
    ("seats", "table"),
    [
        (1, {}),
        (4, {"payout_limit": "50000"}),
        (6, {"edition": "nj-13-69f-24"}),
        (1, {"game": "boston7", "first_ratio": 1}),
        (5, {"game": "boston7", "maximum": "1000"}),
    ],
)
def test_fast_path_settles_like_the_engine_on_the_same_decks(
    seats: int, table: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from felt.analysis import games
    from tests.test_boston7 import _fake_counts

    monkeypatch.setattr(games, "boston7_counts", lambda **_: _fake_counts())  # CI: no full count
    config = TableConfig.from_mapping({"game": "boston5", **table})
    ante = config.maximum if table.get("maximum") else config.minimum
    names, line_of_code, pay, fold, raise_table = _prepare(Job(config, ante, seats, 0, 1))
    hand = 7 if config.game == "boston7" else 5
    decks = deal_decks(seats * 1000 + 7, 400, hand * (seats + 1))
    if config.game == "boston7":  # every seven-card royal path, at a $1,000 ante (200 to 1 wins)
        royal = [51, 47, 43, 39, 35, 31, 27]  # A-K-Q-J-10-9-8 of spades, dealt to seat 1
        for pos, card in zip([0, 1, 2, *range(3 * seats + 3, 3 * seats + 7)], royal, strict=True):
            row = decks[0].tolist()
            if card in row:  # swap, so the row keeps distinct cards
                decks[0, row.index(card)] = decks[0, pos]
            decks[0, pos] = card
    cells = np.zeros((1, len(names), 4), dtype=np.int64)
    t = tables()
    fast = settle_boston(decks, seats, hand, raise_table, t.card_keys, t.flush, t.row_offsets,
                         t.values, t.five_category, line_of_code, BINOM, pay, fold, cells)  # fmt: skip
    np.testing.assert_array_equal(fast, engine_nets(config, decks, seats, raise_table, ante))


def test_deal_decks_are_distinct_cards_and_reproducible() -> None:
    a = deal_decks(5, 1000, 35)
    assert all(len(set(row.tolist())) == 35 for row in a)
    np.testing.assert_array_equal(a, deal_decks(5, 1000, 35))


def test_same_seed_same_result_whatever_the_workers() -> None:
    one = simulate(CONFIG, 70_000, seats=2, seed=11)
    two = simulate(CONFIG, 70_000, seats=2, seed=11, workers=2)
    assert (one.tally.total, one.tally.total_sq) == (two.tally.total, two.tally.total_sq)
    np.testing.assert_array_equal(one.tally.cells, two.tally.cells)
    other = simulate(CONFIG, 70_000, seats=2, seed=12)
    assert other.tally.total != one.tally.total


def test_same_result_on_a_local_dask_cluster() -> None:
    from distributed import Client, LocalCluster

    local = simulate(CONFIG, 40_000, seed=5, workers=3)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        remote = simulate(CONFIG, 40_000, seed=5, workers=3, scheduler=cluster.scheduler_address)
    assert (remote.tally.total, remote.tally.total_sq) == (local.tally.total, local.tally.total_sq)


def test_observed_edge_near_exact() -> None:
    result = simulate(CONFIG, 300_000, seats=1, seed=2024)
    assert result.exact_edge is not None
    assert result.half_width is not None
    assert abs(result.house_edge - float(result.exact_edge)) < 4 * result.half_width / 1.96


def test_simulate_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "conv.png"
    assert (
        main(
            [
                "simulate",
                "boston5",
                "--rounds",
                "50000",
                "--seed",
                "1",
                "--json",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["rounds"] == 50000
    assert data["ci95"][0] < data["house_edge"] < data["ci95"][1]
    assert plot.stat().st_size > 1000
    assert main(["simulate", "boston5", "--rounds", "0"]) == 2
    assert "--rounds" in capsys.readouterr().err
    assert main(["simulate", "boston5", "--rounds", "10", "--plot", str(tmp_path / "x.jpg")]) == 2
    assert main(["simulate", "boston5", "--rounds", "10", "--seats", "9"]) == 2


def test_engine_path_for_every_game_and_against_the_fast_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from felt.analysis import games
    from felt.games.double_down import DoubleDownConfig
    from tests.test_boston7 import _fake_counts

    monkeypatch.setattr(games, "boston7_counts", lambda **_: _fake_counts())  # CI: no full count

    fast = simulate(CONFIG, 3000, seats=2, seed=8)
    engine = simulate(CONFIG, 3000, seats=2, seed=8, engine=True)
    assert (engine.tally.total, engine.tally.total_sq) == (fast.tally.total, fast.tally.total_sq)
    seven = simulate(TableConfig.from_mapping({"game": "boston7"}), 500, seats=3, seed=1)
    assert (
        seven.exact_edge
        == games.analyze_boston7(TableConfig.from_mapping({"game": "boston7"})).house_edge_ante
    )
    assert seven.tally.seat_rounds == 1500
    dds = simulate(DoubleDownConfig.from_mapping({}), 2000, seed=1)
    assert dds.exact_edge is not None
    assert dds.half_width is not None
    assert abs(dds.house_edge - float(dds.exact_edge)) < 4 * dds.half_width


def test_simulate_refuses_bad_arguments() -> None:
    with pytest.raises(FeltError, match="--rounds"):
        simulate(CONFIG, 0)


def test_confidence_interval_is_exact_at_any_wager_size() -> None:
    """Sums of squares are exact integers (issue 10 item 4): without a payout limit every net
    scales with the ante, so at a $100,000 ante (squares past 2**63 within one block) the edge and
    the interval per ante are those at $5, not a zero-width interval from int64 overflow."""
    from felt.simulate import simulate as run

    big = TableConfig.from_mapping({"game": "boston5", "maximum": "100000"})
    small = run(big, 20_000, seed=3, ante=500)
    large = run(big, 20_000, seed=3, ante=10_000_000)
    assert small.half_width is not None
    assert large.half_width is not None
    assert large.house_edge == pytest.approx(small.house_edge, rel=1e-12)
    assert large.half_width == pytest.approx(small.half_width, rel=1e-9)
    assert small.half_width > 0.001


def test_one_round_reports_no_interval() -> None:
    """--rounds 1 (issue 10 item 10): an observed figure and no confidence interval."""
    from felt.simulate import simulate as run

    result = run(TableConfig.from_mapping({"game": "boston5"}), 1, seed=1)
    out = result.to_json()
    assert out["ci95"] is None
    assert out["within_ci"] is None


def test_progress_reported_with_several_workers() -> None:
    """Issue 10 item 10: the progress bar moves with any number of workers, and ends complete."""
    from felt.simulate import BLOCK
    from felt.simulate import simulate as run

    seen: list[tuple[int, int]] = []
    rounds = 5 * BLOCK
    one = run(CONFIG, rounds, seed=4)
    two = run(CONFIG, rounds, seed=4, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert seen
    assert seen[-1] == (5, 5)
    assert two.tally.total == one.tally.total


def test_exact_figures_cached_and_a_tampered_cache_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10 item 10: simulate reads the exact figure from a verified cache (not recomputed on
    each run); an edited file is recomputed, never trusted."""
    from fractions import Fraction

    from felt.simulate import exact_figures

    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    edge, raising = exact_figures(CONFIG, CONFIG.minimum)
    assert edge == Fraction(5893982021, 30201864420)
    assert raising.all()
    path = next(tmp_path.glob("exact-*.npz"))
    with np.load(path) as data:
        stored = {k: data[k] for k in data.files}
    stored["edge"] = np.array("1/100")
    np.savez(path, **stored)
    assert exact_figures(CONFIG, CONFIG.minimum)[0] == edge
