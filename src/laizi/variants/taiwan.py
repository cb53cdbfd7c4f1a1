"""台湾十六张 (``taiwan``): 144 tiles, 16-tile hands, flowers, 天听/地听, 花胡, 连庄.

Play runs on the shared engine; the 台 are counted by :mod:`laizi.scoring.taiwan`. The
rules and every decision are in ``docs/rules/taiwan.md`` (section "Play"); the record
section in ``docs/hand-record.md``. Per-hand session facts come from ``Game.context``:
``{"prevalent_wind": 0-3, "dealer_streak": N}`` (the table's 将,
:class:`laizi.table.session.TaiwanSession`, fills them).

Variant actions (``Variant.action_types``):

* ``declare`` — 天听 (no tile; answered in the ``decide`` phase after the deal by a
  non-dealer whose 16 tiles are ready) or 地听 (in one's first turn, before the first
  discard; the discard that follows must keep the hand ready). A declared hand is locked.
* ``flower_win`` — 八仙过海, in the turn after collecting the eighth flower.
* ``rob_flower`` (tile = the flower robbed) — 七抢一, holding seven flowers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from laizi import tiles as T
from laizi.core.descriptors import Fact, Presentation
from laizi.core.jsondata import JSON
from laizi.core.melds import OPEN_KINDS
from laizi.core.records import DISCARD_WIN, ROBBED_KONG, SELF_DRAW, HandRecord
from laizi.engine.actions import (
    ADDED_KONG,
    CONCEALED_KONG,
    DECLARE,
    DISCARD,
    FLOWER_WIN,
    PASS,
    ROB_FLOWER,
    WIN,
    Action,
)
from laizi.engine.variant import Variant
from laizi.scoring.taiwan import SEED, TaiwanOptions
from laizi.scoring.taiwan.words import FlowerWin
from laizi.settlement import Payment
from laizi.variants import taiwan_records as R
from laizi.variants.taiwan_rules import (
    RESERVE,
    TILE_SET,
    WIND_NAMES,
    complete,
    hand_waits,
    ready_after_some_discard,
    ready_waits,
)
from laizi.vocab import Phase, WinHow

if TYPE_CHECKING:
    from laizi.engine.state import HandState

__all__ = ["DECLARE", "FLOWER_WIN", "ROB_FLOWER", "VARIANT", "Taiwan"]

HEAVENLY, EARTHLY = "heavenly", "earthly"
_CLAIMED = "claimed"  # Game.turn_kind of a turn that began with a chow or pung


def _act(kind: str, seat: int, tile: int | None = None) -> Action:
    return Action(kind, seat, tile)


class Taiwan(Variant):
    """台湾十六张 on the shared engine."""

    id = "taiwan"
    discarder_matters = False  # its discard wins are judged on the hand alone
    name = "台湾十六张"
    seats = 4
    hand_size = 16
    options_type = TaiwanOptions
    presentation = Presentation(
        order=3,
        actions=((DECLARE, ("听", "Declare ready")),
                 (FLOWER_WIN, ("八仙过海", "八仙过海 (flower win)")),
                 (ROB_FLOWER, ("七抢一", "七抢一 (rob the flower)"))),
        forms=((DECLARE, Phase.DECIDE, ("天听", "天听 (declare ready)")),),
        facts=(
            Fact("prevalent_wind", "wind", "东", ("圈风", "Prevalent wind"), when="always",
                 send="always", carry="keep"),
            Fact("dealer_streak", "count", 0, ("连庄数 (连N拉N)", "Dealer streak (连N)"),
                 when="always", carry="streak", maximum=99),
            Fact("declaration", "choice", None, ("听牌宣告", "Declaration"),
                 choices=(("heavenly", ("天听", "天听 heavenly")),
                          ("earthly", ("地听", "地听 earthly")))),
            Fact("first_draw", "bool", False, ("第一次摸牌就胡 (天胡/地胡)",
                                                 "Won on the first draw (天胡/地胡)")),
            Fact("last_tile", "bool", False, ("海底 (最后一张)", "Last tile (海底)")),
            Fact("flower_replacement", "bool", False,
                 ("补花后自摸", "Self-drawn on a flower's replacement"),
                 how=(WinHow.SELF_DRAW,)),
            Fact("discarders_first_discard", "bool", False,
                 ("胡在点炮者的第一张打牌上 (地胡)", "On the discarder's first discard (地胡)"),
                 how=(WinHow.DISCARD,))))

    # ------------------------------------------------------------------ options

    def default_options(self) -> TaiwanOptions:
        return SEED

    def options_from_json(self, data: JSON | None) -> TaiwanOptions:
        return TaiwanOptions.from_json(dict(data or {}))

    def options_to_json(self, options: Any) -> JSON:
        return dict(options.to_json())

    # ------------------------------------------------------------------ tiles

    def tile_set(self, options: Any) -> list[int]:
        return list(TILE_SET)

    def reserve(self, options: Any) -> int:
        return RESERVE

    def flower_tiles(self, options: Any) -> frozenset[int]:
        return frozenset(T.FLOWERS)

    def action_types(self) -> frozenset[str]:
        return frozenset({DECLARE, FLOWER_WIN, ROB_FLOWER})

    # ------------------------------------------------------------------ state helpers

    @staticmethod
    def _x(game: HandState) -> JSON:
        return game.extra

    @staticmethod
    def _eight(game: HandState, seat: int) -> bool:
        return bool(game.options.eight_pairs) and not game.melds[seat]

    def _ready_after_discard(self, game: HandState, seat: int, t: int) -> bool:
        counts = game.hands[seat].copy()
        counts[t] -= 1
        return bool(ready_waits(counts, self._eight(game, seat)))

    # ------------------------------------------------------------------ start and flowers

    def start(self, game: HandState) -> None:
        n = game.n
        game.extra.update({
            "discards": [0] * n,
            "declared": [None] * n,
            "passed": [False] * n,
            "human": None,
            "declaring": None,
            "flower_ready": None,
            "after_flower": None,
            "asking": None,
        })
        owners = {f: s for s in range(n) for f in game.flowers[s]}
        for s in range(n):
            held = len(game.flowers[s])
            if held == 8:
                game.extra["flower_ready"] = {"seat": s, "kind": "eight_immortals",
                                              "on_deal": True}
            elif held == 7 and len(owners) == 8:
                (f,) = [f for f, o in owners.items() if o != s]
                game.extra["flower_ready"] = {"seat": s, "kind": "seven_robs_one",
                                              "robbed": owners[f], "flower": f,
                                              "on_deal": True}
        pending: dict[int, Sequence[Action]] = {}
        for i in range(1, n):
            s = (game.dealer + i) % n
            if ready_waits(game.hands[s], self._eight(game, s)):
                pending[s] = (_act(DECLARE, s), _act(PASS, s))
        if pending or game.uniform:
            # With uniform windows every hand opens the 天听 window, so its opening
            # does not show that some seat was dealt a ready hand.
            game.extra["asking"] = {"kind": HEAVENLY}
            game.ask(pending)

    def on_flower(self, game: HandState, seat: int, flower: int) -> None:
        x = game.extra
        x["after_flower"] = seat
        fl = game.flowers
        if len(fl[seat]) == 8:
            x["flower_ready"] = {"seat": seat, "kind": "eight_immortals", "on_deal": False}
            return
        if sum(len(f) for f in fl) != 8 or game.live_tiles <= game.reserve:
            return
        for a in range(game.n):
            if len(fl[a]) == 7:
                victim = next(s for s in range(game.n) if s != a and fl[s])
                f = fl[victim][0]
                x["asking"] = {"kind": "rob", "seat": a, "victim": victim, "flower": f,
                               "drawer": seat}
                game.ask({a: (_act(ROB_FLOWER, a, f), _act(PASS, a))})
                return

    def resolve(self, game: HandState, responses: dict[int, Action]) -> None:
        x = game.extra
        asking = x["asking"]
        x["asking"] = None
        if asking["kind"] == HEAVENLY:
            for s, a in sorted(responses.items()):
                if a.type == DECLARE:
                    x["declared"][s] = HEAVENLY
            game.resume()
            return
        a_seat = int(asking["seat"])
        if responses[a_seat].type != ROB_FLOWER:
            game.resume()
            return
        victim, f = int(asking["victim"]), int(asking["flower"])
        game.suspended = None  # the interrupted draw is abandoned: the hand ends here
        game.move_flower(victim, a_seat, f)
        got = game.draw_replacement(a_seat)
        if got is None:
            return
        x["flower_win"] = {"kind": "seven_robs_one", "robbed": victim,
                           "robbed_drew_eighth": victim == int(asking["drawer"]),
                           "on_deal": False}
        x["after_flower"] = a_seat
        game.end_win([a_seat], SELF_DRAW, None, got)

    # ------------------------------------------------------------------ turn and claims

    def turn_actions(self, game: HandState, seat: int) -> list[Action]:
        x = game.extra
        out: list[Action] = []
        ready = x.get("flower_ready")
        if ready is not None and ready["seat"] == seat and game.turn_kind != _CLAIMED:
            if ready["kind"] == FlowerWin.EIGHT_IMMORTALS and len(game.flowers[seat]) == 8:
                out.append(_act(FLOWER_WIN, seat))
            elif (ready["kind"] == FlowerWin.SEVEN_ROBS_ONE
                  and ready["flower"] in game.flowers[int(ready["robbed"])]):
                out.append(_act(ROB_FLOWER, seat, int(ready["flower"])))
        if (x["declared"][seat] is None and x["declaring"] is None
                and x["discards"][seat] == 0 and game.turn_kind != _CLAIMED
                and not any(m.kind in OPEN_KINDS for m in game.melds[seat])
                and ready_after_some_discard(game.hands[seat], self._eight(game, seat))):
            out.append(_act(DECLARE, seat))
        return out

    def restrict(self, game: HandState, seat: int, actions: list[Action]) -> list[Action]:
        x = game.extra
        declared = x.get("declared")
        if not declared:
            return actions
        if seat != game.turn:  # claim or rob options: a locked hand may only win
            if declared[seat] is None:
                return actions
            return [a for a in actions if a.type == WIN]
        if x["declaring"] == seat:
            return [a for a in actions if a.type == DISCARD
                    and self._ready_after_discard(game, seat, a.tile)]  # type: ignore[arg-type]
        if declared[seat] is None:
            return actions
        drawn = game.last_tile
        if drawn is None:
            return actions
        return [a for a in actions
                if a.type in (WIN, FLOWER_WIN, ROB_FLOWER)
                or (a.type == DISCARD and a.tile == drawn)
                or (a.type == CONCEALED_KONG and a.tile == drawn
                    and self._kong_keeps_waits(game, seat, drawn))]

    def plain_turn(self, game: HandState, seat: int) -> bool:
        # No variant action and no lock: not a seat that holds a flower win (八仙过海,
        # 七抢一), nor one that may still declare 地听 (before its first discard), nor a
        # declared or declaring hand.
        x = game.extra
        declared = x.get("declared")
        if not declared:
            return False
        ready = x.get("flower_ready")
        return ((ready is None or ready["seat"] != seat)
                and (x["discards"][seat] > 0 or game.turn_kind == _CLAIMED)
                and declared[seat] is None and x["declaring"] != seat)

    def _kong_keeps_waits(self, game: HandState, seat: int, t: int) -> bool:
        """A locked hand may 暗杠 the tile it drew only if its waits stay the same."""
        before = game.hands[seat].copy()
        before[t] -= 1
        after = before.copy()
        after[t] -= 3
        eight = self._eight(game, seat)
        return ready_waits(before, eight) == ready_waits(after, False)

    def action_refusal(self, game: HandState, action: Action) -> str | None:
        x = game.extra
        declared = x.get("declared")
        if not declared or game.phase == Phase.OVER:
            return None
        seat = action.seat
        if game.phase == Phase.TURN and seat == game.turn and action.type == DISCARD:
            if x["declaring"] == seat and game.hands[seat][action.tile or 0]:
                return "地听: the discard after declaring must keep the hand ready"
            if declared[seat] and action.tile != game.last_tile:
                return "locked hand (天听/地听): discard the tile you drew, or win"
        if action.type in (DECLARE, FLOWER_WIN, ROB_FLOWER) and action not in \
                game.legal_actions(seat):
            refusals: dict[str, str] = {
                DECLARE: "cannot declare now: 天听 is declared right after the deal by a "
                         "ready non-dealer, 地听 in one's first turn with a concealed "
                         "hand that stays ready",
                FLOWER_WIN: "八仙过海 needs all eight flowers, in the turn they came",
                ROB_FLOWER: "七抢一 needs seven flowers and the eighth just out"}
            return refusals[action.type]
        return None

    def on_action(self, game: HandState, action: Action) -> None:
        x = game.extra
        seat, kind = action.seat, action.type
        if game.phase == Phase.TURN and seat == game.turn:
            if kind == DISCARD:
                x["discards"][seat] += 1
                if x["declaring"] == seat:
                    x["declaring"] = None
                    x["human"] = {"seat": seat, "at": list(x["discards"])}
                ready = x["flower_ready"]
                if ready is not None and ready["seat"] == seat and game.turn_kind != _CLAIMED:
                    x["flower_ready"] = None
                x["after_flower"] = None
            elif kind == DECLARE:
                x["declared"][seat] = EARTHLY
                x["declaring"] = seat
            elif kind in (CONCEALED_KONG, ADDED_KONG):
                x["after_flower"] = None
        elif (game.phase in (Phase.CLAIM, Phase.ROB) and kind == PASS and x["declared"][seat]
              and any(a.type == WIN for a in game.pending.get(seat, ()))):
            x["passed"][seat] = True

    def apply_action(self, game: HandState, action: Action) -> None:
        x = game.extra
        seat = action.seat
        if action.type == DECLARE:
            return  # the declaration is noted in on_action; the discard follows
        ready = x["flower_ready"]
        if action.type == FLOWER_WIN:
            x["flower_win"] = {"kind": "eight_immortals", "on_deal": bool(ready["on_deal"])}
        else:
            victim, f = int(ready["robbed"]), int(ready["flower"])
            game.move_flower(victim, seat, f)
            x["flower_win"] = {"kind": "seven_robs_one", "robbed": victim,
                               "robbed_drew_eighth": False, "on_deal": bool(ready["on_deal"])}
        assert game.last_tile is not None
        game.end_win([seat], SELF_DRAW, None, game.last_tile)

    def may_win(self, game: HandState, seat: int, counts: Sequence[int]) -> bool:
        return complete(list(counts), self._eight(game, seat))

    def win_refusal(self, game: HandState, seat: int, tile: int, how: str) -> str | None:
        eight = self._eight(game, seat)
        if (complete(game.hands[seat], eight) if how == SELF_DRAW
                else tile in hand_waits(game.hands[seat], eight)):
            return None
        return "not five melds and a pair" + (" nor 八对半" if eight else "")

    # ------------------------------------------------------------------ records

    def record_extra(
        self, game: HandState, winners: Sequence[int], how: str | None, source: int | None
    ) -> JSON:
        x = game.extra
        w = winners[0]
        ctx = game.context
        out: JSON = {
            "prevalent_wind": WIND_NAMES[int(ctx.get("prevalent_wind", 0))],
            "dealer_streak": int(ctx.get("dealer_streak", 0)),
        }
        declared = x.get("declared", [None] * game.n)[w]
        if declared:
            out["declaration"] = declared
            out["passed_win_since_declaring"] = bool(x["passed"][w])
        discards = x.get("discards", [0] * game.n)
        if how == SELF_DRAW and discards[w] == 0:
            out["first_draw"] = True
        if how == DISCARD_WIN and source is not None and discards[source] == 1:
            out["discarders_first_discard"] = True
        human = x.get("human")
        if declared == EARTHLY and human is not None and human["seat"] == w:
            at = human["at"]
            if (how == SELF_DRAW and discards[w] == at[w]) or (
                    how == DISCARD_WIN and source is not None
                    and discards[source] == at[source] + 1):
                out["first_go_round_after_declaration"] = True
        if how != ROBBED_KONG and game.live_tiles <= game.reserve:
            out["last_tile"] = True
        if how == SELF_DRAW and x.get("after_flower") == w:
            out["flower_replacement"] = True
        if x.get("flower_win"):
            out["flower_win"] = dict(x["flower_win"])
        return out

    def validate_record(self, record: HandRecord) -> None:
        R.validate(record)

    def settle(self, record: HandRecord) -> list[Payment]:
        return R.settle(record)

    def describe(self, record: HandRecord) -> str:
        return R.describe(record)

    def view_extra(self, game: HandState, seat: int) -> JSON:
        x = game.extra
        ctx = game.context
        return {
            "prevalent_wind": int(ctx.get("prevalent_wind", 0)),
            "dealer_streak": int(ctx.get("dealer_streak", 0)),
            "seat_winds": [(s - game.dealer) % game.n for s in range(game.n)],
            "declared": list(x.get("declared", [None] * game.n)),
            "discard_counts": list(x.get("discards", [0] * game.n)),
            "asking": x.get("asking"),
        }

    def restore_extra(self, game: HandState, view_extra: JSON) -> None:
        # Declarations and how many discards each seat has made are public: a sample
        # must know who is locked (听牌 declared) and who may still declare (地听).
        x = game.extra
        for key, shown in (("declared", "declared"), ("discards", "discard_counts")):
            if shown in view_extra:
                x[key] = list(view_extra[shown])
            else:
                x[key] = list(x[key])
        # What a decision window asks (天听 at the start, 七抢一) is public.
        x["asking"] = view_extra.get("asking")


VARIANT = Taiwan()
