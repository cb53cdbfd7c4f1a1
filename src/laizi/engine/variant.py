"""The small interface every rule set implements (荆州, 晃晃, 黄金, 台湾, 国标).

The engine (:mod:`laizi.engine.game`) owns everything the variants share: the wall, the
deal, the turn loop, claims and their priority, 过水, robbing an added kong, the
exhaustive draw and the event log. A variant answers questions through the hooks below;
every hook has a plain default so a new variant overrides only what differs.

Hooks receive the live hand, typed :class:`~laizi.engine.state.HandState` (the
engine's :class:`~laizi.engine.game.Game`; read it, do not mutate it, except
``game.extra`` — a JSON-serialisable dict that belongs to the variant — and the documented
``setup`` duties). Settlement is a pure function of a :class:`~laizi.core.records.HandRecord`,
so the score-keeper (``laizi score``) and live play share one path.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from laizi.core.descriptors import (
    ACTION_FORMS,
    ACTION_WORDS,
    MELD_WORDS,
    WINDS,
    Descriptor,
    Form,
    Presentation,
    Words,
)
from laizi.core.jsondata import JSON
from laizi.core.melds import Meld
from laizi.core.records import DRAW, HandRecord
from laizi.engine.actions import DISCARD, PASS, WIN, Action
from laizi.engine.state import HandState
from laizi.errors import ErrorCode, IllegalActionError
from laizi.settlement import Payment
from laizi.vocab import ActionType, MeldKind, TurnStart

__all__ = ["Variant"]


# A rule set of one's own (tests, plug-ins) subclasses Variant in plain Python even when
# the package is compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class Variant(ABC):
    """A rule set. Subclass, set the class attributes, implement the abstract methods and
    register an instance with :func:`laizi.variants.register`."""

    id: ClassVar[str]
    """Registry id, e.g. ``"jingzhou"``."""
    name: ClassVar[str]
    """Human name, e.g. ``"荆州麻将 · 红中赖子杠"``."""
    seats: ClassVar[int] = 4
    hand_size: ClassVar[int] = 13
    """Tiles dealt to each seat; the dealer gets one more (Taiwan: 16)."""
    discarder_matters: ClassVar[bool] = True
    """Whether :meth:`win_refusal` of a win on a discard can depend on who discarded it
    (``game.turn``); ``False`` lets the 听牌 hints ask once a tile, not once a seat."""
    options_type: ClassVar[type[Any]]
    """A frozen dataclass of the table options (house rules), every field defaulted."""
    presentation: ClassVar[Presentation] = Presentation()
    """What clients are told beside the rules (:meth:`descriptor`): the lobby's order, the
    wildcard's mark and words, the labels of the variant's own actions and meld kinds, the
    score-keeper's questions."""

    # ------------------------------------------------------------------ options

    def default_options(self) -> Any:
        return self.options_type()

    def options_from_json(self, data: JSON | None) -> Any:
        """Build options from JSON; unknown keys are an error naming the key."""
        data = dict(data or {})
        names = {f.name for f in dataclasses.fields(self.options_type)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(
                f"unknown {self.id} option(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(names))}"
            )
        # JSON has lists where the options hold tuples (they are frozen and hashable)
        return self.options_type(**{k: _tuples(v) for k, v in data.items()})

    def options_to_json(self, options: Any) -> JSON:
        return dict(dataclasses.asdict(options))

    # ------------------------------------------------------------------ tiles and wall

    @abstractmethod
    def tile_set(self, options: Any) -> list[int]:
        """Every tile of the wall (with repeats), e.g. 96 tiles for Jingzhou."""

    def reserve(self, options: Any) -> int:
        """Live-wall tiles left at which the hand is drawn (黄庄): no draw is made then."""
        return 0

    def flower_tiles(self, options: Any) -> frozenset[int]:
        """Tiles set aside on drawing and replaced from the tail (补花)."""
        return frozenset()

    def wildcard_for(self, indicators: Sequence[int], options: Any) -> int | None:
        """The wildcard (赖子 / 黄金牌) the revealed indicators give, or ``None``."""
        return None

    def special_kinds(self) -> frozenset[str]:
        """Meld kinds of this variant's special kongs (used to validate records)."""
        return frozenset()

    def setup(self, game: HandState) -> None:
        """After the deal: reveal indicators (``game.reveal_indicator()`` takes one tile from
        the tail out of play) and set ``game.wildcard`` (a tile id or ``None``)."""
        return None

    # ------------------------------------------------------------------ play hooks

    def multiple_winners(self, options: Any) -> bool:
        """True: every seat that wins on one discard wins (一炮多响); False: only the
        nearest after the discarder (一炮单响 / 截胡)."""
        return False

    def win_order(self, game: HandState, seats: Sequence[int]) -> list[int]:
        """Seats that declared a win on one tile (a discard or a robbed kong), best first.
        They come nearest after the discarder first; with one winner per discard only the
        first wins. Override for another priority (e.g. counted from the dealer)."""
        return list(seats)

    def claim_types(self, options: Any) -> frozenset[str]:
        """Which claims on a discard exist: a subset of ``{"chow", "pung", "kong"}``."""
        return frozenset({"chow", "pung", "kong"})

    def meld_blocked(self, game: HandState) -> frozenset[int]:
        """Tiles that never take part in a chow, pung or kong (e.g. the laizi)."""
        return frozenset()

    def special_kongs(self, game: HandState) -> dict[int, str]:
        """One-tile kongs a seat may play out on its own turn, mapped to their meld kind
        (e.g. ``{33: "red_dragon_kong"}``). The tile goes face up in front of the seat as a
        one-tile meld, the seat draws a replacement from the tail; nobody can claim or win
        on it."""
        return {}

    def undiscardable(self, game: HandState, seat: int) -> frozenset[int]:
        """Tiles ``seat`` may not discard as an ordinary tile now (e.g. 中 and the laizi,
        which can only be played out as special kongs)."""
        return frozenset()

    def discard_refusal(self, game: HandState, seat: int, tile: int) -> str | None:
        """Why ``tile`` may not be discarded now (``None`` if it may); the message shown
        for an illegal discard of a tile in :meth:`undiscardable`."""
        if tile in self.undiscardable(game, seat):
            return f"{self.id}: this tile cannot be discarded as an ordinary tile"
        return None

    @abstractmethod
    def win_refusal(self, game: HandState, seat: int, tile: int, how: str) -> str | None:
        """Why ``seat`` may not win with ``tile`` now (``None`` if the win is legal).

        ``how`` is one of :data:`HOW`. For a self-draw ``tile`` is already in the hand; for
        a discard or a robbed kong it is not. The engine has already applied 过水; the
        variant judges the hand (shape, minimums, anything else)."""

    def may_win(self, game: HandState, seat: int, counts: Sequence[int]) -> bool:
        """A cheap necessary condition for a win: could ``counts`` (the seat's concealed
        tiles with the winning tile, 3n+2) win at all, by any route? ``False`` only where
        :meth:`win_refusal` would refuse every way of winning with them; the 听牌 hints
        (:mod:`laizi.engine.hints`) skip such tiles without asking. The default, ``True``,
        makes them ask :meth:`win_refusal` of every tile."""
        return True

    # ------------------------------------------------------------------ variant actions
    # Generic hooks for rules the shared turn/claim loop does not know (Taiwan: 天听/地听
    # declarations that lock a hand, 花胡 and 七抢一). Every default leaves play unchanged.

    def action_types(self) -> frozenset[str]:
        """The variant's own action types (besides the engine's), e.g. ``{"declare"}``."""
        return frozenset()

    def turn_actions(self, game: HandState, seat: int) -> list[Action]:
        """Extra actions of the seat in ``turn`` (carried out by :meth:`apply_action`)."""
        return []

    def restrict(self, game: HandState, seat: int, actions: list[Action]) -> list[Action]:
        """Filter the seat's options: its turn actions, and its claim (or rob) options
        before ``pass`` is added (an empty result means the seat is not asked). Default:
        unchanged. E.g. a locked (declared) Taiwan hand may only win or discard the drawn
        tile."""
        return actions

    def plain_turn(self, game: HandState, seat: int) -> bool:
        """Whether ``seat``'s turn options now are exactly the engine's core ones
        (:meth:`turn_actions` adds none, :meth:`restrict` removes none). The search's
        playouts then choose without building the list of legal actions; ``False``,
        always a safe answer, makes them ask the engine. Default: true when the variant
        overrides neither hook."""
        cls = type(self)
        return cls.turn_actions is Variant.turn_actions and cls.restrict is Variant.restrict

    def action_refusal(self, game: HandState, action: Action) -> str | None:
        """The rule an illegal ``action`` breaks, when the variant knows it better than the
        engine (e.g. "locked hand: discard the tile you drew"); ``None``: engine message."""
        return None

    def on_action(self, game: HandState, action: Action) -> None:
        """Called with every legal action just before the engine carries it out (track
        facts in ``game.extra``: first discards, passed wins, …)."""
        return None

    def apply_action(self, game: HandState, action: Action) -> None:
        """Carry out one of the variant's own turn actions (use the ``Game`` primitives
        ``end_win``, ``ask``, ``draw_replacement``, ``move_flower``)."""
        raise NotImplementedError(f"{self.id} has no action {action.type!r}")

    def start(self, game: HandState) -> None:
        """After the deal and the dealt flowers' replacement, before the dealer acts; may
        open a ``decide`` phase with ``game.ask(...)`` (ended by :meth:`resolve`)."""
        return None

    def on_flower(self, game: HandState, seat: int, flower: int) -> None:
        """A flower drawn in play (not in the deal) was just set aside, before its
        replacement; may ``game.ask(...)``: the draw then waits until ``game.resume()``."""
        return None

    def resolve(self, game: HandState, responses: dict[int, Action]) -> None:
        """Every seat asked in a ``decide`` phase answered: move the game on, with
        ``game.resume()`` (go on as before) or a primitive that ends the hand."""
        raise NotImplementedError(f"{self.id} opened a decide phase it cannot resolve")

    def view_extra(self, game: HandState, seat: int) -> JSON:
        """Public variant facts for ``view(seat)["extra"]`` (omitted when empty)."""
        return {}

    def restore_extra(self, game: HandState, view_extra: JSON) -> None:
        """Put the public facts of ``view_extra`` (what :meth:`view_extra` showed) back
        into ``game.extra`` of a state rebuilt from a view (the search bot's samples), so
        the rebuilt state plays by the same history. Called again after a pending
        decision is re-entered, so it must set, not add. Nothing by default."""
        return None

    def on_claim(self, game: HandState, seat: int, meld: Meld) -> None:
        """After ``seat`` claimed a discard into ``meld`` (e.g. track 包牌 facts)."""
        return None

    def record_extra(
        self, game: HandState, winners: Sequence[int], how: str | None, source: int | None
    ) -> JSON:
        """The variant section of the hand record written at the end of a hand."""
        return {}

    # ------------------------------------------------------------------ settlement

    def settles_wrong_win(self, options: Any) -> bool:
        """Whether a 错和 (:data:`~laizi.engine.actions.WRONG_WIN`, a 胡 declared without a
        win) ends a hand of these options, settled by :meth:`settle` (a record whose
        outcome is ``wrong_win``): MCR's ``profile=botzone``. Nowhere else by default."""
        return False

    @abstractmethod
    def validate_record(self, record: HandRecord) -> None:
        """Raise :class:`~laizi.core.records.RecordError` if the record cannot be a real hand
        of this variant (the common checks have already been made)."""

    @abstractmethod
    def settle(self, record: HandRecord) -> list[Payment]:
        """Payments of a finished hand: a pure function of the record."""

    def hand_options(self, options: Any, hand_number: int) -> Any:
        """The options of hand ``hand_number`` (0-based) of a match, from the match's
        options: e.g. the prevalent wind (圈风) that moves on every 4 hands. Default: the
        match's options unchanged."""
        return options

    def describe(self, record: HandRecord) -> str:
        """One line naming the outcome (hand type, …) for people; empty if nothing to add."""
        return ""

    def default_action(self, game: HandState, seat: int) -> Action:
        """What a seat does when its person does not answer (托管): always one of its
        legal actions. A win when there is one (nobody declines a legal win); otherwise
        ``pass`` in a window; on its turn the drawn tile if it may go, else the highest
        discardable tile that is not the wildcard (a wildcard is worth keeping), else
        whatever is legal (a special kong when nothing may be discarded)."""
        legal = game.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} has no decision now",
                                     code=ErrorCode.NO_DECISION, seat=seat, phase=game.phase)
        for kind in (WIN, PASS):
            for a in legal:
                if a.type == kind:
                    return a
        discards = [a for a in legal if a.type == DISCARD]
        if discards:
            if game.turn_kind != TurnStart.CLAIMED:
                for a in discards:
                    if a.tile == game.last_tile:
                        return a
            plain = [a for a in discards if a.tile != game.wildcard]
            return (plain or discards)[-1]
        return legal[0]

    def next_dealer(self, record: HandRecord) -> int:
        """Dealer of the next hand. Default: the dealer keeps the deal on a win by the
        dealer or a draw, otherwise the next seat deals."""
        if record.outcome == DRAW or record.dealer in record.winners:
            return record.dealer
        return (record.dealer + 1) % self.seats

    # ------------------------------------------------------------------ clients

    def descriptor(self) -> Descriptor:
        """The variant described to clients (玩法说明, ``GET /api/variants``): read from
        the variant where it knows the fact, the rest from its :attr:`presentation`."""
        shown = self.presentation
        options = self.default_options()
        fields = {f.name for f in dataclasses.fields(self.options_type)}
        winds_of = "prevalent_wind" in fields or any(
            f.key == "prevalent_wind" for f in shown.facts)
        actions = [ActionType.DISCARD, ActionType.WIN, ActionType.CONCEALED_KONG,
                   ActionType.ADDED_KONG, ActionType.PASS]
        actions += sorted(ActionType(c) for c in self.claim_types(options))
        if self.special_kinds():
            actions.append(ActionType.SPECIAL_KONG)
        actions += sorted(ActionType(a) for a in self.action_types())
        melds = [MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG,
                 MeldKind.CONCEALED_KONG]
        melds += sorted(MeldKind(k) for k in self.special_kinds())
        return Descriptor(
            id=self.id, order=shown.order, seats=self.seats, hand_size=self.hand_size,
            wildcard=shown.wildcard if self.wildcard_for([0], options) is not None else None,
            winds=WINDS[:self.seats],
            prevalent_wind=("option" if "prevalent_wind" in fields
                            else "extra" if winds_of else None),
            flowers=bool(self.flower_tiles(options)), horses="horses" in fields,
            actions=_labelled(actions, {**ACTION_WORDS, **dict(shown.actions)}, self.id),
            melds=_labelled(melds, {**MELD_WORDS, **dict(shown.melds)}, self.id),
            facts=shown.facts, forms=_forms(actions, (*ACTION_FORMS, *shown.forms)))


def _labelled(kinds: Sequence[str], words: dict[str, Words], vid: str) -> dict[str, Words]:
    """``{kind: its words}`` in the order of ``kinds``; a kind without words is the
    variant's mistake (its ``presentation`` labels its own kinds)."""
    out: dict[str, Words] = {}
    for kind in kinds:
        if kind not in words:
            raise ValueError(f"{vid}: no label for {str(kind)!r} in its presentation")
        out[str(kind)] = words[kind]
    return out


def _forms(kinds: Sequence[str], forms: Sequence[Form]) -> dict[str, dict[str, Words]]:
    """``{kind: {context: words}}`` for the ``kinds`` that have forms, in their order."""
    out: dict[str, dict[str, Words]] = {}
    for kind in kinds:
        of_kind = {str(context): words for k, context, words in forms if k == kind}
        if of_kind:
            out[str(kind)] = of_kind
    return out


def _tuples(value: object) -> object:
    """``value`` with every list, at any depth, made a tuple."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value
