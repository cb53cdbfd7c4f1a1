"""Worked examples for every Taiwan 台 item (seed 004, 1-36) and every exclusion it names."""

from __future__ import annotations

import json
from typing import Any

import pytest

from laizi.scoring.taiwan import (
    COMMON_TABLE,
    ITEMS,
    SEED,
    HandError,
    NotAWinError,
    TaiResult,
    TaiwanHand,
    TaiwanOptions,
    WinContext,
    parse_hand,
    score_flower_win,
    score_hand,
)
from laizi.scoring.taiwan.items import BY_ID, exclusion_order

EIGHT_PAIRS = TaiwanOptions(eight_pairs=True)


def score(concealed: str, win: str, melds: tuple[str, ...] = (), flowers: str = "",
          options: TaiwanOptions = SEED, **ctx: Any) -> TaiResult:
    ctx.setdefault("self_drawn", False)
    ctx.setdefault("seat_wind", 1)  # 南, not the dealer
    return score_hand(parse_hand(concealed, win, melds, flowers), WinContext(**ctx), options)


def items(r: TaiResult) -> dict[str, int]:
    return {i.id: i.tai for i in r.items}


# ---------------------------------------------------------------- the table itself


def test_table_has_all_36_seed_items_with_names() -> None:
    numbers = {d.number for d in ITEMS}
    assert {str(n) for n in range(1, 37)} <= numbers
    for d in ITEMS:
        assert d.zh and d.en and d.note
    seed_values = {"1": 1, "2": 1, "3": 1, "4": 2, "5": 2, "6": 1, "7": 2, "8": 4, "9": 1,
                   "10": 2, "11": 1, "12": 1, "13": 16, "14": 12, "15": 4, "16": 2, "17": 5,
                   "18": 13, "19": 16, "20": 8, "21": 8, "22": 4, "23": 1, "24": 1, "25": 1,
                   "26": 1, "29": 8, "30": 8, "31": 8, "32": 4, "33": 16, "34": 16, "35": 8,
                   "36": 8}
    by_number = {d.number: d for d in ITEMS}
    for n, v in seed_values.items():
        assert by_number[n].tai == v, n


def test_exclusion_order_puts_excluders_first() -> None:
    order = {i: k for k, i in enumerate(exclusion_order())}
    for d in ITEMS:
        for x in d.excludes:
            assert order[d.id] < order[x]


def test_result_is_json() -> None:
    r = score("123m456m789m234p55z", "3p", ("p666z",))
    data = json.loads(json.dumps(r.to_json(), ensure_ascii=False))
    assert data["tai"] == r.tai == sum(i["tai"] for i in data["items"])
    assert data["reading"]["shape"] == "standard"


# ---------------------------------------------------------------- 1-2 honour pungs


def test_1_wind_pung_seat_and_prevalent() -> None:
    r = score("123m456m789m234p55p", "4p", ("p222z",), seat_wind=1, prevalent_wind=1)
    assert items(r) == {"wind_pung": 2}
    r = score("123m456m789m234p55p", "4p", ("p222z",), seat_wind=1, prevalent_wind=0)
    assert items(r) == {"wind_pung": 1}
    r = score("123m456m789m234p55p", "4p", ("p333z",), seat_wind=1, prevalent_wind=0)
    assert items(r) == {}  # 西 is neither 门风 nor 圈风


def test_2_dragon_pungs_each() -> None:
    r = score("123m456m234p55p", "4p", ("p777z", "p666z"))
    assert items(r) == {"dragon_pung": 2}


# ---------------------------------------------------------------- 3-7 concealment, claims


def test_3_concealed_hand_on_a_discard_with_all_chows() -> None:
    r = score("123m456m789m234p678s55s", "2p")
    assert items(r) == {"concealed_hand": 1, "all_chows": 2}


def test_3_concealed_kong_keeps_the_hand_concealed() -> None:
    r = score("123m456m789m234p55s", "2p", ("a7777s",))
    assert "concealed_hand" in items(r)
    r = score("123m456m789m234p55s", "2p", ("k7777s",))
    assert "concealed_hand" not in items(r)


