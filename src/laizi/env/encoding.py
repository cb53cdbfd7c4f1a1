"""The fixed action space and observation encoding shared by every variant.

Actions: ``Discrete(318)``, a tile-indexed block per action kind (``t`` = tile id 0-33,
``f`` = flower id 34-41). Every action kind of every built-in variant — the engine's
:data:`~laizi.engine.actions.TYPES` and each variant's own
(:data:`~laizi.engine.actions.VARIANT_TYPES`) — has its block:

=========  ===================================================
index      action
=========  ===================================================
0-33       ``discard`` t
34-67      ``concealed_kong`` t
68-101     ``added_kong`` t
102-135    ``special_kong`` t (Jingzhou 红中杠 / 赖子杠)
136-169    ``pung`` of the discard t
170-203    ``kong`` on the discard t (明杠)
204-237    ``chow`` of the discard t as the lowest tile (t, t+1, t+2)
238-271    ``chow`` with t in the middle (t-1, t, t+1)
272-305    ``chow`` with t as the highest tile (t-2, t-1, t)
306        ``win`` (自摸, on the discard, or 抢杠)
307        ``pass``
308        ``declare`` (Taiwan 天听 / 地听)
309        ``flower_win`` (Taiwan 八仙过海)
310-317    ``rob_flower`` f (Taiwan 七抢一: the flower robbed, f - 34)
=========  ===================================================

Indices 0-307 are those of the first release (``Discrete(308)``); the Taiwan actions were
appended so that no earlier index moved. :func:`action_index` maps a legal action to its
index, :func:`decode_action` an index back to the action (the winning tile of ``win``,
the only field an index does not carry, is the view's tile in play).

Observation (``obs["observation"]`` in every observation version; version 1 adds the
public discard history, :mod:`laizi.env.history`): ``float32`` array of shape ``(18, 34)``
in [0, 1], built from the seat's view only (seats are relative: 0 = me, 1 = next in play
order, …; a 3-seat variant leaves seat 3 empty):

* planes 0-3: my concealed tiles, ``count >= 1`` … ``count >= 4``
* plane 4: the tile I just drew (one-hot)
* planes 5-8: meld tiles of relative seats 0-3 (count / 4)
* planes 9-12: discard pools of relative seats 0-3 (count / 4)
* plane 13: the wildcard (赖子 / 黄金牌), one-hot
* plane 14: indicator tiles (count / 4)
* plane 15: the tile under decision (the discard to claim, the kong to rob), one-hot
* plane 16: unseen copies of each tile (count / 4)
* plane 17: scalars in the first columns: [0] turn phase, [1] claim phase, [2] rob phase,
  [3] live wall / wall size, [4-7] the discarder (relative, one-hot), [8-11] seats that
  have opened (开口), [12-15] concealed-tile counts / 17, [16-19] flowers / 8,
  [20] my 过水 flag, [21-24] the dealer (relative, one-hot)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from laizi.bots.base import View
from laizi.bots.knowledge import tile_set_counts, unseen_counts
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DECLARE,
    DISCARD,
    FLOWER_WIN,
    KONG,
    PASS,
    PUNG,
    ROB_FLOWER,
    SPECIAL_KONG,
    WIN,
    Action,
)
from laizi.tiles import NUM_FLOWERS, NUM_KINDS
from laizi.vocab import MeldKind, Phase

__all__ = [
    "ACTION_KINDS",
    "DECLARE_INDEX",
    "FLOWER_WIN_INDEX",
    "NUM_ACTIONS",
    "OBS_SHAPE",
    "PASS_INDEX",
    "ROB_FLOWER_BASE",
    "WIN_INDEX",
    "Observation",
    "action_index",
    "action_kind",
    "action_mask",
    "decode_action",
    "encode_view",
    "legal_by_index",
    "win_tile",
]

Observation = dict[str, npt.NDArray[np.float32] | npt.NDArray[np.int8]]
"""An observation: ``"observation"`` (:func:`encode_view`), ``"history"`` (version 1) and
``"action_mask"`` (:func:`action_mask`)."""

_BLOCKS: dict[str, int] = {DISCARD: 0, CONCEALED_KONG: 34, ADDED_KONG: 68, SPECIAL_KONG: 102,
                           PUNG: 136, KONG: 170}
_CHOW_BASE = 204
WIN_INDEX = 306
PASS_INDEX = 307
DECLARE_INDEX = 308
FLOWER_WIN_INDEX = 309
ROB_FLOWER_BASE = 310
NUM_ACTIONS = ROB_FLOWER_BASE + NUM_FLOWERS
OBS_SHAPE = (18, 34)
_MAX_SEATS = 4
_OPEN = frozenset({MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG})
_NO_TILE: dict[str, int] = {WIN: WIN_INDEX, PASS: PASS_INDEX, DECLARE: DECLARE_INDEX,
            FLOWER_WIN: FLOWER_WIN_INDEX}
"""Kinds with one index each (a seat never has two of them with different tiles)."""

ACTION_KINDS: frozenset[str] = frozenset(_BLOCKS) | {CHOW, ROB_FLOWER} | frozenset(_NO_TILE)
"""Every action kind the space encodes: all of :data:`~laizi.engine.actions.KNOWN_TYPES`
(tests/test_env_actions.py holds the two equal, so a new action type of the engine or a
variant cannot go unencoded)."""


def action_index(action: Action) -> int:
    """The index of an engine action in the fixed action space."""
    kind = action.type
    if kind in _NO_TILE:
        return _NO_TILE[kind]
    t = action.tile
    if kind == ROB_FLOWER:
        if t is None or not NUM_KINDS <= t < NUM_KINDS + NUM_FLOWERS:
            raise ValueError(f"action {action} has no flower {NUM_KINDS}-"
                             f"{NUM_KINDS + NUM_FLOWERS - 1}")
        return ROB_FLOWER_BASE + t - NUM_KINDS
    if t is None or not 0 <= t < NUM_KINDS:
        raise ValueError(f"action {action} has no tile 0-33")
    if kind == CHOW:
        pos = list(action.tiles).index(t)
        return _CHOW_BASE + 34 * pos + t
    if kind in _BLOCKS:
        return _BLOCKS[kind] + t
    raise ValueError(f"unknown action type {kind!r}")


def action_kind(index: int) -> str:
    """The action kind (engine action type) of an index."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action index {index} is not in 0-{NUM_ACTIONS - 1}")
    if index >= ROB_FLOWER_BASE:
        return ROB_FLOWER
    for kind, i in _NO_TILE.items():
        if index == i:
            return kind
    if index >= _CHOW_BASE:
        return CHOW
    return next(k for k, base in _BLOCKS.items() if base <= index < base + 34)


