"""Round scripts and ``felt replay``: the documented format, malformed files, and exit status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from felt.cli.main import main
from felt.cli.script import run_script
from felt.core.errors import FeltError
from felt.games.boston.round import Round

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def script(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "boston5",
        "edition": "nj-19-47-24",
        "deck": [
            "Ah",
            "Ad",
            "Kc",
            "2c",
            "3d",
            "9h",
            "Js",
            "Ts",
            "4c",
            "Ac",
            "Kd",
            "8c",
            "2d",
            "2h",
            "2s",
        ],
        "wagers": {
            "1": {"ante": "5.00", "first": "10.00", "bonus": "1.00"},
            "2": {"ante": 5, "first": 10},
        },
        "actions": [
            {"seat": 1, "action": "expose"},
            {"seat": 1, "action": "second"},
            {"seat": 2, "action": "fold"},
        ],
    }
    base.update(kw)
    return base


def test_example_script_nets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES / "boston5-round.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seats"]["1"]["net"] == 146.0
    assert data["seats"]["2"]["net"] == -15.0
    assert data["house_net"] == -131.0
    assert (
        data["seats"]["1"]["net_cents"] + data["seats"]["2"]["net_cents"] + data["house_net_cents"]
        == 0
    )


def test_replay_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES / "boston5-round.json")]) == 0
    out = capsys.readouterr().out
    assert "ante bonus: full house" in out
    assert "discard rack" in out


def test_boston7_script_with_discard_and_payout_limit() -> None:
    rnd = run_script(
        {
            "game": "boston7",
            "edition": "nj-13-69f-24",
            "table": {"first_ratio": 1, "payout_limit": "50000.00"},
            "deck": ["As", "Ks", "Qs", "2c", "3d", "4h", "Js", "Ts", "9s", "8s"],
            "wagers": {"1": {"ante": 5, "first": 5}},
            "actions": [
                {"seat": 1, "action": "second"},
                {"seat": 1, "action": "discard", "cards": ["9s", "8s"]},
            ],
        }
    )
    assert isinstance(rnd, Round)
    assert rnd.seats[1].discarded is not None
    assert rnd.net(1) == 200 * 500 + 500 + 500


def test_irregularity_entries_in_a_script() -> None:
    rnd = run_script(
        script(
            actions=[
                {"irregularity": "face_up_card", "position": 1},
                {"dealer": "timeout", "seat": 1},  # seat 1's time to expose ran out
                {"seat": 1, "action": "fold"},
                {"seat": 2, "action": "fold"},
            ]
        )
    )
    assert rnd.rack.bundles[0][0].startswith("card found face up")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"game": "blackjack"}, "field 'game'"),
        ({"edition": "nj-1999"}, "unknown edition"),
        ({"deck": ["As", "As"]}, "field 'deck': duplicate card: As"),
        ({"deck": ["Zz"]}, "field 'deck': unknown card"),
        ({"wagers": {"1": {"ante": 5}}}, "field 'wagers'.1: missing 'first'"),
        ({"wagers": {"9": {"ante": 5, "first": 10}}}, "field 'wagers'.9: seat must be"),
        (
            {"wagers": {"1": {"ante": 5, "first": 9}}},
            "field 'wagers'.1: seat 1: first wager must be",
        ),
        (
            {"actions": [{"seat": 1, "action": "dance"}]},
            "field 'actions'[0]: unknown action 'dance'",
        ),
        (
            {"actions": [{"seat": 2, "action": "second"}]},
            "field 'actions'[0]: seat 2: second wagers come after the optional bonus wagers are "
            "resolved (N.J.A.C. 19:47-24.10(b)); the dealer is waiting for seat 1 to expose or decline",
        ),
        (
            {"actions": [{"dealer": "timeout", "seat": 2}]},
            "field 'actions'[0]: seat 2 has no election pending, so its decision time cannot run "
            "out (pending: seat 1 to expose or decline)",
        ),
        ({"table": {"payout_limit": "10"}}, "field 'table': payout_limit"),
        ({"colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_malformed_scripts_are_one_line_errors_naming_the_field(
    change: dict[str, Any], field: str
) -> None:
    with pytest.raises(FeltError) as err:
        run_script(script(**change))
    assert field in str(err.value)
    assert "\n" not in str(err.value)


def test_replay_cli_malformed_file_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(script(wagers={"1": {"ante": "five", "first": 10}})))
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "field 'wagers'.1.ante" in err
    (tmp_path / "nojson.json").write_text("{")
    assert main(["replay", str(tmp_path / "nojson.json")]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_report_hand_is_the_games_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's report asks the game for each settled seat's hand (TableGame.report_hand): the
    default is the best five-card hand; a game of other hands gives its own."""
    import felt.cli.script as script_module
    from felt.cli.script import report
    from felt.games.base import TableGame
    from felt.games.registry import table_game

    rnd = run_script(json.loads((EXAMPLES / "boston5-round.json").read_text()))
    settled = [k for k, s in report(rnd)["seats"].items() if s["status"] == "settled"]
    assert settled
    assert report(rnd)["seats"][settled[0]]["hand"]["best_five"]
    real = table_game("boston5")

    class OwnHands(type(real)):  # type: ignore[misc]
        def report_hand(self, rnd: Any, seat: int) -> dict[str, Any]:
            return {"own": seat}

    assert isinstance(real, TableGame)
    monkeypatch.setattr(script_module, "table_game", lambda game_id: OwnHands())
    assert report(rnd)["seats"][settled[0]]["hand"] == {"own": int(settled[0])}
