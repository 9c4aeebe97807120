"""Boston simulation: the fast path's rounds per second on one core (target for Boston 5: 2
million), the round engine's rate on the same decks (the peer, measured in the same run), and 10
million rounds against the exact house edge, for Boston 5 and Boston 7 (whose exact figure comes
from counting, so this is an independent check of it). Run with ``./dev bench simulate_speed``."""

from __future__ import annotations

import time

from felt.games.boston.config import TableConfig
from felt.games.boston.simulation import _prepare
from felt.simulate import Job, deal_decks, engine_nets, simulate


def main() -> None:
    for game in ("boston5", "boston7"):
        config = TableConfig.from_mapping({"game": game})
        simulate(config, 1 << 14, seed=0)  # compile and analyse before timing
        rounds = 10_000_000
        start = time.perf_counter()
        result = simulate(config, rounds, seats=1, seed=20261125)
        fast = rounds / (time.perf_counter() - start)
        *_, raise_table = _prepare(Job(config, config.minimum, 1, 0, 1))
        hand = 7 if game == "boston7" else 5
        decks = deal_decks(1, 2000, 2 * hand)
        start = time.perf_counter()
        engine_nets(config, decks, 1, raise_table)
        engine = len(decks) / (time.perf_counter() - start)
        data = result.to_json()
        lo, hi = data["ci95"]
        target = (
            ""
            if game == "boston7"
            else f" (target 2,000,000: {'met' if fast >= 2e6 else 'NOT MET'})"
        )
        print(f"{game} fast path, one core        {fast:>14,.0f} rounds/s{target}")
        print(
            f"{game} round engine, same decks   {engine:>14,.0f} rounds/s (fast path is {fast / engine:,.0f}x)"
        )
        print(f"{game} 10,000,000 rounds: house edge {data['house_edge'] * 100:.4f}%, 95% CI [{lo * 100:.4f}%, {hi * 100:.4f}%], "
              f"exact {data['exact_house_edge'] * 100:.4f}%: {'inside' if data['within_ci'] else 'OUTSIDE'}")  # fmt: skip


if __name__ == "__main__":
    main()
