"""台湾十六张 on the engine: deal, flowers, reserve/海底, declarations, first-turn wins,
花胡, settlement through the 台 calculator."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from laizi import tiles as T
from laizi.core.records import record_to_json
from laizi.engine import Action, Game, IllegalActionError, replay, state_json
from laizi.engine.walls import arrange_wall
from laizi.errors import MalformedActionError
from laizi.records import record_from_json
from laizi.scoring.taiwan import SEED
from laizi.variants import get

V = get("taiwan")
P = T.parse


def tiles(text: str) -> list[int]:
    return P(text, "mpsz")


def filler(used: Sequence[int], n: int, avoid: Sequence[int] = ()) -> list[int]:
    """``n`` non-flower tiles left over after ``used``, avoiding the kinds in ``avoid``."""
    left = T.to_counts(V.tile_set(SEED), T.NUM_TILE_IDS)
    for t in used:
        left[t] -= 1
    out: list[int] = []
    for t in range(T.NUM_KINDS):
        if t in avoid:
            continue
        take = min(left[t], n - len(out))
        out.extend([t] * take)
    assert len(out) == n
    return out


def game_with(hands: Sequence[Sequence[int]], draws: Sequence[int] = (),
              tail: Sequence[int] = (), dealer: int = 0, **ctx: int) -> Game:
    wall = arrange_wall(V, hands, draws, tail, dealer=dealer)
    return Game(V, seed=0, dealer=dealer, wall=wall, context=dict(ctx) or None)


def drive(game: Game, choose: Callable[[Game, int, Sequence[Action]], Action | None],
          until: Callable[[Game], bool] = lambda g: g.over) -> None:
    """Apply ``choose``'s pick (None: discard the drawn tile / pass) until ``until``."""
    while not until(game):
        seat = game.to_act()[0]
        acts = game.legal_actions(seat)
        a = choose(game, seat, acts)
        if a is None:
            a = passive(game, seat, acts)
        game.apply(a)


def passive(game: Game, seat: int, acts: Sequence[Action]) -> Action:
    for a in acts:
        if a.type == "pass":
            return a
    for a in acts:
        if a.type == "discard" and a.tile == game.last_tile:
            return a
    return next(a for a in acts if a.type == "discard")


def never(game: Game, seat: int, acts: Sequence[Action]) -> Action | None:
    return None


def claim(game: Game, action: Action) -> None:
    """Answer a discard with ``action``; every other seat asked passes."""
    game.apply(action)
    for seat in game.to_act():
        if seat != action.seat:
            game.apply(Action("pass", seat))


def types(acts: Sequence[Action]) -> set[str]:
    return {a.type for a in acts}


def nobody_declares(game: Game) -> None:
    """Close a decision window (天听 at the start of every hand) that asks every seat,
    each with nothing but ``pass``: all pass and the hand goes on."""
    assert game.phase == "decide" and game.to_act() == list(range(game.n))
    for seat in range(game.n):
        assert game.legal_actions(seat) == (Action("pass", seat),), seat
        game.apply(Action("pass", seat))
    assert game.phase != "decide"


# a plain, unready 16-tile hand per seat (no flowers, no pairs to speak of)
H1 = tiles("1147m2558p3699s1234z")  # 16 unready tiles (seat 1)
H2 = tiles("2258m3669p1447s5567z")
H3 = tiles("3369m1447p2558s1237z")
H0 = tiles("14789m1469p1479s4567z")  # the dealer's 17


def test_deal_sizes_and_dealt_flower_replacement_in_seat_order() -> None:
    h0 = [*H0[:15], 34, 35]          # the dealer is dealt two flowers
    h2 = [*H2[:15], 36]             # seat 2 one
    h3 = [*H3[:15], 41]             # seat 3 one
    tail = tiles("9m9p9s8m")        # replacements come from the tail, in seat order
    g = game_with([h0, H1, h2, h3], tail=tail, dealer=0)
    assert g.sizes == [17, 16, 16, 16]
    assert g.flowers == [[34, 35], [], [36], [41]]
    events = [(e["seat"], e["tile"]) for e in g.log if e["type"] in ("flower", "draw")]
    assert events == [(0, 34), (0, tail[0]), (0, 35), (0, tail[1]), (2, 36), (2, tail[2]),
                      (3, 41), (3, tail[3])]
    assert g.live_tiles == 144 - 65 - 4
    # the dealer's seat order starts at the dealer: with dealer 2, seat 2 is replaced first
    g2 = game_with([H1, h2, [*H0[:15], 34, 35], h3], tail=tail, dealer=2)
    order = [e["seat"] for e in g2.log if e["type"] == "flower"]
    assert order == [2, 2, 3, 1]


