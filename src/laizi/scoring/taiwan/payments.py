"""Taiwan payments (赔付): pure functions from a :class:`TaiResult` to ``Payment``s.

A payment is ``底 + 台 × 台值``. On a discard the discarder pays alone (一人付); on a
self-draw all three pay; on a robbed kong (抢杠) the robbed player pays as discarder. The
dealer items (作庄 1, 连N拉N 2N) count only between the dealer and another player: when
the dealer wins every payer adds them, when another player wins only the dealer adds them.
"""

from __future__ import annotations

from collections.abc import Sequence

from laizi.reasons import Reason
from laizi.scoring.taiwan.calculator import ScoredItem, TaiResult
from laizi.scoring.taiwan.hand import HandError
from laizi.scoring.taiwan.options import SEED, TaiwanOptions
from laizi.scoring.taiwan.words import FlowerWin
from laizi.settlement import Payment

__all__ = ["PLAYERS", "payment_for", "settle_flower_win", "settle_win"]

PLAYERS = 4


def _seat(name: str, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise HandError(f"{name} must be a seat 0-{PLAYERS - 1}, not {seat!r}")


def _check(result: TaiResult, winner: int, dealer: int) -> None:
    _seat("winner", winner)
    _seat("dealer", dealer)
    if result.winner_is_dealer != (winner == dealer):
        raise HandError(
            f"the result was scored for a {'dealer' if result.winner_is_dealer else 'non-dealer'}"
            f" winner but seat {winner} {'is' if winner == dealer else 'is not'} the dealer"
        )


def payment_for(payer: int, payee: int, items: Sequence[ScoredItem], *, dealer_items:
                Sequence[ScoredItem] = (), base: bool = True,
                options: TaiwanOptions = SEED, note: Reason | None = None) -> Payment:
    """One payment of ``(底 if base) + (Σ items + Σ dealer_items) × 台值``, itemised
    (``note`` first, if given)."""
    tai = sum(i.tai for i in items) + sum(i.tai for i in dealer_items)
    amount = (options.base if base else 0) + tai * options.tai_value
    reasons = [note] if note is not None else []
    if base:
        reasons.append(Reason.of("tai_base", points=options.base))
    reasons.extend(i.as_reason() for i in items)
    reasons.extend(i.as_reason() for i in dealer_items)
    reasons.append(Reason.of("tai_total", tai=tai, value=options.tai_value,
                             amount=tai * options.tai_value))
    if amount < 0:
        raise HandError(f"a payment cannot be negative ({amount}); check the 台 overrides")
    return Payment(payer, payee, amount, tuple(reasons))


def _dealer_part(result: TaiResult, payer: int, winner: int, dealer: int
                 ) -> tuple[ScoredItem, ...]:
    return result.dealer_items if dealer in (payer, winner) else ()


def settle_win(result: TaiResult, *, winner: int, dealer: int, discarder: int | None = None,
               options: TaiwanOptions = SEED) -> list[Payment]:
    """Payments of an ordinary win (not 花胡).

    ``discarder``: the player whose discard was won on, or whose added kong was robbed
    (抢杠); ``None`` for a self-draw. Payments with a zero amount are left out.
    """
    if result.flower_win is not None:
        raise HandError("a flower win (花胡) is settled by settle_flower_win")
    _check(result, winner, dealer)
    if result.self_drawn:
        if discarder is not None:
            raise HandError("a self-drawn win has no discarder; all three players pay")
        payers = [p for p in range(PLAYERS) if p != winner]
    else:
        if discarder is None:
            raise HandError("a win on a discard (or robbed kong) needs the discarder, who pays")
        _seat("discarder", discarder)
        if discarder == winner:
            raise HandError("a player cannot win on their own discard")
        payers = [discarder]
    out = [payment_for(p, winner, result.items,
                       dealer_items=_dealer_part(result, p, winner, dealer), options=options)
           for p in payers]
    return [p for p in out if p.amount > 0]


def settle_flower_win(result: TaiResult, *, winner: int, dealer: int, robbed: int | None = None,
                      robbed_drew_eighth: bool = True,
                      options: TaiwanOptions = SEED) -> list[Payment]:
    """Payments of a 花胡 (seed 29-30), always on one 底.

    * 八仙过海: all three pay 底 + (8 + the hand's 台 if it bloomed) × 台值.
    * 七抢一, the robbed player had drawn the eighth flower (``robbed_drew_eighth``, seed
      30.1): the robbed player pays alone, as discarder — the hand's 台 too if it bloomed.
    * 七抢一, the winner drew the seventh and robbed a flower held before (seed 30.2):
      the robbed player pays 1 底 + 8 台 alone; if the replacement bloomed, it is a
      self-draw: all three pay 底 + the hand's 台, and the robbed player adds the 8 台.
    Dealer 台 apply between the dealer and another as in :func:`settle_win`.
    """
    if result.flower_win is None:
        raise HandError("not a flower win; use settle_win")
    _check(result, winner, dealer)
    others = [p for p in range(PLAYERS) if p != winner]
    hand, flowers = result.items, result.flower_items
    if result.flower_win == FlowerWin.EIGHT_IMMORTALS:
        if robbed is not None:
            raise HandError("八仙过海 robs no one; all three pay")
        out = [payment_for(p, winner, (*flowers, *hand),
                           dealer_items=_dealer_part(result, p, winner, dealer), options=options)
               for p in others]
    else:
        if robbed is None:
            raise HandError("七抢一 needs the robbed player, who pays")
        _seat("robbed", robbed)
        if robbed == winner:
            raise HandError("a player cannot rob their own flower")
        if robbed_drew_eighth or not hand:
            out = [payment_for(robbed, winner, (*flowers, *hand),
                               dealer_items=_dealer_part(result, robbed, winner, dealer),
                               options=options)]
        else:
            out = []
            for p in others:
                items = (*flowers, *hand) if p == robbed else hand
                out.append(payment_for(p, winner, items,
                                       dealer_items=_dealer_part(result, p, winner, dealer),
                                       options=options))
    return [p for p in out if p.amount > 0]
