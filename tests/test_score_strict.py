"""``laizi score`` refuses impossible records, each in one line; settles several at once."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from laizi.bots.registry import make_bot
from laizi.cli import main
from laizi.core.records import RecordError, record_to_json
from laizi.engine import Game
from laizi.records import record_from_json

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = {p.name.split("-")[0]: json.loads(p.read_text("utf-8"))
            for p in (ROOT / "docs/examples").glob("*.json")}


def example(variant: str) -> dict[str, Any]:
    return copy.deepcopy(EXAMPLES[variant])


def score(data: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          *extra: str) -> tuple[int, str, str]:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(["score", "-", *extra])
    out, err = capsys.readouterr()
    return code, out, err


def refused(data: Any, monkeypatch: pytest.MonkeyPatch,
            capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = score(data, monkeypatch, capsys)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("laizi score: invalid hand record: "), err
    return lines[0]


def _no_kong_self_draw(variant: str) -> dict[str, Any]:
    """The variant's example turned into a self-draw after a kong, by a winner with no
    kong: the issue's 杠上开花 paid although no kong was made."""
    data = example(variant)
    w = data["winners"][0]
    data["how"] = "self_draw"
    data.pop("from", None)
    data["after_kong"] = True
    data[variant] = {k: v for k, v in data.get(variant, {}).items()
                     if k not in ("discarder_ready",)}
    assert not any("kong" in m["kind"] for m in data["seats"][w]["melds"])
    return data


