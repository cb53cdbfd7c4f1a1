"""Worked examples: a hand earning each of the 82 fans, key 不计 exclusions, input errors."""

from __future__ import annotations

from typing import Any

import pytest

from laizi import tiles as T
from laizi.commands.fan import parse_melds
from laizi.scoring.mcr import FANS, FanResult, HandError, Meld, WinContext, score_hand

D: dict[str, Any] = {}
SELF: dict[str, Any] = {"self_drawn": True}

# (fan, concealed incl. the winning tile, melds, winning tile, context)
EXAMPLES: list[tuple[str, str, str, str, dict[str, Any]]] = [
    ("big_four_winds", "111z222z333z444z55m", "", "5m", D),
    ("big_three_dragons", "555z666z777z123m99p", "", "9p", D),
    ("all_green", "223344s666s888s66z", "", "6z", D),
    ("nine_gates", "11123455678999m", "", "5m", D),
    ("four_kongs", "55z", "kong:1m,kong:2p,ckong:3s,kong:4z", "5z", D),
    ("seven_shifted_pairs", "11223344556677p", "", "7p", D),
    ("thirteen_orphans", "19m19p19s12345677z", "", "7z", D),
    ("all_terminals", "111m999m111p999s11s", "", "1s", D),
    ("little_four_winds", "111z222z333z44z123m", "", "3m", D),
    ("little_three_dragons", "555z666z77z123m456p", "", "6p", D),
    ("all_honours", "111z222z555z666z77z", "", "7z", D),
    ("four_concealed_pungs", "111m333p555s777m77z", "", "7z", D),
    ("pure_terminal_chows", "11223355778899m", "", "5m", D),
    ("quadruple_chow", "222233334444p11z", "", "1z", D),
    ("four_pure_shifted_pungs", "111222333444m55z", "", "5z", D),
    ("four_pure_shifted_chows", "122333444556m55z", "", "5z", D),
    ("three_kongs", "456p55z", "kong:1m,kong:2p,kong:3s", "5z", D),
    ("all_terminals_and_honours", "111m999p111z555z99s", "", "9s", D),
    ("seven_pairs", "1133m2255p4466s77z", "", "7z", D),
    ("greater_honours_and_knitted", "147m25p36s1234567z", "", "7z", D),
    ("all_even_pungs", "222888m444p666s22s", "", "2s", D),
    ("full_flush", "11112345556789m", "", "9m", D),
    ("pure_triple_chow", "112233m456p99s", "chow:123m", "9s", D),
    ("pure_shifted_pungs", "111222333m456p99s", "", "9s", D),
    ("upper_tiles", "777888999m789p77s", "", "7s", D),
    ("middle_tiles", "456m456p456s444s55m", "", "5m", D),
    ("lower_tiles", "123m123p123s111m22p", "", "2p", D),
    ("pure_straight", "123456789m123p55z", "", "5z", D),
    ("three_suited_terminal_chows", "123789m123789p55s", "", "5s", D),
    ("pure_shifted_chows", "122333445m456p55z", "", "5z", D),
    ("all_fives", "345m456p567s555m55p", "", "5p", D),
    ("triple_pung", "222m222p222s456m99s", "", "9s", D),
    ("three_concealed_pungs", "111m333p555s456m77z", "", "7z", D),
    ("lesser_honours_and_knitted", "147m258p369s12345z", "", "5z", D),
    ("knitted_straight", "147m258p369s123m55z", "", "5z", D),
    ("upper_four", "678m789p666s999m77s", "", "7s", D),
    ("lower_four", "234m123p444s111m22s", "", "2s", D),
    ("big_three_winds", "111z222z333z123m55p", "", "5p", D),
    ("mixed_straight", "123m456p789s111z55m", "", "5m", D),
    ("reversible_tiles", "123p999p456s888s55z", "", "5z", D),
    ("mixed_triple_chow", "123m123p123s555z99m", "", "9m", D),
    ("mixed_shifted_pungs", "222m333p444s567m99s", "", "9s", D),
    ("chicken_hand", "234m567p678s22z", "chow:123s", "8s", D),
    ("last_tile_draw", "123m456p789s111z55m", "", "5m",
     {"self_drawn": True, "last_tile_of_wall": True}),
    ("last_tile_claim", "123m456p789s111z55m", "", "5m", {"last_discard": True}),
    ("out_with_replacement_tile", "123m456p789s55m", "kong:1z", "5m",
     {"self_drawn": True, "kong_replacement": True}),
    ("robbing_the_kong", "123m456p789s111z55m", "", "3m", {"robbed_kong": True}),
    ("all_pungs", "222p333s555z77z", "pung:1m", "7z", D),
    ("half_flush", "123456789m111z55z", "", "5z", D),
    ("mixed_shifted_chows", "123m234p345s111z55m", "", "5m", D),
    ("all_types", "123m456p789s111z55z", "", "5z", D),
    ("melded_hand", "55m", "chow:123m,chow:456p,chow:789s,pung:1z", "5m", D),
    ("two_concealed_kongs", "345s678s55z", "ckong:1m,ckong:2p", "5z", D),
    ("two_dragon_pungs", "555z666z123m456p99s", "", "9s", D),
    ("concealed_and_melded_kong", "345s678s55z", "ckong:1m,kong:2p", "5z", D),
    ("outside_hand", "123m789m123p111z99s", "", "9s", D),
    ("fully_concealed_hand", "123m456p789s111z55m", "", "5m", SELF),
    ("two_melded_kongs", "345s678s55z", "kong:1m,kong:2p", "5z", D),
    ("last_tile", "123m456p789s111z55m", "", "3m", {"last_copy": True}),
    ("dragon_pung", "555z123m456p789s11m", "", "1m", D),
    ("prevalent_wind", "222z123m456p789s11m", "", "1m", {"prevalent_wind": T.SOUTH}),
    ("seat_wind", "222z123m456p789s11m", "", "1m", {"seat_wind": T.SOUTH}),
    ("concealed_hand", "123m456p789s111z55m", "", "5m", D),
    ("all_chows", "123m456m456p789s55s", "", "5s", D),
    ("tile_hog", "111123m456p789s55z", "", "5z", D),
    ("double_pung", "222m222p456s789s11z", "", "1z", D),
    ("two_concealed_pungs", "111m222p456s789s11z", "", "1z", D),
    ("concealed_kong", "456p789s111z55m", "ckong:1m", "5m", D),
    ("all_simples", "234m456p678s222m55p", "", "5p", D),
    ("pure_double_chow", "112233m456p789s55z", "", "5z", D),
    ("mixed_double_chow", "123m123p456s789s55z", "", "5z", D),
    ("short_straight", "123456m789p111z55s", "", "5s", D),
    ("two_terminal_chows", "123789m456p111z55s", "", "5s", D),
    ("pung_of_terminals_or_honours", "111m456p789s234s55z", "", "5z", D),
    ("melded_kong", "456p789s111z55m", "kong:1m", "5m", D),
    ("one_voided_suit", "123m456m789p111z55p", "", "5p", D),
    ("no_honours", "123m456p789s111m55p", "", "5p", D),
    ("edge_wait", "123m456p789s111z55z", "", "3m", D),
    ("closed_wait", "123m456p789s111z55z", "", "2m", D),
    ("single_wait", "123m456p789s111z55z", "", "5z", D),
    ("self_drawn", "456p789s111z55m", "chow:123m", "5m", SELF),
    ("flower_tiles", "123m456p789s111z55m", "", "5m", {"flowers": 2}),
]


