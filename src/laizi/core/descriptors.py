"""What a client needs to show a variant without knowing its id (玩法说明): the data of a
variant's descriptor, served by ``GET /api/variants`` (``laizi.server.variants_api``).

A descriptor says how the wildcard is marked and named (赖子 / 癞子 / 黄金牌, or none), the
indicator's word, the winds in play and where the prevalent wind (圈风) comes from, the
seats, the action and meld labels in Chinese and English, whether people buy horses
(买马) and the facts the score-keeper asks for (the things the tiles cannot show: 全求人
包牌, 圈, 连N, 天听 …, each with its form, when it is asked and what the next hand keeps
of it).

Each variant describes itself (:meth:`laizi.engine.variant.Variant.descriptor`): what the
variant object knows is read from it (seats, hand size, whether an indicator gives a
wildcard, flowers, its claims, special kongs and extra actions, its options); what it
cannot know — its words and the score-keeper's questions — it declares in its
:class:`Presentation` (``Variant.presentation``), in its own module. The labels of the
engine's own actions and melds, which every variant shares, are here.

This module imports nothing of laizi but the vocabulary: the engine and every variant
build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from laizi.vocab import ActionType, MeldKind, Phase, WinHow

__all__ = ["ACTION_FORMS", "ACTION_WORDS", "LAIZI", "MELD_WORDS", "WINDS", "Descriptor", "Fact",
           "FactForm", "Form", "Presentation", "Wildcard", "Words"]

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

    def to_json(self) -> dict[str, object]:
        return {"key": self.key, "form": self.form, "default": self.default,
                "label": list(self.label), "when": self.when,
                "how": [h.value for h in self.how], "send": self.send, "carry": self.carry,
                "maximum": self.maximum,
                "choices": [[c, list(w)] for c, w in self.choices]}


@dataclass(frozen=True, slots=True)
class Wildcard:
    """How a variant's wildcard is shown: the mark on its tiles and its names."""

    mark: str
    word: Words
    indicator: Words


LAIZI = Wildcard("赖", ("赖子", "laizi (wildcard)"), ("赖子皮", "indicator"))
"""The usual wildcard (赖子), unless a variant names its own."""

WINDS = ("东", "南", "西", "北")

ACTION_WORDS: dict[str, Words] = {
    ActionType.DISCARD: ("打", "Discard"), ActionType.WIN: ("胡", "Win"),
    ActionType.CONCEALED_KONG: ("暗杠", "Concealed kong"),
    ActionType.ADDED_KONG: ("补杠", "Added kong"), ActionType.SPECIAL_KONG: ("杠", "Kong"),
    ActionType.CHOW: ("吃", "Chow"), ActionType.PUNG: ("碰", "Pung"),
    ActionType.KONG: ("杠", "Kong"), ActionType.PASS: ("过", "Pass"),
}
"""The labels of the engine's actions (a variant labels its own action types)."""

Form = tuple[str, str, Words]
"""(action type, context, words): an action's label in a context — a phase (胡 on one's
own turn is 自摸) or, for a special kong, the kind of meld it makes (红中杠, 赖子杠)."""

ACTION_FORMS: tuple[Form, ...] = ((ActionType.WIN, Phase.TURN, ("自摸", "Self-draw win")),)
"""The engine's actions' labels in context."""

MELD_WORDS: dict[str, Words] = {
    MeldKind.CHOW: ("吃", "chow"), MeldKind.PUNG: ("碰", "pung"),
    MeldKind.KONG: ("明杠", "kong"), MeldKind.ADDED_KONG: ("补杠", "added kong"),
    MeldKind.CONCEALED_KONG: ("暗杠", "concealed kong"),
}
"""The labels of the engine's melds (a variant labels its special kongs' kinds)."""


@dataclass(frozen=True, slots=True)
class Presentation:
    """What a variant declares about itself for clients, beside what its rules show.

    ``order``: its place in the lobby (the built-ins take 0-4, any other variant comes
    after them); ``wildcard``: how its wildcard is shown, if it has one; ``actions`` and
    ``melds``: the labels of its own action types and special kongs' meld kinds, and
    ``forms`` its actions' labels in context (:data:`Form`);
    ``facts``: the score-keeper's questions (the next dealer is the variant's own rule,
    ``Variant.next_dealer``, as at the hall's tables)."""

    order: int = 5
    wildcard: Wildcard = LAIZI
    actions: tuple[tuple[str, Words], ...] = ()
    melds: tuple[tuple[str, Words], ...] = ()
    forms: tuple[Form, ...] = ()
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True, slots=True)
class Descriptor:
    """A variant described for clients (``Variant.descriptor()``)."""

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
    forms: dict[str, dict[str, Words]]
    """``{action type: {context: words}}`` (:data:`Form`), for its actions only."""

    def to_json(self) -> dict[str, object]:
        """The descriptor as JSON (``GET /api/variants``' ``describe`` field)."""
        w = self.wildcard
        return {
            "id": self.id, "order": self.order, "seats": self.seats,
            "hand_size": self.hand_size,
            "wildcard": None if w is None else {
                "mark": w.mark, "word": list(w.word), "indicator": list(w.indicator)},
            "winds": list(self.winds), "prevalent_wind": self.prevalent_wind,
            "flowers": self.flowers, "horses": self.horses,
            "actions": {k: list(v) for k, v in self.actions.items()},
            "melds": {k: list(v) for k, v in self.melds.items()},
            "facts": [f.to_json() for f in self.facts],
            "forms": {k: {c: list(w) for c, w in v.items()} for k, v in self.forms.items()}}
