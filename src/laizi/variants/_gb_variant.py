"""The engine side of ``golden`` (赖子麻将 · 黄金麻将) and ``mcr`` (国标麻将): one class,
the golden tile switched on or off.

Live play and the score-keeper share one path: a candidate win is turned into a hand
record (:meth:`~laizi.engine.game.Game.make_record`) and judged by
:func:`laizi.variants._gb_scoring.score_record`, exactly as ``laizi score`` judges a typed
record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from laizi import tiles as T
from laizi.analysis import is_win, shanten, waits
from laizi.analysis.knitted import knitted_straight_possible
from laizi.core.descriptors import Fact
from laizi.core.jsondata import JSON
from laizi.core.melds import STANDARD_KINDS
from laizi.core.records import (
    DISCARD_WIN,
    ROBBED_KONG,
    SELF_DRAW,
    WIN,
    HandRecord,
    RecordError,
    not_won,
)
from laizi.engine.actions import CHOW, KONG, PUNG, Action
from laizi.engine.variant import Variant
from laizi.scoring.mcr import FanResult, HandError
from laizi.settlement import Payment
from laizi.variants._gb_common import (
    FLOWER_SET,
    HANDS_PER_ROUND,
    TILE_SET,
    WIND_LETTERS,
    GBOptions,
    golden_for,
    seat_wind,
    wind_tile,
)
from laizi.variants._gb_scoring import (
    MCR_RULES,
    minimum_refusal,
    payments,
    score_record,
    score_win,
    win_facts,
)

if TYPE_CHECKING:
    from laizi.engine.state import HandState

__all__ = ["EXTRA_KEYS", "GBVariant", "visible_copies"]

EXTRA_KEYS = ("last_tile", "last_copy")
"""The variant section of a winning record: ``last_tile`` (the win was on the last tile
of the wall: 妙手回春 on a self-draw, 海底捞月 on a discard) and ``last_copy`` (和绝张:
the other three copies of the winning tile were already visible)."""

_CLAIMS = frozenset((CHOW, PUNG, KONG))
_NOT_A_WIN = "not a winning hand (four sets and a pair, 七对, 十三幺, 全不靠 or 组合龙)"

def _golden_out(hand: Sequence[int], golden: int | None) -> tuple[list[int], int]:
    """A copy of the counts without the golden tiles, and how many there were (wild)."""
    counts = list(hand)
    wilds = 0
    if golden is not None:
        wilds, counts[golden] = counts[golden], 0
    return counts, wilds


_PLAIN_RULES = dataclasses.replace(MCR_RULES, knitted=False)
"""MCR's shapes but the knitted ones: four sets and a pair, 七对, 十三幺."""
_READY: dict[bytes, bool] = {}
"""Readiness (听牌) of 3n+1 concealed hands by counts + golden tile (255: none), as bytes
(which the garbage collector does not track: see ``_VERDICTS``)."""


def ready(hand: Sequence[int], golden: int | None) -> bool:
    """Whether the 3n+1 concealed ``hand`` (golden tiles wild) is ready: some tile would
    complete it. A hand that is not can win on no discard, and a seat's hand stays the
    same while the other three discard, so this one answer (kept) replaces most of the
    win checks that every discard asks of every other seat."""
    key = bytes(hand) + bytes((255 if golden is None else golden,))
    got = _READY.get(key)
    if got is None:
        counts, wilds = _golden_out(hand, golden)
        # The knitted shapes (组合龙, 全不靠) make MCR's shanten dear; most hands are
        # settled without them, and the rest only need them if one could fit.
        got = shanten(counts, wilds, _PLAIN_RULES) <= 0
        if not got and (knitted_straight_possible(counts, wilds + 1) or max(counts) <= 1):
            got = shanten(counts, wilds, MCR_RULES) <= 0
        if len(_READY) > 200_000:
            _READY.clear()
        _READY[key] = got
    return got


