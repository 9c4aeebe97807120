"""Simulation: the fast path against the round engine on the same decks, seeds independent of
workers (local processes and a local Dask cluster), and the CLI."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from felt.analysis.kernels import BINOM
from felt.cli.main import main
from felt.core.cards import Card, parse_cards
from felt.core.errors import FeltError
from felt.core.tables import tables
from felt.games.boston.config import TableConfig
from felt.games.boston.simulation import _prepare, settle_boston
from felt.games.double_down import DoubleDownConfig, double_expectation
from felt.games.double_down.simulation import double_table, double_units
from felt.simulate import Job, Tally, _fast_path, _run_pool, deal_decks, engine_nets, simulate

CONFIG = TableConfig.from_mapping({"game": "boston5"})
DDS = DoubleDownConfig.from_mapping({})
JACKS_1000 = {"maximum": "10000", "pay_table": {"jacks or better": "1000 to 1"}}
"""A legal Double Down Stud table (odds above the minimum are allowed, 17.10(b)) on which the
$100,000 payout limit binds often: a pair of jacks pays $200,000 on a $200 wager."""
HALVES = {"jacks or better": "3 to 2", "two pair": "7 to 2"}
"""Odds that are not whole numbers, so the decision sums are kept in halves."""


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
    from felt.games.boston import analysis as games
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


def _dds_fast(config: DoubleDownConfig, decks: np.ndarray, seats: int, ante: int) -> tuple[
    np.ndarray, np.ndarray
]:  # fmt: skip
    """The Double Down Stud fast path's nets and (line, stood / doubled) counts on given decks."""
    _, names, settle = _fast_path(Job(config, ante, seats, 0, 1))
    cells = np.zeros((1, len(names), 4), dtype=np.int64)
    return settle(decks, cells), cells[0, :, :2]


@pytest.mark.parametrize(
    ("seats", "table", "ante", "count"),
    [
        (1, {}, None, 1500),
        (3, {"double_down": "up-to", "shuffling": "manual"}, None, 600),
        (7, {}, 50_000, 400),  # $500: a doubled royal (1000 to 1) is cut to the limit
        (5, JACKS_1000, 20_000, 500),
        (2, {"pay_table": HALVES, "shuffling": "shuffler-to-shoe"}, 700, 800),
        (4, {"pay_table": {"flush": "9 to 1", "straight": "6 to 1"}}, 2_500, 500),
    ],
)
def test_double_down_fast_path_settles_like_the_engine_on_the_same_decks(
    seats: int, table: dict[str, object], ante: int | None, count: int
) -> None:
    """Issue 10 item 10: seat by seat, the compiled Double Down Stud path nets what the round
    engine nets with its suggested play (other areas' cards included) on the same decks: dealt
    past the dealer's cut or, from a shuffler that loads the shoe, from the top."""
    config = DoubleDownConfig.from_mapping(table)
    ante = config.minimum if ante is None else ante
    decks = deal_decks(seats * 1000 + count, count, seats + 4)
    royal = [int(c) for c in parse_cards("As Ts Ks Qs Js")]  # area 1, the hole card, up-cards
    for pos, card in zip([0, *range(seats, seats + 4)], royal, strict=True):
        row = decks[0].tolist()
        if card in row:  # swap, so the row keeps distinct cards
            decks[0, row.index(card)] = decks[0, pos]
        decks[0, pos] = card
    fast, decided = _dds_fast(config, decks, seats, ante)
    np.testing.assert_array_equal(fast, engine_nets(config, decks, seats, None, ante))
    assert decided[:, 0].sum() > 0  # both decisions were taken
    assert decided[:, 1].sum() > 0
    limit = config.payout_limit
    assert (fast[0, 0] == limit) == (2 * 1000 * ante > limit)
    if table is JACKS_1000:
        assert (fast[1:] == limit).sum() > 50  # the limit binds on ordinary hands too


def test_double_down_fast_path_known_rounds_17_8_b_17_9_17_10_c() -> None:
    """Rounds settled by hand from 17.8(b)-17.10(c): cards go one to each area, then the hole
    card, then three up; a visible pair of aces doubles, a visible nothing stands."""
    decks = np.array(
        [
            [int(c) for c in parse_cards("As 2d 7s Ah Kc 7d")],  # two pair 2 to 1, doubled; 7s push
            [int(c) for c in parse_cards("3c Qh 4d 9s 8h 2c")],  # nine high, queen high: lose
            [int(c) for c in parse_cards("Jd 6c 6d Jh 6h Js")],  # jacks full, sixes full: 10 to 1
        ],
        dtype=np.uint8,
    )
    nets, decided = _dds_fast(DDS, decks, 2, 500)
    assert nets.tolist() == [[2 * 2 * 500, 0], [-500, -500], [2 * 10 * 500, 2 * 10 * 500]]
    assert decided.sum(axis=0).tolist() == [3, 3]
    limit = DoubleDownConfig.from_mapping(JACKS_1000)  # $200 on a pair of jacks: $200,000 a wager
    jacks = np.array([[int(c) for c in parse_cards("Js 9c Jh 5c 2d")]], dtype=np.uint8)
    assert _dds_fast(limit, jacks, 1, 20_000)[0].tolist() == [[10_000_000]]  # $100,000 a hand


