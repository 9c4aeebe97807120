"""Plots (matplotlib, drawn off-screen to PNG): presentation only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from felt.core.errors import FeltError

if TYPE_CHECKING:
    from felt.analysis.parsheet import ParSheet
    from felt.simulate import SimResult


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: object, path: str) -> None:
    if not path.lower().endswith(".png"):
        raise FeltError(f"--plot needs a .png file name, got {path!r}")
    try:
        fig.savefig(path, dpi=110, bbox_inches="tight")  # type: ignore[attr-defined]
    except OSError as err:
        raise FeltError(f"cannot write {path!r}: {err.strerror}") from None


def convergence_plot(result: SimResult, path: str) -> None:
    """The running estimate of the house edge per ante against the exact value."""
    from felt.simulate import BLOCK

    plt = _pyplot()
    rounds, totals, done, total = [], [], 0, 0
    for _, block_total in result.tally.checkpoints:
        done += min(BLOCK, result.tally.rounds - done)
        total += block_total
        rounds.append(done)
        totals.append(-total / (done * result.job.seats * result.job.ante) * 100)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(rounds, totals, label="simulated")
    if result.exact_edge is not None:
        ax.axhline(float(result.exact_edge) * 100, color="k", linestyle="--", label="exact")
    ax.set_xscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("house edge per ante (%)")
    ax.legend()
    _save(fig, path)
    plt.close(fig)


def distribution_plot(sheet: ParSheet, path: str) -> None:
    """The probability of each net result of a round (log scale)."""
    plt = _pyplot()
    by_net: dict[float, float] = {}
    for o in sheet.outcomes:
        by_net[float(o.net)] = by_net.get(float(o.net), 0.0) + float(sheet.probability(o))
    nets = sorted(by_net)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(range(len(nets)), [by_net[n] for n in nets])
    ax.set_xticks(range(len(nets)), [f"{n:g}" for n in nets], rotation=90)
    ax.set_yscale("log")
    ax.set_xlabel(f"net result ({sheet.base_wager}s)")
    ax.set_ylabel("probability")
    ax.set_title(sheet.title, fontsize=9)
    _save(fig, path)
    plt.close(fig)
