"""The messages a push sends stay byte-identical (issue 25): seeded random Boston rounds are
played, at a table server and at the game alone, and every message every kind of watcher gets at
every state of every round is hashed, round by round; the hashes were recorded from the server's
messages before the views were made cheaper, so any change of a byte in any message fails here.

The rounds take every election (bonus exposed or declined, second wager or fold, a second wager
withdrawn, a Boston 7 discard or keep) and end every way (win, loss, push, fold, void for a
misdeal); the watchers are each seated player, a player who wagers at two seats, a player with
no seat, the dealer, the supervisor and a spectator with no account."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert

from felt.core.cards import ALL_CARDS, parse_cards
from felt.core.evaluator import HAND_SIZES, describe_five, evaluate
from felt.core.money import dollars
from felt.games.boston import actions as act
from felt.games.boston import view
from felt.games.boston.game import Boston
from felt.games.boston.round import Phase, Round
from felt.games.boston.table import Table
from felt.rounds.actions import Action, DecisionTimeout, Misdeal
from felt.rounds.seat_view import SeatSeen
from felt.rounds.shuffle import SeededShuffle
from felt.rounds.view_json import amount_json, other_json
from felt.server.app import message_text
from felt.server.auth import Account, create_account, log_in
from felt.server.host import TableHost, new_table_row
from felt.server.spec import TableSpec
from felt.server.store import Posting, Store, felt_tables, player_account
from felt.server.views import Shared
from tests.boston_helpers import table
from tests.test_boston_properties import CONFIGS  # the tables of the game-level rounds


def _election(rng: random.Random, rnd: Round, seat: int, what: str) -> Action:
    """A random election for ``seat``'s pending ``what``."""
    if what == "expose or decline":
        return rng.choice([act.Expose(seat), act.Decline(seat)])
    if what == "second or fold":
        return rng.choice([act.Second(seat), act.Second(seat), act.Fold(seat)])
    cards = list(rnd.seats[seat].cards)
    rng.shuffle(cards)
    return rng.choice([act.Keep(seat), act.Discard(seat, tuple(cards[:2]))])


def _game_round_states(seed: int) -> Iterator[Round]:
    """One seeded random round, yielded at each of its states (the same object, moved on)."""
    rng = random.Random(seed)
    game, edition, extra = CONFIGS[seed % len(CONFIGS)]
    config = table(game, edition, **extra)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    rnd = Round(config, tuple(deck), stub_count_due=False)
    yield rnd
    for seat in sorted(rng.sample(range(1, 7), rng.randint(1, 6))):
        ante = rng.choice([500, 1000, 2500, 100000])
        bonus = rng.choice([0, 0, 100, 500])
        rnd.apply(act.PlaceWagers(seat, ante, config.first_ratio * ante, bonus, player=f"p{seat}"))
        yield rnd
    if rng.randint(0, 15) == 0:
        rnd.apply(Misdeal(rng.randint(0, 5), seat=min(rnd.seats)))
        yield rnd
    for _ in range(200):
        if rnd.finished:
            break
        pending = rnd.pending()
        if not pending:
            rnd.advance()
        else:
            rnd.apply(_election(rng, rnd, *rng.choice(pending)))
            if rnd.phase is Phase.READY and rng.randint(0, 5) == 0:
                seconded = [s.number for s in rnd.seats_in_play() if s.decision == "second"]
                if seconded:
                    rnd.apply(act.Withdraw(rng.choice(seconded)))
        yield rnd


GAME_ROUNDS = 60
GAME_DIGEST = "99368ae009e66fcfb4c1a807957f816058e515e40c4bb9aa7cc981e512264f61"
"""The sha256 of every seat's JSON view (each seat, a seat with no hand and no seat's) at every
state of :data:`GAME_ROUNDS` rounds, as the views were built before they were made cheaper."""


def test_every_seats_view_of_random_rounds_is_as_recorded() -> None:
    game = Boston()
    digest = hashlib.sha256()
    for seed in range(GAME_ROUNDS):
        for rnd in _game_round_states(seed):
            for seat in range(7):
                digest.update(json.dumps(game.seat_view(rnd, seat)).encode())
    assert digest.hexdigest() == GAME_DIGEST


PLAYERS = ("ann", "bob", "cat", "dan", "eve")
"""The players: ann wagers at seat 1 (and 2, where a player may hold two), the others at one
seat each; eve never sits."""


