"""荆州晃晃 hand value (刀 × 硬) and the settlement table, against a brute-force reference."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi import tiles
from laizi.reasons import Reason
from laizi.settlement import net
from laizi.variants.huanghuang_scoring import (
    TILE_KINDS,
    HandValue,
    Meld,
    MeldKind,
    NotAWin,
    WinKind,
    can_win,
    evaluate,
    laizi_of,
    payments,
    settle,
)

P = tiles.parse
T = tiles.parse_tile
CK, KG, PG, CH = (MeldKind.CONCEALED_KONG, MeldKind.KONG, MeldKind.PUNG, MeldKind.CHOW)


# ------------------------------------------------------------------ laizi


def test_laizi_is_the_successor_of_the_indicator() -> None:
    assert laizi_of(T("1m")) == T("2m")
    assert laizi_of(T("8p")) == T("9p")
    assert laizi_of(T("9s")) == T("1s")
    assert laizi_of(T("9m")) == T("1m")
    assert laizi_of(tiles.RED) == tiles.GREEN
    assert laizi_of(tiles.GREEN) == tiles.WHITE
    assert laizi_of(tiles.WHITE) == tiles.RED
    with pytest.raises(ValueError):
        laizi_of(tiles.EAST)


# ------------------------------------------------------------------ the seed's example


def test_seed_example_menqing_kong_bloom_soft_each_pays_8() -> None:
    # Laizi 5p. Concealed kong of 9s, then 123m 456m 78m + laizi (as 6m or 9m) + 22s.
    concealed = P("12345678m 5p 22s")
    melds = [Meld(CK, T("9s"))]
    value = evaluate(concealed, melds, T("5p"), WinKind.KONG_DRAW)
    assert (value.dao, value.ying) == (2, 1)
    pays = settle(concealed, melds, T("5p"), WinKind.KONG_DRAW, winner=2)
    assert sorted((p.payer, p.amount) for p in pays) == [(0, 8), (1, 8), (3, 8)]
    assert net(pays, 4) == [-8, -8, 24, -8]


# ------------------------------------------------------------------ settlement rows

SMALL_SOFT = HandValue(1, 1, (
    Reason.of("dao", times=1, menqing=False, all_pungs=False, seven_pairs=False),
    Reason.of("ying", hard=False, times=1)))
BIG_HARD = HandValue(2, 2, (
    Reason.of("dao", times=2, menqing=False, all_pungs=False, seven_pairs=True),
    Reason.of("ying", hard=True, times=2)))


def test_row_discard_win_the_discarder_alone_pays() -> None:
    pays = payments(WinKind.DISCARD, winner=0, loser=2, value=BIG_HARD, base=3)
    assert [(p.payer, p.payee, p.amount) for p in pays] == [(2, 0, 3 * 2 * 2)]
    assert Reason.of("win_times", how="discard", times=1) in pays[0].reasons
    assert [r.text() for r in pays[0].reasons] == ["底分 3", "大刀 ×2 (七对)", "硬胡 ×2",
                                                   "放胡 ×1"]


def test_row_self_draw_all_three_pay_double() -> None:
    pays = payments(WinKind.SELF_DRAW, winner=1, loser=None, value=SMALL_SOFT)
    assert [(p.payer, p.amount) for p in pays] == [(0, 2), (2, 2), (3, 2)]
    assert net(pays, 4) == [-2, 6, -2, -2]


def test_row_kong_bloom_all_three_pay_four_times() -> None:
    pays = payments(WinKind.KONG_DRAW, winner=3, loser=None, value=BIG_HARD, base=1)
    assert [(p.payer, p.amount) for p in pays] == [(0, 16), (1, 16), (2, 16)]


def test_row_rob_kong_the_robbed_player_alone_pays_double() -> None:
    pays = payments(WinKind.ROB_KONG, winner=2, loser=1, value=SMALL_SOFT, base=5)
    assert [(p.payer, p.payee, p.amount) for p in pays] == [(1, 2, 10)]


@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_each_discarded_laizi_doubles_every_payment(k: int) -> None:
    pays = payments(WinKind.SELF_DRAW, winner=0, loser=None, value=SMALL_SOFT,
                    laizi_discarded=k)
    assert all(p.amount == 2 * 2**k for p in pays)
    assert (Reason.of("laizi_discarded", count=k, times=2**k) in pays[0].reasons) == (k > 0)
    assert any(f"打出癞子 {k} 张" in r.text() for r in pays[0].reasons) == (k > 0)


def test_payment_arguments_checked() -> None:
    with pytest.raises(ValueError):
        payments(WinKind.DISCARD, 0, None, SMALL_SOFT)
    with pytest.raises(ValueError):
        payments(WinKind.DISCARD, 0, 0, SMALL_SOFT)
    with pytest.raises(ValueError):
        payments(WinKind.SELF_DRAW, 0, 1, SMALL_SOFT)
    with pytest.raises(ValueError):
        payments(WinKind.SELF_DRAW, 0, None, SMALL_SOFT, base=0)


# ------------------------------------------------------------------ 刀

LZ = T("5p")  # laizi for the hands below unless said otherwise
PLAIN = P("123m 456m 789m 234s 77s")  # no laizi, chows


def test_menqing_self_draw_is_big_blade() -> None:
    v = evaluate(PLAIN, [], LZ, WinKind.SELF_DRAW)
    assert (v.dao, v.ying) == (2, 2) and "门清" in v.reasons[0].items()


def test_same_tiles_on_a_discard_are_small_blade() -> None:
    v = evaluate(PLAIN, [], LZ, WinKind.DISCARD)
    assert (v.dao, v.ying) == (1, 2)
    v = evaluate(PLAIN, [], LZ, WinKind.ROB_KONG)
    assert (v.dao, v.ying) == (1, 2)


def test_concealed_kong_keeps_menqing_but_exposed_kong_or_chow_breaks_it() -> None:
    hand = P("123m 456m 234s 77s")
    assert evaluate(hand, [Meld(CK, T("1p"))], LZ, WinKind.SELF_DRAW).dao == 2
    assert evaluate(hand, [Meld(KG, T("1p"))], LZ, WinKind.SELF_DRAW).dao == 1
    assert evaluate(hand, [Meld(CH, T("1p"))], LZ, WinKind.SELF_DRAW).dao == 1


def test_seven_pairs_is_big_blade_even_on_a_discard() -> None:
    v = evaluate(P("1133m 4477p 2299s 66s"), [], LZ, WinKind.DISCARD)
    assert (v.dao, v.ying) == (2, 2) and "七对" in v.reasons[0].items()


def test_all_pungs_is_big_blade_with_exposed_pungs() -> None:
    v = evaluate(P("333m 777s 88p"), [Meld(PG, T("1m")), Meld(KG, tiles.RED)], LZ,
                 WinKind.DISCARD)
    assert (v.dao, v.ying) == (2, 2) and "碰碰胡" in v.reasons[0].items()


def test_all_pungs_with_an_exposed_chow_is_small_blade() -> None:
    v = evaluate(P("333m 777s 88p"), [Meld(CH, T("1m")), Meld(PG, tiles.RED)], LZ,
                 WinKind.DISCARD)
    assert v.dao == 1


def test_big_blade_counts_once() -> None:
    # 门清 + 七对 + self-draw: still ×2, not ×4.
    v = evaluate(P("1133m 4477p 2299s 66s"), [], LZ, WinKind.SELF_DRAW)
    assert v.dao == 2 and "门清" in v.reasons[0].items() and "七对" in v.reasons[0].items()


# ------------------------------------------------------------------ 硬 / 软


def test_laizi_standing_for_itself_is_hard() -> None:
    # Laizi 5p used as a real 5p in the chow 456p.
    v = evaluate(P("123m 456m 789m 456p 77s"), [], LZ, WinKind.DISCARD)
    assert (v.dao, v.ying) == (1, 2)


def test_laizi_as_wild_is_soft() -> None:
    # 5p must stand for 3s: 12s + laizi.
    v = evaluate(P("123m 456m 789m 5p 12s 77s"), [], LZ, WinKind.DISCARD)
    assert (v.dao, v.ying) == (1, 1) and Reason.of("ying", hard=False, times=1) in v.reasons


def test_best_reading_counts() -> None:
    # Laizi 5p as 9s: 111 222 333m can be read as three chows (小刀) or three pungs; the
    # pung reading makes 碰碰胡 (大刀), and that is what the hand is worth.
    v = evaluate(P("111222333m 5p 77s 99s"), [], LZ, WinKind.DISCARD)
    assert (v.dao, v.ying) == (2, 1) and "碰碰胡" in v.reasons[0].items()
    # A hard 小刀 (2) beats the soft 小刀 reading (1) of the same tiles.
    v = evaluate(P("123m 456m 789m 46p 5p 77s"), [], LZ, WinKind.DISCARD)
    assert v.value == 2


# ------------------------------------------------------------------ two laizi


def test_two_laizi_refuse_a_small_blade_win() -> None:
    # Laizi 5p twice, standing for 3m and 9s: a chow hand won on a discard.
    hand = P("12m 456m 789m 55p 78s 22s")
    with pytest.raises(NotAWin, match="only win as 大刀"):
        evaluate(hand, [], LZ, WinKind.DISCARD)
    assert not can_win(hand, [], LZ, WinKind.DISCARD)
    # The same tiles self-drawn are 门清: 大刀, allowed.
    v = evaluate(hand, [], LZ, WinKind.SELF_DRAW)
    assert (v.dao, v.ying) == (2, 1)


def test_two_laizi_refused_even_if_they_stand_for_themselves() -> None:
    # Two 5p read as themselves (硬) in a chow hand: still two laizi in hand → 大刀 only.
    hand = P("123m 456m 345p 567p 77s")
    with pytest.raises(NotAWin, match="大刀"):
        evaluate(hand, [], LZ, WinKind.DISCARD)


def test_two_laizi_may_win_as_all_pungs_on_a_discard() -> None:
    # Laizi 5p twice completing 22s and 33s into pungs.
    v = evaluate(P("111m 444m 22s 33s 55p 99s"), [], LZ, WinKind.DISCARD)
    assert v.dao == 2 and "碰碰胡" in v.reasons[0].items() and v.ying == 1


def test_dead_laizi_cannot_be_won_on() -> None:
    hand = P("123m 456m 789m 234s 5p 7s")
    with pytest.raises(NotAWin, match="dead"):
        evaluate(sorted([*hand]), [], LZ, WinKind.DISCARD, winning_tile=LZ)


def test_non_winning_hands_and_bad_input() -> None:
    with pytest.raises(NotAWin, match="four melds"):
        evaluate(P("1357m 2468p 135799s"), [], LZ, WinKind.SELF_DRAW)
    with pytest.raises(NotAWin, match="concealed"):
        evaluate(P("123m"), [], LZ, WinKind.SELF_DRAW)
    with pytest.raises(NotAWin, match="not a 晃晃 tile"):
        evaluate(P("123m 456m 789m 234s 1z1z"), [], LZ, WinKind.SELF_DRAW)
    with pytest.raises(NotAWin, match="only four"):
        evaluate(P("11m 456m 234s 777s"), [Meld(KG, T("1m"))], LZ, WinKind.SELF_DRAW)
    with pytest.raises(NotAWin, match="meld"):
        evaluate(P("123m 456m 234s 77s"), [Meld(PG, LZ)], LZ, WinKind.SELF_DRAW)


# ------------------------------------------------------------------ brute-force reference


def _melds(counts: tuple[int, ...], pungs_only: bool) -> bool:
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return True
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _melds(tuple(c), pungs_only):
            return True
        c[i] += 3
    if not pungs_only and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return _melds(tuple(c), pungs_only)
    return False


@cache
def ref_shapes(counts: tuple[int, ...]) -> tuple[bool, bool, bool]:
    """(standard win, pungs-only win, seven pairs) for concrete tiles, no wilds."""
    std = pungs = False
    for i, c in enumerate(counts):
        if c >= 2:
            rest = list(counts)
            rest[i] -= 2
            std = std or _melds(tuple(rest), False)
            pungs = pungs or _melds(tuple(rest), True)
    seven = sum(counts) == 14 and all(c % 2 == 0 for c in counts)
    return std or seven, pungs, seven


def ref_value(concealed: list[int], melds: list[Meld], laizi: int, win: WinKind) -> int | None:
    """Try every 晃晃 tile for every laizi; the best allowed 刀 × 硬, or None."""
    n = concealed.count(laizi)
    rest = [t for t in concealed if t != laizi]
    menqing = win.self_drawn and all(m.kind is CK for m in melds)
    chow_meld = any(m.kind is CH for m in melds)
    best = None
    for combo in combinations_with_replacement(TILE_KINDS, n):
        counts = tuple(tiles.to_counts([*rest, *combo]))
        if max(counts) > 4:  # a laizi never stands for a fifth copy of a tile
            continue
        win_any, pungs, seven = ref_shapes(counts)
        if not win_any:
            continue
        ying = 2 if all(t == laizi for t in combo) else 1
        big = menqing or (pungs and not chow_meld) or (seven and not melds)
        if n >= 2 and not big:
            continue
        value = (2 if big else 1) * ying
        best = value if best is None else max(best, value)
    return best


def random_hand(rng: random.Random) -> tuple[list[int], list[Meld], int, WinKind]:
    while True:
        hand = _random_hand(rng)
        used = tiles.to_counts(hand[0])
        for m in hand[1]:
            for d in range(3) if m.kind is CH else [0, 0, 0, 0]:
                used[m.tile + d] += 1
        if max(used) <= 4:
            return hand


def _random_hand(rng: random.Random) -> tuple[list[int], list[Meld], int, WinKind]:
    laizi = rng.choice(TILE_KINDS)
    n_melds = rng.choice([0, 0, 0, 1, 2])
    melds = []
    for _ in range(n_melds):
        kind = rng.choice([CK, KG, PG, CH])
        t = rng.choice([x for x in TILE_KINDS if x != laizi and (kind is not CH or (
            x < 27 and x % 9 <= 6))])
        melds.append(Meld(kind, t))
    concealed: list[int] = []
    shape = rng.random()
    if n_melds == 0 and shape < 0.25:
        for _ in range(7):
            t = rng.choice(TILE_KINDS)
            concealed += [t, t]
    else:
        for _ in range(4 - n_melds):
            if rng.random() < 0.5:
                t = rng.choice([x for x in range(27) if x % 9 <= 6])
                concealed += [t, t + 1, t + 2]
            else:
                t = rng.choice(TILE_KINDS)
                concealed += [t] * 3
        t = rng.choice(TILE_KINDS)
        concealed += [t, t]
    # Turn 0-3 tiles into laizi, and sometimes spoil the hand.
    for _ in range(rng.choice([0, 1, 1, 2, 2])):
        concealed[rng.randrange(len(concealed))] = laizi
    if rng.random() < 0.2:
        concealed[rng.randrange(len(concealed))] = rng.choice(TILE_KINDS)
    return sorted(concealed), melds, laizi, rng.choice(list(WinKind))


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_evaluate_matches_brute_force(seed: int) -> None:
    concealed, melds, laizi, win = random_hand(random.Random(seed))
    expected = ref_value(concealed, melds, laizi, win)
    try:
        got: int | None = evaluate(concealed, melds, laizi, win).value
    except NotAWin:
        got = None
    assert got == expected, (tiles.format(concealed), melds, tiles.name(laizi), win)
