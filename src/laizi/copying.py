"""Copying and pickling the frozen dataclasses of the compiled modules.

``copy``, ``deepcopy`` and ``pickle`` rebuild an object by default by making a blank one and
setting each field on it; a compiled (mypyc) frozen dataclass refuses that. The classes
registered here are rebuilt from their fields through the constructor instead, in both
builds alike (every field of each is an ``__init__`` argument).
"""

from __future__ import annotations

import copyreg
import dataclasses
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["rebuild_from_fields"]


def rebuild_from_fields(*classes: type) -> None:
    """Register ``classes`` (frozen dataclasses) with :mod:`copyreg`."""
    for cls in classes:
        copyreg.pickle(cls, _fields)


def _fields(obj: DataclassInstance) -> tuple[type, tuple[object, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))
