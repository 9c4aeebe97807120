"""The wager form offers exactly what the server accepts (issue 20, item 4).

Two verdicts on the same wager, derived independently: the layout's (:func:`layout_refusal`
reads only ``TableGame.layout(config)``, as the browser's form does) and the engine's (the
action read by the game and checked by a real round of the table).  They must agree on amounts
just inside and just outside every limit and step, and on random amounts (hypothesis).  The
limits themselves are held to the table's configuration, and the amounts the decision buttons
state to the wagers the round then places.  The balance, which only the server's ledger knows
(13:69O-1.4(h)), is checked against a running server."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from felt.core.errors import FeltError
from felt.games.registry import table_game
from felt.rounds.round_core import RoundCore
from felt.server.spec import TableSpec
from tests.server_helpers import Harness, database_url, harness

__all__ = ["database_url"]  # the fixture, imported for pytest

TABLES: list[tuple[str, dict[str, Any], str | None]] = [
    ("boston5", {}, None),
    (
        "boston5",
        {"minimum": "10", "maximum": "200", "bonus_minimum": "2", "bonus_maximum": "25"},
        None,
    ),
    ("boston7", {"minimum": "25", "maximum": "2500", "first_ratio": 1}, "nj-13-69f-24"),
    ("boston7", {}, None),
    ("double-down-stud", {}, None),
    ("double-down-stud", {"minimum": "2.50", "maximum": "100", "double_down": "up-to"}, None),
    ("three-card-poker", {}, None),
    (
        "three-card-poker",
        {"minimum": "10", "maximum": "250", "pair_plus_minimum": "1", "pair_plus_maximum": "50"},
        None,
    ),
    ("three-card-poker", {"pair_plus": False}, None),
]
"""Tables of every game at their minimum settings and at others."""
SEAT = 2


def table_of(game_id: str, settings_: dict[str, Any], edition: str | None) -> tuple[Any, Any]:
    """The game and the configuration of a table."""
    game = table_game(game_id)
    return game, game.config(game_id, settings_, edition=edition)


def as_cents(text: str) -> Decimal:
    """A dollar string in cents, exactly (a fraction of a cent stays one)."""
    return Decimal(text) * 100


def layout_refusal(w: dict[str, Any], sent: dict[str, Any], balance: int | None = None) -> str | None:  # fmt: skip
    """Why the wager form (the layout's ``wager``, as TableGame.layout documents it) would not
    offer ``sent`` (the action's JSON), or None when it would; ``balance`` in cents."""
    spots = {s["field"]: s for s in w["spots"]}
    extra = set(sent) - set(spots) - {"action", "seat"}
    if extra:
        return f"no spot {sorted(extra)}"
    amount = {f: as_cents(str(sent.get(f, "0"))) for f in spots}
    for f, s in spots.items():
        a = amount[f]
        if "follows" in s:
            if f not in sent or a != s["times"] * amount[s["follows"]]:
                return f"{f} must be {s['times']} x {s['follows']}"
            continue
        if a == 0:
            if not s.get("optional"):
                return f"{f} is required"
            continue
        if not as_cents(s["minimum"]) <= a <= as_cents(s["maximum"]):
            return f"{f} outside its limits"
        if a % as_cents(s["step"]):
            return f"{f} off its step"
    if not any(amount.values()):
        return "nothing placed"
    if balance is not None and sum(amount.values()) > balance:
        return "over the balance"
    return None


def engine_accepts(game: Any, config: Any, sent: dict[str, Any]) -> bool:
    """Whether a new round of a table of ``config`` takes ``sent`` as the game reads it."""
    try:
        action = game.parse_action(json.loads(json.dumps(sent)), "wager")
    except FeltError:
        return False
    rnd: RoundCore = game.new_table(config).new_round()
    return rnd.can(action)


def valid_base(w: dict[str, Any]) -> dict[str, Decimal]:
    """A wager the form offers: every spot not optional at its minimum (the first such if all
    are optional), following spots as they follow."""
    base: dict[str, Decimal] = {}
    chosen = [s for s in w["spots"] if "follows" not in s]
    required = [s for s in chosen if not s.get("optional")] or chosen[:1]
    for s in required:
        base[s["field"]] = as_cents(s["minimum"])
    return base


def sent_of(w: dict[str, Any], amounts: dict[str, Decimal]) -> dict[str, Any]:
    """The action's JSON for chosen ``amounts`` (cents), following spots filled in as the form
    fills them."""
    sent: dict[str, Any] = {"action": w["action"], "seat": SEAT}
    for s in w["spots"]:
        if "follows" in s:
            sent[s["field"]] = str(s["times"] * amounts.get(s["follows"], Decimal(0)) / 100)
        elif s["field"] in amounts:
            sent[s["field"]] = str(amounts[s["field"]] / 100)
    return sent


def limits_of(config: Any, field: str) -> tuple[int, int]:
    """A spot's limits as the table's configuration holds them (the oracle of the layout's)."""
    pairs = {"ante": ("minimum", "maximum"), "amount": ("minimum", "maximum"),
             "bonus": ("bonus_minimum", "bonus_maximum"),
             "pair_plus": ("pair_plus_minimum", "pair_plus_maximum")}  # fmt: skip
    lo, hi = pairs[field]
    return int(getattr(config, lo)), int(getattr(config, hi))


@pytest.mark.parametrize(("game_id", "settings_", "edition"), TABLES)
def test_amounts_either_side_of_every_limit_and_step_get_one_verdict(
    game_id: str, settings_: dict[str, Any], edition: str | None
) -> None:
    game, config = table_of(game_id, settings_, edition)
    w = game.layout(config)["wager"]
    base = valid_base(w)
    assert layout_refusal(w, sent_of(w, base)) is None
    assert engine_accepts(game, config, sent_of(w, base))
    tried = 0
    for s in w["spots"]:
        if "follows" in s:
            continue
        lo, hi = limits_of(config, s["field"])
        assert as_cents(s["minimum"]) == lo
        assert as_cents(s["maximum"]) == hi
        assert s["step"] == "0.01"  # every game takes whole cents (felt.core.money.cents)
        low, high = Decimal(lo), Decimal(hi)
        cases = {low - 1: False, low: True, low + 1: True, high - 1: True, high: True,
                 high + 1: False, low + Decimal("0.5"): False, high - Decimal("0.1"): False}  # fmt: skip
        for amount, inside in cases.items():
            sent = sent_of(w, {**base, s["field"]: amount})
            layout_ok = layout_refusal(w, sent) is None
            assert layout_ok is inside, (s["field"], amount, layout_refusal(w, sent))
            assert engine_accepts(game, config, sent) is inside, (s["field"], amount)
            tried += 1
    # a following spot other than the times it follows is refused both ways
    for s in w["spots"]:
        if "follows" in s:
            sent = sent_of(w, base)
            sent[s["field"]] = str(as_cents(sent[s["field"]]) / 100 + Decimal("0.01"))
            assert layout_refusal(w, sent) is not None
            assert not engine_accepts(game, config, sent)
    # nothing at all is never a wager
    empty = {"action": w["action"], "seat": SEAT}
    assert layout_refusal(w, empty) is not None
    assert not engine_accepts(game, config, empty)
    assert tried >= 8


def _amount(limit: tuple[int, int]) -> st.SearchStrategy[Decimal | None]:
    """None (the spot left empty) or an amount around and between ``limit`` (cents), sometimes
    with a fraction of a cent."""
    lo, hi = limit
    cents_ = st.one_of(st.integers(-2, hi * 2 + 2), st.sampled_from([lo - 1, lo, hi, hi + 1, 0]))
    tenths = st.integers(0, 9).map(lambda t: Decimal(t) / 10)
    whole = cents_.map(Decimal)
    odd = st.tuples(cents_, tenths).map(lambda p: Decimal(p[0]) + p[1])
    return st.one_of(st.none(), whole, whole, odd)


@pytest.mark.parametrize(("game_id", "settings_", "edition"), TABLES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_for_random_amounts_the_layout_allows_what_the_engine_accepts(
    game_id: str, settings_: dict[str, Any], edition: str | None, data: st.DataObject
) -> None:
    game, config = table_of(game_id, settings_, edition)
    w = game.layout(config)["wager"]
    amounts: dict[str, Decimal] = {}
    for s in w["spots"]:
        if "follows" in s:
            continue
        drawn = data.draw(_amount(limits_of(config, s["field"])), label=s["field"])
        if drawn is not None:
            amounts[s["field"]] = drawn
    sent = sent_of(w, amounts)
    if data.draw(st.booleans(), label="a following spot off its times"):
        for s in w["spots"]:
            if "follows" in s:
                sent[s["field"]] = str(data.draw(st.integers(0, 10**6)) / Decimal(100))
    assert (layout_refusal(w, sent) is None) == engine_accepts(game, config, sent), sent


def _round_at(game: Any, config: Any, sent: dict[str, Any], election: str) -> tuple[Any, RoundCore]:  # fmt: skip
    """A round of a table of ``config`` where seat :data:`SEAT` placed ``sent`` and has
    ``election`` pending (other elections answered as the game suggests, the dealer's steps
    taken as the table takes them)."""
    table = game.new_table(config)
    rnd: RoundCore = table.new_round()
    rnd.apply(game.parse_action(sent, "wager"))
    for _ in range(50):
        pending = rnd.pending()
        if (SEAT, election) in pending:
            return table, rnd
        if pending:
            rnd.apply(game.suggest(rnd, *pending[0]))
        else:
            step = game.dealer_step(table, rnd)
            assert step is not None, f"the round ended before {election}"
            rnd.apply(step)
    raise AssertionError(f"{election} never came")


def _seen_wagers(game: Any, rnd: RoundCore) -> dict[str, str]:
    """The seat's wagers as the public view shows them (what the screen reads)."""
    others = game.seat_view(rnd, 0)["others"]
    return dict(next(o for o in others if o["seat"] == SEAT)["wagers"])


@pytest.mark.parametrize(("game_id", "settings_", "edition"), TABLES)
def test_a_decision_button_places_the_amount_it_states(
    game_id: str, settings_: dict[str, Any], edition: str | None
) -> None:
    """24.10(b) second = first; 17.8(c) double = wager (or up to it); 20.10 play = ante."""
    game, config = table_of(game_id, settings_, edition)
    layout = game.layout(config)
    w = layout["wager"]
    sent = sent_of(w, {k: v * 3 for k, v in valid_base(w).items()})
    money = [(e, b) for e, d in layout["decisions"].items() for b in d["buttons"] if "places" in b]
    assert len(money) == 1, money  # each of these games has one election that places money
    election, button = money[0]
    p = button["places"]
    assert p["label"]
    assert p["times"] == 1
    _, rnd = _round_at(game, config, sent, election)
    before = _seen_wagers(game, rnd)
    stated = as_cents(before[p["wager"]]) * p["times"]
    if "field" in p:  # 17.8(c) up-to: any whole cents from the minimum up to the wager
        assert p["field"] in button["adds"]
        lo = as_cents(p["minimum"])
        for amount, inside in ((lo - 1, False), (lo, True), (stated, True), (stated + 1, False),
                               (lo + Decimal("0.5"), False)):  # fmt: skip
            action = {**button["action"], "seat": SEAT, p["field"]: str(amount / 100)}
            try:
                ok = rnd.can(game.parse_action(action, election))
            except FeltError:
                ok = False
            layout_ok = lo <= amount <= stated and amount % as_cents(p["step"]) == 0
            assert ok is layout_ok is inside, amount
        action = {**button["action"], "seat": SEAT, p["field"]: str(stated / 100)}
    else:
        action = {**button["action"], "seat": SEAT}
    rnd.apply(game.parse_action(action, election))
    after = _seen_wagers(game, rnd)
    added = {k: v for k, v in after.items() if k not in before}
    assert list(map(as_cents, added.values())) == [stated], (before, after)


@pytest.fixture
def h(database_url: str) -> Iterator[Harness]:
    yield from harness(
        database_url, [TableSpec("b5", "boston5", pace_seconds=0, betting_seconds=30)]
    )


def test_13_69o_1_4_h_the_form_and_the_server_refuse_the_same_total_over_the_balance(
    h: Harness,
) -> None:
    """With $50.00, an ante of $16.66 (total $49.98 at a first wager of twice the ante) is
    offered and taken; $16.67 (total $50.01) is neither; nor is a bonus that takes the total
    over."""
    h.account("ann", "player", deposit="50.00")
    assert h.post("ann", "/api/tables/b5/sit", {"seat": SEAT}).status_code == 200
    game, config = table_of("boston5", {}, None)
    w = game.layout(config)["wager"]
    balance = int(as_cents(h.get("ann", "/api/me").json()["balance"]))
    h.wait_for(
        "ann", "b5", lambda v: v.get("mine", {}).get(str(SEAT), {}).get("phase") == "betting"
    )
    over = [sent_of(w, {"ante": Decimal(1667)}),
            sent_of(w, {"ante": Decimal(1600), "bonus": Decimal(300)})]  # fmt: skip
    for sent in over:
        assert layout_refusal(w, sent) is None  # within the table's limits
        assert layout_refusal(w, sent, balance) == "over the balance"
        r = h.act("ann", "b5", sent, key=secrets.token_hex(8))
        assert r.status_code == 409, r.text
        assert "13:69O-1.4(h)" in r.json()["error"]
    ok = sent_of(w, {"ante": Decimal(1666)})
    assert layout_refusal(w, ok, balance) is None
    assert h.act("ann", "b5", ok).status_code == 200
    assert h.get("ann", "/api/me").json()["balance"] == "0.02"
