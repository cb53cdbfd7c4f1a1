"""Observation version 1: the public discard history (issue 24, item 15)."""

from __future__ import annotations

import importlib
from collections import Counter
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import laizi.env
from laizi.env.aec import LaiziAEC, observation_space
from laizi.env.gym_env import SingleSeatEnv
from laizi.env.history import (
    HISTORY_SHAPE,
    MAX_DISCARDS,
    PublicHistory,
    encode_history,
)
from laizi.variants import BUILTIN


def _random_hand(env: LaiziAEC, seed: int) -> list[dict[str, np.ndarray[Any, Any]]]:
    """Play one hand with masked random agents; the observations of the agents to act."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    table = env.table
    assert table is not None
    seen = []
    while table.in_hand:
        obs = env.observe(env.agent_selection)
        seen.append(obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.filterwarnings("ignore:Observation")  # dict observations with a mask, by design
@pytest.mark.parametrize("variant", BUILTIN)
def test_v1_modules_pass_the_pettingzoo_tests(variant: str) -> None:
    module = importlib.import_module(f"laizi.env.{variant}_v1")
    api_test(module.env(), num_cycles=20)
    seed_test(module.env, num_cycles=20)
    raw = module.raw_env(version=0)  # the module's version wins
    assert raw.version == 1 and raw.metadata["name"] == f"laizi_{variant}_v1"
    v0 = importlib.import_module(f"laizi.env.{variant}_v0").raw_env()
    assert v0.version == 0 and "history" not in v0.observation_space("player_0").spaces


def test_make_by_versioned_name() -> None:
    env = laizi.env.make("taiwan_v1")
    assert env.unwrapped.version == 1
    assert laizi.env.make("taiwan", version=1).unwrapped.version == 1
    assert laizi.env.make("taiwan").unwrapped.version == 0
    with pytest.raises(ValueError, match="version 1"):
        laizi.env.make("taiwan_v1", version=0)
    with pytest.raises(ValueError, match="observation version"):
        laizi.env.make("taiwan", version=2)


@pytest.mark.parametrize("variant", BUILTIN)
def test_shapes_dtypes_and_space(variant: str) -> None:
    env = LaiziAEC(variant, version=1, dealer=None)
    space = observation_space(1)
    assert set(space.spaces) == {"observation", "history", "action_mask"}
    assert space["history"].shape == HISTORY_SHAPE == (4, MAX_DISCARDS, 48)
    observations = _random_hand(env, 7)
    for obs in observations:
        h = obs["history"]
        assert h.dtype == np.float32 and h.shape == HISTORY_SHAPE
        assert space.contains(obs)
    assert observations[-1]["history"][:, :, 34].sum() > 0  # discards were recorded


def _seat_pairs(melds: list[list[dict[str, Any]]]) -> Counter[tuple[int, int, int, str]]:
    """(claimer, discarder, tile, meld kind) of every meld made from a discard."""
    out: Counter[tuple[int, int, int, str]] = Counter()
    for s, ms in enumerate(melds):
        for m in ms:
            if m.get("from") is not None:
                kind = "pung" if m["kind"] == "added_kong" else m["kind"]
                out[s, int(m["from"]), int(m["claimed"]), kind] += 1
    return out


@pytest.mark.parametrize("variant", BUILTIN)
def test_history_agrees_with_the_engine(variant: str) -> None:
    """At every step of random hands: each seat's unclaimed discards are its pool in the
    engine's view, in order; every meld made from a discard is a claim in the history
    (who, from whom, which tile, what kind); each seat's features are seat 0's with the
    seats turned; and the history from the full engine log (every hidden tile in it) is
    the same as the one from the public stream: nothing concealed is read."""
    env = LaiziAEC(variant, version=1)
    for seed in (11, 12):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        table = env.table
        assert table is not None and table.game is not None
        n = table.variant.seats
        claims = 0
        while True:
            h = env.history
            assert h is not None
            view = table.view(0)
            for s in range(n):
                pool = [d.tile for d in h.discards[s] if not d.claims]  # a win takes it too
                assert pool == view["discards"][s], (seed, s)
            made = Counter((c.seat, s, d.tile, c.kind) for s in range(n)
                           for d in h.discards[s] for c in d.claims if c.kind != "win")
            assert made == _seat_pairs(view["melds"])
            claims = sum(made.values())
            full = PublicHistory(n)
            full.feed(table.game.log)
            for seat in range(n):
                mine = encode_history(h, seat)
                assert np.array_equal(mine, encode_history(full, seat))
                # seat 0's features with the seats turned: the rows and the claimers
                rolled = np.zeros_like(mine)
                rolled[:n] = np.roll(encode_history(h, 0)[:n], -seat, axis=0)
                rolled[:n, :, 36:36 + n] = np.roll(rolled[:n, :, 36:36 + n], -seat, axis=2)
                assert np.array_equal(mine, rolled)
            if not table.in_hand:
                break
            agent = env.agent_selection
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
        assert claims > 0 or variant == "jingzhou"
        record = table.game.record
        if record is not None and record.how == "discard":  # the winning discard is marked
            last = h.discards[record.source][-1]  # type: ignore[index]
            assert {c.seat for c in last.claims if c.kind == "win"} == set(record.winners)


def test_history_encodes_a_known_sequence() -> None:
    """A hand-made public sequence, with hidden and secret events mixed in that must be
    ignored: draws, the deal and an answer that lost."""
    events: list[dict[str, Any]] = [
        {"type": "start", "variant": "mcr"},
        {"type": "deal", "hands": [[1, 2], [3, 4], [5, 6], [7, 8]]},
        {"type": "draw", "seat": 0, "tile": 9},
        {"type": "action", "action": {"type": "discard", "seat": 0, "tile": 2}},  # 3m
        {"type": "action", "answer": True, "action": {"type": "pass", "seat": 2}},
        {"type": "claim", "seat": 1,
         "meld": {"kind": "chow", "tiles": [1, 2, 3], "from": 0, "claimed": 2}},
        {"type": "action", "action": {"type": "discard", "seat": 1, "tile": 27}},  # 东
        {"type": "action", "answer": True,
         "action": {"type": "chow", "seat": 2, "tile": 27, "tiles": [26, 27, 28]}},
        {"type": "claim", "seat": 3,
         "meld": {"kind": "pung", "tiles": [27, 27, 27], "from": 1, "claimed": 27}},
        {"type": "action", "action": {"type": "discard", "seat": 3, "tile": 33}},  # 中
        {"type": "claim", "seat": 0,
         "meld": {"kind": "kong", "tiles": [33, 33, 33, 33], "from": 3, "claimed": 33}},
        {"type": "draw", "seat": 0, "tile": None},
        {"type": "action", "action": {"type": "discard", "seat": 0, "tile": 8}},
        {"type": "draw", "seat": 1, "tile": 10},
        {"type": "action", "action": {"type": "declare", "seat": 1}},
        {"type": "action", "action": {"type": "discard", "seat": 1, "tile": 20}},
        {"type": "draw", "seat": 2, "tile": None},
        {"type": "action", "action": {"type": "discard", "seat": 2, "tile": 5}},
        {"type": "end", "record": {"how": "discard", "from": 2, "winners": [0, 3],
                                   "seats": [{"concealed": "123m"}]}},
    ]
    h = PublicHistory(4)
    h.feed(events)
    assert [[d.tile for d in ds] for ds in h.discards] == [[2, 8], [27, 20], [5], [33]]
    x = encode_history(h, 1)  # as seat 1 sees it: seat 1 is row 0, seat 0 row 3
    assert x.dtype == np.float32 and x.shape == HISTORY_SHAPE

    def row(rel: int, k: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(x[rel, k][:47])]

    assert row(3, 0) == [2, 34, 35, 36 + 0, 41]  # 3m, claimed by me (seat 1): chow, middle
    assert x[3, 0, 47] == 0.0
    assert row(0, 0) == [27, 34, 35, 36 + 2, 43]  # my 东, punged by seat 3 (2 after me)
    assert x[0, 0, 47] == pytest.approx(1 / 128)
    assert row(2, 0) == [33, 34, 35, 36 + 3, 44]  # seat 3's 中, konged by seat 0
    assert row(3, 1) == [8, 34]  # not claimed
    assert row(0, 1) == [20, 34, 46]  # after my 地听 declaration
    assert row(1, 0) == [5, 34, 35, 36 + 2, 36 + 3, 45]  # won on by seats 3 and 0
    assert x[1, 0, 47] == pytest.approx(5 / 128)
    assert not x[:, 2:].any() and not x[1, 1:].any() and not x[2, 1:].any()
    # a new hand starts empty
    h.feed([{"type": "start"}])
    assert not encode_history(h, 0).any()


def test_a_claim_of_another_tile_is_refused() -> None:
    h = PublicHistory(4)
    h.feed([{"type": "action", "action": {"type": "discard", "seat": 0, "tile": 4}}])
    with pytest.raises(ValueError, match="last discard"):
        h.feed([{"type": "claim", "seat": 1,
                 "meld": {"kind": "pung", "tiles": [5, 5, 5], "from": 0, "claimed": 5}}])


def test_history_keeps_the_latest_discards() -> None:
    h = PublicHistory(3)
    h.feed({"type": "action", "action": {"type": "discard", "seat": 2, "tile": k % 27}}
           for k in range(MAX_DISCARDS + 5))
    x = encode_history(h, 0)
    assert x[2, :, 34].all() and not x[3].any()  # a 3-seat variant leaves row 3 empty
    assert int(np.flatnonzero(x[2, 0, :34])[0]) == 5  # the five oldest fell off
    assert x[2, -1, 47] == pytest.approx((MAX_DISCARDS + 4) / 128)


def test_single_seat_env_version_1() -> None:
    env = SingleSeatEnv("taiwan", seat=2, opponents="random", version=1)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    assert obs["history"].shape == HISTORY_SHAPE
    assert env.observation_space.contains(obs)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert env.observation_space.contains(obs)
    assert env.history is not None
    assert np.array_equal(obs["history"], encode_history(env.history, 2))
