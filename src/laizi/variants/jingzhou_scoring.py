"""荆州麻将 settlement: doublings, 屁胡 and big hands, caps, 金顶 and 包牌.

A pure function of a :class:`~laizi.records.HandRecord`; live play calls the same code
(also to judge the 8-point minimum of 屁胡 before allowing a win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laizi import tiles as T
from laizi.copying import rebuild_from_fields
from laizi.core.melds import ADDED_KONG, CONCEALED_KONG, KONG, OPEN_KINDS, Meld
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW, HandRecord
from laizi.reasons import Reason
from laizi.settlement import Payment
from laizi.variants.jingzhou_rules import (
    BIG_HANDS,
    GOLD_HANDS,
    LAIZI_KONG,
    QIANGGANG,
    QING,
    QUAN,
    RED_KONG,
    Reading,
    readings,
)

__all__ = ["PIHU_MINIMUM", "Line", "Outcome", "doublings", "judge"]

PIHU_MINIMUM = 8
"""屁胡 is only allowed when some loser pays at least this (3 番)."""


@dataclass(frozen=True, slots=True)
class Line:
    """What one loser owes the winner (一条), in points before the base unit."""

    loser: int
    raw: int
    """Before the cap."""
    amount: int
    """After the cap / 金顶."""
    reasons: tuple[Reason, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The judged win: the reading used, each loser's line, and who pays."""

    winner: int
    reading: Reading
    lines: tuple[Line, ...]
    payer: int | None
    """The seat paying every line (包牌), or ``None``."""
    bao: Reason | None
    """Why ``payer`` pays for everyone (a ``bao`` reason)."""
    base: int

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines) * self.base

    def payments(self) -> list[Payment]:
        if self.payer is None:
            return [Payment(line.loser, self.winner, line.amount * self.base, line.reasons)
                    for line in self.lines if line.amount]
        assert self.bao is not None
        reasons: list[Reason] = [self.bao]
        for line in self.lines:
            reasons.append(Reason.of("bao_line", seat=line.loser,
                                     amount=line.amount * self.base))
            reasons.extend(line.reasons)
        return [Payment(self.payer, self.winner, self.total, tuple(reasons))]


def _meld_counts(melds: Sequence[Meld]) -> tuple[int, int, int, int, int]:
    """(开口 melds, 红中杠, 明杠, 赖子杠, 暗杠) of a seat, in one pass: settling a hand
    reads them for every seat, and the 听牌 hints settle many posed hands a turn."""
    opened = red = kong = laizi = concealed = 0
    for m in melds:
        kind = m.kind
        if kind in OPEN_KINDS:
            opened += 1
        if kind == RED_KONG:
            red += 1
        elif kind in (KONG, ADDED_KONG):
            kong += 1
        elif kind == LAIZI_KONG:
            laizi += 1
        elif kind == CONCEALED_KONG:
            concealed += 1
    return opened, red, kong, laizi, concealed


def doublings(
    melds: Sequence[Meld], *, kou_kou_fan: bool, hard: bool = False
) -> list[tuple[str, int]]:
    """A seat's own doublings from its melds (and 硬胡 for the winner): (label, exponent)."""
    return _doublings_of(_meld_counts(melds), kou_kou_fan=kou_kou_fan, hard=hard)


def _doublings_of(counted: tuple[int, int, int, int, int], *, kou_kou_fan: bool,
                  hard: bool) -> list[tuple[str, int]]:
    n_open, red, kong, laizi, concealed = counted
    out: list[tuple[str, int]] = []
    if n_open:
        out.append((f"口口翻 开口 ×{n_open}", n_open) if kou_kou_fan else ("开口", 1))
    if hard:
        out.append(("硬胡", 1))
    for label, k, each in (("红中杠", red, 1), ("明杠", kong, 1), ("赖子杠", laizi, 2),
                           ("暗杠", concealed, 2)):
        if k:
            out.append((label if k == 1 else f"{label} ×{k}", k * each))
    return out


def _doublings_reason(seat: int, winner: bool, melds: Sequence[Meld], *, kou_kou_fan: bool,
                      hard: bool = False, dealer: bool = False, dealt_in: bool = False,
                      self_drawn: bool = False) -> tuple[Reason, int]:
    """A seat's ``doublings`` reason and its exponent (the same sum as :func:`doublings`
    plus 庄家, 点炮 and 自摸)."""
    counted = _meld_counts(melds)
    exp = sum(e for _, e in _doublings_of(counted, kou_kou_fan=kou_kou_fan, hard=hard))
    exp += dealer + dealt_in + self_drawn
    opened, red, kong, laizi, concealed = counted
    reason = Reason.of(
        "doublings", seat=seat, winner=winner,
        opened=opened, per_meld=kou_kou_fan, hard=hard,
        red_dragon_kongs=red, kongs=kong, laizi_kongs=laizi, concealed_kongs=concealed,
        dealer=dealer, dealt_in=dealt_in, self_drawn=self_drawn)
    return reason, exp


_WIN_BONUS_HOW: dict[str, str] = {DISCARD_WIN: "discard", SELF_DRAW: "self_draw",
                                  ROBBED_KONG: "robbed_kong"}


