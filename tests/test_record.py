"""Hand records: round trips, validation messages, and ``laizi score`` (score == play)."""

from __future__ import annotations

import io
import json
import random
from typing import Any

import pytest

from laizi.cli import main
from laizi.core.records import RecordError, record_to_json
from laizi.engine import Game
from laizi.records import record_from_json
from laizi.settlement import payments_json

EXAMPLE: dict[str, Any] = {
    "variant": "jingzhou",
    "dealer": 0,
    "indicators": "9s",
    "seats": [
        {"melds": [{"kind": "concealed_kong", "tiles": "4444z"}]},
        {"concealed": "567p 678s 345s 2p",
         "melds": [{"kind": "chow", "tiles": "234p", "from": 0},
                   {"kind": "red_dragon_kong", "tiles": "7z"}]},
        {"melds": [{"kind": "pung", "tiles": "999p", "from": 1}]},
    ],
    "outcome": "win", "winners": [1], "how": "discard", "from": 2, "tile": "2p",
}


def finished_games(n: int) -> list[Game]:
    out = []
    for seed in range(n):
        g = Game("jingzhou", seed=seed, dealer=seed % 3)
        rng = random.Random(seed)
        while not g.over:
            for s in g.to_act():
                acts = g.legal_actions(s)
                g.apply(acts[rng.randrange(len(acts))])
        out.append(g)
    return out


def test_engine_records_round_trip_and_score_like_play() -> None:
    wins = 0
    for g in finished_games(60):
        assert g.record is not None
        data = json.loads(json.dumps(record_to_json(g.record, g.variant)))
        again = record_from_json(data)
        assert again == g.record
        assert g.variant.settle(again) == g.payments
        assert data == g.log[-1]["record"]
        wins += g.record.outcome == "win"
    assert wins > 0


def test_winner_record_lists_concealed_tiles_without_the_winning_tile() -> None:
    for g in finished_games(60):
        r = g.record
        assert r is not None
        if r.outcome == "win":
            w = r.winners[0]
            concealed = r.seats[w].concealed
            assert concealed is not None
            sets = sum(1 for m in r.seats[w].melds if len(m.tiles) >= 3)
            assert len(concealed) + 3 * sets == 13


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(variant="nope"), "unknown variant 'nope'"),
    (lambda d: d["seats"].pop(), "jingzhou has 3 seats"),
    (lambda d: d.update(tile="2x"), "position 1"),
    (lambda d: d["seats"][1]["melds"][0].update(tiles="245p"), "not a chow"),
    (lambda d: d["seats"][1]["melds"][0].pop("from"), "needs \"from\""),
    (lambda d: d.pop("winners"), "missing field 'winners'"),
    (lambda d: d.update(how="mahjong"), "how: expected one of"),
    (lambda d: d.update(wildcard="3p"), "does not follow from the indicators"),
    (lambda d: d["seats"][2]["melds"].append({"kind": "kong", "tiles": "2222p", "from": 0}),
     "2p appears"),
    (lambda d: d["seats"][1].update(concealed="567p 678s 345s 2p 2p"), "concealed tiles"),
    (lambda d: d["seats"][1].update(concealed="567p 678s 345s 3p"), "has not won"),
    (lambda d: d.update(options={"caps": 1}), "unknown jingzhou option"),
    (lambda d: d.update(jingzhou={"ready": True}), "unknown field"),
    (lambda d: d.update(**{"from": 1}), "discarder cannot be a winner"),
])
def test_invalid_records_say_what_is_wrong(change: Any, message: str) -> None:
    data = json.loads(json.dumps(EXAMPLE))
    change(data)
    with pytest.raises(RecordError, match=message):
        record_from_json(data)


def test_score_command_prints_itemised_payments(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Any) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out = capsys.readouterr().out
    assert "seat 1 wins 屁胡 (硬胡), receives 96" in out
    assert "seat 0 pays seat 1 64" in out and "seat 2 pays seat 1 32" in out
    assert "暗杠 +2" in out and "点炮 +1" in out
    assert "net: seat 0 -64  seat 1 +96  seat 2 -32" in out


def test_score_command_json_and_stdin(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(EXAMPLE)))
    assert main(["score", "--json", "-"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["net"] == [-64, 96, -32]
    assert {(p["from"], p["to"], p["amount"]) for p in got["payments"]} == {(0, 1, 64),
                                                                            (2, 1, 32)}
    assert all(p["reasons"] for p in got["payments"])
    record = record_from_json(EXAMPLE)
    from laizi.variants import get

    assert got == payments_json(get("jingzhou").settle(record), 3)


@pytest.mark.parametrize("text", ["{", '{"variant": "jingzhou"}', "[]",
                                  json.dumps({**EXAMPLE, "tile": "5p"})])
def test_score_command_invalid_record_one_line_exit_2(
        text: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["score", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("laizi score: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_score_command_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "/no/such/record.json"]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_how_accepts_the_usual_names() -> None:
    for name in ("点炮", "dianpao", "ron"):
        assert record_from_json({**EXAMPLE, "how": name}).how == "discard"
    data = {**EXAMPLE, "how": "自摸"}
    del data["from"]
    assert record_from_json(data).how == "self_draw"
