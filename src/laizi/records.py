"""Hand records: a finished hand as data (what happened, not how it was played).

A hand record is what the score-keeper reads (``laizi score RECORD.json``) and what the
engine writes at the end of every hand; each variant's settlement is a pure function of
it. The JSON form writes tiles in MPSZ (``"234p 55s"``) so people can type records by
hand; :class:`HandRecord` holds tile ids. Common fields are the same for every variant;
facts only one variant needs live in a section named by the variant id (``"jingzhou":
{...}``). See ``docs/hand-record.md``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from laizi import tiles as T
from laizi.engine.melds import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    KONG,
    OPEN_KINDS,
    PUNG,
    STANDARD_KINDS,
    Meld,
)
from laizi.engine.variant import DISCARD_WIN, HOW, ROBBED_KONG, SELF_DRAW
from laizi.reasons import Refusal

if TYPE_CHECKING:
    from laizi.engine.variant import Variant
    from laizi.settlement import Payment

__all__ = ["BEYOND", "NUMBER_LIMIT", "SECTIONS", "HandRecord", "RecordError", "SeatRecord",
           "beyond_limit", "not_won", "record_from_json", "record_to_json", "settle",
           "validate"]

WIN, DRAW = "win", "draw"
_HOW_ALIASES = {
    "自摸": "self_draw", "zimo": "self_draw", "tsumo": "self_draw",
    "点炮": "discard", "放炮": "discard", "dianpao": "discard", "ron": "discard",
    "抢杠": "robbed_kong", "qianggang": "robbed_kong",
}
"""Other names people write for ``how``; ``杠开`` means a self-draw with ``after_kong``."""


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
    """A finished hand. ``outcome`` is ``"win"`` or ``"draw"`` (黄庄)."""

    variant: str
    options: Any
    dealer: int
    seats: tuple[SeatRecord, ...]
    outcome: str
    winners: tuple[int, ...] = ()
    how: str | None = None
    source: int | None = None
    """The discarder (点炮) or the robbed seat (抢杠); ``None`` on a self-draw."""
    win_tile: int | None = None
    after_kong: bool = False
    """The winning tile was a replacement draw after a kong (杠开 / 杠上开花)."""
    indicators: tuple[int, ...] = ()
    wildcard: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
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


# --------------------------------------------------------------------- JSON


def _tiles_json(ts: Sequence[int]) -> str:
    return T.format(ts, "mpsz", sort=True)


def _is_int(value: Any) -> bool:
    # JSON true/false are Python ints: never a number in a record.
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    """A value for a one-line message: JSON spelling, long values cut."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _read_tiles(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, list):
        out = []
        for i, v in enumerate(value):
            if isinstance(v, str):
                out.append(_read_tile(v, f"{where}[{i}]"))
            elif _is_int(v) and 0 <= v < T.NUM_TILE_IDS:
                out.append(v)
            else:
                raise RecordError(f"{where}[{i}]: expected an MPSZ tile like \"5p\" or a tile "
                                  f"id 0-{T.NUM_TILE_IDS - 1}, got {_show(v)}")
        return tuple(out)
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected MPSZ tiles like \"234p 55s\", got {_show(value)}")
    try:
        return tuple(T.parse(value, "mpsz"))
    except T.NotationError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _read_tile(value: Any, where: str) -> int:
    if _is_int(value):
        ts = _read_tiles([value], where)
    elif isinstance(value, str):
        ts = _read_tiles(value, where)
    else:
        raise RecordError(f"{where}: expected one tile like \"5p\", got {_show(value)}")
    if len(ts) != 1:
        raise RecordError(f"{where}: expected one tile, got {len(ts)}")
    return ts[0]


