"""golden (赖子麻将 · 黄金麻将): golden tile, indicator, claims, flowers, minimum, payments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from laizi import tiles as T
from laizi.core.records import HandRecord, RecordError
from laizi.engine import CLAIM, Action, Game, IllegalActionError
from laizi.engine.variant import Variant
from laizi.engine.walls import arrange_wall
from laizi.records import record_from_json
from laizi.scoring.mcr import FanResult, WinContext, score_hand
from laizi.settlement import net
from laizi.variants import get
from laizi.variants._gb_common import golden_for
from laizi.variants._gb_variant import GBVariant

GOLDEN = get("golden")


def fan_of(variant: Variant, record: HandRecord) -> FanResult:
    assert isinstance(variant, GBVariant)
    return variant.fan(record)


def tiles(text: str) -> list[int]:
    return T.parse(text, "mpsz")


def tile(text: str) -> int:
    return T.parse_tile(text, "mpsz")


def arranged(hands: Sequence[str], draws: str = "", tail: str = "", dealer: int = 0,
             vid: str = "golden", **opts: Any) -> Game:
    """A game on an arranged wall. For golden, ``draws`` starts with the indicator."""
    v = get(vid)
    options = v.options_type(**opts)
    wall = arrange_wall(v, [tiles(h) for h in hands], tiles(draws), tiles(tail),
                        dealer=dealer, options=options)
    return Game(v, options, seed=0, dealer=dealer, wall=wall)


def _pass_all(g: Game) -> None:
    if g.phase != CLAIM:
        return
    for s in g.to_act():
        g.apply(Action("pass", s))


# --------------------------------------------------------------------- the golden tile

# Reference: the seed's cycles written out, independently of the lookup in the code.
_SUITED_NEXT = {r: r % 9 + 1 for r in range(1, 10)}
_HONOUR_CYCLE = ["1z", "2z", "3z", "4z", "6z", "5z"]  # 东 南 西 北 发 白 (中 skipped)


def _reference_golden(indicator: int) -> int:
    if indicator < 27:
        return (indicator // 9) * 9 + _SUITED_NEXT[indicator % 9 + 1] - 1
    name = T.name(indicator, "mpsz")
    if name == "7z":  # 中 → 发
        return tile("6z")
    i = _HONOUR_CYCLE.index(name)
    return tile(_HONOUR_CYCLE[(i + 1) % len(_HONOUR_CYCLE)])


@pytest.mark.parametrize("indicator", range(34))
def test_golden_tile_for_every_indicator(indicator: int) -> None:
    assert golden_for(indicator) == _reference_golden(indicator)
    assert golden_for(indicator) != T.RED  # 中 is never golden


@pytest.mark.parametrize(("ind", "gold"), [("5m", "6m"), ("9m", "1m"), ("9p", "1p"),
                                           ("9s", "1s"), ("1z", "2z"), ("4z", "6z"),
                                           ("6z", "5z"), ("5z", "1z"), ("7z", "6z")])
def test_golden_tile_worked_examples(ind: str, gold: str) -> None:
    # 北 → 发 (中 skipped), 白 → 东, 中 → 发, 发 → 白, 9 → 1.
    assert golden_for(tile(ind)) == tile(gold)


def test_a_flower_is_no_indicator() -> None:
    with pytest.raises(ValueError, match="no flower"):
        golden_for(tile("1f"))


def test_indicator_is_next_tile_after_the_deal_and_out_of_play() -> None:
    for seed in range(30):
        g = Game("golden", seed=seed)
        ind = next(e for e in g.log if e["type"] == "indicator")
        turned = g.wall[53:53 + len(ind["tiles"])]  # 4 × 13 + 1 dealt from the head
        assert ind["tiles"] == turned
        assert all(t >= 34 for t in turned[:-1]) and turned[-1] < 34
        assert g.wildcard == golden_for(turned[-1]) == ind["wildcard"]
        assert g.view(1)["wildcard"] == g.wildcard
    assert "indicator" not in {e["type"] for e in Game("mcr", seed=3).log}
    assert Game("mcr", seed=3).wildcard is None


def test_flower_turned_as_indicator_is_set_aside_and_the_next_tile_turned() -> None:
    hands = ["123456789m1234p5p", "6789p123456789s", "1112223334445z", "5556667778889m"]
    g = arranged(hands, draws="3f 4z")
    assert g.indicators == [tile("3f"), tile("4z")]
    assert g.wildcard == tile("6z")  # 北 → 发
    assert all(tile("3f") not in f for f in g.flowers)
    # Records write tiles sorted (the flower last): the indicator is the one non-flower.
    assert GOLDEN.wildcard_for(sorted(g.indicators), g.options) == tile("6z")


# --------------------------------------------------------------------- golden in play

def _golden_6m_game(**opts: Any) -> Game:
    # Indicator 5m → the golden tile is 6m. Dealer: 14 tiles with two 6m.
    hands = ["66m123p456p789p234s", "67m1234s5678s999p", "56m2345z789s9s999m",
             "11z22z33z44z55z66z7z"]
    return arranged(hands, draws="5m", **opts)


def test_golden_tile_can_never_be_discarded() -> None:
    g = _golden_6m_game()
    assert g.wildcard == tile("6m")
    legal = g.legal_actions(0)
    discards = {a.tile for a in legal if a.type == "discard"}
    assert tile("6m") not in discards and tile("1p") in discards
    with pytest.raises(IllegalActionError, match=r"golden tile .*never be discarded"):
        g.apply(Action("discard", 0, tile("6m")))


def test_golden_acts_as_its_own_face_in_a_chow_but_never_stands_in_for_a_claim() -> None:
    hands = ["5m123p456p789p1234s", "67m1234s5678s999p", "5m6m2345z789s99s99m",
             "11z22z33z44z55z66z7z"]
    g = arranged(hands, draws="5m")  # golden 6m
    g.apply(Action("discard", 0, tile("5m")))
    assert g.phase == CLAIM
    opts1 = g.legal_actions(1)
    # Seat 1 chows 5m with its 6m (golden, as its own face) and 7m.
    assert Action("chow", 1, tile("5m"), tuple(tiles("567m"))) in opts1
    # Seat 2 holds one 5m and a golden 6m: the golden tile is no wild 5m for a pung.
    assert not any(a.type == "pung" for a in g.legal_actions(2))
    g.apply(Action("chow", 1, tile("5m"), tuple(tiles("567m"))))
    _pass_all(g)
    assert g.melds[1][0].tiles == tuple(tiles("567m"))


def test_four_golden_tiles_make_a_concealed_kong_of_their_own_face() -> None:
    hands = ["6666m456p789p1234s", "7m1234s5678s999p1z", "5m2345z789s99s999m",
             "11z22z33z44z55z66z7z"]
    g = arranged(hands[:1] + hands[1:], draws="5m")
    assert Action("concealed_kong", 0, tile("6m")) in g.legal_actions(0)


def test_golden_tiles_in_a_kong_are_their_own_face() -> None:
    # Golden = 发 (indicator 北). A concealed kong of the four 发 is a dragon kong (箭刻):
    # melded golden tiles are never wild.
    data = _record("golden", winner=0, how="self_draw", tile="9s",
                   concealed="123m 456p 789s 9s", indicators="4z",
                   melds={0: [{"kind": "concealed_kong", "tiles": "6666z"}]})
    rec = record_from_json(data)
    assert rec.wildcard == tile("6z")
    fan = fan_of(GOLDEN, rec)
    assert fan.counts().get("dragon_pung") == 1 and fan.golden_as == ()


def test_concealed_golden_tiles_score_at_least_their_own_face() -> None:
    # Three concealed golden 发 are wild: the best assignment (就高) scores at least what
    # the hand scores with them as plain 发 (箭刻 …), and it is a win either way.
    data = _record("golden", winner=0, how="self_draw", tile="9s",
                   concealed="666z 123m 456p 789s 9s", indicators="4z")
    rec = record_from_json(data)
    fan = fan_of(GOLDEN, rec)
    plain = score_hand(tiles("666z 123m 456p 789s 9s 9s"), (), tile("9s"),
                       WinContext(self_drawn=True))
    assert plain.counts().get("dragon_pung") == 1
    assert fan.is_win and fan.total >= plain.total and len(fan.golden_as) == 3


# --------------------------------------------------------------------- flowers

def test_dealt_and_drawn_flowers_are_set_aside_and_replaced_from_the_tail() -> None:
    hands = ["1f123m456p789p1234s", "67m1234s5678s999p", "56m2345z789s9s999m",
             "11z22z33z44z55z66z7z"]
    # mcr: no indicator. The dealer's flower is replaced by the tail's last tile (8m);
    # seat 1 then draws 2f, set aside and replaced by the next tail tile (9m).
    g = arranged(hands, draws="2f", tail="8m 9m", vid="mcr")
    assert g.flowers[0] == [tile("1f")]
    assert g.sizes[0] == 14 and g.hands[0][tile("8m")] == 1
    g.apply(Action("discard", 0, tile("8m")))
    for s in g.to_act():
        g.apply(Action("pass", s))
    assert g.flowers[1] == [tile("2f")]
    assert g.turn == 1 and g.last_tile == tile("9m")
    flower_events = [e for e in g.log if e["type"] == "flower"]
    assert [(e["seat"], e["tile"]) for e in flower_events] == [(0, tile("1f")), (1, tile("2f"))]


def test_flowers_count_one_fan_each_but_never_toward_the_minimum() -> None:
    base = dict(winner=1, how="discard", tile="3s", source=0,
                concealed="123m 456p 678s 45s 88p")
    with pytest.raises(RecordError, match=r"8 fan needed, hand has 5 \(flowers excluded\)"):
        record_from_json(_record("mcr", flowers={1: "123f"}, **base))  # type: ignore[arg-type]
    ok = record_from_json(_record("mcr", flowers={1: "123f"}, minimum=5, **base))  # type: ignore[arg-type]
    fan = fan_of(get("mcr"), ok)
    assert fan.total == 8 and fan.fan_without_flowers == 5
    pays = get("mcr").settle(ok)
    assert {p.payer: p.amount for p in pays} == {0: 16, 2: 8, 3: 8}  # 8 + V, V = 5 + 3


# --------------------------------------------------------------------- the minimum (live)

def _five_fan_game(vid: str, **opts: Any) -> Game:
    # Seat 1 waits on 3s/6s with 平和 + 门前清 + 连六 = 5 fan on a discarded 3s.
    hands = ["3s 111z 222z 333z 444z 5z", "123m 456p 678s 45s 88p", "99m 99p 99s 11m 11p 11s 7z",
             "777m 777p 777s 55z 66z"]
    return arranged(hands, draws="5m" if vid == "golden" else "", vid=vid, **opts)


@pytest.mark.parametrize("vid", ["golden", "mcr"])
def test_minimum_refuses_a_five_fan_win_with_a_clear_reason(vid: str) -> None:
    g = _five_fan_game(vid)
    g.apply(Action("discard", 0, tile("3s")))
    assert g.phase == CLAIM
    assert not any(a.type == "win" for a in g.legal_actions(1))
    why = g.variant.win_refusal(g, 1, tile("3s"), "discard")
    assert why == "8 fan needed, hand has 5 (flowers excluded)"
    with pytest.raises(IllegalActionError, match="8 fan needed, hand has 5"):
        g.apply(Action("win", 1, tile("3s")))


@pytest.mark.parametrize("vid", ["golden", "mcr"])
def test_lower_minimum_allows_the_same_win(vid: str) -> None:
    g = _five_fan_game(vid, minimum=5)
    g.apply(Action("discard", 0, tile("3s")))
    g.apply(Action("win", 1, tile("3s")))
    for s in g.to_act():
        g.apply(Action("pass", s))
    assert g.over and g.record is not None and g.record.winners == (1,)
    # V = 5; nobody has opened or made a kong, so golden's factor is 2^0 as well.
    assert {p.payer: p.amount for p in g.payments} == {0: 13, 2: 8, 3: 8}
    assert net(g.payments, 4) == [-13, 29, -8, -8]


def test_not_a_winning_shape_is_refused_before_any_fan() -> None:
    g = _five_fan_game("mcr")
    why = g.variant.win_refusal(g, 2, tile("3s"), "discard")
    assert why is not None and why.startswith("not a winning hand")


# --------------------------------------------------------------------- records and payments

def _record(vid: str, *, winner: int, how: str, tile: str, concealed: str,
            source: int | None = None, melds: dict[int, list[dict[str, Any]]] | None = None,
            flowers: dict[int, str] | None = None, indicators: str | None = None,
            minimum: int = 8, extra: dict[str, Any] | None = None, dealer: int = 0,
            after_kong: bool = False) -> dict[str, Any]:
    melds = melds or {}
    flowers = flowers or {}
    seats = []
    for s in range(4):
        entry: dict[str, Any] = {"melds": melds.get(s, [])}
        if s == winner:
            entry["concealed"] = concealed
        if s in flowers:
            entry["flowers"] = flowers[s]
        seats.append(entry)
    out: dict[str, Any] = {"variant": vid, "options": {"minimum": minimum}, "dealer": dealer,
                           "seats": seats, "outcome": "win", "winners": [winner], "how": how,
                           "tile": tile, "after_kong": after_kong}
    if source is not None:
        out["from"] = source
    if indicators is not None:
        out["indicators"] = indicators
    if extra:
        out[vid] = extra
    return out


def _kong(kind: str, t: str, src: int | None = None) -> dict[str, Any]:
    m: dict[str, Any] = {"kind": kind, "tiles": t[0] * 4 + t[1]}
    if src is not None:
        m["from"] = src
    return m


def test_golden_multipliers_with_every_kong_kind() -> None:
    # Winner 0: 直杠 of 5p (d = 1 opened + 1 kong = 2); 清一色 24 + 明杠 1 = V 25.
    # Seat 1: 暗杠 of 1m (d = 2, not opened). Seat 2 (discarder): a chow (d = 1).
    # Seat 3: a pung made 蓄杠 (d = 1 + 1 = 2).
    melds: dict[int, list[dict[str, Any]]] = {
        0: [{"kind": "kong", "tiles": "5555p", "from": 1}],
        1: [{"kind": "concealed_kong", "tiles": "1111m"}],
        2: [{"kind": "chow", "tiles": "789s", "from": 1}],
        3: [{"kind": "added_kong", "tiles": "2222s", "from": 0}],
    }
    rec = record_from_json(_record("golden", winner=0, how="discard", tile="9p", source=2,
                                   concealed="123p 234p 678p 9p", melds=melds,
                                   indicators="1z"))
    assert fan_of(GOLDEN, rec).total == 25
    amounts = {p.payer: p.amount for p in GOLDEN.settle(rec)}
    assert amounts == {1: 8 * 2 ** (2 + 2), 2: (8 + 25) * 2 ** (2 + 1), 3: 8 * 2 ** (2 + 2)}
    assert amounts == {1: 128, 2: 264, 3: 128}
    # The same hand in mcr pays no multipliers.
    data = _record("mcr", winner=0, how="discard", tile="9p", source=2,
                   concealed="123p 234p 678p 9p", melds=melds)
    assert {p.payer: p.amount for p in get("mcr").settle(record_from_json(data))} == \
        {1: 8, 2: 33, 3: 8}


def test_golden_self_draw_concealed_winner_and_opened_payers() -> None:
    # Winner 0 closed (d = 0), self-drawn: 三色三步高 6 + 不求人 4 + 平和 2 + 断幺 2 + 连六 1.
    # Payers: seat 1 a pung (d 1), seat 2 暗杠 + chow (d 1 + 2 = 3), seat 3 nothing (d 0).
    melds: dict[int, list[dict[str, Any]]] = {1: [{"kind": "pung", "tiles": "111z", "from": 2}],
             2: [{"kind": "concealed_kong", "tiles": "9999m"}, {"kind": "chow", "tiles": "123p",
                                                                 "from": 1}]}
    rec = record_from_json(_record("golden", winner=0, how="self_draw", tile="3s",
                                   concealed="234m 456p 678s 45s 88p", melds=melds,
                                   indicators="1z"))
    v = fan_of(GOLDEN, rec).total
    assert v == 15
    amounts = {p.payer: p.amount for p in GOLDEN.settle(rec)}
    assert amounts == {1: 23 * 2, 2: 23 * 8, 3: 23}


def test_mcr_self_draw_discard_and_robbed_kong_rows() -> None:
    mcr = get("mcr")
    hand = dict(winner=2, tile="3s", concealed="234m 456p 678s 45s 88p")
    self_draw = record_from_json(_record("mcr", how="self_draw", **hand))  # type: ignore[arg-type]
    assert fan_of(mcr, self_draw).total == 15
    assert {(p.payer, p.payee, p.amount) for p in mcr.settle(self_draw)} == \
        {(0, 2, 23), (1, 2, 23), (3, 2, 23)}
    discard = record_from_json(_record("mcr", how="discard", source=3, **hand))  # type: ignore[arg-type]
    assert fan_of(mcr, discard).total == 13
    assert {(p.payer, p.amount) for p in mcr.settle(discard)} == {(0, 8), (1, 8), (3, 21)}
    # 抢杠: seat 0 adds a 3s to its pung; seat 2 robs it. 抢杠和 8 on top (V = 21).
    robbed = record_from_json(_record("mcr", how="robbed_kong", source=0,
                                      melds={0: [{"kind": "pung", "tiles": "333s", "from": 1}]},
                                      **hand))  # type: ignore[arg-type]
    fan = fan_of(mcr, robbed)
    assert "robbing_the_kong" in fan.counts() and fan.total == 21
    pays = mcr.settle(robbed)
    assert {(p.payer, p.amount) for p in pays} == {(0, 29), (1, 8), (3, 8)}
    assert sum(net(pays, 4)) == 0


@pytest.mark.parametrize(("change", "message"), [
    ({"how": "discard", "from": 1, "tile": "2z"}, "golden tile, which is never discarded"),
    ({"indicators": ""}, "golden needs the indicator"),
    ({"indicators": "1z 2z"}, "exactly one non-flower"),
    ({"golden": {"last_tile": "yes"}}, "expected true or false"),
    ({"golden": {"lucky": True}}, "unknown field"),
    ({"how": "robbed_kong", "from": 1}, "no exposed pung"),
    ({"after_kong": True}, "no kong"),
])
def test_impossible_golden_records_are_refused(change: dict[str, Any], message: str) -> None:
    # A 七对 hand waiting on 2z (the golden tile is 2z: indicator 1z).
    data = _record("golden", winner=0, how="self_draw", tile="2z",
                   concealed="11m 22m 33m 44p 55p 66p 7s", indicators="1z")
    record_from_json(data)  # the base record is fine
    data.update(change)
    with pytest.raises(RecordError, match=message):
        record_from_json(data)


def test_flower_among_the_hand_tiles_is_refused() -> None:
    data = _record("mcr", winner=0, how="self_draw", tile="3s",
                   concealed="234m 456p 678s 45s 8p 1f")
    with pytest.raises(RecordError, match="belongs in \"flowers\""):
        record_from_json(data)


def test_mcr_records_have_no_indicator() -> None:
    data = _record("mcr", winner=0, how="self_draw", tile="3s",
                   concealed="234m 456p 678s 45s 88p", indicators="1z")
    with pytest.raises(RecordError, match="mcr has no indicator"):
        record_from_json(data)


def test_situational_facts_from_the_record() -> None:
    mcr = get("mcr")
    hand = dict(winner=2, tile="3s", concealed="234m 456p 678s 45s 88p")
    last = record_from_json(_record("mcr", how="self_draw", extra={"last_tile": True},
                                    **hand))  # type: ignore[arg-type]
    assert "last_tile_draw" in fan_of(mcr, last).counts()
    sea = record_from_json(_record("mcr", how="discard", source=1, extra={"last_tile": True},
                                   **hand))  # type: ignore[arg-type]
    assert fan_of(mcr, sea).total == 13 + 8
    kong = record_from_json(_record(
        "mcr", winner=0, how="self_draw", tile="9p", concealed="123p 234p 678p 9p",
        melds={0: [_kong("kong", "5p", 1)]}, after_kong=True))
    assert "out_with_replacement_tile" in fan_of(mcr, kong).counts()


def test_winds_come_from_the_dealer_and_the_prevalent_wind_option() -> None:
    mcr = get("mcr")
    # Seat 2 with dealer 1 sits 南 (dealer 东, then 南): a pung of 南 is 门风刻; the
    # prevalent wind 南 makes it 圈风刻 too.
    data = _record("mcr", winner=2, how="self_draw", tile="9s", dealer=1,
                   concealed="222z 123m 456p 789s 9s")
    assert fan_of(mcr, record_from_json(data)).counts().get("seat_wind") == 1
    assert "prevalent_wind" not in fan_of(mcr, record_from_json(data)).counts()
    data["options"]["prevalent_wind"] = "S"
    assert fan_of(mcr, record_from_json(data)).counts().get("prevalent_wind") == 1


# --------------------------------------------------------------------- priority

@pytest.mark.parametrize(("priority", "winner", "fan"), [("nearest", 3, 6), ("dealer", 1, 5)])
def test_one_winner_per_discard_and_the_literal_priority_option(priority: str, winner: int,
                                                                fan: int) -> None:
    # Dealer 0; seat 2 discards 3s, on which seats 1 and 3 can both win (minimum 0).
    # Nearest after the discarder: 3. Counted from the dealer (以庄家逆时针为序): 1.
    hands = ["1234567z 199m 19p 19s", "123m 456p 678s 45s 88p",
             "3s 2m 5m 8m 3p 6p 9p 7s 9s 2z 3z 4z 5z", "123p 456p 678s 45s 22m"]
    g = arranged(hands, draws="6z 7z", vid="mcr", minimum=0, priority=priority)
    g.apply(Action("discard", 0, tile("1z")))
    _pass_all(g)
    g.apply(Action("discard", 1, tile("6z")))
    _pass_all(g)
    g.apply(Action("discard", 2, tile("3s")))
    assert sorted(s for s in g.to_act() if any(a.type == "win" for a in g.legal_actions(s))) \
        == [1, 3]
    for s in g.to_act():
        want_win = any(a.type == "win" for a in g.legal_actions(s))
        g.apply(Action("win", s, tile("3s")) if want_win else Action("pass", s))
    assert g.over and g.record is not None
    assert g.record.winners == (winner,) and g.record.source == 2
    assert {p.payer: p.amount for p in g.payments} == {2: 8 + fan, (4 - winner): 8, 0: 8}
