"""``laizi analyze`` through laizi.cli.main."""

from __future__ import annotations

import io
import json

import pytest

from laizi.cli import main


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s1122z"]) == 0
    out = capsys.readouterr().out
    assert "shanten  0" in out
    assert "1z 东 ×2" in out and "2z 南 ×2" in out


def test_json_win_with_wild(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s11z999p", "--wild", "9p", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["win"] is True and res["shanten"] == -1 and res["wilds"] == 3


def test_pair_258(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s5m", "--pair", "258", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["waits"] == ["5m"] and res["unseen"] == {"5m": 3}
    assert res["waits_chinese"] == ["五万"]


def test_unseen_counts_own_copies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "1112345678999m", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["waits"] == [f"{r}m" for r in range(1, 10)]
    assert res["unseen"]["1m"] == 1 and res["unseen"]["5m"] == 3


def test_bad_hand_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123x456p"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "'x'" in err and "position 3" in err


def test_wrong_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m"]) == 2
    assert "3n+1" in capsys.readouterr().err


def test_batch(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = "123m456p789s1122z\n19m19p19s1234567z\n12x3m\n123m456p789s11z\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(data))
    assert main(["analyze", "-", "--orphans"]) == 2  # one bad line
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 4
    assert lines[0]["shanten"] == 0 and lines[0]["waits"] == ["1z", "2z"]
    assert len(lines[1]["waits"]) == 13
    assert "error" in lines[2] and "'x'" in lines[2]["error"]
    assert lines[3]["win"] is True and lines[3]["shanten"] == -1 and lines[3]["waits"] == []


def test_batch_all_good(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("123m456p789s1122z\n"))
    assert main(["analyze", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["win"] is False
