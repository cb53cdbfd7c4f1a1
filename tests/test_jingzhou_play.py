"""荆州麻将 in play: the laizi, 红中杠 / 赖子杠, 开口, 抢杠, 杠开, the draw at the reserve."""

from __future__ import annotations

import random

import pytest

from laizi import tiles as T
from laizi.engine import CLAIM, ROB, Action, Game, IllegalActionError, state_json
from laizi.engine.walls import arrange_wall
from laizi.variants import get
from laizi.variants.jingzhou_rules import laizi_for

JZ = get("jingzhou")


def tile(text: str) -> int:
    return T.parse_tile(text)


def jz_game(hands: dict[int, str], draws: str = "", tail: str = "9s", dealer: int = 0) -> Game:
    """Deal ``hands`` (the other seats get filler singletons, never 中, 1s, or a tile of a
    given hand); the first tail tile is the indicator (9s → laizi 1s)."""
    pool = sorted(JZ.tile_set(JZ.default_options()))
    fixed = {s: T.parse(h) for s, h in hands.items()}
    tail_tiles = T.parse(tail)
    draw_tiles = T.parse(draws) if draws else []
    for t in [*draw_tiles, *tail_tiles, *(t for h in fixed.values() for t in h)]:
        pool.remove(t)
    used = {t for h in fixed.values() for t in h} | {T.RED, tile("1s")}
    full = []
    for s in range(3):
        if s in fixed:
            full.append(fixed[s])
            continue
        size = 13 + (s == dealer)
        hand: list[int] = []
        # distinct kinds not in the given hands first, then second copies, then anything
        # but 中 and the laizi, then anything
        for banned in (used, used, used, {T.RED, tile("1s")}, set()):
            for t in sorted({t for t in pool if t not in banned}):
                if len(hand) < size:
                    hand.append(t)
                    pool.remove(t)
        assert len(hand) == size
        full.append(hand)
    wall = arrange_wall(JZ, full, draw_tiles, tail_tiles, dealer=dealer)
    return Game(JZ, wall=wall, dealer=dealer)


def do(g: Game, seat: int, kind: str, text: str = "") -> None:
    """Apply the legal action of ``kind`` (on tile/tiles ``text``) for ``seat``."""
    want = T.parse(text) if text else []
    for a in g.legal_actions(seat):
        if a.type != kind:
            continue
        if not want or list(a.tiles) == want or (len(want) == 1 and a.tile == want[0]):
            g.apply(a)
            return
    raise AssertionError(f"seat {seat} cannot {kind} {text}: {g.legal_actions(seat)}")


def pass_all(g: Game) -> None:
    for s in list(g.to_act()):
        g.apply(Action("pass", s))


def nobody_claims(g: Game) -> None:
    """The window after a discard (or an added kong) asks every other seat; here each has
    nothing but ``pass``, and all pass."""
    assert g.phase in (CLAIM, ROB) and len(g.to_act()) == 2
    for s in g.to_act():
        assert g.legal_actions(s) == (Action("pass", s),), (s, g.legal_actions(s))
    pass_all(g)


def test_laizi_follows_the_indicator() -> None:
    pairs = {"2p": "3p", "9p": "1p", "9s": "1s", "5s": "6s", "2z": "3z", "3z": "4z",
             "4z": "6z", "6z": "5z", "5z": "2z", "7z": "6z"}
    for indicator, laizi in pairs.items():
        assert laizi_for(tile(indicator)) == tile(laizi), indicator
    g = jz_game({}, tail="9p")
    assert g.indicators == [tile("9p")] and g.wildcard == tile("1p")
    assert g.live_tiles == 96 - 40 - 1
    v = g.view(1)
    assert v["indicators"] == [tile("9p")] and v["wildcard"] == tile("1p")


def test_red_dragon_and_laizi_are_only_played_out_as_kongs() -> None:
    g = jz_game({0: "7z 1s 234p 567p 345s 88s 9p"}, tail="9s 6z 5z")
    acts = g.legal_actions(0)
    assert Action("special_kong", 0, T.RED) in acts
    assert Action("special_kong", 0, tile("1s")) in acts
    assert Action("discard", 0, T.RED) not in acts
    before = state_json(g)
    with pytest.raises(IllegalActionError, match="红中杠"):
        g.apply(Action("discard", 0, T.RED))
    with pytest.raises(IllegalActionError, match="赖子杠"):
        g.apply(Action("discard", 0, tile("1s")))
    assert state_json(g) == before
    do(g, 0, "special_kong", "7z")
    assert g.melds[0][-1].kind == "red_dragon_kong" and g.melds[0][-1].tiles == (T.RED,)
    assert g.phase == "turn" and g.turn == 0  # nobody may claim it
    assert g.log[-1] == {"type": "draw", "seat": 0, "tile": tile("6z"), "replacement": True}
    do(g, 0, "special_kong", "1s")
    assert g.melds[0][-1].kind == "laizi_kong"
    assert g.last_tile == tile("5z") and g.after_kong


