"""Readiness of a Taiwan hand (天听 / 地听 offers, locked kongs, wins) held to a slow,
obviously-correct reference: remove melds one by one, look for the pair."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from laizi import tiles as T
from laizi.variants.taiwan_rules import complete, ready_after_some_discard, ready_waits

P = T.parse


def counts_of(text: str) -> list[int]:
    return T.to_counts(P(text, "mpsz"))


@cache
def _melds_only(c: tuple[int, ...]) -> bool:
    """Every tile of ``c`` goes into pungs and chows (the lowest tile must start one)."""
    first = next((t for t in range(T.NUM_KINDS) if c[t]), None)
    if first is None:
        return True
    if c[first] >= 3:
        rest = list(c)
        rest[first] -= 3
        if _melds_only(tuple(rest)):
            return True
    if first < 27 and first % 9 <= 6 and c[first + 1] and c[first + 2]:
        rest = list(c)
        for u in (first, first + 1, first + 2):
            rest[u] -= 1
        if _melds_only(tuple(rest)):
            return True
    return False


def ref_complete(c: Sequence[int], eight_pairs: bool) -> bool:
    """Five melds and a pair (any pair kind, shape only: a fifth copy is allowed), or
    八对半: 17 tiles as seven pairs and a pung (four of a kind = two pairs)."""
    for p in range(T.NUM_KINDS):
        if c[p] >= 2:
            rest = list(c)
            rest[p] -= 2
            if _melds_only(tuple(rest)):
                return True
    if eight_pairs and sum(c) == 17:
        for t in range(T.NUM_KINDS):
            if c[t] >= 3 and all((c[u] - 3 * (u == t)) % 2 == 0 for u in range(T.NUM_KINDS)):
                return True
    return False


def ref_waits(c: Sequence[int], eight_pairs: bool) -> frozenset[int]:
    out = set()
    for t in range(T.NUM_KINDS):
        after = list(c)
        after[t] += 1
        if ref_complete(after, eight_pairs and sum(c) == 16):
            out.add(t)
    return frozenset(out)


# A hand close to complete: melds, a pair (or 八对半 pairs), then a few tiles swapped.
_meld = st.one_of(
    st.tuples(st.integers(0, 2), st.integers(0, 6)).map(lambda sr: ("chow", sr[0] * 9 + sr[1])),
    st.integers(0, 33).map(lambda t: ("pung", t)),
)


@st.composite
def near_hands(draw: st.DrawFn, extra: int) -> list[int]:
    """``3n + 2 + extra`` tiles (extra −1: a 3n + 1 hand), no kind above four copies."""
    c = [0] * T.NUM_KINDS
    if draw(st.booleans()):
        for _ in range(7):
            c[draw(st.integers(0, 33))] += 2
        c[draw(st.integers(0, 33))] += 3
    else:
        for kind, t in draw(st.lists(_meld, min_size=1, max_size=5)):
            for u in ((t, t + 1, t + 2) if kind == "chow" else (t, t, t)):
                c[u] += 1
        c[draw(st.integers(0, 33))] += 2
    for _ in range(draw(st.integers(0, 2))):
        held = [t for t in range(T.NUM_KINDS) if c[t]]
        c[draw(st.sampled_from(held))] -= 1
        c[draw(st.integers(0, 33))] += 1
    if extra < 0:
        held = [t for t in range(T.NUM_KINDS) if c[t]]
        c[draw(st.sampled_from(held))] -= 1
    if max(c) > 4:
        # keep the hand physical: move surplus copies to the next kinds with room
        for t in range(T.NUM_KINDS):
            while c[t] > 4:
                c[t] -= 1
                c[next(u for u in range(T.NUM_KINDS) if c[u] < 4)] += 1
    return c


@settings(max_examples=400, deadline=None)
@given(near_hands(0), st.booleans())
def test_complete_matches_the_reference(c: list[int], eight: bool) -> None:
    assert complete(c, eight) == ref_complete(c, eight)


@settings(max_examples=400, deadline=None)
@given(near_hands(-1), st.booleans())
def test_ready_waits_match_the_reference(c: list[int], eight: bool) -> None:
    assert ready_waits(c, eight) == ref_waits(c, eight)


@settings(max_examples=300, deadline=None)
@given(near_hands(0), st.booleans())
def test_earthly_offer_matches_every_discard_of_the_reference(c: list[int], eight: bool) -> None:
    expected = any(ref_waits([c[u] - (u == t) for u in range(T.NUM_KINDS)], eight)
                   for t in range(T.NUM_KINDS) if c[t])
    assert ready_after_some_discard(c, eight) is expected


def test_honour_kong_ting_is_ready_like_a_suited_one() -> None:
    """空听 (waiting only on a fifth copy) counts for 天听 / 地听 in suits and honours alike."""
    assert ready_waits(counts_of("1111z234m567m789m123p"), False) == {P("1z", "mpsz")[0]}
    assert ready_waits(counts_of("1111m234p567p789p123s"), False) >= {P("1m", "mpsz")[0]}
    assert complete(counts_of("11111z234m567m789m123p"), False)


def test_eight_pairs_offer_needs_the_option() -> None:
    hand = counts_of("1155m2299p3377s1122z5z")  # 17 tiles: eight pairs and a single
    assert sum(hand) == 17
    assert ready_after_some_discard(hand, True)
    assert not ready_after_some_discard(hand, False)
    assert ready_waits(counts_of("1155m2299p3377s1122z"), True) == set(
        P("15m29p37s12z", "mpsz"))
    assert ready_waits(counts_of("1155m2299p3377s1122z"), False) == set()
