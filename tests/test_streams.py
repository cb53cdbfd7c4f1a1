"""Per-seat draw streams (分墙, ``Game(..., streams=True)``): duplicate dealing."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator

import pytest

from laizi.engine import Action, Game, dumps, loads, redact, replay, state_json
from laizi.engine.actions import CHOW, DISCARD, PASS, PUNG
from laizi.engine.game import CLAIM, DECIDE
from laizi.variants import BUILTIN

FLOWERLESS = [v for v in BUILTIN if all(t < 34 for t in Game(v, seed=0).wall)]


def _live(g: Game) -> list[int]:
    return sorted(g.wall[g.head:g.tail])


def _stream_tiles(g: Game) -> list[int]:
    assert g.seat_streams is not None
    return sorted(t for st in g.seat_streams for t in st)


def _random_hand(variant: str, seed: int, *, streams: bool) -> Game:
    g = Game(variant, seed=seed, streams=streams)
    rng = random.Random(seed)
    while not g.over:
        s = g.to_act()[0]
        g.apply(rng.choice(g.legal_actions(s)))
        if streams:
            assert _stream_tiles(g) == _live(g)
    return g


@pytest.mark.parametrize("variant", BUILTIN)
def test_hands_with_streams_keep_the_wall_and_replay_byte_for_byte(variant: str) -> None:
    """Random hands (kongs, flowers, indicators, their tail draws included): the streams
    always hold exactly the live wall, the log says so and replays to the same state."""
    for seed in range(6):
        g = _random_hand(variant, seed, streams=True)
        assert g.log[0]["streams"] is True
        again = replay(loads(dumps(g.log)))
        assert state_json(again) == state_json(g)
        assert dumps(again.log) == dumps(g.log)
        assert sum(g.net) == 0
        plain = Game(variant, seed=seed)
        assert "streams" not in plain.log[0] and "seat_streams" not in plain.to_json()


@pytest.mark.parametrize("variant", BUILTIN)
def test_views_with_streams_show_nothing_more(variant: str) -> None:
    """The streams are the wall's order: no view and no redacted event shows them."""
    g = Game(variant, seed=4, streams=True)
    plain = Game(variant, seed=4)
    assert g.seat_streams is not None
    for seat in range(g.n):
        view = g.view(seat)
        assert view.keys() == plain.view(seat).keys()
        text = json.dumps(view)
        assert "stream" not in text
        start = redact(g.log[0], seat)
        assert start is not None and "wall" not in start and "seed" not in start


@pytest.mark.parametrize("variant", BUILTIN)
def test_without_claims_streams_deal_as_the_shared_wall(variant: str) -> None:
    """Until the first claim or tail draw (flower, kong), a hand with streams draws the
    very tiles of the same seed's shared wall: the streams are that wall dealt out in
    turn order."""
    draws = 0
    for seed in range(4):
        a = Game(variant, seed=seed, streams=True)
        b = Game(variant, seed=seed)
        for g in (a, b):  # a decision window at the start (Taiwan's 天听): nobody declares
            while g.phase == DECIDE:
                g.apply(Action(PASS, g.to_act()[0]))
        start_a, start_b = len(a.log), len(b.log)
        while not a.over and a.phase == b.phase == "turn" \
                and a.turn_kind == b.turn_kind and a.turn_kind in ("dealt", "drawn"):
            if _tail_touched(a, start_a) or _tail_touched(b, start_b):
                break  # a flower or kong drew from the tail: the pairing ends there
            assert a.last_tile == b.last_tile and a.turn == b.turn
            legal = a.legal_actions(a.turn)
            throw = Action(DISCARD, a.turn, a.last_tile)
            if throw not in legal or throw not in b.legal_actions(b.turn):
                break
            for g in (a, b):
                g.apply(throw)
                while g.phase == CLAIM:
                    g.apply(Action(PASS, g.to_act()[0]))
            draws += 1
    assert draws >= 8


def _tail_touched(g: Game, start: int) -> bool:
    return any(e["type"] == "flower" or (e["type"] == "draw" and e["replacement"])
               for e in g.log[start:])


def _claim_states(variant: str) -> Iterator[tuple[Game, Action]]:
    """States of hands with streams where a seat may chow or pung, the wall still long."""
    for seed in range(40):
        g = Game(variant, seed=seed, streams=True)
        rng = random.Random(seed)
        while not g.over:
            if g.phase == CLAIM and g.tail - g.head >= 40:
                for s in g.to_act():
                    claims = [a for a in g.legal_actions(s) if a.type in (CHOW, PUNG)]
                    if claims:
                        yield copy.deepcopy(g), claims[0]
                        break
            s = g.to_act()[0]
            g.apply(rng.choice(g.legal_actions(s)))


def _draws_after(g: Game, claim: Action | None, steps: int) -> list[list[int]]:
    """Each seat's ordinary draws after ``claim`` (or everyone's pass) answers the
    discard, over ``steps`` more actions of players that never claim and throw the
    drawn tile (after a claim, their first discard)."""
    start = len(g.log)
    for _ in range(steps + 4):
        if g.over or steps <= 0:
            break
        s = g.to_act()[0]
        if g.phase == CLAIM:
            g.apply(claim if claim is not None and claim.seat == s else Action(PASS, s))
            continue
        claim = None
        legal = [a for a in g.legal_actions(s) if a.type == DISCARD]
        if not legal:
            break
        drawn = Action(DISCARD, s, g.last_tile)
        g.apply(drawn if drawn in legal and g.turn_kind == "drawn" else legal[0])
        steps -= 1
    out: list[list[int]] = [[] for _ in range(g.n)]
    for e in g.log[start:]:
        if e["type"] == "draw" and not e["replacement"]:
            out[e["seat"]].append(e["tile"])
    return out


@pytest.mark.parametrize("variant", FLOWERLESS)
def test_each_seat_draws_its_own_tiles_whatever_the_claims(variant: str) -> None:
    """After a claim (which skips seats) or a pass, every seat draws the same tiles in
    the same order: a claim moves the turn, not the tiles."""
    checked = 0
    for game, claim in _claim_states(variant):
        da = _draws_after(copy.deepcopy(game), claim, 16)
        db = _draws_after(copy.deepcopy(game), None, 16)
        common = [min(len(x), len(y)) for x, y in zip(da, db, strict=True)]
        assert all(x[:k] == y[:k] for x, y, k in zip(da, db, common, strict=True)), (da, db)
        assert sum(common) >= 4
        checked += 1
        if checked >= 6:
            break
    assert checked >= 6


def test_a_shared_wall_hands_the_seats_other_tiles_after_a_claim() -> None:
    """The contrast that makes streams worth having: with one shared wall the same
    claim-or-pass pairs give the seats different tiles."""
    differs = 0
    for game, claim in _claim_states("mcr"):
        shared = copy.deepcopy(game)
        shared.seat_streams = None
        da = _draws_after(copy.deepcopy(shared), claim, 16)
        db = _draws_after(copy.deepcopy(shared), None, 16)
        differs += da != db
        if differs >= 3:
            break
    assert differs >= 3
