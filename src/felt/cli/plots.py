"""Plots (matplotlib, drawn off-screen to PNG): presentation only."""

from __future__ import annotations

from pathlib import Path
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
    """The running estimate of the house edge per ante against the exact value, with the 95%
    confidence band around the exact value (half-width 1.96 sd / sqrt(n), narrowing as rounds
    accumulate; the sd is the simulation's own sample standard deviation per round)."""
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
    half = result.half_width
    centre = float(result.exact_edge) * 100 if result.exact_edge is not None else None
    if centre is not None:
        ax.axhline(centre, color="k", linestyle="--", label=f"exact {centre:.4f}%")
    if half is not None and rounds:
        # The band of the estimate after n rounds: the final half-width scaled by sqrt(N / n),
        # around the exact value (or, without one, around the final estimate).
        mid = centre if centre is not None else result.house_edge * 100
        widths = [half * 100 * (result.tally.rounds / n) ** 0.5 for n in rounds]
        ax.fill_between(rounds, [mid - w for w in widths], [mid + w for w in widths],
                        color="tab:blue", alpha=0.15, label="95% confidence band")  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlabel("rounds")
    ax.set_ylabel("house edge per ante (%)")
    ax.legend()
    _save(fig, path)
    plt.close(fig)


def beside(path: str, name: str) -> str:
    """The path of a further plot named ``name`` beside ``path``.

    >>> beside("out/sheet.png", "progressive")
    'out/sheet-progressive.png'
    """
    p = Path(path)
    return str(p.with_name(f"{p.stem}-{name}{p.suffix}"))


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
    edge = sheet.house_edge_ante
    ax.set_title(
        f"{sheet.title}\nexact house edge per {sheet.base_wager}: {float(edge) * 100:.4f}%"
        f" ({edge.numerator}/{edge.denominator})",
        fontsize=9,
    )
    _save(fig, path)
    plt.close(fig)
