"""Gymnasium single-agent wrapper: one seat plays, the other seats are bots.

    from laizi.env.gym_env import SingleSeatEnv
    env = SingleSeatEnv("jingzhou", seat=0, opponents="greedy")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(action)

Observations and actions are those of the AEC environment (``docs/env.md``; ``version=1``
adds the public discard history, ``"history"``). One
episode is one hand, the first of a :class:`~laizi.table.table.Table` in the public seed
mode; the other seats are bots, each behind a :class:`~laizi.table.driver.BotController`.
The reward is the seat's net points at the table times ``reward_scale`` at the end.

The hand is played by the one driver of every table
(:func:`laizi.table.decisions.decisions`): forced passes are played by the driver, the
bots answer theirs, and a decision of the agent's seat with one legal action is played
for it and is not a step: the agent is asked only when it has a choice, which shows
nothing it does not know (its own options). An action outside the mask is replaced
by the first legal action (lowest index) and ``illegal_penalty`` is subtracted;
``info["illegal"]`` says so (the masked agent never needs this; it keeps ``gymnasium``'s
random-action checks meaningful).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from laizi.bots.registry import make_bot
from laizi.engine import Game
from laizi.env.aec import PublicFeed, hand_net, observation_space
from laizi.env.encoding import NUM_ACTIONS, Observation, action_mask, encode_view, legal_by_index
from laizi.env.history import PublicHistory, encode_history
from laizi.sim.hands import bot_seed
from laizi.table.decisions import Decision, decisions, resolve
from laizi.table.driver import BotController
from laizi.table.table import Table
from laizi.variants import get as get_variant

__all__ = ["SingleSeatEnv"]


class SingleSeatEnv(gym.Env):
    metadata: dict[str, object] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(self, variant: str = "jingzhou", seat: int = 0,
                 opponents: str | Sequence[str] = "greedy",
                 options: dict[str, object] | None = None, dealer: int | None = 0,
                 reward_scale: float = 1.0, illegal_penalty: float = 0.0,
                 render_mode: str | None = None, version: int = 0) -> None:
        self.observation_space = observation_space(version)
        self.version = version
        self.variant = get_variant(variant)
        n = self.variant.seats
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not a seat of {variant} (0-{n - 1})")
        self.seat = seat
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"{variant} needs {n - 1} opponents, got {len(specs)}")
        self.opponent_specs = specs
        self.game_options = self.variant.options_from_json(options) if options else None
        self.dealer = dealer
        self.reward_scale = float(reward_scale)
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.table: Table | None = None
        """The episode's table (its log replays the hand: ``Table.from_log``)."""
        self._bots: dict[int, BotController] = {}
        self._feed: PublicFeed | None = None
        self._decisions: Iterator[Decision] = iter(())
        """The hand's driver (:func:`~laizi.table.decisions.decisions`)."""
        self._decision: Decision | None = None
        """The agent's decision (``None`` once the hand is over)."""

    @property
    def game(self) -> Game | None:
        """The hand being played (the table's engine game)."""
        return None if self.table is None else self.table.game

    @property
    def history(self) -> PublicHistory | None:
        """The hand's public discard history so far (what observation version 1 encodes;
        kept in every version), ``None`` before :meth:`reset`."""
        return None if self._feed is None else self._feed.history()

    def _obs(self) -> Observation:
        table = self.table
        assert table is not None
        view = table.view(self.seat)
        if self._decision is None:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        else:
            mask = action_mask(self._decision.legal)
        out: Observation = {"observation": encode_view(view)}
        if self.version >= 1:
            assert self._feed is not None
            out["history"] = encode_history(self._feed.history(), self.seat)
        out["action_mask"] = mask
        return out

    def _advance(self) -> None:
        """Let the bots act until our seat has a choice or the hand is over; our seat's
        decisions with one legal action are played for it."""
        table = self.table
        assert table is not None
        self._decision = None
        for decision in self._decisions:
            if decision.seat == self.seat:
                lone = decision.lone
                if lone is None:
                    self._decision = decision
                    return
                table.act(lone)
                continue
            table.act(resolve(decision, self._bots[decision.seat].decide(decision)))

    def reset(self, *, seed: int | None = None, options: dict[str, object] | None = None
              ) -> tuple[Observation, dict[str, object]]:
        super().reset(seed=seed)
        n = self.variant.seats
        while True:
            table_seed = int(self.np_random.integers(0, 2**31 - 1))
            dealer = self.dealer if self.dealer is not None else int(self.np_random.integers(n))
            others = [s for s in range(n) if s != self.seat]
            self._bots = {s: BotController(make_bot(spec, bot_seed(table_seed, s)))
                          for s, spec in zip(others, self.opponent_specs, strict=True)}
            self.table = Table(self.variant, self.game_options, seed=table_seed,
                               dealer=dealer)
            self.table.start_hand()
            self._feed = PublicFeed(self.table)
            self._decisions = decisions(self.table)
            self._advance()
            if self.table.in_hand:  # a hand won before our first choice is skipped
                break
        return self._obs(), {}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, object]]:
        table, decision = self.table, self._decision
        if table is None or decision is None:
            raise RuntimeError("call reset() before step(): the hand is over")
        legal = legal_by_index(decision.legal)
        info: dict[str, object] = {}
        reward = 0.0
        a = int(action)
        if a not in legal:
            info["illegal"] = True
            reward -= self.illegal_penalty
            a = min(legal)
        table.act(legal[a])
        self._advance()
        terminated = not table.in_hand
        if terminated:
            net = hand_net(table)
            reward += float(net[self.seat]) * self.reward_scale
            info["net"] = net
        return self._obs(), reward, terminated, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        from laizi import tiles as T

        g = self.game
        return (f"{self.variant.id} seat {self.seat}: {T.format(g.concealed(self.seat))} "
                f"phase {g.phase} wall {g.live_tiles}")
