"""The 台 items of Taiwan 16-tile mahjong (seed 004, 计台名堂 1-36): data + predicates.

Each item is an :class:`ItemDef` — number in the seed, id, Chinese and English names,
value, the items it excludes (不计), a note — and a predicate over :class:`Facts` that
returns ``(台, why)`` or ``None``. ``scripts/taiwan_table.py`` prints the table from here.

Kinds: ``hand`` items are summed for the winner; ``dealer`` items (作庄, 连N拉N) count
only in payments between the dealer and another player; ``flower_win`` items (花胡,
27-30) are used by :func:`laizi.scoring.taiwan.score_flower_win`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from laizi import tiles as T
from laizi.copying import rebuild_from_fields
from laizi.scoring.taiwan.facts import Facts, Part
from laizi.scoring.taiwan.words import ItemKind

__all__ = ["ITEMS", "ItemDef", "exclusion_order", "item", "value_keys"]

Hit = tuple[int, str]
Predicate = Callable[[Facts], Hit | None]

WIND_NAMES = "东南西北"


@dataclass(frozen=True, slots=True)
class ItemDef:
    """One 台 item. ``tai`` is its value (per unit for counted items); ``extra`` holds
    secondary values as ``(sub-key, 台)``; ``excludes`` the ids it replaces (不计)."""

    number: str
    id: str
    zh: str
    en: str
    tai: int
    note: str
    predicate: Predicate
    excludes: tuple[str, ...] = ()
    extra: tuple[tuple[str, int], ...] = ()
    kind: ItemKind = ItemKind.HAND


ITEMS: list[ItemDef] = []


def item(number: str, id_: str, zh: str, en: str, tai: int, note: str, *,
         excludes: tuple[str, ...] = (), extra: tuple[tuple[str, int], ...] = (),
         kind: ItemKind = ItemKind.HAND) -> Callable[[Predicate], Predicate]:
    def register(pred: Predicate) -> Predicate:
        ITEMS.append(ItemDef(number, id_, zh, en, tai, note, pred, excludes, extra, kind))
        return pred
    return register


def _name(t: int) -> str:
    return T.name(t, "chinese")


def _parts(parts: tuple[Part, ...]) -> str:
    return ", ".join(p.describe() for p in parts)


# ---------------------------------------------------------------- honours

@item("1", "wind_pung", "风字坎", "Wind pung", 1,
      "a pung/kong of 东南西北: 1 台 if it is the seat wind (开门序), 1 more if it is the "
      "prevalent wind (圈序); a wind matching neither counts nothing")
def wind_pung(f: Facts) -> Hit | None:
    total, why = 0, []
    for p in f.wind_pungs:
        reasons = []
        if p.tile == f.ctx.seat_wind_tile:
            reasons.append("门风")
        if p.tile == f.ctx.prevalent_wind_tile:
            reasons.append("圈风")
        if reasons:
            total += f.tai("wind_pung") * len(reasons)
            why.append(f"{p.describe()} ({'+'.join(reasons)})")
    return (total, "; ".join(why)) if total else None


@item("2", "dragon_pung", "箭字坎", "Dragon pung", 1,
      "each pung/kong of 中发白 (the seed's 合圈序 clause cannot apply: 圈 are winds)")
def dragon_pung(f: Facts) -> Hit | None:
    n = len(f.dragon_pungs)
    return (n * f.tai("dragon_pung"), _parts(f.dragon_pungs)) if n else None


# ---------------------------------------------------------------- concealment and claims

@item("3", "concealed_hand", "门清", "Concealed hand", 1,
      "no chow, pung or 明杠 before the win (暗杠 allowed); a win on a discard counts too")
def concealed_hand(f: Facts) -> Hit | None:
    return (f.tai("concealed_hand"), "no chow, pung or 明杠") if f.menqing else None


@item("4", "concealed_self_draw", "不求自摸", "Concealed self-draw", 2,
      "门清 and self-drawn; replaces 自摸, and with 门清 makes 门清一摸三 (3 台)",
      excludes=("self_draw",))
def concealed_self_draw(f: Facts) -> Hit | None:
    if f.menqing and f.ctx.self_drawn:
        return f.tai("concealed_self_draw"), "self-drawn with no chow, pung or 明杠"
    return None


@item("5", "all_claimed", "全求", "All claimed (全求人)", 2,
      "all five melds chowed/punged/明杠 (a 暗杠 is not 求), winning a single-wait on a "
      "discard; 独听 is added (3 台 with it)")
def all_claimed(f: Facts) -> Hit | None:
    if f.all_claimed and not f.ctx.self_drawn:
        return f.tai("all_claimed"), f"five melds claimed, 单钓 {_name(f.hand.winning_tile)}"
    return None


@item("6", "half_claimed", "半求", "Half claimed (半求人)", 1,
      "all five melds chowed/punged/明杠, the last tile self-drawn; with 独听 and 自摸 3 台")
def half_claimed(f: Facts) -> Hit | None:
    if f.all_claimed and f.ctx.self_drawn:
        return (f.tai("half_claimed"),
                f"five melds claimed, 单钓 {_name(f.hand.winning_tile)} self-drawn")
    return None


# ---------------------------------------------------------------- shape

@item("7", "all_chows", "平胡", "All chows", 2,
      "five chows and a pair; no flowers, no honour tiles, not 独听, not self-drawn "
      "(门清 may be added)")
def all_chows(f: Facts) -> Hit | None:
    if (f.standard and len(f.chows) == 5 and not f.has_honours and not f.hand.flowers
            and not f.single_wait and not f.ctx.self_drawn):
        return f.tai("all_chows"), _parts(f.chows)
    return None


@item("8", "all_pungs", "对对胡", "All pungs", 4, "five pungs/kongs and a pair")
def all_pungs(f: Facts) -> Hit | None:
    if f.standard and len(f.pungs) == 5:
        return f.tai("all_pungs"), _parts(f.pungs)
    return None


# ---------------------------------------------------------------- dealer

@item("9", "dealer", "作庄", "Dealer", 1,
      "only between the dealer and another player: when the dealer wins every payer adds "
      "it, when another wins only the dealer (as payer) adds it", kind=ItemKind.DEALER)
def dealer(f: Facts) -> Hit | None:
    return f.tai("dealer"), "作庄"


@item("10", "dealer_streak", "连N拉N", "Dealer streak (连N拉N)", 2,
      "2 台 per continuation N of the deal (连N + 拉N), between the dealer and another "
      "player like 作庄", kind=ItemKind.DEALER)
def dealer_streak(f: Facts) -> Hit | None:
    n = f.ctx.dealer_streak
    return (n * f.tai("dealer_streak"), f"连{n}拉{n}") if n else None


# ---------------------------------------------------------------- the winning tile

@item("11", "single_wait", "独听", "Single wait", 1,
      "the hand without the winning tile waited on one tile kind only (卡张, 边张, 单钓); "
      "judged on all waits, not on one reading")
def single_wait(f: Facts) -> Hit | None:
    if f.single_wait:
        return f.tai("single_wait"), f"{f.wait_shape()} {_name(f.hand.winning_tile)}, the only wait"
    return None


@item("12", "robbing_kong", "抢杠", "Robbing a kong", 1,
      "won on the tile another player added to an exposed pung")
def robbing_kong(f: Facts) -> Hit | None:
    return (f.tai("robbing_kong"), f"robbed {_name(f.hand.winning_tile)}") \
        if f.ctx.robbed_kong else None


# ---------------------------------------------------------------- colour

def _is_all_honours(f: Facts) -> bool:
    return not f.suits


@item("13", "all_honours", "字一色", "All honours", 16,
      "every tile an honour; 对对胡 not counted (it always comes with it)",
      excludes=("all_pungs",))
def all_honours(f: Facts) -> Hit | None:
    return (f.tai("all_honours"), "only honour tiles") if _is_all_honours(f) else None


@item("13b", "all_honours_overlap", "字一色减台", "All honours overlap", -4,
      "字一色 with 大/小四喜 or 大/小三元 (one of them always comes with it): 4 台 off the "
      "sum, once")
def all_honours_overlap(f: Facts) -> Hit | None:
    if not _is_all_honours(f):
        return None
    with_ = [name for name, pred in (("大四喜", big_four_winds), ("小四喜", little_four_winds),
                                     ("大三元", big_three_dragons),
                                     ("小三元", little_three_dragons)) if pred(f)]
    return (f.tai("all_honours_overlap"), "字一色 with " + "/".join(with_)) if with_ else None


@item("14", "full_flush", "清一色", "Full flush", 12, "one suit, no honours")
def full_flush(f: Facts) -> Hit | None:
    if len(f.suits) == 1 and not f.has_honours:
        return f.tai("full_flush"), f"only {'万筒条'[next(iter(f.suits))]}"
    return None


@item("15", "half_flush", "凑一色", "Half flush (混一色)", 4, "one suit plus honours")
def half_flush(f: Facts) -> Hit | None:
    if len(f.suits) == 1 and f.has_honours:
        return f.tai("half_flush"), f"only {'万筒条'[next(iter(f.suits))]} and honours"
    return None


# ---------------------------------------------------------------- concealed pungs

def _concealed_pungs(n: int, id_: str) -> Predicate:
    def pred(f: Facts) -> Hit | None:
        if len(f.concealed_pungs) == n:
            return f.tai(id_), _parts(f.concealed_pungs)
        return None
    return pred


item("16", "three_concealed_pungs", "三暗坎", "Three concealed pungs", 2,
     "exactly three pungs dealt or drawn (暗杠 included); a pung completed by the winning "
     "discard is not concealed")(_concealed_pungs(3, "three_concealed_pungs"))
item("17", "four_concealed_pungs", "四暗坎", "Four concealed pungs", 5,
     "exactly four concealed pungs (as 三暗坎)")(_concealed_pungs(4, "four_concealed_pungs"))
item("18", "five_concealed_pungs", "五暗坎", "Five concealed pungs", 13,
     "five concealed pungs; 门清 and 对对胡 not counted; self-drawn adds 不求自摸",
     excludes=("concealed_hand", "all_pungs"))(_concealed_pungs(5, "five_concealed_pungs"))


# ---------------------------------------------------------------- winds and dragons

@item("19", "big_four_winds", "大四喜", "Big four winds", 16,
      "pungs of all four winds; 风字坎 (seat/prevalent) not counted", excludes=("wind_pung",))
def big_four_winds(f: Facts) -> Hit | None:
    return (f.tai("big_four_winds"), _parts(f.wind_pungs)) if len(f.wind_pungs) == 4 else None


def _is_wind(t: int | None) -> bool:
    return t is not None and T.EAST <= t <= T.NORTH


def _is_dragon(t: int | None) -> bool:
    return t is not None and T.WHITE <= t <= T.RED


@item("20", "little_four_winds", "小四喜", "Little four winds", 8,
      "three wind pungs and a wind pair; 风字坎 still counted")
def little_four_winds(f: Facts) -> Hit | None:
    if len(f.wind_pungs) == 3 and _is_wind(f.pair_tile):
        assert f.pair_tile is not None
        return (f.tai("little_four_winds"),
                f"{_parts(f.wind_pungs)} + pair {_name(f.pair_tile) * 2}")
    return None


@item("21", "big_three_dragons", "大三元", "Big three dragons", 8,
      "pungs of 中发白; 箭字坎 not counted", excludes=("dragon_pung",))
def big_three_dragons(f: Facts) -> Hit | None:
    if len(f.dragon_pungs) == 3:
        return f.tai("big_three_dragons"), _parts(f.dragon_pungs)
    return None


@item("22", "little_three_dragons", "小三元", "Little three dragons", 4,
      "two dragon pungs and a dragon pair; 箭字坎 not counted", excludes=("dragon_pung",))
def little_three_dragons(f: Facts) -> Hit | None:
    if len(f.dragon_pungs) == 2 and _is_dragon(f.pair_tile):
        assert f.pair_tile is not None
        return (f.tai("little_three_dragons"),
                f"{_parts(f.dragon_pungs)} + pair {_name(f.pair_tile) * 2}")
    return None


# ---------------------------------------------------------------- self-draw

@item("23", "self_draw", "自摸", "Self-drawn", 1, "the winning tile drawn by the winner")
def self_draw(f: Facts) -> Hit | None:
    return (f.tai("self_draw"), f"drew {_name(f.hand.winning_tile)}") if f.ctx.self_drawn \
        else None


@item("24", "kong_bloom", "杠上开花", "Win on a replacement tile", 1,
      "self-drawn on the replacement after a kong (or a flower: seed 29); 自摸 added")
def kong_bloom(f: Facts) -> Hit | None:
    if f.ctx.kong_replacement:
        return f.tai("kong_bloom"), "replacement after a kong"
    if f.ctx.flower_replacement and f.options.flower_replacement_bloom:
        return f.tai("kong_bloom"), "replacement after a flower"
    return None


@item("25", "last_tile_draw", "海底捞月", "Last tile drawn", 1,
      "self-drawn on the last drawable tile (16 tiles stay in the wall); 自摸 added")
def last_tile_draw(f: Facts) -> Hit | None:
    if f.ctx.last_tile and f.ctx.self_drawn:
        return f.tai("last_tile_draw"), "海底 tile"
    return None


@item("x1", "last_discard", "河底撈魚", "Last discard", 1,
      "option (not in the seed; on in the common-table preset): won on the discard after "
      "the last drawable tile")
def last_discard(f: Facts) -> Hit | None:
    if (f.options.last_discard and f.ctx.last_tile and not f.ctx.self_drawn
            and not f.ctx.robbed_kong):
        return f.tai("last_discard"), "the last discard"
    return None


# ---------------------------------------------------------------- flowers

_FLOWER_SETS = ((34, 35, 36, 37), (38, 39, 40, 41))  # 春夏秋冬, 梅兰竹菊


@item("26", "flowers", "花牌", "Flowers", 1,
      "each flower of one's seat (春/梅 东, 夏/兰 南, 秋/竹 西, 冬/菊 北) 1 台; a whole set "
      "of one colour (花杠) counts 2 instead of that set's seat flower; all eight 8 instead "
      "of everything", extra=(("set", 2), ("all", 8)))
def flowers(f: Facts) -> Hit | None:
    held = set(f.hand.flowers)
    if len(held) == 8:
        return f.tai("flowers.all"), "all eight flowers (满花)"
    total, why = 0, []
    for group in _FLOWER_SETS:
        if held.issuperset(group):
            total += f.tai("flowers.set")
            why.append("花杠 " + "".join(_name(t) for t in group))
        elif (own := group[f.ctx.seat_wind]) in held:
            total += f.tai("flowers")
            why.append(f"{_name(own)} ({WIND_NAMES[f.ctx.seat_wind]} seat)")
    return (total, "; ".join(why)) if total else None


# ---------------------------------------------------------------- flower wins (花胡)
# Judged by score_flower_win on its own facts; the predicates here say so.

def _flower_win_only(f: Facts) -> Hit | None:
    return None


item("27", "flower_win", "花胡", "Flower win", 0,
     "all eight flowers win at once, whatever the hand (八仙过海 or 七抢一): 1 底 and 8 台; "
     "the hand's own 台 only if the replacement completes it (杠上开花)",
     kind=ItemKind.FLOWER_WIN)(_flower_win_only)
item("28", "flower_win_on_deal", "配牌花胡", "Flower win on the deal", 0,
     "8 (or 7 + 1 elsewhere) flowers in the deal: replace first, then win at one's first "
     "draw; no 台 of its own", kind=ItemKind.FLOWER_WIN)(_flower_win_only)
item("29", "eight_immortals", "八仙过海", "Eight immortals", 8,
     "the winner drew all eight flowers: all three pay 1 底 + 8 台 (+ dealer 台)",
     kind=ItemKind.FLOWER_WIN)(_flower_win_only)
item("30", "seven_robs_one", "七抢一", "Seven robs one", 8,
     "holding seven, the winner robs the eighth: the robbed player pays as discarder, 1 底 "
     "+ 8 台 (+ dealer 台)", kind=ItemKind.FLOWER_WIN)(_flower_win_only)


# ---------------------------------------------------------------- declarations, first turn

def _declared(f: Facts, kind: str) -> bool:
    return f.ctx.declaration == kind and not f.ctx.passed_win_since_declaring and f.menqing


@item("31", "heavenly_ready", "天听", "Heavenly ready", 8,
      "a non-dealer declared ready right after the deal; 门清 not counted; void if they "
      "passed a win (过水) since", excludes=("concealed_hand",))
def heavenly_ready(f: Facts) -> Hit | None:
    return (f.tai("heavenly_ready"), "declared 天听") if _declared(f, "heavenly") else None


@item("32", "earthly_ready", "地听", "Earthly ready", 4,
      "declared ready with one's first discard, concealed; 门清 not counted; void if they "
      "passed a win (过水) since", excludes=("concealed_hand",))
def earthly_ready(f: Facts) -> Hit | None:
    return (f.tai("earthly_ready"), "declared 地听") if _declared(f, "earthly") else None


@item("33", "heavenly_win", "天胡", "Heavenly win", 16,
      "the dealer wins on the dealt hand; 门清一摸三 (门清, 不求自摸, 自摸) and 独听 not counted",
      excludes=("concealed_hand", "concealed_self_draw", "self_draw", "single_wait"))
def heavenly_win(f: Facts) -> Hit | None:
    if f.ctx.dealer and f.ctx.self_drawn and f.ctx.first_draw and f.no_melds:
        return f.tai("heavenly_win"), "the dealer's dealt hand"
    return None


@item("34", "earthly_win", "地胡", "Earthly win", 16,
      "a non-dealer self-draws on their first draw, or wins on any player's first discard; "
      "天听, 地听, 人胡 and 门清 not counted (不求自摸 still counted)",
      excludes=("heavenly_ready", "earthly_ready", "human_win", "concealed_hand"))
def earthly_win(f: Facts) -> Hit | None:
    if f.ctx.dealer or not f.no_melds:
        return None
    if f.ctx.self_drawn and f.ctx.first_draw:
        return f.tai("earthly_win"), "self-drawn on the first draw"
    if f.ctx.discarders_first_discard and not f.ctx.robbed_kong:
        return f.tai("earthly_win"), "won on the discarder's first discard"
    return None


@item("35", "human_win", "人胡", "Human win", 8,
      "after declaring 地听, won on a player's first discard after it or on one's next "
      "draw; 地听 and 门清 not counted", excludes=("earthly_ready", "concealed_hand"))
def human_win(f: Facts) -> Hit | None:
    if (f.ctx.declaration == "earthly" and f.ctx.first_go_round_after_declaration
            and f.menqing):
        return f.tai("human_win"), "first go-round after declaring 地听"
    return None


@item("36", "eight_pairs", "呖咕呖咕 (八对半)", "Eight and a half pairs", 8,
      "option, off by default: seven pairs and a pung, concealed; honour-pung, 凑一色 and "
      "清一色 台 are added")
def eight_pairs(f: Facts) -> Hit | None:
    if f.reading.shape == "eight_pairs":
        return f.tai("eight_pairs"), f.reading.describe()
    return None


# ---------------------------------------------------------------- table helpers

BY_ID: dict[str, ItemDef] = {d.id: d for d in ITEMS}


def _check_table() -> None:
    ids = [d.id for d in ITEMS]
    assert len(ids) == len(set(ids)), "duplicate item id"
    for d in ITEMS:
        for x in d.excludes:
            assert x in BY_ID, f"{d.id} excludes unknown {x}"


_check_table()


@cache
def value_keys() -> frozenset[str]:
    """Every key a ``tai`` override may name."""
    keys = {d.id for d in ITEMS}
    keys.update(f"{d.id}.{sub}" for d in ITEMS for sub, _ in d.extra)
    return frozenset(keys)


def default_value(key: str) -> int:
    """The seed's value of a 台 key."""
    head, _, sub = key.partition(".")
    d = BY_ID[head]
    return dict(d.extra)[sub] if sub else d.tai


@cache
def exclusion_order() -> tuple[str, ...]:
    """Item ids ordered so that an item comes before every item it excludes."""
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(i: str) -> None:
        if state.get(i) == 2:
            return
        if state.get(i) == 1:
            raise AssertionError(f"exclusion cycle through {i}")
        state[i] = 1
        # items excluding i must come first
        for d in ITEMS:
            if i in d.excludes:
                visit(d.id)
        state[i] = 2
        order.append(i)

    for d in ITEMS:
        visit(d.id)
    return tuple(order)


rebuild_from_fields(ItemDef)  # copy and pickle, compiled too
