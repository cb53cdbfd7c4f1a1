"""Reinforcement-learning environments (extra ``rl``: gymnasium, pettingzoo, numpy).

* ``laizi.env.make("jingzhou")`` or ``laizi.env.jingzhou_v0.env()`` — PettingZoo AEC
  environment of a variant (also ``huanghuang_v0``, ``golden_v0``, ``mcr_v0``,
  ``taiwan_v0``); ``laizi.env.make("jingzhou_v1")`` or ``laizi.env.jingzhou_v1.env()``
  (every variant) — the same with observation version 1, which adds the public discard
  history.
* ``laizi.env.gym_env.SingleSeatEnv`` — Gymnasium: one seat against bots.

See ``docs/env.md`` for the action space and the observation encoding.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from laizi.env.aec import EnvSettings

__all__ = ["make"]


def make(variant: str, **kwargs: Unpack[EnvSettings]) -> AECEnv:
    """The wrapped PettingZoo AEC environment of ``variant``."""
    from laizi.env.factory import make as _make

    return _make(variant, **kwargs)