def score(hand: str, melds: str = "", win: str | None = None, **ctx: Any) -> FanResult:
    concealed = T.parse(hand)
    w = T.parse_tile(win) if win else concealed[-1]
    return score_hand(concealed, parse_melds(melds), w, WinContext(**ctx))


def test_every_fan_has_an_example() -> None:
    assert sorted(e[0] for e in EXAMPLES) == sorted(f.key for f in FANS)


@pytest.mark.parametrize(("fan", "hand", "melds", "win", "ctx"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_worked_example(fan: str, hand: str, melds: str, win: str,
                        ctx: dict[str, Any]) -> None:
    res = score(hand, melds, win, **ctx)
    assert res.is_win
    assert fan in res.counts(), res.to_json()
    assert res.total == sum(f.points for f in res.fans)
    assert res.to_json()["fans"]  # serialisable


def test_totals_of_known_hands() -> None:
    # 大四喜 (不计 碰碰和 幺九刻 圈风刻 门风刻) + 四暗刻 + 混一色 + 单钓将
    res = score("111z222z333z444z55m", win="5m")
    assert res.counts() == {"big_four_winds": 1, "four_concealed_pungs": 1,
                            "half_flush": 1, "single_wait": 1}
    assert res.total == 88 + 64 + 6 + 1
    # Chicken hand: 8 and nothing else.
    res = score("234m567p678s22z", "chow:123s", "8s")
    assert res.counts() == {"chicken_hand": 1} and res.total == 8


@pytest.mark.parametrize(("hand", "melds", "win", "ctx", "present", "absent"), [
    # 清一色 不计 无字 缺一门
    ("11112345556789m", "", "9m", D, "full_flush", ("no_honours", "one_voided_suit")),
    # 不求人 不计 自摸; 门前清 needs a discard
    ("123m456p789s111z55m", "", "5m", SELF, "fully_concealed_hand",
     ("self_drawn", "concealed_hand")),
    # 七对 不计 门前清 单钓将
    ("1133m2255p4466s77z", "", "7z", D, "seven_pairs", ("concealed_hand", "single_wait")),
    # 抢杠和 不计 和绝张
    ("123m456p789s111z55m", "", "3m", {"robbed_kong": True, "last_copy": True},
     "robbing_the_kong", ("last_tile",)),
    # 全求人 不计 单钓将
    ("55m", "chow:123m,chow:456p,chow:789s,pung:1z", "5m", D, "melded_hand",
     ("single_wait",)),
    # 明暗杠 instead of 明杠 + 暗杠; 双暗杠 不计 暗杠
    ("345s678s55z", "ckong:1m,kong:2p", "5z", D, "concealed_and_melded_kong",
     ("melded_kong", "concealed_kong")),
    ("345s678s55z", "ckong:1m,ckong:2p", "5z", D, "two_concealed_kongs",
     ("concealed_kong",)),
    # 妙手回春 不计 自摸
    ("123m456p789s111z55m", "", "5m", {"self_drawn": True, "last_tile_of_wall": True},
     "last_tile_draw", ("self_drawn",)),
    # 四暗刻 不计 碰碰和 门前清
    ("111m333p555s777m77z", "", "7z", D, "four_concealed_pungs",
     ("all_pungs", "concealed_hand")),
    # 平和 不计 无字
    ("123m456m456p789s55s", "", "5s", D, "all_chows", ("no_honours",)),
    # 边张 only when it was the only wait: 12345m won on 3m is not 边张
    ("123345m456p789s55z", "", "3m", D, "concealed_hand", ("edge_wait", "closed_wait")),
])
def test_exclusions(hand: str, melds: str, win: str, ctx: dict[str, Any], present: str,
                    absent: tuple[str, ...]) -> None:
    counts = score(hand, melds, win, **ctx).counts()
    assert present in counts
    for a in absent:
        assert a not in counts, counts


def test_readings_highest_total_wins() -> None:
    # 111222333m: pungs (一色三节高 + 三暗刻) beat chows (一色三同顺)
    res = score("111222333m456p99s", win="9s")
    assert "pure_shifted_pungs" in res.counts()
    assert "three_concealed_pungs" in res.counts()


def test_not_a_win_and_notes() -> None:
    res = score("123m456p789s111z56m", win="6m")
    assert not res.is_win and res.why_not
    assert res.to_json() == {"is_win": False, "why_not": res.why_not}
    res = score("123m456p789s55m", "kong:1z", "5m", self_drawn=True, kong_replacement=True)
    assert "out_with_replacement_tile" in res.counts()
    res = score("123m456p789s111z55m", win="5m", self_drawn=True, kong_replacement=True)
    assert "out_with_replacement_tile" not in res.counts() and res.notes


@pytest.mark.parametrize(("hand", "melds", "win", "message"), [
    ("123m456p789s111z5m", "", "5m", "14 tiles"),
    ("123m456p789s11111z", "", "1z", "more than four"),
    ("123m456p789s111z55m", "", "6m", "winning tile"),
])
def test_bad_input(hand: str, melds: str, win: str, message: str) -> None:
    with pytest.raises(HandError, match=message):
        score(hand, melds, win)


def test_bad_context_and_melds() -> None:
    with pytest.raises(HandError):
        WinContext(last_tile_of_wall=True)
    with pytest.raises(HandError):
        WinContext(kong_replacement=True)
    with pytest.raises(HandError):
        WinContext(seat_wind=0)
    with pytest.raises(HandError):
        Meld("chow", T.parse_tile("8m"))
    with pytest.raises(HandError):
        parse_melds("chow:124m")
