"""The JSON the logs, records and views are made of, named once.

A log entry, a record, a view or a variant's section is a JSON object: :data:`JSON`.
Its values are whatever JSON holds; the code that reads one checks each value's type
where it takes it (the typed events and records do: :mod:`laizi.engine.events`,
:mod:`laizi.records`).
"""

from __future__ import annotations

from typing import Any

__all__ = ["JSON"]

JSON = dict[str, Any]
"""One JSON object."""
