"""The score-keeper's form made a hand record, on the server (记分器的牌局表).

The page at ``/score`` keeps what was tapped in (the dealer, the indicator, each seat's
melds and flowers, the winner's tiles, how it was won, the variant's facts) and asks
``POST /api/score/hand`` what it makes: the hand record (docs/hand-record.md) or what is
still missing, the settlement (or why the hand is impossible), and the next hand's dealer
and facts by the variant's score-keeper rules (:mod:`laizi.variants.descriptors`). The page
spells no rule of its own.

The form is read once, at the edge, into a :class:`HandForm` (:meth:`HandForm.from_json`
refuses anything the page never sends); the record is built from that.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from laizi import tiles as T
from laizi.core.records import DRAW, WIN, HandRecord
from laizi.errors import ErrorCode, LaiziError
from laizi.variants import get, ids
from laizi.variants.descriptors import Descriptor, describe
from laizi.vocab import MeldKind, WinHow

__all__ = ["FormError", "FormMeld", "HandForm", "Missing", "build_record", "meld_tiles",
           "next_hand"]

JSON = dict[str, object]
RED_DRAGON = 33
_CLAIMED = frozenset({MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG})
_ONE_TILE = frozenset({MeldKind.RED_DRAGON_KONG, MeldKind.LAIZI_KONG})
_KINDS = tuple(k.value for k in MeldKind)



class FormError(LaiziError):
    """A form the score-keeper cannot read (not what its page sends)."""

    default_code = ErrorCode.MALFORMED


@dataclass(frozen=True, slots=True)
class Missing:
    """Something the form still lacks: ``code`` (``pick_tile``, ``indicator``, ``winner``,
    ``tiles_count``, ``from``, ``from_rob``, ``win_tile``) and its ``params``."""

    code: str
    params: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"code": self.code, "params": self.params}


def _int(data: dict[str, object], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormError(f"{key}: an integer, got {value!r}")
    return value


def _maybe_int(data: dict[str, object], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _maybe_tile(data: dict[str, object], key: str) -> int | None:
    """A tile id (0-41) or nothing: a tile the form names is checked where it is read, so
    no later step sees a number that is no tile."""
    t = _maybe_int(data, key)
    if t is not None and not 0 <= t < T.NUM_TILE_IDS:
        raise FormError(f"{key}: a tile id 0-{T.NUM_TILE_IDS - 1}, got {t}")
    return t


def _tiles(value: object, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) and 0 <= t < T.NUM_TILE_IDS
            for t in value):
        raise FormError(f"{key}: a list of tile ids, got {value!r}")
    return tuple(value)


def _per_seat(data: dict[str, object], key: str, seats: int) -> list[object]:
    value = data.get(key)
    if not isinstance(value, list) or len(value) != seats:
        raise FormError(f"{key}: one list a seat ({seats})")
    return value


@dataclass(frozen=True, slots=True)
class FormMeld:
    """A meld as the form names it: its kind, its first tile (``None``: not picked yet)
    and, for a claimed one, whom it came from."""

    kind: str
    tile: int | None
    source: int | None

    @classmethod
    def from_json(cls, data: object) -> FormMeld:
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
            raise FormError(f"a meld is {{kind, tile, from}}, got {data!r}")
        kind = str(data["kind"])
        if kind not in _KINDS:
            raise FormError(f"a meld's kind is one of {', '.join(_KINDS)}, got {kind!r}")
        tile = _maybe_int(data, "tile")
        # a meld starts at a tile of the 34 kinds (no flower), a chow at a suited 1-7: the
        # page offers nothing else, and a tile past them would name no tile at all
        if tile is not None and not (0 <= tile < T.NUM_KINDS and (
                kind != MeldKind.CHOW or (tile < T.EAST and tile % 9 <= 6))):
            raise FormError(f"a {kind} cannot start at tile {tile}")
        return cls(kind, tile, _int(data, "from") if kind in _CLAIMED else None)


@dataclass(frozen=True, slots=True)
class HandForm:
    """The page's form of one hand, read and checked (``from`` is ``source`` here)."""

    dealer: int
    outcome: str
    winner: int | None
    how: WinHow
    source: int | None
    after_kong: bool
    indicator: int | None
    melds: tuple[tuple[FormMeld, ...], ...]
    flowers: tuple[tuple[int, ...], ...]
    concealed: tuple[int, ...]
    win_tile: int | None
    facts: dict[str, object]

    @classmethod
    def from_json(cls, data: object, seats: int) -> HandForm:
        if not isinstance(data, dict):
            raise FormError("form: a JSON object")
        outcome = data.get("outcome")
        if outcome not in (WIN, DRAW):
            raise FormError(f"outcome: {WIN} or {DRAW}, got {outcome!r}")
        how = data.get("how")
        if how not in tuple(WinHow):
            raise FormError(f"how: one of {', '.join(WinHow)}, got {how!r}")
        winner = _maybe_int(data, "winner")
        source = _maybe_int(data, "from")
        dealer = _int(data, "dealer")
        for key, seat in (("winner", winner), ("from", source), ("dealer", dealer)):
            if seat is not None and not 0 <= seat < seats:
                raise FormError(f"{key}: a seat 0-{seats - 1}, got {seat}")
        melds = []
        for ms in _per_seat(data, "melds", seats):
            if not isinstance(ms, list):
                raise FormError("melds: a list of melds a seat")
            melds.append(tuple(FormMeld.from_json(m) for m in ms))
        facts = data.get("facts", {})
        if not isinstance(facts, dict):
            raise FormError("facts: a JSON object")
        return cls(
            dealer=dealer, outcome=str(outcome), winner=winner,
            how=WinHow(str(how)), source=source,
            after_kong=data.get("after_kong") is True, indicator=_maybe_tile(data, "indicator"),
            melds=tuple(melds),
            flowers=tuple(_tiles(f, "flowers") for f in _per_seat(data, "flowers", seats)),
            concealed=_tiles(data.get("concealed", []), "concealed"),
            win_tile=_maybe_tile(data, "win_tile"), facts=dict(facts))


