"""Hand records: a finished hand as data (what happened, not how it was played).

A hand record is what the score-keeper reads (``laizi score RECORD.json``) and what the
engine writes at the end of every hand; each variant's settlement is a pure function of
it. The JSON form writes tiles in MPSZ (``"234p 55s"``) so people can type records by
hand; :class:`HandRecord` holds tile ids. Common fields are the same for every variant;
facts only one variant needs live in a section named by the variant id (``"jingzhou":
{...}``). See ``docs/hand-record.md``.

This module holds the record's types, the win kinds and the writer
(:func:`record_to_json`); reading a record strictly, which needs the variant registry,
is :mod:`laizi.records`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.melds import Meld
from laizi.reasons import Refusal
from laizi.vocab import Outcome, WinHow

__all__ = ["DISCARD_WIN", "DRAW", "HOW", "ROBBED_KONG", "SELF_DRAW", "WIN", "WRONG_WIN",
           "HandRecord",
           "OptionsWriter", "RecordError", "SeatRecord", "not_won", "record_to_json"]

SELF_DRAW = WinHow.SELF_DRAW  # 自摸 (杠开 is a self-draw with ``after_kong``)
DISCARD_WIN = WinHow.DISCARD  # 点炮 / 放炮
ROBBED_KONG = WinHow.ROBBED_KONG  # 抢杠
HOW = (SELF_DRAW, DISCARD_WIN, ROBBED_KONG)
"""How a hand is won: the record's ``how``."""

WIN, DRAW = Outcome.WIN, Outcome.DRAW
"""A record's ``outcome``: won, or drawn (黄庄)."""
WRONG_WIN = Outcome.WRONG_WIN
"""A record's ``outcome`` when a 错和 ended the hand (MCR ``profile=botzone``): ``source``
(``from``) is the seat that declared it; no winner."""


class RecordError(ValueError):
    """A hand record that cannot describe a real hand; the message says what is wrong
    (in English, seats by number, tiles in MPSZ: what ``laizi score`` prints).

    ``refusal``, when given, says it as data (:class:`laizi.reasons.Refusal`): the
    score-keeper's page words it in its own language with the people's names."""

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


_WHY: tuple[tuple[str, str], ...] = (
    (r"not a winning hand", "不成胡牌"),
    (r"the hand has not opened \(开口\); only 七对 wins closed", "没有开口 (只有七对可以不开口胡)"),
    (r"a 中 is in the hand \(play it out as a 红中杠 first\)", "手里还有红中 (要先开红中杠)"),
    (r"nobody wins on a 中 or laizi played out", "打出的红中或赖子不能胡"),
    (r"a discarded laizi is dead: nobody may win on it", "打出的癞子是死牌，不能胡"),
    (r"the tiles do not form four melds and a pair or 七对", "凑不成四副牌加一对，也不是七对"),
    (r"a hand holding (\d+) laizi may only win as 大刀 .*", "手里有 {0} 个癞子只能胡大刀 "
     "(门清自摸、碰碰胡或七对)，这手是小刀"),
    (r"(\d+) fan needed, hand has (\d+) \(flowers excluded\)", "起和要 {0} 番，这手牌只有 {1} 番 "
     "(花牌不算)"),
)
"""The Chinese of the engines' reasons why a hand does not win (what ``win_refusal``,
the scorers and the fan minimum say in English)."""


def not_won(seat: int, why: object) -> RecordError:
    """The refusal of a winner whose tiles do not win: ``seat N has not won: why``, with
    its :class:`~laizi.reasons.Refusal` (``not_won``; the reason in Chinese too when the
    engine's English is one of the known ones, else a general 不成胡牌)."""
    en = str(why)
    zh = "牌型不成胡"
    for pattern, text in _WHY:
        m = re.fullmatch(pattern, en)
        if m is not None:
            zh = text.format(*m.groups())
            break
    return RecordError(f"seat {seat} has not won: {en}",
                       Refusal.of("not_won", seat=seat, why_zh=zh, why_en=en))


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat at the end of a hand.

    ``concealed``: the concealed tiles (a winner's *without* the winning tile); ``None``
    when not given (the score-keeper does not need losers' hands). ``melds`` include
    kongs of every kind in the order they were made.
    """

    concealed: tuple[int, ...] | None
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand. ``outcome`` is ``"win"``, ``"draw"`` (黄庄) or ``"wrong_win"``
    (错和, ``source`` its caller)."""

    variant: str
    options: Any
    dealer: int
    seats: tuple[SeatRecord, ...]
    outcome: str
    winners: tuple[int, ...] = ()
    how: str | None = None
    source: int | None = None
    """The discarder (点炮) or the robbed seat (抢杠); ``None`` on a self-draw; the caller
    of a 错和."""
    win_tile: int | None = None
    after_kong: bool = False
    """The winning tile was a replacement draw after a kong (杠开 / 杠上开花)."""
    indicators: tuple[int, ...] = ()
    wildcard: int | None = None
    extra: JSON = field(default_factory=dict)
    """The variant section (JSON data), e.g. ``{"discarder_ready": true}``."""
    seed: int | None = None

    def hand_of(self, seat: int) -> list[int]:
        """The seat's concealed tiles, with the winning tile added for a winner."""
        concealed = self.seats[seat].concealed
        if concealed is None:
            raise RecordError(f"seat {seat}: concealed tiles are needed but not given")
        out = list(concealed)
        if seat in self.winners and self.win_tile is not None:
            out.append(self.win_tile)
        return out


class OptionsWriter(Protocol):
    """What :func:`record_to_json` needs of a variant: its options as JSON."""

    def options_to_json(self, options: Any) -> JSON: ...


def _tiles_json(ts: Sequence[int]) -> str:
    return T.format(ts, "mpsz", sort=True)


def record_to_json(record: HandRecord, variant: OptionsWriter) -> JSON:
    """The JSON form (tiles in MPSZ), ``variant`` the record's own (it writes the
    options). Inverse of :func:`laizi.records.record_from_json`."""
    seats = []
    for s in record.seats:
        entry: JSON = {}
        if s.concealed is not None:
            entry["concealed"] = _tiles_json(s.concealed)
        melds = []
        for m in s.melds:
            mj: JSON = {"kind": m.kind, "tiles": _tiles_json(m.tiles)}
            if m.source is not None:
                mj["from"] = m.source
            if m.claimed is not None:
                mj["claimed"] = T.name(m.claimed, "mpsz")
            melds.append(mj)
        entry["melds"] = melds
        if s.flowers:
            entry["flowers"] = _tiles_json(s.flowers)
        seats.append(entry)
    out: JSON = {
        "variant": record.variant,
        "options": variant.options_to_json(record.options),
        "dealer": record.dealer,
        "seats": seats,
        "outcome": record.outcome,
    }
    if record.seed is not None:
        out["seed"] = record.seed
    if record.indicators:
        out["indicators"] = _tiles_json(record.indicators)
    if record.wildcard is not None:
        out["wildcard"] = T.name(record.wildcard, "mpsz")
    if record.outcome == WIN:
        out["winners"] = list(record.winners)
        out["how"] = record.how
        if record.source is not None:
            out["from"] = record.source
        if record.win_tile is not None:
            out["tile"] = T.name(record.win_tile, "mpsz")
        out["after_kong"] = record.after_kong
    elif record.outcome == WRONG_WIN:
        out["from"] = record.source
    if record.extra:
        out[record.variant] = record.extra
    return out
