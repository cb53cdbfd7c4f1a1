"""荆州麻将 settlement: doublings, 屁胡 and big hands, caps, 金顶 and 包牌.

A pure function of a :class:`~laizi.records.HandRecord`; live play calls the same code
(also to judge the 8-point minimum of 屁胡 before allowing a win).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from laizi import tiles as T
from laizi.engine.melds import ADDED_KONG, CONCEALED_KONG, KONG, OPEN_KINDS, Meld
from laizi.engine.variant import DISCARD_WIN, ROBBED_KONG, SELF_DRAW
from laizi.records import HandRecord
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
    reasons: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The judged win: the reading used, each loser's line, and who pays."""

    winner: int
    reading: Reading
    lines: tuple[Line, ...]
    payer: int | None
    """The seat paying every line (包牌), or ``None``."""
    bao: str | None
    """Why ``payer`` pays for everyone."""
    base: int

    @property
    def total(self) -> int:
        return sum(line.amount for line in self.lines) * self.base

    def payments(self) -> list[Payment]:
        if self.payer is None:
            return [Payment(line.loser, self.winner, line.amount * self.base, line.reasons)
                    for line in self.lines if line.amount]
        reasons: list[str] = [f"包牌: {self.bao}"]
        for line in self.lines:
            reasons.append(f"for seat {line.loser}'s line of {line.amount * self.base}: "
                           + "; ".join(line.reasons))
        return [Payment(self.payer, self.winner, self.total, tuple(reasons))]


def doublings(
    melds: Sequence[Meld], *, kou_kou_fan: bool, hard: bool = False
) -> list[tuple[str, int]]:
    """A seat's own doublings from its melds (and 硬胡 for the winner): (label, exponent)."""
    out: list[tuple[str, int]] = []
    n_open = sum(1 for m in melds if m.kind in OPEN_KINDS)
    if n_open:
        out.append((f"口口翻 开口 ×{n_open}", n_open) if kou_kou_fan else ("开口", 1))
    if hard:
        out.append(("硬胡", 1))
    counts = {
        "红中杠": (sum(1 for m in melds if m.kind == RED_KONG), 1),
        "明杠": (sum(1 for m in melds if m.kind in (KONG, ADDED_KONG)), 1),
        "赖子杠": (sum(1 for m in melds if m.kind == LAIZI_KONG), 2),
        "暗杠": (sum(1 for m in melds if m.kind == CONCEALED_KONG), 2),
    }
    for label, (k, each) in counts.items():
        if k:
            out.append((label if k == 1 else f"{label} ×{k}", k * each))
    return out


def _fmt(items: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{label} +{e}" for label, e in items) or "none"


def _lines(record: HandRecord, winner: int, reading: Reading) -> list[tuple[int, int, list[str]]]:
    """(loser, raw amount, reasons) for every loser, before caps."""
    opts = record.options
    how = record.how
    big = reading.big_hands
    w_items = doublings(record.seats[winner].melds, kou_kou_fan=opts.kou_kou_fan,
                        hard=reading.hard)
    if not big and record.dealer == winner:
        w_items.append(("庄家", 1))
    w_exp = sum(e for _, e in w_items)
    out = []
    for loser in range(len(record.seats)):
        if loser == winner:
            continue
        l_items = doublings(record.seats[loser].melds, kou_kou_fan=opts.kou_kou_fan)
        if not big:
            if record.dealer == loser:
                l_items.append(("庄家", 1))
            if how == DISCARD_WIN and record.source == loser:
                l_items.append(("点炮", 1))
            if how == SELF_DRAW:
                l_items.append(("自摸", 1))
        exp = w_exp + sum(e for _, e in l_items)
        reasons: list[str] = []
        if big:
            base = 10 * len(big)
            reasons.append(" + ".join(f"{h} 10" for h in big))
            # 抢杠 is settled as if the robbed player had won on the kong (杠进杠出).
            if (how == DISCARD_WIN and record.source == loser) or how in (SELF_DRAW, ROBBED_KONG):
                base += 10
                reasons.append({DISCARD_WIN: "点炮 +10", SELF_DRAW: "自摸 +10"}.get(
                    how or "", "抢杠 settled as 自摸 +10"))
            raw = base << exp
        else:
            base = 1
            reasons.append("屁胡 1")
            raw = 1 << exp
        reasons.append(f"winner doublings: {_fmt(w_items)}")
        reasons.append(f"seat {loser} doublings: {_fmt(l_items)}")
        reasons.append(f"{base} × 2^{exp} = {raw}")
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
            reasons = [*reasons, f"金顶 {opts.gold} (将一色 / 风一色)"]
        elif all_capped:
            amount = opts.gold
            reasons = [*reasons, f"金顶 {opts.gold} (every line reached the cap {opts.cap})"]
        elif raw >= opts.cap:
            amount = opts.cap
            reasons = [*reasons, f"封顶 {opts.cap}"]
        else:
            amount = raw
        if opts.base != 1:
            reasons = [*reasons, f"base unit × {opts.base}"]
        lines.append(Line(loser, raw, amount, tuple(reasons)))
    payer, bao = _bao(record, winner, reading)
    return Outcome(winner, reading, tuple(lines), payer, bao, opts.base)


def _bao(record: HandRecord, winner: int, reading: Reading) -> tuple[int | None, str | None]:
    big = reading.big_hands
    src = record.source
    if record.how == ROBBED_KONG and QIANGGANG in big and src is not None:
        return src, f"抢杠: seat {src}'s added kong was robbed; it pays as if seat {winner} " \
                    "had won on the kong (杠进杠出)"
    if QUAN in big and record.how == DISCARD_WIN and src is not None \
            and record.extra.get("discarder_ready") is False:
        return src, f"全求人: seat {src} was not ready (未听牌) when it discarded the winning tile"
    feeder = record.extra.get("qingyise_feeder")
    if QING in big and feeder is not None and feeder != winner:
        return int(feeder), (f"清一色: seat {feeder} fed seat {winner}'s third exposed meld "
                             "of the suit")
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
