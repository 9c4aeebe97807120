"""Keno speed: grading one game of 1,000,000 straight tickets, grading one game of 100,000 way and
king tickets of many ways (targets: each under 1 s), and the exact analysis of the example rate
card (target: under 1 s).  Run with ``./dev bench keno_speed``.

Peers, measured in the same run on the same inputs, with the same results asserted:

- grading: felt's numpy grading (popcounts of bit masks, one matrix product per ticket shape)
  against a plain Python loop over the same tickets (``int.bit_count`` of the same masks, each
  way looked up and paid in turn).  The Python loop grades the straight tickets all, and the first
  10,000 way and king tickets; the ratio compares tickets per second.
- analysis: felt's analysis (catches of equal groups enumerated as multisets, ways counted by a
  programme over the groups) against the same distributions by every catch of every group and
  every way listed, for the same standard tickets.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import product
from math import comb

import numpy as np
from numpy.typing import NDArray

from felt.games.keno.analysis import analyze_ticket
from felt.games.keno.draw import draw_numbers
from felt.games.keno.exact import DRAWN, POOL
from felt.games.keno.grading import Shape, grade_shape, mask, pay_matrix, shape
from felt.games.keno.ratecard import RateCard, example_rate_card, example_rate_card_path
from felt.games.keno.tickets import Ticket, read_request
from felt.rounds.shuffle import SeededShuffle

STRAIGHT = 1_000_000
GROUPED = 100_000
PEER_GROUPED = 10_000


def timed(run: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = run()
    return time.perf_counter() - start, out


def verdict(took: float, target: float) -> str:
    return f"(target {target:.0f} s: {'met' if took < target else 'NOT MET'})"


def random_groups(rng: np.random.Generator, count: int, sizes: list[int]) -> NDArray[np.int64]:
    """``count`` tickets of disjoint groups of ``sizes``: tickets x numbers (1-80)."""
    keys = rng.random((count, POOL))
    return np.argsort(keys, axis=1)[:, : sum(sizes)].astype(np.int64) + 1


def masks(
    numbers: NDArray[np.int64], sizes: list[int]
) -> tuple[NDArray[np.uint64], NDArray[np.uint64]]:
    """Bit masks of each group of each ticket (vectorised build of :func:`mask`)."""
    lo = np.zeros((len(numbers), len(sizes)), dtype=np.uint64)
    hi = np.zeros_like(lo)
    start = 0
    for gi, size in enumerate(sizes):
        for col in range(start, start + size):
            n = numbers[:, col]
            low = n <= 64
            lo[low, gi] |= np.left_shift(np.uint64(1), (n[low] - 1).astype(np.uint64))
            hi[~low, gi] |= np.left_shift(np.uint64(1), (n[~low] - 65).astype(np.uint64))
        start += size
    return lo, hi


def python_grade(lo: NDArray[np.uint64], hi: NDArray[np.uint64], rates: NDArray[np.int64], sh: Shape,
                 draw: tuple[int, int], card: RateCard, count: int) -> list[int]:  # fmt: skip
    """The plain loop: for each ticket, each way's catch from the groups' popcounts, paid."""
    ways = [(list(np.nonzero(sh.incidence[:, w])[0]), int(sh.spots[w]), int(sh.condition[w]))
            for w in range(sh.incidence.shape[1])]  # fmt: skip
    los, his, rts = lo[:count].tolist(), hi[:count].tolist(), rates[:count].tolist()
    out = []
    for t in range(count):
        caught = [
            (a & draw[0]).bit_count() + (b & draw[1]).bit_count()
            for a, b in zip(los[t], his[t], strict=True)
        ]
        total = 0
        for groups, spots, cond in ways:
            total += card.payoff(spots, sum(caught[g] for g in groups), rts[t][cond])
        out.append(total)
    return out


def bench_straight(card: RateCard, rng: np.random.Generator, draw: tuple[int, int]) -> None:
    spots = list(card.pays)
    batches = []
    for i, s in enumerate(spots):
        per = STRAIGHT // len(spots) + (i < STRAIGHT % len(spots))
        numbers = random_groups(rng, per, [s])
        lo, hi = masks(numbers, [s])
        rates = rng.integers(1, 6, (per, 1)) * card.minimum_wager
        batches.append((lo, hi, rates, shape((s,), (s,), True)))
    total = sum(len(b[0]) for b in batches)
    table = pay_matrix(card)
    took, paid = timed(
        lambda: [grade_shape(lo, hi, r, sh, draw, card, table) for lo, hi, r, sh in batches]
    )
    peer, listed = timed(
        lambda: [python_grade(lo, hi, r, sh, draw, card, len(lo)) for lo, hi, r, sh in batches]
    )
    assert [p.tolist() for p in paid] == listed  # type: ignore[attr-defined]
    print(f"grade {total:,} straight tickets (1-15 spots, $1-$5): {took:.3f} s, "
          f"{total / took:,.0f} tickets/s {verdict(took, 1.0)}")  # fmt: skip
    print(f"  peer, plain Python loop over the same masks: {peer:.3f} s, {total / peer:,.0f} tickets/s; "
          f"numpy is {peer / took:.1f}x faster")  # fmt: skip


GROUPED_SHAPES = [
    ("way", [2] * 8, ["70/8"]),  # eight pairs, every four of them: a 70-way 8-spot
    ("king", [1] * 6 + [4, 4], ["18/5", "31/6", "40/7", "31/8"]),  # six kings and two fours
]


def bench_grouped(card: RateCard, rng: np.random.Generator, draw: tuple[int, int]) -> None:
    batches = []
    ways = 0
    for kind, sizes, conditions in GROUPED_SHAPES:
        request = {"kind": kind, "groups": [list(range(1 + 10 * i, 1 + 10 * i + g)) for i, g in enumerate(sizes)],
                   "conditions": conditions, "rate": "1.00"}  # fmt: skip
        t: Ticket = read_request(request, card)
        sh = shape(t.sizes, tuple(c.spots for c in t.conditions), t.single)
        count = GROUPED // len(GROUPED_SHAPES)
        lo, hi = masks(random_groups(rng, count, sizes), sizes)
        rates = rng.integers(1, 3, (count, len(conditions))) * card.minimum_wager
        batches.append((lo, hi, rates, sh))
        ways += count * t.ways
        print(
            f"  {count:,} {kind} tickets {t.conditioning} (groups {'+'.join(map(str, sizes))}), {t.ways} ways each"
        )
    table = pay_matrix(card)
    took, paid = timed(
        lambda: [grade_shape(lo, hi, r, sh, draw, card, table) for lo, hi, r, sh in batches]
    )
    per = PEER_GROUPED // len(batches)
    peer, listed = timed(
        lambda: [python_grade(lo, hi, r, sh, draw, card, per) for lo, hi, r, sh in batches]
    )
    assert [p[:per].tolist() for p in paid] == listed  # type: ignore[attr-defined]
    print(f"grade {GROUPED:,} way and king tickets ({ways:,} ways): {took:.3f} s, "
          f"{GROUPED / took:,.0f} tickets/s, {ways / took:,.0f} ways/s {verdict(took, 1.0)}")  # fmt: skip
    print(f"  peer, plain Python loop over the first {PEER_GROUPED:,} of them: {peer:.3f} s, "
          f"{PEER_GROUPED / peer:,.0f} tickets/s; numpy is {(PEER_GROUPED / peer) ** -1 * GROUPED / took:.1f}x faster")  # fmt: skip


def brute_distribution(card: RateCard, t: Ticket) -> dict[int, int]:
    """One game's payout distribution by every catch of every group and every way listed."""
    sizes = t.sizes
    ways = []
    for c in t.conditions:
        for w in range(shape(sizes, (c.spots,), t.single).incidence.shape[1]):
            ways.append(
                (
                    np.nonzero(shape(sizes, (c.spots,), t.single).incidence[:, w])[0].tolist(),
                    c.spots,
                    c.rate,
                )
            )
    out: dict[int, int] = {}
    marked = sum(sizes)
    for caught in product(*[range(min(g, DRAWN) + 1) for g in sizes]):
        k = sum(caught)
        if k > DRAWN:
            continue
        draws = comb(POOL - marked, DRAWN - k)
        for g, got in zip(sizes, caught, strict=True):
            draws *= comb(g, got)
        amount = sum(card.payoff(s, sum(caught[i] for i in groups), r) for groups, s, r in ways)
        if card.aggregate_limit is not None:
            amount = min(amount, card.aggregate_limit)
        out[amount] = out.get(amount, 0) + draws
    return dict(sorted(out.items()))