def test_flower_drawn_in_play_is_replaced_at_once() -> None:
    draws = [37]  # seat 1's first draw is a flower
    g = game_with([H0, H1, H2, H3], draws=draws, tail=tiles("5z"))
    nobody_declares(g)
    g.apply(Action("discard", 0, 33))
    drive(g, never, until=lambda g: g.phase == "turn" and g.turn == 1)
    assert g.flowers[1] == [37] and g.last_tile == T.parse_tile("5z")
    assert g.sizes[1] == 17


def test_reserve_and_haidi_self_draw() -> None:
    # seat 3 is ready on 5p; every other tile is thrown; the 63rd draw (the 海底) is 5p
    h3 = tiles("123m456m789m123p4p11s")  # 16: 4p + pair 1s... waits 2p? keep simple below
    h3 = tiles("123m456m789m123s46p11z")  # waits 5p only (kanchan)
    used = [*H0, *H1, *H2, *h3]
    draws = [*filler([*used, 13], 62, avoid=[13]), 13]
    g = game_with([H0, H1, H2, h3], draws=draws)

    def pick(game: Game, seat: int, acts: Sequence[Action]) -> Action | None:
        if game.live_tiles == 16 and seat == 3:
            return next(a for a in acts if a.type == "win")
        return None

    drive(g, pick)
    assert g.record is not None and g.record.winners == (3,) and g.live_tiles == 16
    assert g.record.extra["last_tile"] is True
    assert any("海底捞月" in r.items() for p in g.payments for r in p.reasons)
    # one more draw would have come from the 16-tile reserve: that hand is drawn instead
    g2 = game_with([H0, H1, H2, h3], draws=draws)
    drive(g2, never)
    assert g2.record is not None and g2.record.outcome == "draw" and g2.live_tiles == 16
    assert g2.payments == []


def test_heavenly_ready_declared_and_locked() -> None:
    h1 = tiles("123m456m789m555p11s23s")  # ready on 1s/4s
    used = [*H0, *h1, *H2, *H3]
    draws = [13, *filler([*used, 13], 10, avoid=[18, 21, 13, 0, 5])]  # seat 1 draws 5p first
    g = game_with([H0, h1, H2, H3], draws=draws)
    assert g.phase == "decide" and g.to_act() == [0, 1, 2, 3]  # the window asks everyone
    assert types(g.legal_actions(1)) == {"declare", "pass"}
    assert all(g.legal_actions(s) == (Action("pass", s),) for s in (0, 2, 3))
    g.apply(Action("declare", 1))
    assert g.phase == "decide" and g.extra["declared"][1] is None  # not before all answer
    for seat in (0, 2, 3):
        g.apply(Action("pass", seat))
    assert g.log[-1] == {"type": "revealed", "actions": [Action("declare", 1).to_json()]}
    assert g.phase == "turn" and g.turn == 0 and g.extra["declared"][1] == "heavenly"
    g.apply(Action("discard", 0, 18))  # 1s: seat 1 holds 11s but, locked, may only win
    assert types(g.pending[1]) == {"win", "pass"}
    for seat in g.to_act():
        g.apply(Action("pass", seat))
    assert g.extra["passed"][1] is True  # 过水 since declaring: 天听 will not count
    drive(g, never, until=lambda g: g.phase == "turn" and g.turn == 1)
    acts = g.legal_actions(1)
    # locked: discard the drawn 5p or 暗杠 it (the waits 1s/4s stay the same)
    assert set(acts) == {Action("discard", 1, 13), Action("concealed_kong", 1, 13)}
    with pytest.raises(IllegalActionError, match="locked hand"):
        g.apply(Action("discard", 1, 0))
    g.apply(Action("discard", 1, 13))
    assert g.extra["declared"][1] == "heavenly"


def test_locked_kong_must_keep_the_waits() -> None:
    g = Game(V, seed=1)
    g.extra["declared"][g.dealer] = None
    counts = T.to_counts(tiles("1112m456m789m123p555s1m"))  # waits 2m/3m; after 暗杠 only 2m
    g.hands[g.turn] = counts
    assert not V._kong_keeps_waits(g, g.turn, 0)
    counts = T.to_counts(tiles("555p123m456m789m11s23s5p"))
    g.hands[g.turn] = counts
    assert V._kong_keeps_waits(g, g.turn, 13)


