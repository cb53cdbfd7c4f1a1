"""荆州麻将 settlement: a named worked example for every rule (hand records → payments).

Unless a test says otherwise: seat 0 deals, the indicator is 9s so the laizi is 1s, and
amounts are computed by hand in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest

from laizi.core.records import RecordError
from laizi.records import record_from_json
from laizi.settlement import net
from laizi.variants import get

JZ = get("jingzhou")


def meld(kind: str, tiles: str, src: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": kind, "tiles": tiles}
    if src is not None:
        out["from"] = src
    return out


def rec(
    winner: int, how: str, tile: str, concealed: str, melds: list[dict[str, Any]] | None = None,
    *, source: int | None = None, others: dict[int, list[dict[str, Any]]] | None = None,
    dealer: int = 0, indicator: str = "9s", extra: dict[str, Any] | None = None,
    after_kong: bool = False, options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [{"melds": []} for _ in range(3)]
    seats[winner] = {"concealed": concealed, "melds": melds or []}
    for s, ms in (others or {}).items():
        seats[s] = {"melds": ms}
    data: dict[str, Any] = {
        "variant": "jingzhou", "options": options or {}, "dealer": dealer,
        "indicators": indicator, "seats": seats, "outcome": "win", "winners": [winner],
        "how": how, "tile": tile, "after_kong": after_kong,
    }
    if source is not None:
        data["from"] = source
    if extra:
        data["jingzhou"] = extra
    return data


def pay(data: dict[str, Any]) -> dict[tuple[int, int], int]:
    """{(payer, payee): amount} of the record's settlement."""
    record = record_from_json(data)
    payments = JZ.settle(record)
    assert sum(net(payments, 3)) == 0
    return {(p.payer, p.payee): p.amount for p in payments}


def refused(data: dict[str, Any], match: str) -> None:
    with pytest.raises(RecordError, match=match):
        record_from_json(data)


CHOW_234P_FROM_0 = meld("chow", "234p", 0)


def test_rule_book_worked_example_seat1_receives_96() -> None:
    # Seat 1: opened once, one 红中杠, 硬胡 → 3. Seat 2 (opened, 点炮) → 2: 2^5 = 32.
    # Seat 0 (dealer, one 暗杠) → 1 + 2 = 3: 2^6 = 64.
    data = rec(1, "discard", "2p", "567p 678s 345s 2p",
               [CHOW_234P_FROM_0, meld("red_dragon_kong", "7z")], source=2,
               others={2: [meld("pung", "999p", 1)], 0: [meld("concealed_kong", "4444z")]})
    assert pay(data) == {(2, 1): 32, (0, 1): 64}


def test_dealer_doubles_for_pihu_and_self_draw_doubles_every_loser() -> None:
    # Dealer seat 0 wins 自摸: opened 1 + 硬胡 1 + 庄家 1 = 3; each loser 自摸 1 → 2^4 = 16.
    data = rec(0, "self_draw", "2p", "567p 678s 345s 2p", [meld("chow", "234p", 2)])
    assert pay(data) == {(1, 0): 16, (2, 0): 16}


def test_opened_doubles_once_or_per_meld_with_kou_kou_fan() -> None:
    # Two open melds. Default: opened 1 + 硬胡 1 = 2; 点炮 2^3 = 8, dealer 2^3 = 8.
    base = dict(winner=1, how="discard", tile="2p", concealed="678s 345s 2p",
                melds=[CHOW_234P_FROM_0, meld("pung", "999p", 2)], source=2)
    assert pay(rec(**base)) == {(2, 1): 8, (0, 1): 8}  # type: ignore[arg-type]
    # 口口翻: opened counts 2 → winner 3: 2^4 = 16 each.
    kk = rec(**base, options={"kou_kou_fan": True})  # type: ignore[arg-type]
    assert pay(kk) == {(2, 1): 16, (0, 1): 16}