@pytest.mark.parametrize("variant", ["jingzhou", "huanghuang", "taiwan", "golden"])
def test_after_kong_needs_a_kong(variant: str, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    data = _no_kong_self_draw(variant)
    assert "has no kong" in refused(data, monkeypatch, capsys)


def test_after_kong_with_a_kong_is_settled(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # The mcr example is a 杠上开花 on an added kong: the rule must not refuse it.
    code, out, _ = score(example("mcr"), monkeypatch, capsys, "--json")
    assert code == 0 and json.loads(out)["payments"]


Change = Callable[[dict[str, Any]], None]

REFUSALS: list[tuple[str, Change, str]] = [
    ("jingzhou", lambda d: d.update(after_kong="false"), "after_kong: expected true or false"),
    ("jingzhou", lambda d: d.update(after_kong=1), "after_kong: expected true or false"),
    ("jingzhou", lambda d: d.update(after_kng=True), "'after_kng' (did you mean 'after_kong'?)"),
    ("jingzhou", lambda d: d.update(jinzhou={"discarder_ready": True}),
     "'jinzhou' (did you mean 'jingzhou'?)"),
    ("jingzhou", lambda d: d["jingzhou"].update(discarder_ready="yes"),
     "jingzhou.discarder_ready: expected true or false"),
    ("jingzhou", lambda d: d["jingzhou"].update(qingyise_feeder=True),
     "jingzhou.qingyise_feeder: expected a seat number"),
    ("jingzhou", lambda d: d["jingzhou"].update(qingyise_feeder=2), "the winner fed itself"),
    ("jingzhou", lambda d: d["seats"][2].update(conceald="123m"), "unknown field(s) 'conceald'"),
    ("jingzhou", lambda d: d["seats"][2]["melds"][0].update(frm=1), "unknown field(s) 'frm'"),
    ("jingzhou", lambda d: d["seats"][2]["melds"][0].update(claimed="9s"),
     "the claimed tile 9s is not one of 123s"),
    ("jingzhou", lambda d: d["seats"][2].update(melds=7), "seats[2].melds: expected a list"),
    ("jingzhou", lambda d: d.update(seed="1"), "seed: expected a whole number"),
    ("jingzhou", lambda d: d.update(dealer=0.0), "dealer: expected a seat number"),
    ("jingzhou", lambda d: d.update(winners=[True]), "winners: expected a seat number"),
    ("jingzhou", lambda d: d.update(tile=99), "expected an MPSZ tile"),
    ("jingzhou", lambda d: d.update(tile=-1), "expected an MPSZ tile"),
    ("jingzhou", lambda d: d.update(tile=["7s"]), "tile: expected one tile"),
    ("jingzhou", lambda d: d.update(how=["discard"]), "how: expected a string"),
    ("jingzhou", lambda d: d["options"].update(cap="300"), "options.cap: \"300\" is not a whole"),
    ("jingzhou", lambda d: d["options"].update(kou_kou_fan=0), "options.kou_kou_fan"),
    ("jingzhou", lambda d: d.update(options=[]), "options: expected an object"),
    ("jingzhou", lambda d: d.update(outcome="draw"), "a drawn hand has no winner"),
    ("jingzhou", lambda d: d.update(how="self_draw"), "from: a self-drawn win comes from no one"),
    ("jingzhou", lambda d: d.update(how="杠开", after_kong=False), "contradicts"),
    ("huanghuang", lambda d: d["huanghuang"].update(laizi_discarded="0"),
     "huanghuang.laizi_discarded: expected a whole number"),
    ("huanghuang", lambda d: d["huanghuang"].update(horses=[{"holder": 1, "tile": [3]}]),
     "huanghuang.horses[0].tile: expected one tile"),
    ("huanghuang", lambda d: d["huanghuang"].update(horses=[{"holder": 1}]),
     "huanghuang.horses[0]: missing field 'tile'"),
    ("golden", lambda d: d["golden"].update(last_tile="false"),
     "golden.last_tile: expected true or false"),
    ("golden", lambda d: d.update(golden={"last_tiles": True}), "'last_tiles' (did you mean"),
    ("golden", lambda d: d["seats"][1]["melds"][0].update(kind="concealed_kong"),
     "a concealed_kong is made from one's own tiles"),
    ("taiwan", lambda d: d["taiwan"].update(first_draw=True),
     "taiwan.first_draw: a win on the first draw is self-drawn"),
    ("taiwan", lambda d: d["taiwan"].update(flower_replacement=True),
     "taiwan.flower_replacement"),
    ("taiwan", lambda d: d["taiwan"].update(discarders_first_discard="true"),
     "taiwan.discarders_first_discard: expected true or false"),
    ("taiwan", lambda d: d["taiwan"].update(passed_win_since_declaring=True),
     "there is no declaration"),
    ("taiwan", lambda d: d["taiwan"].update(dead_hand={"seat": 3}),
     "taiwan.dead_hand: missing field 'draws_since_penalty'"),
    ("taiwan", lambda d: d["taiwan"].update(false_win={"offender": 1, "tile": "1m"}),
     "false_win do not belong to a win"),
    ("taiwan", lambda d: d["options"].update(tai=[]), "options.tai: [] is not an object"),
    ("taiwan", lambda d: d["seats"][0].update(flowers="1m"), "1m is not a flower of taiwan"),
]


@pytest.mark.parametrize(("variant", "change", "message"), REFUSALS,
                         ids=[m for _, _, m in REFUSALS])
def test_refusals_name_what_is_wrong(variant: str, change: Change, message: str,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = example(variant)
    change(data)
    assert message in refused(data, monkeypatch, capsys)


def _robbed_kong_mcr() -> dict[str, Any]:
    return {"variant": "mcr", "options": {"prevalent_wind": "S"}, "dealer": 1,
            "seats": [{"melds": [{"kind": "pung", "tiles": "333s", "from": 1, "claimed": "3s"}]},
                      {"melds": []},
                      {"concealed": "234m 456p 678s 45s 88p", "melds": [], "flowers": "1f"},
                      {"melds": []}],
            "outcome": "win", "winners": [2], "how": "robbed_kong", "from": 0, "tile": "3s"}


def test_robbing_a_kong_needs_the_robbed_pung(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = _robbed_kong_mcr()
    assert score(data, monkeypatch, capsys)[0] == 0
    data["from"] = 3
    assert "seat 3 has no exposed pung of 3s" in refused(data, monkeypatch, capsys)
    data = _robbed_kong_mcr()
    data["mcr"] = {"last_tile": True}
    assert "mcr.last_tile: a robbed kong's tile" in refused(data, monkeypatch, capsys)


def test_robbing_a_kong_in_taiwan_is_held_to_the_same_rule(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = example("taiwan")
    data["how"] = "robbed_kong"  # from seat 1, whose pung is 222s, not the winning 3s
    assert "has no exposed pung of 3s" in refused(data, monkeypatch, capsys)


def test_the_last_copy_is_not_held_by_the_winner(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # docs/hand-record.md's golden example: seat 0 wins on 9p and holds a 9p (its pair).
    data = {"variant": "golden", "dealer": 0, "indicators": "1z",
            "seats": [{"concealed": "123p 234p 678p 9p",
                       "melds": [{"kind": "kong", "tiles": "5555p", "from": 1}]},
                      {}, {}, {}],
            "outcome": "win", "winners": [0], "how": "discard", "from": 2, "tile": "9p",
            "golden": {"last_copy": False}}
    assert score(data, monkeypatch, capsys)[0] == 0
    data["golden"] = {"last_copy": True}
    assert "seat 0 holds another 9p" in refused(data, monkeypatch, capsys)


def test_a_draw_keeps_no_win_facts(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    data = example("jingzhou")
    for key in ("winners", "how", "from", "tile", "after_kong"):
        data.pop(key)
    data["outcome"] = "draw"
    assert "jingzhou.discarder_ready: a drawn hand" in refused(data, monkeypatch, capsys)
    data.pop("jingzhou")
    code, out, _ = score(data, monkeypatch, capsys)
    assert code == 0 and "黄庄" in out


def test_every_refusal_is_one_line_even_with_a_newline_in_the_input(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data = example("jingzhou")
    data["how"] = "self\ndraw"
    assert "how:" in refused(data, monkeypatch, capsys)


def test_engine_records_of_every_variant_still_validate() -> None:
    # The strict rules must refuse no hand the engine can produce.
    for variant in ("jingzhou", "huanghuang", "golden", "mcr", "taiwan"):
        wins = 0
        for seed in range(6):
            game = Game(variant, seed=seed)
            bots = [make_bot("greedy", seed=s) for s in range(game.n)]
            while not game.over:
                for seat in game.to_act():
                    game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
            assert game.record is not None
            data = record_to_json(game.record, game.variant)
            again = record_from_json(json.loads(json.dumps(data)))
            # Indicators are written sorted (a flower turned up before golden's indicator).
            assert dataclasses.replace(again, indicators=tuple(sorted(again.indicators))) == \
                dataclasses.replace(game.record, indicators=tuple(sorted(game.record.indicators)))
            wins += game.record.outcome == "win"
        assert wins, variant


def test_record_error_is_a_value_error() -> None:
    with pytest.raises(RecordError):
        record_from_json({"variant": "jingzhou", "after_kng": True})


# ---------------------------------------------------------------- several records


def test_json_lines_are_settled_with_a_running_ledger(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    one = json.dumps(example("jingzhou"))
    code, out, err = score(f"{one}\n\n{one}\n", monkeypatch, capsys, "--json")
    assert code == 0 and err == ""
    got = json.loads(out)
    assert [h["source"] for h in got["hands"]] == ["stdin line 1", "stdin line 3"]
    first = got["hands"][0]["net"]
    assert got["hands"][0]["ledger"] == first
    assert got["hands"][1]["ledger"] == got["ledger"] == [2 * x for x in first]
    assert sum(got["ledger"]) == 0 and any(got["ledger"])


def test_a_json_list_prints_each_hand_and_the_ledger(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [example("taiwan"), example("taiwan")]
    hands[1]["dealer"] = 1
    code, out, _ = score(hands, monkeypatch, capsys, "--lang", "en")
    assert code == 0
    assert "── hand 1 of 2: stdin[0]" in out and "── hand 2 of 2: stdin[1]" in out
    assert out.count("ledger: ") == 2
    assert out.rstrip().splitlines()[-1].startswith("ledger after 2 hands: seat 0 ")


def test_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "docs/examples/golden-hand.json"
    assert main(["score", str(path), str(path), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert len(got["hands"]) == 2 and sum(got["ledger"]) == 0


def test_a_bad_record_among_several_is_named_and_nothing_is_printed(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bad = example("jingzhou")
    bad["after_kong"] = "false"
    code, out, err = score([example("jingzhou"), bad], monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.strip() == ("laizi score: stdin[1]: invalid hand record: after_kong: expected "
                           "true or false, got \"false\"")


@pytest.mark.parametrize(("text", "message"), [
    ("[]", "an empty list holds no hand record"),
    ('{"variant": "jingzhou"}\n{"variant": ', "stdin line 2: not JSON"),
    ('{"a": 1', "stdin: not JSON (line 1"),
])
def test_unreadable_input_is_one_line(text: str, message: str, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = score(text, monkeypatch, capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and message in err


def test_variants_are_not_mixed_in_one_ledger(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = score([example("golden"), example("mcr")], monkeypatch, capsys)
    assert code == 2 and "records of different variants (golden, mcr)" in err


def _huge(variant: str, where: tuple[str, ...], value: int | str) -> str:
    """The example's JSON with the number at ``where`` written as ``value``'s digits."""
    data = example(variant)
    at = data
    for k in where[:-1]:
        at = at.setdefault(k, {})
    at[where[-1]] = "@@"
    return json.dumps(data, ensure_ascii=False).replace('"@@"', str(value))


# issue 42: a record with a 5,001-digit number printed a traceback (Python's limit on
# int-string conversion), and a 4,300-digit one went through to settle payments that
# could not be printed.
HUGE = [
    ("5001 digits", _huge("jingzhou", ("dealer",), "1" * 5001)),
    ("5001 digits, negative", _huge("jingzhou", ("dealer",), "-" + "7" * 5001)),
    ("5001 digits, second of JSON lines",
     json.dumps(example("jingzhou")) + "\n" + _huge("jingzhou", ("dealer",), "1" * 5001)),
    ("4300-digit base", _huge("huanghuang", ("options", "base"), "9" * 4300)),
    ("4300-digit dealer streak", _huge("taiwan", ("taiwan", "dealer_streak"), "9" * 4300)),
    ("2**64 base", _huge("jingzhou", ("options", "base"), 2**64)),
]


@pytest.mark.parametrize("text", [t for _, t in HUGE], ids=[i for i, _ in HUGE])
def test_a_huge_number_is_one_line(text: str, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = score(text, monkeypatch, capsys)
    assert code == 2 and out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("laizi score: stdin") and "number" in err and "Traceback" not in err


def test_a_huge_number_from_the_command_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "huge.json"
    path.write_text(HUGE[0][1], encoding="utf-8")
    laizi = Path(sys.executable).with_name("laizi")
    run = subprocess.run([str(laizi), "score", str(path)], capture_output=True, text=True,
                         timeout=60, check=False)
    assert run.returncode == 2 and run.stdout == "", run.stderr
    assert len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr
    assert "more than 4300 digits" in run.stderr


def test_a_64_bit_number_is_still_read(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = score(_huge("jingzhou", ("options", "base"), 2**63), monkeypatch, capsys,
                           "--json")
    assert code == 0 and err == "" and json.loads(out)["payments"]
