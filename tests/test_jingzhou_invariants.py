"""Property test: seeded 荆州 games (random agents and the simple bot), checked after every
action. ``LAIZI_INVARIANT_GAMES=2000`` runs more games (the suit default is small)."""

from __future__ import annotations

import os
import random
from collections import Counter

from laizi.bots.simple import SimpleBot
from laizi.engine import Game, replay, state_json
from laizi.variants import get

JZ = get("jingzhou")
TILE_SET = Counter(JZ.tile_set(JZ.default_options()))
VIEW_KEYS = {
    "variant", "options", "seat", "seats", "dealer", "phase", "turn", "hand", "drawn",
    "melds", "discards", "flowers", "hand_sizes", "indicators", "wildcard", "wall",
    "reserve", "scores", "last_discard", "robbing", "passed_win", "to_act", "result",
}
GAMES = int(os.environ.get("LAIZI_INVARIANT_GAMES", "24"))


def all_tiles(g: Game) -> Counter[int]:
    c: Counter[int] = Counter()
    for s in range(g.n):
        c.update(g.concealed(s))
        for m in g.melds[s]:
            c.update(m.tiles)
        c.update(g.discards[s])
        c.update(g.flowers[s])
    c.update(g.indicators)
    c.update(g.wall[g.head:g.tail])
    c.update(g.taken)
    return c


def check(g: Game) -> None:
    assert all_tiles(g) == TILE_SET
    assert g.sizes == [len(g.concealed(s)) for s in range(g.n)]
    for seat in range(g.n):
        v = g.view(seat)
        assert set(v) <= VIEW_KEYS
        assert v["hand"] == g.concealed(seat)
        assert v["hand_sizes"] == g.sizes
        assert isinstance(v["wall"], int)
        for s, ms in enumerate(v["melds"]):
            assert ms == [m.to_json() for m in g.melds[s]]
        if g.phase == "turn" and seat == g.turn:
            assert g.sizes[seat] + 3 * sum(1 for m in g.melds[seat] if len(m.tiles) >= 3) == 14
    if g.over:
        assert g.record is not None
        assert sum(g.net) == 0
        assert all(p.amount > 0 for p in g.payments)


def views_ignore_hidden_tiles(g: Game, rng: random.Random) -> None:
    """Reshuffle the other seats' concealed tiles with the live wall: no view may change."""
    for seat in range(g.n):
        before = g.view(seat)
        others = [o for o in range(g.n) if o != seat]
        saved_hands = [list(g.hands[o]) for o in others]
        saved_wall = g.wall[g.head:g.tail]
        pool = list(saved_wall)
        for o in others:
            pool.extend(g.concealed(o))
        rng.shuffle(pool)
        for o in others:
            take, pool = pool[:g.sizes[o]], pool[g.sizes[o]:]
            g.hands[o] = [0] * len(g.hands[o])
            for t in take:
                g.hands[o][t] += 1
        g.wall[g.head:g.tail] = pool
        try:
            assert g.view(seat) == before
        finally:
            for o, h in zip(others, saved_hands, strict=True):
                g.hands[o] = h
            g.wall[g.head:g.tail] = saved_wall


def play_checked(seed: int, bots: bool) -> Game:
    g = Game(JZ, seed=seed, dealer=seed % 3)
    rng = random.Random(seed)
    simple = SimpleBot()
    snapshots: list[tuple[int, str]] = []
    check(g)
    while not g.over:
        for s in g.to_act():
            acts = g.legal_actions(s)
            a = simple.choose(g.view(s), acts) if bots else acts[rng.randrange(len(acts))]
            g.apply(a)
            check(g)
            if rng.random() < 0.05:
                snapshots.append((len(g.log), state_json(g)))
                views_ignore_hidden_tiles(g, random.Random(seed))
    for length, state in snapshots[:3]:
        assert state_json(replay(g.log[:length])) == state
    assert state_json(replay(g.log)) == state_json(g)
    return g


def test_random_agent_games_keep_every_invariant() -> None:
    outcomes = Counter(play_checked(seed, bots=False).record.outcome  # type: ignore[union-attr]
                       for seed in range(GAMES))
    assert sum(outcomes.values()) == GAMES


def test_simple_bot_games_keep_every_invariant() -> None:
    outcomes = Counter(play_checked(seed, bots=True).record.outcome  # type: ignore[union-attr]
                       for seed in range(GAMES // 3))
    assert outcomes["win"] > 0
