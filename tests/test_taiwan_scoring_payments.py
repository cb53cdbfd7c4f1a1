"""Taiwan payments (赔付), flower wins (花胡) and score-keeper penalties (诈胡, 相公)."""

from __future__ import annotations

from typing import Any

import pytest

from laizi.reasons import Reason
from laizi.scoring.taiwan import (
    HandError,
    TaiResult,
    TaiwanOptions,
    WinContext,
    parse_hand,
    score_flower_win,
    score_hand,
    settle_dead_hand_self_draw,
    settle_false_win,
    settle_flower_win,
    settle_win,
    shown_hand_result,
)
from laizi.settlement import Payment, net

# 门清 1 + 平胡 2 on a discard; 门清 1 + 不求自摸 2 self-drawn: 3 台 either way
HAND = ("123m456m789m234p678s55s", "2p")


def win(seat_wind: int, **ctx: Any) -> TaiResult:
    ctx.setdefault("self_drawn", False)
    return score_hand(parse_hand(*HAND), WinContext(seat_wind=seat_wind, **ctx))


def amounts(payments: list[Payment]) -> dict[int, int]:
    return {p.payer: p.amount for p in payments}


def check_zero_sum(payments: list[Payment]) -> list[int]:
    result = net(payments, 4)
    assert sum(result) == 0
    assert all(p.amount > 0 and p.payer != p.payee for p in payments)
    return result


# ---------------------------------------------------------------- ordinary wins


def test_discarder_pays_alone() -> None:
    r = win(1)  # seat 1 is 南 when seat 0 deals
    assert r.tai == 3
    ps = settle_win(r, winner=1, dealer=0, discarder=2)
    assert amounts(ps) == {2: 100 + 3 * 20}
    assert ps[0].reasons[0] == Reason.of("tai_base", points=100)
    assert ps[0].reasons[0].text() == "底 100" and "门清 1台" in ps[0].texts()
    assert Reason.of("tai", id="concealed_hand", item="门清", tai=1) in ps[0].reasons
    assert ps[0].reasons[-1] == Reason.of("tai_total", tai=3, value=20, amount=60)
    assert check_zero_sum(ps) == [0, 160, -160, 0]


def test_self_draw_all_three_pay() -> None:
    r = win(1, self_drawn=True)
    ps = settle_win(r, winner=1, dealer=0)
    assert amounts(ps) == {0: 100 + (3 + 1) * 20, 2: 160, 3: 160}  # the dealer adds 作庄
    check_zero_sum(ps)


def test_robbed_kong_robbed_player_pays_as_discarder() -> None:
    r = win(2, robbed_kong=True)
    assert r.tai == 4
    ps = settle_win(r, winner=3, dealer=1, discarder=1)
    assert amounts(ps) == {1: 100 + (4 + 1) * 20}


def test_dealer_wins_with_lian_3_la_3_every_payer_adds_7() -> None:
    r = win(0, self_drawn=True, dealer_streak=3)
    assert r.dealer_tai == 1 + 6
    ps = settle_win(r, winner=0, dealer=0)
    assert amounts(ps) == {1: 100 + (3 + 7) * 20, 2: 300, 3: 300}
    assert any(reason.text() == "连3拉3 6台" for reason in ps[0].reasons)
    assert any(r.code == "tai" and r.param("id") == "dealer_streak" and r.items() == ("连N拉N",)
               for r in ps[0].reasons)
    assert check_zero_sum(ps) == [900, -300, -300, -300]
    ps = settle_win(win(0, dealer_streak=3), winner=0, dealer=0, discarder=2)
    assert amounts(ps) == {2: 300}


