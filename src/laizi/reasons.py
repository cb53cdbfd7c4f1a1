"""Settlement reasons as data: a code and its parameters, with the text made from them.

Every :class:`~laizi.settlement.Payment` is itemised by :class:`Reason` values such as
``Reason.of("base", points=1)`` or ``Reason.of("fan", id="all_pungs", name="碰碰和", fan=6,
count=1)``. Nothing ever parses display text back: code reads ``code`` and ``params``
(:meth:`Reason.param`, :meth:`Reason.items`), people read :meth:`Reason.text` in Chinese
(``"zh"``, the terms as players know them: 底分, 自摸, 点炮, 封顶, 金顶, 包牌, 番, 台, 买马 …)
or English (``"en"``). :data:`CODES` is the one table of codes, their parameters and
their templates; ``docs/hand-record.md`` lists them.

The JSON form (what ``Payment.to_json`` writes) carries both texts, so a client never
needs the templates: ``{"code": "base", "params": {"points": 1}, "zh": "底分 1",
"en": "base 1"}``. :meth:`Reason.from_json` reads it back strictly (the texts, if present,
are made again from the code and parameters).

The texts name seats by number (``0号位``, ``seat 0``): a record knows no names. A client
that knows who sat where uses :meth:`Reason.parts` (the text cut at its seats, added to
the JSON by :func:`with_parts`) and writes the person instead. :class:`Refusal` says in
the same way why a hand record is impossible (:data:`REFUSALS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from laizi.core.jsondata import JSON
from laizi.errors import ErrorCode, LaiziError

__all__ = ["CODES", "LANGS", "REFUSALS", "TERMS", "Lang", "Part", "Reason", "ReasonError",
           "ReasonJSON", "Refusal", "Scalar", "english_term", "payments_with_parts",
           "with_parts"]

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
Scalar = str | int | bool
"""A parameter value: a JSON scalar (whole numbers, strings, true/false)."""
ReasonJSON = JSON


class ReasonError(LaiziError):
    """A reason that is not one of :data:`CODES` with exactly its parameters."""

    default_code = ErrorCode.MALFORMED


# ---------------------------------------------------------------- terms

TERMS: dict[str, str] = {
    # Jingzhou hand types and doublings (the MCR fans and Taiwan 台 items have their own
    # English names in their tables).
    "屁胡": "plain win (pi hu)", "开口": "opened", "口口翻": "every open meld doubles",
    "红中杠": "red dragon kong", "赖子杠": "laizi kong", "庄家": "dealer",
    "点炮": "dealt in", "自摸": "self-draw", "硬胡": "hard win", "软胡": "soft win",
    "封顶": "cap", "金顶": "golden cap", "明杠": "exposed kong", "暗杠": "concealed kong",
    "杠开": "win on kong replacement", "七对": "seven pairs", "碰碰胡": "all pungs",
    "清一色": "full flush", "将一色": "all 2-5-8", "风一色": "all honours",
    "全求人": "all melded", "包牌": "pays for all", "抢杠": "robbed kong",
    "杠进杠出": "robbed kong (as self-draw)", "被抢杠": "kong robbed",
    # 晃晃
    "大刀": "big win (da dao)", "小刀": "small win (xiao dao)", "放胡": "dealt in",
    "杠上开花": "win on kong replacement", "门清": "concealed hand", "买马": "horse bet",
    "打出癞子": "laizi discarded",
    # Taiwan and the rest
    "底": "base (di)", "底分": "base (di fen)", "台": "tai x value", "诈胡": "false win",
    "相公": "dead hand", "错和": "wrong win",
}
"""English for the settlement terms that no fan / 台 table names."""


def english_term(zh: str) -> str:
    """The English of a settlement term: an MCR fan, a Taiwan 台 item or a :data:`TERMS`
    entry (the term itself when none has it)."""
    from laizi.scoring.mcr.fans import FANS
    from laizi.scoring.taiwan.items import ITEMS

    for fan in FANS:
        if fan.zh == zh:
            return fan.en
    for it in ITEMS:
        if it.zh == zh:
            return it.en
    return TERMS.get(zh, zh)


def _plain_seat(seat: Scalar, lang: Lang) -> str:
    return f"{seat}号位" if lang == "zh" else f"seat {seat}"


_SEAT_WORD: ContextVar[Callable[[Scalar, Lang], str]] = ContextVar("seat_word",
                                                                   default=_plain_seat)
"""How a seat parameter is written: ``0号位`` / ``seat 0`` in :meth:`Reason.text`; a
marker while :meth:`Reason.parts` cuts the text at the seats."""


def _seat_zh(seat: Scalar) -> str:
    return _SEAT_WORD.get()(seat, "zh")


def _seat_en(seat: Scalar) -> str:
    return _SEAT_WORD.get()(seat, "en")


# ---------------------------------------------------------------- the table of codes

Params = Mapping[str, Scalar]
Derive = Callable[[Params], dict[str, Scalar]]


@dataclass(frozen=True, slots=True)
class _Code:
    params: Mapping[str, type]
    """Every parameter and its JSON type (``int``, ``str`` or ``bool``)."""
    zh: str
    en: str
    """``str.format`` templates over the parameters and what ``derive`` adds."""
    derive: Derive | None = None
    items: Callable[[Params], tuple[str, ...]] | None = None
    """The hand types / fan / 台 items the reason names (Chinese), for statistics."""
    doc: str = ""


def _const(*names: str) -> Callable[[Params], tuple[str, ...]]:
    return lambda p: names


def _param(name: str) -> Callable[[Params], tuple[str, ...]]:
    return lambda p: (str(p[name]),)


_JZ_HOW = {"discard": ("点炮", "dealt in"), "self_draw": ("自摸", "self-draw"),
           "robbed_kong": ("抢杠 (按自摸)", "robbed kong (settled as a self-draw)")}
_FAN_HOW = {"discard": ("点炮", "dealt in"), "self_draw": ("自摸", "self-draw"),
            "robbed_kong": ("被抢杠", "kong robbed")}
_HH_HOW = {"discard": ("放胡", "dealt in"), "self_draw": ("自摸", "self-draw"),
           "kong_draw": ("杠上开花", "win on a kong's replacement"),
           "rob_kong": ("抢杠", "robbed kong")}
_BAO = {
    "robbed_kong": ("抢杠", "{payer_zh}的补杠被抢, 按{winner_zh}杠上开花付 (杠进杠出)",
                    "robbed kong: {payer_en}'s added kong was robbed; it pays as if "
                    "{winner_en} had won on the kong"),
    "all_melded": ("全求人", "{payer_zh}打出胡牌时未听牌",
                   "all melded: {payer_en} was not ready when it discarded the "
                   "winning tile"),
    "full_flush": ("清一色", "{payer_zh}喂了{winner_zh}同一门的第三副明牌",
                   "full flush: {payer_en} fed {winner_en}'s third exposed meld of "
                   "the suit"),
}


def _how(table: Mapping[str, tuple[str, str]]) -> Derive:
    def derive(p: Params) -> dict[str, Scalar]:
        zh, en = table[str(p["how"])]
        return {"how_zh": zh, "how_en": en}
    return derive


def _how_item(table: Mapping[str, tuple[str, str]]) -> Callable[[Params], tuple[str, ...]]:
    return lambda p: (table[str(p["how"])][0].split(" ")[0],)


_DOUBLING_COUNTS = (("red_dragon_kongs", "红中杠", 1), ("kongs", "明杠", 1),
                    ("laizi_kongs", "赖子杠", 2), ("concealed_kongs", "暗杠", 2))
_DOUBLING_FLAGS = (("dealer", "庄家"), ("dealt_in", "点炮"), ("self_drawn", "自摸"))


def _doubling_list(p: Params) -> list[tuple[str, int]]:
    """(Chinese label, exponent) of a ``doublings`` reason, in the order they are listed."""
    out: list[tuple[str, int]] = []
    n_open = int(p["opened"])
    if n_open:
        out.append((f"口口翻 开口 ×{n_open}", n_open) if p["per_meld"] else ("开口", 1))
    if p["hard"]:
        out.append(("硬胡", 1))
    for key, label, each in _DOUBLING_COUNTS:
        k = int(p[key])
        if k:
            out.append((label if k == 1 else f"{label} ×{k}", k * each))
    out.extend((label, 1) for key, label in _DOUBLING_FLAGS if p[key])
    return out


def _english_label(label: str) -> str:
    word, _, rest = label.partition(" ")
    if word == "口口翻":
        return f"every open meld doubles, opened {rest.split(' ', 1)[1]}"
    return f"{TERMS.get(word, word)} {rest}".strip()


def _doublings(p: Params) -> dict[str, Scalar]:
    items = _doubling_list(p)
    return {
        "who_zh": "赢家" if p["winner"] else _seat_zh(p["seat"]),
        "who_en": "winner" if p["winner"] else _seat_en(p["seat"]),
        "list_zh": ", ".join(f"{label} +{e}" for label, e in items) or "无",
        "list_en": ", ".join(f"{_english_label(label)} +{e}" for label, e in items) or "none",
    }


def _doubling_items(p: Params) -> tuple[str, ...]:
    return tuple(label.split(" ")[0] for label, _ in _doubling_list(p))


def _bao(p: Params) -> dict[str, Scalar]:
    term, zh, en = _BAO[str(p["kind"])]
    fields = {"payer_zh": _seat_zh(p["payer"]), "winner_zh": _seat_zh(p["winner"]),
              "payer_en": _seat_en(p["payer"]), "winner_en": _seat_en(p["winner"])}
    return {"term": term, "why_zh": zh.format(**fields), "why_en": en.format(**fields)}


def _tai(p: Params) -> dict[str, Scalar]:
    from laizi.scoring.taiwan.items import BY_ID

    d = BY_ID.get(str(p["id"]))
    en = d.en.replace("连N拉N", str(p["item"])) if d is not None else str(p["item"])
    return {"item_en": en}


def _tai_items(p: Params) -> tuple[str, ...]:
    from laizi.scoring.taiwan.items import BY_ID

    d = BY_ID.get(str(p["id"]))
    return (d.zh if d is not None and d.id == "dealer_streak" else str(p["item"]),)


def _fan(p: Params) -> dict[str, Scalar]:
    from laizi.scoring.mcr.fans import FAN_BY_KEY

    f = FAN_BY_KEY.get(str(p["id"]))
    count = int(p["count"])
    times = f" ×{count}" if count > 1 else ""
    return {"name_en": f.en if f is not None else str(p["name"]), "times": times}


def _hand(p: Params) -> dict[str, Scalar]:
    name = str(p["name"])
    return {"name_en": TERMS.get(name) or english_term(name)}


def _dao(p: Params) -> dict[str, Scalar]:
    big = [(zh, en) for key, zh, en in (("menqing", "门清", "concealed self-draw"),
                                         ("all_pungs", "碰碰胡", "all pungs"),
                                         ("seven_pairs", "七对", "seven pairs")) if p[key]]
    if not big:
        return {"dao_zh": "小刀", "dao_en": "small win (小刀)", "why_zh": "", "why_en": ""}
    return {"dao_zh": "大刀", "dao_en": "big win (大刀)",
            "why_zh": f" ({'、'.join(zh for zh, _ in big)})",
            "why_en": f" ({', '.join(en for _, en in big)})"}


def _dao_items(p: Params) -> tuple[str, ...]:
    big = tuple(zh for key, zh in (("menqing", "门清"), ("all_pungs", "碰碰胡"),
                                   ("seven_pairs", "七对")) if p[key])
    return ("大刀", *big) if big else ("小刀",)


def _horse(p: Params) -> dict[str, Scalar]:
    from laizi import tiles

    return {"tile_zh": tiles.name(tiles.parse_tile(str(p["tile"])), "chinese"),
            "seat_zh": _seat_zh(p["seat"]), "payer_zh": _seat_zh(p["payer"]),
            "payee_zh": _seat_zh(p["payee"]), "seat_en": _seat_en(p["seat"]),
            "payer_en": _seat_en(p["payer"]), "payee_en": _seat_en(p["payee"])}


def _seat(p: Params) -> dict[str, Scalar]:
    return {"seat_zh": _seat_zh(p["seat"]), "seat_en": _seat_en(p["seat"])}


CODES: dict[str, _Code] = {
    # -- shared
    "base": _Code({"points": int}, "底分 {points}", "base {points}",
                  doc="the base (底分) every loser pays (晃晃, MCR / golden)"),
    "note": _Code({"text": str}, "{text}", "{text}",
                  doc="free text of a plug-in variant, the same in every language"),
    # -- 荆州麻将
    "hand": _Code({"name": str, "points": int}, "{name} {points}", "{name_en} {points}",
                  derive=_hand, items=_param("name"),
                  doc="a hand type and its points: 屁胡 1, or a big hand 10 each"),
    "win_bonus": _Code({"how": str, "points": int}, "{how_zh} +{points}",
                       "{how_en} +{points}", derive=_how(_JZ_HOW), items=_how_item(_JZ_HOW),
                       doc="a big hand's +10 for 点炮 / 自摸 / 抢杠 (how: discard, "
                           "self_draw, robbed_kong)"),
    "doublings": _Code(
        {"seat": int, "winner": bool, "opened": int, "per_meld": bool, "hard": bool,
         "red_dragon_kongs": int, "kongs": int, "laizi_kongs": int, "concealed_kongs": int,
         "dealer": bool, "dealt_in": bool, "self_drawn": bool},
        "{who_zh}翻倍: {list_zh}", "{who_en} doublings: {list_en}", derive=_doublings,
        items=_doubling_items,
        doc="one seat's doublings (the winner's, or one loser's): opened (开口, or 口口翻 "
            "per open meld when per_meld), 硬胡, the kongs, 庄家, 点炮, 自摸"),
    "line_total": _Code({"base": int, "exp": int, "amount": int},
                        "{base} × 2^{exp} = {amount}", "{base} × 2^{exp} = {amount}",
                        doc="one loser's line before the cap: base × 2^exp"),
    "cap": _Code({"points": int}, "封顶 {points}", "cap {points}", items=_const("封顶"),
                 doc="the line is capped (封顶)"),
    "gold_hand": _Code({"points": int}, "金顶 {points} (将一色 / 风一色)",
                       "golden cap {points} (all 2-5-8 / all honours)",
                       items=_const("金顶"), doc="金顶 for 将一色 / 风一色"),
    "gold_cap": _Code({"points": int, "cap": int}, "金顶 {points} (每条都到封顶 {cap})",
                      "golden cap {points} (every line reached the cap {cap})",
                      items=_const("金顶"), doc="金顶 because every line reached the cap"),
    "unit": _Code({"times": int}, "底分 ×{times}", "base unit ×{times}",
                  doc="the table's base unit multiplies the line"),
    "bao": _Code({"kind": str, "payer": int, "winner": int}, "包牌 ({term}): {why_zh}",
                 "pays for all (包牌): {why_en}", derive=_bao, items=_const("包牌"),
                 doc="包牌: payer pays every line (kind: robbed_kong 抢杠, all_melded "
                     "全求人, full_flush 清一色)"),
    "bao_line": _Code({"seat": int, "amount": int}, "代付{seat_zh}的一条 {amount}:",
                      "for {seat_en}'s line of {amount}:", derive=_seat,
                      doc="包牌: the line of this loser follows, with its reasons"),
    # -- 荆州晃晃
    "dao": _Code({"times": int, "menqing": bool, "all_pungs": bool, "seven_pairs": bool},
                 "{dao_zh} ×{times}{why_zh}", "{dao_en} ×{times}{why_en}", derive=_dao,
                 items=_dao_items, doc="刀: 大刀 ×2 (门清, 碰碰胡 or 七对) or 小刀 ×1"),
    "ying": _Code({"hard": bool, "times": int}, "{ying_zh} ×{times}", "{ying_en} ×{times}",
                  derive=lambda p: {"ying_zh": "硬胡" if p["hard"] else "软胡",
                                    "ying_en": "hard win" if p["hard"] else "soft win"},
                  items=lambda p: ("硬胡" if p["hard"] else "软胡",),
                  doc="硬: 硬胡 ×2 or 软胡 ×1"),
    "win_times": _Code({"how": str, "times": int}, "{how_zh} ×{times}", "{how_en} ×{times}",
                       derive=_how(_HH_HOW), items=_how_item(_HH_HOW),
                       doc="how 晃晃 was won (how: discard 放胡, self_draw 自摸, kong_draw "
                           "杠上开花, rob_kong 抢杠)"),
    "laizi_discarded": _Code({"count": int, "times": int}, "打出癞子 {count} 张 ×{times}",
                             "{count} laizi discarded ×{times}", items=_const("打出癞子"),
                             doc="laizi discarded in the hand, ×2 each"),
    "horse": _Code({"tile": str, "value": int, "seat": int, "payer": int, "payee": int},
                   "买马 {tile_zh} = {value} → {seat_zh}: 跟随 {payer_zh} → {payee_zh}",
                   "horse bet (买马) {tile} = {value} → {seat_en}: follows {payer_en} "
                   "→ {payee_en}", derive=_horse, items=_const("买马"),
                   doc="a horse (tile in MPSZ) on seat follows the payment payer → payee; "
                       "the table payment's reasons follow"),
    # -- 国标 / 黄金
    "fan_win": _Code({"how": str, "base": int, "fan": int}, "{how_zh} {base} + {fan}番",
                     "{how_en}: {base} + {fan} fan", derive=_how(_FAN_HOW),
                     items=_how_item(_FAN_HOW),
                     doc="the full payment 8 + V of a self-draw, or of the discarder / "
                         "robbed seat"),
    "fan": _Code({"id": str, "name": str, "fan": int, "count": int}, "{name}{times} {fan}番",
                 "{name_en}{times} {fan} fan", derive=_fan, items=_param("name"),
                 doc="one fan of the winner's hand (id: the MCR table's key), count times"),
    "golden_factor": _Code({"winner": int, "payer": int, "factor": int},
                           "×2^({winner}+{payer}) = ×{factor} (开口/杠)",
                           "×2^({winner}+{payer}) = ×{factor} (opened / kongs)",
                           doc="golden: the winner's and the payer's doublings"),
    # -- 台湾十六张
    "tai_base": _Code({"points": int}, "底 {points}", "base {points}",
                      doc="Taiwan's base (底) of a payment"),
    "tai": _Code({"id": str, "item": str, "tai": int}, "{item} {tai}台",
                 "{item_en} {tai} tai", derive=_tai, items=_tai_items,
                 doc="one 台 item (id: the 台 table's id)"),
    "tai_total": _Code({"tai": int, "value": int, "amount": int},
                       "{tai}台 × {value} = {amount}", "{tai} tai × {value} = {amount}",
                       doc="台 × 台值"),
    "false_win": _Code({}, "诈胡 包赔", "false win (诈胡): pays as for a self-draw",
                       items=_const("诈胡"), doc="诈胡: the offender pays everyone"),
    "wrong_win": _Code({}, "错和", "wrong win (错和)", items=_const("错和"),
                       doc="错和 (MCR profile=botzone): a 胡 without a win pays each other "
                           "player 10, as Botzone's judge"),
    "dead_hand": _Code({"seat": int}, "相公代付 {seat_zh}",
                       "dead hand (相公) pays for {seat_en}", derive=_seat,
                       items=_const("相公"), doc="相公: the dead seat pays in seat's place"),
}
"""Every reason code: its parameters (and types), Chinese and English templates."""


# ---------------------------------------------------------------- the value


def _type_ok(value: object, kind: type) -> bool:
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


_MADE: dict[tuple[object, ...], Reason] = {}  # Reason.of's, by its arguments


@dataclass(frozen=True, slots=True)
class Reason:
    """One item of a payment: ``code`` (a key of :data:`CODES`) and its ``params``.

    ``params`` are ``(name, value)`` pairs sorted by name (build with :meth:`of`); the
    value is hashable and compares by code and parameters only.
    """

    code: str
    params: tuple[tuple[str, Scalar], ...] = ()

    def __post_init__(self) -> None:
        spec = CODES.get(self.code)
        if spec is None:
            raise ReasonError(f"unknown reason code {self.code!r}; known: "
                              f"{', '.join(sorted(CODES))}")
        if len(self.params) != len(spec.params) or any(
                k not in spec.params for k, _ in self.params):
            raise ReasonError(f"reason {self.code!r} takes the parameters "
                              f"{', '.join(spec.params) or 'none'}, got "
                              f"{', '.join(k for k, _ in self.params) or 'none'}")

    @classmethod
    def of(cls, code: str, **params: Scalar) -> Reason:
        """``Reason.of("base", points=1)``; made once per arguments and their types."""
        key = (cls, code, *params.items(), *map(type, params.values()))  # True == 1
        got = _MADE.get(key)
        if got is None:
            if len(_MADE) >= 4_096:  # (bounded: amounts vary)
                _MADE.clear()
            got = _MADE[key] = cls(code, tuple(sorted(params.items())))
        return got

    def param(self, name: str) -> Scalar:
        for k, v in self.params:
            if k == name:
                return v
        raise KeyError(f"reason {self.code!r} has no parameter {name!r}")

    def params_dict(self) -> dict[str, Scalar]:
        return dict(self.params)

    def text(self, lang: Lang = "zh") -> str:
        """The reason for people: ``"zh"`` (the default) or ``"en"``."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
        return _text(self, lang)

    def parts(self, lang: Lang = "zh") -> list[Part]:
        """:meth:`text` cut where it names a seat: strings, and ``{"seat": n}`` (``n`` the
        0-based seat of the hand) in place of ``n号位`` / ``seat n``. A client that knows
        who sat where writes the person's name there; joined with the seat words, the
        parts are exactly :meth:`text`."""
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
        return _parts(lambda lg: _render(self, lg), lang)

    def items(self) -> tuple[str, ...]:
        """The hand types / fan / 台 items this reason names, as Chinese terms (what
        ``laizi simulate`` counts); ``()`` for amounts, bases and formulas."""
        spec = CODES[self.code]
        return spec.items(dict(self.params)) if spec.items is not None else ()

    def __str__(self) -> str:
        return self.text("zh")

    def to_json(self) -> ReasonJSON:
        return {"code": self.code, "params": dict(self.params), "zh": self.text("zh"),
                "en": self.text("en")}

    @classmethod
    def from_json(cls, data: object) -> Reason:
        """Read a reason written by :meth:`to_json`: exactly ``code`` and ``params`` (and
        optionally the texts ``zh`` / ``en``, which are made again), every parameter of
        the code with its JSON type."""
        if not isinstance(data, dict):
            raise ReasonError(f"a reason is an object {{\"code\", \"params\"}}, got {data!r}")
        unknown = sorted(set(data) - {"code", "params", "zh", "en"})
        if unknown:
            raise ReasonError(f"unknown reason field(s) {', '.join(map(repr, unknown))}")
        code, params = data.get("code"), data.get("params")
        if not isinstance(code, str) or code not in CODES:
            raise ReasonError(f"unknown reason code {code!r}; known: {', '.join(sorted(CODES))}")
        if not isinstance(params, dict):
            raise ReasonError(f"reason {code!r}: params must be an object, got {params!r}")
        for lang in LANGS:
            if lang in data and not isinstance(data[lang], str):
                raise ReasonError(f"reason {code!r}: {lang} must be a string")
        spec = CODES[code]
        if set(params) != set(spec.params):
            raise ReasonError(f"reason {code!r} takes the parameters "
                              f"{', '.join(spec.params) or 'none'}, got "
                              f"{', '.join(map(str, params)) or 'none'}")
        for name, kind in spec.params.items():
            if not _type_ok(params[name], kind):
                want = {int: "a whole number", str: "a string", bool: "true or false"}[kind]
                raise ReasonError(f"reason {code!r}: {name} must be {want}, "
                                  f"got {params[name]!r}")
        return cls.of(code, **params)