def test_laizi_and_red_dragon_take_no_part_in_claims() -> None:
    # Seat 1 holds 1s (the laizi) and 2s: no chow 123s on a discarded 3s; with 2s 4s: 234s.
    g = jz_game({0: "3s 2p 3p 4p 5p 6p 7p 8p 9p 2z 3z 4z 5z 6z",
                 1: "1s 2s 4s 1p 1p 3z 5z 6z 8s 8s 9s 9s 4z"})
    do(g, 0, "discard", "3s")
    assert g.phase == CLAIM
    chows = {a.tiles for a in g.legal_actions(1) if a.type == "chow"}
    assert chows == {tuple(T.parse("234s"))}


def test_unopened_hand_cannot_win_but_seven_pairs_can() -> None:
    # Seat 1 has 234p 567p 678s 345s 2p waiting on 2p — closed: no win offered.
    g = jz_game({0: "2p 9p 9p 9p 2z 3z 4z 5z 6z 8s 8s 1p 1p 3z",
                 1: "234p 567p 678s 345s 2p"})
    do(g, 0, "discard", "2p")
    assert not any(a.type == "win" for a in g.legal_actions(1))
    # Seven pairs, closed, on a discard.
    g = jz_game({0: "4z 9p 9p 9p 2z 3z 5z 6z 8s 8s 1p 1p 3z 7p",
                 1: "22p 33p 55s 66s 77s 99s 4z"})
    do(g, 0, "discard", "4z")
    assert g.to_act() == [1, 2]
    assert any(a.type == "win" for a in g.legal_actions(1))
    do(g, 1, "win")
    assert g.record is None  # seat 2 has not answered yet
    do(g, 2, "pass")
    assert g.record is not None and g.record.how == "discard"
    # 七对 10 + 点炮 10 = 20 × 2 (硬胡) = 40 from seat 0; 10 × 2 = 20 from seat 2.
    assert g.net == [-40, 60, -20]


def test_gangkai_after_a_red_dragon_kong() -> None:
    # The dealer holds six pairs + 4z + 中: plays 中 out, draws 4z from the tail: 七对 杠开.
    g = jz_game({0: "22p 33p 55s 66s 88s 99p 4z 7z"}, tail="9s 4z")
    do(g, 0, "special_kong", "7z")
    do(g, 0, "win")
    assert g.record is not None and g.record.after_kong and g.record.how == "self_draw"
    # 七对 + 杠开 = 20, + 10 自摸 = 30; doublings 硬胡 1 + 红中杠 1 → 30 × 4 = 120 each.
    assert g.net == [240, -120, -120]


def test_robbing_an_added_kong() -> None:
    g = jz_game({0: "4s 55p 999p 222z 333z 44z",
                 1: "56s 5p 34p 88p 234s 678s",
                 2: "1p 2p 66z 55z 7s 9s 8s 2s 3s 5s 4s"},
                draws="1p 7p 5p")
    do(g, 0, "discard", "4s")
    do(g, 1, "chow", "456s")
    pass_all(g)
    do(g, 1, "discard", "5p")
    do(g, 0, "pung", "555p")
    pass_all(g)
    do(g, 0, "discard", "4z")
    nobody_claims(g)
    assert g.turn == 1
    do(g, 1, "discard", "1p")
    nobody_claims(g)
    assert g.turn == 2
    do(g, 2, "discard", "7p")
    nobody_claims(g)
    assert g.turn == 0 and g.last_tile == tile("5p")
    do(g, 0, "added_kong", "5p")
    assert g.phase == ROB and g.to_act() == [1, 2]  # every other seat is asked
    assert g.legal_actions(2) == (Action("pass", 2),)
    do(g, 1, "win")
    assert g.record is None
    do(g, 2, "pass")
    r = g.record
    assert r is not None and r.how == "robbed_kong" and r.source == 0 and r.win_tile == tile("5p")
    # 抢杠 10 + 10 (as 自摸); winner 开口 + 硬胡 = 2; seat 0 opened: 20 × 8 = 160,
    # seat 2: 20 × 4 = 80; the robbed seat 0 pays both lines.
    assert g.net == [-240, 240, 0]
    assert g.melds[0][-1].kind == "pung"  # the kong never happened


