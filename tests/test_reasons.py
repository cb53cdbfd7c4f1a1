"""Settlement reasons as data: codes, parameters, the Chinese and English texts, JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from laizi.cli import main
from laizi.reasons import CODES, Reason, ReasonError
from laizi.records import record_from_json
from laizi.settlement import Payment
from laizi.table.horses import PersonPayment
from laizi.variants import get

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "docs" / "examples").glob("*.json"))

_NO_DOUBLINGS: dict[str, Any] = {
    "opened": 0, "per_meld": False, "hard": False, "red_dragon_kongs": 0, "kongs": 0,
    "laizi_kongs": 0, "concealed_kongs": 0, "dealer": False, "dealt_in": False,
    "self_drawn": False,
}

# One example of every code: (params, Chinese text, English text).
SAMPLES: dict[str, tuple[dict[str, Any], str, str]] = {
    "base": ({"points": 1}, "底分 1", "base 1"),
    "note": ({"text": "toy"}, "toy", "toy"),
    "hand": ({"name": "屁胡", "points": 1}, "屁胡 1", "plain win (pi hu) 1"),
    "win_bonus": ({"how": "robbed_kong", "points": 10}, "抢杠 (按自摸) +10",
                  "robbed kong (settled as a self-draw) +10"),
    "doublings": ({**_NO_DOUBLINGS, "seat": 0, "winner": False, "concealed_kongs": 1,
                   "dealer": True}, "0号位翻倍: 暗杠 +2, 庄家 +1",
                  "seat 0 doublings: concealed kong +2, dealer +1"),
    "line_total": ({"base": 1, "exp": 6, "amount": 64}, "1 × 2^6 = 64", "1 × 2^6 = 64"),
    "cap": ({"points": 300}, "封顶 300", "cap 300"),
    "gold_hand": ({"points": 400}, "金顶 400 (将一色 / 风一色)",
                  "golden cap 400 (all 2-5-8 / all honours)"),
    "gold_cap": ({"points": 400, "cap": 300}, "金顶 400 (每条都到封顶 300)",
                 "golden cap 400 (every line reached the cap 300)"),
    "unit": ({"times": 2}, "底分 ×2", "base unit ×2"),
    "bao": ({"kind": "all_melded", "payer": 2, "winner": 1},
            "包牌 (全求人): 2号位打出胡牌时未听牌",
            "pays for all (包牌): all melded: seat 2 was not ready when it discarded the "
            "winning tile"),
    "bao_line": ({"seat": 0, "amount": 40}, "代付0号位的一条 40:", "for seat 0's line of 40:"),
    "dao": ({"times": 2, "menqing": True, "all_pungs": False, "seven_pairs": True},
            "大刀 ×2 (门清、七对)", "big win (大刀) ×2 (concealed self-draw, seven pairs)"),
    "ying": ({"hard": False, "times": 1}, "软胡 ×1", "soft win ×1"),
    "win_times": ({"how": "kong_draw", "times": 4}, "杠上开花 ×4",
                  "win on a kong's replacement ×4"),
    "laizi_discarded": ({"count": 2, "times": 4}, "打出癞子 2 张 ×4", "2 laizi discarded ×4"),
    "horse": ({"tile": "5m", "value": 5, "seat": 0, "payer": 1, "payee": 0},
              "买马 五万 = 5 → 0号位: 跟随 1号位 → 0号位",
              "horse bet (买马) 5m = 5 → seat 0: follows seat 1 → seat 0"),
    "fan_win": ({"how": "discard", "base": 8, "fan": 22}, "点炮 8 + 22番",
                "dealt in: 8 + 22 fan"),
    "fan": ({"id": "flower_tiles", "name": "花牌", "fan": 2, "count": 2}, "花牌 ×2 2番",
            "Flower Tiles ×2 2 fan"),
    "golden_factor": ({"winner": 2, "payer": 2, "factor": 16}, "×2^(2+2) = ×16 (开口/杠)",
                      "×2^(2+2) = ×16 (opened / kongs)"),
    "tai_base": ({"points": 100}, "底 100", "base 100"),
    "tai": ({"id": "dealer_streak", "item": "连3拉3", "tai": 6}, "连3拉3 6台",
            "Dealer streak (连3拉3) 6 tai"),
    "tai_total": ({"tai": 7, "value": 20, "amount": 140}, "7台 × 20 = 140",
                  "7 tai × 20 = 140"),
    "false_win": ({}, "诈胡 包赔", "false win (诈胡): pays as for a self-draw"),
    "dead_hand": ({"seat": 1}, "相公代付 1号位", "dead hand (相公) pays for seat 1"),
    "wrong_win": ({}, "错和", "wrong win (错和)"),
}


def test_every_code_has_a_sample() -> None:
    assert set(SAMPLES) == set(CODES)


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_every_code_renders_and_round_trips(code: str) -> None:
    params, zh, en = SAMPLES[code]
    r = Reason.of(code, **params)
    assert (r.text(), r.text("zh"), r.text("en"), str(r)) == (zh, zh, en, zh)
    data = r.to_json()
    assert data == {"code": code, "params": params, "zh": zh, "en": en}
    assert Reason.from_json(json.loads(json.dumps(data))) == r
    assert Reason.from_json({"code": code, "params": params}) == r  # the texts are optional
    assert r.params_dict() == params
    assert all(isinstance(i, str) and i for i in r.items())


def test_items_are_the_chinese_terms() -> None:
    assert Reason.of("hand", name="七对", points=10).items() == ("七对",)
    assert Reason.of("win_bonus", how="discard", points=10).items() == ("点炮",)
    assert Reason.of("doublings", **{**_NO_DOUBLINGS, "seat": 1, "winner": True,
                                     "opened": 2, "per_meld": True, "hard": True}).items() \
        == ("口口翻", "硬胡")
    assert Reason.of("tai", id="dealer_streak", item="连2拉2", tai=4).items() == ("连N拉N",)
    assert Reason.of("base", points=1).items() == ()
    assert Reason.of("line_total", base=1, exp=2, amount=4).items() == ()


def test_params_are_sorted_so_equality_ignores_their_order() -> None:
    a = Reason.of("line_total", base=1, exp=6, amount=64)
    assert a.params == (("amount", 64), ("base", 1), ("exp", 6))
    assert a == Reason.of("line_total", amount=64, exp=6, base=1)
    assert a.param("exp") == 6
    with pytest.raises(KeyError):
        a.param("nope")


def test_equal_arguments_give_one_reason_of_the_same_types() -> None:
    """Reason.of keeps the reasons it made: equal arguments (in any order) give the same
    reason, but ``True`` and ``1`` (equal, and hashing alike) stay apart, and a bad
    argument is refused each time."""
    a = Reason.of("line_total", base=1, exp=6, amount=64)
    assert Reason.of("line_total", base=1, exp=6, amount=64) is a
    assert Reason.of("line_total", amount=64, exp=6, base=1) == a
    flag = Reason.of("base", points=True)
    one = Reason.of("base", points=1)
    assert flag == one  # (as tuples compare) — yet each keeps its own type:
    assert type(flag.param("points")) is bool and type(one.param("points")) is int
    assert type(Reason.of("base", points=True).param("points")) is bool
    assert type(Reason.of("base", points=1).param("points")) is int
    for _ in range(2):
        with pytest.raises(ReasonError, match="takes the parameters"):
            Reason.of("base", points=1, extra=2)


@pytest.mark.parametrize(("data", "match"), [
    ("底分 1", "is an object"),
    ({"code": "nope", "params": {}}, "unknown reason code"),
    ({"code": "base"}, "params must be an object"),
    ({"code": "base", "params": {}}, "takes the parameters points"),
    ({"code": "base", "params": {"points": 1, "extra": 2}}, "takes the parameters"),
    ({"code": "base", "params": {"points": True}}, "points must be a whole number"),
    ({"code": "base", "params": {"points": 1.0}}, "points must be a whole number"),
    ({"code": "base", "params": {"points": "1"}}, "points must be a whole number"),
    ({"code": "ying", "params": {"hard": 1, "times": 1}}, "hard must be true or false"),
    ({"code": "hand", "params": {"name": 7, "points": 1}}, "name must be a string"),
    ({"code": "base", "params": {"points": 1}, "zh": 5}, "zh must be a string"),
    ({"code": "base", "params": {"points": 1}, "why": "x"}, "unknown reason field"),
])
def test_from_json_is_strict(data: Any, match: str) -> None:
    with pytest.raises(ReasonError, match=match):
        Reason.from_json(data)


def test_construction_checks_code_and_parameter_names() -> None:
    with pytest.raises(ReasonError, match="unknown reason code"):
        Reason.of("winner doublings")
    with pytest.raises(ReasonError, match="takes the parameters points"):
        Reason.of("base", point=1)
    with pytest.raises(ValueError, match="unknown language"):
        Reason.of("base", points=1).text("fr")  # type: ignore[arg-type]


def test_payment_json_is_read_back_strictly() -> None:
    p = Payment(1, 0, 12, (Reason.of("base", points=3), Reason.of("ying", hard=True, times=2)))
    data = p.to_json()
    assert data["reasons"][1] == {"code": "ying", "params": {"hard": True, "times": 2},
                                  "zh": "硬胡 ×2", "en": "hard win ×2"}
    assert Payment.from_json(json.loads(json.dumps(data))) == p
    assert p.texts() == ["底分 3", "硬胡 ×2"] and p.texts("en") == ["base 3", "hard win ×2"]
    for bad, match in [({**data, "reasons": ["底分 3"]}, "is an object"),
                       ({**data, "amount": "12"}, "amount must be a whole number"),
                       ({**data, "from": True}, "seat or a person"),
                       ({**data, "from": "A"}, "seats"),
                       ({**data, "note": 1}, "unknown payment field")]:
        with pytest.raises(ReasonError, match=match):
            Payment.from_json(bad)
    person = PersonPayment("A", "B", 12, p.reasons)
    assert PersonPayment.from_json(person.to_json()) == person


def _settle(path: Path) -> list[Payment]:
    record = record_from_json(json.loads(path.read_text(encoding="utf-8")))
    variant = get(record.variant)
    settle_parties = getattr(variant, "settle_parties", None)
    if settle_parties is not None:
        return list(settle_parties(record)[0])
    return variant.settle(record)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_payments_round_trip_through_json(path: Path) -> None:
    payments = _settle(path)
    assert payments
    for p in payments:
        assert p.reasons and all(isinstance(r, Reason) for r in p.reasons)
        assert Payment.from_json(json.loads(json.dumps(p.to_json()))) == p
        assert all(r.text("zh") and r.text("en") for r in p.reasons)


def test_rule_book_example_texts() -> None:
    data = json.loads((Path(__file__).resolve().parent.parent / "docs" / "hand-record.md")
                      .read_text(encoding="utf-8").split("```json\n", 1)[1].split("```")[0])
    payments = get("jingzhou").settle(record_from_json(data))
    assert [(p.payer, p.amount, p.texts()) for p in payments] == [
        (0, 64, ["屁胡 1", "赢家翻倍: 开口 +1, 硬胡 +1, 红中杠 +1",
                 "0号位翻倍: 暗杠 +2, 庄家 +1", "1 × 2^6 = 64"]),
        (2, 32, ["屁胡 1", "赢家翻倍: 开口 +1, 硬胡 +1, 红中杠 +1",
                 "2号位翻倍: 开口 +1, 点炮 +1", "1 × 2^5 = 32"]),
    ]
    assert payments[0].texts("en")[1] == \
        "winner doublings: opened +1, hard win +1, red dragon kong +1"


def test_bao_pai_lists_every_line_it_pays_for() -> None:
    data = {
        "variant": "jingzhou", "dealer": 0, "indicators": "9s",
        "seats": [{"melds": []},
                  {"concealed": "345s 678s 34p 88p",
                   "melds": [{"kind": "chow", "tiles": "678p", "from": 0}]},
                  {"melds": [{"kind": "pung", "tiles": "555p", "from": 0}]}],
        "outcome": "win", "winners": [1], "how": "robbed_kong", "from": 2, "tile": "5p",
    }
    (p,) = get("jingzhou").settle(record_from_json(data))
    assert (p.payer, p.payee, p.amount) == (2, 1, 240)
    assert p.reasons[0] == Reason.of("bao", kind="robbed_kong", payer=2, winner=1)
    lines = [r for r in p.reasons if r.code == "bao_line"]
    assert lines == [Reason.of("bao_line", seat=0, amount=80),
                     Reason.of("bao_line", seat=2, amount=160)]
    assert [r.code for r in p.reasons] == [
        "bao", "bao_line", "hand", "win_bonus", "doublings", "doublings", "line_total",
        "bao_line", "hand", "win_bonus", "doublings", "doublings", "line_total"]
    assert p.texts()[0] == "包牌 (抢杠): 2号位的补杠被抢, 按1号位杠上开花付 (杠进杠出)"


def test_score_prints_english_with_lang_en(capsys: pytest.CaptureFixture[str]) -> None:
    path = next(p for p in EXAMPLES if p.name.startswith("huanghuang"))
    assert main(["score", "--lang", "en", str(path)]) == 0
    out = capsys.readouterr().out
    assert "    base 1" in out and "    self-draw ×2" in out
    assert main(["score", str(path)]) == 0
    assert "    底分 1" in capsys.readouterr().out
