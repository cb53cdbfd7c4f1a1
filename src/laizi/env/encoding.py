"""The fixed action space and observation encoding shared by every variant.

Actions: ``Discrete(308)``, a tile-indexed block per action kind (``t`` = tile id 0-33):

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
=========  ===================================================

Observation: ``float32`` array of shape ``(18, 34)`` in [0, 1], built from the seat's view
only (seats are relative: 0 = me, 1 = next in play order, …; a 3-seat variant leaves seat 3
empty):

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
from typing import Any

import numpy as np

from laizi.bots.knowledge import tile_set_counts, unseen_counts
from laizi.engine.actions import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    KONG,
    PASS,
    PUNG,
    SPECIAL_KONG,
    WIN,
    Action,
)

__all__ = [
    "NUM_ACTIONS",
    "OBS_SHAPE",
    "action_index",
    "action_mask",
    "encode_view",
    "legal_by_index",
]

_BLOCKS = {DISCARD: 0, CONCEALED_KONG: 34, ADDED_KONG: 68, SPECIAL_KONG: 102, PUNG: 136,
           KONG: 170}
_CHOW_BASE = 204
WIN_INDEX = 306
PASS_INDEX = 307
NUM_ACTIONS = 308
OBS_SHAPE = (18, 34)
_MAX_SEATS = 4
_OPEN = frozenset({"chow", "pung", "kong", "added_kong"})


def action_index(action: Action) -> int:
    """The index of an engine action in the fixed action space."""
    kind = action.type
    if kind == WIN:
        return WIN_INDEX
    if kind == PASS:
        return PASS_INDEX
    t = action.tile
    if t is None or not 0 <= t < 34:
        raise ValueError(f"action {action} has no tile 0-33")
    if kind == CHOW:
        pos = list(action.tiles).index(t)
        return _CHOW_BASE + 34 * pos + t
    if kind in _BLOCKS:
        return _BLOCKS[kind] + t
    raise ValueError(f"unknown action type {kind!r}")


def legal_by_index(legal: Sequence[Action]) -> dict[int, Action]:
    """The legal actions keyed by their index (each index names one action)."""
    return {action_index(a): a for a in legal}


def action_mask(legal: Sequence[Action]) -> np.ndarray[Any, np.dtype[np.int8]]:
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for a in legal:
        mask[action_index(a)] = 1
    return mask


def encode_view(view: dict[str, Any]) -> np.ndarray[Any, np.dtype[np.float32]]:
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
    sc[0] = phase == "turn"
    sc[1] = phase == "claim"
    sc[2] = phase == "rob"
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