def _lines(record: HandRecord, winner: int, reading: Reading
           ) -> list[tuple[int, int, list[Reason]]]:
    """(loser, raw amount, reasons) for every loser, before caps."""
    opts = record.options
    how = record.how
    big = reading.big_hands
    w_reason, w_exp = _doublings_reason(
        winner, True, record.seats[winner].melds, kou_kou_fan=opts.kou_kou_fan,
        hard=reading.hard, dealer=not big and record.dealer == winner)
    out = []
    for loser in range(len(record.seats)):
        if loser == winner:
            continue
        l_reason, l_exp = _doublings_reason(
            loser, False, record.seats[loser].melds, kou_kou_fan=opts.kou_kou_fan,
            dealer=not big and record.dealer == loser,
            dealt_in=not big and how == DISCARD_WIN and record.source == loser,
            self_drawn=not big and how == SELF_DRAW)
        exp = w_exp + l_exp
        reasons: list[Reason] = []
        if big:
            base = 10 * len(big)
            reasons.extend(Reason.of("hand", name=h, points=10) for h in big)
            # 抢杠 is settled as if the robbed player had won on the kong (杠进杠出).
            if (how == DISCARD_WIN and record.source == loser) or how in (SELF_DRAW, ROBBED_KONG):
                base += 10
                reasons.append(Reason.of("win_bonus", how=_WIN_BONUS_HOW[how or SELF_DRAW],
                                         points=10))
            raw = base << exp
        else:
            base = 1
            reasons.append(Reason.of("hand", name="屁胡", points=1))
            raw = 1 << exp
        reasons.append(w_reason)
        reasons.append(l_reason)
        reasons.append(Reason.of("line_total", base=base, exp=exp, amount=raw))
        out.append((loser, raw, reasons))
    return out


def _outcome(record: HandRecord, winner: int, reading: Reading) -> Outcome | str:
    opts = record.options
    raw_lines = _lines(record, winner, reading)
    if not reading.big_hands:
        most = max(raw for _, raw, _ in raw_lines)
        if most < PIHU_MINIMUM:
            return (f"屁胡 needs some loser to pay at least {PIHU_MINIMUM} "
                    f"(the most here is {most})")
    gold = any(h in GOLD_HANDS for h in reading.big_hands)
    all_capped = all(raw >= opts.cap for _, raw, _ in raw_lines)
    lines = []
    for loser, raw, reasons in raw_lines:
        if gold:
            amount = opts.gold
            reasons = [*reasons, Reason.of("gold_hand", points=opts.gold)]
        elif all_capped:
            amount = opts.gold
            reasons = [*reasons, Reason.of("gold_cap", points=opts.gold, cap=opts.cap)]
        elif raw >= opts.cap:
            amount = opts.cap
            reasons = [*reasons, Reason.of("cap", points=opts.cap)]
        else:
            amount = raw
        if opts.base != 1:
            reasons = [*reasons, Reason.of("unit", times=opts.base)]
        lines.append(Line(loser, raw, amount, tuple(reasons)))
    payer, bao = _bao(record, winner, reading)
    return Outcome(winner, reading, tuple(lines), payer, bao, opts.base)


def _bao(record: HandRecord, winner: int, reading: Reading
         ) -> tuple[int | None, Reason | None]:
    big = reading.big_hands
    src = record.source
    if record.how == ROBBED_KONG and QIANGGANG in big and src is not None:
        return src, Reason.of("bao", kind="robbed_kong", payer=src, winner=winner)
    if QUAN in big and record.how == DISCARD_WIN and src is not None \
            and record.extra.get("discarder_ready") is False:
        return src, Reason.of("bao", kind="all_melded", payer=src, winner=winner)
    feeder = record.extra.get("qingyise_feeder")
    if QING in big and feeder is not None and feeder != winner:
        return int(feeder), Reason.of("bao", kind="full_flush", payer=int(feeder),
                                      winner=winner)
    return None, None


def judge(record: HandRecord, winner: int) -> Outcome | str:
    """The outcome of ``winner``'s win, or why it is not a legal win. Among the valid
    readings the one paying the winner most is used; a hard reading (硬胡) wins ties."""
    assert record.how is not None
    hand = T.to_counts(record.hand_of(winner))
    found, why = readings(hand, record.seats[winner].melds, record.wildcard, record.how,
                          record.after_kong)
    if why is not None:
        return why
    best: Outcome | None = None
    refusal = "not a winning hand"
    for reading in found:
        out = _outcome(record, winner, reading)
        if isinstance(out, str):
            refusal = out
            continue
        if best is None or out.total > best.total:
            best = out
    return best if best is not None else refusal


def describe(outcome: Outcome) -> str:
    """One line: the hand type(s), 硬胡/软胡 and the total."""
    r = outcome.reading
    kinds = " + ".join(r.big_hands) if r.big_hands else "屁胡"
    return f"seat {outcome.winner} wins {kinds} ({'硬胡' if r.hard else '软胡'}), " \
           f"receives {outcome.total}"


assert set(BIG_HANDS) >= GOLD_HANDS


rebuild_from_fields(Line, Outcome)  # copy and pickle, compiled too