def test_pihu_refused_by_the_8_point_minimum() -> None:
    # 软胡 with one laizi (1s as 2s or 5s): opened 1 → winner 1; 点炮 2^2 = 4, dealer 4.
    data = rec(1, "discard", "2p", "567p 678s 34s 1s 2p", [CHOW_234P_FROM_0], source=2)
    refused(data, "at least 8")


def test_soft_pihu_allowed_when_a_loser_pays_8() -> None:
    # As above plus a 明杠 for the winner: 1 + 1 = 2; seat 2 点炮 → 2^3 = 8; seat 0 庄 → 8.
    data = rec(1, "discard", "2p", "678s 34s 1s 2p",
               [CHOW_234P_FROM_0, meld("kong", "9999p", 2)], source=2)
    assert pay(data) == {(2, 1): 8, (0, 1): 8}


def test_hard_whenever_some_reading_is_hard() -> None:
    # The laizi 1s stands for itself in 123s: 硬胡. opened 1 + 硬胡 1 = 2 → 8 and 8.
    data = rec(1, "discard", "2p", "567p 678s 123s 2p", [CHOW_234P_FROM_0], source=2)
    assert pay(data) == {(2, 1): 8, (0, 1): 8}


def test_pihu_allows_at_most_one_laizi() -> None:
    data = rec(1, "discard", "2p", "567p 678s 11s 3s 2p", [CHOW_234P_FROM_0], source=2)
    refused(data, "at most one laizi")


def test_each_kong_kind_doubles() -> None:
    # Winner: opened 1 + 硬胡 1 + 明杠 1 + 赖子杠 2 + 暗杠 2 = 7.
    # Seat 2: 点炮 1 → 2^8 = 256; seat 0: 庄 1 → 256 (under the 300 cap).
    melds = [meld("kong", "9999p", 2), meld("laizi_kong", "1s"),
             meld("concealed_kong", "4444z")]
    data = rec(1, "discard", "2p", "678s 345s 2p", melds, source=2)
    assert pay(data) == {(2, 1): 256, (0, 1): 256}
    # An added kong is a 明杠 too; a 红中杠 doubles once.
    melds = [meld("added_kong", "9999p", 2), meld("red_dragon_kong", "7z"),
             meld("concealed_kong", "4444z")]
    data = rec(1, "discard", "2p", "678s 345s 2p", melds, source=2)
    # 1 + 1 + 1 + 1 + 2 = 6: 2^7 = 128 each.
    assert pay(data) == {(2, 1): 128, (0, 1): 128}


def test_losers_own_kongs_and_opening_double_their_line() -> None:
    # Winner 2 (opened 1 + 硬胡 1). Seat 2 点炮 + 暗杠 2 + 开口 1 → 2^(2+4) = 64.
    # Seat 0 庄 1 + 赖子杠 2 + 红中杠 1 → 2^(2+4) = 64.
    data = rec(1, "discard", "2p", "567p 678s 345s 2p", [CHOW_234P_FROM_0], source=2,
               others={2: [meld("concealed_kong", "4444z"), meld("pung", "999p", 0)],
                       0: [meld("laizi_kong", "1s"), meld("red_dragon_kong", "7z")]})
    assert pay(data) == {(2, 1): 64, (0, 1): 64}


def test_a_capped_line_pays_300() -> None:
    # As in test_each_kong_kind_doubles (256 each) but seat 2 opened too: 2^9 = 512 → 300.
    melds = [meld("kong", "9999p", 2), meld("laizi_kong", "1s"),
             meld("concealed_kong", "4444z")]
    data = rec(1, "discard", "2p", "678s 345s 2p", melds, source=2,
               others={2: [meld("pung", "888p", 0)]})
    assert pay(data) == {(2, 1): 300, (0, 1): 256}
    # Table options: with cap 200 both lines (512, 256) reach it → 金顶 400, × base 2.
    data["options"] = {"cap": 200, "base": 2}
    assert pay(data) == {(2, 1): 800, (0, 1): 800}