def test_4_concealed_self_draw_is_three_with_concealed_hand() -> None:
    r = score("123m456m789m234p678s55s", "2p", self_drawn=True)
    assert items(r) == {"concealed_hand": 1, "concealed_self_draw": 2}  # 门清一摸三
    assert r.tai == 3


def test_5_all_claimed_adds_single_wait() -> None:
    r = score("55s", "5s", ("c123m", "c456m", "c789m", "c234p", "p777s"))
    assert items(r) == {"all_claimed": 2, "single_wait": 1}


def test_5_all_claimed_needs_every_meld_claimed() -> None:
    r = score("55s", "5s", ("c123m", "c456m", "c789m", "c234p", "a7777s"))
    assert "all_claimed" not in items(r)
    assert items(r) == {"single_wait": 1}


def test_6_half_claimed_with_single_wait_and_self_draw_is_three() -> None:
    r = score("55s", "5s", ("c123m", "c456m", "c789m", "c234p", "p777s"), self_drawn=True)
    assert items(r) == {"half_claimed": 1, "single_wait": 1, "self_draw": 1}


def test_7_all_chows_conditions() -> None:
    base = ("123m456m789m234p55s", "2p", ("c678s",))
    assert items(score(*base)) == {"all_chows": 2}
    assert "all_chows" not in items(score(*base, self_drawn=True))  # 非自摸
    assert "all_chows" not in items(score(*base, flowers="3f"))  # 无花 (even a useless one)
    assert "all_chows" not in items(score("123m456m789m234p55z", "2p", ("c678s",)))  # 无字
    # 卡张 on 3p: 独听, so no 平胡
    assert items(score("123m456m789m234p55s", "3p", ("c678s",))) == {"single_wait": 1}
    # 无坎: a pung (even of a plain tile) breaks it
    assert "all_chows" not in items(score("123m456m789m234p55s", "2p", ("p777s",)))


# ---------------------------------------------------------------- 8-12


def test_8_all_pungs() -> None:
    r = score("777m333s88p", "3s", ("p111m", "p999p", "p555s"))
    assert items(r) == {"all_pungs": 4}  # 333s completed by the discard: only 1 暗坎


def test_9_10_dealer_items_are_separate() -> None:
    r = score("123m456m789m234p55z", "4p", ("c234s",), seat_wind=0)
    assert r.tai == 0
    assert [(i.id, i.tai) for i in r.dealer_items] == [("dealer", 1)]
    r = score("123m456m789m234p55z", "4p", ("c234s",), seat_wind=2, dealer_streak=3)
    assert [(i.id, i.zh, i.tai) for i in r.dealer_items] == [
        ("dealer", "作庄", 1), ("dealer_streak", "连3拉3", 6)]
    assert r.dealer_tai == 7


def test_11_single_wait_closed_wait() -> None:
    r = score("123m456m789m123p678s55s", "2p")
    assert items(r) == {"concealed_hand": 1, "single_wait": 1}
    assert "卡张" in next(i.why for i in r.items if i.id == "single_wait")


def test_11_single_wait_judged_on_all_waits() -> None:
    # 2444p waits on 2p and 3p: winning on 3p reads as 卡张 but is not 独听
    r = score("123m456m789m678s23444p", "3p")
    assert "single_wait" not in items(r)


def test_11_edge_wait() -> None:
    r = score("123m456m789m789p345s55s", "7p")
    assert items(r)["single_wait"] == 1
    assert "边张" in next(i.why for i in r.items if i.id == "single_wait")


def test_11_a_wait_on_a_tile_all_held_does_not_count() -> None:
    # 1112m 789p waits on 2m and 3m, but all four 2m are already held: 3m is the only wait
    r = score("11123m789p", "3m", ("c123m", "c234m", "c234m"))
    assert items(r)["single_wait"] == 1


def test_12_robbing_a_kong() -> None:
    r = score("123m456m789m234p55z", "4p", ("c234s",), robbed_kong=True)
    assert items(r) == {"robbing_kong": 1}