def test_double_down_decision_table_is_the_exact_expectation() -> None:
    """Each entry of the decision table is double_expectation over the 48 hidden cards, on the
    common scale of the odds (here 3 to 2 and 7 to 2: halves)."""
    config = DoubleDownConfig.from_mapping({"pay_table": HALVES})
    units = double_units(config)
    assert units is not None
    assert units[:4].tolist() == [-2, 0, 2000, 200]
    worth = double_table(config)
    rng = np.random.default_rng(7)
    for _ in range(300):
        own, *up = (int(c) for c in rng.choice(52, 4, replace=False))
        lo, mid, hi = sorted(up)
        slot = own * 22100 + int(BINOM[lo, 1] + BINOM[mid, 2] + BINOM[hi, 3])
        exact = double_expectation(Card(own), [Card(u) for u in up], [], config.pay_table)
        assert worth[slot] == exact * 48 * 2


def test_double_down_odds_too_fine_run_through_the_engine() -> None:
    """Odds whose common scale would overflow the compiled sums leave the fast path: the same
    simulation then plays every round through the engine, and says so."""
    fine = DoubleDownConfig.from_mapping({"pay_table": {"jacks or better": "999999 to 999983",
        "two pair": "999999 to 499979", "three of a kind": "999999 to 333331"}})  # fmt: skip
    assert double_units(fine) is None
    heard: list[str] = []
    result = simulate(fine, 40, seats=2, seed=3, log=heard.append)
    assert result.names == ["(engine path)"]
    assert heard
    assert "engine" in heard[0]
    assert result.tally.total == simulate(fine, 40, seats=2, seed=3, engine=True).tally.total


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


_warmed_in: list[int] = []
"""Processes in which :func:`_recording_runner` ran its one-round warm-up."""


def _recording_runner(job: Job, blocks: Sequence[int], progress: object) -> Tally:
    """A runner that notes the parent's one-round warm-up and reports, per block, whether the
    process running it had that note (a worker forked after it inherits it)."""
    if job.rounds == 1:
        _warmed_in.append(os.getpid())
    return Tally(checkpoints=[(b, len(_warmed_in)) for b in blocks])


@pytest.mark.skipif(sys.platform != "linux", reason="workers are forked on Linux only")
def test_workers_start_from_a_parent_that_has_run_one_round() -> None:
    """Issue 25: the pool's start-up is paid once.  The parent runs one round (loading what
    the workers need) before it forks them, and each worker starts with it done."""
    _warmed_in.clear()
    parent = os.getpid()
    parts = _run_pool(_recording_runner, Job(CONFIG, 500, 1, 1, 50_000), list(range(8)), 2, None)
    assert _warmed_in == [parent]
    assert sorted(c for part in parts for c in part.checkpoints) == [(b, 1) for b in range(8)]


def test_same_result_on_a_local_dask_cluster() -> None:
    from distributed import Client, LocalCluster

    local = simulate(CONFIG, 40_000, seed=5, workers=3)
    local_dds = simulate(DDS, 40_000, seats=2, seed=5, workers=3)
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        remote = simulate(CONFIG, 40_000, seed=5, workers=3, scheduler=cluster.scheduler_address)
        remote_dds = simulate(DDS, 40_000, seats=2, seed=5, workers=3,
                              scheduler=cluster.scheduler_address)  # fmt: skip
    assert (remote.tally.total, remote.tally.total_sq) == (local.tally.total, local.tally.total_sq)
    assert (remote_dds.tally.total, remote_dds.tally.total_sq) == (
        local_dds.tally.total,
        local_dds.tally.total_sq,
    )
    np.testing.assert_array_equal(remote_dds.tally.cells, local_dds.tally.cells)


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
    from felt.games.boston import analysis as games
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
    dds = simulate(DDS, 1200, seats=2, seed=1)
    dds_engine = simulate(DDS, 1200, seats=2, seed=1, engine=True)
    assert (dds.tally.total, dds.tally.total_sq) == (
        dds_engine.tally.total,
        dds_engine.tally.total_sq,
    )
    assert dds.names[:3] == ["lose", "push", "royal flush"]  # the fast path is the default
    assert dds_engine.names == ["(engine path)"]
    assert dds_engine.to_json()["doubles"] is None


def test_double_down_same_seed_same_result_whatever_the_workers() -> None:
    """Double Down Stud on the fast path: blocks seeded as Boston's, so local processes (each
    reading the decision table from the disk cache) give the same totals and counts."""
    one = simulate(DDS, 70_000, seats=3, seed=11)
    seen: list[tuple[int, int]] = []
    two = simulate(
        DDS, 70_000, seats=3, seed=11, workers=2, progress=lambda d, t: seen.append((d, t))
    )
    assert (one.tally.total, one.tally.total_sq) == (two.tally.total, two.tally.total_sq)
    np.testing.assert_array_equal(one.tally.cells, two.tally.cells)
    assert seen[-1] == (5, 5)
    assert one.tally.cells.sum() == 3 * 70_000
    assert one.exact_edge is None  # other areas' cards change the play: no exact figure


