"""What a client needs to show a variant without knowing its id (玩法说明): each variant
described as data, served by ``GET /api/variants`` (``laizi.server.variants_api``).

A descriptor says how the wildcard is marked and named (赖子 / 癞子 / 黄金牌, or none), the
indicator's word, the winds in play and where the prevalent wind (圈风) comes from, the
seats, the action and meld labels in Chinese and English, whether people buy horses
(买马), the score-keeper's next-dealer rule and the facts the score-keeper asks for (the
things the tiles cannot show: 全求人 包牌, 圈, 连N, 天听 …, each with its form, when it is
asked and what the next hand keeps of it).

Whatever the variant object already knows is read from it (``laizi.variants.get``): seats,
hand size, whether an indicator gives a wildcard, flowers, its special kongs and extra
actions, its options. The words and the score-keeper's questions are declared here, once.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from laizi.engine.variant import Variant
from laizi.vocab import ActionType, MeldKind, WinHow

__all__ = ["Descriptor", "Fact", "Wildcard", "describe", "descriptor_json"]

Words = tuple[str, str]
"""(Chinese, English)."""

FactForm = Literal["bool", "seat", "count", "wind", "choice"]
@dataclass(frozen=True, slots=True)
class Fact:
    """One question the score-keeper asks about a hand (its record's variant section).

    ``when``: asked on a win only, or on every hand; ``how``: only for these ways of
    winning (empty: any); ``send``: ``always`` writes the value into the record even when
    it is the default, ``set`` only when it is set (true, non-zero, chosen);
    ``carry``: what the next hand's form starts from (``reset`` the default, ``keep`` the
    value, ``streak`` one more when the dealer keeps the deal, else 0)."""

    key: str
    form: FactForm
    default: bool | int | str | None
    label: Words
    when: Literal["win", "always"] = "win"
    how: tuple[WinHow, ...] = ()
    send: Literal["always", "set"] = "set"
    carry: Literal["reset", "keep", "streak"] = "reset"
    maximum: int | None = None
    choices: tuple[tuple[str, Words], ...] = ()


@dataclass(frozen=True, slots=True)
class Wildcard:
    """How a variant's wildcard is shown: the mark on its tiles and its names."""

    mark: str
    word: Words
    indicator: Words


@dataclass(frozen=True, slots=True)
class Descriptor:
    id: str
    order: int
    seats: int
    hand_size: int
    wildcard: Wildcard | None
    winds: tuple[str, ...]
    prevalent_wind: Literal["option", "extra"] | None
    flowers: bool
    horses: bool
    actions: dict[str, Words]
    melds: dict[str, Words]
    facts: tuple[Fact, ...]


_WINDS = ("东", "南", "西", "北")

_ACTIONS: dict[str, Words] = {
    ActionType.DISCARD: ("打", "Discard"), ActionType.WIN: ("胡", "Win"),
    ActionType.CONCEALED_KONG: ("暗杠", "Concealed kong"),
    ActionType.ADDED_KONG: ("补杠", "Added kong"), ActionType.SPECIAL_KONG: ("杠", "Kong"),
    ActionType.CHOW: ("吃", "Chow"), ActionType.PUNG: ("碰", "Pung"),
    ActionType.KONG: ("杠", "Kong"), ActionType.PASS: ("过", "Pass"),
    ActionType.DECLARE: ("听", "Declare ready"),
    ActionType.FLOWER_WIN: ("八仙过海", "八仙过海 (flower win)"),
    ActionType.ROB_FLOWER: ("七抢一", "七抢一 (rob the flower)"),
}
_MELDS: dict[str, Words] = {
    MeldKind.CHOW: ("吃", "chow"), MeldKind.PUNG: ("碰", "pung"),
    MeldKind.KONG: ("明杠", "kong"), MeldKind.ADDED_KONG: ("补杠", "added kong"),
    MeldKind.CONCEALED_KONG: ("暗杠", "concealed kong"),
    MeldKind.RED_DRAGON_KONG: ("红中杠", "red dragon kong"),
    MeldKind.LAIZI_KONG: ("赖子杠", "laizi kong"),
}
_BASE_ACTIONS = (ActionType.DISCARD, ActionType.WIN, ActionType.CONCEALED_KONG,
                 ActionType.ADDED_KONG, ActionType.PASS)
_BASE_MELDS = (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG,
               MeldKind.CONCEALED_KONG)

_LAIZI = Wildcard("赖", ("赖子", "laizi (wildcard)"), ("赖子皮", "indicator"))
_WILDCARDS = {
    "huanghuang": Wildcard("癞", ("癞子", "laizi (wildcard)"), ("癞子皮", "indicator")),
    "golden": Wildcard("金", ("黄金牌", "golden tile"), ("翻牌", "indicator")),
}
"""Each variant's own word for its wildcard (晃晃 writes 癞子, 黄金麻将 黄金牌); 赖子 else."""