_WAIT_MASKS: dict[bytes, bytes] = {}
"""The waits of plain MCR 3n+1 concealed hands, by counts, as a 34-byte mask (empty
when the hand is not ready). Bytes, so the garbage collector does not track them."""


def wait_mask(hand: Sequence[int]) -> bytes:
    """``mask[t]`` is 1 when tile ``t`` completes the 3n+1 concealed ``hand`` (no golden
    tile): :func:`laizi.analysis.waits` over MCR's shapes, kept per hand. A seat's hand
    stays the same while the other three discard, so one answer replaces the win-shape
    check of every discard it is asked about, and of its own self-draws."""
    key = bytes(hand)
    got = _WAIT_MASKS.get(key)
    if got is None:
        got = b""
        if ready(hand, None):
            mask = bytearray(T.NUM_KINDS)
            for t in waits(list(hand), 0, MCR_RULES):
                mask[t] = 1
            got = bytes(mask)
        if len(_WAIT_MASKS) > 200_000:
            _WAIT_MASKS.clear()
        _WAIT_MASKS[key] = got
    return got


_VERDICTS: dict[str, str | None] = {}
"""``win_refusal``'s answers for complete hands (the fan minimum), by everything the fan
depends on, written out as a string. The engine asks on every discard a ready seat could
win on, and a search's playouts ask the same questions again and again. Keys and answers
are strings: the garbage collector does not track them, so however big the cache grows
it adds nothing to its pauses (scored hands kept by the thousand did; see
``score_record``)."""


def visible_copies(game: HandState, tile: int) -> int:
    """Copies of ``tile`` anyone at the table can see: the discards still in the pools,
    every meld, and the indicators. (Concealed kongs are shown by our engine's views; a
    concealed kong of the tile rules out a win on it anyway.)"""
    n = game.indicators.count(tile)
    for pool in game.discards:
        n += pool.count(tile)
    for melds in game.melds:
        for m in melds:
            n += m.tiles.count(tile)
    return n


def _only_golden(game: HandState, seat: int) -> bool:
    """Every concealed tile of ``seat`` is golden."""
    g = game.wildcard
    return g is not None and game.hands[seat][g] == game.sizes[seat]


GB_FACTS: Final[tuple[Fact, ...]] = (
    Fact("last_tile", "bool", False, ("海底 (最后一张)", "Last tile (海底)")),
    Fact("last_copy", "bool", False, ("和绝张", "Last copy (和绝张)")),
)
"""The score-keeper's questions in golden and MCR (the facts the tiles cannot show)."""


