"""Reading hand records: the strict reader, the common checks and settlement.

:func:`record_from_json` reads a record (the JSON ``laizi score`` and the score-keeper
take, see ``docs/hand-record.md``) field by field, then :func:`validate` checks the facts
against the tiles and melds and asks the variant (from the registry) for its own checks.
The record's types and its writer are :mod:`laizi.core.records`.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.melds import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    KONG,
    OPEN_KINDS,
    PUNG,
    STANDARD_KINDS,
    Meld,
)
from laizi.core.record_fields import (
    check_section,
    is_int,
    json_object,
    json_type_ok,
    need,
    only,
    read_bool,
    read_seat_no,
    read_text,
    read_tile,
    read_tiles,
    show,
)
from laizi.core.records import (
    DISCARD_WIN,
    DRAW,
    HOW,
    ROBBED_KONG,
    SELF_DRAW,
    WIN,
    WRONG_WIN,
    HandRecord,
    RecordError,
    SeatRecord,
)
from laizi.engine.registry import get, ids
from laizi.engine.variant import Variant
from laizi.reasons import Refusal
from laizi.settlement import Payment

__all__ = ["BEYOND", "NUMBER_LIMIT", "beyond_limit", "record_from_json", "settle",
           "settle_record", "validate"]

_HOW_ALIASES = {
    "自摸": "self_draw", "zimo": "self_draw", "tsumo": "self_draw",
    "点炮": "discard", "放炮": "discard", "dianpao": "discard", "ron": "discard",
    "抢杠": "robbed_kong", "qianggang": "robbed_kong",
}
"""Other names people write for ``how``; ``杠开`` means a self-draw with ``after_kong``."""
_AFTER_KONG_NAMES = frozenset({"杠开", "杠上开花", "gangkai"})
"""The names of 杠开 written as ``how``: a self-draw with ``after_kong``."""

_TOP_KEYS = ("variant", "options", "dealer", "seats", "outcome", "winners", "how", "from",
             "tile", "after_kong", "seed", "indicators", "wildcard")
_WIN_KEYS = ("winners", "how", "from", "tile", "after_kong")
_SEAT_KEYS = ("concealed", "melds", "flowers")
_MELD_KEYS = ("kind", "tiles", "from", "claimed")


def _read_options(variant: Variant, raw: object) -> Any:
    if raw is None:
        return variant.default_options()
    data = json_object(raw, "options")
    kind = variant.options_type
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        fields = {f.name: hints.get(f.name) for f in dataclasses.fields(kind)}
        for key in getattr(kind, "EXTRA_JSON_KEYS", ()):
            fields.setdefault(key, str)
        only(data, fields, "options", f"{variant.id} option(s)")
        for key, value in data.items():
            if json_type_ok(value, fields[key]) is False:
                raise RecordError(f"options.{key}: {show(value)} is not "
                                  f"{_describe_type(fields[key])}")
    try:
        return variant.options_from_json(dict(data))
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise RecordError(f"options: {exc}") from None


def _describe_type(kind: object) -> str:
    if kind is bool:
        return "true or false"
    if kind is int:
        return "a whole number"
    if kind is str:
        return "a string"
    if typing.get_origin(kind) is typing.Literal:
        return "one of " + ", ".join(show(c) for c in typing.get_args(kind))
    if typing.get_origin(kind) is tuple:
        args = typing.get_args(kind)
        return "an object" if args and typing.get_origin(args[0]) is tuple else "a list"
    return f"a {kind}"


def _read_meld(raw: object, where: str, n: int) -> Meld:
    m = json_object(raw, where)
    only(m, _MELD_KEYS, where)
    kind = read_text(need(m, "kind", where), f"{where}.kind")
    mtiles = tuple(sorted(read_tiles(need(m, "tiles", where), f"{where}.tiles")))
    src = m.get("from")
    if src is not None:
        src = read_seat_no(src, f"{where}.from", n)
    claimed = m.get("claimed")
    return Meld(kind, mtiles, src,
                None if claimed is None else read_tile(claimed, f"{where}.claimed"))


def _read_seat(given: object, where: str, n: int) -> SeatRecord:
    raw = json_object(given, where)
    only(raw, _SEAT_KEYS, where)
    concealed = (read_tiles(raw["concealed"], f"{where}.concealed")
                 if raw.get("concealed") is not None else None)
    raw_melds = raw.get("melds", [])
    if not isinstance(raw_melds, list):
        raise RecordError(f"{where}.melds: expected a list, got {show(raw_melds)}")
    melds = tuple(_read_meld(m, f"{where}.melds[{j}]", n) for j, m in enumerate(raw_melds))
    flowers = read_tiles(raw.get("flowers", ""), f"{where}.flowers")
    return SeatRecord(concealed, melds, flowers)


NUMBER_LIMIT = 2**64
"""A record's whole numbers lie strictly between -2**64 and 2**64 (a hand's 64-bit seed
the largest): anything beyond is refused before it is read, so no payment grows past what
Python prints (4300 digits)."""
BEYOND = "a number beyond 64 bits; a hand record's numbers are smaller"


def beyond_limit(value: object) -> bool:
    """Whether JSON data holds a whole number beyond :data:`NUMBER_LIMIT`."""
    if isinstance(value, int):
        return not -NUMBER_LIMIT < value < NUMBER_LIMIT
    if isinstance(value, dict):
        return any(beyond_limit(v) for v in value.values())
    if isinstance(value, list):
        return any(beyond_limit(v) for v in value)
    return False


def record_from_json(data: object) -> HandRecord:
    """Read and validate a record strictly; :class:`RecordError` says what is wrong.

    Strict means: every key known (a misspelt one is refused, not ignored), every value of
    its JSON type (``"false"`` is no boolean, ``1.0`` no seat), and the facts consistent
    with the tiles and melds (:func:`validate`)."""
    if not isinstance(data, dict):
        raise RecordError("a hand record must be a JSON object")
    if beyond_limit(data):
        raise RecordError(BEYOND)
    vid = read_text(need(data, "variant", "record"), "variant")
    try:
        variant = get(vid)
    except KeyError:
        raise RecordError(f"unknown variant {vid!r}; known: {', '.join(ids())}") from None
    only(data, (*_TOP_KEYS, variant.id), "record")
    options = _read_options(variant, data.get("options"))
    n = variant.seats
    dealer = read_seat_no(need(data, "dealer", "record"), "dealer", n)
    raw_seats = need(data, "seats", "record")
    if not isinstance(raw_seats, list) or len(raw_seats) != n:
        raise RecordError(f"seats: {variant.id} has {n} seats, the record lists "
                          f"{len(raw_seats) if isinstance(raw_seats, list) else 'none'}")
    seats = tuple(_read_seat(raw, f"seats[{i}]", n) for i, raw in enumerate(raw_seats))
    outcome = need(data, "outcome", "record")
    if not isinstance(outcome, str) or outcome not in (WIN, DRAW, WRONG_WIN):
        raise RecordError(f"outcome: expected \"win\" or \"draw\", got {show(outcome)}")
    indicators = read_tiles(data.get("indicators", ""), "indicators")
    wildcard = _read_wildcard(data, variant, indicators, options)
    if outcome == WIN:
        winners, how, source, win_tile, after_kong = _read_win(data, n)
    else:
        winners, how, source, win_tile, after_kong = (), None, None, None, False
        if outcome == WRONG_WIN:
            source = _read_wrong_win(data, variant, options)
        given = [k for k in _WIN_KEYS if k in data and not (k == "after_kong"
                                                            and data[k] is False)
                 and not (k == "from" and outcome == WRONG_WIN)]
        if given:
            raise RecordError(f"{given[0]}: a drawn hand has no winner (leave "
                              f"{', '.join(given)} out)")
    extra = json_object(data.get(variant.id, {}), variant.id)
    check_section(variant.id, extra, n)
    seed = data.get("seed")
    if seed is not None and not is_int(seed):
        raise RecordError(f"seed: expected a whole number, got {show(seed)}")
    record = HandRecord(
        variant=variant.id, options=options, dealer=dealer, seats=seats,
        outcome=outcome, winners=winners, how=how, source=source, win_tile=win_tile,
        after_kong=after_kong, indicators=indicators, wildcard=wildcard, extra=dict(extra),
        seed=seed,
    )
    validate(record, variant)
    return record


def _read_wildcard(data: JSON, variant: Variant, indicators: tuple[int, ...],
                   options: Any) -> int | None:
    """The wildcard the indicators give; a given ``wildcard`` must agree with it."""
    try:
        wildcard = variant.wildcard_for(indicators, options)
    except ValueError as exc:
        raise RecordError(f"indicators: {exc}") from None
    given = data.get("wildcard")
    if given is not None:
        w = read_tile(given, "wildcard")
        if w != wildcard:
            raise RecordError(
                f"wildcard: {T.name(w, 'mpsz')} does not follow from the indicators "
                f"({'none' if wildcard is None else T.name(wildcard, 'mpsz')} expected)")
    return wildcard


def _read_wrong_win(data: JSON, variant: Variant, options: Any) -> int:
    """The caller (``from``) of a 错和 record, of rules that settle one."""
    if not variant.settles_wrong_win(options):
        raise RecordError(f"outcome: a 错和 (wrong_win) is settled only by mcr's "
                          f"profile=botzone, not by these {variant.id} options")
    return read_seat_no(need(data, "from", "record"), "from", variant.seats)


def _read_win(data: JSON, n: int
              ) -> tuple[tuple[int, ...], str, int | None, int, bool]:
    """A won record's winners, ``how`` (aliases read), source, winning tile and
    ``after_kong``."""
    rw = need(data, "winners", "record")
    if not isinstance(rw, list) or not rw:
        raise RecordError(f"winners: expected a non-empty list of seats, got {show(rw)}")
    winners = tuple(read_seat_no(w, "winners", n) for w in rw)
    how = read_text(need(data, "how", "record"), "how")
    after_kong = read_bool(data.get("after_kong", False), "after_kong")
    if how in _AFTER_KONG_NAMES:
        if data.get("after_kong") is False:
            raise RecordError(f"after_kong: false contradicts how {how!r} (杠开 is a "
                              "self-draw after a kong)")
        how, after_kong = "self_draw", True
    how = _HOW_ALIASES.get(how, how)
    if how not in HOW:
        raise RecordError(f"how: expected one of {', '.join(HOW)}, got {show(how)}")
    source = None
    if how in (DISCARD_WIN, ROBBED_KONG):
        source = read_seat_no(need(data, "from", "record"), "from", n)
    elif "from" in data:
        raise RecordError("from: a self-drawn win comes from no one (leave \"from\" out)")
    win_tile = read_tile(need(data, "tile", "record"), "tile")
    return winners, how, source, win_tile, after_kong


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
            # A 错和's caller may have declared it on its turn, holding one tile more.
            extra_tile = record.outcome == WRONG_WIN and i == record.source
            if len(s.concealed) != expected and not (extra_tile
                                                     and len(s.concealed) == expected + 1):
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
    variant = get(record.variant)
    settle_parties = getattr(variant, "settle_parties", None)
    if settle_parties is not None:
        payments, parties = settle_parties(record)
        return list(payments), int(parties)
    return variant.settle(record), variant.seats


def settle_record(data: object) -> dict[str, object]:
    """Validate a hand record (JSON) and settle it as ``laizi score --json`` does:
    ``{"payments", "net", "parties", "summary", "record"}`` (``record``: the record as
    read, tiles in MPSZ). :class:`RecordError` for an impossible hand. The score-keeper
    settles every hand typed in with it, and a club ledger's check settles a session's
    hands again with it (:func:`laizi.club_ledger.session_facts`)."""
    from laizi.core.records import record_to_json
    from laizi.reasons import payments_with_parts
    from laizi.settlement import payments_json

    record = record_from_json(data)
    variant = get(record.variant)
    payments, parties = settle(record)
    settled = payments_json(payments, parties)
    assert isinstance(settled, dict)
    settled["payments"] = payments_with_parts(settled["payments"])
    return {**settled, "parties": parties,
            "summary": variant.describe(record), "record": record_to_json(record, variant)}