def meld_tiles(kind: str, tile: int | None, wild: int | None) -> list[int]:
    """The tiles of a meld the form names by its kind and first tile."""
    if kind == MeldKind.RED_DRAGON_KONG:
        return [RED_DRAGON]
    if kind == MeldKind.LAIZI_KONG:
        return [] if wild is None else [wild]
    if tile is None:
        return []
    if kind == MeldKind.CHOW:
        return [tile, tile + 1, tile + 2]
    return [tile] * (3 if kind == MeldKind.PUNG else 4)


def _seats(form: HandForm, wild: int | None, missing: list[Missing]) -> list[JSON]:
    seats: list[JSON] = []
    for melds, flowers in zip(form.melds, form.flowers, strict=True):
        written: list[JSON] = []
        for m in melds:
            ts = meld_tiles(m.kind, m.tile, wild)
            if not ts:
                missing.append(Missing("pick_tile"))
                continue
            meld: JSON = {"kind": m.kind, "tiles": T.format(ts, sort=True)}
            if m.source is not None:
                meld["from"] = m.source
            written.append(meld)
        seat: JSON = {"melds": written}
        if flowers:
            seat["flowers"] = T.format(flowers, sort=True)
        seats.append(seat)
    return seats


def _win(form: HandForm, rec: JSON, seats: list[JSON], hand_size: int,
         missing: list[Missing]) -> None:
    winner = form.winner
    if winner is None:
        missing.append(Missing("winner"))
        return
    big = sum(1 for m in form.melds[winner] if m.kind not in _ONE_TILE)
    need = hand_size - 3 * big
    if len(form.concealed) != need:
        missing.append(Missing("tiles_count", {"n": len(form.concealed), "want": need}))
    seats[winner]["concealed"] = T.format(form.concealed, sort=True)
    rec["winners"] = [winner]
    rec["how"] = form.how.value
    if form.how is not WinHow.SELF_DRAW:
        if form.source is None or form.source == winner:
            missing.append(Missing("from" if form.how is WinHow.DISCARD else "from_rob"))
        else:
            rec["from"] = form.source
    if form.win_tile is None:
        missing.append(Missing("win_tile"))
    else:
        rec["tile"] = T.format([form.win_tile])
    if form.after_kong and form.how is WinHow.SELF_DRAW:
        rec["after_kong"] = True


