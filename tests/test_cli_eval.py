"""``sampyong eval``: the referee for people, for JSON, and for JSON lines."""

import json

import pytest
from typer.testing import CliRunner

from sampyong.cli import app

runner = CliRunner()


def test_eval_text():
    """The human form lists each seat's high, low and chips."""
    result = runner.invoke(
        app, ["eval", "--board", "Ad 8c 5h Ks 2c", "--game", "plo8", "As Ah 3s 6d", "Kh Qc Jh Td", "--pot", "101"]
    )
    assert result.exit_code == 0, result.output
    assert "three_of_a_kind" in result.output and "wins 101" in result.output


def test_eval_json_shape():
    """--json prints the documented object with cards as text."""
    result = runner.invoke(
        app,
        [
            "eval",
            "--game",
            "pls7",
            "--board",
            "Ad 7s 4h 8s Qc",
            "As 2c Kh",
            "Kd Qd Jd",
            "--pot",
            "101",
            "--button",
            "0",
            "--json",
        ],
    )
    data = json.loads(result.stdout)
    assert data["game"] == "pls7" and data["board"] == ["Ad", "7s", "4h", "8s", "Qc"]
    first = data["players"][0]
    assert first["hole"] == ["As", "2c", "Kh"]
    assert first["high"] == {"category": "one_pair", "cards": ["Ad", "As", "Kh", "Qc", "8s"]}
    assert first["low"] is None and first["chips"] == 101
    assert sum(p["chips"] for p in data["players"]) == 101


def test_eval_split_pot_with_low():
    """A 7-or-better low takes half; the odd chip goes to the high."""
    result = runner.invoke(app, ["eval", "--board", "Ah 2d 3c Kd Ks", "Kh Qd Jc", "4s 6d 9h", "--pot", "101", "--json"])
    players = json.loads(result.stdout)["players"]
    assert [p["chips"] for p in players] == [51, 50]
    assert players[1]["low"]["cards"] == ["6d", "4s", "3c", "2d", "Ah"]


def test_eval_input_lines(tmp_path):
    """--input reads JSON lines and writes one result per line."""
    deal = {"game": "pls7", "board": "Ad 7s 4h 8s Qc", "hands": ["As 2c Kh", "Kd Qd Jd"], "pot": 101, "button": 0}
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(deal) + "\n" + json.dumps({**deal, "game": "pls"}) + "\n")
    result = runner.invoke(app, ["eval", "--input", str(path)])
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["game"] for line in lines] == ["pls7", "pls"]
    stdin = runner.invoke(app, ["eval", "--input", "-"], input=json.dumps(deal) + "\n")
    assert json.loads(stdin.stdout)["players"][0]["chips"] == 101


@pytest.mark.parametrize(
    "args, message",
    [
        (["--board", "Ad 7s 4h 8s Qx", "As 2c Kh"], "bad card 'Qx'"),
        (["--board", "Ad 7s 4h 8s Qc", "As 2c Ad"], "Ad is listed twice"),
        (["--board", "Ad 7s 4h 8s", "As 2c Kh"], "needs 5 cards"),
        (["--board", "Ad 7s 4h 8s Qc", "As 2c"], "needs 3 hole cards"),
        (["--game", "stud", "--board", "Ad 7s 4h 8s Qc", "As 2c Kh"], "unknown game"),
        (["--board", "Ad 7s 4h 8s Qc"], "one or more hands"),
        (["--board", "Ad 7s 4h 8s Qc", "As 2c Kh", "--button", "3"], "button"),
        (["--input", "/nonexistent/deals.jsonl"], "cannot read"),
        (["--board", "Ad 7s 4h 8s Qc", "As 2c Kh", "--pot", "-1"], "the pot cannot be negative"),
        (["--board", "Ad 7s 4h 8s Qc", "As 2c Kh", "--pot", str(2**63)], "the pot holds at most 2**62 chips"),
    ],
)
def test_eval_bad_input_is_one_line_exit_2(args, message):
    """Bad cards, duplicates, wrong counts, unknown games: one line on stderr, exit 2, no traceback."""
    result = runner.invoke(app, ["eval", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output and result.stdout == ""


def test_eval_input_bad_line_prints_nothing(tmp_path):
    """A bad line in --input is named and no partial results are printed."""
    good = {"board": "Ad 7s 4h 8s Qc", "hands": ["As 2c Kh"]}
    path = tmp_path / "deals.jsonl"
    path.write_text(json.dumps(good) + "\n{not json\n")
    result = runner.invoke(app, ["eval", "--input", str(path)])
    assert result.exit_code == 2 and "line 2" in result.stderr and result.stdout == ""
