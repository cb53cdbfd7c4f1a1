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


# ---------------------------------------------------------------- the wildcard's face


def test_the_wildcards_face_is_a_wait_with_its_unseen_copies(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Ready on 2m / 3m; drawing 5p, the wildcard, completes the hand too.
    assert main(["analyze", "1112455667789m", "--wild", "5p", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["waits"] == ["2m", "3m", "5p"]
    assert res["unseen"] == {"2m": 3, "3m": 4, "5p": 4}
    assert res["outs"] == 11


def test_a_held_wildcard_face_is_a_wait_only_as_a_wildcard(
        capsys: pytest.CaptureFixture[str]) -> None:
    # 123m456p789s1122z with 5p wild holds one wildcard: one more wins on anything it
    # completes, so 5p is a wait; without --wild 5p is no wait at all.
    assert main(["analyze", "123m456p789s1122z", "--wild", "5p", "--json"]) == 0
    assert "5p" in json.loads(capsys.readouterr().out)["waits"]
    assert main(["analyze", "123m456p789s1122z", "--json"]) == 0
    assert "5p" not in json.loads(capsys.readouterr().out)["waits"]


# ---------------------------------------------------------------- hand sizes


@pytest.mark.parametrize("hand", [
    "11122233344455566677m",          # 20 tiles
    "1112223334445556667778889999m",  # 28 tiles (and five 9m: the size is named first)
    "123456789m123p",                 # 12: 3n
    "123456789m123p456z",             # 14 + 1
    "11223344556677889m",             # 17: Taiwan's only
])
def test_hands_of_the_wrong_size_are_refused(hand: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", hand]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "tiles" in err and "at most 14" in err


def test_taiwan_hand_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "11223344556677889m", "--hand-size", "16", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["tiles"] == 17 and res["discards"]
    assert main(["analyze", "11122233344455566677m", "--hand-size", "16"]) == 2
    assert "at most 17" in capsys.readouterr().err


def test_melds_fix_the_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m4567p", "--melds", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"] == ["4p", "7p"]
    assert main(["analyze", "123m4567p", "--melds", "1"]) == 2
    assert "beside 1 exposed melds" in capsys.readouterr().err
    assert main(["analyze", "1m", "--melds", "5"]) == 2
    assert "--melds must be 0-4" in capsys.readouterr().err


# ---------------------------------------------------------------- discard advice


def test_fourteen_tiles_get_discards_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s11223z", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["win"] is False and res["shanten"] == 0 and res["waits"] == []
    best = res["discards"][0]
    assert best == {"discard": "3z", "discard_chinese": "西", "shanten": 0,
                    "useful": ["1z", "2z"], "unseen": 4}
    keys = [(d["shanten"], -d["unseen"]) for d in res["discards"]]
    assert keys == sorted(keys)
    assert len({d["discard"] for d in res["discards"]}) == len(res["discards"]) == 12


def test_discards_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s11223z"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[3].startswith("discards (best first")
    assert out[4].split() == ["3z", "西", "shanten", "0", "4", "unseen", "waits:", "1z", "2z"]


def test_discarding_and_drawing_the_wildcard(capsys: pytest.CaptureFixture[str]) -> None:
    # 9m wild, held once. Discarding it leaves the plain 1z / 2z wait, and a 9m drawn
    # back is a wildcard again: 3 + 2 + 2 unseen. Keeping it, a drawn 9m is a second
    # wildcard and completes the hand too.
    assert main(["analyze", "123m456p789s1122z9m", "--wild", "9m", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["wilds"] == 1
    by = {d["discard"]: d for d in res["discards"]}
    assert by["9m"]["shanten"] == 0 and by["9m"]["useful"] == ["9m", "1z", "2z"]
    assert by["9m"]["unseen"] == 7
    kept = by["1z"]
    assert kept["shanten"] == 0 and "9m" in kept["useful"]
    assert res["discards"][0]["unseen"] > by["9m"]["unseen"]


def test_the_best_discard_leaves_the_hands_own_shanten() -> None:
    # Independent of how the advice is computed: a 3n+2 hand's shanten is the best a
    # discard can leave.
    import random

    from laizi.analysis import DEFAULT_RULES, shanten
    from laizi.commands.analyze import analyze_hand
    from laizi.tiles import format as fmt
    from laizi.tiles import to_counts

    rng = random.Random(5)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(30):
        hand = rng.sample(wall, 14)
        res = analyze_hand(fmt(hand, "mpsz"), None, DEFAULT_RULES)
        assert res["discards"][0]["shanten"] == shanten(to_counts(hand)) == res["shanten"]
        assert all(d["shanten"] >= res["shanten"] for d in res["discards"])


# ---------------------------------------------------------------- notations


@pytest.mark.parametrize(("notation", "hand", "wild"), [
    ("chinese", "一万二万三万四筒五筒六筒七条八条九条东东南南", "五筒"),
    ("unicode", "🀇🀈🀉🀜🀝🀞🀖🀗🀘🀀🀀🀁🀁", "🀝"),
    ("gb", "W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 F2 F2", "B5"),
])
def test_other_notations_read_the_same_hand(notation: str, hand: str, wild: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "123m456p789s1122z", "--wild", "5p", "--json"]) == 0
    want = json.loads(capsys.readouterr().out)
    assert main(["analyze", hand, "--notation", notation, "--wild", wild, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["hand"] == hand and got["mpsz"] == "123m456p789s1122z"
    assert {k: v for k, v in got.items() if k != "hand"} == \
        {k: v for k, v in want.items() if k != "hand"}


def test_a_notation_error_names_the_character(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "一万二万x", "--notation", "chinese"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "'x'" in err
    with pytest.raises(SystemExit) as stop:
        main(["analyze", "123m", "--notation", "klingon"])
    assert stop.value.code == 2 and "invalid choice" in capsys.readouterr().err
