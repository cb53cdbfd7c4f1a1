"""下桌 rotation of a 晃晃 room: every case named, plus properties over random sessions."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.table.room import (
    HandEnd,
    Outcome,
    Room,
    RoomError,
    finish_hand,
    join,
    leave,
    leaving_seats,
    new_room,
    rotate,
)

PEOPLE = ["A", "B", "C", "D", "E", "F", "G", "H"]


def room_with(waiting: int, dealer: int = 0) -> Room:
    return new_room(PEOPLE[: 4 + waiting], dealer=dealer)


# ------------------------------------------------------------------ named rotation cases


def test_discard_win_discarder_leaves() -> None:
    r = rotate(room_with(2), Outcome(HandEnd.DISCARD, winner=1, loser=3))
    assert r.left == ((3, "D"),)
    assert r.entered == ((3, "E"),)
    assert r.room.seats == ("A", "B", "C", "E")
    assert r.room.queue == ("F", "D")
    assert r.room.dealer == 1


def test_rob_kong_robbed_player_leaves() -> None:
    r = rotate(room_with(1), Outcome(HandEnd.ROB_KONG, winner=2, loser=0))
    assert r.left == ((0, "A"),)
    assert r.room.seats == ("E", "B", "C", "D")
    assert r.room.queue == ("A",)
    assert r.room.dealer == 2


def test_self_draw_three_waiting_all_three_losers_leave() -> None:
    r = rotate(room_with(3), Outcome(HandEnd.SELF_DRAW, winner=2))
    # Leavers in play order from the winner's next seat: 3, 0, 1.
    assert r.left == ((3, "D"), (0, "A"), (1, "B"))
    assert r.entered == ((3, "E"), (0, "F"), (1, "G"))
    assert r.room.seats == ("F", "G", "C", "E")
    assert r.room.queue == ("D", "A", "B")
    assert r.room.dealer == 2


def test_self_draw_four_waiting_three_leave_one_keeps_waiting() -> None:
    r = rotate(room_with(4), Outcome(HandEnd.SELF_DRAW, winner=0))
    assert [s for s, _ in r.left] == [1, 2, 3]
    assert r.room.seats == ("A", "E", "F", "G")
    assert r.room.queue == ("H", "B", "C", "D")


def test_self_draw_two_waiting_upper_and_lower_neighbours_leave() -> None:
    r = rotate(room_with(2), Outcome(HandEnd.SELF_DRAW, winner=1))
    # 下家 = seat 2 first, then 上家 = seat 0; the 对家 (seat 3) stays.
    assert r.left == ((2, "C"), (0, "A"))
    assert r.entered == ((2, "E"), (0, "F"))
    assert r.room.seats == ("F", "B", "E", "D")
    assert r.room.queue == ("C", "A")


def test_self_draw_one_waiting_opposite_leaves() -> None:
    r = rotate(room_with(1), Outcome(HandEnd.SELF_DRAW, winner=3))
    assert r.left == ((1, "B"),)
    assert r.room.seats == ("A", "E", "C", "D")
    assert r.room.queue == ("B",)
    assert r.room.dealer == 3


def test_self_draw_nobody_waiting_nobody_leaves() -> None:
    r = rotate(room_with(0), Outcome(HandEnd.SELF_DRAW, winner=1))
    assert r.left == () and r.entered == ()
    assert r.room.seats == ("A", "B", "C", "D")
    assert r.room.dealer == 1


def test_discard_nobody_waiting_nobody_leaves() -> None:
    r = rotate(room_with(0), Outcome(HandEnd.DISCARD, winner=0, loser=2))
    assert r.left == ()
    assert r.room.seats == ("A", "B", "C", "D")
    assert r.room.dealer == 0


def test_drawn_hand_nobody_leaves_and_dealer_deals_again() -> None:
    r = rotate(room_with(4, dealer=2), Outcome(HandEnd.DRAWN))
    assert r.left == () and r.entered == ()
    assert r.room.seats == ("A", "B", "C", "D")
    assert r.room.queue == ("E", "F", "G", "H")
    assert r.room.dealer == 2
    assert r.room.hands == 1


def test_winner_becomes_dealer_and_never_leaves() -> None:
    for end in (HandEnd.SELF_DRAW, HandEnd.DISCARD, HandEnd.ROB_KONG):
        for w in range(4):
            loser = None if end is HandEnd.SELF_DRAW else (w + 1) % 4
            for waiting in range(5):
                r = rotate(room_with(waiting), Outcome(end, w, loser))
                assert r.room.seats[w] == PEOPLE[w]
                assert r.room.dealer == w


def test_leaving_seats_table() -> None:
    sd = Outcome(HandEnd.SELF_DRAW, winner=0)
    assert leaving_seats(sd, 0) == ()
    assert leaving_seats(sd, 1) == (2,)
    assert leaving_seats(sd, 2) == (1, 3)
    assert leaving_seats(sd, 3) == (1, 2, 3)
    assert leaving_seats(sd, 4) == (1, 2, 3)
    assert leaving_seats(Outcome(HandEnd.DISCARD, 0, 3), 1) == (3,)
    assert leaving_seats(Outcome(HandEnd.DRAWN), 4) == ()


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    ("end", "winner", "loser"),
    [
        (HandEnd.DRAWN, 0, None),
        (HandEnd.SELF_DRAW, None, None),
        (HandEnd.SELF_DRAW, 1, 2),
        (HandEnd.DISCARD, 1, None),
        (HandEnd.DISCARD, 1, 1),
        (HandEnd.ROB_KONG, 4, 1),
    ],
)
def test_bad_outcomes_rejected(end: HandEnd, winner: int | None, loser: int | None) -> None:
    with pytest.raises(RoomError):
        Outcome(end, winner, loser)


def test_room_size_limits() -> None:
    with pytest.raises(RoomError, match="at least 4"):
        new_room(["A", "B", "C"])
    with pytest.raises(RoomError, match="at most 8"):
        new_room([*PEOPLE, "I"])
    with pytest.raises(RoomError, match="twice"):
        new_room(["A", "B", "C", "A"])
    full = new_room(PEOPLE)
    with pytest.raises(RoomError, match="at most 8"):
        join(full, "I")


def test_join_and_leave() -> None:
    r = join(room_with(0), "E")
    assert r.queue == ("E",) and r.ledger["E"] == 0
    with pytest.raises(RoomError, match="already"):
        join(r, "A")
    with pytest.raises(RoomError, match="seated"):
        leave(r, "A")
    r2 = leave(r, "E")
    assert r2.queue == () and "E" in r2.ledger


def test_finish_hand_books_ledger_and_rejects_non_zero_sum() -> None:
    room = room_with(1)
    rot = finish_hand(room, Outcome(HandEnd.DISCARD, 0, 1), {"A": 3, "B": -2, "E": -1})
    assert rot.room.ledger == {"A": 3, "B": -2, "C": 0, "D": 0, "E": -1}
    assert rot.room.seats == ("A", "E", "C", "D")
    with pytest.raises(RoomError, match="sum to zero"):
        finish_hand(room, Outcome(HandEnd.DRAWN), {"A": 1})
    with pytest.raises(RoomError, match="not in the room"):
        finish_hand(room, Outcome(HandEnd.DRAWN), {"A": 1, "Z": -1})


def test_room_json_round_trip() -> None:
    rot = finish_hand(room_with(3), Outcome(HandEnd.SELF_DRAW, 2), {"C": 6, "A": -2, "B": -2,
                                                                    "D": -2})
    text = json.dumps(rot.to_json())
    back = Room.from_json(json.loads(text)["room"])
    assert back == rot.room
    assert Outcome.from_json(Outcome(HandEnd.DISCARD, 1, 2).to_json()) == Outcome(
        HandEnd.DISCARD, 1, 2
    )


# ------------------------------------------------------------------ long random sessions


def random_outcome(rng: random.Random) -> Outcome:
    end = rng.choice(list(HandEnd))
    if end is HandEnd.DRAWN:
        return Outcome(end)
    w = rng.randrange(4)
    if end is HandEnd.SELF_DRAW:
        return Outcome(end, w)
    return Outcome(end, w, (w + rng.randrange(1, 4)) % 4)


def random_net(rng: random.Random, room: Room, outcome: Outcome) -> dict[str, int]:
    if outcome.winner is None:
        return {}
    people = list(room.people)
    net = {p: 0 for p in people}
    for _ in range(rng.randrange(1, 6)):
        a, b = rng.sample(people, 2)
        x = rng.randrange(1, 50)
        net[a] -= x
        net[b] += x
    return net


def check_invariants(room: Room, everyone: set[str]) -> None:
    assert len(room.seats) == 4
    assert len(set(room.people)) == len(room.people), "somebody is in two places"
    assert set(room.people) == everyone, "somebody was lost from the room"
    assert sum(room.ledger.values()) == 0
    assert 0 <= room.dealer < 4


def run_session(seed: int, people: int, hands: int) -> tuple[Room, set[str]]:
    rng = random.Random(seed)
    room = new_room(PEOPLE[:people], dealer=rng.randrange(4))
    everyone = set(room.people)
    ever_seated = set(room.seats)
    for _ in range(hands):
        outcome = random_outcome(rng)
        before = room
        rot = finish_hand(room, outcome, random_net(rng, room, outcome))
        room = rot.room
        check_invariants(room, everyone)
        # Leavers are now at the back of the queue, in the order they left.
        if rot.left:
            assert room.queue[-len(rot.left):] == tuple(p for _, p in rot.left)
            assert tuple(p for _, p in rot.entered) == before.queue[: len(rot.left)]
        if outcome.winner is not None:
            assert room.seats[outcome.winner] == before.seats[outcome.winner]
        ever_seated |= set(room.seats)
    return room, ever_seated


def test_long_seeded_session_eight_people() -> None:
    room, ever_seated = run_session(seed=20240601, people=8, hands=5000)
    assert room.hands == 5000
    assert ever_seated == set(PEOPLE), "somebody never got a seat"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), people=st.integers(4, 8))
def test_random_sessions_keep_invariants(seed: int, people: int) -> None:
    room, _ = run_session(seed, people, 200)
    assert len(room.queue) == people - 4
