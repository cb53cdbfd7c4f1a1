"""Build the wrapped PettingZoo environment of any variant by id."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Unpack

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from laizi.env.aec import EnvSettings, LaiziAEC

__all__ = ["make", "wrap"]

_VERSIONED = re.compile(r"(?P<variant>.+)_v(?P<version>\d+)")


def wrap(raw: LaiziAEC) -> AECEnv:
    """The standard PettingZoo wrappers (bounds and call-order checks)."""
    from pettingzoo.utils import wrappers

    env = wrappers.AssertOutOfBoundsWrapper(raw)
    return wrappers.OrderEnforcingWrapper(env)


def make(variant: str, **kwargs: Unpack[EnvSettings]) -> AECEnv:
    """``make("taiwan")``: the wrapped AEC environment of that variant, observation
    version 0; ``make("taiwan_v1")`` or ``make("taiwan", version=1)``: version 1."""
    from laizi.env.aec import LaiziAEC
    from laizi.variants import BUILTIN

    m = _VERSIONED.fullmatch(variant)
    if m is not None and variant not in BUILTIN:  # a variant's own id is never split
        version = int(m["version"])
        if kwargs.get("version", version) != version:
            raise ValueError(f"{variant!r} is version {version}, not "
                             f"version={kwargs['version']!r}")
        variant, kwargs["version"] = m["variant"], version
    return wrap(LaiziAEC(variant, **kwargs))
