"""Payments: the outcome every hand of every variant ends with.

A settlement is a list of payments between *parties* (the seats of the hand; the room
layer of 晃晃 maps seats and horses to people). A hand's payments always sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Payment", "net", "payments_json"]


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``amount`` (> 0) to ``payee``, for the itemised ``reasons``."""

    payer: int
    payee: int
    amount: int
    reasons: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reasons": list(self.reasons),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Payment:
        return cls(int(data["from"]), int(data["to"]), int(data["amount"]),
                   tuple(str(r) for r in data.get("reasons", ())))


def net(payments: Iterable[Payment], parties: int) -> list[int]:
    """Net result per party (received minus paid); it always sums to zero."""
    out = [0] * parties
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out


def payments_json(payments: Sequence[Payment], parties: int) -> dict[str, Any]:
    """The ``laizi score --json`` shape: ``{"payments": [...], "net": [...]}``."""
    return {"payments": [p.to_json() for p in payments], "net": net(payments, parties)}
