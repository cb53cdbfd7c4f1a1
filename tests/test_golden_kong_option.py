"""golden's option ``concealed_and_melded_kong`` (issue 24, item 16) and golden tiles
with 和绝张.

One concealed and one melded kong: the seed's 81-fan table has no 明暗杠 and gives
暗杠 2 + 明杠 1 (golden's default); with the option, 明暗杠 5 as PyMahjongGB counts it,
which ``mcr`` always does. The hand below totals 8 with 明暗杠 and 6 without, so the
option decides whether it reaches the 8-fan minimum: in records (``laizi score``) and in
live play, where the engine's shared verdict table must not mix the two.
"""

from __future__ import annotations

from typing import Any

import pytest

from laizi import tiles as T
from laizi.core.melds import CONCEALED_KONG, KONG, Meld
from laizi.core.records import RecordError
from laizi.engine import Game
from laizi.records import record_from_json
from laizi.scoring.mcr import WinContext, score_hand
from laizi.variants import get
from laizi.variants._gb_variant import GBVariant
from laizi.variants.golden import GoldenOptions
from laizi.variants.options import parse_options

# 234m 678s 5p + 5p (单钓), 暗杠 3333p, 明杠 9999m: 明暗杠 5 (or 暗杠 2 + 明杠 1) + 幺九刻 1
# + 无字 1 + 单钓将 1.
CONCEALED = "234m 678s 5p"
WIN = "5p"


def _record(vid: str, options: dict[str, Any]) -> dict[str, Any]:
    seats: list[dict[str, Any]] = [
        {"concealed": CONCEALED, "melds": [
            {"kind": "concealed_kong", "tiles": "3333p"},
            {"kind": "kong", "tiles": "9999m", "from": 1, "claimed": "9m"}]},
        {"melds": []}, {"melds": []}, {"melds": []}]
    out: dict[str, Any] = {"variant": vid, "options": {"minimum": 0, **options},
                           "dealer": 0, "seats": seats, "outcome": "win", "winners": [0],
                           "how": "discard", "from": 2, "tile": WIN}
    if vid == "golden":
        out["indicators"] = "4z"  # golden tile 发, not in the hand
    return out


def _fan(vid: str, **options: Any) -> dict[str, int]:
    v = get(vid)
    assert isinstance(v, GBVariant)
    return v.fan(record_from_json(_record(vid, options))).counts()


def test_golden_counts_the_seeds_kong_fans_by_default() -> None:
    fans = _fan("golden")
    assert fans["concealed_kong"] == 1 and fans["melded_kong"] == 1
    assert "concealed_and_melded_kong" not in fans
    assert GoldenOptions().concealed_and_melded_kong is False


def test_golden_option_counts_concealed_and_melded_kong() -> None:
    fans = _fan("golden", concealed_and_melded_kong=True)
    assert fans["concealed_and_melded_kong"] == 1
    assert "concealed_kong" not in fans and "melded_kong" not in fans


def test_mcr_keeps_the_reference_calculators_fan() -> None:
    fans = _fan("mcr")
    assert fans["concealed_and_melded_kong"] == 1
    assert not hasattr(get("mcr").default_options(), "concealed_and_melded_kong")


def test_the_option_decides_the_minimum_in_records() -> None:
    with pytest.raises(RecordError, match="8 fan needed, hand has 6"):
        record_from_json(_record("golden", {"minimum": 8}))
    both = record_from_json(_record("golden", {"minimum": 8,
                                               "concealed_and_melded_kong": True}))
    assert get("golden").settle(both)
    assert get("mcr").settle(record_from_json(_record("mcr", {"minimum": 8})))


def test_the_option_parses_as_every_option_does() -> None:
    assert parse_options("golden", ["concealed_and_melded_kong=yes"]) == \
        GoldenOptions(concealed_and_melded_kong=True)
    with pytest.raises(ValueError, match="concealed_and_melded_kong"):
        GoldenOptions(concealed_and_melded_kong=1)  # type: ignore[arg-type]


def _kong_game(options: GoldenOptions) -> Game:
    """A golden game whose seat 1 holds 234m 678s 5p with 暗杠 3333p and 明杠 9999m, and
    seat 0 has just discarded 5p."""
    v = get("golden")
    g = Game(v, options, seed=3, dealer=0)
    hand = [0] * T.NUM_KINDS
    for t in T.parse(CONCEALED):
        hand[t] += 1
    g.hands[1] = hand
    g.sizes[1] = sum(hand)
    g.melds[1] = [Meld(CONCEALED_KONG, (T.parse_tile("3p"),) * 4),
                  Meld(KONG, (T.parse_tile("9m"),) * 4, source=0, claimed=T.parse_tile("9m"))]
    g.wildcard = T.parse_tile("6z")  # 发: not in seat 1's hand
    return g


def test_the_option_decides_the_minimum_in_live_play() -> None:
    win = T.parse_tile(WIN)
    # Asked in both orders: the engine's verdict table is keyed without the option.
    for order in ((False, True), (True, False)):
        for both in order:
            g = _kong_game(GoldenOptions(concealed_and_melded_kong=both))
            why = g.variant.win_refusal(g, 1, win, "discard")
            if both:
                assert why is None
            else:
                assert why == "8 fan needed, hand has 6 (flowers excluded)"
            fans = g.variant.judge_candidate(g, 1, win, "discard").counts()  # type: ignore[attr-defined]
            assert ("concealed_and_melded_kong" in fans) is both


def test_a_golden_winning_tile_standing_for_another_tile_is_no_last_copy() -> None:
    # 白 is golden; the hand self-draws a 白, which completes 12s as 3s. The context's
    # 和绝张 is about 白 (its other three copies seen), not about 3s.
    hand = T.parse("123m456p789m12s11z5z")
    white = T.parse_tile("5z")
    res = score_hand(hand, [], white, WinContext(self_drawn=True, last_copy=True),
                     golden=1, golden_face=white)
    assert res.golden_as == (T.parse_tile("3s"),)
    assert "last_tile" not in res.counts()
    assert any("golden tile standing for another tile" in n for n in res.notes)
    # Standing for its own face it is that face's last copy: 和绝张 counts (3s golden).
    three = T.parse_tile("3s")
    res = score_hand(T.parse("123m456p789m12s11z3s"), [], three,
                     WinContext(self_drawn=True, last_copy=True), golden=1, golden_face=three)
    assert res.golden_as == (three,) and "last_tile" in res.counts()


def test_a_golden_tile_may_stand_for_a_copy_seen_elsewhere() -> None:
    # 3s's other three copies are seen (和绝张 asked); the hand's golden 白 pairs the
    # winning 3s as a fifth 3s: the win stands, 和绝张 does not (another copy in hand).
    hand = T.parse("123m456p789m111z3s5z")
    res = score_hand(hand, [], T.parse_tile("3s"), WinContext(last_copy=True), golden=1,
                     golden_face=T.parse_tile("5z"))
    assert res.is_win and res.golden_as == (T.parse_tile("3s"),)
    assert "last_tile" not in res.counts()
    assert any(n.startswith("和绝张 not counted: another copy") for n in res.notes)
