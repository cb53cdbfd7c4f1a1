"""Build the wrapped PettingZoo environment of any variant by id."""

from __future__ import annotations

from typing import Any

__all__ = ["make", "wrap"]


def wrap(raw: Any) -> Any:
    """The standard PettingZoo wrappers (bounds and call-order checks)."""
    from pettingzoo.utils import wrappers

    env = wrappers.AssertOutOfBoundsWrapper(raw)
    return wrappers.OrderEnforcingWrapper(env)


def make(variant: str, **kwargs: Any) -> Any:
    """``make("taiwan")``: the wrapped AEC environment of that variant."""
    from laizi.env.aec import LaiziAEC

    return wrap(LaiziAEC(variant, **kwargs))
