"""荆州晃晃 (``huanghuang``): four seated players, 120 tiles, a laizi, 买马 horse bets.

The rules and the project's decisions are in ``docs/rules/huanghuang.md``; hand value and
the payment table are in :mod:`laizi.variants.huanghuang_scoring`; rooms of up to eight
people (下桌) in :mod:`laizi.table.room` and horse payments in :mod:`laizi.table.horses`.

Horses in the engine: the people who buy a horse are given as the option ``horses`` — the
*party* of each buyer in the order the tiles are dealt (0-3: the person at that seat; 4, 5,
…: the waiting people, front of the queue first). :meth:`HuanghuangVariant.setup` takes one
tile per horse from the tail after the indicator, face down and out of play, before the
dealer's first discard. The table's payments (:meth:`settle`) are between seats, as the
engine expects; :func:`settle_with_horses` adds the horse payments between parties.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from laizi import tiles as T
from laizi.analysis import is_win
from laizi.core.descriptors import Fact, Presentation, Wildcard
from laizi.core.jsondata import JSON
from laizi.core.melds import ADDED_KONG, CHOW, CONCEALED_KONG, KONG, PUNG
from laizi.core.melds import Meld as EngineMeld
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
from laizi.table.horses import Horse, HorseError, horse_payments, horse_value
from laizi.variants.huanghuang_scoring import (
    ANY_SHAPE,
    TILE_KINDS,
    Meld,
    MeldKind,
    NotAWin,
    WinKind,
    evaluate,
    laizi_of,
    payments,
)
from laizi.variants.rule_options import MAX_PARTIES, HuanghuangOptions

if TYPE_CHECKING:
    from laizi.engine.state import HandState

__all__ = [
    "MAX_PARTIES",
    "VARIANT",
    "HuanghuangOptions",
    "HuanghuangVariant",
    "record_horses",
    "settle_with_horses",
    "win_kind",
]


_MELD_KINDS: dict[str, MeldKind] = {
    CHOW: MeldKind.CHOW,
    PUNG: MeldKind.PUNG,
    KONG: MeldKind.KONG,
    ADDED_KONG: MeldKind.KONG,
    CONCEALED_KONG: MeldKind.CONCEALED_KONG,
}
_EXTRA_KEYS = frozenset({"laizi_discarded", "horses", "people"})


def win_kind(how: str, after_kong: bool) -> WinKind:
    """The scoring :class:`WinKind` of an engine ``how`` (+ 杠开 flag)."""
    if how == SELF_DRAW:
        return WinKind.KONG_DRAW if after_kong else WinKind.SELF_DRAW
    if how == DISCARD_WIN:
        return WinKind.DISCARD
    if how == ROBBED_KONG:
        return WinKind.ROB_KONG
    raise ValueError(f"unknown way of winning {how!r}")


def _scoring_melds(melds: Sequence[EngineMeld]) -> list[Meld]:
    return [Meld(_MELD_KINDS[m.kind], m.tiles[0]) for m in melds]


class HuanghuangVariant(Variant):
    """荆州晃晃."""

    id = "huanghuang"
    discarder_matters = False  # its discard wins are judged on the hand alone
    name = "荆州晃晃"
    seats = 4
    hand_size = 13
    options_type = HuanghuangOptions
    presentation = Presentation(
        order=1, wildcard=Wildcard("癞", ("癞子", "laizi (wildcard)"), ("癞子皮", "indicator")),
        facts=(Fact("laizi_discarded", "count", 0, ("打出的癞子张数", "Laizi discarded this hand"),
                    when="always", maximum=4),))

    # ------------------------------------------------------------------ options

    def options_to_json(self, options: Any) -> JSON:
        return {"base": options.base, "horses": list(options.horses)}

    # ------------------------------------------------------------------ tiles

    def tile_set(self, options: Any) -> list[int]:
        return [t for t in TILE_KINDS for _ in range(4)]

    def wildcard_for(self, indicators: Sequence[int], options: Any) -> int | None:
        if len(indicators) != 1 or indicators[0] not in TILE_KINDS:
            return None
        return laizi_of(indicators[0])

    def setup(self, game: HandState) -> None:
        game.wildcard = laizi_of(game.reveal_indicator())
        # Horse tiles: one per buyer from the tail, face down, out of play. Like the
        # indicator they leave the wall before anyone acts (see the module docstring).
        horse_tiles = []
        for _ in game.options.horses:
            game.tail -= 1
            horse_tiles.append(game.wall[game.tail])
        game.extra["horse_tiles"] = horse_tiles
        game.blocked_cache = frozenset({game.wildcard})

    # ------------------------------------------------------------------ play hooks

    def meld_blocked(self, game: HandState) -> frozenset[int]:
        blocked = game.blocked_cache
        if blocked is None:
            blocked = frozenset({game.wildcard}) if game.wildcard is not None else frozenset()
            game.blocked_cache = blocked
        return blocked

    def win_refusal(self, game: HandState, seat: int, tile: int, how: str) -> str | None:
        laizi = game.wildcard
        assert laizi is not None
        hand = game.hands[seat]
        if how != SELF_DRAW:
            if tile == laizi:
                return "a discarded laizi is dead: nobody may win on it"
            counts = hand.copy()
            counts[tile] += 1
        else:
            counts = hand
        if not self.may_win(game, seat, counts):
            return "not a winning hand"
        try:
            evaluate(T.from_counts(counts), _scoring_melds(game.melds[seat]), laizi,
                     win_kind(how, how == SELF_DRAW and game.after_kong))
        except NotAWin as exc:
            return str(exc)
        return None

    def may_win(self, game: HandState, seat: int, counts: Sequence[int]) -> bool:
        # Cheap common path: the shape with every laizi wild (the widest reading).
        laizi = game.wildcard
        assert laizi is not None
        soft = list(counts)
        soft[laizi] = 0
        return is_win(soft, counts[laizi], ANY_SHAPE)

    def record_extra(
        self, game: HandState, winners: Sequence[int], how: str | None, source: int | None
    ) -> JSON:
        laizi = game.wildcard
        assert laizi is not None
        # A discarded laizi is dead, so it stays in its discarder's pool.
        discarded = 0
        for pool in game.discards:
            discarded += pool.count(laizi)
        horses = [{"holder": h, "tile": T.name(t, "mpsz")}
                  for h, t in zip(game.options.horses, game.extra.get("horse_tiles", ()),
                                  strict=True)]
        out: JSON = {"laizi_discarded": discarded}
        if horses:
            out["horses"] = horses
        return out

    def next_dealer(self, record: HandRecord) -> int:
        """The winner deals next; after a draw the dealer deals again."""
        return record.winners[0] if record.outcome == WIN else record.dealer

    # ------------------------------------------------------------------ records

    def validate_record(self, record: HandRecord) -> None:
        if len(record.indicators) != 1:
            raise RecordError("indicators: huanghuang has exactly one indicator")
        laizi = record.wildcard
        assert laizi is not None
        unknown = sorted(set(record.extra) - _EXTRA_KEYS)
        if unknown:
            raise RecordError(f"huanghuang: unknown field(s) {', '.join(unknown)}; "
                              f"known: {', '.join(sorted(_EXTRA_KEYS))}")
        used = 0
        for i, seat in enumerate(record.seats):
            for j, m in enumerate(seat.melds):
                if laizi in m.tiles:
                    raise RecordError(f"seats[{i}].melds[{j}]: the laizi never takes part in "
                                      "a chow, pung or kong")
            used += sum(1 for t in seat.concealed or () if t == laizi)
        if record.win_tile == laizi:
            used += 1
        k = record.extra.get("laizi_discarded", 0)
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise RecordError(f"huanghuang.laizi_discarded: expected a whole number >= 0, "
                              f"got {k!r}")
        if used + k > 4:
            raise RecordError(f"huanghuang.laizi_discarded: {k} discarded and {used} in hands "
                              f"is more than the 4 laizi ({T.name(laizi, 'mpsz')}) in the set")
        horses = record_horses(record)
        self._check_horse_copies(record, [h.tile for h in horses])
        people = record.extra.get("people")
        if people is not None and (not isinstance(people, list) or not all(
                isinstance(p, str) and p for p in people) or len(set(people)) != len(people)
                or not 4 <= len(people) <= MAX_PARTIES):
            raise RecordError("huanghuang.people: expected 4-8 different names (seats 0-3, "
                              "then the waiting people)")
        for h in horses:
            party = int(h.person)
            if people is not None and party >= len(people):
                raise RecordError(f"huanghuang.horses: holder {party} is not one of the "
                                  f"{len(people)} people")
        if record.outcome != WIN:
            return
        if record.how in (DISCARD_WIN, ROBBED_KONG) and record.win_tile == laizi:
            raise RecordError("tile: a discarded laizi is dead: nobody may win on it")
        w = record.winners[0]
        assert record.how is not None
        try:
            evaluate(record.hand_of(w), _scoring_melds(record.seats[w].melds), laizi,
                     win_kind(record.how, record.after_kong), record.win_tile)
        except NotAWin as exc:
            raise not_won(w, exc) from None

    def _check_horse_copies(self, record: HandRecord, horse_tiles: Sequence[int]) -> None:
        used = T.to_counts(record.indicators)
        for t in horse_tiles:
            used[t] += 1
        for seat in record.seats:
            for m in seat.melds:
                for t in m.tiles:
                    used[t] += 1
            for t in seat.concealed or ():
                used[t] += 1
        if record.win_tile is not None:
            used[record.win_tile] += 1
        for t, c in enumerate(used):
            if c > 4:
                raise RecordError(f"huanghuang.horses: {T.name(t, 'mpsz')} appears {c} times "
                                  "counting the horse tiles; the set has 4")

    def settle_parties(self, record: HandRecord) -> tuple[list[Payment], int]:
        """Table and horse payments together, and the number of parties they are between
        (4 seats, then the waiting horse holders 4-7): what ``laizi score`` prints."""
        table, horse = settle_with_horses(record)
        holders = [int(h.person) for h in record_horses(record)]
        people = record.extra.get("people")
        parties = max([4, *(h + 1 for h in holders)]
                      + ([len(people)] if isinstance(people, list) else []))
        return table + horse, parties

    def describe(self, record: HandRecord) -> str:
        if record.outcome != WIN:
            return "荒庄: a drawn hand, no payments, nobody leaves the table"
        w = record.winners[0]
        assert record.how is not None and record.wildcard is not None
        kind = win_kind(record.how, record.after_kong)
        try:
            value = evaluate(record.hand_of(w), _scoring_melds(record.seats[w].melds),
                             record.wildcard, kind, record.win_tile)
        except NotAWin:
            return ""
        k = int(record.extra.get("laizi_discarded", 0))
        laizi = f", {k} laizi discarded (×{2**k})" if k else ""
        value_text = " ".join(r.text() for r in value.reasons)
        return (f"seat {w} wins by {kind.chinese}: {value_text}{laizi}; "
                f"laizi {T.name(record.wildcard)}")

    def settle(self, record: HandRecord) -> list[Payment]:
        """The table's payments between the four seats (horses: :func:`settle_with_horses`)."""
        if record.outcome != WIN:
            return []
        w = record.winners[0]
        assert record.how is not None and record.wildcard is not None
        kind = win_kind(record.how, record.after_kong)
        try:
            value = evaluate(record.hand_of(w), _scoring_melds(record.seats[w].melds),
                             record.wildcard, kind, record.win_tile)
        except NotAWin as exc:
            raise not_won(w, exc) from None
        return payments(kind, w, record.source, value,
                        int(record.extra.get("laizi_discarded", 0)), record.options.base)


