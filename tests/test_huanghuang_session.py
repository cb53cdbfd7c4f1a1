"""A 晃晃 room at the one table: horses, payments between people, 下桌, long sessions.

``LAIZI_ROOM_HANDS=2000 pytest tests/test_huanghuang_session.py -k eight`` is the long
self-check (8 people, every hand checked).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

from laizi.engine.actions import Action
from laizi.settlement import net
from laizi.table.driver import BotController, play, play_hand
from laizi.table.horses import horse_seat
from laizi.table.room import HandEnd, leaving_seats
from laizi.table.session import outcome_of
from laizi.table.table import Entry, Table
from laizi.tiles import parse_tile
from laizi.variants.huanghuang import settle_with_horses

PEOPLE = ["ann", "bo", "cy", "di", "ed", "fay", "gus", "hal"]
HANDS = int(os.environ.get("LAIZI_ROOM_HANDS", "120"))


class Eager:
    """A fast seeded stand-in player for long checks: wins when it can, often claims."""

    name = "eager"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], acts: Sequence[Action]) -> Action:
        for a in acts:
            if a.type == "win":
                return a
        claims = [a for a in acts if a.type in ("pung", "kong", "concealed_kong",
                                                 "added_kong")]
        if claims and self.rng.random() < 0.7:
            return self.rng.choice(claims)
        return self.rng.choice(list(acts))


def eager(seed: int) -> BotController:
    return BotController(Eager(seed))


def _last(table: Table, kind: str) -> Entry:
    return next(e for e in reversed(table.log) if e["type"] == kind)


def test_horses_are_dealt_to_buyers_in_order_and_settle_between_people() -> None:
    t = Table("huanghuang", people=PEOPLE[:6], seed=5, dealer=2)
    for p in ("bo", "di", "fay"):
        t.buy_horse(p, False)
    game = t.start_hand()
    # seated from the dealer (seat 2), then the queue; parties: seats 0-3, then waiting 4, 5
    assert game.options.horses == (2, 0, 4)
    controller = eager(1)
    play_hand(t, lambda person: controller)
    end = _last(t, "hand_end")
    assert [h["person"] for h in end["horses"]] == ["cy", "ann", "ed"]
    assert sum(end["net"].values()) == 0
    assert sum(t.ledger.values()) == 0


def test_person_payments_agree_with_the_records_party_payments() -> None:
    t = Table("huanghuang", people=PEOPLE, seed=100)
    checked = 0

    def check(table: Table) -> None:
        nonlocal checked
        game = table.game
        assert game is not None and game.record is not None
        record = game.record
        hand, end = _last(table, "hand"), _last(table, "hand_end")
        parties = [*hand["seats"], *hand["waiting"]]
        pays, horse = settle_with_horses(record)
        by_party = net(pays + horse, 8)
        assert {parties[i]: v for i, v in enumerate(by_party) if v} == {
            p: v for p, v in end["net"].items() if v}
        if record.outcome == "win":
            checked += 1
            for h in end["horses"]:
                assert 0 <= horse_seat(parse_tile(h["tile"]), hand["dealer"]) < 4

    controller = eager(2)
    play(t, lambda person: controller, hands=40, after_hand=check)
    assert checked > 5


def test_seeded_session_eight_people_ledgers_sum_to_zero_nobody_lost() -> None:
    t = Table("huanghuang", people=PEOPLE, seed=2024)
    everyone = set(PEOPLE)
    ends: dict[HandEnd, int] = {}
    horse_money = 0

    def check(table: Table) -> None:
        nonlocal horse_money
        game = table.game
        assert game is not None and game.record is not None
        hand, end = _last(table, "hand"), _last(table, "hand_end")
        assert sum(table.ledger.values()) == 0
        assert len(set(table.people)) == 8 and set(table.people) == everyone
        assert len(table.seats) == 4 and len(table.waiting) == 4 and None not in table.seats
        outcome = outcome_of(game.record)
        ends[outcome.end] = ends.get(outcome.end, 0) + 1
        # 下桌: the leavers of the table's rule go to the back of the queue in order and the
        # front of the queue takes their seats.
        out = leaving_seats(outcome, len(hand["waiting"]))
        assert [s for s, _ in end["left"]] == list(out)
        assert [p for _, p in end["left"]] == [hand["seats"][s] for s in out]
        assert [p for _, p in end["entered"]] == hand["waiting"][:len(out)]
        assert list(table.waiting) == [*hand["waiting"][len(out):],
                                       *(p for _, p in end["left"])]
        horse_money += sum(p["amount"] for p in end["payments"]
                           if p["reasons"] and p["reasons"][0]["code"] == "horse")
        if outcome.winner is not None:
            assert table.dealer == outcome.winner
            assert table.seats[outcome.winner] == hand["seats"][outcome.winner]
        else:
            assert table.dealer == hand["dealer"]

    controller = eager(3)
    assert play(t, lambda person: controller, hands=HANDS, after_hand=check) == HANDS
    assert t.number == HANDS
    assert horse_money > 0
    assert ends.get(HandEnd.DISCARD, 0) > 0 and ends.get(HandEnd.SELF_DRAW, 0) > 0
    assert ends.get(HandEnd.DRAWN, 0) > 0


def test_people_join_and_leave_between_hands_and_keep_their_scores() -> None:
    t = Table("huanghuang", people=PEOPLE[:5], seed=9)
    controller = eager(4)

    def everyone(person: str) -> BotController:
        return controller

    play(t, everyone, hands=3)
    seated = t.seats[1]
    assert seated is not None
    score = t.ledger[seated]
    front = t.waiting[0]
    t.leave(seated)
    assert t.seats[1] == front and seated not in t.people and t.ledger[seated] == score
    t.join("gus")
    t.join(seated)  # back again, at the back of the queue, with the old score
    assert t.waiting[-1] == seated and t.ledger[seated] == score
    play(t, everyone, hands=3)
    assert sum(t.ledger.values()) == 0 and len(set(t.people)) == len(t.people) == 6
    t.close()
    assert Table.from_log(t.dumps().splitlines()).to_json() == t.to_json()
