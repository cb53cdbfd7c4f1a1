"""golden: no seat is ever left with a decision but no legal action.

Golden tiles are never discarded, so a hand of golden tiles only would have no move. The
rules (docs/rules/golden.md, decision 15): a chow or pung that would leave the claimer
nothing but golden tiles is not offered; a hand that still ends up all golden (after a
kong's replacement draw, or a drawn golden tile, with no win) may throw one away, and
that thrown-away golden tile is dead (no claim, no win on it).
"""

from __future__ import annotations

import random

import pytest

from laizi.core.records import DISCARD_WIN
from laizi.engine import CLAIM, TURN, Action, Game

_CLAIM_KINDS = {"chow", "pung"}


def _left_after(g: Game, a: Action) -> list[int]:
    """The claimer's concealed tiles after the claim ``a`` (reference, by lists)."""
    hand = g.concealed(a.seat)
    used = list(a.tiles)
    assert a.tile is not None
    used.remove(a.tile)
    for t in used:
        hand.remove(t)
    return hand


def _check_state(g: Game) -> None:
    seats = g.to_act()
    assert seats, f"phase {g.phase} but nobody to act"
    for s in seats:
        legal = g.legal_actions(s)
        assert legal, f"seat {s} must act in phase {g.phase} but has no legal action"
        gold = g.wildcard
        if gold is None:
            continue
        for a in legal:
            if a.type in _CLAIM_KINDS:
                assert any(t != gold for t in _left_after(g, a)), a
            if g.phase == CLAIM and a.type != "pass":
                # A golden tile in the pool is dead: nobody claims or wins on it.
                assert g.last_tile != gold
            if g.phase == TURN and a.type == "discard" and a.tile == gold:
                assert all(t == gold for t in g.concealed(s))


def _step(g: Game, rng: random.Random) -> None:
    """One random answer. A seat asked with nothing but ``pass`` (every claim window asks
    every other seat) passes without drawing a random number, so a seed plays the very
    game it played when only seats with an option were asked."""
    s = g.to_act()[0]
    legal = g.legal_actions(s)
    g.apply(legal[0] if legal == (Action("pass", s),) else rng.choice(legal))


def _random_game(vid: str, seed: int) -> Game:
    g = Game(vid, seed=seed, dealer=seed % 4)
    rng = random.Random(seed)
    while not g.over:
        _check_state(g)
        _step(g, rng)
    return g


@pytest.mark.parametrize("seed", [417, 808])
def test_seeds_that_used_to_get_stuck_finish(seed: int) -> None:
    g = _random_game("golden", seed)
    assert g.over and g.record is not None


@pytest.mark.parametrize("vid", ["golden", "mcr"])
def test_every_state_of_random_games_has_a_seat_with_a_legal_action(vid: str) -> None:
    for seed in range(300):
        assert _random_game(vid, 5000 + seed).over


def test_all_golden_hand_may_throw_a_golden_tile_and_it_is_dead() -> None:
    # Seed 1537 reaches a turn whose hand is two golden tiles with no win.
    g = Game("golden", seed=1537, dealer=1537 % 4)
    rng = random.Random(1537)
    gold = g.wildcard
    assert gold is not None
    while True:
        s = g.to_act()[0]
        legal = g.legal_actions(s)
        if g.phase == TURN and g.concealed(s) == [gold, gold]:
            break
        _step(g, rng)
    assert legal == (Action("discard", s, gold),)
    assert g.variant.discard_refusal(g, s, gold) is None
    g.apply(legal[0])
    # Dead: every other seat is asked but may only pass, and no seat could win on it.
    assert g.phase == CLAIM and sorted(g.to_act()) == sorted({0, 1, 2, 3} - {s})
    assert all(g.legal_actions(o) == (Action("pass", o),) for o in g.to_act())
    for other in range(4):
        if other != s:
            assert g.variant.win_refusal(g, other, gold, DISCARD_WIN) is not None


def test_golden_tile_is_still_refused_while_the_hand_holds_another_tile() -> None:
    g = Game("golden", seed=1537, dealer=1537 % 4)
    gold = g.wildcard
    assert gold is not None
    s = g.turn
    g.hands[s][gold] += 1  # give the dealer a golden tile among ordinary ones
    why = g.variant.discard_refusal(g, s, gold)
    assert why is not None and "golden tile" in why