def record_horses(record: HandRecord) -> list[Horse]:
    """The horses of a record's ``huanghuang`` section; ``Horse.person`` is the party
    number as a string ("0"-"3" a seat, "4"-"7" the waiting people)."""
    raw = record.extra.get("horses", [])
    if not isinstance(raw, list):
        raise RecordError("huanghuang.horses: expected a list of {\"holder\", \"tile\"}")
    out: list[Horse] = []
    for i, h in enumerate(raw):
        where = f"huanghuang.horses[{i}]"
        if not isinstance(h, dict) or "holder" not in h or "tile" not in h:
            raise RecordError(f"{where}: expected {{\"holder\": party, \"tile\": \"5m\"}}")
        holder = h["holder"]
        if isinstance(holder, bool) or not isinstance(holder, int) or not (
                0 <= holder < MAX_PARTIES):
            raise RecordError(f"{where}.holder: expected a party 0-{MAX_PARTIES - 1} (0-3 a "
                              f"seat, 4-7 a waiting person), got {holder!r}")
        try:
            tile = T.parse_tile(h["tile"]) if isinstance(h["tile"], str) else int(h["tile"])
            horse_value(tile)
        except (ValueError, HorseError) as exc:
            raise RecordError(f"{where}.tile: {exc}") from None
        out.append(Horse(str(holder), tile))
    holders = [h.person for h in out]
    if len(set(holders)) != len(holders):
        raise RecordError("huanghuang.horses: each person may buy only one horse")
    return out


def settle_with_horses(record: HandRecord) -> tuple[list[Payment], list[Payment]]:
    """(table payments, horse payments) between *parties*: 0-3 the seated people, 4-7 the
    waiting people. Together they sum to zero; a drawn hand has neither."""
    table = VARIANT.settle(record)
    horses = record_horses(record)
    names = [str(s) for s in range(4)]
    horse = [Payment(int(p.payer), int(p.payee), p.amount, p.reasons)
             for p in horse_payments(table, names, horses, record.dealer)]
    return table, horse


VARIANT = HuanghuangVariant()
