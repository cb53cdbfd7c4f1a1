"""荆州晃晃 on the engine: tiles, laizi, dead discarded laizi, 一炮单响, 抢杠, 杠上开花,
horses from the tail, records and replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from laizi import tiles as T
from laizi.core.records import RecordError, record_to_json
from laizi.engine import CLAIM, Game, dumps, loads, replay, state_json
from laizi.engine.walls import arrange_wall
from laizi.records import record_from_json
from laizi.settlement import net
from laizi.variants import get
from laizi.variants.huanghuang import HuanghuangOptions, settle_with_horses

HH = get("huanghuang")
LAIZI = T.parse_tile("5p")  # the indicator 4p shows 5p


def tile(text: str) -> int:
    return T.parse_tile(text)


def hh_game(hands: dict[int, str], draws: str = "", tail: str = "4p", dealer: int = 0,
            horses: tuple[int, ...] = ()) -> Game:
    """Deal ``hands``; other seats get filler (distinct kinds first, never the laizi).
    ``tail``: the indicator, then the horse tiles, then replacement draws."""
    options = HuanghuangOptions(horses=horses)
    pool = sorted(HH.tile_set(options))
    fixed = {s: T.parse(h) for s, h in hands.items()}
    tail_tiles = T.parse(tail)
    draw_tiles = T.parse(draws) if draws else []
    for t in [*draw_tiles, *tail_tiles, *(t for h in fixed.values() for t in h)]:
        pool.remove(t)
    used = {t for h in fixed.values() for t in h} | {LAIZI}
    full = []
    for s in range(4):
        if s in fixed:
            full.append(fixed[s])
            continue
        size = 13 + (s == dealer)
        hand: list[int] = []
        for banned in (used | {t for h in full for t in h}, used, {LAIZI}, set()):
            for t in sorted({t for t in pool if t not in banned}, key=lambda x: (x % 3, x)):
                if len(hand) < size and t in pool:
                    hand.append(t)
                    pool.remove(t)
        full.append(hand)
    wall = arrange_wall(HH, full, draw_tiles, tail_tiles, dealer=dealer, options=options)
    return Game(HH, options=options, wall=wall, dealer=dealer)


def do(g: Game, seat: int, kind: str, text: str = "") -> None:
    """Apply ``seat``'s legal action of ``kind`` (on ``text``); every other seat with a
    pending claim passes first."""
    want = T.parse(text) if text else []
    if g.phase != "turn":
        for s in g.to_act():
            if s != seat:
                g.apply(next(a for a in g.legal_actions(s) if a.type == "pass"))
    for a in g.legal_actions(seat):
        if a.type == kind and (not want or list(a.tiles) == want
                               or (len(want) == 1 and a.tile == want[0])):
            g.apply(a)
            return
    raise AssertionError(f"seat {seat} cannot {kind} {text}: {g.legal_actions(seat)}")


def answer(g: Game, seat: int, kind: str) -> None:
    g.apply(next(a for a in g.legal_actions(seat) if a.type == kind))


def pass_all(g: Game) -> None:
    while g.phase == CLAIM or g.phase == "rob":
        for s in g.to_act():
            g.apply(next(a for a in g.legal_actions(s) if a.type == "pass"))


def types(g: Game, seat: int) -> set[str]:
    return {a.type for a in g.legal_actions(seat)}


# ------------------------------------------------------------------ the set and the laizi


def test_tile_set_is_120_tiles_without_winds() -> None:
    ts = HH.tile_set(HH.default_options())
    assert len(ts) == 120
    assert set(ts) == set(range(27)) | {T.RED, T.GREEN, T.WHITE}
    assert all(ts.count(t) == 4 for t in set(ts))


def test_indicator_from_the_tail_and_laizi_is_its_successor() -> None:
    for seed in range(20):
        g = Game("huanghuang", seed=seed)
        assert len(g.indicators) == 1
        assert g.indicators[0] == g.wall[-1]
        ind = g.indicators[0]
        expected = {T.RED: T.GREEN, T.GREEN: T.WHITE, T.WHITE: T.RED}.get(
            ind, ind - 8 if ind < 27 and ind % 9 == 8 else ind + 1)
        assert g.wildcard == expected
        # 120 - 53 dealt - 1 indicator
        assert g.live_tiles == 66


def test_horse_tiles_come_from_the_tail_after_the_indicator_and_stay_hidden() -> None:
    g = Game("huanghuang", HuanghuangOptions(horses=(0, 5, 3)), seed=3)
    assert g.extra["horse_tiles"] == [g.wall[-2], g.wall[-3], g.wall[-4]]
    assert g.live_tiles == 66 - 3
    for s in range(4):
        assert "horse_tiles" not in json.dumps(g.view(s))  # who bought is public


def test_options_checked() -> None:
    with pytest.raises(ValueError, match="only one horse"):
        HuanghuangOptions(horses=(1, 1))
    with pytest.raises(ValueError, match="party"):
        HuanghuangOptions(horses=(8,))
    with pytest.raises(ValueError, match="base"):
        HuanghuangOptions(base=0)
    assert HH.options_from_json({"horses": [0, 4]}).horses == (0, 4)


# ------------------------------------------------------------------ dead laizi


def test_discarded_laizi_is_dead_and_doubles_the_payments() -> None:
    # Seat 1 holds a laizi pair; seat 0 discards a laizi: no pung, no kong, no win on it.
    g = hh_game({0: "5p 111m 999m 111s 999s 7z", 1: "123m 456m 789m 55p 23s"},
                draws="4s", tail="4p")
    do(g, 0, "discard", "5p")
    assert g.phase == CLAIM and g.to_act() == [1, 2, 3]  # every other seat is asked ...
    assert all(types(g, s) == {"pass"} for s in (1, 2, 3))  # ... and nobody has an option
    pass_all(g)
    assert g.phase == "turn" and g.turn == 1
    # Seat 1 draws 4s: 门清 self-draw, the laizi pair read as itself (硬): 大刀 × 硬.
    do(g, 1, "win", "4s")
    rec = g.record
    assert rec is not None and rec.extra["laizi_discarded"] == 1
    # 1 × 2 (大刀) × 2 (硬) × 2 (自摸) × 2 (one laizi discarded) = 16 each.
    assert g.net == [-16, 48, -16, -16]


def test_two_laizi_cannot_win_a_small_blade_on_a_discard() -> None:
    g = hh_game({0: "4s 111m 999m 111s 999s 7z", 1: "123m 456m 789m 55p 23s"})
    do(g, 0, "discard", "4s")
    # Seat 1 could chow 234s but not win: two laizi in hand, and a discard win is 小刀.
    assert "win" not in types(g, 1) and "chow" in types(g, 1)
    why = HH.win_refusal(g, 1, tile("4s"), "discard")
    assert why is not None and "大刀" in why


# ------------------------------------------------------------------ one winner per discard


def test_one_winner_per_discard_the_nearest_after_the_discarder() -> None:
    g = hh_game({0: "7s 111m 999m 111s 999s 7z", 1: "123m 456m 789m 234s 7s",
                 3: "111p 678p 999p 22m 77s"}, horses=(1, 4))
    do(g, 0, "discard", "7s")
    assert "win" in types(g, 1) and "win" in types(g, 3) and types(g, 2) == {"pass"}
    answer(g, 3, "win")
    answer(g, 2, "pass")
    assert g.record is None
    answer(g, 1, "win")
    rec = g.record
    assert rec is not None and rec.winners == (1,) and rec.source == 0
    # Seat 1: chows, no laizi: 小刀 硬 = 2, paid by the discarder alone.
    assert g.net == [-2, 2, 0, 0]
    table, horse = settle_with_horses(rec)
    assert table == g.payments
    parties = 1 + max([p.payer for p in table + horse] + [p.payee for p in table + horse] + [4])
    assert sum(net(table + horse, parties)) == 0


# ------------------------------------------------------------------ 抢杠 and 杠上开花


def test_robbing_an_added_kong() -> None:
    g = hh_game({0: "7m 111m 999m 222s 888s 7z", 1: "77m 123p 456p 789p 1s 9s",
                 2: "123p 456p 789p 11s 68m"},
                draws="5z 6z 7z 7m")
    do(g, 0, "discard", "7m")
    do(g, 1, "pung", "777m")
    do(g, 1, "discard", "9s")
    pass_all(g)
    do(g, 2, "discard", "5z")
    pass_all(g)
    do(g, 3, "discard", "6z")
    pass_all(g)
    do(g, 0, "discard", "7z")
    pass_all(g)
    do(g, 1, "added_kong", "7m")
    assert g.phase == "rob" and "win" in types(g, 2)
    do(g, 2, "win", "7m")
    rec = g.record
    assert rec is not None and rec.how == "robbed_kong" and rec.source == 1
    # 小刀 硬 × 2 (抢杠), paid by the robbed seat alone.
    assert g.net == [0, -4, 4, 0]


def test_kong_bloom_seed_example_each_pays_8() -> None:
    # Dealer: concealed kong of 9s, replacement 5m → 12345678m + laizi + 22s, 门清 软.
    g = hh_game({0: "9999s 1234678m 5p 22s"}, tail="4p 5m")
    do(g, 0, "concealed_kong", "9s")
    assert g.after_kong
    do(g, 0, "win", "5m")
    rec = g.record
    assert rec is not None and rec.after_kong
    assert g.net == [24, -8, -8, -8]


# ------------------------------------------------------------------ records and replay


def random_game(seed: int, horses: tuple[int, ...] = (0, 4, 2)) -> Game:
    rng = random.Random(seed)
    g = Game("huanghuang", HuanghuangOptions(horses=horses), seed=seed, dealer=seed % 4)
    while not g.over:
        for s in g.to_act():
            acts = g.legal_actions(s)
            wins = [a for a in acts if a.type == "win"]
            g.apply(wins[0] if wins else rng.choice(acts))
    return g


def first_win(start: int) -> Game:
    for seed in range(start, start + 200):
        g = random_game(seed)
        if g.record is not None and g.record.outcome == "win":
            return g
    raise AssertionError("no win in 200 random hands")


def test_replay_and_record_round_trip() -> None:
    g = first_win(0)
    again = replay(loads(dumps(g.log)))
    assert state_json(again) == state_json(g)
    assert g.record is not None
    data = record_to_json(g.record, g.variant)
    assert "laizi_discarded" in data["huanghuang"]
    assert len(data["huanghuang"]["horses"]) == 3
    back = record_from_json(json.loads(json.dumps(data)))
    assert HH.settle(back) == g.payments


def test_record_validation_errors() -> None:
    g = first_win(0)
    assert g.record is not None
    data = record_to_json(g.record, g.variant)
    bad = json.loads(json.dumps(data))
    bad["huanghuang"]["colour"] = 1
    with pytest.raises(RecordError, match="unknown field"):
        record_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["huanghuang"]["laizi_discarded"] = 5
    with pytest.raises(RecordError, match="laizi_discarded"):
        record_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["huanghuang"]["horses"] = [{"holder": 9, "tile": "5m"}]
    with pytest.raises(RecordError, match="holder"):
        record_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["huanghuang"]["horses"] = [{"holder": 1, "tile": "1z"}]
    with pytest.raises(RecordError, match="horse"):
        record_from_json(bad)


def test_hand_record_with_horses_settles_by_hand() -> None:
    """A typed record of a physical table: the seed's example with three horses."""
    record = record_from_json({
        "variant": "huanghuang", "dealer": 0, "indicators": "4p", "outcome": "win",
        "winners": [2], "how": "self_draw", "tile": "5m", "after_kong": True,
        "seats": [{}, {}, {"concealed": "1234678m 5p 22s",
                          "melds": [{"kind": "concealed_kong", "tiles": "9999s"}]}, {}],
        "huanghuang": {"laizi_discarded": 0, "horses": [
            {"holder": 4, "tile": "3m"},   # 3 → seat 2, the winner: +8 from each loser
            {"holder": 0, "tile": "6p"},   # 6 → seat 1, a loser: pays 8 to seat 2
            {"holder": 5, "tile": "7z"},   # 中 = 2 → seat 1 as well
        ]},
    })
    table, horse = settle_with_horses(record)
    assert net(table, 4) == [-8, -8, 24, -8]
    assert net(table + horse, 6) == [-24, -16, 40, -16, 24, -8]


