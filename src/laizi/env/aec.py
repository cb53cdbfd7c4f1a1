"""The PettingZoo AEC environment of one laizi variant (extra ``rl``).

Agents ``player_0`` … ``player_{n-1}`` are the seats of a :class:`~laizi.table.table.Table`
(public seed mode, one hand per episode). The hand is played by the one driver of every
table, :func:`laizi.table.decisions.decisions`, the terminal's, the simulator's and the
hall's: each agent step answers one of its decisions, in the engine's order (in a claim
or rob window the nearest seat after the discarder first, in a ``decide`` window seat
order). The engine's claim windows are uniform — after every discard every other seat
answers, ``pass`` being the only answer of a seat that cannot claim — but a forced
``pass`` (:attr:`Decision.forced <laizi.table.decisions.Decision.forced>`) is played by
the driver and is no agent step: agents are asked only real decisions. Which agent is
selected therefore shows who has a choice, as it does to the environment's caller; what
an agent observes does not (answers stay hidden until the window closes, and the
observations encode nobody's pending decision).

Observations: version 0 (``jingzhou_v0`` …, the default) is ``{"observation", "action_mask"}``;
version 1 (``jingzhou_v1`` …, ``version=1``) adds ``"history"``, the public discard history
(:mod:`laizi.env.history`), built from the table's public event stream.

Rewards: each seat's net points of the hand (the person's result at the table: the
variant's settlement, 晃晃's 买马 included) times ``reward_scale``, given when the hand
ends; zero before.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar, TypedDict

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from laizi.engine import Game
from laizi.env.encoding import (
    NUM_ACTIONS,
    OBS_SHAPE,
    Observation,
    action_mask,
    encode_view,
    legal_by_index,
)
from laizi.env.history import HISTORY_SHAPE, PublicHistory, encode_history
from laizi.table.decisions import Decision, decisions
from laizi.table.table import Table
from laizi.variants import get as get_variant
from laizi.vocab import TableEventType

__all__ = ["OBS_VERSIONS", "EnvKwargs", "EnvSettings", "LaiziAEC", "PublicFeed", "hand_net",
           "observation_space"]

OBS_VERSIONS = (0, 1)
"""0: planes and mask; 1: also the public discard history (``"history"``)."""


class EnvSettings(TypedDict, total=False):
    """The keyword settings of :class:`LaiziAEC` besides the variant (``make``'s)."""

    options: dict[str, object] | None
    dealer: int | None
    reward_scale: float
    render_mode: str | None
    version: int


class EnvKwargs(EnvSettings, total=False):
    """:class:`LaiziAEC`'s keyword settings, the variant included (a module's ``env()``;
    its own variant and version win)."""

    variant: str | None


def observation_space(version: int) -> spaces.Dict:
    """The observation space of an observation version (the same in every variant)."""
    if version not in OBS_VERSIONS:
        raise ValueError(f"observation version {version!r} is not one of {OBS_VERSIONS}")
    parts: dict[str, spaces.Space[object]] = {
        "observation": spaces.Box(0.0, 1.0, OBS_SHAPE, dtype=np.float32)}
    if version >= 1:
        parts["history"] = spaces.Box(0.0, 1.0, HISTORY_SHAPE, dtype=np.float32)
    parts["action_mask"] = spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)
    return spaces.Dict(parts)


