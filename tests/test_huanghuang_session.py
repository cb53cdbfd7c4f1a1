"""A 晃晃 room on the engine: horses, payments between people, 下桌, long sessions."""

from __future__ import annotations

from typing import Any

from laizi.settlement import net
from laizi.table.horses import horse_seat
from laizi.table.room import HandEnd, Room, new_room
from laizi.variants.huanghuang import settle_with_horses
from laizi.variants.huanghuang_session import (
    eager_chooser,
    new_hand,
    outcome_of,
    parties,
    play_room_hand,
    run_session,
)

PEOPLE = ["ann", "bo", "cy", "di", "ed", "fay", "gus", "hal"]


eager = eager_chooser


def test_horses_are_dealt_to_buyers_in_order_and_settle_between_people() -> None:
    room = new_room(PEOPLE[:6], dealer=2)
    game, order = new_hand(room, seed=5, buyers={"ann", "ed", "cy"})
    assert order == ("cy", "ann", "ed")  # seated from the dealer (seat 2), then the queue
    assert game.options.horses == (2, 0, 4)
    hand = play_room_hand(room, 5, eager(1), buyers={"ann", "ed", "cy"})
    assert [h.person for h in hand.horses] == ["cy", "ann", "ed"]
    assert sum(hand.net.values()) == 0


def test_person_payments_agree_with_the_records_party_payments() -> None:
    room = new_room(PEOPLE, dealer=0)
    checked = 0
    for hand in run_session(room, 40, seed=100, choose=eager(2)):
        record = hand.game.record
        assert record is not None
        table, horse = settle_with_horses(record)
        names = list(parties(_room_before(hand)))
        by_party = net(table + horse, 8)
        assert {names[i]: v for i, v in enumerate(by_party) if v} == {
            p: v for p, v in hand.net.items() if v}
        assert hand.outcome == outcome_of(record)
        if record.outcome == "win":
            checked += 1
            for h in hand.horses:
                seat = horse_seat(h.tile, hand.dealer)
                assert 0 <= seat < 4
    assert checked > 5


def _room_before(hand: Any) -> Room:
    """The room as it was when the hand was dealt (seats, then the queue)."""
    rot = hand.rotation
    queue = list(rot.room.queue)
    for _ in rot.left:
        queue.pop()
    entered = [p for _, p in rot.entered]
    return Room(hand.seats, tuple(entered + queue), hand.dealer,
                {p: 0 for p in [*hand.seats, *entered, *queue]})


def test_seeded_session_eight_people_ledgers_sum_to_zero_nobody_lost() -> None:
    room = new_room(PEOPLE, dealer=0)
    everyone = set(PEOPLE)
    ends: dict[HandEnd, int] = {}
    horse_money = 0
    last = room
    for hand in run_session(room, 120, seed=2024, choose=eager(3)):
        r = hand.rotation.room
        assert sum(r.ledger.values()) == 0
        assert len(set(r.people)) == 8 and set(r.people) == everyone
        assert len(r.seats) == 4 and len(r.queue) == 4
        ends[hand.outcome.end] = ends.get(hand.outcome.end, 0) + 1
        horse_money += sum(p.amount for p in hand.horse_payments)
        if hand.outcome.winner is not None:
            assert r.dealer == hand.outcome.winner
            assert r.seats[hand.outcome.winner] == hand.seats[hand.outcome.winner]
        last = r
    assert last.hands == 120
    assert horse_money > 0
    assert ends.get(HandEnd.DISCARD, 0) > 0 and ends.get(HandEnd.SELF_DRAW, 0) > 0
    assert ends.get(HandEnd.DRAWN, 0) > 0
