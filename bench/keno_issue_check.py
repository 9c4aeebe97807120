"""Keno's 15.3(e) check at issue (felt.games.keno.advantage.check_issue): how long the writer's
station waits for the house advantage of one ticket at the minimum wager (target: under 50 ms
per check, the worst case the example card allows).  Run with ``./dev bench keno_issue_check``.

Every check is timed uncached (a new form each time, as the first ticket of its form at the
station; a form seen before is answered from the card's cache).  The worst case is found, not
guessed: every one of the card's 377 many-way forms (n kings comb(n, s)/s, k equal groups
comb(k, j)/(j*g), within its 2,500 ways) is checked and the three that take the most search
nodes are timed, beside the audit's
14-king 2002/9 ticket and a ticket of many unequal groups that the check cannot decide within its
bound of work (the longest any check can take: it is refused when the bound is reached).  Then
the combination tickets whose player lists the combinations (15.2(c)4), where a node of the
search works on every way listed: the review's worst cases, 14 groups of 2 with the first 1,000
four-group combinations (1000/8) and 12 groups of 2 with every three- and four-group combination
(220/6 495/8), and the latter less one combination (220/6 494/8), which no longer plays every
way.

Peer, measured in the same run on the same tickets, with the same exact figure asserted: the
full enumeration felt already had (felt.games.keno.analysis.analyze_ticket: every catch pattern
of the groups, ways counted per pattern, the whole payout distribution); the ratio compares the
time of one check.  A list of every way is the same bet as the ticket without it, so its peer
is that ticket's full enumeration; for other lists the bench runs no peer: felt's enumeration
plays every combination, not those chosen, and a brute force over every catch pattern (531,441
or 4,782,969 for 12 or 14 groups) times the ways listed would take minutes.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from felt.games.keno.advantage import (
    CHOSEN_NODE,
    CHOSEN_WAYS,
    ISSUE_WORK,
    Advantage,
    advantage_of,
    many_way_forms,
)
from felt.games.keno.analysis import analyze_ticket
from felt.games.keno.ratecard import RateCard, example_rate_card
from felt.games.keno.tickets import Ticket, groups_of, read_request

TARGET = 0.050
REPEAT = 5


def best_of(run: Callable[[], Any], repeat: int = REPEAT) -> tuple[float, Any]:
    """The median time of ``repeat`` runs, and the last result."""
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def check(card: RateCard, t: Ticket) -> Advantage:
    """One check at issue, uncached."""
    return advantage_of(card, t, exact=False, budget=ISSUE_WORK)


def request(kind: str, sizes: list[int], conditioning: str) -> dict[str, Any]:
    return {"kind": kind, "groups": groups_of(sizes), "conditions": conditioning.split(),
            "rate": "1.00"}  # fmt: skip


def chosen(sizes: list[int], ways: Sequence[tuple[int, ...]]) -> dict[str, Any]:
    """A combination request listing ``ways`` (0-based group indices), conditioned as listed."""
    made: dict[int, int] = {}
    for w in ways:
        spots = sum(sizes[i] for i in w)
        made[spots] = made.get(spots, 0) + 1
    return {"kind": "combination", "groups": groups_of(sizes), "rate": "1.00",
            "conditions": [f"{n}/{s}" for s, n in sorted(made.items())],
            "combinations": [[i + 1 for i in w] for w in ways]}  # fmt: skip


def line(name: str, took: float, a: Advantage) -> str:
    verdict = "issued" if a.complies else "refused"
    return (f"  {name}: {took * 1000:.2f} ms, {a.nodes:,} search nodes, {a.work:,} units, "
            f"{a.figure}, {verdict} "
            f"(target {TARGET * 1000:.0f} ms: {'met' if took < TARGET else 'NOT MET'})")  # fmt: skip


def main() -> None:
    card = example_rate_card()
    start = time.perf_counter()
    forms = many_way_forms(card)
    scan = time.perf_counter() - start
    above = sum(not f.advantage.complies for f in forms)
    print(f"15.3(e) at issue, example rate card: {len(forms)} many-way forms checked exactly in "
          f"{scan:.2f} s ({above} above 30%)")  # fmt: skip
    tickets = [read_request(request(f.kind, list(f.sizes), f.conditioning), card) for f in forms]
    work = sorted(((check(card, t).nodes, i) for i, t in enumerate(tickets)), reverse=True)
    slow = [tickets[i] for _, i in work[:3]]
    cases = [(f"most work of the many-way forms: {t.kind} {t.conditioning} "
              f"(groups of {t.sizes[0]})", t) for t in slow]  # fmt: skip
    kings14 = read_request(request("king", [1] * 14, "2002/9"), card)
    cases.append(("the audit's 14-king 2002/9", kings14))
    for name, t in cases:
        took, a = best_of(functools.partial(check, card, t))
        print(line(name, took, a))
        peer, full = best_of(functools.partial(analyze_ticket, card, t), 3)
        exact = advantage_of(card, t).house_advantage
        assert full.house_advantage == exact, name
        print(f"    peer, full enumeration of every catch pattern: {peer * 1000:.2f} ms, same "
              f"exact figure; check/peer time ratio {took / peer:.3f}")  # fmt: skip
    mixed = read_request(
        request("combination", [2, 3, 3, 4, 4, 5, 6, 7], "9/9 9/10 6/7 14/15"), card
    )
    took, a = best_of(lambda: check(card, mixed), 3)
    print(line("undecidable within the bound (combination of 8 unequal groups, 38 ways)",
               took, a))  # fmt: skip
    print(f"    the longest a check can take: it stops at {ISSUE_WORK:,} units of search (a node "
          "over equal groups counts two plus the ticket's conditions)")  # fmt: skip
    print("Combinations the player chose (15.2(c)4): a node counts "
          f"{CHOSEN_NODE} plus one per {CHOSEN_WAYS} ways listed")  # fmt: skip
    fourteen = list(combinations(range(14), 4))[:1000]
    every = [*combinations(range(12), 3), *combinations(range(12), 4)]
    listed = [
        ("14 groups of 2, the first 1,000 four-group combinations (1000/8)",
         chosen([2] * 14, fourteen), None),
        ("12 groups of 2, every three- and four-group combination (220/6 495/8)",
         chosen([2] * 12, every), request("combination", [2] * 12, "220/6 495/8")),
        ("12 groups of 2, the same less 9+10+11+12 (220/6 494/8)",
         chosen([2] * 12, every[:-1]), None),
    ]  # fmt: skip
    for name, raw, same in listed:
        t = read_request(raw, card)
        took, a = best_of(functools.partial(check, card, t))
        print(line(name, took, a))
        if same is None:
            print("    peer: none run (a list of chosen combinations: see the docstring)")
            continue
        plain = read_request(same, card)
        peer, full = best_of(functools.partial(analyze_ticket, card, plain), 3)
        assert full.house_advantage == a.house_advantage, name
        print(f"    peer, full enumeration of the same ticket without the list: {peer * 1000:.2f} "
              f"ms, same exact figure; check/peer time ratio {took / peer:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