def test_double_down_observed_edge_near_exact() -> None:
    """One area on the fast path: the observed edge against analyze_double_down's exact one,
    and the outcome counts against the exact par sheet (each within four standard errors)."""
    from felt.games.double_down.analysis import analyze_double_down

    rounds = 400_000
    sheet = analyze_double_down(DDS)
    result = simulate(DDS, rounds, seed=2025)
    assert result.exact_edge == sheet.house_edge_ante
    assert result.half_width is not None
    assert abs(result.house_edge - float(result.exact_edge)) < 4 * result.half_width / 1.96
    out = result.to_json()
    assert out["within_ci"] is not None
    for outcome in sheet.outcomes:
        name = {"pair of fives or less": "lose", "pair of sixes to tens": "push"}.get(
            outcome.hand, outcome.hand
        )
        p = outcome.count / sheet.total
        seen = out["frequencies"].get(f"{name} / {outcome.decision}", 0.0)
        assert abs(seen - p) < 4 * (p * (1 - p) / rounds) ** 0.5 + 1e-9, (name, outcome.decision)


def test_double_down_decision_table_cached_and_a_tampered_cache_recomputed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The decision table is computed once per pay table and read back from a verified cache;
    an edited file is recomputed, never trusted."""
    from felt.games.double_down import simulation as sim

    monkeypatch.setenv("FELT_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(sim, "_DOUBLE_TABLES", {})
    built = double_table(DDS).copy()
    path = next(tmp_path.glob("dds-double-*.npz"))
    monkeypatch.setattr(sim, "_DOUBLE_TABLES", {})
    np.testing.assert_array_equal(double_table(DDS), built)  # read back
    with np.load(path) as data:
        stored = {k: data[k] for k in data.files}
    stored["worth"][0:1000] = 10**6
    np.savez(path, **stored)
    monkeypatch.setattr(sim, "_DOUBLE_TABLES", {})
    np.testing.assert_array_equal(double_table(DDS), built)


def test_simulate_double_down_cli(capsys: pytest.CaptureFixture[str]) -> None:
    """felt simulate double-down-stud runs the fast path by default, --engine the engine."""
    assert main(["simulate", "double-down-stud", "--rounds", "20000", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rounds"] == 20000
    assert 0.15 < data["doubles"] < 0.35
    assert "jacks or better / double" in data["frequencies"]
    argv = ["simulate", "double-down-stud", "--rounds", "60", "--seats", "2", "--seed", "4"]
    assert main([*argv, "--json"]) == 0
    fast = json.loads(capsys.readouterr().out)
    assert main([*argv, "--json", "--engine"]) == 0
    engine = json.loads(capsys.readouterr().out)
    assert fast["house_edge"] == engine["house_edge"]


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

    from felt.games.boston.simulation import exact_figures

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


def test_a_game_without_a_fast_path_plays_every_round_through_its_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19: the simulation needs of a game no fast path, only a round on a deck, its base
    wager and its suggested play (here Double Down Stud's, the base class dealing a whole deck
    and asking the game's ``suggest`` at every election)."""
    from felt.games.double_down import DoubleDownRound, suggest_double
    from felt.games.double_down.actions import DeclineCut, DoubleDown, PlaceBet, Stand
    from felt.games.double_down.game import DoubleDown as Game
    from felt.rounds.actions import Action
    from felt.rounds.round_core import RoundCore
    from felt.simulate import Simulation

    class EngineOnly(Simulation):
        def new_round(self, deck: tuple[Card, ...]) -> RoundCore:
            return DoubleDownRound(self.config, deck)

        def wagers(self, seat: int, ante: int) -> list[Action]:
            return [PlaceBet(seat, ante)]

    def suggest(self: Game, rnd: RoundCore, seat: int, election: str) -> Action:
        assert isinstance(rnd, DoubleDownRound)
        if election == "cut or decline":
            return DeclineCut(seat)
        return DoubleDown(seat) if suggest_double(rnd, seat) else Stand(seat)

    monkeypatch.setattr(Game, "simulation", lambda self, config: EngineOnly(self, config))
    monkeypatch.setattr(Game, "suggest", suggest)
    monkeypatch.setattr(Game, "seat_count", lambda self, config: config.areas)
    manual = DoubleDownConfig.from_mapping({"shuffling": "manual"})  # a cut offered every round
    result = simulate(manual, 300, seats=3, seed=6)
    assert result.names == ["(engine path)"]
    assert result.exact_edge is None
    assert result.tally.seat_rounds == 900
    assert result.tally.total == simulate(manual, 300, seats=3, seed=6).tally.total
    out = result.to_json()
    assert (out["game"], out["edition"], out["seats"]) == ("double-down-stud", "nj-19-47-17", 3)
    with pytest.raises(FeltError, match="--seats 1 to 7"):
        simulate(manual, 10, seats=8)
