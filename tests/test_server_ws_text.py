"""The WebSocket's messages are encoded by orjson (issue 25) into the very text the standard
encoder wrote before (``json.dumps`` compact, non-ASCII as is): for JSON values of the kinds a
message holds, and for a real table's views and acknowledgements over a socket."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from felt.server.app import message_text
from tests.server_helpers import Harness, harness


def standard(value: Any) -> str:
    """What Starlette's ``send_json`` wrote before."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


TEXT = st.text(st.characters(exclude_categories=["Cs"]))  # a lone surrogate is refused on input
PLAIN_FLOATS = st.floats(allow_nan=False, allow_infinity=False).filter(
    lambda x: x == 0 or 1e-4 <= abs(x) < 1e16
)
"""Floats both encoders write alike (seconds, paces); outside this range both write the same
number in another exponent notation."""
SCALARS = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | PLAIN_FLOATS | TEXT
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(TEXT | st.integers(-1000, 1000), inner, max_size=5)
    ),
    max_leaves=40,
)


@given(st.dictionaries(TEXT, VALUES, max_size=8))
def test_the_same_text_as_the_standard_encoder(msg: dict[str, Any]) -> None:
    assert message_text(msg) == standard(msg)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_any_finite_float_reads_back_the_same(x: float) -> None:
    assert json.loads(message_text({"x": x})) == {"x": x}


def test_views_and_acks_over_the_socket_are_standard_text(database_url: str) -> None:
    """Each text frame a player at Boston 5 gets (hello, views, ack, refusal) is what the
    standard encoder writes for its content."""
    for h in harness(database_url):
        frames = _frames(h)
    assert {"hello", "table", "ack", "error"} <= {json.loads(f)["type"] for f in frames}
    for frame in frames:
        assert frame == standard(json.loads(frame))


def _frames(h: Harness) -> list[str]:
    """What ann, seated at seat 2, gets over a socket: a wager accepted and one refused."""
    h.account("ann", "player", "100.00")
    assert h.post("ann", "/api/tables/b5/sit", {"seat": 2}).status_code == 200
    with h.socket() as ws:
        ws.send_json({"token": h.tokens["ann"]})
        frames = [ws.receive_text()]
        ws.send_json({"subscribe": "b5"})
        frames.append(ws.receive_text())
        view = json.loads(frames[-1])
        for _ in range(40):  # until the round takes wagers at seat 2
            if (view.get("mine") or {}).get("2", {}).get("phase") == "betting":
                break
            frames.append(ws.receive_text())
            view = json.loads(frames[-1])
        ws.send_json({"table": "b5", "key": "w-1", "round": view["round"],
                      "action": {"action": "wager", "seat": 2, "ante": "5.00", "first": "10.00"}})  # fmt: skip
        ws.send_json({"table": "b5", "key": "bad", "action": {"action": "nonsense"}})
        kinds: set[str] = set()
        for _ in range(40):
            frames.append(ws.receive_text())
            kinds.add(json.loads(frames[-1])["type"])
            if {"ack", "error"} <= kinds:
                break
    return frames


def test_what_orjson_refuses_is_written_by_the_standard_encoder() -> None:
    """An integer past 64 bits (no message holds one today) is written, not dropped."""
    msg = {"type": "x", "n": 1 << 70, "s": "é"}
    assert message_text(msg) == json.dumps(msg, separators=(",", ":"), ensure_ascii=False)
