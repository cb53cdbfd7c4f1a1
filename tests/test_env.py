"""RL environments: PettingZoo api/seed tests per variant, action encoding, Gymnasium."""

from __future__ import annotations

import importlib
import random

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import laizi.env
from laizi.bots.determinize import sample_world
from laizi.engine import Action, Game
from laizi.env.encoding import (
    NUM_ACTIONS,
    OBS_SHAPE,
    action_index,
    encode_view,
    legal_by_index,
)
from laizi.env.gym_env import SingleSeatEnv
from laizi.variants import BUILTIN, get


def _available() -> list[str]:
    out = []
    for vid in BUILTIN:
        try:
            get(vid)
        except Exception:
            continue
        out.append(vid)
    return out


VARIANTS = _available()


@pytest.mark.filterwarnings("ignore:Observation")  # dict observations with a mask, by design
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_and_seed(variant: str) -> None:
    module = importlib.import_module(f"laizi.env.{variant}_v0")
    api_test(module.env(), num_cycles=40)
    seed_test(module.env, num_cycles=40)
    assert isinstance(module.raw_env(), laizi.env.aec.LaiziAEC)


@pytest.mark.parametrize("variant", VARIANTS)
def test_full_hands_with_masked_random_actions(variant: str) -> None:
    env = laizi.env.make(variant, dealer=None)
    for seed in (1, 2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        total = dict.fromkeys(env.possible_agents, 0.0)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            total[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            assert obs["observation"].shape == OBS_SHAPE
            legal = np.flatnonzero(obs["action_mask"])
            # only the selected agent has a mask; every other agent's is empty
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(legal)))
            steps += 1
        assert steps > 0
        assert sum(total.values()) == 0  # the settlement is zero-sum


def _choose(rng: np.random.Generator, legal: list[int]) -> int:
    """A random agent that draws only when it has a choice."""
    return legal[0] if len(legal) == 1 else int(rng.choice(legal))


@pytest.mark.parametrize("variant", VARIANTS)
def test_forced_passes_are_no_steps_and_change_nothing(variant: str) -> None:
    """The environment never asks for a forced pass (``pass`` the only answer), and plays
    the same hand as a table that asks every seat of every window, nearest first, each
    seat's answers drawn from its own generator: the same log, line for line."""
    from laizi.table.table import Table

    env = laizi.env.make(variant).unwrapped
    for seed in (1, 2):
        env.reset(seed=seed)
        rngs = [np.random.default_rng([seed, s]) for s in range(env.num_agents)]
        while not env.game.over:
            legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
            seat = int(env.agent_selection.split("_")[1])
            assert legal.tolist() != [307]  # never a forced pass
            env.step(_choose(rngs[seat], legal.tolist()))
        table_seed = int(np.random.default_rng(seed).integers(0, 2**31 - 1))
        table = Table(variant, seed=table_seed, dealer=0)
        table.start_hand()
        rngs = [np.random.default_rng([seed, s]) for s in range(env.num_agents)]
        game = table.game
        assert game is not None
        while not game.over:
            seat = sorted(game.to_act(), key=lambda s: (s - game.turn) % game.n)[0]
            legal = legal_by_index(table.legal_actions(seat))
            table.act(legal[_choose(rngs[seat], sorted(legal))])
        assert env.table is not None and table.log == env.table.log


def test_claims_become_sequential_turns_nearest_first() -> None:
    env = laizi.env.make("mcr").unwrapped
    seen_claims = 0
    rng = random.Random(0)
    for seed in range(30):
        env.reset(seed=seed)
        while not env.game.over:
            g = env.game
            if g.phase == "claim":
                order = sorted(g.to_act(), key=lambda s: (s - g.turn) % g.n)
                assert env.agent_selection == f"player_{order[0]}"
                seen_claims += len(order) > 1
            seat = int(env.agent_selection.split("_")[1])
            legal = sorted(legal_by_index(g.legal_actions(seat)))
            env.step(rng.choice(legal))
        if seen_claims >= 3:
            break
    assert seen_claims >= 3