def _server_table(work: Path, spec: TableSpec) -> tuple[TableHost, dict[str, Account]]:
    store = Store(f"sqlite:///{work / f'{spec.id}.db'}")
    store.migrate()
    with store.transaction() as conn:
        conn.execute(insert(felt_tables).values(**new_table_row(spec, "node-a")))
    host = TableHost(store, spec, "node-a")
    host.load()
    assert isinstance(host.table, Table)
    host.table.shuffler = SeededShuffle(f"views-{spec.id}")
    players = {}
    for name in PLAYERS:
        create_account(store, name, "player", f"{name}-password")
        _, who = log_in(store, name, f"{name}-password")
        with store.transaction() as conn:
            store.post(conn, f"cash:{name}", [Posting("cage", -10_000_000, "deposit"),
                                              Posting(player_account(who.id), 10_000_000, "deposit")])  # fmt: skip
        players[name] = who
    return host, players


SERVER_ROUNDS = 12
SERVER_DIGESTS: dict[str, list[str]] = {
    "b5": [
        "bf4b241dadb1edf18a41b6fdbd5923d40dd2b007cf4e133f17c0d449a2d841dc",
        "072bd010bd1034235facff8949654aa96223e448b3a30be05a3456d670a462ca",
        "f51104886ae80f3e9c0aaa4f60623fd3abb0355d5aaf4885f01f007df17cf6f4",
        "16df7f82f3ba269c4ff9994376ff0f40c2d3d689722735b7800d55e3e9d7537f",
        "5536638fdae5a545a1d4ef6c9c844b682842c8887ff573ed84201f6a854ecd48",
        "ba1da7a35306d8e15ce15142f9f5d70bd6612b8d4bfe8de6a06029856420723b",
        "f42e4f7c9aa6b518e9a1871dbcfd68caeb399ed8980e91d9196411c1226c575a",
        "b6dec3fb792cb27d2b038ead29628c1198eabc691b6d6d71260dfe43ff912ec2",
        "951373182a1d85dc096da914a28e12ed3aa28e31d805045efda5075b9d15e47e",
        "4046cd1f238637c2feb086102382d10fb02fafaa50fe3e074534ed027651ab69",
        "49daedee8678face3024943a58f2f342ce799c091ab2ed91f30106c2069773d9",
        "4e5edfb05693ee0efd2ab057170d06d7550bd0c473a337231dea51a708e87dc8",
    ],
    "b7": [
        "a107fc9bb820767e575b268355ed249ba94cddb124487dee0ad393d7ddd8aa15",
        "a107ef36eb0ce58e5e5dd764f9fadddc7325fa6110cf22451e8076e8969cb113",
        "f2ba1100b4091c06577e6c7930b97c922f692a6c5f6ecb9cb29f555ac96de972",
        "31f89abe06b0cb335fb03f1d8bb49f8bf51913a9f0a84058f908e2062a7546fb",
        "e76d7be5c7f25b170fa071ab2ae3238973893d1151e52bbfbf13891efe1f2b50",
        "5e8738fc870124e9ea45cda1a5861ade5ed2a0fb67c692de17c176d4dc14fc93",
        "5794858fae3f2938cc8ff136193fc9440f42ce00c9efe66aaa328f9198b0ab68",
        "8854c10d089ae47646a8707da3e38c2c27a1143816a8b197b46e46dfd523c931",
        "e54085de1b2cb7e41fd2ce4abc0ec53356b8680c814b594b7e292e3886c483fe",
        "0cd114244bd875c2bf593ef9f34a04adccbe1aa72334aa3e6d358c0d248435d2",
        "3191d6e00aa296bd6c2d42e67d15630937222902ccffa30001e1e2d3342a5b5e",
        "a08a1699ecaefc207964d766386d74ac6d8bea332abe79a283afd4012d9bf007",
    ],
}
"""Per table, per round: the sha256 of every watcher's message at each state of the round, each
built alone and built in one push (the two must also be equal), as recorded before the views
were made cheaper."""


def _messages(host: TableHost, watchers: list[Account | None], digest: Any) -> None:
    shared = Shared()
    together = [message_text(host.message_for(who, shared)) for who in watchers]
    alone = [message_text(host.message_for(who)) for who in watchers]
    assert together == alone
    for text in together:
        digest.update(text.encode())