def test_earthly_ready_by_the_dealer_and_human_win() -> None:
    # the dealer's 17 tiles: discarding 7z leaves 123m456m789m123p 5p 11s 23s... ready
    h0 = tiles("123m456m789m123p11s23s7z")  # 16 + 7z = 17
    h0 = tiles("123m456m789m123p11s23s77z")[:17]
    h0 = [*tiles("123m456m789m123p11s23s"), 33, 33][:17]
    assert len(h0) == 17
    h1 = tiles("4s147m258p369s1234z")  # seat 1 will throw 4s at its first discard
    h1 = [21, *H1[:15]]
    used = [*h0, *h1, *H2, *H3]
    draws = filler(used, 8, avoid=[18, 21, 33])
    g = game_with([h0, h1, H2, H3], draws=draws)
    nobody_declares(g)  # nobody else is ready: nobody may declare 天听
    assert g.phase == "turn" and g.turn == 0
    assert Action("declare", 0) in g.legal_actions(0)
    g.apply(Action("declare", 0))
    # the discard must keep the hand ready: only 7z (or 1s/2s/3s breaking... not ready)
    assert {a.tile for a in g.legal_actions(0)} == {18, 33}
    g.apply(Action("discard", 0, 33))
    assert g.extra["declared"][0] == "earthly"
    drive(g, never, until=lambda g: g.phase == "turn" and g.turn == 1)
    g.apply(Action("discard", 1, 21))  # 4s: seat 1's first discard after the declaration
    assert Action("win", 0, 21) in g.legal_actions(0)
    claim(g, Action("win", 0, 21))
    rec = g.record
    assert rec is not None and rec.extra["declaration"] == "earthly"
    assert rec.extra["first_go_round_after_declaration"] is True
    assert rec.extra["discarders_first_discard"] is True  # 地胡 needs a non-dealer winner
    reasons = [r for p in g.payments for r in p.reasons]
    items = [item for r in reasons for item in r.items()]
    assert "人胡" in items and "地胡" not in items
    assert [(p.payer, p.payee) for p in g.payments] == [(1, 0)]


def test_heavenly_win_of_the_dealer() -> None:
    h0 = tiles("123m456m789m123p456p11s")
    g = game_with([h0, H1, H2, H3])
    nobody_declares(g)
    win = Action("win", 0, g.last_tile)
    assert win in g.legal_actions(0)
    g.apply(win)
    assert g.record is not None and g.record.extra["first_draw"] is True
    assert all(any(r.code == "tai" and r.param("item") == "天胡" for r in p.reasons)
               for p in g.payments)
    assert len(g.payments) == 3


def test_earthly_win_on_the_dealers_first_discard() -> None:
    h1 = tiles("123m456m789m123p45p11s")  # waits 3p/6p
    h0 = [*H0[:16], tiles("6p")[0]]
    h0 = [*[t for t in H0 if t != tiles("6p")[0]][:16], tiles("6p")[0]]
    g = game_with([h0, h1, H2, H3])
    assert g.phase == "decide" and types(g.legal_actions(1)) == {"declare", "pass"}
    for seat in g.to_act():  # seat 1 is ready but does not declare 天听
        g.apply(Action("pass", seat))
    g.apply(Action("discard", 0, tiles("6p")[0]))
    assert Action("win", 1, 14) in g.legal_actions(1)
    claim(g, Action("win", 1, 14))
    rec = g.record
    assert rec is not None and rec.extra["discarders_first_discard"] is True
    assert any("地胡" in r.text() for r in g.payments[0].reasons)
    assert [(p.payer, p.payee) for p in g.payments] == [(0, 1)]


def test_eight_immortals_in_play_all_three_pay() -> None:
    h1 = [*H1[:9], 34, 35, 36, 37, 38, 39, 40]  # seven flowers dealt to seat 1
    tail = filler([*H0, *h1, *H2, *H3], 7, avoid=[])
    draws = [41]  # seat 1 draws the eighth
    g = game_with([H0, h1, H2, H3], draws=draws, tail=tail, dealer=0)
    nobody_declares(g)
    g.apply(Action("discard", 0, H0[0]))
    drive(g, never, until=lambda g: g.phase == "turn" and g.turn == 1)
    assert len(g.flowers[1]) == 8
    assert Action("flower_win", 1) in g.legal_actions(1)
    g.apply(Action("flower_win", 1))
    rec = g.record
    assert rec is not None and rec.extra["flower_win"]["kind"] == "eight_immortals"
    pay = {p.payer: p.amount for p in g.payments}
    # 1 底 + 8 台; the dealer (seat 0) adds 作庄 1
    assert pay == {0: 100 + 9 * 20, 2: 100 + 8 * 20, 3: 100 + 8 * 20}
    again = record_from_json(record_to_json(rec, V))
    assert V.settle(again) == g.payments