class GBVariant(Variant):
    """The 144-tile, 81-fan game; :attr:`golden` switches the golden tile on."""

    seats = 4
    discarder_matters = False  # its discard wins are judged on the hand alone
    hand_size = 13
    options_type = GBOptions
    golden: ClassVar[bool] = False

    # ------------------------------------------------------------------ tiles

    def tile_set(self, options: Any) -> list[int]:
        return list(TILE_SET)

    def reserve(self, options: Any) -> int:
        # Standard MCR plays the wall to its last tile: no dead-wall reserve.
        return 0

    def flower_tiles(self, options: Any) -> frozenset[int]:
        return FLOWER_SET

    def wildcard_for(self, indicators: Sequence[int], options: Any) -> int | None:
        # Records write tiles sorted, so the indicator is found as the one non-flower.
        faces = [t for t in indicators if t not in FLOWER_SET]
        if not self.golden or len(faces) != 1:
            return None
        return golden_for(faces[0])

    def setup(self, game: HandState) -> None:
        if not self.golden:
            return
        # The indicator is the next tile of the wall after the deal (翻取的第一张牌), taken
        # from the head; a flower turned up is set aside with it and the next tile turned.
        while True:
            t = game.wall[game.head]
            game.head += 1
            game.indicators.append(t)
            if t not in FLOWER_SET:
                break
        game.wildcard = golden_for(t)

    # ------------------------------------------------------------------ play hooks

    def undiscardable(self, game: HandState, seat: int) -> frozenset[int]:
        g = game.wildcard
        if g is None or _only_golden(game, seat):
            # A hand of golden tiles only (e.g. two golden tiles drawn after a kong, short
            # of the minimum) may throw one away rather than be stuck without a move.
            return frozenset()
        return frozenset((g,))

    def discard_refusal(self, game: HandState, seat: int, tile: int) -> str | None:
        if tile == game.wildcard and not _only_golden(game, seat):
            return (f"{T.name(tile, 'mpsz')} is the golden tile (黄金牌): it can never be "
                    "discarded while the hand holds another tile")
        return None

    def restrict(self, game: HandState, seat: int, actions: list[Action]) -> list[Action]:
        """Claims of the golden variant: a forced golden discard (see
        :meth:`undiscardable`) is dead, and a chow or pung that would leave the claimer
        nothing but golden tiles (nothing to discard) is not offered."""
        g = game.wildcard
        if g is None or seat == game.turn:
            return actions
        hand = game.hands[seat]
        out: list[Action] = []
        for a in actions:
            kind = a.type
            if kind in _CLAIMS:
                if a.tile == g:
                    continue
                if kind != KONG:
                    # The two tiles taken from the hand; the discard is the third.
                    used = list(a.tiles)
                    assert a.tile is not None
                    used.remove(a.tile)
                    golden_left = hand[g] - used.count(g)
                    if game.sizes[seat] - 2 == golden_left:
                        continue
            out.append(a)
        return out

    def plain_turn(self, game: HandState, seat: int) -> bool:
        # restrict() only filters other seats' claims; there are no variant actions.
        return True

    def win_order(self, game: HandState, seats: Sequence[int]) -> list[int]:
        """Seats that declared a win on one tile, best first: the nearest after the
        discarder, or (option ``priority = "dealer"``) the first counted from the dealer."""
        if game.options.priority == "dealer":
            return sorted(seats, key=lambda s: (s - game.dealer) % game.n)
        return list(seats)

    def may_win(self, game: HandState, seat: int, counts: Sequence[int]) -> bool:
        # MCR's shapes, every golden tile wild (what win_refusal's waits and is_win ask).
        plain, wilds = _golden_out(counts, game.wildcard)
        return is_win(plain, wilds, MCR_RULES)

    def win_refusal(self, game: HandState, seat: int, tile: int, how: str) -> str | None:
        if how == DISCARD_WIN and tile == game.wildcard:
            return "a golden tile thrown away is dead: nobody wins on it"
        hand = game.hands[seat]
        if game.wildcard is None:
            # Plain MCR: the hand's waits, kept per hand. With golden tiles wild they
            # are dearer to settle than the win check itself (random golden play: 30.0
            # against 21.8 µs an action).
            if how == SELF_DRAW:
                before = list(hand)
                before[tile] -= 1
                mask = wait_mask(before)
            else:
                mask = wait_mask(hand)
            if not mask or not mask[tile]:
                return _NOT_A_WIN
        else:
            counts, wilds = _golden_out(hand, game.wildcard)
            if how != SELF_DRAW:
                if tile == game.wildcard:
                    wilds += 1
                else:
                    counts[tile] += 1
            if not is_win(counts, wilds, MCR_RULES):
                return _NOT_A_WIN
        # Everything the fan of this win depends on (what judge_candidate's record
        # holds for the winner), as plain values.
        extra = self._extra(game, how, tile, in_pool=how == DISCARD_WIN)
        opts = game.options
        key = repr((seat, game.dealer, how, tile, bytes(game.hands[seat]), game.wildcard,
                    [(m.kind, m.tiles) for m in game.melds[seat]], len(game.flowers[seat]),
                    how == SELF_DRAW and game.after_kong, extra["last_tile"],
                    extra["last_copy"], opts.minimum, opts.prevalent_wind))
        if key in _VERDICTS:
            return _VERDICTS[key]
        why = minimum_refusal(self._judge(game, seat, tile, how, extra), opts.minimum)
        if len(_VERDICTS) > 200_000:
            _VERDICTS.clear()
        _VERDICTS[key] = why
        return why

    def judge_candidate(self, game: HandState, seat: int, tile: int, how: str) -> FanResult:
        """The fan ``seat`` would score winning with ``tile`` now (for the UI too)."""
        # During the claim the discard still lies in the pool: it is not one of the
        # "other" copies for 和绝张.
        return self._judge(game, seat, tile, how,
                           self._extra(game, how, tile, in_pool=how == DISCARD_WIN))

    @staticmethod
    def _judge(game: HandState, seat: int, tile: int, how: str, extra: JSON
               ) -> FanResult:
        """What :func:`~laizi.variants._gb_scoring.score_record` answers for the record
        of this win (``game.make_record`` with ``extra``), from the winner's part alone:
        the engine judges every win it offers, and the other seats' tiles, which the
        record would copy, change nothing (a test holds the two to each other)."""
        counts = list(game.hands[seat])
        if how != SELF_DRAW:
            counts[tile] += 1
        ctx = win_facts(how, seat, game.dealer, bool(extra["last_tile"]),
                        how == SELF_DRAW and game.after_kong, bool(extra["last_copy"]),
                        game.options.prevalent_wind, len(game.flowers[seat]))
        return score_win(T.from_counts(counts), tile, game.melds[seat], game.wildcard, ctx)

    def record_extra(
        self, game: HandState, winners: Sequence[int], how: str | None, source: int | None
    ) -> JSON:
        if not winners or how is None or game.last_tile is None:
            return {}
        # At the end of a discard win the engine has taken the tile from the pool.
        return self._extra(game, how, game.last_tile, in_pool=False)

    @staticmethod
    def _extra(game: HandState, how: str, tile: int, *, in_pool: bool) -> JSON:
        seen = visible_copies(game, tile) - (1 if in_pool else 0)
        return {
            "last_tile": how != ROBBED_KONG and game.live_tiles <= game.reserve,
            "last_copy": how != ROBBED_KONG and seen >= 3,
        }

    # ------------------------------------------------------------------ records

    def validate_record(self, record: HandRecord) -> None:
        self._check_indicators(record)
        unknown = sorted(set(record.extra) - set(EXTRA_KEYS))
        if unknown:
            raise RecordError(f"{self.id}: unknown field(s) {', '.join(unknown)}; "
                              f"known: {', '.join(EXTRA_KEYS)}")
        for key in EXTRA_KEYS:
            if key in record.extra and not isinstance(record.extra[key], bool):
                raise RecordError(f"{self.id}.{key}: expected true or false")
        for i, seat in enumerate(record.seats):
            for t in (*(seat.concealed or ()), *(x for m in seat.melds for x in m.tiles)):
                if t in FLOWER_SET:
                    raise RecordError(f"seats[{i}]: flower {T.name(t, 'mpsz')} belongs in "
                                      "\"flowers\", not among the tiles of the hand")
            for t in seat.flowers:
                if t not in FLOWER_SET:
                    raise RecordError(f"seats[{i}].flowers: {T.name(t, 'mpsz')} is not a "
                                      "flower")
            for j, m in enumerate(seat.melds):
                if m.kind not in STANDARD_KINDS:
                    raise RecordError(f"seats[{i}].melds[{j}]: {self.id} has no "
                                      f"{m.kind!r} melds")
        if record.outcome != WIN:
            if record.extra:
                raise RecordError(f"{self.id}: a drawn hand has no {self.id} section")
            return
        self._check_win(record)

    def _check_indicators(self, record: HandRecord) -> None:
        ind = record.indicators
        if not self.golden:
            if ind:
                raise RecordError("indicators: mcr has no indicator (no golden tile)")
            return
        if not ind:
            raise RecordError("indicators: golden needs the indicator (the tile turned up "
                              "after the deal)")
        if sum(1 for t in ind if t not in FLOWER_SET) != 1:
            raise RecordError("indicators: exactly one non-flower tile (the indicator), "
                              "plus any flowers turned up before it and set aside")

    def _check_win(self, record: HandRecord) -> None:
        w = record.winners[0]
        tile = record.win_tile
        assert tile is not None
        how = record.how
        name = T.name(tile, "mpsz")
        if tile in FLOWER_SET:
            raise RecordError(f"tile: nobody wins on a flower ({name})")
        if how == DISCARD_WIN and tile == record.wildcard:
            raise RecordError(f"tile: {name} is the golden tile, which is never discarded")
        if how == ROBBED_KONG:
            src = record.source
            assert src is not None
            if not any(m.kind == PUNG and m.tiles[0] == tile
                       for m in record.seats[src].melds):
                raise RecordError(f"from: seat {src} has no exposed pung of {name} to add "
                                  "a kong to (抢杠 robs an added kong)")
        if record.after_kong and not any(m.is_kong for m in record.seats[w].melds):
            raise RecordError(f"after_kong: seat {w} has no kong to have drawn a "
                              "replacement for")
        if record.extra.get("last_tile") and how == ROBBED_KONG:
            raise RecordError(f"{self.id}.last_tile: a robbed kong is not the last tile")
        result = self._score(record)
        why = minimum_refusal(result, record.options.minimum)
        if why is not None:
            raise not_won(w, why)

    def _score(self, record: HandRecord) -> FanResult:
        try:
            return score_record(record, record.winners[0])
        except HandError as exc:
            raise RecordError(f"seats[{record.winners[0]}]: {exc}") from None

    def settle(self, record: HandRecord) -> list[Payment]:
        if record.outcome != WIN:
            return []  # 黄庄: no payments
        result = self._score(record)
        why = minimum_refusal(result, record.options.minimum)
        if why is not None:
            raise not_won(record.winners[0], why)
        return payments(record, result, self.golden)

    def fan(self, record: HandRecord) -> FanResult:
        """The winner's itemised fan (for displays and ``laizi score``)."""
        return self._score(record)

    def hand_options(self, options: Any, hand_number: int) -> Any:
        """Hand ``k`` of a match is played in the prevalent wind (圈风) of round k // 4:
        东 for hands 0-3, 南 4-7, 西 8-11, 北 12-15 (then 东 again)."""
        wind = WIND_LETTERS[(hand_number // HANDS_PER_ROUND) % 4]
        return dataclasses.replace(options, prevalent_wind=wind)

    def describe(self, record: HandRecord) -> str:
        """The winner, winds, golden tile and the fan table, one fan a line."""
        if record.outcome != WIN:
            return "黄庄 (exhaustive draw): no winner, no payments"
        w = record.winners[0]
        how: dict[str, str] = {
            SELF_DRAW: "自摸 self-drawn", DISCARD_WIN: f"点炮 on seat {record.source}'s discard",
            ROBBED_KONG: f"抢杠 robbing seat {record.source}'s kong"}
        parts = [f"seat {w} wins {how[record.how or SELF_DRAW]}",
                 f"门风 {T.name(seat_wind(w, record.dealer))}",
                 f"圈风 {T.name(wind_tile(record.options.prevalent_wind))}"]
        if record.wildcard is not None:
            parts.append(f"黄金牌 {T.name(record.wildcard)}")
        result = self._score(record)
        lines = [" · ".join(parts)]
        for f in result.fans:
            times = f" ×{f.count}" if f.count > 1 else ""
            lines.append(f"  {f.zh} {f.en}{times}: {f.points}")
        lines.append(f"  total {result.total} fan ({result.fan_without_flowers} without "
                     f"flowers; {record.options.minimum} needed)")
        if result.golden_as:
            lines.append("  golden tiles as " + T.format(result.golden_as, "mpsz"))
        return "\n".join(lines)

    def next_dealer(self, record: HandRecord) -> int:
        """The deal passes to the next seat every hand (win or draw)."""
        return (record.dealer + 1) % self.seats
