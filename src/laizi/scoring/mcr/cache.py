"""The calculator's caches keyed by a whole hand, and how to clear them (benchmarks and
tests time or check a hand as if it were new; tables over parts of a hand, whose domain
is bounded, are kept)."""

from __future__ import annotations

from .shapes import basic_waits, readings

__all__ = ["clear_hand_caches"]


def clear_hand_caches() -> None:
    """Forget every answer kept for a whole hand."""
    readings.cache_clear()
    basic_waits.cache_clear()