# ---------------------------------------------------------------- 13-15 colour


def test_13_all_honours_with_big_three_dragons_takes_four_off() -> None:
    r = score("777z111z222z33z", "7z", ("p555z", "p666z"), seat_wind=1, prevalent_wind=0)
    assert items(r) == {"wind_pung": 2, "all_honours": 16, "all_honours_overlap": -4,
                        "big_three_dragons": 8}
    assert r.tai == 22  # 对对胡 not counted, 箭字坎 not counted


@pytest.mark.parametrize("concealed,win,melds,pattern", [
    ("444z55z", "5z", ("p111z", "p222z", "p333z", "p666z"), "big_four_winds"),
    ("333z44z", "4z", ("p111z", "p222z", "p555z", "p666z"), "little_four_winds"),
    ("222z55z", "5z", ("p111z", "p666z", "p777z", "p333z"), "little_three_dragons"),
])
def test_13_all_honours_overlap_once(concealed: str, win: str, melds: tuple[str, ...],
                                     pattern: str) -> None:
    r = score(concealed, win, melds)
    got = items(r)
    assert got["all_honours"] == 16 and got["all_honours_overlap"] == -4 and pattern in got
    assert "all_pungs" not in got


def test_14_full_flush() -> None:
    r = score("234m678m55m", "8m", ("c123m", "c456m", "c789m"))
    assert items(r) == {"full_flush": 12, "all_chows": 2}


def test_15_half_flush() -> None:
    r = score("789m234m55z", "4m", ("c123m", "c456m", "p777z"))
    assert items(r) == {"half_flush": 4, "dragon_pung": 1}


# ---------------------------------------------------------------- 16-18 concealed pungs


def test_16_three_concealed_pungs() -> None:
    r = score("111m999p333s456s77s", "4s", ("c123p",))
    assert items(r) == {"three_concealed_pungs": 2}


def test_16_pung_completed_by_a_discard_is_not_concealed() -> None:
    r = score("111m999p333s456s77s", "3s", ("c123p",))
    assert "three_concealed_pungs" not in items(r)
    r = score("111m999p333s456s77s", "3s", ("c123p",), self_drawn=True)
    assert items(r)["three_concealed_pungs"] == 2


def test_16_winning_tile_placed_in_a_chow_keeps_the_pung_concealed() -> None:
    # 3345s55s + 3s: read 333s + 345s, the discard completes the chow (就高)
    r = score("111m999p333s345s55s", "3s", ("c123p",))
    assert items(r) == {"three_concealed_pungs": 2}


def test_17_four_concealed_pungs() -> None:
    r = score("111m999p333s777s456m55p", "4m", self_drawn=True)
    assert items(r) == {"concealed_hand": 1, "concealed_self_draw": 2,
                        "four_concealed_pungs": 5}


def test_18_five_concealed_pungs_self_drawn() -> None:
    r = score("111m999p333s777s222z55p", "2z", self_drawn=True, seat_wind=1)
    assert items(r) == {"wind_pung": 1, "concealed_self_draw": 2, "five_concealed_pungs": 13}


def test_18_five_concealed_pungs_on_a_single_wait_discard() -> None:
    r = score("111m999p333s777s222z55p", "5p", seat_wind=1)
    assert items(r) == {"wind_pung": 1, "single_wait": 1, "five_concealed_pungs": 13}


def test_18_concealed_kongs_count_as_concealed_pungs() -> None:
    r = score("333s777s222z55p", "5p", ("a1111m", "a9999p"), seat_wind=3)
    assert items(r) == {"single_wait": 1, "five_concealed_pungs": 13}


# ---------------------------------------------------------------- 19-22


def test_19_big_four_winds_drops_wind_pungs() -> None:
    r = score("123m99m", "9m", ("p111z", "p222z", "p333z", "p444z"))
    assert items(r) == {"single_wait": 1, "half_flush": 4, "big_four_winds": 16}


