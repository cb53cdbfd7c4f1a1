"""laizi.table: the table (sessions of hands), its deals, 晃晃 rooms and horses.

``from laizi.table import Table``.
"""

from __future__ import annotations

from laizi.table.table import Table

__all__ = ["Table"]