def test_dealer_pays_with_lian_3_la_3_only_the_dealer_adds_7() -> None:
    r = win(3, self_drawn=True, dealer_streak=3)  # dealer is seat 1, winner seat 0 (北)
    ps = settle_win(r, winner=0, dealer=1)
    assert amounts(ps) == {1: 100 + (3 + 7) * 20, 2: 160, 3: 160}
    check_zero_sum(ps)
    # on a discard: dealer 台 only if the dealer is the discarder
    assert amounts(settle_win(win(3, dealer_streak=3), winner=0, dealer=1, discarder=1)) == {
        1: 300}
    assert amounts(settle_win(win(3, dealer_streak=3), winner=0, dealer=1, discarder=2)) == {
        2: 160}


def test_settle_win_checks_its_facts() -> None:
    with pytest.raises(HandError, match="dealer"):
        settle_win(win(1), winner=0, dealer=0, discarder=2)
    with pytest.raises(HandError, match="discarder"):
        settle_win(win(1), winner=1, dealer=0)
    with pytest.raises(HandError, match="own discard"):
        settle_win(win(1), winner=1, dealer=0, discarder=1)
    with pytest.raises(HandError, match="no discarder"):
        settle_win(win(1, self_drawn=True), winner=1, dealer=0, discarder=2)


def test_options_change_base_and_tai_value() -> None:
    opts = TaiwanOptions(base=50, tai_value=10)
    ps = settle_win(win(1), winner=1, dealer=0, discarder=2, options=opts)
    assert amounts(ps) == {2: 50 + 3 * 10}


# ---------------------------------------------------------------- flower wins


def test_eight_immortals_all_three_pay_8_tai_on_one_base() -> None:
    r = score_flower_win("eight_immortals", WinContext(self_drawn=True, seat_wind=2,
                                                       dealer_streak=1))
    ps = settle_flower_win(r, winner=2, dealer=0)
    # dealer 台 (作庄 1 + 连1拉1 2) between the dealer and the winner only
    assert amounts(ps) == {0: 100 + (8 + 3) * 20, 1: 260, 3: 260}
    assert check_zero_sum(ps)[2] == 320 + 260 + 260


def test_eight_immortals_by_the_dealer() -> None:
    r = score_flower_win("eight_immortals", WinContext(self_drawn=True, seat_wind=0))
    ps = settle_flower_win(r, winner=1, dealer=1)
    assert amounts(ps) == {0: 280, 2: 280, 3: 280}


def test_eight_immortals_with_a_bloom_adds_the_hand() -> None:
    hand = parse_hand(*HAND, flowers="1f2f3f4f5f6f7f8f")
    r = score_flower_win("eight_immortals", WinContext(self_drawn=True, seat_wind=1), hand)
    assert r.tai == 1 + 2 + 1  # 门清 不求自摸 杠上开花; flowers are the 8 台 of 八仙过海
    ps = settle_flower_win(r, winner=1, dealer=0)
    assert amounts(ps) == {0: 100 + (12 + 1) * 20, 2: 100 + 12 * 20, 3: 340}


def test_seven_robs_one_robbed_pays_as_discarder() -> None:
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=1))
    ps = settle_flower_win(r, winner=1, dealer=0, robbed=3)
    assert amounts(ps) == {3: 260}
    # the robbed player is the dealer: adds 作庄
    assert amounts(settle_flower_win(r, winner=1, dealer=0, robbed=0)) == {0: 280}
    # the winner is the dealer: the robbed player adds 作庄
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=0))
    assert amounts(settle_flower_win(r, winner=2, dealer=2, robbed=3)) == {3: 280}


def test_seven_robs_one_bloom_case_1_robbed_pays_everything() -> None:
    hand = parse_hand(*HAND, flowers="1f2f3f4f5f6f7f8f")
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=1), hand)
    ps = settle_flower_win(r, winner=1, dealer=0, robbed=2, robbed_drew_eighth=True)
    assert amounts(ps) == {2: 100 + (8 + 4) * 20}