def _server_rounds(host: TableHost, players: dict[str, Account]) -> list[str]:
    rng = random.Random(host.spec.id)
    seats = {1: "ann", 3: "bob", 4: "cat", 6: "dan"}
    if host.table.config.positions_per_player != 1:
        seats[2] = "ann"
    for seat, name in seats.items():
        host.sit(players[name], seat)
    watchers: list[Account | None] = [
        *players.values(), Account(900, "dealer1", "dealer"), Account(901, "boss", "supervisor"),
        None,
    ]  # fmt: skip
    out = []
    for number in range(SERVER_ROUNDS):
        digest = hashlib.sha256()
        host.start_round()
        _messages(host, watchers, digest)
        ratio = host.table.config.first_ratio
        for seat in sorted(rng.sample(sorted(seats), rng.randint(1, len(seats)))):
            ante = rng.choice([500, 1000, 2500])
            bonus = rng.choice([0, 0, 100, 500])
            who = players[seats[seat]]
            host.apply_now(
                act.PlaceWagers(seat, ante, ratio * ante, bonus), who, f"w{number}-{seat}"
            )
            _messages(host, watchers, digest)
        for step_number in range(200):
            rnd = host.round  # each action leaves a new round object in view
            assert isinstance(rnd, Round)
            if rnd.finished:
                break
            pending = sorted(rnd.pending())
            if not pending:
                step = host.game.dealer_step(host.table, rnd)
                assert step is not None
                host.apply_now(step, None)
            elif rng.randint(0, 9) == 0:
                host.apply_now(DecisionTimeout(pending[0][0]), None)
            else:
                seat, what = rng.choice(pending)
                action = _election(rng, rnd, seat, what)
                host.apply_now(action, players[seats[seat]], f"e{number}-{step_number}")
            _messages(host, watchers, digest)
        out.append(digest.hexdigest())
    return out


@pytest.mark.parametrize("spec", [
    TableSpec("b5", "boston5", edition="nj-19-47-24", settings={"decision_seconds": 20},
              pace_seconds=0.0, betting_seconds=3.0, between_rounds_seconds=0.2),
    TableSpec("b7", "boston7", edition="nj-13-69f-24",
              settings={"decision_seconds": 20, "positions_per_player": 2},
              pace_seconds=0.0, betting_seconds=3.0, between_rounds_seconds=0.2),
], ids=lambda s: s.id)  # fmt: skip
def test_every_watchers_message_of_random_rounds_is_as_recorded(
    spec: TableSpec, tmp_path: Path
) -> None:
    host, players = _server_table(tmp_path, spec)
    try:
        assert _server_rounds(host, players) == SERVER_DIGESTS[spec.id]
    finally:
        host.store.dispose()


def test_a_view_built_from_whats_remembered_equals_one_built_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Boston()
    for seed in range(0, GAME_ROUNDS, 3):
        for rnd in _game_round_states(seed):
            for seat in range(7):
                kept = game.seat_view(rnd, seat)  # after seat 0: from what seat 0's view kept
                monkeypatch.setattr(view, "_last", None)
                assert game.seat_view(rnd, seat) == kept


def test_what_all_seats_see_alike_is_built_once_a_state_of_a_round() -> None:
    rnd = next(r for r in _game_round_states(3) if r.seats)
    seen = view.table_seen(rnd)
    assert view.table_seen(rnd) is seen
    assert view.seat_view(rnd, 1).pending is seen.pending
    twin = rnd.copy()  # the same state, another round: its own
    assert view.table_seen(twin) is not seen
    assert view.table_seen(twin) == seen
    rnd.apply(act.PlaceWagers(6 if 6 not in rnd.seats else 5, 500, 500 * rnd.config.first_ratio))
    assert view.table_seen(rnd) != seen  # an event: built again


def test_a_seats_json_is_built_once_and_is_the_json_of_it() -> None:
    seen = SeatSeen(3, {"ante": 500}, parse_cards("2c As"), 5, "settled", "high card")
    assert seen.json is seen.json
    assert seen.json == other_json(seen, card_count=5, hand="high card")
    changed = replace(seen, cards=())
    assert changed.json["cards"] == []
    assert seen.json["cards"] == ["2c", "As"]


def test_a_hands_words_are_worded_once_and_are_describe_fives() -> None:
    rng = random.Random(25)
    for _ in range(500):
        value = evaluate(rng.sample(ALL_CARDS, rng.choice(HAND_SIZES)))
        words = value.describe()
        assert words == describe_five(value.best_five)
        assert value.describe() is words


def test_an_amount_written_from_whats_remembered_is_as_dollars_writes_it() -> None:
    rng = random.Random(20)
    for cents in [0, 1, -1, 99, -100, 100_000, *(rng.randint(-(10**9), 10**9) for _ in range(300))]:
        assert amount_json(cents) == dollars(cents)
        assert amount_json(cents) == dollars(cents)  # again, from the cache
