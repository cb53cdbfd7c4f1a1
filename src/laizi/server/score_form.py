"""The score-keeper's form made a hand record, on the server (记分器的牌局表).

The page at ``/score`` keeps what was tapped in (the dealer, the indicator, each seat's
melds and flowers, the winner's tiles, how it was won, the variant's facts) and asks
``POST /api/score/hand`` what it makes: the hand record (docs/hand-record.md) or what is
still missing, the settlement (or why the hand is impossible), and the next hand's dealer
and facts by the variant's score-keeper rules (:mod:`laizi.variants.descriptors`). The page
spells no rule of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from laizi import tiles as T
from laizi.errors import ErrorCode, LaiziError
from laizi.variants import get, ids
from laizi.variants.descriptors import Descriptor, Fact, describe
from laizi.vocab import MeldKind, WinHow

__all__ = ["FormError", "Missing", "build_record", "next_hand"]

RED_DRAGON = 33
_CLAIMED = frozenset({MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDED_KONG})
_ONE_TILE = frozenset({MeldKind.RED_DRAGON_KONG, MeldKind.LAIZI_KONG})


class FormError(LaiziError):
    """A form the score-keeper cannot read (not what its page sends)."""

    default_code = ErrorCode.MALFORMED


@dataclass(frozen=True, slots=True)
class Missing:
    """Something the form still lacks: ``code`` (``pick_tile``, ``indicator``, ``winner``,
    ``tiles_count``, ``from``, ``from_rob``, ``win_tile``) and its ``params``."""

    code: str
    params: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"code": self.code, "params": self.params}


def _int(form: dict[str, Any], key: str, *, none: bool = False) -> int | None:
    value = form.get(key)
    if value is None and none:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormError(f"{key}: an integer{' or null' if none else ''}, got {value!r}")
    return value


def _tiles(value: object, key: str) -> list[int]:
    if not isinstance(value, list) or not all(
            isinstance(t, int) and not isinstance(t, bool) and 0 <= t < T.NUM_TILE_IDS
            for t in value):
        raise FormError(f"{key}: a list of tile ids, got {value!r}")
    return list(value)


def _per_seat(form: dict[str, Any], key: str, seats: int) -> list[Any]:
    value = form.get(key)
    if not isinstance(value, list) or len(value) != seats:
        raise FormError(f"{key}: one list a seat ({seats})")
    return value


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


def _seats(form: dict[str, Any], n: int, wild: int | None,
           missing: list[Missing]) -> list[dict[str, Any]]:
    seats: list[dict[str, Any]] = []
    for melds, flowers in zip(_per_seat(form, "melds", n), _per_seat(form, "flowers", n),
                              strict=True):
        seat: dict[str, Any] = {"melds": []}
        if not isinstance(melds, list):
            raise FormError("melds: a list of melds a seat")
        for m in melds:
            if not isinstance(m, dict) or not isinstance(m.get("kind"), str):
                raise FormError(f"a meld is {{kind, tile, from}}, got {m!r}")
            ts = meld_tiles(m["kind"], _int(m, "tile", none=True), wild)
            if not ts:
                missing.append(Missing("pick_tile"))
                continue
            meld: dict[str, Any] = {"kind": m["kind"], "tiles": T.format(ts, sort=True)}
            if m["kind"] in _CLAIMED:
                meld["from"] = _int(m, "from")
            seat["melds"].append(meld)
        fl = _tiles(flowers, "flowers")
        if fl:
            seat["flowers"] = T.format(fl, sort=True)
        seats.append(seat)
    return seats


def _win(form: dict[str, Any], rec: dict[str, Any], hand_size: int,
         missing: list[Missing]) -> None:
    winner = _int(form, "winner", none=True)
    if winner is None:
        missing.append(Missing("winner"))
        return
    if not 0 <= winner < len(rec["seats"]):
        raise FormError(f"winner: a seat, got {winner}")
    melds = form["melds"][winner]
    big = sum(1 for m in melds if m.get("kind") not in _ONE_TILE)
    concealed = _tiles(form.get("concealed"), "concealed")
    need = hand_size - 3 * big
    if len(concealed) != need:
        missing.append(Missing("tiles_count", {"n": len(concealed), "want": need}))
    rec["seats"][winner]["concealed"] = T.format(concealed, sort=True)
    rec["winners"] = [winner]
    how = form.get("how")
    if how not in tuple(WinHow):
        raise FormError(f"how: one of {', '.join(WinHow)}, got {how!r}")
    rec["how"] = how
    if how != WinHow.SELF_DRAW:
        source = _int(form, "from", none=True)
        if source is None or source == winner:
            missing.append(Missing("from" if how == WinHow.DISCARD else "from_rob"))
        else:
            rec["from"] = source
    win_tile = _int(form, "win_tile", none=True)
    if win_tile is None:
        missing.append(Missing("win_tile"))
    else:
        rec["tile"] = T.format([win_tile])
    if form.get("after_kong") is True and how == WinHow.SELF_DRAW:
        rec["after_kong"] = True


def _asked(fact: Fact, win: bool, how: object) -> bool:
    if fact.when == "win" and not win:
        return False
    return not fact.how or how in fact.how


def _facts(d: Descriptor, form: dict[str, Any], win: bool) -> dict[str, Any]:
    facts = form.get("facts", {})
    if not isinstance(facts, dict):
        raise FormError("facts: a JSON object")
    section: dict[str, Any] = {}
    for fact in d.facts:
        if not _asked(fact, win, form.get("how")):
            continue
        value = facts.get(fact.key, fact.default)
        if fact.form == "bool":
            value = bool(value)
        unset = value is None or value is False or value == "" or (
            fact.form == "count" and value == 0)
        if fact.send == "always" or not unset:
            section[fact.key] = value
    return section


def build_record(variant_id: str, options: object,
                 form: object) -> tuple[dict[str, Any], list[Missing]]:
    """The hand record the form describes, and what it still lacks (empty: complete)."""
    if variant_id not in ids():
        raise FormError(f"variant must be one of {', '.join(ids())}, got {variant_id!r}")
    if not isinstance(form, dict):
        raise FormError("form: a JSON object")
    variant = get(variant_id)
    d = describe(variant)
    n = variant.seats
    missing: list[Missing] = []
    dealer = _int(form, "dealer")
    outcome = form.get("outcome")
    if outcome not in ("win", "draw"):
        raise FormError(f"outcome: win or draw, got {outcome!r}")
    indicator = _int(form, "indicator", none=True)
    wild = None
    if indicator is not None and d.wildcard is not None:
        wild = variant.wildcard_for([indicator], variant.default_options())
    rec: dict[str, Any] = {"variant": variant_id, "options": options, "dealer": dealer,
                           "outcome": outcome, "seats": _seats(form, n, wild, missing)}
    if d.wildcard is not None:
        if indicator is None:
            missing.append(Missing("indicator"))
        else:
            rec["indicators"] = T.format([indicator])
    win = outcome == "win"
    if win:
        _win(form, rec, variant.hand_size, missing)
    section = _facts(d, form, win)
    if section:
        rec[variant_id] = section
    return rec, missing


def next_hand(variant_id: str, form: dict[str, Any]) -> dict[str, Any]:
    """The next hand's dealer and facts, by the variant's score-keeper rules."""
    d = describe(get(variant_id))
    n = d.seats
    dealer = int(form["dealer"])
    winner = form.get("winner") if form.get("outcome") == "win" else None
    if winner is None:
        nxt = dealer
    elif d.next_dealer == "winner":
        nxt = int(winner)
    elif d.next_dealer == "dealer_keeps" and winner == dealer:
        nxt = dealer
    else:
        nxt = (dealer + 1) % n
    facts: dict[str, Any] = {}
    old = form.get("facts") or {}
    for fact in d.facts:
        if fact.carry == "keep":
            facts[fact.key] = old.get(fact.key, fact.default)
        elif fact.carry == "streak":
            facts[fact.key] = int(old.get(fact.key) or 0) + 1 if nxt == dealer else 0
        else:
            facts[fact.key] = fact.default
    return {"dealer": nxt, "facts": facts}