def test_20_little_four_winds_keeps_wind_pungs() -> None:
    r = score("12m3m456m44z", "3m", ("p111z", "p222z", "p333z"), seat_wind=1)
    assert items(r) == {"wind_pung": 2, "single_wait": 1, "half_flush": 4,
                        "little_four_winds": 8}


def test_21_big_three_dragons_drops_dragon_pungs() -> None:
    r = score("123m456m99m", "9m", ("p555z", "p666z", "p777z"))
    assert items(r) == {"single_wait": 1, "half_flush": 4, "big_three_dragons": 8}


def test_22_little_three_dragons_drops_dragon_pungs() -> None:
    r = score("23m1m456m789m77z", "1m", ("p555z", "p666z"))
    assert items(r) == {"half_flush": 4, "little_three_dragons": 4}


# ---------------------------------------------------------------- 23-26


def test_23_self_draw() -> None:
    r = score("123m456m789m234p55z", "4p", ("c234s",), self_drawn=True)
    assert items(r) == {"self_draw": 1}


def test_24_kong_bloom_adds_self_draw() -> None:
    r = score("123m456m789m55p", "4m", ("c234s", "k7777p"), self_drawn=True,
              kong_replacement=True)
    assert items(r) == {"self_draw": 1, "kong_bloom": 1}


def test_24_flower_replacement_counts_as_bloom_unless_switched_off() -> None:
    args = ("123m456m789m55p", "4m", ("c234s", "p777p"))
    r = score(*args, flowers="3f", self_drawn=True, flower_replacement=True)
    assert items(r) == {"self_draw": 1, "kong_bloom": 1}
    r = score(*args, flowers="3f", self_drawn=True, flower_replacement=True,
              options=TaiwanOptions(flower_replacement_bloom=False))
    assert items(r) == {"self_draw": 1}


def test_25_last_tile_adds_self_draw_and_last_discard_is_an_option() -> None:
    args = ("123m456m789m234p55z", "4p", ("c234s",))
    assert items(score(*args, self_drawn=True, last_tile=True)) == {
        "self_draw": 1, "last_tile_draw": 1}
    assert items(score(*args, last_tile=True)) == {}
    assert items(score(*args, last_tile=True, options=COMMON_TABLE)) == {"last_discard": 1}


@pytest.mark.parametrize("flowers,seat,tai", [
    ("2f", 1, 1), ("2f6f", 1, 2), ("1f5f", 1, 0), ("1f2f3f4f", 1, 2), ("1f2f3f4f6f", 1, 3),
    ("1f2f3f4f5f6f7f", 0, 3), ("5f6f7f8f", 2, 2), ("1f2f3f4f5f6f7f8f", 3, 8), ("4f8f", 3, 2),
])
def test_26_flowers(flowers: str, seat: int, tai: int) -> None:
    r = score("123m456m789m234p55z", "4p", ("c234s",), flowers=flowers, seat_wind=seat)
    assert items(r).get("flowers", 0) == tai


# ---------------------------------------------------------------- 27-30 flower wins


def test_29_eight_immortals_without_a_hand() -> None:
    r = score_flower_win("eight_immortals", WinContext(self_drawn=True, seat_wind=2,
                                                       dealer_streak=1))
    assert r.flower_tai == 8 and r.tai == 0 and r.dealer_tai == 3
    assert [i.number for i in r.flower_items] == ["27", "29"]


def test_28_flower_win_on_deal_is_marked() -> None:
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=2),
                         on_deal=True)
    assert [i.id for i in r.flower_items] == ["flower_win", "flower_win_on_deal",
                                              "seven_robs_one"]
    assert r.flower_tai == 8


def test_29_eight_immortals_with_a_blooming_hand_counts_the_hand_not_the_flowers() -> None:
    hand = parse_hand("123m456m789m234p55z", "4p", ("c234s",), "1f2f3f4f5f6f7f8f")
    r = score_flower_win("eight_immortals", WinContext(self_drawn=True, seat_wind=1), hand)
    assert items(r) == {"self_draw": 1, "kong_bloom": 1}
    assert r.flower_tai == 8


# ---------------------------------------------------------------- 31-36