def _render(reason: Reason | Refusal, lang: Lang) -> str:
    spec = (REFUSALS if isinstance(reason, Refusal) else CODES)[reason.code]
    fields: dict[str, Scalar] = dict(reason.params)
    if spec.derive is not None:
        fields.update(spec.derive(fields))
    return (spec.zh if lang == "zh" else spec.en).format(**fields)


_text = lru_cache(maxsize=4096)(_render)

_MARK = "\x00"


def _marked(seat: Scalar, lang: Lang) -> str:
    return f"{_MARK}{seat}{_MARK}"


Part = str | dict[str, int]
"""A piece of a reason's text: words, or ``{"seat": n}`` where a seat is named."""


def _parts(render: Callable[[Lang], str], lang: Lang) -> list[Part]:
    token = _SEAT_WORD.set(_marked)
    try:
        text = render(lang)
    finally:
        _SEAT_WORD.reset(token)
    out: list[Part] = []
    for i, piece in enumerate(text.split(_MARK)):
        if i % 2:
            out.append({"seat": int(piece)})
        elif piece:
            out.append(piece)
    return out


def with_parts(reason: ReasonJSON) -> ReasonJSON:
    """A reason's JSON (as :meth:`Reason.to_json` writes it) with its ``parts`` added:
    ``{"zh": [...], "en": [...]}``, each text cut where it names a seat (see
    :meth:`Reason.parts`), so a client writes the person of the seat there."""
    r = Reason.from_json({k: v for k, v in reason.items() if k != "parts"})
    return {**reason, "parts": {lang: r.parts(lang) for lang in LANGS}}


