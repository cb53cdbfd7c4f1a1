"""Taiwan hand records: the ``"taiwan"`` section, its validation and the settlement.

The section holds the facts of the win a 台 count needs beyond the tiles (winds, 连N,
declarations, first-turn facts, 海底, a flower replacement, 花胡) and the score-keeper's
penalty records (诈胡 ``false_win``, 相公 ``dead_hand``). See ``docs/hand-record.md``.
"""

from __future__ import annotations

from laizi import tiles as T
from laizi.core.jsondata import JSON
from laizi.core.melds import OPEN_KINDS
from laizi.core.records import (
    DISCARD_WIN,
    ROBBED_KONG,
    SELF_DRAW,
    WIN,
    HandRecord,
    RecordError,
    not_won,
)
from laizi.scoring.taiwan import (
    HandError,
    TaiResult,
    TaiwanHand,
    TaiwanMeld,
    TaiwanOptions,
    WinContext,
    score_flower_win,
    score_hand,
    settle_dead_hand_self_draw,
    settle_false_win,
    settle_flower_win,
    settle_win,
    shown_hand_result,
)
from laizi.scoring.taiwan.words import FlowerWin
from laizi.settlement import Payment
from laizi.variants.taiwan_rules import WIND_NAMES, complete

__all__ = ["describe", "result_of", "settle", "validate", "win_context"]

_BOOLS = ("passed_win_since_declaring", "first_draw", "discarders_first_discard",
          "first_go_round_after_declaration", "last_tile", "flower_replacement")
WIN_KEYS = frozenset({"prevalent_wind", "dealer_streak", "declaration", "flower_win",
                      "dead_hand", *_BOOLS})
DRAW_KEYS = frozenset({"prevalent_wind", "dealer_streak", "false_win"})
_WIND_WORDS = {"east": 0, "south": 1, "west": 2, "north": 3,
               "1z": 0, "2z": 1, "3z": 2, "4z": 3}
FLOWER_KINDS = ("eight_immortals", "seven_robs_one")