def test_31_heavenly_ready_replaces_concealed_hand() -> None:
    args = ("123m456m789m234p678s55s", "2p")
    assert items(score(*args, declaration="heavenly")) == {"all_chows": 2, "heavenly_ready": 8}
    assert items(score(*args, declaration="heavenly", self_drawn=True)) == {
        "concealed_self_draw": 2, "heavenly_ready": 8}


def test_31_32_declaration_void_after_a_passed_win() -> None:
    args = ("123m456m789m234p678s55s", "2p")
    r = score(*args, declaration="heavenly", passed_win_since_declaring=True)
    assert items(r) == {"concealed_hand": 1, "all_chows": 2}
    r = score(*args, declaration="earthly", passed_win_since_declaring=True)
    assert "earthly_ready" not in items(r)


def test_32_earthly_ready() -> None:
    r = score("123m456m789m123p678s55s", "2p", declaration="earthly")
    assert items(r) == {"single_wait": 1, "earthly_ready": 4}


def test_32_dealer_may_declare_earthly_not_heavenly() -> None:
    assert "earthly_ready" in items(score("123m456m789m123p678s55s", "2p", declaration="earthly",
                                          seat_wind=0))
    with pytest.raises(HandError, match="天听"):
        WinContext(self_drawn=False, seat_wind=0, declaration="heavenly")


def test_33_heavenly_win_drops_concealed_hand_and_self_draws() -> None:
    r = score("123m456m789m123p678s55s", "2p", seat_wind=0, self_drawn=True, first_draw=True)
    assert items(r) == {"heavenly_win": 16}
    r = score("123m456m789m123p678s55s", "2p", seat_wind=0, self_drawn=True, first_draw=True,
              options=COMMON_TABLE)
    assert items(r) == {"heavenly_win": 24}


def test_34_earthly_win_self_drawn_keeps_concealed_self_draw() -> None:
    r = score("123m456m789m234p678s55s", "2p", self_drawn=True, first_draw=True,
              declaration="heavenly")
    assert items(r) == {"concealed_self_draw": 2, "earthly_win": 16}


def test_34_earthly_win_on_a_first_discard() -> None:
    r = score("123m456m789m234p678s55s", "2p", discarders_first_discard=True)
    assert items(r) == {"all_chows": 2, "earthly_win": 16}
    # the dealer winning on a first discard is not 地胡
    r = score("123m456m789m234p678s55s", "2p", seat_wind=0, discarders_first_discard=True)
    assert "earthly_win" not in items(r)


def test_35_human_win_drops_earthly_ready_and_concealed_hand() -> None:
    r = score("123m456m789m123p678s55s", "2p", declaration="earthly",
              first_go_round_after_declaration=True)
    assert items(r) == {"single_wait": 1, "human_win": 8}
    r = score("123m456m789m123p678s55s", "2p", declaration="earthly", self_drawn=True,
              first_go_round_after_declaration=True)
    assert items(r) == {"concealed_self_draw": 2, "single_wait": 1, "human_win": 8}


def test_36_eight_pairs_is_an_option() -> None:
    args = ("11m22m33m44p55p66s77s99s9s", "9s")
    with pytest.raises(NotAWinError):
        score(*args, self_drawn=True)
    r = score(*args, self_drawn=True, options=EIGHT_PAIRS)
    # any of the eight pairs could have become the pung: not 独听
    assert items(r) == {"concealed_hand": 1, "concealed_self_draw": 2, "eight_pairs": 8}


def test_36_eight_pairs_adds_honour_pung_and_flush() -> None:
    r = score("11m22m33m44m55m66m11z777z", "1m", options=EIGHT_PAIRS)
    got = items(r)
    assert got["eight_pairs"] == 8 and got["half_flush"] == 4 and got["dragon_pung"] == 1
    r = score("11m22m33m44m55m66m77m999m", "1m", options=EIGHT_PAIRS)
    assert items(r)["full_flush"] == 12


