"""Score-keeper penalties of a physical Taiwan table (seed: 违反优先权而行牌之罚则).

Online play enforces priority and legality, so these never arise there; a score-keeper
records them from the table's facts.

* 诈胡 (false win): a player who lays down a hand with no right to win (lost priority, a
  passed win, or not a winning hand at all) pays each other player what that player would
  have paid them had they self-drawn the hand shown — ``底 + 台 × 台值`` with the shown
  hand's 台 read as a self-draw, dealer 台 between the dealer and another **(reading)**.
  Exception (seed: 胡铳VS胡铳除外): a discard win that lost to another player's discard
  win on the same tile is no offence.
* 相公 (dead hand): a player who claimed a pung out of priority can no longer win, and
  for any other player's self-draw within the next eight draws (摸序八张以内) pays in
  place of all three payers (代位赔付).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from laizi.reasons import Reason
from laizi.scoring.taiwan.calculator import NotAWinError, TaiResult, dealer_items, score_hand
from laizi.scoring.taiwan.hand import HandError, TaiwanHand, WinContext
from laizi.scoring.taiwan.options import SEED, TaiwanOptions
from laizi.scoring.taiwan.payments import PLAYERS, payment_for
from laizi.settlement import Payment

__all__ = [
    "DEAD_HAND_DRAWS",
    "settle_dead_hand_self_draw",
    "settle_false_win",
    "shown_hand_result",
]

DEAD_HAND_DRAWS = 8
"""相公 pays for other players' self-draws within this many draws after the penalty."""


def shown_hand_result(hand: TaiwanHand | None, ctx: WinContext,
                      options: TaiwanOptions = SEED) -> TaiResult:
    """The 台 of a hand laid down in a false win, read as a self-draw.

    ``hand`` is ``None`` when the tiles shown are not even a 17-tile hand; a hand that is
    not a winning shape counts no items. Dealer items always come from ``ctx``.
    """
    ctx = replace(ctx, self_drawn=True, robbed_kong=False, discarders_first_discard=False)
    if hand is not None:
        try:
            return score_hand(hand, ctx, options)
        except NotAWinError:
            pass
    return TaiResult((), dealer_items(ctx, options), True, ctx.dealer)


def settle_false_win(offender: int, shown: TaiResult, *, dealer: int,
                     exempt: bool = False, options: TaiwanOptions = SEED) -> list[Payment]:
    """诈胡: ``offender`` pays each other player as if that player paid for a self-draw.

    ``shown``: see :func:`shown_hand_result`. ``exempt``: the offender's discard win lost
    to another's discard win on the same tile (胡铳VS胡铳): no payment.
    """
    for name, seat in (("offender", offender), ("dealer", dealer)):
        if not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise HandError(f"{name} must be a seat 0-{PLAYERS - 1}, not {seat!r}")
    if shown.winner_is_dealer != (offender == dealer):
        raise HandError("the shown hand was scored with the wrong dealer flag for the offender")
    if exempt:
        return []
    out = []
    for p in range(PLAYERS):
        if p == offender:
            continue
        dealer_items = shown.dealer_items if dealer in (p, offender) else ()
        out.append(payment_for(offender, p, shown.items, dealer_items=dealer_items,
                               options=options, note=Reason.of("false_win")))
    return [p for p in out if p.amount > 0]


def settle_dead_hand_self_draw(payments: Sequence[Payment], *, dead: int,
                               draws_since_penalty: int) -> list[Payment]:
    """相公: redirect a self-draw's payments to the dead-hand player when liable.

    ``payments``: the self-draw's ordinary settlement (from ``settle_win``).
    ``draws_since_penalty``: in-turn draws (摸序) from the penalty up to and including the
    winning draw; a replacement draw belongs to the in-turn draw it follows. The dead
    player is liable when it is 1-8; otherwise the payments are returned unchanged.
    """
    if not isinstance(dead, int) or not 0 <= dead < PLAYERS:
        raise HandError(f"dead must be a seat 0-{PLAYERS - 1}, not {dead!r}")
    if draws_since_penalty < 1:
        raise HandError("the self-draw comes after the penalty: draws_since_penalty >= 1")
    winners = {p.payee for p in payments}
    if len(winners) != 1:
        raise HandError("expected the payments of one self-draw (one payee)")
    winner = winners.pop()
    if winner == dead:
        raise HandError("a dead hand (相公) cannot win")
    if len({p.payer for p in payments}) != len(payments) or len(payments) != PLAYERS - 1:
        raise HandError("a self-draw is paid by all three other players")
    if draws_since_penalty > DEAD_HAND_DRAWS:
        return list(payments)
    out = []
    for p in payments:
        if p.payer == dead:
            out.append(p)
        else:
            out.append(Payment(dead, p.payee, p.amount,
                               (Reason.of("dead_hand", seat=p.payer), *p.reasons)))
    return out
