"""Judging and settling a ``golden`` / ``mcr`` hand from its hand record.

The fan total comes from the MCR calculator (:func:`laizi.scoring.mcr.score_hand`), with
the golden tiles as wildcards (就高: the assignment with the highest total). Settlement:

* ``mcr``: self-draw, each other seat pays 8 + V; discard (or 抢杠), the discarder (the
  robbed seat) pays 8 + V and the other two 8 each. V = total fan with flowers.
* ``golden``: the same amounts × 2^(d_winner + d_payer), d = 1 for an opened hand (a chow,
  pung or 明杠) + 1 per 直杠 / 蓄杠 + 2 per 暗杠.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from laizi.analysis import WinRules
from laizi.core.melds import ADDED_KONG, CHOW, CONCEALED_KONG, KONG, OPEN_KINDS, PUNG
from laizi.core.melds import Meld as EngineMeld
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW
from laizi.reasons import Reason
from laizi.scoring.mcr import FanItem, FanResult, Meld, WinContext, score_hand
from laizi.settlement import Payment
from laizi.variants._gb_common import seat_wind, wind_tile

if TYPE_CHECKING:
    from laizi.core.records import HandRecord

__all__ = [
    "BASE",
    "MCR_RULES",
    "doublings",
    "mcr_melds",
    "minimum_refusal",
    "payments",
    "score_record",
    "win_context",
    "win_facts",
]

BASE = 8
"""Every loser pays the winner 8 (底分), the discarder 8 + V."""

MCR_RULES = WinRules(pair_tiles=None, seven_pairs=True, thirteen_orphans=True, knitted=True)
"""Every MCR shape: four sets and a pair, 七对, 十三幺, 全不靠/七星不靠, 组合龙."""

_MCR_KIND: dict[str, str] = {CHOW: "chow", PUNG: "pung", KONG: "kong", ADDED_KONG: "kong",
             CONCEALED_KONG: "concealed_kong"}


def mcr_melds(melds: Sequence[EngineMeld]) -> list[Meld]:
    """Engine melds as the calculator's: 直杠 and 蓄杠 are both 明杠."""
    return [Meld(_MCR_KIND[m.kind], m.tiles[0]) for m in melds]


def win_context(record: HandRecord, seat: int) -> WinContext:
    """The situational facts of the win (自摸, 妙手回春, 海底捞月, 杠上开花, 抢杠和, 和绝张,
    winds, flowers) from the record; ``record.extra`` holds ``last_tile`` and
    ``last_copy``."""
    return win_facts(record.how, seat, record.dealer,
                     bool(record.extra.get("last_tile", False)), record.after_kong,
                     bool(record.extra.get("last_copy", False)),
                     record.options.prevalent_wind, len(record.seats[seat].flowers))


def win_facts(how: str | None, seat: int, dealer: int, last: bool, after_kong: bool,
              last_copy: bool, prevalent: str, flowers: int) -> WinContext:
    """:func:`win_context` from plain facts: ``last`` (the win was on the wall's last
    tile), ``after_kong`` (a self-draw on a kong's replacement), ``last_copy`` (the other
    copies were visible), the prevalent wind's letter and the winner's flowers."""
    return WinContext(
        self_drawn=how == SELF_DRAW,
        last_tile_of_wall=last and how == SELF_DRAW,
        last_discard=last and how == DISCARD_WIN,
        kong_replacement=after_kong and how == SELF_DRAW,
        robbed_kong=how == ROBBED_KONG,
        # 抢杠和不计和绝张 (the calculator's context refuses nothing here; we drop it).
        last_copy=last_copy and how != ROBBED_KONG,
        seat_wind=seat_wind(seat, dealer),
        prevalent_wind=wind_tile(prevalent),
        flowers=flowers,
    )


_SCORED: dict[tuple[object, ...], FanResult] = {}
"""score_record's recent answers by everything they depend on: a win judged for the
minimum is scored again when the hand ends. Kept small: a scored hand is a dozen
objects the garbage collector must walk, and at 100,000 hands its full collections
paused a search for up to a third of a second. The engine's many repeated questions
(does this hand reach 8 fan?) are answered from ``_gb_variant``'s plain-value cache."""
_SCORED_MAX = 2_000


