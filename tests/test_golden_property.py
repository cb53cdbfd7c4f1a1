"""Invariants of golden and mcr over many seeded bot games, checked after every event.

* all 144 tiles are accounted for (wall, hands, melds, pools, flowers, indicators, tiles
  taken by a win);
* no seat's view or redacted log holds another seat's concealed tiles;
* every settlement sums to zero with positive amounts, and the engine's hand record,
  written out as JSON and read back by the score-keeper path, settles identically;
* the log replays to the identical state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import is_win
from laizi.bots.simple import SimpleBot
from laizi.core.records import record_to_json
from laizi.engine import Action, Game, dumps, loads, redact, replay, state_json
from laizi.records import record_from_json
from laizi.settlement import net
from laizi.variants import get
from laizi.variants._gb_common import TILE_SET
from laizi.variants._gb_scoring import MCR_RULES
from laizi.variants._gb_variant import ready, wait_mask

PUBLIC_KEYS = {
    "variant", "options", "seat", "seats", "dealer", "phase", "turn", "hand", "drawn",
    "melds", "discards", "flowers", "hand_sizes", "indicators", "wildcard", "wall",
    "reserve", "scores", "last_discard", "robbing", "passed_win", "to_act", "result",
}


def _choose(rng: random.Random, bot: SimpleBot, view: dict[str, Any],
            legal: list[Action]) -> Action:
    """A bot seeing only its view: mostly the shanten-keeping bot, sometimes any legal
    action (so passes on wins, odd claims and kongs happen too)."""
    assert view["to_act"]
    if rng.random() < 0.8:
        return bot.choose(view, legal)
    return legal[rng.randrange(len(legal))]


def _tiles_accounted(g: Game) -> None:
    seen: Counter[int] = Counter(g.wall[g.head:g.tail])
    for s in range(4):
        seen.update(g.concealed(s))
        for m in g.melds[s]:
            seen.update(m.tiles)
        seen.update(g.discards[s])
        seen.update(g.flowers[s])
    seen.update(g.indicators)
    seen.update(g.taken)
    assert seen == Counter(TILE_SET), "tiles lost or duplicated"
    assert sum(g.sizes) == sum(len(g.concealed(s)) for s in range(4))


def _views_hide_hands(g: Game, new_events: list[dict[str, Any]]) -> None:
    for s in range(4):
        view = g.view(s)
        assert set(view) <= PUBLIC_KEYS
        assert view["hand"] == g.concealed(s)
        assert isinstance(view["wall"], int)
        if view["drawn"] is not None:
            assert g.turn == s
        if g.over:
            continue
        for e in new_events:
            r = redact(e, s)
            if r is None:
                continue
            if r["type"] == "deal":
                assert all(set(h) <= {None} for i, h in enumerate(r["hands"]) if i != s)
            if r["type"] == "start":
                assert "seed" not in r and "wall" not in r
            if r["type"] == "draw" and r["seat"] != s:
                assert r["tile"] is None


def _play(vid: str, seed: int) -> Game:
    rng = random.Random(seed)
    # (each variant's own options type: golden's has one field more than mcr's)
    options = get(vid).options_type(minimum=8 if seed % 3 else 0,
                                    priority="dealer" if seed % 2 else "nearest",
                                    prevalent_wind="ESWN"[seed % 4])
    g = Game(vid, options, seed=seed, dealer=seed % 4)
    _tiles_accounted(g)
    _views_hide_hands(g, list(g.log))
    bots = [SimpleBot() for _ in range(4)]
    while not g.over:
        for s in g.to_act():
            before = len(g.log)
            g.apply(_choose(rng, bots[s], g.view(s), g.legal_actions(s)))
            _tiles_accounted(g)
            _views_hide_hands(g, g.log[before:])
    return g


@pytest.mark.parametrize("vid", ["golden", "mcr"])
def test_invariants_over_seeded_bot_games(vid: str) -> None:
    wins = 0
    for seed in range(10):
        g = _play(vid, seed)
        assert g.record is not None
        pays = g.payments
        assert sum(net(pays, 4)) == 0
        assert all(p.amount > 0 and p.payer != p.payee for p in pays)
        if g.record.outcome == "win":
            wins += 1
            assert len(pays) == 3 and {p.payee for p in pays} == set(g.record.winners)
        else:
            assert pays == [] and g.live_tiles == 0
        again = record_from_json(record_to_json(g.record, g.variant))
        assert g.variant.settle(again) == pays
        assert state_json(replay(loads(dumps(g.log)))) == state_json(g)
    assert wins >= 5  # the bots do reach settlements


_POOLS = (
    tuple(range(34)),
    (0, 8, 9, 17, 18, 26, *range(27, 34)),                 # terminals and honours
    (0, 3, 6, 10, 13, 16, 20, 23, 26, *range(27, 34)),     # knitted
)


@st.composite
def _thirteen(draw: st.DrawFn) -> tuple[list[int], int | None]:
    """13 concealed tiles (at most 4 of a kind) and maybe a golden tile. Tiles come
    from a few kinds, so ready hands — 七对, 十三幺 and knitted ones included — are common."""
    golden = draw(st.one_of(st.none(), st.integers(0, 33)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    pool = draw(st.sampled_from([*_POOLS, None]))
    kinds = list(pool) if pool is not None else rng.sample(range(34), rng.randint(4, 8))
    counts = [0] * 34
    while sum(counts) < 13:
        free = [t for t in kinds if counts[t] < 4] or [t for t in range(34) if counts[t] < 4]
        counts[rng.choice(free)] += 1
    return counts, golden


@settings(max_examples=300, deadline=None)
@given(_thirteen())
def test_ready_shortcut_agrees_with_the_win_check(hand: tuple[list[int], int | None]) -> None:
    """``ready`` (the shortcut that lets a discard skip the full win check) is true
    exactly when some tile a real wall can still hold completes the hand."""
    counts, golden = hand
    completes = False
    for t in range(34):
        if counts[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        wilds = 0
        if golden is not None:
            wilds, c[golden] = c[golden], 0
        completes = completes or is_win(c, wilds, MCR_RULES)
    assert ready(counts, golden) == completes


@settings(max_examples=300, deadline=None)
@given(_thirteen())
def test_wait_mask_is_the_win_check_per_tile(hand: tuple[list[int], int | None]) -> None:
    """Plain MCR keeps each hand's waits as a mask (the win-shape check of every discard
    and self-draw reads it): a tile is marked exactly when it completes the hand, and
    the mask is empty exactly when the hand is not ready."""
    counts, _ = hand
    mask = wait_mask(counts)
    assert (mask != b"") == ready(counts, None)
    for t in range(34):
        if counts[t] >= 4:
            continue
        c = list(counts)
        c[t] += 1
        assert bool(mask and mask[t]) == is_win(c, 0, MCR_RULES), t