def payments_with_parts(payments: Sequence[JSON]) -> list[JSON]:
    """Payments' JSON (``Payment.to_json``, or a person payment's) with every reason's
    ``parts`` added (:func:`with_parts`). The logged settlement itself never changes."""
    return [{**p, "reasons": [with_parts(r) for r in p.get("reasons", ())]}
            for p in payments]


# ---------------------------------------------------------------- refusals


def _too_many(p: Params) -> dict[str, Scalar]:
    from laizi import tiles

    have = int(p["available"])
    return {"tile_zh": tiles.name(tiles.parse_tile(str(p["tile"])), "chinese"),
            "have_zh": "没有这张牌" if have == 0 else f"只有 {have} 张",
            "have_en": "the set has none" if have == 0 else f"the set has {have}"}


REFUSALS: dict[str, _Code] = {
    "not_won": _Code({"seat": int, "why_zh": str, "why_en": str},
                     "{seat_zh}没有胡：{why_zh}", "{seat_en} has not won: {why_en}",
                     derive=_seat, doc="the winner's tiles do not win (why, in both "
                                       "languages)"),
    "too_many": _Code({"tile": str, "used": int, "available": int},
                      "{tile_zh}写了 {used} 张，这套牌{have_zh}",
                      "{tile} appears {used} times but {have_en}", derive=_too_many,
                      doc="more copies of a tile (MPSZ) than the variant's set has"),
    "invalid": _Code({"detail": str}, "{detail}", "{detail}",
                     doc="any other refusal of a hand record (its message, in English)"),
}
"""Why the score-keeper refuses a hand record: like :data:`CODES`, words made from a
code and its parameters, seats cut out by :meth:`Refusal.parts`."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a hand record is impossible, as data (``code`` a key of :data:`REFUSALS`):
    :meth:`text` in Chinese or English, :meth:`parts` with the seats cut out."""

    code: str
    params: tuple[tuple[str, Scalar], ...] = ()

    def __post_init__(self) -> None:
        spec = REFUSALS.get(self.code)
        if spec is None or {k for k, _ in self.params} != set(spec.params):
            raise ReasonError(f"not a refusal: {self.code!r} {dict(self.params)!r}")

    @classmethod
    def of(cls, code: str, **params: Scalar) -> Refusal:
        return cls(code, tuple(sorted(params.items())))

    def text(self, lang: Lang = "zh") -> str:
        return _render(self, lang)

    def parts(self, lang: Lang = "zh") -> list[Part]:
        return _parts(lambda lg: _render(self, lg), lang)

    def to_json(self) -> JSON:
        """``{"code", "params", "zh", "en", "parts": {"zh", "en"}}``."""
        return {"code": self.code, "params": dict(self.params),
                **{lang: self.text(lang) for lang in LANGS},
                "parts": {lang: self.parts(lang) for lang in LANGS}}