def _need(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: missing field {key!r}")
    return data[key]


def _read_seat_no(value: Any, where: str, seats: int) -> int:
    if not _is_int(value) or not 0 <= value < seats:
        raise RecordError(f"{where}: expected a seat number 0-{seats - 1}, got {_show(value)}")
    return int(value)


def _read_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{where}: expected true or false, got {_show(value)}")
    return value


def _read_text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected a string, got {_show(value)}")
    return value


def _object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: expected an object, got {_show(value)}")
    return value


def _only(data: dict[str, Any], known: Iterable[str], where: str,
          what: str = "field(s)") -> None:
    """Refuse keys not in ``known``: a misspelt fact (``after_kng``) must not be settled
    as if it were absent."""
    allowed = sorted(known)
    unknown = sorted(str(k) for k in data if k not in allowed)
    if not unknown:
        return
    import difflib

    hints = [f"{k!r} (did you mean {close[0]!r}?)" if close else repr(k)
             for k in unknown for close in [difflib.get_close_matches(k, allowed, 1, 0.75)]]
    raise RecordError(f"{where}: unknown {what} {', '.join(hints)}; known: "
                      f"{', '.join(allowed)}")


_TOP_KEYS = ("variant", "options", "dealer", "seats", "outcome", "winners", "how", "from",
             "tile", "after_kong", "seed", "indicators", "wildcard")
_WIN_KEYS = ("winners", "how", "from", "tile", "after_kong")
_SEAT_KEYS = ("concealed", "melds", "flowers")
_MELD_KEYS = ("kind", "tiles", "from", "claimed")


def _json_type_ok(value: Any, kind: Any) -> bool | None:
    """Whether ``value`` (JSON) fits the annotation ``kind``; ``None`` when the annotation
    is not one a record's options use (the options' own checks then decide)."""
    origin = typing.get_origin(kind)
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return _is_int(value)
    if kind is float:
        return _is_int(value) or isinstance(value, float)
    if kind is str:
        return isinstance(value, str)
    if origin is typing.Literal:
        return any(value == c and type(value) is type(c) for c in typing.get_args(kind))
    if origin in (typing.Union, types.UnionType):
        verdicts = [_json_type_ok(value, k) for k in typing.get_args(kind)]
        return None if None in verdicts else any(verdicts)
    if kind is type(None):
        return value is None
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if typing.get_origin(item) is tuple and len(typing.get_args(item)) == 2:
                k_type, v_type = typing.get_args(item)
                # Pairs are written as a JSON object (record_to_json does), nothing else.
                if not isinstance(value, dict):
                    return False
                pairs = list(value.items())
                checks = [(_json_type_ok(a, k_type), _json_type_ok(b, v_type)) for a, b in pairs]
                return None if any(None in c for c in checks) else all(a and b
                                                                       for a, b in checks)
            if not isinstance(value, list):
                return False
            verdicts = [_json_type_ok(x, item) for x in value]
            return None if None in verdicts else all(verdicts)
    return None


def _read_options(variant: Variant, raw: Any) -> Any:
    if raw is None:
        return variant.default_options()
    data = _object(raw, "options")
    kind = variant.options_type
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        fields = {f.name: hints.get(f.name) for f in dataclasses.fields(kind)}
        for key in getattr(kind, "EXTRA_JSON_KEYS", ()):
            fields.setdefault(key, str)
        _only(data, fields, "options", f"{variant.id} option(s)")
        for key, value in data.items():
            if _json_type_ok(value, fields[key]) is False:
                raise RecordError(f"options.{key}: {_show(value)} is not "
                                  f"{_describe_type(fields[key])}")
    try:
        return variant.options_from_json(dict(data))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise RecordError(f"options: {exc}") from None


def _describe_type(kind: Any) -> str:
    if kind is bool:
        return "true or false"
    if kind is int:
        return "a whole number"
    if kind is str:
        return "a string"
    if typing.get_origin(kind) is typing.Literal:
        return "one of " + ", ".join(_show(c) for c in typing.get_args(kind))
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        return "an object" if args and typing.get_origin(args[0]) is tuple else "a list"
    return f"a {kind}"


def record_to_json(record: HandRecord, variant: Variant | None = None) -> dict[str, Any]:
    """The JSON form (tiles in MPSZ). Inverse of :func:`record_from_json`."""
    if variant is None:
        from laizi.variants import get

        variant = get(record.variant)
    seats = []
    for s in record.seats:
        entry: dict[str, Any] = {}
        if s.concealed is not None:
            entry["concealed"] = _tiles_json(s.concealed)
        melds = []
        for m in s.melds:
            mj: dict[str, Any] = {"kind": m.kind, "tiles": _tiles_json(m.tiles)}
            if m.source is not None:
                mj["from"] = m.source
            if m.claimed is not None:
                mj["claimed"] = T.name(m.claimed, "mpsz")
            melds.append(mj)
        entry["melds"] = melds
        if s.flowers:
            entry["flowers"] = _tiles_json(s.flowers)
        seats.append(entry)
    out: dict[str, Any] = {
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
    if record.extra:
        out[record.variant] = record.extra
    return out


def _read_meld(m: Any, where: str, n: int) -> Meld:
    m = _object(m, where)
    _only(m, _MELD_KEYS, where)
    kind = _read_text(_need(m, "kind", where), f"{where}.kind")
    mtiles = tuple(sorted(_read_tiles(_need(m, "tiles", where), f"{where}.tiles")))
    src = m.get("from")
    if src is not None:
        src = _read_seat_no(src, f"{where}.from", n)
    claimed = m.get("claimed")
    return Meld(kind, mtiles, src,
                None if claimed is None else _read_tile(claimed, f"{where}.claimed"))


def _read_seat(raw: Any, where: str, n: int) -> SeatRecord:
    raw = _object(raw, where)
    _only(raw, _SEAT_KEYS, where)
    concealed = (_read_tiles(raw["concealed"], f"{where}.concealed")
                 if raw.get("concealed") is not None else None)
    raw_melds = raw.get("melds", [])
    if not isinstance(raw_melds, list):
        raise RecordError(f"{where}.melds: expected a list, got {_show(raw_melds)}")
    melds = tuple(_read_meld(m, f"{where}.melds[{j}]", n) for j, m in enumerate(raw_melds))
    flowers = _read_tiles(raw.get("flowers", ""), f"{where}.flowers")
    return SeatRecord(concealed, melds, flowers)


NUMBER_LIMIT = 2**64
"""A record's whole numbers lie strictly between -2**64 and 2**64 (a hand's 64-bit seed
the largest): anything beyond is refused before it is read, so no payment grows past what
Python prints (4300 digits)."""
BEYOND = "a number beyond 64 bits; a hand record's numbers are smaller"


def beyond_limit(value: Any) -> bool:
    """Whether JSON data holds a whole number beyond :data:`NUMBER_LIMIT`."""
    if isinstance(value, int):
        return not -NUMBER_LIMIT < value < NUMBER_LIMIT
    if isinstance(value, dict):
        return any(beyond_limit(v) for v in value.values())
    if isinstance(value, list):
        return any(beyond_limit(v) for v in value)
    return False


def record_from_json(data: Any) -> HandRecord:
    """Read and validate a record strictly; :class:`RecordError` says what is wrong.

    Strict means: every key known (a misspelt one is refused, not ignored), every value of
    its JSON type (``"false"`` is no boolean, ``1.0`` no seat), and the facts consistent
    with the tiles and melds (:func:`validate`)."""
    from laizi.variants import get, ids

    if not isinstance(data, dict):
        raise RecordError("a hand record must be a JSON object")
    if beyond_limit(data):
        raise RecordError(BEYOND)
    vid = _read_text(_need(data, "variant", "record"), "variant")
    try:
        variant = get(vid)
    except KeyError:
        raise RecordError(f"unknown variant {vid!r}; known: {', '.join(ids())}") from None
    _only(data, (*_TOP_KEYS, variant.id), "record")
    options = _read_options(variant, data.get("options"))
    n = variant.seats
    dealer = _read_seat_no(_need(data, "dealer", "record"), "dealer", n)
    raw_seats = _need(data, "seats", "record")
    if not isinstance(raw_seats, list) or len(raw_seats) != n:
        raise RecordError(f"seats: {variant.id} has {n} seats, the record lists "
                          f"{len(raw_seats) if isinstance(raw_seats, list) else 'none'}")
    seats = tuple(_read_seat(raw, f"seats[{i}]", n) for i, raw in enumerate(raw_seats))
    outcome = _need(data, "outcome", "record")
    if outcome not in (WIN, DRAW):
        raise RecordError(f"outcome: expected \"win\" or \"draw\", got {_show(outcome)}")
    indicators = _read_tiles(data.get("indicators", ""), "indicators")
    wildcard_given = data.get("wildcard")
    try:
        wildcard = variant.wildcard_for(indicators, options)
    except ValueError as exc:
        raise RecordError(f"indicators: {exc}") from None
    if wildcard_given is not None:
        w = _read_tile(wildcard_given, "wildcard")
        if w != wildcard:
            raise RecordError(
                f"wildcard: {T.name(w, 'mpsz')} does not follow from the indicators "
                f"({'none' if wildcard is None else T.name(wildcard, 'mpsz')} expected)")
    winners: tuple[int, ...] = ()
    how = None
    source = None
    win_tile = None
    after_kong = False
    if outcome == WIN:
        rw = _need(data, "winners", "record")
        if not isinstance(rw, list) or not rw:
            raise RecordError(f"winners: expected a non-empty list of seats, got {_show(rw)}")
        winners = tuple(_read_seat_no(w, "winners", n) for w in rw)
        how = _read_text(_need(data, "how", "record"), "how")
        after_kong = _read_bool(data.get("after_kong", False), "after_kong")
        if how in ("杠开", "杠上开花", "gangkai"):
            if data.get("after_kong") is False:
                raise RecordError(f"after_kong: false contradicts how {how!r} (杠开 is a "
                                  "self-draw after a kong)")
            how, after_kong = "self_draw", True
        how = _HOW_ALIASES.get(how, how)
        if how not in HOW:
            raise RecordError(f"how: expected one of {', '.join(HOW)}, got {_show(how)}")
        if how in (DISCARD_WIN, ROBBED_KONG):
            source = _read_seat_no(_need(data, "from", "record"), "from", n)
        elif "from" in data:
            raise RecordError("from: a self-drawn win comes from no one (leave \"from\" out)")
        win_tile = _read_tile(_need(data, "tile", "record"), "tile")
    else:
        given = [k for k in _WIN_KEYS if k in data and not (k == "after_kong"
                                                            and data[k] is False)]
        if given:
            raise RecordError(f"{given[0]}: a drawn hand has no winner (leave "
                              f"{', '.join(given)} out)")
    extra = _object(data.get(variant.id, {}), variant.id)
    _check_section(variant.id, extra, n)
    seed = data.get("seed")
    if seed is not None and not _is_int(seed):
        raise RecordError(f"seed: expected a whole number, got {_show(seed)}")
    record = HandRecord(
        variant=variant.id, options=options, dealer=dealer, seats=seats,
        outcome=outcome, winners=winners, how=how, source=source, win_tile=win_tile,
        after_kong=after_kong, indicators=indicators, wildcard=wildcard, extra=dict(extra),
        seed=seed,
    )
    validate(record, variant)
    return record


# --------------------------------------------------------------------- variant sections

_Check = Callable[[Any, str, int], None]
"""A JSON value's check: ``check(value, where, seats)`` raises :class:`RecordError`."""


def _bool_value(value: Any, where: str, n: int) -> None:
    _read_bool(value, where)


def _seat_value(value: Any, where: str, n: int) -> None:
    _read_seat_no(value, where, n)


def _count_value(value: Any, where: str, n: int) -> None:
    if not _is_int(value) or value < 0:
        raise RecordError(f"{where}: expected a whole number >= 0, got {_show(value)}")


def _tile_value(value: Any, where: str, n: int) -> None:
    _read_tile(value, where)


def _text_value(value: Any, where: str, n: int) -> None:
    _read_text(value, where)


def _wind_value(value: Any, where: str, n: int) -> None:
    if not (_is_int(value) or isinstance(value, str)):
        raise RecordError(f"{where}: expected a wind like \"东\" (or 0-3), got {_show(value)}")


def _party_value(value: Any, where: str, n: int) -> None:
    if not _is_int(value) or value < 0:
        raise RecordError(f"{where}: expected a party number, got {_show(value)}")


def _names_value(value: Any, where: str, n: int) -> None:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise RecordError(f"{where}: expected a list of names, got {_show(value)}")


def _object_of(schema: dict[str, _Check], required: tuple[str, ...] = ()) -> _Check:
    def check(value: Any, where: str, n: int) -> None:
        obj = _object(value, where)
        _only(obj, schema, where)
        for key in required:
            _need(obj, key, where)
        for key, item in obj.items():
            schema[key](item, f"{where}.{key}", n)
    return check


def _list_of(item: _Check) -> _Check:
    def check(value: Any, where: str, n: int) -> None:
        if not isinstance(value, list):
            raise RecordError(f"{where}: expected a list, got {_show(value)}")
        for i, x in enumerate(value):
            item(x, f"{where}[{i}]", n)
    return check


_GB_SECTION: dict[str, _Check] = {"last_tile": _bool_value, "last_copy": _bool_value}
SECTIONS: dict[str, dict[str, _Check]] = {
    "jingzhou": {"discarder_ready": _bool_value, "qingyise_feeder": _seat_value},
    "huanghuang": {"laizi_discarded": _count_value, "people": _names_value,
                   "horses": _list_of(_object_of({"holder": _party_value, "tile": _tile_value},
                                                 ("holder", "tile")))},
    "golden": _GB_SECTION,
    "mcr": _GB_SECTION,
    "taiwan": {
        "prevalent_wind": _wind_value, "dealer_streak": _count_value,
        "declaration": _text_value,
        "passed_win_since_declaring": _bool_value, "first_draw": _bool_value,
        "discarders_first_discard": _bool_value,
        "first_go_round_after_declaration": _bool_value, "last_tile": _bool_value,
        "flower_replacement": _bool_value,
        "flower_win": _object_of({"kind": _text_value, "robbed": _seat_value,
                                  "robbed_drew_eighth": _bool_value, "on_deal": _bool_value},
                                 ("kind",)),
        "dead_hand": _object_of({"seat": _seat_value, "draws_since_penalty": _count_value},
                                ("seat", "draws_since_penalty")),
        "false_win": _object_of({"offender": _seat_value, "tile": _tile_value,
                                 "exempt": _bool_value}, ("offender", "tile")),
    },
}
"""The JSON shape of each built-in variant's section: its keys and their types. The
variant's ``validate_record`` then judges the values; checking the shape here first
means no variant ever meets a value of the wrong type (a list where a tile was due), which
would otherwise end in a traceback instead of a one-line refusal. A plug-in variant with
no entry here validates its section alone."""


def _check_section(vid: str, extra: dict[str, Any], n: int) -> None:
    schema = SECTIONS.get(vid)
    if schema is not None:
        _object_of(schema)(extra, vid, n)


# --------------------------------------------------------------------- validation


def _check_meld(m: Meld, where: str, seat: int, specials: frozenset[str]) -> None:
    ts = m.tiles
    if m.kind not in STANDARD_KINDS and m.kind not in specials:
        known = sorted(STANDARD_KINDS | specials)
        raise RecordError(f"{where}: unknown meld kind {m.kind!r}; known: {', '.join(known)}")
    if any(t >= T.NUM_KINDS for t in ts):
        raise RecordError(f"{where}: a flower is never part of a meld (it goes in "
                          "\"flowers\")")
    if m.kind == CHOW:
        ok = (len(ts) == 3 and T.is_suited(ts[0]) and T.suit(ts[0]) == T.suit(ts[2])
              and ts[1] == ts[0] + 1 and ts[2] == ts[0] + 2)
        if not ok:
            raise RecordError(f"{where}: {T.format(ts)} is not a chow (three in a row)")
    elif m.kind == PUNG:
        if len(ts) != 3 or len(set(ts)) != 1:
            raise RecordError(f"{where}: {T.format(ts)} is not a pung (three alike)")
    elif m.kind in (KONG, ADDED_KONG, CONCEALED_KONG) and (len(ts) != 4 or len(set(ts)) != 1):
        raise RecordError(f"{where}: {T.format(ts)} is not a kong (four alike)")
    if m.kind in (CHOW, PUNG, KONG) and m.source is None:
        raise RecordError(f"{where}: a {m.kind} needs \"from\" (the seat that discarded)")
    if m.source is not None:
        if m.kind not in OPEN_KINDS:
            raise RecordError(f"{where}: a {m.kind} is made from one's own tiles; it has no "
                              "\"from\"")
        if m.source == seat:
            raise RecordError(f"{where}: a seat cannot claim its own discard")
    if m.claimed is not None:
        if m.kind not in OPEN_KINDS:
            raise RecordError(f"{where}: a {m.kind} claims no tile (no \"claimed\")")
        if m.claimed not in ts:
            raise RecordError(f"{where}: the claimed tile {T.name(m.claimed, 'mpsz')} is not "
                              f"one of {T.format(ts)}")


def _is_kong(m: Meld, specials: frozenset[str]) -> bool:
    """Any kong, a variant's special one-tile kongs (红中杠, 赖子杠) included: each draws a
    replacement, so each can be followed by 杠开."""
    return m.is_kong or m.kind in specials


def _check_win_facts(record: HandRecord, variant: Variant) -> None:
    """The win fields and the section's facts against the tiles and melds. Each rule holds
    for whichever variant writes the fact; the facts are named as the sections name them
    (docs/hand-record.md)."""
    how = record.how
    tile = record.win_tile
    assert tile is not None
    name = T.name(tile, "mpsz")
    specials = variant.special_kinds()
    x = record.extra
    if tile >= T.NUM_KINDS:
        raise RecordError(f"tile: nobody wins on a flower ({name})")
    for w in record.winners:
        if record.after_kong and not any(_is_kong(m, specials)
                                         for m in record.seats[w].melds):
            raise RecordError(f"after_kong: seat {w} has no kong to have drawn a "
                              "replacement for (杠开 needs a kong)")
    if how == ROBBED_KONG:
        src = record.source
        assert src is not None
        if not any(m.kind == PUNG and m.tiles[0] == tile for m in record.seats[src].melds):
            raise RecordError(f"from: seat {src} has no exposed pung of {name} to add a kong "
                              "to (抢杠 robs an added kong)")
        for key in ("last_tile", "last_copy"):
            if x.get(key) is True:
                raise RecordError(f"{variant.id}.{key}: a robbed kong's tile is neither the "
                                  "last of the wall nor counted as the last copy (抢杠 "
                                  "counts instead)")
    if x.get("last_copy") is True:
        for w in record.winners:
            if tile in (record.seats[w].concealed or ()):
                raise RecordError(f"{variant.id}.last_copy: seat {w} holds another {name}, "
                                  "so the winning tile is not the last copy (和绝张)")
    if x.get("first_draw") is True:
        w = record.winners[0]
        if how != SELF_DRAW or record.after_kong or record.seats[w].melds:
            raise RecordError(f"{variant.id}.first_draw: a win on the first draw is "
                              "self-drawn, with no meld or kong made before it")
    if x.get("discarders_first_discard") is True and how != DISCARD_WIN:
        raise RecordError(f"{variant.id}.discarders_first_discard: the win is not on a "
                          "discard")
    if "discarder_ready" in x and how != DISCARD_WIN:
        raise RecordError(f"{variant.id}.discarder_ready: only a win on a discard has a "
                          "discarder")
    if x.get("flower_replacement") is True:
        w = record.winners[0]
        if how != SELF_DRAW or not record.seats[w].flowers:
            raise RecordError(f"{variant.id}.flower_replacement: a win on a flower's "
                              "replacement is self-drawn by a seat holding a flower")
    if x.get("first_go_round_after_declaration") is True and x.get("declaration") != "earthly":
        raise RecordError(f"{variant.id}.first_go_round_after_declaration: only after an "
                          "earthly declaration (地听)")
    if x.get("passed_win_since_declaring") is True and not x.get("declaration"):
        raise RecordError(f"{variant.id}.passed_win_since_declaring: there is no "
                          "declaration")
    feeder = x.get("qingyise_feeder")
    if feeder is not None and feeder in record.winners:
        raise RecordError(f"{variant.id}.qingyise_feeder: the winner fed itself")


_WIN_FACTS = frozenset({"discarder_ready", "qingyise_feeder", "last_tile", "last_copy",
                        "first_draw", "discarders_first_discard", "flower_replacement",
                        "first_go_round_after_declaration", "passed_win_since_declaring",
                        "declaration", "flower_win", "dead_hand"})
"""Section facts that describe a win: a drawn hand has none of them."""


def validate(record: HandRecord, variant: Variant) -> None:
    """Common checks (tile set, copies, meld shapes, tile totals, the win fields and the
    facts against the melds), then the variant's own
    :meth:`~laizi.engine.variant.Variant.validate_record`."""
    n = variant.seats
    available = T.to_counts(variant.tile_set(record.options), T.NUM_TILE_IDS)
    flower_tiles = variant.flower_tiles(record.options)
    used = [0] * T.NUM_TILE_IDS
    for t in record.indicators:
        used[t] += 1
    specials = variant.special_kinds()
    for i, s in enumerate(record.seats):
        for j, m in enumerate(s.melds):
            _check_meld(m, f"seats[{i}].melds[{j}]", i, specials)
            for t in m.tiles:
                used[t] += 1
        for t in (s.concealed or ()):
            if t >= T.NUM_KINDS:
                raise RecordError(f"seats[{i}].concealed: flower {T.name(t, 'mpsz')} belongs "
                                  "in \"flowers\"")
            used[t] += 1
        for t in s.flowers:
            if t not in flower_tiles:
                raise RecordError(f"seats[{i}].flowers: {T.name(t, 'mpsz')} is not a flower "
                                  f"of {variant.id}")
            used[t] += 1
        if s.concealed is not None:
            n_sets = sum(1 for m in s.melds if m.kind in STANDARD_KINDS)
            expected = variant.hand_size - 3 * n_sets
            if len(s.concealed) != expected:
                raise RecordError(
                    f"seats[{i}]: {len(s.concealed)} concealed tiles with {n_sets} melds; "
                    f"expected {expected}" + (" (a winner's without the winning tile)"
                                               if i in record.winners else ""))
    if record.outcome == WIN:
        if len(set(record.winners)) != len(record.winners):
            raise RecordError("winners: a seat is listed twice")
        if len(record.winners) > 1 and not variant.multiple_winners(record.options):
            raise RecordError(f"winners: {variant.id} allows one winner per hand here")
        if len(record.winners) > 1 and record.how != DISCARD_WIN and record.how != ROBBED_KONG:
            raise RecordError("winners: only a discard or a robbed kong can have several")
        if record.source is not None and record.source in record.winners:
            raise RecordError("from: the discarder cannot be a winner")
        assert record.win_tile is not None
        used[record.win_tile] += 1
        for w in record.winners:
            if record.seats[w].concealed is None:
                raise RecordError(f"seats[{w}]: a winner's concealed tiles are required")
        if record.after_kong and record.how != SELF_DRAW:
            raise RecordError("after_kong: only a self-drawn win can follow a kong")
        _check_win_facts(record, variant)
    else:
        facts = sorted(_WIN_FACTS & set(record.extra))
        if facts:
            raise RecordError(f"{variant.id}.{facts[0]}: a drawn hand has no win to describe")
    for t in range(T.NUM_TILE_IDS):
        if used[t] > available[t]:
            what = "is not in" if available[t] == 0 else f"has {available[t]} copies in"
            raise RecordError(f"tile {T.name(t, 'mpsz')} appears {used[t]} times but "
                              f"{what} the {variant.id} tile set",
                              Refusal.of("too_many", tile=T.name(t, "mpsz"), used=used[t],
                                         available=available[t]))
    if not 0 <= record.dealer < n:
        raise RecordError(f"dealer: no seat {record.dealer}")
    variant.validate_record(record)


def settle(record: HandRecord) -> tuple[list[Payment], int]:
    """The payments of a hand record and how many parties they are between: the seats,
    or more for a variant whose settlement reaches waiting people (晃晃's horses, through
    its ``settle_parties``)."""
    from laizi.variants import get

    variant = get(record.variant)
    settle_parties = getattr(variant, "settle_parties", None)
    if settle_parties is not None:
        payments, parties = settle_parties(record)
        return list(payments), int(parties)
    return variant.settle(record), variant.seats
