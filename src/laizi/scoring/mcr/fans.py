"""The 81 fans of Chinese Official mahjong (国标麻将, MCR) as data.

Each :class:`Fan` row holds the value, the Chinese and English names, the number in the
seed's 81-fan table (``seed_no``), what it excludes (不计, as the standard calculator
applies it) and a one-line rule. The predicates live in :mod:`.calculator`, one small
function per family; this table is the single source of names and values (the table in
docs/fan.md is generated from it: ``python -m laizi.scoring.mcr.fans``).

Besides the seed's 81, the table holds 明暗杠 (Concealed Kong and Melded Kong, 5 fan), a
fan the widely used PyMahjongGB / ChineseOfficialMahjongHelper calculator counts for one
concealed and one melded kong instead of 暗杠 + 明杠; see docs/fan.md, "Decisions".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from laizi.copying import rebuild_from_fields

__all__ = ["FANS", "FAN_BY_KEY", "Fan"]


@dataclass(frozen=True, slots=True)
class Fan:
    """One fan (番种) of the table."""

    key: str
    value: int
    zh: str
    en: str
    seed_no: int | None
    excludes: tuple[str, ...] = ()
    rule: str = ""


def _f(no: int | None, key: str, value: int, zh: str, en: str, rule: str,
       excludes: str = "") -> Fan:
    return Fan(key, value, zh, en, no, tuple(excludes.split()), rule)


# Row order = value order = the order in which exclusions are applied (a fan already
# excluded by a bigger one excludes nothing itself, as in the rulebook's 不重复 principle).
FANS: Final[tuple[Fan, ...]] = (
    # 88
    _f(1, "big_four_winds", 88, "大四喜", "Big Four Winds", "pungs/kongs of all four winds",
       "big_three_winds all_pungs pung_of_terminals_or_honours prevalent_wind seat_wind"),
    _f(2, "big_three_dragons", 88, "大三元", "Big Three Dragons", "pungs of 中 发 白",
       "two_dragon_pungs dragon_pung"),
    _f(3, "all_green", 88, "绿一色", "All Green", "only 23468条 and 发",
       "half_flush one_voided_suit"),
    _f(4, "nine_gates", 88, "九莲宝灯", "Nine Gates",
       "1112345678999 of one suit concealed, winning on any tile of that suit",
       "full_flush concealed_hand one_voided_suit no_honours"),
    _f(5, "four_kongs", 88, "四杠", "Four Kongs", "four kongs", "single_wait"),
    _f(6, "seven_shifted_pairs", 88, "连七对", "Seven Shifted Pairs",
       "seven consecutive pairs of one suit",
       "seven_pairs full_flush concealed_hand one_voided_suit no_honours"),
    _f(7, "thirteen_orphans", 88, "十三幺", "Thirteen Orphans",
       "one of each terminal and honour plus a pair of one of them",
       "all_types concealed_hand single_wait"),
    # 64
    _f(8, "all_terminals", 64, "清幺九", "All Terminals", "pungs and pair of 1s and 9s only",
       "all_terminals_and_honours all_pungs outside_hand pung_of_terminals_or_honours "
       "no_honours double_pung"),
    _f(9, "little_four_winds", 64, "小四喜", "Little Four Winds",
       "three wind pungs and a wind pair", "big_three_winds pung_of_terminals_or_honours"),
    _f(10, "little_three_dragons", 64, "小三元", "Little Three Dragons",
       "two dragon pungs and a dragon pair", "two_dragon_pungs dragon_pung"),
    _f(11, "all_honours", 64, "字一色", "All Honours", "honour tiles only",
       "all_terminals_and_honours all_pungs outside_hand pung_of_terminals_or_honours "
       "one_voided_suit"),
    _f(12, "four_concealed_pungs", 64, "四暗刻", "Four Concealed Pungs",
       "four concealed pungs/kongs", "all_pungs concealed_hand"),
    _f(13, "pure_terminal_chows", 64, "一色双龙会", "Pure Terminal Chows",
       "123 123 789 789 and a pair of 5, one suit",
       "seven_pairs full_flush all_chows pure_double_chow two_terminal_chows "
       "one_voided_suit no_honours"),
    # 48
    _f(14, "quadruple_chow", 48, "一色四同顺", "Quadruple Chow", "four identical chows",
       "pure_triple_chow pure_double_chow tile_hog"),
    _f(15, "four_pure_shifted_pungs", 48, "一色四节高", "Four Pure Shifted Pungs",
       "four pungs of one suit stepping by one", "pure_shifted_pungs all_pungs"),
    # 32
    _f(16, "four_pure_shifted_chows", 32, "一色四步高", "Four Pure Shifted Chows",
       "four chows of one suit stepping by one or by two",
       "pure_shifted_chows two_terminal_chows short_straight"),
    _f(17, "three_kongs", 32, "三杠", "Three Kongs", "three kongs"),
    _f(18, "all_terminals_and_honours", 32, "混幺九", "All Terminals and Honours",
       "pungs and pair of terminals and honours only",
       "all_pungs outside_hand pung_of_terminals_or_honours"),
    # 24
    _f(19, "seven_pairs", 24, "七对", "Seven Pairs", "seven pairs",
       "concealed_hand single_wait"),
    _f(20, "greater_honours_and_knitted", 24, "七星不靠", "Greater Honours and Knitted Tiles",
       "all seven honours plus seven knitted 147/258/369 tiles", "all_types concealed_hand"),
    _f(21, "all_even_pungs", 24, "全双刻", "All Even Pungs", "pungs and pair of 2468 only",
       "all_pungs all_simples no_honours"),
    _f(22, "full_flush", 24, "清一色", "Full Flush", "one suit, no honours",
       "one_voided_suit no_honours"),
    _f(23, "pure_triple_chow", 24, "一色三同顺", "Pure Triple Chow", "three identical chows",
       "pure_shifted_pungs pure_double_chow"),
    _f(24, "pure_shifted_pungs", 24, "一色三节高", "Pure Shifted Pungs",
       "three pungs of one suit stepping by one", "pure_triple_chow"),
    _f(25, "upper_tiles", 24, "全大", "Upper Tiles", "suited 7 8 9 only",
       "upper_four no_honours"),
    _f(26, "middle_tiles", 24, "全中", "Middle Tiles", "suited 4 5 6 only",
       "all_simples no_honours"),
    _f(27, "lower_tiles", 24, "全小", "Lower Tiles", "suited 1 2 3 only",
       "lower_four no_honours"),
    # 16
    _f(28, "pure_straight", 16, "清龙", "Pure Straight", "123 456 789 of one suit"),
    _f(29, "three_suited_terminal_chows", 16, "三色双龙会", "Three-Suited Terminal Chows",
       "123+789 in two suits and a pair of 5 in the third",
       "all_chows no_honours mixed_double_chow two_terminal_chows"),
    _f(30, "pure_shifted_chows", 16, "一色三步高", "Pure Shifted Chows",
       "three chows of one suit stepping by one or by two"),
    _f(31, "all_fives", 16, "全带五", "All Fives", "every set and the pair hold a 5",
       "all_simples no_honours"),
    _f(32, "triple_pung", 16, "三同刻", "Triple Pung", "pungs of one number in three suits"),
    _f(33, "three_concealed_pungs", 16, "三暗刻", "Three Concealed Pungs",
       "three concealed pungs/kongs"),
    # 12
    _f(34, "lesser_honours_and_knitted", 12, "全不靠", "Lesser Honours and Knitted Tiles",
       "14 single knitted tiles and honours, no pair", "all_types concealed_hand"),
    _f(35, "knitted_straight", 12, "组合龙", "Knitted Straight",
       "147 258 369 in three different suits"),
    _f(36, "upper_four", 12, "大于五", "Upper Four", "suited 6-9 only", "no_honours"),
    _f(37, "lower_four", 12, "小于五", "Lower Four", "suited 1-4 only", "no_honours"),
    _f(38, "big_three_winds", 12, "三风刻", "Big Three Winds", "three wind pungs"),
    # 8
    _f(39, "mixed_straight", 8, "花龙", "Mixed Straight", "123 456 789 across three suits"),
    _f(40, "reversible_tiles", 8, "推不倒", "Reversible Tiles",
       "only 1234589筒 245689条 白", "one_voided_suit"),
    _f(41, "mixed_triple_chow", 8, "三色三同顺", "Mixed Triple Chow",
       "the same chow in three suits"),
    _f(42, "mixed_shifted_pungs", 8, "三色三节高", "Mixed Shifted Pungs",
       "pungs in three suits stepping by one"),
    _f(43, "chicken_hand", 8, "无番和", "Chicken Hand", "a win with no other fan (flowers aside)"),
    _f(44, "last_tile_draw", 8, "妙手回春", "Last Tile Draw",
       "self-drawn on the last tile of the wall", "self_drawn"),
    _f(45, "last_tile_claim", 8, "海底捞月", "Last Tile Claim", "winning on the last discard"),
    _f(46, "out_with_replacement_tile", 8, "杠上开花", "Out with Replacement Tile",
       "winning on a kong's replacement draw", "self_drawn"),
    _f(47, "robbing_the_kong", 8, "抢杠和", "Robbing the Kong",
       "winning on the tile another adds to a pung", "last_tile"),
    # 6
    _f(48, "all_pungs", 6, "碰碰和", "All Pungs", "four pungs/kongs and a pair"),
    _f(49, "half_flush", 6, "混一色", "Half Flush", "one suit plus honours", "one_voided_suit"),
    _f(50, "mixed_shifted_chows", 6, "三色三步高", "Mixed Shifted Chows",
       "chows in three suits stepping by one"),
    _f(51, "all_types", 6, "五门齐", "All Types", "万 筒 条, a wind and a dragon"),
    _f(52, "melded_hand", 6, "全求人", "Melded Hand",
       "four claimed sets, winning on a discard to the pair", "single_wait"),
    _f(53, "two_concealed_kongs", 6, "双暗杠", "Two Concealed Kongs", "two concealed kongs",
       "concealed_kong"),
    _f(54, "two_dragon_pungs", 6, "双箭刻", "Two Dragon Pungs", "two dragon pungs",
       "dragon_pung"),
    # 5 (not in the seed's table)
    _f(None, "concealed_and_melded_kong", 5, "明暗杠", "Concealed Kong and Melded Kong",
       "exactly one concealed and one melded kong (instead of 暗杠 + 明杠)"),
    # 4
    _f(55, "outside_hand", 4, "全带幺", "Outside Hand",
       "every set and the pair hold a terminal or honour"),
    _f(56, "fully_concealed_hand", 4, "不求人", "Fully Concealed Hand",
       "nothing claimed, self-drawn", "self_drawn"),
    _f(57, "two_melded_kongs", 4, "双明杠", "Two Melded Kongs", "two melded kongs",
       "melded_kong"),
    _f(58, "last_tile", 4, "和绝张", "Last Tile",
       "winning on the last copy (three already visible)"),
    # 2
    _f(59, "dragon_pung", 2, "箭刻", "Dragon Pung", "a pung of dragons"),
    _f(60, "prevalent_wind", 2, "圈风刻", "Prevalent Wind", "a pung of the prevalent wind"),
    _f(61, "seat_wind", 2, "门风刻", "Seat Wind", "a pung of the seat wind"),
    _f(62, "concealed_hand", 2, "门前清", "Concealed Hand",
       "nothing claimed, winning on a discard"),
    _f(63, "all_chows", 2, "平和", "All Chows", "four chows and a suited pair", "no_honours"),
    _f(64, "tile_hog", 2, "四归一", "Tile Hog", "all four copies of a tile used, not as a kong"),
    _f(65, "double_pung", 2, "双同刻", "Double Pung", "pungs of one number in two suits"),
    _f(66, "two_concealed_pungs", 2, "双暗刻", "Two Concealed Pungs", "two concealed pungs"),
    _f(67, "concealed_kong", 2, "暗杠", "Concealed Kong", "a concealed kong"),
    _f(68, "all_simples", 2, "断幺", "All Simples", "no terminals or honours", "no_honours"),
    # 1
    _f(69, "pure_double_chow", 1, "一般高", "Pure Double Chow", "two identical chows"),
    _f(70, "mixed_double_chow", 1, "喜相逢", "Mixed Double Chow", "the same chow in two suits"),
    _f(71, "short_straight", 1, "连六", "Short Straight", "two chows making six in a row"),
    _f(72, "two_terminal_chows", 1, "老少副", "Two Terminal Chows", "123 and 789 of one suit"),
    _f(73, "pung_of_terminals_or_honours", 1, "幺九刻", "Pung of Terminals or Honours",
       "a pung of 1s, 9s or winds (not otherwise counted)"),
    _f(74, "melded_kong", 1, "明杠", "Melded Kong", "a melded kong"),
    _f(75, "one_voided_suit", 1, "缺一门", "One Voided Suit", "one of the three suits missing"),
    _f(76, "no_honours", 1, "无字", "No Honours", "no winds or dragons"),
    _f(77, "edge_wait", 1, "边张", "Edge Wait", "the only wait was 3 of 12 or 7 of 89"),
    _f(78, "closed_wait", 1, "坎张", "Closed Wait", "the only wait was the middle of a chow"),
    _f(79, "single_wait", 1, "单钓将", "Single Wait", "the only wait was the pair"),
    _f(80, "self_drawn", 1, "自摸", "Self-Drawn", "winning on one's own draw"),
    _f(81, "flower_tiles", 1, "花牌", "Flower Tiles",
       "1 per flower; never counted toward the minimum"),
)

FAN_BY_KEY: Final[dict[str, Fan]] = {f.key: f for f in FANS}

# The exclusion lists must only name real fans.
assert all(e in FAN_BY_KEY for f in FANS for e in f.excludes)
assert len(FANS) == 82 and sorted(f.seed_no for f in FANS if f.seed_no) == list(range(1, 82))


def markdown_table() -> str:
    """The fan list as a Markdown table (pasted into docs/fan.md by ``python -m``)."""
    rows = ["| # | 番种 | Fan | value | 不计 (excludes) |", "| ---: | --- | --- | ---: | --- |"]
    for f in FANS:
        excl = ", ".join(FAN_BY_KEY[e].zh for e in f.excludes)
        rows.append(f"| {f.seed_no or '—'} | {f.zh} | {f.en} | {f.value} | {excl} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())


rebuild_from_fields(Fan)  # copy and pickle, compiled too
