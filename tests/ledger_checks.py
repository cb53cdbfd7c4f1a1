"""The tamper checks a club ledger's tests share (tests/test_club_ledger.py for a club
room's hands, tests/test_club_score.py for a score-keeping session's): any single change
to an exported entry, or a net moved between two players with the whole hash chain
computed again, fails :func:`laizi.club_ledger.check_ledger` against the hands' facts."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from hypothesis import HealthCheck, settings

from laizi.club_ledger import (
    HandFact,
    LedgerEntry,
    check_ledger,
    entry_hash,
    from_csv,
    to_csv,
)

TAMPER_SETTINGS = settings(max_examples=60, deadline=None,
                           suppress_health_check=[HealthCheck.function_scoped_fixture])
"""Hypothesis settings of the tamper tests: their fixtures (a played match, a closed
session) are module-scoped and never changed, so reusing them across examples is safe."""


def changed(value: Any, salt: int) -> Any:
    """A value of the same kind that differs from ``value``."""
    if isinstance(value, bool) or not isinstance(value, int | str | dict):
        raise AssertionError(value)
    if isinstance(value, int):
        return value + 1 + salt
    if isinstance(value, str):
        return value[:-1] + ("0" if value[-1:] != "0" else "1") if value else "x"
    if value:
        key = sorted(value)[salt % len(value)]
        return {**value, key: changed(value[key], salt) if not isinstance(
            value[key], str) else value[key] + "x"}
    return {"x": 1}


def check_single_change_fails(csv: str, facts: Mapping[str, HandFact], which: int,
                              field: str, salt: int) -> None:
    """The exported ledger verifies; with entry ``which``'s ``field`` changed it fails,
    as it is and read back from its CSV (as ``laizi verify-ledger`` reads it)."""
    entries: list[LedgerEntry] = from_csv(csv)
    assert check_ledger(entries, facts).ok
    altered = copy.deepcopy(entries)
    altered[which][field] = changed(altered[which][field], salt)  # type: ignore[literal-required]
    assert altered != entries
    assert not check_ledger(altered, facts).ok
    assert not check_ledger(from_csv(to_csv(altered)), facts).ok


def check_rechained_net_fails(csv: str, facts: Mapping[str, HandFact], which: int,
                              gains: str, pays: str, shift: int) -> None:
    """``shift`` points moved from ``pays`` to ``gains`` in entry ``which``, every hash
    computed again: the chain holds and the sum is zero, and the facts say otherwise."""
    entries: list[LedgerEntry] = from_csv(csv)
    net = entries[which]["net"]
    net[gains] += shift
    net[pays] -= shift
    prev = "0" * 64
    for e in entries:
        e["prev"] = prev
        e["hash"] = prev = entry_hash(e)
    verdict = check_ledger(entries, facts)
    assert not verdict.ok and "net" in str(verdict.problem)
