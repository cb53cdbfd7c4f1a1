"""laizi.table: the table (sessions of hands), its deals, 晃晃 rooms and horses.

``from laizi.table import Table`` — loaded lazily, because the variants import
:mod:`laizi.table.horses` and :mod:`laizi.table.room` while the table imports the variants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from laizi.table.table import Table

__all__ = ["Table"]


def __getattr__(name: str) -> Any:
    if name == "Table":
        from laizi.table.table import Table

        return Table
    raise AttributeError(f"module 'laizi.table' has no attribute {name!r}")