def bench_analysis() -> None:
    import tomllib

    data = tomllib.loads(example_rate_card_path().read_text(encoding="utf-8"))
    took, card = timed(lambda: RateCard.from_mapping(data))  # loading analyses every ticket
    assert isinstance(card, RateCard)
    analysis = card.analysis
    worst = analysis.worst
    print(f"exact analysis of the example rate card ({len(analysis.tickets)} tickets), read, "
          f"checked and analysed: {took:.3f} s {verdict(took, 1.0)}")  # fmt: skip
    print(f"  highest house advantage {float(worst.house_advantage) * 100:.4f}% ({worst.label}); "
          f"exact {worst.house_advantage}")  # fmt: skip
    singles = [t.ticket for t in analysis.tickets if t.ticket.games == 1]
    mine, exact = timed(lambda: [analyze_ticket(card, t).payouts for t in singles])
    peer, listed = timed(lambda: [brute_distribution(card, t) for t in singles])
    assert exact == listed
    print(f"  the {len(singles)} one-game distributions: felt {mine:.3f} s; peer, every catch of "
          f"every group with the ways listed, {peer:.3f} s (felt takes {mine / peer:.2f}x the peer's time)")  # fmt: skip
    kings = read_request({"kind": "king", "groups": [[n] for n in range(1, 13)], "conditions": ["792/5"],
                          "rate": "1.00"}, card)  # fmt: skip
    mine, exact = timed(lambda: analyze_ticket(card, kings).payouts)
    peer, listed = timed(lambda: brute_distribution(card, kings))
    assert exact == listed
    print(f"  a twelve-king ticket 792/5: felt {mine * 1000:.2f} ms; the same peer {peer:.3f} s "
          f"(felt is {peer / mine:,.0f}x faster: twelve kings are one group of exchangeable spots)")  # fmt: skip


def main() -> None:
    card = example_rate_card()
    rng = np.random.default_rng(12)
    draw = mask(draw_numbers(SeededShuffle(12)))
    bench_straight(card, rng, draw)
    bench_grouped(card, rng, draw)
    bench_analysis()


if __name__ == "__main__":
    main()