def decode_action(index: int, seat: int, win_tile: int | None = None) -> Action:
    """The action of ``seat`` that has ``index`` (the inverse of :func:`action_index`).

    An index carries every field of the action but the winning tile of ``win``: give it
    as ``win_tile`` (:func:`win_tile` of the seat's view: the tile drawn, discarded or
    added to a kong). A chow index that runs off its suit raises ``ValueError``."""
    kind = action_kind(index)
    if kind == WIN:
        return Action(WIN, seat, win_tile)
    if kind in _NO_TILE:
        return Action(kind, seat)
    if kind == ROB_FLOWER:
        return Action(ROB_FLOWER, seat, NUM_KINDS + index - ROB_FLOWER_BASE)
    if kind == CHOW:
        pos, t = divmod(index - _CHOW_BASE, 34)
        lo = t - pos
        if t >= 27 or lo < t - t % 9 or lo + 2 > t - t % 9 + 8:
            raise ValueError(f"action index {index}: no chow of tile {t} at position {pos}")
        return Action(CHOW, seat, t, (lo, lo + 1, lo + 2))
    t = index - _BLOCKS[kind]
    if kind == PUNG:
        return Action(PUNG, seat, t, (t, t, t))
    if kind == KONG:
        return Action(KONG, seat, t, (t, t, t, t))
    return Action(kind, seat, t)


def win_tile(view: View) -> int | None:
    """The tile a ``win`` of the viewing seat would be on now: the discard to claim, the
    kong tile to rob, or the tile it just drew (the engine's ``last_tile`` in each case)."""
    target = view.get("last_discard") or view.get("robbing")
    if target is not None:
        return int(target["tile"])
    drawn = view.get("drawn")
    return None if drawn is None else int(drawn)


def legal_by_index(legal: Sequence[Action]) -> dict[int, Action]:
    """The legal actions keyed by their index (each index names one action)."""
    return {action_index(a): a for a in legal}


def action_mask(legal: Sequence[Action]) -> npt.NDArray[np.int8]:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in legal:
        mask[action_index(a)] = 1
    return mask


def encode_view(view: View) -> npt.NDArray[np.float32]:
    """The fixed-shape observation of a seat's view (see the module docstring)."""
    obs = np.zeros(OBS_SHAPE, dtype=np.float32)
    me = int(view["seat"])
    n = int(view["seats"])
    counts = [0] * 34
    for t in view["hand"]:
        counts[t] += 1
    for t, c in enumerate(counts):
        for k in range(min(c, 4)):
            obs[k, t] = 1.0
    if view.get("drawn") is not None:
        obs[4, view["drawn"]] = 1.0
    for s in range(n):
        r = (s - me) % n
        if r >= _MAX_SEATS:
            continue
        for m in view["melds"][s]:
            for t in m["tiles"]:
                if t < 34:
                    obs[5 + r, t] += 0.25
        for t in view["discards"][s]:
            obs[9 + r, t] += 0.25
    if view.get("wildcard") is not None:
        obs[13, view["wildcard"]] = 1.0
    for t in view["indicators"]:
        if t < 34:
            obs[14, t] += 0.25
    target = view.get("last_discard") or view.get("robbing")
    if target is not None:
        obs[15, target["tile"]] = 1.0
    unseen = unseen_counts(view)
    for t in range(34):
        obs[16, t] = min(1.0, unseen[t] / 4.0)
    sc = obs[17]
    phase = view["phase"]
    sc[0] = phase == Phase.TURN
    sc[1] = phase == Phase.CLAIM
    sc[2] = phase == Phase.ROB
    sc[3] = min(1.0, view["wall"] / max(1, sum(tile_set_counts(view))))
    if target is not None:
        sc[4 + (int(target["seat"]) - me) % n] = 1.0
    for s in range(n):
        r = (s - me) % n
        if r >= _MAX_SEATS:
            continue
        sc[8 + r] = any(m["kind"] in _OPEN for m in view["melds"][s])
        sc[12 + r] = min(1.0, view["hand_sizes"][s] / 17.0)
        sc[16 + r] = min(1.0, len(view["flowers"][s]) / 8.0)
    sc[20] = bool(view.get("passed_win"))
    sc[21 + (int(view["dealer"]) - me) % n] = 1.0
    np.clip(obs, 0.0, 1.0, out=obs)
    return obs
