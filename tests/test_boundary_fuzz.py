"""The strict boundary under fuzz: malformed, out-of-turn and illegal input changes nothing.

The bulk is :func:`laizi.engine.fuzz.fuzz_variant` (a seeded random generator, 20,000
probes per variant at hands in play); hypothesis adds arbitrary JSON values at
``Action.from_json`` and arbitrary ``Action`` fields at ``Game.apply``.
``scripts/fuzz_actions.py`` runs the same fuzz at 100,000 per variant.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from laizi.engine import Action, Game, state_json
from laizi.engine.actions import FIELDS, KNOWN_TYPES
from laizi.engine.fuzz import VARIANTS, fuzz_variant
from laizi.errors import ErrorCode, LaiziError, MalformedActionError

PER_VARIANT = 20_000


@pytest.mark.parametrize("variant", VARIANTS)
def test_fuzz_changes_nothing_and_raises_only_the_family(variant: str) -> None:
    rep = fuzz_variant(variant, PER_VARIANT, seed=1)
    assert rep.thrown >= PER_VARIANT
    assert rep.failures == []
    assert (rep.state_changes, rep.foreign, rep.accepted, rep.wrong_code) == (0, 0, 0, 0)
    assert rep.refused == rep.thrown
    # every kind of refusal was exercised, at many positions of several hands
    assert {"malformed", "unknown_type", "no_such_seat", "not_your_turn", "no_decision",
            "already_answered", "illegal", "hand_over"} <= set(rep.codes)
    assert rep.hands >= 2 and rep.positions >= PER_VARIANT // 10


# ---------------------------------------------------------------- hypothesis

_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)
_fieldish = st.one_of(
    st.integers(-3, 45), st.integers(), st.booleans(), st.none(), st.floats(),
    st.sampled_from([*sorted(KNOWN_TYPES), "teleport", "0", ""]),
    st.lists(st.integers(-2, 44), max_size=6), st.lists(_json, max_size=3), _json,
)
_action_dicts = st.dictionaries(
    st.sampled_from([*sorted(FIELDS), "version", "extra", "Seat"]), _fieldish, max_size=5)


def _normal(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items()
            if not (k == "tile" and v is None) and not (k == "tiles" and v == [])}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_action_dicts, _json))
def test_from_json_refuses_or_round_trips_exactly(data: Any) -> None:
    try:
        action = Action.from_json(data)
    except MalformedActionError as exc:
        assert exc.code in (ErrorCode.MALFORMED, ErrorCode.UNKNOWN_TYPE)
        return
    # accepted: nothing was coerced, so the log replays byte for byte
    assert isinstance(data, dict)
    assert _normal(action.to_json()) == _normal(data)
    assert type(action.seat) is int and not isinstance(action.seat, bool)


def _midgame(variant: str, steps: int) -> Game:
    g = Game(variant, seed=11)
    rng = random.Random(5)
    for _ in range(steps):
        if g.over:
            break
        s = rng.choice(g.to_act())
        g.apply(rng.choice(g.legal_actions(s)))
    return g


_GAMES = {v: _midgame(v, 25) for v in VARIANTS}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(VARIANTS), _fieldish, _fieldish, _fieldish,
       st.one_of(st.tuples(), st.tuples(_fieldish), st.lists(st.integers(0, 41), max_size=4),
                 st.tuples(st.integers(-1, 45), st.integers(0, 41), st.integers(0, 41))))
def test_apply_of_hand_built_actions_is_all_or_nothing(variant: str, kind: Any, seat: Any,
                                                       tile: Any, tiles: Any) -> None:
    g = _GAMES[variant]
    action = Action(kind, seat, tile, tiles)
    legal_before = [g.legal_actions(s) for s in range(g.n)]
    exact = type(kind) is str and type(seat) is int and (tile is None or type(tile) is int) \
        and type(tiles) is tuple and all(type(x) is int for x in tiles)
    if exact and any(action in la for la in legal_before):
        return  # a legal action: not a probe of the boundary (seat=True equal to 1 is one)
    before, log_len = state_json(g), len(g.log)
    with pytest.raises(LaiziError) as info:
        g.apply(action)
    assert isinstance(info.value.code, ErrorCode)
    assert state_json(g) == before and len(g.log) == log_len
    assert [g.legal_actions(s) for s in range(g.n)] == legal_before