def _facts(d: Descriptor, form: HandForm) -> JSON:
    """The record's variant section: each fact asked of this hand, written when the
    descriptor says (``send``)."""
    section: JSON = {}
    for fact in d.facts:
        if fact.when == "win" and form.outcome != WIN:
            continue
        if fact.how and form.how not in fact.how:
            continue
        value = form.facts.get(fact.key, fact.default)
        if fact.form == "bool":
            value = bool(value)
        unset = value is None or value is False or value == "" or (
            fact.form == "count" and value == 0)
        if fact.send == "always" or not unset:
            section[fact.key] = value
    return section


def _descriptor(variant_id: object) -> Descriptor:
    if not isinstance(variant_id, str) or variant_id not in ids():
        raise FormError(f"variant must be one of {', '.join(ids())}, got {variant_id!r}")
    return describe(get(variant_id))


def build_record(variant_id: object, options: object,
                 data: object) -> tuple[JSON, list[Missing], HandForm]:
    """The hand record the form describes, what it still lacks (empty: complete) and the
    form as read. :class:`FormError` for a form the page never sends."""
    d = _descriptor(variant_id)
    variant = get(d.id)
    form = HandForm.from_json(data, variant.seats)
    missing: list[Missing] = []
    wild = None
    if form.indicator is not None and d.wildcard is not None:
        try:
            wild = variant.wildcard_for([form.indicator], variant.default_options())
        except ValueError as exc:  # a tile this variant's wall does not have
            raise FormError(f"indicator: {exc}") from None
    seats = _seats(form, wild, missing)
    rec: JSON = {"variant": d.id, "options": options, "dealer": form.dealer,
                 "outcome": form.outcome, "seats": seats}
    if d.wildcard is not None:
        if form.indicator is None:
            missing.append(Missing("indicator"))
        else:
            rec["indicators"] = T.format([form.indicator])
    if form.outcome == WIN:
        _win(form, rec, seats, variant.hand_size, missing)
    section = _facts(d, form)
    if section:
        rec[d.id] = section
    return rec, missing, form


def next_hand(variant_id: object, form: HandForm) -> JSON:
    """The next hand's dealer (the variant's own rule, as at the hall's tables) and the
    facts the next hand's form starts from."""
    d = _descriptor(variant_id)
    dealer, winner = form.dealer, form.winner if form.outcome == WIN else None
    if form.outcome == WIN and winner is None:
        nxt = dealer  # no winner picked yet: the hand cannot be recorded, nothing moves
    else:
        # the rule reads who dealt and who won: the hand's tiles do not matter to it
        outline = HandRecord(variant=d.id, options=None, dealer=dealer, seats=(),
                             outcome=form.outcome, winners=() if winner is None else (winner,))
        nxt = get(d.id).next_dealer(outline)
    facts: JSON = {}
    for fact in d.facts:
        old = form.facts.get(fact.key, fact.default)
        if fact.carry == "keep":
            facts[fact.key] = old
        elif fact.carry == "streak":
            facts[fact.key] = (old if isinstance(old, int) else 0) + 1 if nxt == dealer else 0
        else:
            facts[fact.key] = fact.default
    return {"dealer": nxt, "facts": facts}