def test_action_indices_round_trip() -> None:
    for variant in VARIANTS:
        g = Game(variant, seed=4)
        rng = random.Random(4)
        while not g.over:
            s = g.to_act()[0]
            legal = g.legal_actions(s)
            by_index = legal_by_index(legal)
            assert len(by_index) == len(legal)  # one index per action
            for i, a in by_index.items():
                assert 0 <= i < NUM_ACTIONS and action_index(a) == i
            g.apply(rng.choice(legal))


def test_encoding_uses_only_the_view() -> None:
    g = Game("jingzhou", seed=6)
    rng = random.Random(6)
    for _ in range(25):
        if g.over:
            break
        s = g.to_act()[0]
        view = g.view(s)
        other = sample_world(view, random.Random(1))  # different hidden tiles
        a = encode_view(view)
        assert a.dtype == np.float32 and a.shape == OBS_SHAPE
        assert a.min() >= 0.0 and a.max() <= 1.0
        assert np.array_equal(a, encode_view(other.view(s)))
        g.apply(rng.choice(g.legal_actions(s)))


def test_illegal_action_is_refused() -> None:
    env = laizi.env.make("jingzhou")
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)


@pytest.mark.parametrize("variant", [v for v in ("jingzhou", "mcr") if v in VARIANTS])
def test_gymnasium_single_seat(variant: str) -> None:
    env = SingleSeatEnv(variant, seat=1, opponents="random")
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=5)
    done = False
    reward = 0.0
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size
        obs, reward, done, _, info = env.step(int(legal[-1]))
    assert "net" in info and reward == info["net"][1]
    # an action outside the mask falls back to the first legal one, and says so
    obs, _ = env.reset(seed=6)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, _, _, _, info = env.step(bad)
    assert info.get("illegal") is True


def _all_actions(seat: int = 0) -> list[Action]:
    """Every action the encoding must distinguish (chows only within a suit)."""
    out = [Action("win", seat), Action("pass", seat)]
    for t in range(34):
        for kind in ("discard", "concealed_kong", "added_kong", "special_kong"):
            out.append(Action(kind, seat, t))
        out.append(Action("pung", seat, t, (t, t, t)))
        out.append(Action("kong", seat, t, (t, t, t, t)))
        if t < 27:
            for lo in (t - 2, t - 1, t):
                if lo >= t - t % 9 and lo + 2 <= t - t % 9 + 8:
                    out.append(Action("chow", seat, t, (lo, lo + 1, lo + 2)))
    return out


def test_action_index_is_injective_over_every_action() -> None:
    actions = _all_actions()
    indices = [action_index(a) for a in actions]
    assert len(set(indices)) == len(actions)
    assert all(0 <= i < NUM_ACTIONS for i in indices)


@given(st.sampled_from(_all_actions()), st.integers(0, 3))
def test_action_index_ignores_the_seat(action: Action, seat: int) -> None:
    moved = Action(action.type, seat, action.tile, action.tiles)
    assert action_index(moved) == action_index(action)
    assert legal_by_index([moved])[action_index(action)] == moved


def _swapped_deal(variant: str, seed: int, seat: int
                  ) -> tuple[list[int], list[int]] | None:
    """The wall of hand 0 of ``Table(variant, seed=seed)`` (dealer 0) and a copy that
    differs only in ``seat``'s concealed tiles: one of its dealt tiles is swapped with a
    tile deep in the live wall (nobody draws it for 40 turns), so that ``seat`` holds a
    pair of the dealer's first discard (its 14th tile) in one deal and not in the other.
    ``None`` if the seed's deal does not allow it."""
    from laizi.table.table import Table

    table = Table(variant, seed=seed)
    table.start_hand()
    game = table.game
    assert game is not None and game.dealer == 0 != seat
    wall = list(game.log[0]["wall"])
    n, size = get(variant).seats, get(variant).hand_size
    first, head = seat * size, n * size + 1
    ordinary = {t for t in range(27) if t != game.wildcard}
    d = wall[n * size]  # the dealer's 14th tile: its first discard
    if d not in ordinary or game.flowers[0] or game.phase == "over":
        return None
    mine = range(first, first + size)
    copies = [i for i in mine if wall[i] == d]
    deep = range(head + 50, len(wall))
    if len(copies) == 2:  # a pair: swap one copy away
        i = copies[0]
        j = next((j for j in deep if wall[j] in ordinary and wall[j] != d), None)
    elif len(copies) == 1:  # a single one: swap another tile for a second copy
        i = next((i for i in mine if wall[i] in ordinary and wall[i] != d), -1)
        j = next((j for j in deep if wall[j] == d), None)
    else:
        return None
    if i < 0 or j is None:
        return None
    other = list(wall)
    other[i], other[j] = other[j], other[i]
    return wall, other