@pytest.mark.parametrize("dealer", [0, 2])
def test_seven_robs_one_robbed_drawer_pays_alone(dealer: int) -> None:
    hands = [list(H0[:16]), list(H1), list(H2), list(H3)]
    hands[1] = [*H1[:9], 34, 35, 36, 37, 38, 39, 40]  # seat 1 holds seven flowers
    hands[dealer].append(H0[16])
    if dealer == 0:
        hands[0] = list(H0)
    tail = filler([t for h in hands for t in h], 8)
    first = (dealer + 1) % 4
    # seat 2 draws the eighth flower on its first draw
    n_before = (2 - first) % 4
    draws = [*filler([t for h in hands for t in h] + tail, n_before, avoid=range(27, 34)), 41]
    g = game_with(hands, draws=draws, tail=tail, dealer=dealer)
    nobody_declares(g)
    drive(g, never, until=lambda g: g.phase == "decide")
    assert g.to_act() == [0, 1, 2, 3]  # the 七抢一 window asks every seat
    assert set(g.legal_actions(1)) == {Action("rob_flower", 1, 41), Action("pass", 1)}
    assert all(g.legal_actions(s) == (Action("pass", s),) for s in (0, 2, 3))
    g.apply(Action("rob_flower", 1, 41))
    assert g.record is None and g.flowers[2] == [41]  # not before every seat answered
    for seat in (0, 2, 3):
        g.apply(Action("pass", seat))
    rec = g.record
    assert rec is not None and rec.winners == (1,)
    fw = rec.extra["flower_win"]
    assert fw["kind"] == "seven_robs_one" and fw["robbed"] == 2 and fw["robbed_drew_eighth"]
    assert len(g.flowers[1]) == 8 and g.flowers[2] == []
    dealer_tai = 1 if dealer == 2 else 0  # the robbed seat 2 adds 作庄 when it is the dealer
    assert [(p.payer, p.payee, p.amount) for p in g.payments] == [
        (2, 1, 100 + (8 + dealer_tai) * 20)]
    assert state_json(replay(g.log)) == state_json(g)


def test_seven_robs_one_passed_lets_the_drawer_keep_the_flower() -> None:
    hands = [list(H0), [*H1[:9], 34, 35, 36, 37, 38, 39, 40], list(H2), list(H3)]
    tail = filler([t for h in hands for t in h], 8)
    draws = [*filler([t for h in hands for t in h] + tail, 1, avoid=range(27, 34)), 41]
    g = game_with(hands, draws=draws, tail=tail)
    nobody_declares(g)
    drive(g, never, until=lambda g: g.phase == "decide")
    assert types(g.legal_actions(1)) == {"rob_flower", "pass"}
    for seat in g.to_act():
        g.apply(Action("pass", seat))
    assert g.phase == "turn" and g.turn == 2 and g.flowers[2] == [41] and g.sizes[2] == 17


def test_variant_action_types_are_known_only_to_their_variant() -> None:
    # No registration: the built-in variants' types parse before any game exists.
    assert Action.from_json({"type": "declare", "seat": 1}) == Action("declare", 1)
    with pytest.raises(MalformedActionError, match="unknown action type"):
        Action.from_json({"type": "teleport", "seat": 1})
    # ... and a game refuses another variant's type as unknown.
    jz0 = Game("jingzhou", seed=3)
    with pytest.raises(MalformedActionError, match="unknown action type") as info:
        jz0.apply(Action("declare", jz0.turn))
    assert info.value.code == "unknown_type"
    jz = Game("jingzhou", seed=3)
    assert "context" not in jz.log[0] and "extra" not in jz.view(0)
    assert all(a.type in {"discard", "win", "concealed_kong", "special_kong"}
               for a in jz.legal_actions(jz.turn))


def test_hand_record_doc_examples_settle_as_documented() -> None:
    import json
    import re
    from pathlib import Path

    from laizi.settlement import net

    doc = Path(__file__).parents[1] / "docs" / "hand-record.md"
    section = doc.read_text(encoding="utf-8").split("## taiwan section")[1].split("\n## ")[0]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    nets = [net(V.settle(record_from_json(json.loads(b))), 4) for b in blocks]
    assert nets == [[-240, 720, -240, -240], [180, 160, -500, 160], [0, 500, 0, -500]]
