"""The strict boundary of the engine: typed refusals, no coercion, no registry, one legality
path, immutable legal actions, and a replay that raises only the family."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from laizi.engine import Action, Game, IllegalActionError, ReplayError, loads, replay, state_json
from laizi.engine import actions as actions_module
from laizi.engine.actions import KNOWN_TYPES, TYPES, VARIANT_TYPES
from laizi.errors import ErrorCode, LaiziError, LogError, MalformedActionError
from laizi.variants import BUILTIN, get


def _play(game: Game, steps: int, seed: int = 0) -> Game:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        s = rng.choice(game.to_act())
        game.apply(rng.choice(game.legal_actions(s)))
    return game


def _claim_window(variant: str = "mcr", seed: int = 3) -> Game:
    g = Game(variant, seed=seed)
    rng = random.Random(seed)
    while g.phase != "claim":
        s = rng.choice(g.to_act())
        g.apply(rng.choice(g.legal_actions(s)))
    return g


def _refusal(game: Game, action: Any) -> LaiziError:
    before, log_len = state_json(game), len(game.log)
    legal = [game.legal_actions(s) for s in range(game.n)]
    with pytest.raises(LaiziError) as info:
        game.apply(action)
    assert state_json(game) == before and len(game.log) == log_len
    assert [game.legal_actions(s) for s in range(game.n)] == legal
    return info.value


# ---------------------------------------------------------------- Action.from_json

@pytest.mark.parametrize("data", [
    {"type": "discard", "seat": 0, "tile": 15.0},
    {"type": "discard", "seat": True, "tile": 15},
    {"type": "discard", "seat": False, "tile": 15},
    {"type": "discard", "seat": "0", "tile": 15},
    {"type": "discard", "seat": 0, "tile": "15"},
    {"type": "discard", "seat": 0, "tile": True},
    {"type": "discard", "seat": 0, "tile": 42},
    {"type": "discard", "seat": 0, "tile": -1},
    {"type": "discard", "seat": 0, "tile": 999},
    {"type": "discard", "seat": 0, "tile": 10**400},
    {"type": "discard", "seat": 2**64, "tile": 1},
    {"type": "discard", "seat": 8, "tile": 1},
    {"type": "discard", "seat": -1, "tile": 1},
    {"type": "discard", "seat": None, "tile": 1},
    {"type": "discard", "seat": 1.0},
    {"type": "pung", "seat": 1, "tile": 5, "tiles": [5, 5, 5.0]},
    {"type": "pung", "seat": 1, "tile": 5, "tiles": [5, 5, 5, 5, 5]},
    {"type": "pung", "seat": 1, "tile": 5, "tiles": "555"},
    {"type": "pung", "seat": 1, "tile": 5, "tiles": (5, 5, 5)},
    {"type": "pung", "seat": 1, "tile": 5, "tiles": None},
    {"type": "pung", "seat": 1, "tile": 5, "tiles": [[5], 5, 5]},
    {"type": "pass", "seat": 0, "version": 3},
    {"type": "pass", "seat": 0, "extra": None},
    {"type": None, "seat": 0},
    {"type": 1, "seat": 0},
    {"type": ["pass"], "seat": 0},
    {"seat": 0},
    {"type": "pass"},
    {},
    [{"type": "pass", "seat": 0}],
    '{"type": "pass", "seat": 0}',
    None,
    7,
])
def test_from_json_refuses_everything_but_exact_types(data: Any) -> None:
    with pytest.raises(MalformedActionError) as info:
        Action.from_json(data)
    assert info.value.code in (ErrorCode.MALFORMED, ErrorCode.UNKNOWN_TYPE)
    assert len(info.value.message) < 500
    json.dumps(info.value.to_json())


def test_from_json_accepts_exact_input_and_gives_it_back() -> None:
    for data in ({"type": "discard", "seat": 0, "tile": 20},
                 {"type": "chow", "seat": 7, "tile": 12, "tiles": [11, 12, 13]},
                 {"type": "pass", "seat": 2},
                 {"tile": 38, "type": "rob_flower", "seat": 3},
                 {"type": "declare", "seat": 1}):
        assert Action.from_json(data).to_json() == data
    # the absent-equivalent optional fields
    assert Action.from_json({"type": "pass", "seat": 1, "tile": None, "tiles": []}) \
        == Action("pass", 1)


def test_unknown_type_has_its_own_code() -> None:
    with pytest.raises(MalformedActionError) as info:
        Action.from_json({"type": "teleport", "seat": 1})
    assert info.value.code == ErrorCode.UNKNOWN_TYPE and info.value.seat == 1


def test_action_types_are_static_and_cover_every_builtin_variant() -> None:
    assert not hasattr(actions_module, "register_action_types")
    for vid in BUILTIN:
        own = get(vid).action_types()
        assert own <= KNOWN_TYPES
        assert own == VARIANT_TYPES.get(vid, frozenset())
    assert set(TYPES) <= KNOWN_TYPES


def test_illegal_action_error_is_the_familys() -> None:
    from laizi import errors
    from laizi.engine import actions

    assert actions.IllegalActionError is errors.IllegalActionError is IllegalActionError
    assert issubclass(ReplayError, LogError) and issubclass(ReplayError, LaiziError)


# ---------------------------------------------------------------- queries

@pytest.mark.parametrize("seat, code", [
    (-1, ErrorCode.NO_SUCH_SEAT), (4, ErrorCode.NO_SUCH_SEAT), (2**70, ErrorCode.NO_SUCH_SEAT),
    (True, ErrorCode.MALFORMED), (1.0, ErrorCode.MALFORMED), ("0", ErrorCode.MALFORMED),
    (None, ErrorCode.MALFORMED),
])
def test_queries_refuse_garbage_seats_and_touch_nothing(seat: Any, code: ErrorCode) -> None:
    g = _play(Game("golden", seed=2), 9)
    last = g.legal_actions(g.n - 1)
    caches = list(g._legal)
    for query in (g.legal_actions, g.view):
        with pytest.raises(LaiziError) as info:
            query(seat)
        assert info.value.code == code and info.value.phase == g.phase
        json.dumps(info.value.to_json())
    assert g._legal == caches and g.legal_actions(g.n - 1) == last


def test_legal_actions_minus_one_does_not_empty_the_last_seats_cache() -> None:
    g = Game("mcr", seed=1)
    while g.turn != g.n - 1 or g.phase != "turn":
        s = g.to_act()[0]
        g.apply(g.legal_actions(s)[-1])
    mine = g.legal_actions(g.n - 1)
    assert mine
    with pytest.raises(LaiziError):
        g.legal_actions(-1)
    assert g.legal_actions(g.n - 1) == mine
    g.apply(mine[0])  # the game goes on


def test_legal_actions_cannot_be_changed_by_the_caller() -> None:
    g = Game("jingzhou", seed=4)
    legal = g.legal_actions(g.turn)
    assert isinstance(legal, tuple)
    with pytest.raises(AttributeError):
        legal.clear()  # type: ignore[attr-defined]
    copy = list(legal)
    copy.clear()
    assert g.legal_actions(g.turn) == legal and legal


# ---------------------------------------------------------------- apply

def test_apply_refuses_hand_built_garbage_that_equals_a_legal_action() -> None:
    g = Game("golden", seed=5)
    real = next(a for a in g.legal_actions(g.turn) if a.type == "discard")
    assert real.tile is not None
    cases: list[Any] = [
        Action(real.type, real.seat, float(real.tile)),  # 10.0 == 10
        Action(real.type, float(real.seat), real.tile),  # type: ignore[arg-type]
        Action(real.type, real.seat, 999),
        Action(real.type, real.seat, real.tile, [real.tile]),  # type: ignore[arg-type]
        Action(real.type, real.seat, real.tile, (1, 2, 3, 4, 5)),
        real.to_json(),
        None,
        "discard",
    ]
    if real.seat in (0, 1):
        cases.append(Action(real.type, bool(real.seat), real.tile))
    for bad in cases:
        err = _refusal(g, bad)
        assert err.code == ErrorCode.MALFORMED, (bad, err)
        assert err.phase == "turn"
    g.apply(real)


def test_refusals_carry_the_code_seat_and_phase() -> None:
    g = Game("jingzhou", seed=8)
    turn = g.turn
    other = (turn + 1) % g.n
    held = next(t for t in range(27) if g.hands[other][t])
    err = _refusal(g, Action("discard", other, held))
    assert (err.code, err.seat, err.phase) == (ErrorCode.NOT_YOUR_TURN, other, "turn")
    assert f"seat {turn}'s turn" in err.message
    err = _refusal(g, Action("discard", 3, 0))
    assert err.code == ErrorCode.NO_SUCH_SEAT and err.seat == 3
    err = _refusal(g, Action("declare", turn))
    assert err.code == ErrorCode.UNKNOWN_TYPE  # a Taiwan type at a Jingzhou table
    missing = next(t for t in range(27) if not g.hands[turn][t])
    err = _refusal(g, Action("discard", turn, missing))
    assert err.code == ErrorCode.ILLEGAL and "not in seat" in err.message
    err = _refusal(g, Action("discard", turn, 35))
    assert err.code == ErrorCode.ILLEGAL and "flower" in err.message
    err = _refusal(g, Action("discard", turn))
    assert err.code == ErrorCode.ILLEGAL and "needs a tile" in err.message
    err = _refusal(g, Action("pass", turn))
    assert "no discard to answer" in err.message


def test_refusals_in_a_claim_window() -> None:
    g = _claim_window()
    discarder = g.turn
    err = _refusal(g, Action("pass", discarder))
    assert (err.code, err.seat, err.phase) == (ErrorCode.NO_DECISION, discarder, "claim")
    asked = g.to_act()[0]
    err = _refusal(g, Action("discard", asked, 0))
    assert err.code == ErrorCode.ILLEGAL and "not an answer to a discard" in err.message
    t = g.last_tile
    assert t is not None
    err = _refusal(g, Action("pung", asked, (t + 1) % 27, ((t + 1) % 27,) * 3))
    assert err.code == ErrorCode.ILLEGAL and "on the discard" in err.message
    g.apply(Action("pass", asked))
    if g.phase == "claim" and asked in g.pending:
        err = _refusal(g, Action("pass", asked))
        assert err.code == ErrorCode.ALREADY_ANSWERED


def test_the_hand_over_refuses_everything() -> None:
    g = _play(Game("jingzhou", seed=2), 10_000)
    assert g.over
    for s in range(g.n):
        assert _refusal(g, Action("pass", s)).code == ErrorCode.HAND_OVER
        assert g.legal_actions(s) == ()


def test_taiwan_flower_discard_is_refused_cleanly() -> None:
    g = Game("taiwan", seed=3)
    while g.phase != "turn":
        s = g.to_act()[0]
        g.apply(g.legal_actions(s)[-1])
    for f in range(34, 42):
        err = _refusal(g, Action("discard", g.turn, f))
        assert err.code == ErrorCode.ILLEGAL


# ---------------------------------------------------------------- the log

def _log() -> list[dict[str, Any]]:
    return loads("".join(json.dumps(e) + "\n" for e in _play(Game("jingzhou", seed=6), 30).log))


def test_replay_still_rebuilds_a_good_log() -> None:
    log = _log()
    assert replay(log).log == log


@pytest.mark.parametrize("break_it", [
    lambda log: log[0].update(variant=5),
    lambda log: log[0].update(variant="nope"),
    lambda log: log[0].update(seed="7"),
    lambda log: log[0].update(seed=True),
    lambda log: log[0].update(dealer=9),
    lambda log: log[0].update(dealer=1.0),
    lambda log: log[0].update(scores=[0]),
    lambda log: log[0].update(scores="000"),
    lambda log: log[0].update(options=[1]),
    lambda log: log[0].update(options={"cap": "x"}),
    lambda log: log[0].update(wall=[1, 2, 3]),
    lambda log: log[0].update(wall="x"),
    lambda log: log[0].update(context=[]),
    lambda log: log[0].update(streams="yes"),
    lambda log: log[0].pop("seed"),
    lambda log: log.insert(3, [1, 2]),
    lambda log: log.insert(3, {"type": "action"}),
    lambda log: log.insert(3, {"type": "action", "action": None}),
    lambda log: next(e for e in log if e.get("type") == "action")["action"].update(tile=10.0),
    lambda log: next(e for e in log if e.get("type") == "action")["action"].update(seat=True),
    lambda log: next(e for e in log if e.get("type") == "action")["action"].update(seat=2),
    lambda log: log.append({"type": "action", "action": {"type": "pass", "seat": 0}}),
    lambda log: log.append({"set": {1, 2}}),
])
def test_replay_of_a_malformed_log_raises_only_the_family(break_it: Any) -> None:
    log = _log()
    break_it(log)
    with pytest.raises(ReplayError) as info:
        replay(log)
    assert info.value.code in (ErrorCode.BAD_LOG, ErrorCode.RULES_VERSION)


@pytest.mark.parametrize("log", [None, "text", b"bytes", 5, [], [1], [{"type": "draw"}],
                                 {"type": "start"}])
def test_replay_refuses_what_is_no_log(log: Any) -> None:
    with pytest.raises(ReplayError):
        replay(log)


@pytest.mark.parametrize("text", ["[1]\n", "1\n", "null\n", "{\n", "9" * 5000 + "\n",
                                  "[" * 100_000 + "]" * 100_000 + "\n"])
def test_loads_refuses_lines_that_are_no_event(text: str) -> None:
    with pytest.raises(ReplayError):
        loads(text)


def test_loads_refuses_what_is_no_text() -> None:
    with pytest.raises(ReplayError):
        loads(b"{}")  # type: ignore[arg-type]
