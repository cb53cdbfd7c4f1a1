"""The Taiwan 台 calculator: every reading of the hand, the items of each, the highest.

:func:`score_hand` scores an ordinary win; :func:`score_flower_win` a 花胡 (八仙过海 /
七抢一). Both return a :class:`TaiResult`: the items with their 台 and why, the total, and
the dealer items (作庄, 连N拉N) that payments add only between the dealer and another.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from laizi import tiles as T
from laizi.copying import rebuild_from_fields
from laizi.reasons import Reason
from laizi.scoring.taiwan.facts import Facts, Part, Reading
from laizi.scoring.taiwan.hand import HandError, MeldKind, TaiwanHand, WinContext
from laizi.scoring.taiwan.items import BY_ID, ITEMS, ItemDef, default_value, exclusion_order
from laizi.scoring.taiwan.options import SEED, TaiwanOptions
from laizi.scoring.taiwan.shapes import concealed_splits, hand_waits
from laizi.scoring.taiwan.words import FlowerWin, ItemKind, PartKind, ReadingShape

__all__ = [
    "FlowerWinKind",
    "NotAWinError",
    "ScoredItem",
    "TaiResult",
    "dealer_items",
    "readings",
    "score_flower_win",
    "score_hand",
    "score_reading",
]

FlowerWinKind = FlowerWin | Literal["eight_immortals", "seven_robs_one"]
"""A 花胡: a :class:`~laizi.scoring.taiwan.words.FlowerWin` or its word."""


class NotAWinError(HandError):
    """The tiles do not form a winning hand."""


@dataclass(frozen=True, slots=True)
class ScoredItem:
    """One counted item: its seed number, names, 台 and why."""

    number: str
    id: str
    zh: str
    en: str
    tai: int
    why: str

    def to_json(self) -> dict[str, object]:
        return {"number": self.number, "id": self.id, "zh": self.zh, "en": self.en,
                "tai": self.tai, "why": self.why}

    def reason(self) -> str:
        return f"{self.zh} {self.tai}台"

    def as_reason(self) -> Reason:
        """The settlement reason of this item (code ``tai``)."""
        return Reason.of("tai", id=self.id, item=self.zh, tai=self.tai)


@dataclass(frozen=True, slots=True)
class TaiResult:
    """The 台 of one win.

    * ``items``: counted for every payer; ``tai`` is their sum.
    * ``dealer_items`` / ``dealer_tai``: 作庄 and 连N拉N, added only to payments between
      the dealer and another player.
    * ``flower_win``: ``None``, or ``"eight_immortals"`` / ``"seven_robs_one"``;
      ``flower_items`` then hold its 8 台 (paid as the flower win's rules say) and
      ``items`` the hand's own 台 (empty unless the replacement tile completed the hand).
    * ``reading``: the reading chosen (``None`` for a flower win without a hand).
    """

    items: tuple[ScoredItem, ...]
    dealer_items: tuple[ScoredItem, ...]
    self_drawn: bool
    winner_is_dealer: bool
    reading: Reading | None = None
    flower_win: FlowerWinKind | None = None
    flower_items: tuple[ScoredItem, ...] = field(default=())

    @property
    def tai(self) -> int:
        return sum(i.tai for i in self.items)

    @property
    def dealer_tai(self) -> int:
        return sum(i.tai for i in self.dealer_items)

    @property
    def flower_tai(self) -> int:
        return sum(i.tai for i in self.flower_items)

    def item_ids(self) -> list[str]:
        return [i.id for i in (*self.flower_items, *self.items)]

    def to_json(self) -> dict[str, object]:
        return {
            "items": [i.to_json() for i in self.items],
            "tai": self.tai,
            "dealer_items": [i.to_json() for i in self.dealer_items],
            "dealer_tai": self.dealer_tai,
            "flower_win": self.flower_win,
            "flower_items": [i.to_json() for i in self.flower_items],
            "flower_tai": self.flower_tai,
            "self_drawn": self.self_drawn,
            "winner_is_dealer": self.winner_is_dealer,
            "reading": None if self.reading is None else self.reading.to_json(),
        }


# ---------------------------------------------------------------- readings


def _declared_parts(hand: TaiwanHand) -> list[Part]:
    out = []
    for m in hand.melds:
        kind = MeldKind(m.kind)
        if kind is MeldKind.CHOW:
            out.append(Part(PartKind.CHOW, m.tiles, declared=True, concealed=False))
        elif kind is MeldKind.PUNG:
            out.append(Part(PartKind.PUNG, m.tiles, declared=True, concealed=False))
        else:
            out.append(Part(PartKind.KONG, m.tiles, declared=True,
                            concealed=kind is MeldKind.CONCEALED_KONG))
    return out


def readings(hand: TaiwanHand, ctx: WinContext, options: TaiwanOptions = SEED) -> list[Reading]:
    """Every reading of the hand, each with the winning tile placed in one group.

    A pung holding the winning tile is 暗 only if that tile was self-drawn; when the
    winning tile could sit elsewhere (a chow or the pair), that placement is a reading too.
    """
    declared = _declared_parts(hand)
    counts = T.to_counts(hand.concealed)
    out: list[Reading] = []
    seen: set[Reading] = set()
    for shape, split in concealed_splits(counts, eight_pairs=options.eight_pairs
                                         and not hand.melds):
        for k, (_, tiles) in enumerate(split):
            if hand.winning_tile not in tiles:
                continue
            parts = list(declared)
            for j, (kind2, tiles2) in enumerate(split):
                won_here = j == k
                concealed = not (won_here and kind2 == PartKind.PUNG and not ctx.self_drawn)
                parts.append(Part(kind2, tiles2, concealed=concealed, has_win=won_here))
            r = Reading(shape, tuple(parts))
            if r not in seen:
                seen.add(r)
                out.append(r)
    return out


# ---------------------------------------------------------------- scoring


def _value_lookup(options: TaiwanOptions) -> Callable[[str], int]:
    overrides = options.overrides

    def tai(key: str) -> int:
        return overrides[key] if key in overrides else default_value(key)
    return tai


def _scored(d: ItemDef, hit: tuple[int, str]) -> ScoredItem:
    tai, why = hit
    zh = d.zh
    if d.id == "dealer_streak":
        zh = why  # 连N拉N with N written out
    return ScoredItem(d.number, d.id, zh, d.en, tai, why)


def _apply_exclusions(hits: dict[str, ScoredItem]) -> list[ScoredItem]:
    kept: dict[str, ScoredItem] = {}
    excluded: set[str] = set()
    for i in exclusion_order():
        if i in hits and i not in excluded:
            kept[i] = hits[i]
            excluded.update(BY_ID[i].excludes)
    order = {d.id: n for n, d in enumerate(ITEMS)}
    return sorted(kept.values(), key=lambda s: order[s.id])


def _items_for(facts: Facts, *, skip: frozenset[str] = frozenset()) -> list[ScoredItem]:
    hits: dict[str, ScoredItem] = {}
    for d in ITEMS:
        if d.kind != ItemKind.HAND or d.id in skip:
            continue
        hit = d.predicate(facts)
        if hit is not None:
            hits[d.id] = _scored(d, hit)
    return _apply_exclusions(hits)


def dealer_items(ctx: WinContext, options: TaiwanOptions = SEED) -> tuple[ScoredItem, ...]:
    """作庄 and 连N拉N for a win in ``ctx`` (they depend on the deal only, not the hand)."""
    # The dealer predicates look at the context and the values only; the hand is a stand-in.
    facts = Facts(_STAND_IN, ctx, options, _NO_READING, frozenset(), _value_lookup(options))
    out = []
    for d in ITEMS:
        if d.kind == ItemKind.DEALER and (hit := d.predicate(facts)) is not None:
            out.append(_scored(d, hit))
    return tuple(out)


def _waits(hand: TaiwanHand, options: TaiwanOptions) -> frozenset[int]:
    held = T.to_counts(hand.all_tiles)
    held[hand.winning_tile] -= 1
    before = T.to_counts(hand.concealed)
    before[hand.winning_tile] -= 1
    return hand_waits(before, held, eight_pairs=options.eight_pairs and not hand.melds)


def score_reading(hand: TaiwanHand, ctx: WinContext, reading: Reading,
                  options: TaiwanOptions = SEED, *,
                  skip: frozenset[str] = frozenset()) -> list[ScoredItem]:
    """The hand items of one given reading (exclusions applied); ``skip``: ids left out."""
    facts = Facts(hand, ctx, options, reading, _waits(hand, options), _value_lookup(options))
    return _items_for(facts, skip=skip)


def _best(hand: TaiwanHand, ctx: WinContext, options: TaiwanOptions,
          skip: frozenset[str]) -> tuple[Reading, list[ScoredItem]]:
    found = readings(hand, ctx, options)
    if not found:
        raise NotAWinError(
            f"{T.format(hand.concealed)} with {len(hand.melds)} declared meld(s) is not five "
            "melds and a pair" + (" nor 八对半" if options.eight_pairs else "")
        )
    waits = _waits(hand, options)
    tai = _value_lookup(options)
    best: tuple[int, Reading, list[ScoredItem]] | None = None
    for r in found:
        items = _items_for(Facts(hand, ctx, options, r, waits, tai), skip=skip)
        total = sum(i.tai for i in items)
        if best is None or total > best[0]:  # 就高; ties keep the first reading found
            best = (total, r, items)
    assert best is not None
    return best[1], best[2]


def score_hand(hand: TaiwanHand, ctx: WinContext,
               options: TaiwanOptions = SEED) -> TaiResult:
    """The 台 of a won hand: the highest-scoring reading (就高), itemised.

    Raises :class:`NotAWinError` if the tiles are not a winning shape and
    :class:`~laizi.scoring.taiwan.hand.HandError` for impossible hands or contexts.
    """
    reading, items = _best(hand, ctx, options, frozenset())
    return TaiResult(tuple(items), dealer_items(ctx, options), ctx.self_drawn, ctx.dealer,
                     reading)


def score_flower_win(kind: FlowerWinKind, ctx: WinContext, hand: TaiwanHand | None = None,
                     options: TaiwanOptions = SEED, *, on_deal: bool = False) -> TaiResult:
    """The 台 of a 花胡 (seed 27-30).

    ``kind``: ``"eight_immortals"`` (八仙过海, the winner drew all eight flowers) or
    ``"seven_robs_one"`` (七抢一). ``hand``: only when the replacement tile drawn for the
    last flower completed the hand (杠上开花): its 台 are then counted too, except the
    flower item, which the flower win's 8 台 stands for. ``on_deal``: 配牌花胡 (seed 28).
    ``ctx`` gives the dealer facts (作庄 and 连N拉N still apply, seed 29-30).
    """
    if kind not in (FlowerWin.EIGHT_IMMORTALS, FlowerWin.SEVEN_ROBS_ONE):
        raise HandError(f"a flower win is 'eight_immortals' or 'seven_robs_one', not {kind!r}")
    tai = _value_lookup(options)
    flower_items = [ScoredItem(BY_ID["flower_win"].number, "flower_win", "花胡", "Flower win",
                               0, "all eight flowers")]
    if on_deal:
        d = BY_ID["flower_win_on_deal"]
        flower_items.append(ScoredItem(d.number, d.id, d.zh, d.en, 0, "flowers in the deal"))
    d = BY_ID[kind]
    why = ("drew all eight flowers" if kind == FlowerWin.EIGHT_IMMORTALS
           else "robbed the eighth flower")
    flower_items.append(ScoredItem(d.number, d.id, d.zh, d.en, tai(kind), why))
    items: tuple[ScoredItem, ...] = ()
    reading = None
    if hand is not None:
        if len(hand.flowers) not in (7, 8):
            raise HandError("a flower win's hand holds seven or eight flowers")
        if not (ctx.self_drawn and (ctx.flower_replacement or ctx.kong_replacement)):
            ctx = replace(ctx, self_drawn=True, flower_replacement=True, robbed_kong=False,
                          discarders_first_discard=False)
        reading, found = _best(hand, ctx, options, frozenset({"flowers"}))
        items = tuple(found)
    return TaiResult(items, dealer_items(ctx, options), hand is not None, ctx.dealer,
                     reading, kind, tuple(flower_items))


_STAND_IN = TaiwanHand((*range(9), 9, 10, 11, 12, 13, 14, 15, 15), (), (), 15)
_NO_READING = Reading(ReadingShape.STANDARD, ())


rebuild_from_fields(ScoredItem, TaiResult)  # copy and pickle, compiled too