def score_record(record: HandRecord, seat: int) -> FanResult:
    """The fan of ``seat``'s win in ``record`` (raises the calculator's ``HandError`` for
    tiles that cannot be a hand). Every concealed copy of the golden tile is wild."""
    assert record.win_tile is not None
    return score_win(record.hand_of(seat), record.win_tile, record.seats[seat].melds,
                     record.wildcard, win_context(record, seat))


def score_win(concealed: Sequence[int], win_tile: int, melds: Sequence[EngineMeld],
              golden: int | None, ctx: WinContext) -> FanResult:
    """The fan of a win: ``concealed`` holds the winning tile ``win_tile`` (in any order),
    ``melds`` are the engine's, every concealed copy of ``golden`` is wild. One cache for
    the engine's win check (is it 8 fan?) and the settlement of the same win, which the
    hall's 听牌提示 pose for every wait (raises ``HandError`` as the calculator does)."""
    tiles = sorted(concealed)
    key = (tuple(tiles), win_tile, tuple(melds), golden, ctx)
    got = _SCORED.get(key)
    if got is not None:
        return got
    n_golden = tiles.count(golden) if golden is not None else 0
    # The winning tile goes last: the calculator reads it from there as well.
    tiles.remove(win_tile)
    tiles.append(win_tile)
    got = score_hand(tiles, mcr_melds(melds), win_tile, ctx, golden=n_golden,
                     golden_face=golden)
    if len(_SCORED) >= _SCORED_MAX:
        _SCORED.clear()
    _SCORED[key] = got
    return got


def minimum_refusal(result: FanResult, minimum: int) -> str | None:
    """Why the scored hand does not win (``None`` if it does)."""
    if not result.is_win:
        return result.why_not or "not a winning hand"
    fan = result.fan_without_flowers
    if fan < minimum:
        return f"{minimum} fan needed, hand has {fan} (flowers excluded)"
    return None


def doublings(melds: Sequence[EngineMeld]) -> int:
    """d of one seat (golden): 1 if opened (吃, 碰 or 明杠) + 1 per 直杠/蓄杠 + 2 per 暗杠."""
    d = 1 if any(m.kind in OPEN_KINDS for m in melds) else 0
    for m in melds:
        if m.kind in (KONG, ADDED_KONG):
            d += 1
        elif m.kind == CONCEALED_KONG:
            d += 2
    return d


_FAN_REASONS: dict[tuple[str, int], Reason] = {}
"""Each fan's payment item by the fan and its count (all it depends on): settled for every
wait of every discard by the 听牌 hints. At most the table's fans times their counts."""


def _fan_reason(f: FanItem) -> Reason:
    got = _FAN_REASONS.get((f.key, f.count))
    if got is None:
        got = _FAN_REASONS[f.key, f.count] = Reason.of(
            "fan", id=f.key, name=f.zh, fan=f.points, count=f.count)
    return got


_FACTOR_REASONS: dict[tuple[int, int], Reason] = {}
"""The golden factor's payment item by the two seats' d (a dozen at most)."""


def _factor_reason(d_winner: int, d_payer: int) -> Reason:
    got = _FACTOR_REASONS.get((d_winner, d_payer))
    if got is None:
        got = _FACTOR_REASONS[d_winner, d_payer] = Reason.of(
            "golden_factor", winner=d_winner, payer=d_payer, factor=2 ** (d_winner + d_payer))
    return got


def payments(record: HandRecord, result: FanResult, golden: bool) -> list[Payment]:
    """The payments of a win (one winner) whose fan is ``result``."""
    winner = record.winners[0]
    v = result.total
    how = record.how
    d_winner = doublings(record.seats[winner].melds) if golden else 0
    out: list[Payment] = []
    full_reasons = (
        Reason.of("fan_win", how=how or SELF_DRAW, base=BASE, fan=v),
        *map(_fan_reason, result.fans),
    )
    for payer in range(len(record.seats)):
        if payer == winner:
            continue
        full = how == SELF_DRAW or payer == record.source
        base = BASE + v if full else BASE
        reasons = [*full_reasons] if full else [Reason.of("base", points=BASE)]
        amount = base
        if golden:
            d_payer = doublings(record.seats[payer].melds)
            factor = 2 ** (d_winner + d_payer)
            amount = base * factor
            reasons.append(_factor_reason(d_winner, d_payer))
        out.append(Payment(payer, winner, amount, tuple(reasons)))
    return out