def test_gold_when_every_line_is_capped() -> None:
    melds = [meld("kong", "9999p", 2), meld("laizi_kong", "1s"),
             meld("concealed_kong", "4444z")]
    data = rec(1, "discard", "2p", "678s 345s 2p", melds, source=2,
               others={2: [meld("pung", "888p", 0)], 0: [meld("pung", "666p", 2)]})
    assert pay(data) == {(2, 1): 400, (0, 1): 400}
    data["options"] = {"gold": 500}
    assert pay(data) == {(2, 1): 500, (0, 1): 500}


def test_qingyise() -> None:
    # 清一色 10; winner opened 1 + 硬胡 1 = 2; 点炮 +10: (10+10)×4 = 80; seat 0: 10×4 = 40.
    data = rec(1, "discard", "5p", "567p 678p 5p", [CHOW_234P_FROM_0, meld("pung", "999p", 2)],
               source=2)
    assert pay(data) == {(2, 1): 80, (0, 1): 40}


def test_qingyise_bao_pai_the_feeder_of_the_third_meld_pays_all() -> None:
    melds = [CHOW_234P_FROM_0, meld("pung", "999p", 2), meld("chow", "678p", 2)]
    data = rec(1, "discard", "5p", "567p 5p", melds, source=0, extra={"qingyise_feeder": 2})
    # Lines: seat 0 点炮 (10+10)×4 = 80, seat 2 10×4 = 40; seat 2 fed the third meld: 120.
    assert pay(data) == {(2, 1): 120}
    del data["jingzhou"]
    assert pay(data) == {(0, 1): 80, (2, 1): 40}


def test_qingyise_feeder_must_have_fed_a_meld() -> None:
    melds = [CHOW_234P_FROM_0, meld("pung", "999p", 0), meld("chow", "678p", 0)]
    data = rec(1, "discard", "5p", "567p 5p", melds, source=0, extra={"qingyise_feeder": 2})
    refused(data, "fed none")


def test_fengyise_goes_straight_to_gold() -> None:
    data = rec(1, "discard", "6z", "444z 555z 6z",
               [meld("pung", "222z", 2), meld("pung", "333z", 0)], source=2)
    assert pay(data) == {(2, 1): 400, (0, 1): 400}


def test_jiangyise_needs_no_shape_and_goes_to_gold() -> None:
    data = rec(1, "discard", "2s", "888p 2s 5p 8s 2p",
               [meld("pung", "222p", 2), meld("pung", "555s", 0)], source=2)
    assert pay(data) == {(2, 1): 400, (0, 1): 400}


def test_pengpenghu() -> None:
    # 碰碰胡 10 (pair 66z, not a 屁胡): (10+10)×4 = 80 for the discarder, 10×4 = 40.
    data = rec(1, "discard", "6z", "333s 777s 6z",
               [meld("pung", "999p", 2), meld("pung", "444z", 0)], source=2)
    assert pay(data) == {(2, 1): 80, (0, 1): 40}


def test_big_hands_stack_additively() -> None:
    # 清一色 + 碰碰胡 = 20: discarder (20+10)×4 = 120; seat 0 20×4 = 80.
    data = rec(1, "discard", "5p", "444p 777p 5p",
               [meld("pung", "999p", 2), meld("pung", "222p", 0)], source=2)
    assert pay(data) == {(2, 1): 120, (0, 1): 80}


def test_qidui_wins_unopened() -> None:
    # 七对 自摸: 硬胡 1 (not opened); each loser (10 + 10 自摸) × 2 = 40.
    data = rec(1, "self_draw", "4z", "22p 33p 55s 66s 88s 99p 4z")
    assert pay(data) == {(0, 1): 40, (2, 1): 40}


def test_qidui_laizi_completes_a_pair_soft() -> None:
    # The laizi 1s pairs with 3z: 软胡, no doublings: (10 + 10) × 1 = 20 each.
    data = rec(1, "self_draw", "4z", "22p 33p 55s 66s 88s 4z 1s 3z")
    assert pay(data) == {(0, 1): 20, (2, 1): 20}


def test_unopened_hand_refused() -> None:
    data = rec(1, "self_draw", "2p", "234p 567p 678s 345s 2p")
    refused(data, "not opened")


