"""PettingZoo AEC environment of the ``golden`` variant: ``env()`` (wrapped) and ``raw_env``;
observation version 1 (planes, the public discard history, mask). See ``docs/env.md``."""

from __future__ import annotations

from typing import Unpack

from pettingzoo import AECEnv

from laizi.env.aec import EnvKwargs, LaiziAEC
from laizi.env.factory import wrap

__all__ = ["env", "raw_env"]


class raw_env(LaiziAEC):
    variant_id = "golden"

    def __init__(self, **kwargs: Unpack[EnvKwargs]) -> None:
        kwargs["variant"], kwargs["version"] = "golden", 1  # the module's own
        super().__init__(**kwargs)


def env(**kwargs: Unpack[EnvKwargs]) -> AECEnv:
    return wrap(raw_env(**kwargs))