def test_added_kong_not_robbed_draws_a_replacement() -> None:
    g = jz_game({0: "4s 55p 999p 222z 333z 44z",
                 1: "56s 5p 34p 99s 234s 678s",
                 2: "1p 2p 66z 55z 7s 9s 8s 2s 3s 5s 4s"},
                draws="1p 7p 5p", tail="9s 6z")
    do(g, 0, "discard", "4s")
    do(g, 1, "chow", "456s")
    pass_all(g)
    do(g, 1, "discard", "5p")
    do(g, 0, "pung", "555p")
    pass_all(g)
    do(g, 0, "discard", "4z")
    nobody_claims(g)
    do(g, 1, "discard", "1p")
    nobody_claims(g)
    do(g, 2, "discard", "7p")
    nobody_claims(g)
    do(g, 0, "added_kong", "5p")
    assert g.phase == ROB and g.to_act() == [1, 2]
    nobody_claims(g)  # nobody can rob
    assert g.phase == "turn" and g.turn == 0 and g.after_kong
    assert g.melds[0][-1].kind == "added_kong" and g.last_tile == tile("6z")


def test_exhaustive_draw_leaves_the_reserve() -> None:
    for reserve in (10, 4):
        opts = JZ.options_from_json({"reserve": reserve})
        g = Game(JZ, opts, seed=3)
        rng = random.Random(1)
        while not g.over:
            for s in g.to_act():
                acts = [a for a in g.legal_actions(s) if a.type != "win"]
                g.apply(rng.choice(acts))
        assert g.record is not None and g.record.outcome == "draw"
        assert g.live_tiles == reserve and g.payments == []


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown jingzhou option"):
        JZ.options_from_json({"cap_": 1})
    with pytest.raises(ValueError, match="reserve"):
        JZ.options_from_json({"reserve": -2})


def test_qingyise_feeder_is_tracked_on_the_third_meld_of_one_suit() -> None:
    from laizi.core.melds import Meld

    g = Game(JZ, seed=1)
    g.melds[1] = [Meld("chow", tuple(T.parse("123p")), 0, tile("1p")),
                  Meld("pung", tuple(T.parse("999p")), 2, tile("9p"))]
    third = Meld("pung", tuple(T.parse("555p")), 2, tile("5p"))
    g.melds[1].append(third)
    JZ.on_claim(g, 1, third)
    assert g.extra["qingyise_feeder"] == {"1": 2}
    assert JZ.record_extra(g, [1], "self_draw", None) == {"qingyise_feeder": 2}
    # a third meld of another suit, or a fourth meld, is no 包牌 fact
    g2 = Game(JZ, seed=1)
    g2.melds[0] = [Meld("chow", tuple(T.parse("123p")), 2, tile("1p")),
                   Meld("pung", tuple(T.parse("999s")), 1, tile("9s"))]
    other = Meld("pung", tuple(T.parse("555p")), 1, tile("5p"))
    g2.melds[0].append(other)
    JZ.on_claim(g2, 0, other)
    assert "qingyise_feeder" not in g2.extra


def test_readiness_of_the_discarder() -> None:
    from laizi.core.melds import Meld
    from laizi.variants.jingzhou_rules import is_ready

    opened = [Meld("chow", tuple(T.parse("234p")), 0, tile("2p"))]
    ready = T.to_counts(T.parse("567p 678s 345s 2p"))  # waits on 2p
    assert is_ready(ready, opened, tile("1s"))
    assert not is_ready(T.to_counts(T.parse("567p 678s 345s 3z")), opened, tile("1s"))
    # closed: only 七对 counts as ready
    assert not is_ready(T.to_counts(T.parse("234p 567p 678s 345s 2p")), [], tile("1s"))
    assert is_ready(T.to_counts(T.parse("22p 33p 55s 66s 88s 99p 4z")), [], tile("1s"))
    # a held 中 is never ready
    assert not is_ready(T.to_counts(T.parse("567p 678s 345s 7z")), opened, tile("1s"))


def test_pihu_under_8_points_is_not_offered_in_play() -> None:
    # Seat 1 opens with a chow and waits on 5s with the laizi 1s (软 屁胡): its line from
    # seat 2 (点炮) would be 2^(1+1) = 4 and from the dealer 4: under the minimum of 8.
    g = jz_game({0: "4s 2z 2z 3z 3z 4z 4z 5z 5z 6z 6z 2p 3p 7p",
                 1: "56s 9p 567p 678s 3s 1s 88p",
                 2: "5s 1p 1p 4p 4p 9s 9s 2s 2s 8s 8s 6p 6p"}, draws="2z")
    do(g, 0, "discard", "4s")
    do(g, 1, "chow", "456s")
    pass_all(g)
    do(g, 1, "discard", "9p")
    nobody_claims(g)
    assert g.turn == 2 and g.phase == "turn"
    why = JZ.win_refusal(g, 1, tile("5s"), "discard")
    assert why is not None and "at least 8" in why
    do(g, 2, "discard", "5s")
    nobody_claims(g)  # seat 1 is offered no win on the 5s, only pass
    assert g.phase == "turn" and g.turn == 0