class PublicFeed:
    """A table's public history, kept up to date from its spectator stream: only the
    events added since the last :meth:`history` call are read."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._seen = 0
        self._history = PublicHistory(table.variant.seats)

    def history(self) -> PublicHistory:
        # The spectator's stream (person None) is what the table shows someone who sits
        # nowhere: it holds no concealed tile, so neither can the history.
        events = self.table.events(None, after=self._seen)
        self._seen += len(events)
        self._history.feed(events)
        return self._history


def hand_net(table: Table) -> list[int]:
    """The finished hand's result per seat: what each seated person won or lost at the
    table (the ``hand_end`` line's ``net``; 晃晃's horse bets included)."""
    game = table.game
    assert game is not None and game.over, "the hand is not over"
    end = next(e for e in reversed(table.log) if e["type"] == TableEventType.HAND_END)
    seats = next(e for e in reversed(table.log) if e["type"] == TableEventType.HAND)["seats"]
    return [int(end["net"][p]) for p in seats]


class LaiziAEC(AECEnv):  # type: ignore[misc]
    """One hand per episode. Options: ``variant`` (id), ``options`` (variant options as
    JSON), ``dealer`` (a seat, or ``None`` for a random dealer), ``reward_scale``,
    ``version`` (the observation version, :data:`OBS_VERSIONS`)."""

    metadata: ClassVar[dict[str, object]] = {"render_modes": ["ansi", "human"], "name": "laizi_v0",
                "is_parallelizable": False, "render_fps": 1}
    variant_id = "jingzhou"

    def __init__(self, variant: str | None = None, options: dict[str, object] | None = None,
                 dealer: int | None = 0, reward_scale: float = 1.0,
                 render_mode: str | None = None, version: int = 0) -> None:
        super().__init__()
        obs_space = observation_space(version)
        self.version = version
        vid = variant or self.variant_id
        self.variant = get_variant(vid)
        self.metadata = {**LaiziAEC.metadata,  # type: ignore[misc]
                         "name": f"laizi_{self.variant.id}_v{version}"}
        self.game_options = self.variant.options_from_json(options) if options else None
        n = self.variant.seats
        if dealer is not None and not 0 <= dealer < n:
            raise ValueError(f"dealer {dealer} is not a seat (0-{n - 1})")
        self.dealer = dealer
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agents = list(self.possible_agents)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._np_random = np.random.default_rng()
        self.table: Table | None = None
        """The episode's table (its log replays the hand: ``Table.from_log``)."""
        self._feed: PublicFeed | None = None
        self._decisions: Iterator[Decision] = iter(())
        """The hand's driver (:func:`~laizi.table.decisions.decisions`)."""
        self._decision: Decision | None = None
        """The decision of :attr:`agent_selection` (``None`` once the hand is over)."""

    @property
    def game(self) -> Game | None:
        """The hand being played (the table's engine game)."""
        return None if self.table is None else self.table.game

    @property
    def history(self) -> PublicHistory | None:
        """The hand's public discard history so far (what observation version 1 encodes;
        kept in every version), ``None`` before :meth:`reset`."""
        return None if self._feed is None else self._feed.history()

    def observation_space(self, agent: str) -> spaces.Space[object]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[object]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ helpers

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> Observation:
        table = self.table
        assert table is not None, "call reset() first"
        seat = self._seat(agent)
        view = table.view(seat)
        decision = self._decision
        if decision is not None and decision.seat == seat:
            mask = action_mask(decision.legal)
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        out: Observation = {"observation": encode_view(view)}
        if self.version >= 1:
            assert self._feed is not None
            out["history"] = encode_history(self._feed.history(), seat)
        out["action_mask"] = mask
        return out

    def _next(self) -> None:
        """Select the agent of the hand's next decision (the driver plays the forced
        passes on the way), or end the episode when the hand is over."""
        self._decision = decision = next(self._decisions, None)
        if decision is None:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[decision.seat]

    # ------------------------------------------------------------------ AEC API

    def reset(self, seed: int | None = None, options: dict[str, object] | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        table_seed = int(self._np_random.integers(0, 2**31 - 1))
        n = len(self.possible_agents)
        dealer = self.dealer if self.dealer is not None else int(self._np_random.integers(n))
        self.table = Table(self.variant, self.game_options, seed=table_seed, dealer=dealer)
        self.table.start_hand()
        self._feed = PublicFeed(self.table)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, object]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[dealer]
        # A hand may end before anybody has a choice (e.g. a wall that runs out during the
        # deal's flower draws): then the episode ends at once, the dealer selected.
        self._decisions = decisions(self.table)
        self._next()

    def _finish(self) -> None:
        table = self.table
        assert table is not None and table.game is not None
        net = hand_net(table)
        record = table.game.record
        for i, a in enumerate(self.agents):
            self.rewards[a] = float(net[i]) * self.reward_scale
            self.terminations[a] = True
            self.infos[a] = {"net": net[i], "outcome": record.outcome if record else "draw"}
        self._accumulate_rewards()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table, decision = self.table, self._decision
        assert table is not None and decision is not None
        legal = legal_by_index(decision.legal)
        if action is None or int(action) not in legal:
            raise ValueError(f"action {action} is not legal for {agent} now; legal: "
                             f"{sorted(legal)}")
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        table.act(legal[int(action)])
        self._next()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None or self.game is None:
            return None
        from laizi import tiles as T

        g = self.game
        lines = [f"{self.variant.id}: phase {g.phase}, turn {g.turn}, wall {g.live_tiles}"]
        for s in range(g.n):
            melds = " ".join(T.format(m.tiles) for m in g.melds[s])
            lines.append(f"  seat {s}: {T.format(g.concealed(s))} | {melds} | "
                         f"discards {T.format(g.discards[s])}")
        return "\n".join(lines)

    def close(self) -> None:
        return None