_LAST: tuple[Fact, ...] = (
    Fact("last_tile", "bool", False, ("海底 (最后一张)", "Last tile (海底)")),
    Fact("last_copy", "bool", False, ("和绝张", "Last copy (和绝张)")),
)
_SCORE_KEEPER: dict[str, tuple[Fact, ...]] = {
    "jingzhou": (
        Fact("discarder_ready", "bool", True, ("点炮的人当时已听牌 (全求人包牌用)",
                                                "The discarder was ready (for 全求人 包牌)"),
             how=(WinHow.DISCARD,), send="always"),
        Fact("qingyise_feeder", "seat", None,
             ("清一色第三副是谁喂的", "Who fed the 3rd meld of the flush (清一色 包牌)")),
    ),
    "huanghuang": (
        Fact("laizi_discarded", "count", 0, ("打出的癞子张数", "Laizi discarded this hand"),
             when="always", maximum=4),
    ),
    "taiwan": (
        Fact("prevalent_wind", "wind", "东", ("圈风", "Prevalent wind"), when="always",
             send="always", carry="keep"),
        Fact("dealer_streak", "count", 0, ("连庄数 (连N拉N)", "Dealer streak (连N)"), when="always",
             carry="streak", maximum=99),
        Fact("declaration", "choice", None, ("听牌宣告", "Declaration"),
             choices=(("heavenly", ("天听", "天听 heavenly")),
                      ("earthly", ("地听", "地听 earthly")))),
        Fact("first_draw", "bool", False, ("第一次摸牌就胡 (天胡/地胡)",
                                             "Won on the first draw (天胡/地胡)")),
        Fact("last_tile", "bool", False, ("海底 (最后一张)", "Last tile (海底)")),
        Fact("flower_replacement", "bool", False,
             ("补花后自摸", "Self-drawn on a flower's replacement"), how=(WinHow.SELF_DRAW,)),
        Fact("discarders_first_discard", "bool", False,
             ("胡在点炮者的第一张打牌上 (地胡)",
              "On the discarder's first discard (地胡)"), how=(WinHow.DISCARD,)),
    ),
    "golden": _LAST,
    "mcr": _LAST,
}
"""The score-keeper's questions per variant; the next dealer is the variant's own rule
(``Variant.next_dealer``), as at the hall's tables."""

_ORDER = ("jingzhou", "huanghuang", "golden", "taiwan", "mcr")
"""The order the lobby offers the variants in."""


def describe(variant: Variant) -> Descriptor:
    """The descriptor of ``variant``, read from the variant where it knows the fact."""
    vid = variant.id
    options = variant.default_options()
    fields = {f.name for f in dataclasses.fields(variant.options_type)}
    wild = variant.wildcard_for([0], options) is not None
    facts = _SCORE_KEEPER.get(vid, ())
    winds_of = "prevalent_wind" in fields or any(f.key == "prevalent_wind" for f in facts)
    claims = variant.claim_types(options)
    actions = [*_BASE_ACTIONS] + [ActionType(c) for c in sorted(claims)]
    if variant.special_kinds():
        actions.append(ActionType.SPECIAL_KONG)
    actions += sorted(ActionType(a) for a in variant.action_types())
    melds = [*_BASE_MELDS, *sorted(MeldKind(k) for k in variant.special_kinds())]
    return Descriptor(
        id=vid, order=_ORDER.index(vid) if vid in _ORDER else len(_ORDER),
        seats=variant.seats, hand_size=variant.hand_size,
        wildcard=_WILDCARDS.get(vid, _LAIZI) if wild else None,
        winds=_WINDS[:variant.seats],
        prevalent_wind=("option" if "prevalent_wind" in fields
                        else "extra" if winds_of else None),
        flowers=bool(variant.flower_tiles(options)), horses="horses" in fields,
        actions={a.value: _ACTIONS[a] for a in actions},
        melds={m.value: _MELDS[m] for m in melds},
        facts=facts)


def descriptor_json(variant: Variant) -> dict[str, object]:
    """The descriptor as JSON (``GET /api/variants``' ``describe`` field)."""
    d = describe(variant)
    out = dataclasses.asdict(d)
    out["actions"] = {k: list(v) for k, v in d.actions.items()}
    out["melds"] = {k: list(v) for k, v in d.melds.items()}
    out["winds"] = list(d.winds)
    out["wildcard"] = None if d.wildcard is None else {
        "mark": d.wildcard.mark, "word": list(d.wildcard.word),
        "indicator": list(d.wildcard.indicator)}
    out["facts"] = [{"key": f.key, "form": f.form, "default": f.default,
                     "label": list(f.label), "when": f.when,
                     "how": [h.value for h in f.how], "send": f.send, "carry": f.carry,
                     "maximum": f.maximum,
                     "choices": [[c, list(w)] for c, w in f.choices]} for f in d.facts]
    return out