def test_hand_with_red_dragon_refused() -> None:
    # Seven pairs but one pair is 中 中: no win while a 中 is held.
    data = rec(1, "self_draw", "4z", "22p 33p 55s 66s 88s 77z 4z")
    refused(data, "中 is in the hand")


def test_quanqiuren_and_its_bao_pai() -> None:
    melds = [CHOW_234P_FROM_0, meld("pung", "999p", 2), meld("pung", "444z", 0),
             meld("chow", "678s", 2)]
    data = rec(1, "discard", "6z", "6z", melds, source=2, extra={"discarder_ready": True})
    # 全求人 10; opened 1 + 硬胡 1 = 2: discarder 20×4 = 80, the other 10×4 = 40.
    assert pay(data) == {(2, 1): 80, (0, 1): 40}
    data["jingzhou"] = {"discarder_ready": False}  # not ready: the discarder pays all
    assert pay(data) == {(2, 1): 120}
    del data["jingzhou"]
    refused(data, "discarder_ready")


def test_gangkai() -> None:
    # 杠开 after a 红中杠: opened 1 + 硬胡 1 + 红中杠 1 = 3; (10 + 10 自摸) × 8 = 160 each.
    data = rec(1, "self_draw", "2p", "678s 345s 2p",
               [CHOW_234P_FROM_0, meld("red_dragon_kong", "7z"), meld("pung", "999p", 2)],
               after_kong=True)
    assert pay(data) == {(0, 1): 160, (2, 1): 160}
    data["after_kong"] = False  # the same hand without the kong draw: 屁胡 自摸
    # opened 1 + 硬胡 1 + 红中杠 1 = 3; 自摸 1 → 16 each (dealer seat 0: 32).
    assert pay(data) == {(0, 1): 32, (2, 1): 16}


def test_qianggang_bao_pai_the_robbed_seat_pays_as_if_self_drawn() -> None:
    data = rec(1, "robbed_kong", "5p", "345s 678s 34p 88p", [meld("chow", "678p", 0)],
               source=2, others={2: [meld("pung", "555p", 0)]})
    # 抢杠 10 + 10 (as 自摸); winner 2; seat 2 opened 1 → 20×8 = 160; seat 0 20×4 = 80.
    assert pay(data) == {(2, 1): 240}


def test_wrong_tile_counts_and_missing_fields_are_refused() -> None:
    data = rec(1, "discard", "2p", "567p 678s 345s 2p", [CHOW_234P_FROM_0], source=2,
               others={2: [meld("pung", "222p", 1)]})
    refused(data, "2p appears 6 times")
    data = rec(1, "discard", "2p", "567p 678s 345s 2p", [CHOW_234P_FROM_0], source=2)
    del data["from"]
    refused(data, "missing field 'from'")
    data = rec(1, "discard", "1m", "567p 678s 345s 2p", [CHOW_234P_FROM_0], source=2)
    refused(data, "1m")
    data = rec(1, "discard", "2p", "567p 678s 345s 2p 3p", [CHOW_234P_FROM_0], source=2)
    refused(data, "concealed tiles")


def test_nobody_wins_on_a_laizi_or_red_dragon() -> None:
    data = rec(1, "discard", "1s", "567p 678s 345s 2p", [CHOW_234P_FROM_0], source=2)
    refused(data, "中 or laizi")


def test_draw_pays_nothing_and_dealer_keeps_the_deal() -> None:
    data = {"variant": "jingzhou", "dealer": 2, "indicators": "9s", "outcome": "draw",
            "seats": [{"melds": []}, {"melds": [meld("concealed_kong", "4444z")]},
                      {"melds": []}]}
    record = record_from_json(data)
    assert JZ.settle(record) == []
    assert JZ.next_dealer(record) == 2
    win = record_from_json(rec(1, "self_draw", "2p", "567p 678s 345s 2p",
                               [CHOW_234P_FROM_0]))
    assert JZ.next_dealer(win) == 1