def test_36_takes_the_higher_of_eight_pairs_and_a_standard_reading() -> None:
    # 112233m 445566p 77s + 777s: standard (4 chows?) no: 11 22 33 -> 123 123; read both
    r = score("112233m445566p777s88s", "8s", options=EIGHT_PAIRS)
    std = score("112233m445566p777s88s", "8s")
    assert r.tai >= std.tai
    assert r.tai == max(std.tai, 8 + 1 + 0)


# ---------------------------------------------------------------- bad input


def test_bad_hands_raise_clear_errors() -> None:
    with pytest.raises(HandError, match="holds 11 tiles"):
        parse_hand("123m456m789m234p55p", "4p", ("c234s", "c234s"))
    with pytest.raises(HandError, match="5 copies"):
        parse_hand("11111m456m789m234p555p", "1m")
    with pytest.raises(HandError, match="chow"):
        parse_hand("123m456m789m55p", "4m", ("c135s", "c234s"))
    with pytest.raises(HandError, match="winning tile"):
        parse_hand("123m456m789m234p55p", "9p", ("c234s",))
    with pytest.raises(HandError, match="robbed"):
        WinContext(self_drawn=True, seat_wind=1, robbed_kong=True)
    with pytest.raises(NotAWinError):
        score("123m456m789m234p58p", "4p", ("c234s",))
    with pytest.raises(ValueError, match="unknown 台 key"):
        TaiwanOptions(tai=(("nope", 3),))


def test_options_presets_from_json() -> None:
    assert TaiwanOptions.from_json({"preset": "common"}) == COMMON_TABLE
    o = TaiwanOptions.from_json({"preset": "common", "tai": {"full_flush": 10}})
    assert dict(o.tai)["full_flush"] == 10 and dict(o.tai)["heavenly_win"] == 24
    assert BY_ID["full_flush"].tai == 12


def test_engine_melds_are_accepted() -> None:
    from laizi.core.melds import Meld
    from laizi.tiles import parse

    hand = TaiwanHand(tuple(parse("123m456m789m55z")), (
        Meld("chow", (19, 20, 21), source=0, claimed=19),  # 234s
        Meld("added_kong", (15, 15, 15, 15), source=2, claimed=15),  # 7777p
    ), (), 3)
    r = score_hand(hand, WinContext(self_drawn=True, seat_wind=1, kong_replacement=True))
    assert items(r) == {"self_draw": 1, "kong_bloom": 1}


def test_doc_table_is_generated_from_the_data() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "scripts" / "taiwan_table.py"
    spec = importlib.util.spec_from_file_location("taiwan_table", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0
    assert "| 18 | 五暗坎 | Five concealed pungs | `five_concealed_pungs` | 8 |" in module.table(
        "common")


def test_34_earthly_win_absorbs_earthly_ready_and_human_win() -> None:
    r = score("123m456m789m123p678s55s", "2p", declaration="earthly",
              discarders_first_discard=True, first_go_round_after_declaration=True)
    assert items(r) == {"single_wait": 1, "earthly_win": 16}


@pytest.mark.parametrize("excluder,excluded", [
    (d.id, x) for d in ITEMS for x in d.excludes])
def test_every_exclusion_in_the_table_is_applied(excluder: str, excluded: str) -> None:
    from laizi.scoring.taiwan.calculator import ScoredItem, _apply_exclusions

    hits = {i: ScoredItem(BY_ID[i].number, i, BY_ID[i].zh, BY_ID[i].en, 1, "")
            for i in (excluder, excluded)}
    assert [s.id for s in _apply_exclusions(hits)] == [excluder]


def test_hand_and_context_json_round_trip() -> None:
    hand = parse_hand("123m456m789m55z", "4m", ("c234s", "a7777p"), "1f5f")
    assert TaiwanHand.from_json(json.loads(json.dumps(hand.to_json()))) == hand
    ctx = WinContext(self_drawn=True, seat_wind=2, prevalent_wind=1, dealer_streak=2,
                     declaration="earthly", kong_replacement=True)
    assert WinContext.from_json(json.loads(json.dumps(ctx.to_json()))) == ctx