def test_seven_robs_one_bloom_case_2_three_pay_the_hand_robbed_adds_8() -> None:
    hand = parse_hand(*HAND, flowers="1f2f3f4f5f6f7f8f")
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=1), hand)
    ps = settle_flower_win(r, winner=1, dealer=0, robbed=2, robbed_drew_eighth=False)
    assert amounts(ps) == {0: 100 + (4 + 1) * 20, 2: 100 + (4 + 8) * 20, 3: 100 + 4 * 20}
    check_zero_sum(ps)
    # without a bloom, case 2 is paid by the robbed player alone
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=1))
    assert amounts(settle_flower_win(r, winner=1, dealer=0, robbed=2,
                                     robbed_drew_eighth=False)) == {2: 260}


def test_flower_win_facts_are_checked() -> None:
    r = score_flower_win("seven_robs_one", WinContext(self_drawn=True, seat_wind=1))
    with pytest.raises(HandError, match="robbed"):
        settle_flower_win(r, winner=1, dealer=0)
    with pytest.raises(HandError, match="settle_flower_win"):
        settle_win(r, winner=1, dealer=0)
    with pytest.raises(HandError, match="settle_win"):
        settle_flower_win(win(1), winner=1, dealer=0)


# ---------------------------------------------------------------- penalties


def test_false_win_pays_each_player_as_for_a_self_draw() -> None:
    shown = shown_hand_result(parse_hand(*HAND), WinContext(self_drawn=False, seat_wind=1,
                                                            dealer_streak=2))
    assert shown.tai == 3 and shown.self_drawn  # read as a self-draw: 门清 + 不求自摸
    ps = settle_false_win(1, shown, dealer=0)
    assert {p.payee: p.amount for p in ps} == {0: 100 + (3 + 5) * 20, 2: 160, 3: 160}
    assert all(p.payer == 1 and p.reasons[0] == Reason.of("false_win") for p in ps)
    assert ps[0].reasons[0].text() == "诈胡 包赔"
    assert check_zero_sum(ps)[1] == -(260 + 320)


def test_false_win_with_no_winning_hand_pays_the_base() -> None:
    shown = shown_hand_result(None, WinContext(self_drawn=False, seat_wind=0))
    ps = settle_false_win(0, shown, dealer=0)
    assert {p.payee: p.amount for p in ps} == {1: 120, 2: 120, 3: 120}
    not_a_win = parse_hand("123m456m789m234p678s59s", "2p")
    shown = shown_hand_result(not_a_win, WinContext(self_drawn=False, seat_wind=2))
    assert shown.items == () and {p.amount for p in settle_false_win(2, shown, dealer=0)} == {
        100, 120}


def test_false_win_exemption_discard_vs_discard() -> None:
    shown = shown_hand_result(parse_hand(*HAND), WinContext(self_drawn=False, seat_wind=1))
    assert settle_false_win(1, shown, dealer=0, exempt=True) == []


def test_dead_hand_pays_for_self_draws_within_eight_draws() -> None:
    r = win(2, self_drawn=True)
    ordinary = settle_win(r, winner=3, dealer=1)
    for draws in range(1, 9):
        ps = settle_dead_hand_self_draw(ordinary, dead=0, draws_since_penalty=draws)
        assert {p.payer for p in ps} == {0}
        assert sum(p.amount for p in ps) == sum(p.amount for p in ordinary)
        assert check_zero_sum(ps) == [-sum(p.amount for p in ordinary), 0, 0,
                                      sum(p.amount for p in ordinary)]
        assert any(p.reasons[0] == Reason.of("dead_hand", seat=1) for p in ps)
        assert any(p.reasons[0].text("en") == "dead hand (相公) pays for seat 1" for p in ps)
    assert settle_dead_hand_self_draw(ordinary, dead=0, draws_since_penalty=9) == ordinary
    with pytest.raises(HandError, match="cannot win"):
        settle_dead_hand_self_draw(ordinary, dead=3, draws_since_penalty=2)
    with pytest.raises(HandError, match="three"):
        settle_dead_hand_self_draw(ordinary[:1], dead=0, draws_since_penalty=2)