def _seat(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 4:
        raise RecordError(f"taiwan.{where}: expected a seat number 0-3, got {value!r}")
    return value


def _bool(x: JSON, key: str, where: str = "") -> bool:
    v = x.get(key, False)
    if not isinstance(v, bool):
        raise RecordError(f"taiwan.{where}{key}: expected true or false, got {v!r}")
    return v


def prevalent_wind(x: JSON) -> int:
    """圈风 from the section: 东/南/西/北, east…north, 1z-4z or 0-3 (default 东)."""
    v = x.get("prevalent_wind", 0)
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3:
        return v
    if isinstance(v, str):
        if len(v) == 1 and v in WIND_NAMES:
            return WIND_NAMES.index(v)
        if v.lower() in _WIND_WORDS:
            return _WIND_WORDS[v.lower()]
    raise RecordError(f"taiwan.prevalent_wind: expected 东, 南, 西 or 北 (or 0-3), got {v!r}")


def dealer_streak(x: JSON) -> int:
    v = x.get("dealer_streak", 0)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise RecordError(f"taiwan.dealer_streak: expected 连N as a whole number >= 0, got {v!r}")
    return v


def win_context(record: HandRecord) -> WinContext:
    """The calculator's :class:`WinContext` of the record's win (``RecordError`` if the
    facts contradict each other)."""
    x = record.extra
    w = record.winners[0]
    declaration = x.get("declaration")
    if declaration not in (None, "heavenly", "earthly"):
        raise RecordError(f"taiwan.declaration: expected \"heavenly\" (天听) or \"earthly\" "
                          f"(地听), got {declaration!r}")
    flags = {k: _bool(x, k) for k in _BOOLS}
    try:
        return WinContext(
            self_drawn=record.how == SELF_DRAW,
            seat_wind=(w - record.dealer) % 4,
            prevalent_wind=prevalent_wind(x),
            dealer_streak=dealer_streak(x),
            robbed_kong=record.how == ROBBED_KONG,
            kong_replacement=record.after_kong,
            declaration=declaration,
            **flags,
        )
    except HandError as exc:
        raise RecordError(f"taiwan: {exc}") from None


def _hand(record: HandRecord, seat: int, tile: int) -> TaiwanHand:
    s = record.seats[seat]
    concealed = s.concealed or ()
    melds = tuple(TaiwanMeld(m.kind, m.tiles) for m in s.melds)
    return TaiwanHand((*concealed, tile), melds, s.flowers, tile)


def _flower_win(record: HandRecord) -> JSON | None:
    fw = record.extra.get("flower_win")
    if fw is None:
        return None
    if not isinstance(fw, dict):
        raise RecordError("taiwan.flower_win: expected an object {\"kind\": ...}")
    unknown = sorted(set(fw) - {"kind", "robbed", "robbed_drew_eighth", "on_deal"})
    if unknown:
        raise RecordError(f"taiwan.flower_win: unknown field(s) {', '.join(unknown)}")
    if fw.get("kind") not in FLOWER_KINDS:
        raise RecordError(f"taiwan.flower_win.kind: expected eight_immortals (八仙过海) or "
                          f"seven_robs_one (七抢一), got {fw.get('kind')!r}")
    return fw


def result_of(record: HandRecord) -> TaiResult:
    """The 台 of the record's win (ordinary or 花胡)."""
    options: TaiwanOptions = record.options
    w = record.winners[0]
    assert record.win_tile is not None
    ctx = win_context(record)
    hand = _hand(record, w, record.win_tile)
    fw = _flower_win(record)
    try:
        if fw is None:
            return _scored(hand, ctx, options)
        bloomed = ((ctx.flower_replacement or ctx.kong_replacement)
                   and complete(T.to_counts(hand.concealed),
                                options.eight_pairs and not hand.melds))
        return score_flower_win(fw["kind"], ctx, hand if bloomed else None, options,
                                on_deal=bool(fw.get("on_deal", False)))
    except HandError as exc:
        raise not_won(w, exc) from None


_SCORED: dict[tuple[TaiwanHand, WinContext, TaiwanOptions], TaiResult] = {}
"""score_hand's recent answers by its (frozen, hashable) arguments: the 听牌 hints settle
a win on a discard once for each seat that could discard it, and those records differ
only in who pays (``tests/test_taiwan_scoring_cache.py`` holds the cache to the
calculator). Kept small, as ``_gb_scoring``'s cache is."""
_SCORED_MAX = 2_000


def _scored(hand: TaiwanHand, ctx: WinContext, options: TaiwanOptions) -> TaiResult:
    """:func:`score_hand`, remembered (a pure function of values: the same arguments give
    an equal result; the calculator's errors are raised each time, never kept)."""
    key = (hand, ctx, options)
    got = _SCORED.get(key)
    if got is None:
        got = score_hand(hand, ctx, options)
        if len(_SCORED) >= _SCORED_MAX:
            _SCORED.clear()
        _SCORED[key] = got
    return got


def validate(record: HandRecord) -> None:
    x = record.extra
    keys = WIN_KEYS if record.outcome == WIN else DRAW_KEYS
    unknown = sorted(set(x) - keys)
    if unknown:
        what = "a win" if record.outcome == WIN else "a drawn hand"
        raise RecordError(f"taiwan: field(s) {', '.join(unknown)} do not belong to {what}; "
                          f"known: {', '.join(sorted(keys))}")
    prevalent_wind(x)
    dealer_streak(x)
    if record.outcome != WIN:
        if "false_win" in x:
            _false_win(record)
        return
    w = record.winners[0]
    if len(record.winners) != 1:
        raise RecordError("winners: one winner per hand in taiwan (the nearest after the "
                          "discarder)")
    if x.get("declaration") and any(m.kind in OPEN_KINDS
                                    for m in record.seats[w].melds):
        raise RecordError(f"taiwan.declaration: seat {w} declared 天听/地听, so its hand was "
                          "locked and cannot hold a chow, pung or 明杠")
    fw = _flower_win(record)
    if fw is not None:
        if record.how != SELF_DRAW:
            raise RecordError("how: a 花胡 (flower win) is recorded as self_draw (the tile "
                              "drawn last is \"tile\")")
        if len(record.seats[w].flowers) != 8:
            raise RecordError(f"taiwan.flower_win: the winner holds "
                              f"{len(record.seats[w].flowers)} flowers; a 花胡 needs all 8")
        if fw["kind"] == FlowerWin.EIGHT_IMMORTALS and fw.get("robbed") is not None:
            raise RecordError("taiwan.flower_win.robbed: 八仙过海 robs no one")
        if fw["kind"] == FlowerWin.SEVEN_ROBS_ONE:
            robbed = _seat(fw.get("robbed"), "flower_win.robbed")
            if robbed == w:
                raise RecordError("taiwan.flower_win.robbed: a player cannot rob themselves")
            _bool(fw, "robbed_drew_eighth", "flower_win.")
        _bool(fw, "on_deal", "flower_win.")
    if "dead_hand" in x:
        _dead_hand(record, fw)
    result_of(record)


def _dead_hand(record: HandRecord, fw: JSON | None) -> tuple[int, int]:
    d = record.extra["dead_hand"]
    if not isinstance(d, dict):
        raise RecordError("taiwan.dead_hand: expected {\"seat\": n, \"draws_since_penalty\": k}")
    dead = _seat(d.get("seat"), "dead_hand.seat")
    k = d.get("draws_since_penalty")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise RecordError("taiwan.dead_hand.draws_since_penalty: expected the in-turn draws "
                          f"from the penalty to the winning draw (>= 1), got {k!r}")
    if dead in record.winners:
        raise RecordError(f"taiwan.dead_hand: seat {dead} has a dead hand (相公) and cannot win")
    if record.how != SELF_DRAW or fw is not None:
        raise RecordError("taiwan.dead_hand: 相公 only changes who pays another player's "
                          "ordinary self-draw (how must be self_draw, no flower win)")
    return dead, k


def _false_win(record: HandRecord) -> tuple[int, int, bool]:
    f = record.extra["false_win"]
    if not isinstance(f, dict):
        raise RecordError("taiwan.false_win: expected {\"offender\": n, \"tile\": \"5m\"}")
    unknown = sorted(set(f) - {"offender", "tile", "exempt"})
    if unknown:
        raise RecordError(f"taiwan.false_win: unknown field(s) {', '.join(unknown)}")
    offender = _seat(f.get("offender"), "false_win.offender")
    try:
        tile = T.parse_tile(str(f.get("tile")), "mpsz")
    except (T.NotationError, ValueError) as exc:
        raise RecordError(f"taiwan.false_win.tile: {exc}") from None
    if not 0 <= tile < T.NUM_KINDS:
        raise RecordError("taiwan.false_win.tile: the tile claimed is not a flower")
    if record.seats[offender].concealed is None:
        raise RecordError(f"seats[{offender}]: the hand laid down in the false win (its "
                          "concealed tiles) is needed")
    used = 1
    for s in record.seats:
        used += sum(1 for t in (s.concealed or ()) if t == tile)
        used += sum(1 for m in s.melds for t in m.tiles if t == tile)
    if used > 4:
        raise RecordError(f"taiwan.false_win.tile: {T.name(tile, 'mpsz')} would be the "
                          f"{used}th copy; there are four")
    return offender, tile, _bool(f, "exempt", "false_win.")


def settle(record: HandRecord) -> list[Payment]:
    options: TaiwanOptions = record.options
    x = record.extra
    if record.outcome != WIN:
        if "false_win" not in x:
            return []
        offender, tile, exempt = _false_win(record)
        ctx = WinContext(self_drawn=True, seat_wind=(offender - record.dealer) % 4,
                         prevalent_wind=prevalent_wind(x), dealer_streak=dealer_streak(x))
        try:
            hand: TaiwanHand | None = _hand(record, offender, tile)
        except HandError:
            hand = None  # not even 17 tiles: counts no items (dealer 台 still apply)
        shown = shown_hand_result(hand, ctx, options)
        return settle_false_win(offender, shown, dealer=record.dealer, exempt=exempt,
                                options=options)
    w = record.winners[0]
    result = result_of(record)
    fw: JSON | None = _flower_win(record)
    if fw is not None:
        robbed = fw.get("robbed")
        return settle_flower_win(result, winner=w, dealer=record.dealer, robbed=robbed,
                                 robbed_drew_eighth=bool(fw.get("robbed_drew_eighth", True)),
                                 options=options)
    discarder = record.source if record.how in (DISCARD_WIN, ROBBED_KONG) else None
    payments = settle_win(result, winner=w, dealer=record.dealer, discarder=discarder,
                          options=options)
    if "dead_hand" in x:
        dead, k = _dead_hand(record, fw)
        payments = settle_dead_hand_self_draw(payments, dead=dead, draws_since_penalty=k)
    return payments


def describe(record: HandRecord) -> str:
    """One line for people: who won how, with the 台 items."""
    x = record.extra
    if record.outcome != WIN:
        if "false_win" in x:
            offender, tile, exempt = _false_win(record)
            return (f"诈胡 (false win) by seat {offender} on {T.name(tile, 'mpsz')}"
                    + (" — exempt (胡铳VS胡铳)" if exempt else ""))
        return "流局 (drawn hand)"
    w = record.winners[0]
    result = result_of(record)
    hows: dict[str, str] = {
        SELF_DRAW: "self-draw (自摸)", DISCARD_WIN: f"seat {record.source}'s discard",
        ROBBED_KONG: f"robbing seat {record.source}'s kong (抢杠)"}
    how = hows[record.how or SELF_DRAW]
    items = [*result.flower_items, *result.items]
    text = ", ".join(i.reason() for i in items) or "no 台"
    total = result.flower_tai + result.tai
    dealer_text = ", ".join(i.reason() for i in result.dealer_items)
    dealer = f"; dealer 台 {result.dealer_tai} ({dealer_text})" if dealer_text else ""
    return f"seat {w} wins on {how}: {text} = {total}台{dealer}"
