"""The calculator's tables, built at once (:func:`prepare_tables`).

The fan calculator builds its tables of suit shapes, group readings and chow
combinations on first use: about 60 ms of CPU, which
the first golden hand scored in a process paid, in the middle of a turn (a 听牌 hint of
57 ms where a warm one costs 0.2 ms). A hall builds them when it starts instead.
"""

from __future__ import annotations

from .combos_fast import _three_chows, _two_chows
from .groups import complete_groups
from .shapes import suit_table

__all__ = ["prepare_tables"]


def prepare_tables() -> None:
    """Build every table the calculator would otherwise build on first use (idempotent:
    each is cached for the life of the process)."""
    for size in (7, 9):  # the honours and a suit
        suit_table(size)
        complete_groups(size)
    _two_chows()
    _three_chows()
