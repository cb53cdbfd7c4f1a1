"""Matches: a session of hands with a running ledger and dealer rotation.

Hand ``k`` (0-based) of a match with seed ``s`` is dealt from seed ``s + k``, so any hand
can be replayed alone (``laizi play jingzhou --seed s+k``). The dealer of the next hand
follows the variant's rule (:meth:`laizi.engine.variant.Variant.next_dealer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from laizi.bots.base import Bot, run_hand
from laizi.engine.game import Game
from laizi.engine.variant import Variant
from laizi.records import HandRecord, record_to_json
from laizi.settlement import Payment, net

__all__ = ["HandResult", "Match"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand of a match."""

    number: int
    seed: int
    dealer: int
    record: HandRecord
    payments: tuple[Payment, ...]
    net: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "seed": self.seed, "dealer": self.dealer,
            "record": record_to_json(self.record),
            "payments": [p.to_json() for p in self.payments], "net": list(self.net),
        }


@dataclass
class Match:
    """A session of hands of one variant at one table."""

    variant: Variant
    options: Any = None
    seed: int = 0
    dealer: int = 0
    ledger: list[int] = field(default_factory=list)
    hands: list[HandResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if isinstance(self.variant, str):
            from laizi.variants import get

            self.variant = get(self.variant)
        if self.options is None:
            self.options = self.variant.default_options()
        if not self.ledger:
            self.ledger = [0] * self.variant.seats
        if not 0 <= self.dealer < self.variant.seats:
            raise ValueError(f"dealer {self.dealer} is not a seat of {self.variant.id}")

    @property
    def next_seed(self) -> int:
        return self.seed + len(self.hands)

    def new_hand(self) -> Game:
        """The next hand, dealt and ready to play (the ledger is shown as scores)."""
        options = self.variant.hand_options(self.options, len(self.hands))
        return Game(self.variant, options, seed=self.next_seed, dealer=self.dealer,
                    scores=self.ledger)

    def finish_hand(self, game: Game) -> HandResult:
        """Book a finished hand: the ledger moves by its net and the deal passes on."""
        if not game.over or game.record is None:
            raise ValueError("the hand is not over yet")
        result = HandResult(len(self.hands), game.seed, game.dealer, game.record,
                            tuple(game.payments), tuple(net(game.payments, game.n)))
        for s, v in enumerate(result.net):
            self.ledger[s] += v
        self.hands.append(result)
        self.dealer = self.variant.next_dealer(game.record)
        return result

    def play_hand(self, bots: Sequence[Bot]) -> HandResult:
        """Play one hand with ``bots[seat]`` at each seat and book it."""
        game = self.new_hand()
        run_hand(game, bots)
        return self.finish_hand(game)

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant.id, "options": self.variant.options_to_json(self.options),
            "seed": self.seed, "dealer": self.dealer, "ledger": list(self.ledger),
            "hands": [h.to_json() for h in self.hands],
        }
