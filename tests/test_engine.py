"""Engine tests on a toy variant (seven pairs only), independent of any real rule set."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from laizi import tiles as T
from laizi.core.records import SELF_DRAW, HandRecord
from laizi.engine import (
    CLAIM,
    OVER,
    TURN,
    Action,
    Game,
    IllegalActionError,
    dumps,
    loads,
    redact,
    replay,
    state_json,
)
from laizi.engine.variant import Variant
from laizi.engine.walls import arrange_wall
from laizi.errors import ErrorCode, MalformedActionError
from laizi.reasons import Reason
from laizi.settlement import Payment
from laizi.variants import register

P = list(range(9, 18))  # 1-9 筒
S = list(range(18, 27))  # 1-9 条


@dataclass(frozen=True)
class ToyOptions:
    multiple_winners: bool = False
    reserve: int = 0


class Toy(Variant):
    """4 seats, 筒 and 条 only; a hand wins as seven pairs. Losers pay 1, a discarder 2."""

    id = "toy"
    name = "toy"
    seats = 4
    options_type = ToyOptions

    def tile_set(self, options: Any) -> list[int]:
        return [t for t in P + S for _ in range(4)]

    def reserve(self, options: Any) -> int:
        return int(options.reserve)

    def multiple_winners(self, options: Any) -> bool:
        return bool(options.multiple_winners)

    def win_refusal(self, game: Game, seat: int, tile: int, how: str) -> str | None:
        counts = game.hands[seat].copy()
        if how != SELF_DRAW:
            counts[tile] += 1
        if sum(counts) == 14 and all(c % 2 == 0 for c in counts):
            return None
        return "not seven pairs"

    def validate_record(self, record: HandRecord) -> None:
        pass

    def settle(self, record: HandRecord) -> list[Payment]:
        out = []
        for w in record.winners:
            for s in range(self.seats):
                if s == w:
                    continue
                amount = 2 if s == record.source else 1
                out.append(Payment(s, w, amount, (Reason.of("note", text="toy"),)))
        return out


TOY = register(Toy())


def random_game(seed: int, variant: str = "toy") -> Game:
    g = Game(variant, seed=seed)
    rng = random.Random(seed)
    while not g.over:
        for s in g.to_act():
            g.apply(rng.choice(g.legal_actions(s)))
    return g


def test_seeded_random_games_end_and_replay_identically() -> None:
    for seed in range(40):
        g = random_game(seed)
        assert g.phase == OVER
        again = replay(loads(dumps(g.log)))
        assert state_json(again) == state_json(g)
        assert sum(g.net) == 0


def test_same_seed_same_game_different_seed_different_wall() -> None:
    assert state_json(random_game(3)) == state_json(random_game(3))
    assert Game("toy", seed=1).wall != Game("toy", seed=2).wall


def test_illegal_action_leaves_state_unchanged() -> None:
    g = Game("toy", seed=5)
    before = state_json(g)
    log_len = len(g.log)
    not_in_hand = next(t for t in P + S if g.hands[0][t] == 0)
    with pytest.raises(IllegalActionError, match="not in seat 0's hand"):
        g.apply(Action("discard", 0, not_in_hand))
    with pytest.raises(IllegalActionError, match="seat 0's turn"):
        g.apply(Action("discard", 1, 9))
    with pytest.raises(IllegalActionError, match="no discard to answer"):
        g.apply(Action("pass", 0))
    assert state_json(g) == before
    assert len(g.log) == log_len


def _deal(hands: dict[int, str], draws: str = "", avoid: str = "", dealer: int = 0) -> list[int]:
    """A wall dealing ``hands`` (MPSZ) to the given seats; the other seats get singletons
    (at most one copy of a kind, never a tile in ``avoid``) so they cannot claim."""
    pool = sorted(TOY.tile_set(TOY.default_options()))
    fixed = {s: T.parse(h) for s, h in hands.items()}
    draw_tiles = T.parse(draws) if draws else []
    for t in [*draw_tiles, *(t for h in fixed.values() for t in h)]:
        pool.remove(t)
    banned = set(T.parse(avoid)) if avoid else set()
    full: list[list[int]] = []
    for s in range(4):
        if s in fixed:
            full.append(fixed[s])
            continue
        size = 13 + (s == dealer)
        kinds = sorted({t for t in pool if t not in banned})
        hand = kinds[:size]
        assert len(hand) == size, "not enough distinct filler tiles"
        for t in hand:
            pool.remove(t)
        full.append(hand)
    return arrange_wall(TOY, full, draw_tiles, dealer=dealer)


def _answer(g: Game, **choices: str) -> None:
    """Every pending seat answers: ``s1="pung"`` etc.; unnamed seats pass."""
    for s in list(g.to_act()):
        want = choices.get(f"s{s}", "pass")
        acts = [a for a in g.legal_actions(s) if a.type == want]
        assert acts, f"seat {s} cannot {want}: {g.legal_actions(s)}"
        g.apply(acts[0])


def test_pung_beats_chow_and_claims_are_simultaneous() -> None:
    wall = _deal({0: "5p 111s 222s 333s 444s 9s", 1: "467p 111p 222p 333p 8p",
                  2: "55p 555s 666s 777s 88s"}, avoid="5p")
    g = Game("toy", wall=wall)
    g.apply(Action("discard", 0, T.parse_tile("5p")))
    assert g.phase == CLAIM
    assert sorted(g.to_act()) == [1, 2, 3]  # every other seat is asked
    assert g.legal_actions(3) == (Action("pass", 3),)  # seat 3 has nothing to claim
    chows = [a for a in g.legal_actions(1) if a.type == "chow"]
    assert {a.tiles for a in chows} == {tuple(T.parse(x)) for x in ("345p", "456p", "567p")}
    assert not any(a.type == "chow" for a in g.legal_actions(2))  # only the next seat
    g.apply(chows[0])
    assert g.phase == CLAIM and g.to_act() == [2, 3]  # nothing resolves before all answer
    assert g.melds[1] == []
    g.apply(Action("pung", 2, 13, (13, 13, 13)))
    assert g.phase == CLAIM and g.to_act() == [3] and g.melds[2] == []
    g.apply(Action("pass", 3))
    assert g.phase == TURN and g.turn == 2
    assert g.melds[2][0].kind == "pung" and g.melds[2][0].source == 0
    assert g.melds[1] == [] and g.discards[0] == []
    assert not any(a.type == "win" for a in g.legal_actions(2))  # no 自摸 after a claim


def test_win_beats_pung() -> None:
    wall = _deal({0: "7s 8888s 9999s 666p 77p", 1: "77s 11p 22p 33p 44p 55p 6p",
                  2: "11s 22s 33s 44s 55s 66s 7s"}, avoid="7s")
    g = Game("toy", wall=wall)
    g.apply(Action("discard", 0, T.parse_tile("7s")))
    assert sorted(g.to_act()) == [1, 2, 3]
    _answer(g, s1="pung", s2="win")
    assert g.over and g.record is not None
    assert g.record.winners == (2,) and g.record.how == "discard" and g.record.source == 0
    assert g.net == [-2, -1, 4, -1]
    assert sum(len(m) for m in g.melds) == 0


def test_nearest_winner_unless_several_may_win() -> None:
    hands = {0: "7s 8888s 9999s 777p 88p", 1: "11p 22p 33p 44p 55p 66p 7s",
             2: "11s 22s 33s 44s 55s 66s 7s"}
    for multiple, winners in ((False, (1,)), (True, (1, 2))):
        g = Game("toy", ToyOptions(multiple_winners=multiple), wall=_deal(hands, avoid="7s"))
        g.apply(Action("discard", 0, T.parse_tile("7s")))
        _answer(g, s1="win", s2="win")
        assert g.record is not None and g.record.winners == winners
        assert sum(g.net) == 0
    # the discarder is seat 1 now: seat 2 is nearest, then 3, then 0
    hands = {1: "7s 8888s 9999s 777p 88p", 0: "11p 22p 33p 44p 55p 66p 7s",
             2: "11s 22s 33s 44s 55s 66s 7s"}
    g = Game("toy", wall=_deal(hands, avoid="7s", dealer=1), dealer=1)
    g.apply(Action("discard", 1, T.parse_tile("7s")))
    _answer(g, s0="win", s2="win")
    assert g.record is not None and g.record.winners == (2,)


def test_passing_a_win_blocks_discard_wins_until_own_draw() -> None:
    wall = _deal({0: "7s 8888s 9999s 777p 88p", 1: "7s 1p 2p 3p 4p 5p 6p 8p 9p 1s 2s 3s 4s",
                  2: "11s 22s 33s 44s 11p 66p 7s"}, draws="9p", avoid="7s")
    g = Game("toy", wall=wall)
    g.apply(Action("discard", 0, T.parse_tile("7s")))
    assert g.to_act() == [1, 2, 3]
    assert [a.type for a in g.legal_actions(2)] == ["win", "pass"]
    assert g.legal_actions(1) == (Action("pass", 1),)
    assert g.legal_actions(3) == (Action("pass", 3),)
    _answer(g)
    assert g.passed_win[2]
    assert not g.passed_win[1] and not g.passed_win[3]  # they had no win to pass
    assert g.phase == TURN and g.turn == 1 and g.last_tile == T.parse_tile("9p")
    g.apply(Action("discard", 1, T.parse_tile("7s")))
    # seat 2 would win on this 7s but passed a win since its last draw: it may only pass
    assert g.phase == CLAIM and g.to_act() == [2, 3, 0]
    assert g.legal_actions(2) == (Action("pass", 2),)
    with pytest.raises(IllegalActionError, match="过水"):
        g.apply(Action("win", 2, T.parse_tile("7s")))
    _answer(g)
    assert g.phase == TURN and g.turn == 2
    assert not g.passed_win[2]  # its own draw ends 过水


def test_exhaustive_draw_at_the_reserve() -> None:
    g = Game("toy", ToyOptions(reserve=14), seed=11)
    rng = random.Random(0)
    while not g.over:
        for s in g.to_act():
            acts = [a for a in g.legal_actions(s) if a.type != "win"]
            g.apply(rng.choice(acts))
    assert g.record is not None and g.record.outcome == "draw"
    assert g.live_tiles == 14
    assert g.payments == [] and g.net == [0, 0, 0, 0]


def test_views_and_redaction_hide_other_hands() -> None:
    g = Game("toy", seed=2)
    for seat in range(4):
        v = g.view(seat)
        assert v["hand"] == g.concealed(seat)
        assert v["hand_sizes"] == [14, 13, 13, 13]
        assert isinstance(v["wall"], int)
        assert "hands" not in v and "seed" not in v
    deal = redact(g.log[1], 1)
    assert deal is not None
    assert deal["hands"][1] == g.log[1]["hands"][1]
    assert all(all(t is None for t in h) for i, h in enumerate(deal["hands"]) if i != 1)
    start = redact(g.log[0], 1)
    assert start is not None and "seed" not in start


def test_actions_round_trip_through_json() -> None:
    for a in (Action("discard", 0, 12), Action("chow", 1, 12, (11, 12, 13)), Action("pass", 2)):
        assert Action.from_json(a.to_json()) == a
    with pytest.raises(MalformedActionError, match="unknown action type") as info:
        Action.from_json({"type": "riichi", "seat": 0})
    assert info.value.code == ErrorCode.UNKNOWN_TYPE
    with pytest.raises(MalformedActionError, match="malformed") as info:
        Action.from_json({"seat": 0})
    assert info.value.code == ErrorCode.MALFORMED


def test_replay_detects_a_tampered_log() -> None:
    from laizi.engine import ReplayError

    g = random_game(4)
    log = loads(dumps(g.log))
    draw = next(i for i, e in enumerate(log) if e["type"] == "draw")
    log[draw]["tile"] = (log[draw]["tile"] + 1) % 27
    with pytest.raises(ReplayError, match=f"event {draw} differs"):
        replay(log)
    with pytest.raises(ReplayError, match="start"):
        replay(log[1:])


def test_claim_errors_name_the_rule() -> None:
    wall = _deal({0: "5p 111s 222s 333s 444s 9s", 1: "467p 111p 222p 333p 8p",
                  2: "55p 555s 666s 777s 88s"}, avoid="5p")
    g = Game("toy", wall=wall)
    g.apply(Action("discard", 0, T.parse_tile("5p")))
    before = state_json(g)
    with pytest.raises(IllegalActionError, match="only for the next seat"):
        g.apply(Action("chow", 2, 13, (12, 13, 14)))
    with pytest.raises(IllegalActionError, match="no decision"):
        g.apply(Action("pass", 0))  # the discarder is not asked about its own discard
    with pytest.raises(IllegalActionError, match="cannot win"):
        g.apply(Action("win", 1, 13))
    with pytest.raises(IllegalActionError, match="cannot pung"):
        g.apply(Action("pung", 3, 13, (13, 13, 13)))  # a pass-only seat
    assert state_json(g) == before
    g.apply(Action("pass", 1))
    with pytest.raises(IllegalActionError, match="already answered"):
        g.apply(Action("pass", 1))
    assert g.to_act() == [2, 3]
    g.apply(Action("pass", 2))
    assert g.phase == CLAIM and g.to_act() == [3]
    g.apply(Action("pass", 3))
    assert g.phase == TURN and g.turn == 1


def test_game_is_a_pure_function_of_its_inputs() -> None:
    a, b = random_game(9), random_game(9)
    assert dumps(a.log) == dumps(b.log)
    assert a.payments == b.payments


def test_answers_to_a_discard_are_secret_until_resolved() -> None:
    wall = _deal({0: "5p 111s 222s 333s 444s 9s", 1: "467p 111p 222p 333p 8p",
                  2: "55p 555s 666s 777s 88s"}, avoid="5p")
    g = Game("toy", wall=wall)
    g.apply(Action("discard", 0, T.parse_tile("5p")))
    g.apply(Action("chow", 1, 13, (12, 13, 14)))
    seen_by_2 = [redact(e, 2) for e in g.log]
    assert not any(e and e["type"] == "action" and e["action"]["seat"] == 1 for e in seen_by_2)
    g.apply(Action("pung", 2, 13, (13, 13, 13)))
    g.apply(Action("pass", 3))  # a pass-only seat's answer is as secret as any other
    for seat in (0, 1, 2):
        seen = [redact(e, seat) for e in g.log]
        assert not any(e and e["type"] == "action" and e["action"]["seat"] == 3 for e in seen)
    seen_by_1 = [redact(e, 1) for e in g.log]
    claims = [e for e in seen_by_1 if e and e["type"] == "claim"]
    assert claims and claims[0]["seat"] == 2  # the resolution is public


def test_a_finished_games_view_is_a_copy_of_its_result() -> None:
    # issue 42: view(seat)["result"] was the game's own log entry, so editing a view
    # rewrote the log.
    g = random_game(11)
    before = dumps(g.log)
    for seat in range(g.n):
        view = g.view(seat)
        result = view["result"]
        assert result == g.log[-1] and result is not g.log[-1]
        result["record"]["winners"] = [9]
        result["payments"].append({"x": 1})
        result["net"][0] = 10**9
        result["type"] = "edited"
    assert dumps(g.log) == before
    again = replay(loads(before))
    assert dumps(again.log) == before and state_json(again) == state_json(g)
