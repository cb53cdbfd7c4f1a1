"""PettingZoo AEC environment of the ``jingzhou`` variant: ``env()`` (wrapped) and ``raw_env``;
observation version 1 (planes, the public discard history, mask). See ``docs/env.md``."""

from __future__ import annotations

from typing import Any

from laizi.env.aec import LaiziAEC
from laizi.env.factory import wrap

__all__ = ["env", "raw_env"]


class raw_env(LaiziAEC):
    variant_id = "jingzhou"

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("variant", None)
        kwargs.pop("version", None)
        super().__init__("jingzhou", version=1, **kwargs)


def env(**kwargs: Any) -> Any:
    return wrap(raw_env(**kwargs))
