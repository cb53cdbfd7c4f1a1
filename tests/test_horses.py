"""买马: horse values, seats, and payments between people (zero-sum, self-payments dropped)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi import tiles
from laizi.reasons import Reason
from laizi.settlement import Payment
from laizi.table.horses import (
    Horse,
    HorseError,
    PersonPayment,
    assign_horses,
    buy_order,
    hand_payments,
    horse_payments,
    horse_seat,
    horse_value,
    person_net,
)

SEATS = ("A", "B", "C", "D")
T = tiles.parse_tile


def test_horse_values() -> None:
    for suit in "mps":
        for v in range(1, 10):
            assert horse_value(T(f"{v}{suit}")) == v
    assert horse_value(tiles.RED) == 2
    assert horse_value(tiles.GREEN) == 3
    assert horse_value(tiles.WHITE) == 4
    with pytest.raises(HorseError):
        horse_value(tiles.EAST)


def test_horse_seats_count_from_the_dealer() -> None:
    assert horse_seat(T("1m"), dealer=2) == 2  # 1 = the dealer
    assert horse_seat(T("2p"), dealer=2) == 3  # 2 = the dealer's 下家
    assert horse_seat(T("5s"), dealer=2) == 2  # 5 wraps to the dealer
    assert horse_seat(T("9m"), dealer=0) == 0
    assert horse_seat(tiles.RED, dealer=3) == 0  # 中 = 2
    assert horse_seat(tiles.GREEN, dealer=3) == 1  # 发 = 3
    assert horse_seat(tiles.WHITE, dealer=3) == 2  # 白 = 4


WIN_DISCARD = Reason.of("win_times", how="discard", times=1)
WIN_SELF_DRAW = Reason.of("win_times", how="self_draw", times=2)


def discard_win() -> list[Payment]:
    """Seat 1 wins on seat 3's discard for 4."""
    return [Payment(3, 1, 4, (WIN_DISCARD,))]


def self_draw() -> list[Payment]:
    """Seat 0 wins by 自摸 for 2 from each."""
    return [Payment(s, 0, 2, (WIN_SELF_DRAW,)) for s in (1, 2, 3)]


def simple(ps: list[PersonPayment]) -> list[tuple[str, str, int]]:
    return [(p.payer, p.payee, p.amount) for p in ps]


def test_horse_on_the_winner_collects_from_the_discarder() -> None:
    # Dealer 0; 2m names seat 1, the winner. E waits and holds it.
    out = horse_payments(discard_win(), SEATS, [Horse("E", T("2m"))], dealer=0)
    assert simple(out) == [("D", "E", 4)]
    assert out[0].reasons == (
        Reason.of("horse", tile="2m", value=2, seat=1, payer=3, payee=1), WIN_DISCARD)
    assert [r.text() for r in out[0].reasons] == [
        "买马 二万 = 2 → 1号位: 跟随 3号位 → 1号位", "放胡 ×1"]
    assert PersonPayment.from_json(out[0].to_json()) == out[0]


def test_horse_on_the_loser_pays_the_winner() -> None:
    # 4p names seat 3, the discarder.
    out = horse_payments(discard_win(), SEATS, [Horse("F", T("4p"))], dealer=0)
    assert simple(out) == [("F", "B", 4)]


def test_horse_on_an_uninvolved_seat_settles_nothing() -> None:
    # 3s names seat 2, neither paid nor was paid.
    assert horse_payments(discard_win(), SEATS, [Horse("E", T("3s"))], dealer=0) == []
    assert horse_payments(discard_win(), SEATS, [Horse("E", T("1s"))], dealer=0) == []


def test_horse_on_a_self_draw_winner_collects_from_all_three() -> None:
    out = horse_payments(self_draw(), SEATS, [Horse("E", T("5m"))], dealer=0)
    assert sorted(simple(out)) == [("B", "E", 2), ("C", "E", 2), ("D", "E", 2)]


def test_horse_on_a_self_draw_loser_pays_only_its_share() -> None:
    out = horse_payments(self_draw(), SEATS, [Horse("E", tiles.RED)], dealer=0)  # 中 = seat 1
    assert simple(out) == [("E", "A", 2)]


def test_seated_person_with_horse_on_own_seat_doubles_their_result() -> None:
    # The winner B holds a horse on seat 1 (their own): B receives twice from D.
    out = horse_payments(discard_win(), SEATS, [Horse("B", T("2s"))], dealer=0)
    assert simple(out) == [("D", "B", 4)]
    # The discarder D holds a horse on their own seat 3: D pays twice.
    out = horse_payments(discard_win(), SEATS, [Horse("D", T("8s"))], dealer=0)
    assert simple(out) == [("D", "B", 4)]


