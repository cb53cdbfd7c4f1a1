"""Ledgers as people are shown them (below both :mod:`laizi.server.records` and
:mod:`laizi.server.storage`, which serve them)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["shown_ledger", "shown_ledgers"]


def shown_ledger(ledger: dict[str, int], played: Iterable[str]) -> dict[str, int]:
    """A ledger as people are shown it (:attr:`laizi.table.table.Table.standing`'s
    rule): without those who have 0 and were never at a hand (``played``: everyone of
    every hand so far, seated or waiting — the people of each ``hand_end`` line's
    ``net``), such as a bot that gave its seat to a person before the first deal. The
    logged and stored lines keep the whole ledger (a log replays byte for byte)."""
    at_hands = set(played)
    return {p: v for p, v in ledger.items() if v or p in at_hands}


def shown_ledgers(ends: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """``hand_end`` lines (in order, from the first hand) with their ``ledger`` as
    :func:`shown_ledger` shows it at that hand; the lines given are not changed."""
    played: set[str] = set()
    out = []
    for end in ends:
        played.update(end.get("net", {}))
        if "ledger" in end:
            end = {**end, "ledger": shown_ledger(end["ledger"], played)}
        out.append(end)
    return out
