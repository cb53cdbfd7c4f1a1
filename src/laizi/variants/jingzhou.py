"""荆州麻将 · 红中赖子杠 (``jingzhou``): three players, 96 tiles, 红中杠 and 赖子杠.

The rules are in ``docs/rules/jingzhou.md`` (with a Decisions section); hand judging is in
:mod:`laizi.variants.jingzhou_rules`, settlement in :mod:`laizi.variants.jingzhou_scoring`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from laizi import tiles as T
from laizi.core.descriptors import Fact, Presentation
from laizi.core.jsondata import JSON
from laizi.core.melds import OPEN_KINDS, STANDARD_KINDS, Meld
from laizi.core.records import (
    DISCARD_WIN,
    ROBBED_KONG,
    SELF_DRAW,
    WIN,
    HandRecord,
    RecordError,
    not_won,
)
from laizi.engine.variant import Variant
from laizi.settlement import Payment
from laizi.variants.jingzhou_rules import (
    LAIZI_KONG,
    QUAN,
    RED,
    RED_KONG,
    TILE_KINDS,
    could_win,
    is_ready,
    laizi_for,
    readings,
)
from laizi.variants.jingzhou_scoring import describe, judge
from laizi.variants.rule_options import JingzhouOptions
from laizi.vocab import ActionType, MeldKind, WinHow

if TYPE_CHECKING:
    from laizi.engine.state import HandState

__all__ = ["VARIANT", "Jingzhou", "JingzhouOptions"]


_odd = (1).__and__
_EXTRA_KEYS = frozenset({"discarder_ready", "qingyise_feeder"})


class Jingzhou(Variant):
    """荆州麻将 · 红中赖子杠."""

    id = "jingzhou"
    name = "荆州麻将 · 红中赖子杠"
    seats = 3
    hand_size = 13
    options_type = JingzhouOptions
    presentation = Presentation(
        order=0,
        melds=((MeldKind.RED_DRAGON_KONG, ("红中杠", "red dragon kong")),
               (MeldKind.LAIZI_KONG, ("赖子杠", "laizi kong"))),
        forms=((ActionType.SPECIAL_KONG, MeldKind.RED_DRAGON_KONG, ("红中杠", "Red dragon kong")),
               (ActionType.SPECIAL_KONG, MeldKind.LAIZI_KONG, ("赖子杠", "Laizi kong"))),
        facts=(Fact("discarder_ready", "bool", True,
                    ("点炮的人当时已听牌 (全求人包牌用)",
                     "The discarder was ready (for 全求人 包牌)"),
                    how=(WinHow.DISCARD,), send="always"),
               Fact("qingyise_feeder", "seat", None,
                    ("清一色第三副是谁喂的", "Who fed the 3rd meld of the flush (清一色 包牌)"))))

    # ------------------------------------------------------------------ tiles

    def tile_set(self, options: Any) -> list[int]:
        return [t for t in TILE_KINDS for _ in range(4)]

    def reserve(self, options: Any) -> int:
        return int(options.reserve)

    def wildcard_for(self, indicators: Sequence[int], options: Any) -> int | None:
        if len(indicators) != 1:
            return None
        return laizi_for(indicators[0])

    def special_kinds(self) -> frozenset[str]:
        return frozenset({RED_KONG, LAIZI_KONG})

    def setup(self, game: HandState) -> None:
        game.wildcard = laizi_for(game.reveal_indicator())
        blocked = frozenset({RED, game.wildcard})
        game.extra["blocked"] = sorted(blocked)
        self._cache_blocked(game)

    @staticmethod
    def _cache_blocked(game: HandState) -> frozenset[int]:
        cached = game.blocked_cache
        if cached is None:
            cached = game.blocked_cache = frozenset(game.extra["blocked"])
        return cached

    # ------------------------------------------------------------------ play hooks

    def meld_blocked(self, game: HandState) -> frozenset[int]:
        return self._cache_blocked(game)

    def undiscardable(self, game: HandState, seat: int) -> frozenset[int]:
        return self._cache_blocked(game)

    def special_kongs(self, game: HandState) -> dict[int, str]:
        kongs = game.special_kongs_cache
        if kongs is None:
            assert game.wildcard is not None
            kongs = game.special_kongs_cache = {RED: RED_KONG, game.wildcard: LAIZI_KONG}
        return kongs

    def discard_refusal(self, game: HandState, seat: int, tile: int) -> str | None:
        if tile == RED:
            return "中 cannot be discarded: play it out as a 红中杠 (special_kong)"
        if tile == game.wildcard:
            return "the laizi cannot be discarded: play it out as a 赖子杠 (special_kong)"
        return None

    def win_refusal(self, game: HandState, seat: int, tile: int, how: str) -> str | None:
        hand = game.hands[seat]
        if hand[RED]:
            return "a 中 is in the hand (play it out as a 红中杠 first)"
        melds = game.melds[seat]
        opened = False
        for m in melds:
            if m.kind in OPEN_KINDS:
                opened = True
                break
        if not opened and (game.sizes[seat] + (how != SELF_DRAW)) != 14:
            return "the hand has not opened (开口); only 七对 wins closed"
        if how != SELF_DRAW:
            if tile == RED or tile == game.wildcard:
                return "nobody wins on a 中 or laizi played out"
            counts = hand.copy()
            counts[tile] += 1
        else:
            counts = hand
        if not opened:
            wilds = counts[game.wildcard] if game.wildcard is not None else 0
            if sum(map(_odd, counts)) > wilds:
                return "the hand has not opened (开口); only 七对 wins closed"
        if not could_win(counts, melds, game.wildcard):
            return "not a winning hand"
        return self._judge_now(game, seat, counts, tile, how)

    def may_win(self, game: HandState, seat: int, counts: Sequence[int]) -> bool:
        # What win_refusal asks first, for both routes: no 中 held, a shape could_win.
        return not counts[RED] and could_win(counts, game.melds[seat], game.wildcard)

    def _judge_now(
        self, game: HandState, seat: int, counts: list[int], tile: int, how: str
    ) -> str | None:
        found, why = readings(counts, game.melds[seat], game.wildcard, how,
                              how == SELF_DRAW and game.after_kong)
        if why is not None:
            return why
        if any(r.big_hands for r in found):
            return None  # a big hand always pays at least 10: no minimum to check
        source = None if how == SELF_DRAW else game.turn
        record = game.make_record([seat], how, source, tile)
        out = judge(record, seat)
        return out if isinstance(out, str) else None

    def on_claim(self, game: HandState, seat: int, meld: Meld) -> None:
        # 清一色 包牌: remember who fed a seat's third exposed meld of one suit.
        suit = T.suit(meld.tiles[0])
        if suit not in (1, 2):
            return
        earlier = [m for m in game.melds[seat] if m.kind in OPEN_KINDS and m is not meld]
        if len(earlier) == 2 and all(T.suit(m.tiles[0]) == suit for m in earlier):
            game.extra.setdefault("qingyise_feeder", {})[str(seat)] = meld.source

    def record_extra(
        self, game: HandState, winners: Sequence[int], how: str | None, source: int | None
    ) -> JSON:
        out: JSON = {}
        if how == DISCARD_WIN and source is not None:
            out["discarder_ready"] = is_ready(game.hands[source], game.melds[source],
                                              game.wildcard)
        feeders = game.extra.get("qingyise_feeder", {})
        for w in winners:
            if str(w) in feeders:
                out["qingyise_feeder"] = feeders[str(w)]
        return out

    # ------------------------------------------------------------------ records

    def validate_record(self, record: HandRecord) -> None:
        if len(record.indicators) != 1:
            raise RecordError("indicators: jingzhou has exactly one indicator (赖子皮)")
        laizi = record.wildcard
        unknown = sorted(set(record.extra) - _EXTRA_KEYS)
        if unknown:
            raise RecordError(f"jingzhou: unknown field(s) {', '.join(unknown)}; "
                              f"known: {', '.join(sorted(_EXTRA_KEYS))}")
        for i, seat in enumerate(record.seats):
            for j, m in enumerate(seat.melds):
                where = f"seats[{i}].melds[{j}]"
                if m.kind == RED_KONG and m.tiles != (RED,):
                    raise RecordError(f"{where}: a red_dragon_kong (红中杠) is one 7z")
                if m.kind == LAIZI_KONG and m.tiles != (laizi,):
                    raise RecordError(f"{where}: a laizi_kong (赖子杠) is one laizi "
                                      f"({T.name(laizi or 0, 'mpsz')})")
                if m.kind in STANDARD_KINDS and (RED in m.tiles or laizi in m.tiles):
                    raise RecordError(f"{where}: 中 and the laizi never take part in a "
                                      "chow, pung or kong")
        if record.outcome != WIN:
            return
        w = record.winners[0]
        if record.how in (DISCARD_WIN, ROBBED_KONG) and record.win_tile in (RED, laizi):
            raise RecordError("tile: nobody wins on a 中 or laizi played out")
        feeder = record.extra.get("qingyise_feeder")
        if feeder is not None and not any(m.source == feeder for m in record.seats[w].melds):
            raise RecordError(f"jingzhou.qingyise_feeder: seat {feeder} fed none of "
                              f"seat {w}'s melds")
        ready = record.extra.get("discarder_ready")
        if ready is not None and not isinstance(ready, bool):
            raise RecordError("jingzhou.discarder_ready: expected true or false")
        out = judge(record, w)
        if isinstance(out, str):
            raise not_won(w, out)
        if QUAN in out.reading.big_hands and record.how == DISCARD_WIN and ready is None:
            raise RecordError("jingzhou: missing field 'discarder_ready' (was the discarder "
                              "ready when it discarded? it decides 全求人 包牌)")

    def settle(self, record: HandRecord) -> list[Payment]:
        if record.outcome != WIN:
            return []
        out = judge(record, record.winners[0])
        if isinstance(out, str):
            raise not_won(record.winners[0], out)
        return out.payments()

    def describe(self, record: HandRecord) -> str:
        if record.outcome != WIN:
            return "黄庄: the wall ran down to the reserve; no payments"
        out = judge(record, record.winners[0])
        return out if isinstance(out, str) else describe(out)

    def next_dealer(self, record: HandRecord) -> int:
        """The winner deals next; after a draw the dealer deals again."""
        return record.winners[0] if record.outcome == WIN else record.dealer


VARIANT = Jingzhou()
