"""Options of Taiwan scoring and payment (台湾十六张 · 台数与赔付).

The defaults are the seed's values (seed 004, items 1-36). :data:`COMMON_TABLE` is the
preset many Taipei tables play where they differ from the seed: 五暗坎 8, 清一色 8,
天胡 24, and 河底撈魚 (winning on the last discard) 1 台.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

__all__ = ["COMMON_TABLE", "PRESETS", "SEED", "TaiwanOptions"]


@dataclass(frozen=True, slots=True)
class TaiwanOptions:
    """How a Taiwan hand is counted and paid.

    * ``base`` (底) and ``tai_value`` (台值): a payment is ``base + 台 × tai_value``
      (defaults 100 and 20 — the seed names no amounts, these are a reading).
    * ``eight_pairs``: item 36 呖咕呖咕 / 八对半 (seven pairs and a pung, concealed, 8 台)
      is a winning shape. Off by default, as the seed marks it 选用.
    * ``last_discard``: 河底撈魚 — winning on the discard of the last drawable tile counts
      1 台 (``tai`` key ``last_discard``). Not in the seed; on in :data:`COMMON_TABLE`.
    * ``flower_replacement_bloom``: a self-drawn win on the replacement for a flower counts
      as 杠上开花 (seed 29 calls the win on the tile replacing the 8th flower 杠上开花).
    * ``tai``: overrides of item values, as ``(key, 台)`` pairs; a key is an item id
      (``"full_flush"``) or ``id.sub`` for an item's secondary value
      (``"flowers.set"`` 花杠, ``"flowers.all"`` 满花). See ``scripts/taiwan_table.py``.
    """

    base: int = 100
    tai_value: int = 20
    eight_pairs: bool = False
    last_discard: bool = False
    flower_replacement_bloom: bool = True
    tai: tuple[tuple[str, int], ...] = ()

    EXTRA_JSON_KEYS: ClassVar[tuple[str, ...]] = ("preset",)
    """Keys :meth:`from_json` reads besides the fields (``--option preset=common``)."""

    def __post_init__(self) -> None:
        if not isinstance(self.base, int) or self.base < 0:
            raise ValueError(f"base (底) must be an int >= 0, not {self.base!r}")
        if not isinstance(self.tai_value, int) or self.tai_value < 0:
            raise ValueError(f"tai_value (台值) must be an int >= 0, not {self.tai_value!r}")
        object.__setattr__(self, "tai", tuple((str(k), int(v)) for k, v in self.tai))
        from laizi.scoring.taiwan.items import value_keys  # the table defines the keys

        known = value_keys()
        for key, _ in self.tai:
            if key not in known:
                raise ValueError(f"unknown 台 key {key!r}; known keys: {', '.join(sorted(known))}")

    @property
    def overrides(self) -> Mapping[str, int]:
        return dict(self.tai)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["tai"] = dict(self.tai)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TaiwanOptions:
        """Read options; a ``preset`` key (``"seed"`` / ``"common"``) sets the starting point."""
        preset = data.get("preset", "seed")
        if not isinstance(preset, str) or preset not in PRESETS:
            raise ValueError(f"unknown Taiwan preset {preset!r}; known: {', '.join(PRESETS)}")
        start = PRESETS[preset]
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known - {"preset"}
        if unknown:
            raise ValueError(f"unknown Taiwan option(s): {', '.join(sorted(unknown))}")
        changes = {k: v for k, v in data.items() if k in known}
        if "tai" in changes:
            merged = dict(start.tai)
            merged.update(dict(changes["tai"]))
            changes["tai"] = tuple(merged.items())
        return replace(start, **changes)


SEED = TaiwanOptions()
"""The seed's values (the default)."""

COMMON_TABLE = TaiwanOptions(
    last_discard=True,
    tai=(("five_concealed_pungs", 8), ("full_flush", 8), ("heavenly_win", 24)),
)
"""Common Taipei-table values where they differ from the seed."""

PRESETS: dict[str, TaiwanOptions] = {"seed": SEED, "common": COMMON_TABLE}