def test_self_payment_is_dropped() -> None:
    # The discarder D holds a horse on the winner's seat: it would be D paying D.
    assert horse_payments(discard_win(), SEATS, [Horse("D", T("6m"))], dealer=0) == []
    # The winner B holds a horse on the discarder's seat: B would pay B.
    assert horse_payments(discard_win(), SEATS, [Horse("B", T("4m"))], dealer=0) == []
    # 自摸: loser C holds a horse on winner A: C's own payment to A is dropped, but the
    # horse still collects from B and D.
    out = horse_payments(self_draw(), SEATS, [Horse("C", T("1p"))], dealer=0)
    assert sorted(simple(out)) == [("B", "C", 2), ("D", "C", 2)]


def test_drawn_hand_no_horse_settles() -> None:
    horses = [Horse(p, T("1m")) for p in "ABCDEFGH"]
    assert horse_payments([], SEATS, horses, dealer=0) == []


def test_whole_hand_sums_to_zero_and_matches_hand_computation() -> None:
    horses = [Horse("A", T("2m")), Horse("E", T("4m")), Horse("F", tiles.WHITE),
              Horse("G", T("9p")), Horse("H", T("7s"))]
    table, horse = hand_payments(discard_win(), SEATS, horses, dealer=0)
    net = person_net(table + horse)
    assert sum(net.values()) == 0
    # Seat 1 (B) wins 4 from D (seat 3). Horses: A on seat 1 (+4 from D); E on seat 3
    # (pays 4 to B); F 白=4 on seat 3 (pays 4 to B); G 9 → seat 0 uninvolved;
    # H 7 → seat 2 uninvolved.
    assert net == {"A": 4, "B": 12, "D": -8, "E": -4, "F": -4}


def test_buy_order_and_assignment() -> None:
    order = buy_order(SEATS, ("E", "F"), dealer=2)
    assert order == ("C", "D", "A", "B", "E", "F")
    horses = assign_horses(order, [T("1m"), T("2m"), T("3m"), T("4m"), T("5m"), T("6m")])
    assert horses[0] == Horse("C", T("1m")) and horses[-1] == Horse("F", T("6m"))
    with pytest.raises(HorseError, match="only one horse"):
        assign_horses(["A", "A"], [T("1m"), T("2m")])
    with pytest.raises(HorseError, match="only 1 tiles"):
        assign_horses(["A", "B"], [T("1m")])
    with pytest.raises(HorseError):
        assign_horses(["A"], [tiles.EAST])


def reference(payments: list[Payment], seats: tuple[str, ...], horses: list[Horse],
              dealer: int) -> dict[str, int]:
    """Obviously-correct net per person: each horse holder's stake copies its seat's net."""
    seat_net = [0, 0, 0, 0]
    for p in payments:
        seat_net[p.payer] -= p.amount
        seat_net[p.payee] += p.amount
    net: dict[str, int] = {}
    for s, person in enumerate(seats):
        net[person] = net.get(person, 0) + seat_net[s]
    for h in horses:
        s = (dealer + horse_value(h.tile) - 1) % 4
        for p in payments:
            if s == p.payee and h.person != seats[p.payer]:
                net[h.person] = net.get(h.person, 0) + p.amount
                net[seats[p.payer]] -= p.amount
            if s == p.payer and h.person != seats[p.payee]:
                net[h.person] = net.get(h.person, 0) - p.amount
                net[seats[p.payee]] += p.amount
    return {k: v for k, v in net.items() if v}


HORSE_TILES = [t for t in range(27)] + [tiles.RED, tiles.GREEN, tiles.WHITE]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_horse_payments_zero_sum_and_match_reference(seed: int) -> None:
    rng = random.Random(seed)
    people = ["A", "B", "C", "D", "E", "F", "G", "H"][: rng.randrange(4, 9)]
    rng.shuffle(people)
    seats = tuple(people[:4])
    dealer = rng.randrange(4)
    w = rng.randrange(4)
    kind = rng.randrange(3)
    x = rng.choice([1, 2, 4, 8, 16])
    if kind == 0:
        payments = [Payment((w + rng.randrange(1, 4)) % 4, w, x)]
    elif kind == 1:
        payments = [Payment(s, w, x) for s in range(4) if s != w]
    else:
        payments = []
    buyers = [p for p in people if rng.random() < 0.7]
    horses = [Horse(p, rng.choice(HORSE_TILES)) for p in buyers]
    table, horse = hand_payments(payments, seats, horses, dealer)
    assert all(p.payer != p.payee and p.amount > 0 for p in table + horse)
    net = person_net(table + horse)
    assert sum(net.values()) == 0
    assert {k: v for k, v in net.items() if v} == reference(payments, seats, horses, dealer)
