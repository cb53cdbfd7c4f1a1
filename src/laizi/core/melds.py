"""Melds (副露 and kongs) as immutable JSON-serialisable values."""

from __future__ import annotations

from dataclasses import dataclass

from laizi.copying import rebuild_from_fields
from laizi.core.jsondata import JSON
from laizi.vocab import MeldKind

__all__ = [
    "ADDED_KONG",
    "CHOW",
    "CONCEALED_KONG",
    "KONG",
    "OPEN_KINDS",
    "PUNG",
    "STANDARD_KINDS",
    "Meld",
]

CHOW = MeldKind.CHOW  # 吃
PUNG = MeldKind.PUNG  # 碰
KONG = MeldKind.KONG  # 明杠 on a discard (直杠)
ADDED_KONG = MeldKind.ADDED_KONG  # 补杠 (明杠)
CONCEALED_KONG = MeldKind.CONCEALED_KONG  # 暗杠

OPEN_KINDS = frozenset({CHOW, PUNG, KONG, ADDED_KONG})
"""Melds built on a claimed discard (开口 / 倒铺)."""
STANDARD_KINDS = frozenset({CHOW, PUNG, KONG, ADDED_KONG, CONCEALED_KONG})
"""Melds that count as one of the hand's sets; any other kind is a variant special kong."""


@dataclass(frozen=True, slots=True)
class Meld:
    """A meld in front of a seat.

    ``kind`` is one of the constants above or a variant special-kong kind (e.g. Jingzhou's
    ``red_dragon_kong`` 红中杠, one tile). ``tiles`` are sorted. ``source`` is the seat the
    claimed tile came from and ``claimed`` that tile (``None`` for concealed kongs and
    special kongs).
    """

    kind: str
    tiles: tuple[int, ...]
    source: int | None = None
    claimed: int | None = None

    @property
    def is_open(self) -> bool:
        """Built on a claimed discard: chow, pung, 明杠 or an added kong."""
        return self.kind in OPEN_KINDS

    @property
    def is_kong(self) -> bool:
        return self.kind in (KONG, ADDED_KONG, CONCEALED_KONG)

    def to_json(self) -> JSON:
        out: JSON = {"kind": self.kind, "tiles": list(self.tiles)}
        if self.source is not None:
            out["from"] = self.source
        if self.claimed is not None:
            out["claimed"] = self.claimed
        return out

    @classmethod
    def from_json(cls, data: JSON) -> Meld:
        src = data.get("from")
        claimed = data.get("claimed")
        return cls(
            str(data["kind"]),
            tuple(sorted(int(t) for t in data["tiles"])),
            None if src is None else int(src),
            None if claimed is None else int(claimed),
        )


rebuild_from_fields(Meld)  # copy and pickle, compiled too
