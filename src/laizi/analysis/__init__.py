"""Variant-free hand analysis: win, decompositions, waits, shanten (with wildcards).

>>> from laizi.tiles import parse, to_counts
>>> is_win(to_counts(parse("123m456p789s11122z")))
True
>>> waits(to_counts(parse("1112345678999m")))
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from laizi.analysis.compiled_rules import DEFAULT_RULES
from laizi.analysis.core import is_win, shanten
from laizi.analysis.readings import decompositions
from laizi.analysis.types import Decomposition, Group, GroupKind, Shape, WinRules
from laizi.analysis.waiting import waits

__all__ = [
    "DEFAULT_RULES",
    "Decomposition",
    "Group",
    "GroupKind",
    "Shape",
    "WinRules",
    "decompositions",
    "is_win",
    "shanten",
    "waits",
]
