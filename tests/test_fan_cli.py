"""``laizi fan``: table, JSON, errors (one line, exit 2)."""

from __future__ import annotations

import json

import pytest

from laizi.cli import main


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["fan", "123m456p789s111z55m", "--win-tile", "5m", "--self-drawn",
               "--seat-wind", "E", "--prevalent-wind", "S", "--flowers", "2", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["is_win"]
    keys = {f["key"]: f["count"] for f in out["fans"]}
    assert keys["fully_concealed_hand"] == 1 and keys["flower_tiles"] == 2
    assert "seat_wind" in keys and "prevalent_wind" not in keys
    assert out["total"] == sum(f["points"] for f in out["fans"])


def test_melds_and_golden(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["fan", "345s678s55z", "--melds", "ckong:1m,kong:2222p", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and any(f["zh"] == "明暗杠" for f in out["fans"])
    rc = main(["fan", "123m456p78s11z555z9s", "--golden", "5z", "--win-tile", "9s", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 20 and out["golden_as"] == ["1z", "5z", "5z"]


def test_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fan", "123m456p789s111z55m"]) == 0
    out = capsys.readouterr().out
    assert "门前清" in out and "Concealed Hand" in out and "Total" in out


def test_not_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fan", "123m456p789s111z56m"]) == 1
    assert "not a win" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["fan", "123m456p789s111z5x"],
    ["fan", "123m456p789s111z5m"],
    ["fan", "123m456p789s111z55m", "--melds", "chow:124m"],
    ["fan", "123m456p789s111z55m", "--seat-wind", "Q"],
    ["fan", "123m456p789s111z55m", "--last-tile", "--kong-replacement"],
])
def test_errors_one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("laizi fan: ") and err.count("\n") == 1


def test_readme_example_is_a_win(capsys: pytest.CaptureFixture[str]) -> None:
    # README's example once gave 13 concealed tiles beside a pung ("make 16").
    rc = main(["fan", "123m456p789s22z", "--win-tile", "2z", "--melds", "pung:555z",
               "--self-drawn", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["is_win"] and out["total"] == 18
    assert {f["zh"] for f in out["fans"]} >= {"花龙", "箭刻", "单钓将", "自摸"}


def test_too_many_concealed_tiles_beside_a_meld_is_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fan", "123m456p789s1122z", "--win-tile", "2z", "--melds", "pung:555z",
                 "--self-drawn"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "13 concealed + 1 melds make 16" in err
