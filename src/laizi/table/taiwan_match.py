"""A Taiwan 将 (match): four 圈 of deals with 连庄, winds and a ledger.

* The dealer keeps the deal (连庄) after winning or after a drawn hand; 连N counts the
  dealer's consecutive continuations (0 on a fresh deal) and is passed to each hand as
  ``Game.context["dealer_streak"]``.
* Otherwise the deal passes to the next seat. A 圈 ends when the deal has gone round all
  four seats (it comes back to the seat that dealt first); four 圈 (东 南 西 北) make a 将.
  The 圈 is the hand's prevalent wind (``Game.context["prevalent_wind"]``); seat winds
  follow the dealer (dealer 东, then 南 西 北 in play order).

Hand ``k`` (0-based) is dealt from seed ``seed + k``, so any hand replays alone from its log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from laizi.engine.game import Game
from laizi.records import HandRecord, record_to_json
from laizi.scoring.taiwan import SEED, TaiwanOptions
from laizi.settlement import Payment, net

__all__ = ["ROUNDS", "TaiwanHandResult", "TaiwanMatch"]

ROUNDS = 4
"""圈 per 将."""
SEATS = 4


@dataclass(frozen=True, slots=True)
class TaiwanHandResult:
    """One finished hand of a 将, with the match facts it was played under."""

    number: int
    seed: int
    dealer: int
    prevalent_wind: int
    dealer_streak: int
    record: HandRecord
    payments: tuple[Payment, ...]
    net: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "seed": self.seed, "dealer": self.dealer,
            "prevalent_wind": self.prevalent_wind, "dealer_streak": self.dealer_streak,
            "record": record_to_json(self.record),
            "payments": [p.to_json() for p in self.payments], "net": list(self.net),
        }


@dataclass
class TaiwanMatch:
    """One 将 at one table: ``first_dealer`` deals the first hand (起庄)."""

    options: TaiwanOptions = SEED
    seed: int = 0
    first_dealer: int = 0
    dealer: int = -1
    prevalent_wind: int = 0
    dealer_streak: int = 0
    passes: int = 0
    """How often the deal has passed to the next seat (4 per 圈)."""
    ledger: list[int] = field(default_factory=lambda: [0] * SEATS)
    hands: list[TaiwanHandResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 0 <= self.first_dealer < SEATS:
            raise ValueError(f"first_dealer {self.first_dealer} is not a seat (0-3)")
        if self.dealer < 0:
            self.dealer = self.first_dealer

    @property
    def over(self) -> bool:
        """The 将 is over after four 圈."""
        return self.prevalent_wind >= ROUNDS

    @property
    def next_seed(self) -> int:
        return self.seed + len(self.hands)

    def context(self) -> dict[str, int]:
        """The next hand's ``Game.context``."""
        return {"prevalent_wind": self.prevalent_wind, "dealer_streak": self.dealer_streak}

    def new_hand(self) -> Game:
        """The next hand, dealt (the ledger is shown as the scores)."""
        if self.over:
            raise ValueError("the 将 is over (four 圈 played)")
        return Game("taiwan", self.options, seed=self.next_seed, dealer=self.dealer,
                    scores=self.ledger, context=self.context())

    def finish_hand(self, game: Game) -> TaiwanHandResult:
        """Book a finished hand: ledger, 连庄 or the deal passing on, the 圈."""
        if not game.over or game.record is None:
            raise ValueError("the hand is not over yet")
        if game.dealer != self.dealer or game.context != self.context():
            raise ValueError("this hand was not dealt by this match (dealer or context differ)")
        record = game.record
        result = TaiwanHandResult(len(self.hands), game.seed, game.dealer, self.prevalent_wind,
                                  self.dealer_streak, record, tuple(game.payments),
                                  tuple(net(game.payments, SEATS)))
        for s, v in enumerate(result.net):
            self.ledger[s] += v
        self.hands.append(result)
        if record.outcome == "draw" or self.dealer in record.winners:
            self.dealer_streak += 1  # 连庄
        else:
            self.dealer_streak = 0
            self.dealer = (self.dealer + 1) % SEATS
            self.passes += 1
            self.prevalent_wind = self.passes // SEATS
        return result

    def play_hand(self, bots: Sequence[Any]) -> TaiwanHandResult:
        """Play the next hand with ``bots[seat]`` (``choose(view, legal_actions)``)."""
        game = self.new_hand()
        while not game.over:
            for seat in game.to_act():
                game.apply(bots[seat].choose(game.view(seat), game.legal_actions(seat)))
        return self.finish_hand(game)

    def play(self, bots: Sequence[Any], *, max_hands: int | None = None) -> None:
        """Play until the 将 is over (or ``max_hands`` more hands were played)."""
        played = 0
        while not self.over and (max_hands is None or played < max_hands):
            self.play_hand(bots)
            played += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "taiwan", "options": self.options.to_json(), "seed": self.seed,
            "first_dealer": self.first_dealer, "dealer": self.dealer,
            "prevalent_wind": self.prevalent_wind, "dealer_streak": self.dealer_streak,
            "passes": self.passes, "ledger": list(self.ledger),
            "hands": [h.to_json() for h in self.hands],
        }
