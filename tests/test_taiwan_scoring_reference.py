"""Slow, obviously-correct references for the Taiwan calculator, held to it by hypothesis.

* waits (独听) by trying every tile kind on a brute-force completeness test that removes a
  group starting at *any* tile (not only the lowest, as the fast code does);
* the set of readings by the same brute force, every placement of the winning tile, and
  就高 as the plain maximum over them;
* exclusions, the self-draw items and zero-sum settlements as invariants.
"""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laizi import tiles as T
from laizi.scoring.taiwan import (
    TaiwanHand,
    TaiwanMeld,
    TaiwanOptions,
    WinContext,
    readings,
    score_hand,
    settle_win,
)
from laizi.scoring.taiwan.calculator import score_reading
from laizi.scoring.taiwan.facts import Part, Reading
from laizi.scoring.taiwan.items import BY_ID
from laizi.settlement import net

Groups = tuple[tuple[str, tuple[int, ...]], ...]


@cache
def ref_splits(counts: tuple[int, ...], need_pair: bool = True) -> frozenset[Groups]:
    """Every multiset of chows/pungs (+ one pair) using exactly ``counts``."""
    if not any(counts):
        return frozenset({()}) if not need_pair else frozenset()
    found: set[Groups] = set()
    for t in range(34):
        options: list[tuple[str, tuple[int, ...], bool]] = []
        if counts[t] >= 3:
            options.append(("pung", (t, t, t), need_pair))
        if need_pair and counts[t] >= 2:
            options.append(("pair", (t, t), False))
        if t < 27 and t % 9 <= 6 and counts[t] and counts[t + 1] and counts[t + 2]:
            options.append(("chow", (t, t + 1, t + 2), need_pair))
        for kind, tiles, still_pair in options:
            rest = list(counts)
            for u in tiles:
                rest[u] -= 1
            for tail in ref_splits(tuple(rest), still_pair):
                found.add(tuple(sorted(((kind, tiles), *tail))))
    return frozenset(found)


def ref_eight_pairs(counts: list[int]) -> list[int]:
    """The pung tiles t for which ``counts`` is seven pairs + a pung of t (八对半)."""
    if sum(counts) != 17:
        return []
    found = []
    for t in range(34):
        rest = list(counts)
        rest[t] -= 3
        if rest[t] >= 0 and all(c % 2 == 0 for c in rest):
            found.append(t)
    return found


def ref_waits(before: list[int], held: list[int], eight_pairs: bool) -> set[int]:
    out = set()
    for t in range(34):
        if held[t] >= 4:
            continue
        after = list(before)
        after[t] += 1
        if ref_splits(tuple(after)) or (eight_pairs and ref_eight_pairs(after)):
            out.add(t)
    return out


# ---------------------------------------------------------------- random winning hands


@st.composite
def hands(draw: st.DrawFn) -> tuple[TaiwanHand, WinContext]:
    left = [4] * 34
    groups: list[tuple[str, tuple[int, ...]]] = []

    def take(tiles: tuple[int, ...]) -> bool:
        need = T.to_counts(tiles)
        if any(n > left[t] for t, n in enumerate(need)):
            return False
        for t in tiles:
            left[t] -= 1
        return True

    if draw(st.integers(0, 5)) == 0:
        return draw(eight_pairs_hands())
    honour_heavy = draw(st.booleans())
    one_suit = draw(st.sampled_from([None, 0, 1, 2]))

    def pick_tile() -> int:
        if honour_heavy and draw(st.booleans()):
            return draw(st.integers(27, 33))
        if one_suit is not None:
            return one_suit * 9 + draw(st.integers(0, 8))
        return draw(st.integers(0, 33))

    while len(groups) < 5:
        kind = draw(st.sampled_from(["chow", "pung", "pung", "kong"]))
        t = pick_tile()
        if kind == "chow":
            if t >= 27 or t % 9 > 6:
                continue
            tiles: tuple[int, ...] = (t, t + 1, t + 2)
        else:
            tiles = (t,) * (4 if kind == "kong" else 3)
        if take(tiles):
            groups.append((kind, tiles))
    while True:
        t = pick_tile()
        if take((t, t)):
            break
    n_declared = draw(st.integers(0, 5))
    melds: list[TaiwanMeld] = []
    concealed: list[int] = [t, t]
    for i, (kind, tiles) in enumerate(groups):
        if kind == "kong":
            melds.append(TaiwanMeld(draw(st.sampled_from(["kong", "concealed_kong"])), tiles))
        elif i < n_declared:
            melds.append(TaiwanMeld(kind, tiles))
        else:
            concealed.extend(tiles)
    win = draw(st.sampled_from(sorted(set(concealed))))
    n_flowers = draw(st.integers(0, 3))
    flowers = tuple(draw(st.lists(st.integers(34, 41), min_size=n_flowers,
                                  max_size=n_flowers, unique=True)))
    hand = TaiwanHand(tuple(concealed), tuple(melds), flowers, win)
    self_drawn = draw(st.booleans())
    seat = draw(st.integers(0, 3))
    ctx = WinContext(
        self_drawn=self_drawn,
        seat_wind=seat,
        prevalent_wind=draw(st.integers(0, 3)),
        dealer_streak=draw(st.integers(0, 3)),
        robbed_kong=not self_drawn and draw(st.booleans()),
        kong_replacement=self_drawn and draw(st.booleans()),
        last_tile=draw(st.booleans()),
    )
    return hand, ctx


