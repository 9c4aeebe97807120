"""Poker hands per second (``felt.games.poker``): whole 6-seat tables of bots playing through felt's
PokerHand (every card dealt by felt, every action verified, recorded and its chips checked after
every step), the rake per hand they leave; then the same hands replayed twice, timed beside a peer
measured in the same run doing the same job with less: felt's ``PokerHand.replay`` (verify, apply,
record an event per action; felt awards the pots and takes the rake itself) against bare PokerKit
0.7.7 (the same state felt builds, the same cards and the same betting calls, no checks, no
events, PokerKit pushing the chips).  The ratio printed is felt's time over PokerKit's; the bench
checks each bare hand ends and that its pots came to felt's.  Run with ``./dev bench
poker_hands``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import pokerkit
from _fast_path import shortest

from felt.core.cards import Card, new_deck
from felt.games.poker import hand as h
from felt.games.poker.config import PokerConfig
from felt.games.poker.engine import new_state, pk_card
from felt.games.poker.simulation import bots, dealer_step, run_table
from felt.rounds.actions import Action
from felt.rounds.shuffle import SeededShuffle

SEED = 20261127
HANDS = 300
SEATS = 6
TABLES: dict[str, dict[str, Any]] = {
    "hold'em 2/4 fixed": {},
    "hold'em 1/2 no limit": {"limit": "no"},
    "Omaha 1/2 pot limit": {"variant": "omaha", "limit": "pot"},
    "seven-card stud 2/4": {"variant": "stud7", "ante": "0.25", "bring_in": "0.50"},
}


@dataclass(frozen=True)
class Played:
    """One hand as played: what replays it, and its pots when the award came."""

    start: dict[int, int]
    button: int
    deck: tuple[Card, ...]
    actions: tuple[Action, ...]
    texts: tuple[str, ...]
    pots: int


def record(config: PokerConfig) -> list[Played]:
    """HANDS hands among SEATS bots, each from a fresh deck and deep stacks, as played."""
    shuffle = SeededShuffle(f"bench:{SEED}")
    decide = bots(SEED)
    out = []
    stacks = dict.fromkeys(range(1, SEATS + 1), config.max_buy_in)
    for n in range(HANDS):
        hand = h.PokerHand(config, stacks, n % SEATS + 1, shuffle.shuffle(new_deck()))
        pots = 0
        while hand.status == "playing":
            step = dealer_step(hand)
            if isinstance(step, h.Award):
                pots = sum(amount for amount, _ in hand.pots())
            seat = hand.to_act()
            hand.do(step if step is not None else decide(hand, seat or 0))
        out.append(Played(dict(hand.start), hand.button, hand.first_deck, tuple(hand.actions),
                          tuple(e.text for e in hand.events), pots))  # fmt: skip
    return out


def felt_replay(config: PokerConfig, hands: list[Played]) -> None:
    """Every hand rebuilt by PokerHand.replay (verified, applied, recorded)."""
    for p in hands:
        h.PokerHand.replay(config, p.start, p.button, p.deck, p.actions)


def bare(config: PokerConfig, p: Played) -> tuple[pokerkit.State, int]:
    """The same hand on bare PokerKit: the same state, cards and betting calls; the state at
    its end and its pots when the award came."""
    order = sorted(p.start)
    if config.blinds:
        order = [s for s in order if s > p.button] + [s for s in order if s <= p.button]
    state = new_state(config, [p.start[s] for s in order])
    cards = iter(p.deck)
    pots = 0
    for action, text in zip(p.actions, p.texts, strict=True):
        match action:
            case h.Burn():
                state.burn_card(pk_card(next(cards)))
            case h.DealHole():
                card = next(cards)
                if "folded position" not in text:  # 14.15(e): felt deals it dead, PokerKit not
                    state.deal_hole(pk_card(card))
            case h.DealBoard():
                count = state.board_dealing_count or 0
                state.deal_board([pk_card(next(cards)) for _ in range(count)])
            case h.Fold():
                state.fold()
            case h.Check() | h.Call():
                state.check_or_call()
            case h.Bet() | h.RaiseTo():
                state.complete_bet_or_raise_to(action.amount)
            case h.BringIn():
                state.post_bring_in()
            case h.AllIn():
                if "all in to" in text:
                    state.complete_bet_or_raise_to(
                        state.max_completion_betting_or_raising_to_amount
                    )
                else:
                    state.check_or_call()
            case h.Award():
                pots = sum(int(pot.amount) for pot in state.pots)
                while state.status:
                    if state.can_push_chips():
                        state.push_chips()
                    elif state.can_pull_chips():
                        state.pull_chips()
                    else:
                        break
    return state, pots


def bare_replay(config: PokerConfig, hands: list[Played]) -> None:
    for p in hands:
        bare(config, p)


def main() -> None:
    import warnings

    warnings.simplefilter("ignore")  # PokerKit warns of uncommon states; felt's hand does too
    print(f"poker: {HANDS} hands a table, {SEATS} bots, seed {SEED}")
    for name, settings in TABLES.items():
        config = PokerConfig.from_mapping(settings)
        run = run_table(config, HANDS, SEATS, SEED)
        assert run.conserved
        hands = record(config)
        for p in hands:
            state, pots = bare(config, p)
            assert not state.status, "a bare PokerKit hand did not end"
            assert pots == p.pots, "bare PokerKit's pots are not felt's"
            assert sum(state.stacks) == sum(p.start.values()), "bare PokerKit lost chips"
        felt_t = shortest(partial(felt_replay, config, hands), 3)
        bare_t = shortest(partial(bare_replay, config, hands), 3)
        steps = sum(len(p.actions) for p in hands)
        print(f"{name}: table of bots {run.hands_per_second:,.0f} hands/s "
              f"({run.steps / run.seconds:,.0f} steps/s, chips checked every step), rake "
              f"{float(run.rake_per_hand) / 100:.2f} a hand ({sum(1 for r in run.rakes if r)} of "
              f"{run.hands} raked)")  # fmt: skip
        print(f"  replay of the same {HANDS} hands ({steps:,} actions): felt PokerHand "
              f"{HANDS / felt_t:,.0f} hands/s, bare PokerKit {HANDS / bare_t:,.0f} hands/s; "
              f"felt / PokerKit time {felt_t / bare_t:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
