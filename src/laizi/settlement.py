"""Payments: the outcome every hand of every variant ends with.

A settlement is a list of payments between *parties* (the seats of the hand; the room
layer of 晃晃 maps seats and horses to people). A hand's payments always sum to zero.
Each payment is itemised by :class:`~laizi.reasons.Reason` values (a code and its
parameters; the Chinese and English texts are made from them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from laizi.core.jsondata import JSON
from laizi.reasons import Lang, Reason, ReasonError

__all__ = ["Payment", "Reason", "net", "payments_json", "read_payment_json"]


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``amount`` (> 0) to ``payee``, for the itemised ``reasons``."""

    payer: int
    payee: int
    amount: int
    reasons: tuple[Reason, ...] = ()

    def texts(self, lang: Lang = "zh") -> list[str]:
        """The reasons for people, one line each."""
        return [r.text(lang) for r in self.reasons]

    def to_json(self) -> JSON:
        """``{"from", "to", "amount", "reasons": [{"code", "params", "zh", "en"}, ...]}``."""
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": self.amount,
            "reasons": [r.to_json() for r in self.reasons],
        }

    @classmethod
    def from_json(cls, data: object) -> Payment:
        """Read :meth:`to_json`'s form strictly (whole numbers, structured reasons)."""
        payer, payee, amount, reasons = read_payment_json(data)
        if not all(isinstance(x, int) for x in (payer, payee)):
            raise ReasonError(f"a payment's from and to are seats (whole numbers): {data!r}")
        return cls(int(payer), int(payee), amount, reasons)


def read_payment_json(data: object) -> tuple[int | str, int | str, int, tuple[Reason, ...]]:
    """The fields of a payment's JSON form, checked: ``from`` / ``to`` (a seat, or a
    person's name), ``amount`` (a whole number) and the reasons."""
    if not isinstance(data, dict):
        raise ReasonError(f"a payment is an object {{\"from\", \"to\", \"amount\", "
                          f"\"reasons\"}}, got {data!r}")
    unknown = sorted(set(data) - {"from", "to", "amount", "reasons"})
    if unknown:
        raise ReasonError(f"unknown payment field(s) {', '.join(map(repr, unknown))}")
    ends = []
    for key in ("from", "to"):
        v = data.get(key)
        if isinstance(v, bool) or not isinstance(v, int | str):
            raise ReasonError(f"payment {key!r} must be a seat or a person, got {v!r}")
        ends.append(v)
    amount = data.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ReasonError(f"payment amount must be a whole number, got {amount!r}")
    raw = data.get("reasons", [])
    if not isinstance(raw, list):
        raise ReasonError(f"payment reasons must be a list, got {raw!r}")
    return ends[0], ends[1], amount, tuple(Reason.from_json(r) for r in raw)


def net(payments: Iterable[Payment], parties: int) -> list[int]:
    """Net result per party (received minus paid); it always sums to zero."""
    out = [0] * parties
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out


def payments_json(payments: Sequence[Payment], parties: int) -> JSON:
    """The ``laizi score --json`` shape: ``{"payments": [...], "net": [...]}``."""
    return {"payments": [p.to_json() for p in payments], "net": net(payments, parties)}