Trace = list[tuple[bytes, ...]]


def _trace(variant: str, wall: list[int], hidden: int, monkeypatch: pytest.MonkeyPatch,
           turns: int = 25, version: int = 0) -> tuple[Trace, list[tuple[int, str]]]:
    """Play the deal ``wall`` with public actions only (every window passed; on a turn the
    drawn tile, or for a seat other than ``hidden`` its lowest legal discard) until
    ``turns`` discards, the end, or a turn of ``hidden`` whose drawn tile it may not
    discard. Returns what the other agents were shown: at each decision of theirs, the
    agent asked and every agent's observation and mask but ``hidden``'s (and in
    observation ``version`` 1 every agent's public history, ``hidden``'s too); and when
    ``hidden`` was asked (how many of the others' decisions came before, the phase)."""
    import laizi.table.deals as deals
    from laizi.env.aec import LaiziAEC

    monkeypatch.setattr(deals, "deal_wall", lambda *a, **k: list(wall))
    env = LaiziAEC(variant, version=version)
    env.reset(seed=3)
    table, game = env.table, env.game
    assert table is not None and game is not None
    trace: Trace = []
    asked: list[tuple[int, str]] = []
    discards = 0
    while discards < turns and not game.over:
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        legal = legal_by_index(table.legal_actions(seat))
        if seat == hidden:
            asked.append((len(trace), str(game.phase)))
        else:
            shown: list[bytes] = [agent.encode()]
            for other in env.possible_agents:
                obs = env.observe(other)
                if version >= 1:  # all public: the same even for the seat whose tiles differ
                    shown.append(obs["history"].tobytes())
                if other != f"player_{hidden}":
                    shown += [obs["observation"].tobytes(), obs["action_mask"].tobytes()]
            trace.append(tuple(shown))
        if game.phase != "turn":
            env.step(next(i for i, a in legal.items() if a.type == "pass"))
            continue
        discard = sorted(i for i, a in legal.items() if a.type == "discard")
        drawn = game.last_tile
        if drawn in discard:
            choice = drawn
        elif seat != hidden and discard:
            choice = discard[0]
        else:
            break
        env.step(choice)
        discards += 1
    return trace, asked


@pytest.mark.parametrize("version", [0, 1])
@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_hide_other_seats_tiles(
        variant: str, version: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two deals that differ only in one seat's concealed tiles — in one it can pung the
    dealer's first discard, in the other not — played with the same public actions, show
    every other agent the same thing: the same decisions of theirs in the same order,
    with the same observations and masks, until something is revealed. In version 1 the
    discard history is the same for every agent, the hidden seat too. Forced passes are
    no steps, so the hidden seat is asked in one deal's first window and not in the
    other's: only the caller who runs every agent sees that."""
    hidden = get(variant).seats - 1
    runs = 0
    for seed in range(200):
        walls = _swapped_deal(variant, seed, hidden)
        if walls is None:
            continue
        (trace_a, asked_a), (trace_b, asked_b) = (
            _trace(variant, wall, hidden, monkeypatch, version=version) for wall in walls)
        assert len(trace_a) >= 4 * get(variant).seats  # several windows were compared
        assert trace_a == trace_b
        assert asked_a != asked_b  # the hidden seat's options differed, so did its steps
        runs += 1
        if runs == 3:
            break
    assert runs == 3