def fit(hand: TaiwanHand, options: TaiwanOptions) -> TaiwanOptions:
    """Turn 八对半 on for a hand that has no other reading."""
    if ref_splits(tuple(T.to_counts(hand.concealed))):
        return options
    return TaiwanOptions(eight_pairs=True)


SLOW = [HealthCheck.large_base_example, HealthCheck.too_slow, HealthCheck.filter_too_much]
@st.composite
def eight_pairs_hands(draw: st.DrawFn) -> tuple[TaiwanHand, WinContext]:
    """Seven pairs and a pung, concealed (八对半), sometimes from one suit."""
    pool = draw(st.sampled_from([list(range(34)), list(range(9)), list(range(27, 34))]))
    left = dict.fromkeys(pool, 4)
    t = draw(st.sampled_from(pool))
    left[t] -= 3
    tiles = [t, t, t]
    while len(tiles) < 17:
        u = draw(st.sampled_from(pool))
        if left[u] >= 2:
            left[u] -= 2
            tiles += [u, u]
    win = draw(st.sampled_from(sorted(set(tiles))))
    self_drawn = draw(st.booleans())
    ctx = WinContext(self_drawn=self_drawn, seat_wind=draw(st.integers(0, 3)),
                     prevalent_wind=draw(st.integers(0, 3)))
    return TaiwanHand(tuple(tiles), (), (), win), ctx


OPTIONS = st.sampled_from([TaiwanOptions(), TaiwanOptions(eight_pairs=True)])


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(hands(), OPTIONS)
def test_single_wait_matches_brute_force(case: tuple[TaiwanHand, WinContext],
                                         options: TaiwanOptions) -> None:
    hand, ctx = case
    options = fit(hand, options)
    r = score_hand(hand, ctx, options)
    before = T.to_counts(hand.concealed)
    before[hand.winning_tile] -= 1
    held = T.to_counts(hand.all_tiles)
    held[hand.winning_tile] -= 1
    expected = len(ref_waits(before, held, options.eight_pairs and not hand.melds)) == 1
    assert ("single_wait" in {i.id for i in r.items}) == expected


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(hands(), OPTIONS)
def test_readings_and_highest_total_match_brute_force(
        case: tuple[TaiwanHand, WinContext], options: TaiwanOptions) -> None:
    hand, ctx = case
    options = fit(hand, options)
    got = {(r.shape, tuple(sorted((p.kind, p.tiles, p.concealed) for p in r.parts
                                  if not p.declared)))
           for r in readings(hand, ctx, options)}
    splits: list[tuple[str, Groups]] = [
        ("standard", sp) for sp in ref_splits(tuple(T.to_counts(hand.concealed)))]
    if options.eight_pairs and not hand.melds:
        counts = T.to_counts(hand.concealed)
        for t in ref_eight_pairs(counts):
            rest = list(counts)
            rest[t] -= 3
            pairs = [("pair", (u, u)) for u in range(34) for _ in range(rest[u] // 2)]
            splits.append(("eight_pairs", tuple(sorted([("pung", (t, t, t)), *pairs]))))
    want = set()
    for shape, split in splits:
        for k, (_, tiles) in enumerate(split):
            if hand.winning_tile in tiles:
                parts = tuple(sorted(
                    (kd, ts, not (j == k and kd == "pung" and not ctx.self_drawn))
                    for j, (kd, ts) in enumerate(split)))
                want.add((shape, parts))
    assert got == want
    # 就高: the total is the maximum over the reference readings, each scored on its own
    declared = [p for p in readings(hand, ctx, options)[0].parts if p.declared]
    totals = []
    for shape, parts in want:
        # which group holds the winning tile only matters for the 独听 wording, not the 台
        first = next(j for j, (_, ts, _) in enumerate(parts) if hand.winning_tile in ts)
        rd = Reading(shape, (*declared, *(Part(kd, ts, concealed=c, has_win=j == first)
                                          for j, (kd, ts, c) in enumerate(parts))))
        totals.append(sum(i.tai for i in score_reading(hand, ctx, rd, options)))
    assert score_hand(hand, ctx, options).tai == max(totals)


@settings(max_examples=80, deadline=None, suppress_health_check=SLOW)
@given(hands(), OPTIONS)
def test_invariants(case: tuple[TaiwanHand, WinContext], options: TaiwanOptions) -> None:
    hand, ctx = case
    options = fit(hand, options)
    r = score_hand(hand, ctx, options)
    ids = [i.id for i in r.items]
    assert len(ids) == len(set(ids))
    for i in ids:
        assert not set(BY_ID[i].excludes) & set(ids), i
    # exactly one self-draw item on a self-draw
    assert ("self_draw" in ids) + ("concealed_self_draw" in ids) == int(ctx.self_drawn)
    assert ("concealed_self_draw" in ids) == (ctx.self_drawn and hand.is_concealed)
    assert r.tai == sum(i.tai for i in r.items) >= 0
    assert r.dealer_tai == 1 + 2 * ctx.dealer_streak
    # settlements sum to zero, the right players pay, dealer 台 only with the dealer
    winner = (2 - ctx.seat_wind) % 4  # seat 2 deals... any consistent seating works
    dealer = (winner - ctx.seat_wind) % 4
    discarder = None if ctx.self_drawn else (winner + 1) % 4
    ps = settle_win(r, winner=winner, dealer=dealer, discarder=discarder, options=options)
    assert sum(net(ps, 4)) == 0
    assert len(ps) == (3 if ctx.self_drawn else 1)
    for p in ps:
        assert p.payee == winner
        extra = r.dealer_tai if dealer in (p.payer, winner) else 0
        assert p.amount == options.base + (r.tai + extra) * options.tai_value