def test_laizi_score_settles_horses_held_by_waiting_people(tmp_path: Any, capsys: Any) -> None:
    from laizi.cli import main

    path = tmp_path / "hand.json"
    path.write_text(json.dumps({
        "variant": "huanghuang", "dealer": 0, "indicators": "4p", "outcome": "win",
        "winners": [2], "how": "self_draw", "tile": "5m", "after_kong": True,
        "seats": [{}, {}, {"concealed": "1234678m 5p 22s",
                          "melds": [{"kind": "concealed_kong", "tiles": "9999s"}]}, {}],
        "huanghuang": {"laizi_discarded": 1, "horses": [{"holder": 4, "tile": "3m"}]},
    }), encoding="utf-8")
    assert main(["score", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    # One laizi discarded doubles: each loser pays 16, and the horse on seat 2 collects 16
    # from each of them too.
    assert out["net"] == [-32, -32, 48, -32, 48]
    path.write_text(json.dumps({"variant": "huanghuang", "dealer": 0, "indicators": "4p",
                                "outcome": "draw", "seats": [{}, {}, {}, {}],
                                "huanghuang": {"horses": [{"holder": 4, "tile": "1z"}]}}))
    assert main(["score", str(path)]) == 2
    assert "horse" in capsys.readouterr().err
