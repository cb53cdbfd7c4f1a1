"""Hand records: a finished hand as data (what happened, not how it was played).

A hand record is what the score-keeper reads (``laizi score RECORD.json``) and what the
engine writes at the end of every hand; each variant's settlement is a pure function of
it. The JSON form writes tiles in MPSZ (``"234p 55s"``) so people can type records by
hand; :class:`HandRecord` holds tile ids. Common fields are the same for every variant;
facts only one variant needs live in a section named by the variant id (``"jingzhou":
{...}``). See ``docs/hand-record.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from laizi import tiles as T
from laizi.engine.melds import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    KONG,
    PUNG,
    STANDARD_KINDS,
    Meld,
)
from laizi.engine.variant import DISCARD_WIN, HOW, ROBBED_KONG

if TYPE_CHECKING:
    from laizi.engine.variant import Variant
    from laizi.settlement import Payment

__all__ = ["HandRecord", "RecordError", "SeatRecord", "record_from_json", "record_to_json",
           "settle"]

WIN, DRAW = "win", "draw"
_HOW_ALIASES = {
    "自摸": "self_draw", "zimo": "self_draw", "tsumo": "self_draw",
    "点炮": "discard", "放炮": "discard", "dianpao": "discard", "ron": "discard",
    "抢杠": "robbed_kong", "qianggang": "robbed_kong",
}
"""Other names people write for ``how``; ``杠开`` means a self-draw with ``after_kong``."""


class RecordError(ValueError):
    """A hand record that cannot describe a real hand; the message says what is wrong."""


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


def _read_tiles(value: Any, where: str) -> tuple[int, ...]:
    if isinstance(value, list):
        try:
            return tuple(int(v) if not isinstance(v, str) else T.parse_tile(v) for v in value)
        except (ValueError, TypeError) as exc:
            raise RecordError(f"{where}: {exc}") from None
    if not isinstance(value, str):
        raise RecordError(f"{where}: expected MPSZ tiles like \"234p 55s\", got {value!r}")
    try:
        return tuple(T.parse(value, "mpsz"))
    except T.NotationError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _read_tile(value: Any, where: str) -> int:
    ts = _read_tiles(value if not isinstance(value, int) else [value], where)
    if len(ts) != 1:
        raise RecordError(f"{where}: expected one tile, got {len(ts)}")
    return ts[0]


def _need(data: dict[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise RecordError(f"{where}: missing field {key!r}")
    return data[key]


def _read_seat_no(value: Any, where: str, seats: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise RecordError(f"{where}: expected a seat number 0-{seats - 1}, got {value!r}")
    return value


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


def record_from_json(data: Any) -> HandRecord:
    """Read and validate a record; :class:`RecordError` says what is wrong."""
    from laizi.variants import get, ids

    if not isinstance(data, dict):
        raise RecordError("a hand record must be a JSON object")
    vid = _need(data, "variant", "record")
    try:
        variant = get(str(vid))
    except KeyError:
        raise RecordError(f"unknown variant {vid!r}; known: {', '.join(ids())}") from None
    try:
        options = variant.options_from_json(data.get("options"))
    except (TypeError, ValueError) as exc:
        raise RecordError(f"options: {exc}") from None
    n = variant.seats
    dealer = _read_seat_no(_need(data, "dealer", "record"), "dealer", n)
    raw_seats = _need(data, "seats", "record")
    if not isinstance(raw_seats, list) or len(raw_seats) != n:
        raise RecordError(f"seats: {variant.id} has {n} seats, the record lists "
                          f"{len(raw_seats) if isinstance(raw_seats, list) else 'none'}")
    seats = []
    for i, raw in enumerate(raw_seats):
        where = f"seats[{i}]"
        if not isinstance(raw, dict):
            raise RecordError(f"{where}: expected an object")
        concealed = (_read_tiles(raw["concealed"], f"{where}.concealed")
                     if raw.get("concealed") is not None else None)
        melds = []
        for j, m in enumerate(raw.get("melds", [])):
            mw = f"{where}.melds[{j}]"
            if not isinstance(m, dict):
                raise RecordError(f"{mw}: expected an object")
            kind = str(_need(m, "kind", mw))
            mtiles = tuple(sorted(_read_tiles(_need(m, "tiles", mw), f"{mw}.tiles")))
            src = m.get("from")
            if src is not None:
                src = _read_seat_no(src, f"{mw}.from", n)
            claimed = m.get("claimed")
            melds.append(Meld(kind, mtiles, src,
                              None if claimed is None else _read_tile(claimed, f"{mw}.claimed")))
        flowers = _read_tiles(raw.get("flowers", ""), f"{where}.flowers")
        seats.append(SeatRecord(concealed, tuple(melds), flowers))
    outcome = _need(data, "outcome", "record")
    if outcome not in (WIN, DRAW):
        raise RecordError(f"outcome: expected \"win\" or \"draw\", got {outcome!r}")
    indicators = _read_tiles(data.get("indicators", ""), "indicators")
    wildcard_given = data.get("wildcard")
    wildcard = variant.wildcard_for(indicators, options)
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
            raise RecordError("winners: expected a non-empty list of seats")
        winners = tuple(_read_seat_no(w, "winners", n) for w in rw)
        how = _need(data, "how", "record")
        after_kong = bool(data.get("after_kong", False))
        if how in ("杠开", "杠上开花", "gangkai"):
            how, after_kong = "self_draw", True
        how = _HOW_ALIASES.get(how, how)
        if how not in HOW:
            raise RecordError(f"how: expected one of {', '.join(HOW)}, got {how!r}")
        if how in (DISCARD_WIN, ROBBED_KONG):
            source = _read_seat_no(_need(data, "from", "record"), "from", n)
        win_tile = _read_tile(_need(data, "tile", "record"), "tile")
    extra = data.get(variant.id, {})
    if not isinstance(extra, dict):
        raise RecordError(f"{variant.id}: expected an object")
    seed = data.get("seed")
    record = HandRecord(
        variant=variant.id, options=options, dealer=dealer, seats=tuple(seats),
        outcome=outcome, winners=winners, how=how, source=source, win_tile=win_tile,
        after_kong=after_kong, indicators=indicators, wildcard=wildcard, extra=dict(extra),
        seed=None if seed is None else int(seed),
    )
    validate(record, variant)
    return record


# --------------------------------------------------------------------- validation


def _check_meld(m: Meld, where: str, variant: Variant) -> None:
    ts = m.tiles
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


def validate(record: HandRecord, variant: Variant) -> None:
    """Common checks (tile set, copies, meld shapes, tile totals, the win fields), then the
    variant's own :meth:`~laizi.engine.variant.Variant.validate_record`."""
    n = variant.seats
    available = T.to_counts(variant.tile_set(record.options), T.NUM_TILE_IDS)
    used = [0] * T.NUM_TILE_IDS
    for t in record.indicators:
        used[t] += 1
    specials = variant.special_kinds()
    for i, s in enumerate(record.seats):
        for j, m in enumerate(s.melds):
            where = f"seats[{i}].melds[{j}]"
            if m.kind not in STANDARD_KINDS and m.kind not in specials:
                known = sorted(STANDARD_KINDS | specials)
                raise RecordError(f"{where}: unknown meld kind {m.kind!r}; "
                                  f"known: {', '.join(known)}")
            _check_meld(m, where, variant)
            if m.source is not None and m.source == i:
                raise RecordError(f"{where}: a seat cannot claim its own discard")
            for t in m.tiles:
                used[t] += 1
        for t in (s.concealed or ()):
            used[t] += 1
        for t in s.flowers:
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
        if record.after_kong and record.how != "self_draw":
            raise RecordError("after_kong: only a self-drawn win can follow a kong")
    for t in range(T.NUM_TILE_IDS):
        if used[t] > available[t]:
            what = "is not in" if available[t] == 0 else f"has {available[t]} copies in"
            raise RecordError(f"tile {T.name(t, 'mpsz')} appears {used[t]} times but "
                              f"{what} the {variant.id} tile set")
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
