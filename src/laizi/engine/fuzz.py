"""A fuzz of the strict boundary: malformed, out-of-turn and illegal input at hands in play.

:func:`fuzz_variant` plays hands of one variant with a seeded random policy and at every
position throws probes at the public entry points:

* JSON values at :meth:`Action.from_json` (then :meth:`Game.apply` if they parse):
  real legal actions with one or more fields made wrong (bools, floats equal to the legal
  tile, strings, ``None``, huge and negative ints, unknown types, extra keys such as
  ``version``, missing keys, nested garbage) and values that are no dict at all;
* hand-built :class:`Action` objects with garbage fields (``seat=True``, ``tile=10.0``,
  ``tile=999``, ``tiles`` as a list) and objects that are no ``Action``, at ``apply``;
* well-formed actions that are not legal: out of turn, already answered, not asked, the
  hand over, another variant's type, a seat the table does not have, and mutations of the
  seat's legal actions (as JSON and as objects);
* garbage seats at :meth:`Game.legal_actions` and :meth:`Game.view`.

After every probe it checks that nothing changed (``state_json``, the log's length, and
every seat's cached legal actions against a fresh computation; at the end of a position
also ``legal_actions`` of every seat) and that the refusal is a
:class:`~laizi.errors.LaiziError` with a valid code — the one the probe calls for, with
the probe's seat and the game's phase — whose ``to_json()`` is JSON. Every probe is built
to be refused: one that is accepted is counted (and is a bug).

Used by ``tests/test_boundary_fuzz.py`` (20,000 probes per variant) and
``scripts/fuzz_actions.py`` (100,000 by default).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

from laizi.core.jsondata import JSON
from laizi.engine.actions import (
    CHOW,
    DISCARD,
    FIELDS,
    KNOWN_TYPES,
    KONG,
    MAX_SEATS,
    MAX_TILES,
    PASS,
    PUNG,
    WIN,
    Action,
    short_repr,
)
from laizi.engine.game import OVER, TURN, Game
from laizi.engine.log import state_json
from laizi.errors import ErrorCode, LaiziError
from laizi.tiles import NUM_KINDS, NUM_TILE_IDS

__all__ = ["VARIANTS", "FuzzReport", "Probe", "expected_code", "fuzz_variant"]

VARIANTS = ("jingzhou", "huanghuang", "golden", "mcr", "taiwan")

_MALFORMED = frozenset({ErrorCode.MALFORMED, ErrorCode.UNKNOWN_TYPE})
_BAD_OBJECT = _MALFORMED | {ErrorCode.NO_SUCH_SEAT}


@dataclass
class FuzzReport:
    """What one run threw and what came back."""

    variant: str
    thrown: int = 0
    refused: int = 0
    """Probes refused by a :class:`~laizi.errors.LaiziError` with a valid code."""
    state_changes: int = 0
    foreign: int = 0
    """Exceptions outside the typed family (or a family member without a valid code or
    whose ``to_json()`` is not JSON)."""
    accepted: int = 0
    """Probes that raised nothing (each probe is built to be refused)."""
    wrong_code: int = 0
    """Refusals with another code than the probe calls for, or a wrong seat or phase; a
    malformed value that parsed, or a coerced one."""
    positions: int = 0
    hands: int = 0
    seconds: float = 0.0
    codes: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.state_changes or self.foreign or self.accepted or self.wrong_code)

    def line(self) -> str:
        return (f"{self.variant:<11} thrown {self.thrown:>7}  refused {self.refused:>7}  "
                f"state changes {self.state_changes}  foreign exceptions {self.foreign}  "
                f"accepted {self.accepted}  wrong code {self.wrong_code}  "
                f"({self.hands} hands, {self.positions} positions)  {self.seconds:.1f} s")


@dataclass(frozen=True)
class Probe:
    """One input: ``target`` is ``json`` (``from_json`` then ``apply``), ``object``
    (``apply``), ``legal_actions`` or ``view``; ``expect`` the codes that may refuse it;
    ``parses``: a ``json`` probe ``from_json`` must accept (and ``apply`` refuse);
    ``seat``: the seat the refusal must name (``None``: not checked)."""

    target: str
    payload: object
    expect: frozenset[ErrorCode]
    parses: bool = False
    seat: int | None = None
    kind: str = ""


# ---------------------------------------------------------------- garbage values

_SCALARS: tuple[object, ...] = (
    True, False, None, 0.0, 1.0, 10.0, 33.0, -0.0, 0.5, float("nan"), float("inf"),
    float("-inf"), "0", "1", "10", "", " ", "seat", "discard", "5p", "null", "true",
    b"0", (0,), (1, 2, 3), frozenset({1}), set(), object(), 1j,
)
_BAD_INTS: tuple[int, ...] = (
    -1, -2, -34, 42, 43, 99, 255, 256, 999, 2**31 - 1, 2**31, 2**32 + 5, 2**53 + 1,
    2**63 - 1, 2**63, 2**64 + 1, -(2**63) - 1, 10**30, -(10**30), 10**400, -(10**5000),
)
_EXTRA_KEYS: tuple[object, ...] = (
    "version", "Type", "SEAT", "seat ", " tile", "tiles_", "extra", "meld", "answer", "",
    "0", "id", "__class__", 0, 1, None, True, 1.5, ("type",),
)


def _garbage(rng: random.Random, depth: int = 0) -> object:
    r = rng.random()
    if depth < 3 and r < 0.12:
        return [_garbage(rng, depth + 1) for _ in range(rng.randrange(5))]
    if depth < 3 and r < 0.2:
        keys = ("a", "type", "seat", "tile", "tiles", "0", "")
        return {rng.choice(keys): _garbage(rng, depth + 1) for _ in range(rng.randrange(4))}
    if r < 0.22:
        deep: object = rng.choice((0, "x", None))
        for _ in range(rng.randrange(20, 400)):
            deep = [deep] if rng.random() < 0.7 else {"tile": deep}
        return deep
    if r < 0.5:
        return rng.choice(_BAD_INTS)
    if r < 0.6:
        return rng.randrange(-10**6, 10**6)
    return rng.choice(_SCALARS)


def _is_seat(x: object) -> bool:
    return type(x) is int and 0 <= x < MAX_SEATS


def _is_tile(x: object) -> bool:
    return type(x) is int and 0 <= x < NUM_TILE_IDS


def _is_tiles(x: object) -> bool:
    return type(x) is list and len(x) <= MAX_TILES and all(_is_tile(t) for t in x)


def _twin(rng: random.Random, x: float) -> float:
    """A value equal to the int ``x`` in Python but of another type (the nasty kind)."""
    if x in (0, 1) and rng.random() < 0.6:
        return bool(x)
    return float(x)


def _bad(rng: random.Random, ok: Callable[[object], bool], near: object = None) -> object:
    if near is not None and type(near) is int and rng.random() < 0.35:
        return _twin(rng, near)
    while True:
        x = _garbage(rng)
        if not ok(x):
            return x


def _bad_tiles(rng: random.Random, near: tuple[int, ...]) -> object:
    r = rng.random()
    if near and r < 0.3:  # the legal tiles with one of them a float or a bool
        out: list[float] = list(near)
        i = rng.randrange(len(out))
        out[i] = _twin(rng, out[i])
        return out
    if r < 0.4:
        return tuple(near or (1, 2, 3))  # a tuple is not JSON's list
    if r < 0.5:
        return [rng.randrange(NUM_TILE_IDS) for _ in range(rng.randrange(MAX_TILES + 1, 9))]
    if r < 0.65:
        good: list[object] = [rng.randrange(NUM_TILE_IDS) for _ in range(rng.randrange(4))]
        good.insert(rng.randrange(len(good) + 1), _bad(rng, _is_tile))
        return good
    return _bad(rng, _is_tiles)


def _bad_type(rng: random.Random) -> object:
    r = rng.random()
    if r < 0.4:
        return rng.choice(("teleport", "riichi", "DISCARD", "Discard", "discard ", " pass",
                           "win!", "kong\x00", "杠", "pass\n", "chi", "pon", "hu", ""))
    return _bad(rng, lambda x: type(x) is str and x in KNOWN_TYPES)


def _malformed_json(rng: random.Random, base: JSON) -> object:
    d = dict[object, object](base.items())
    m = rng.randrange(9)
    if m == 6:
        r = rng.random()
        if r < 0.25:
            return [d]
        if r < 0.4:
            return json.dumps(d)
        if r < 0.5:
            return list(d.items())
        if r < 0.55:
            return Action(base["type"], base["seat"])  # an Action is not a dict
        while True:
            x = _garbage(rng)
            if not isinstance(x, dict):
                return x
    steps = [m] if m < 6 else rng.sample(range(6), rng.randrange(2, 4))
    for step in steps:
        if step == 0:
            d["seat"] = _bad(rng, _is_seat, d.get("seat"))
        elif step == 1:
            d["tile"] = _bad(rng, lambda x: x is None or _is_tile(x), d.get("tile"))
        elif step == 2:
            d["tiles"] = _bad_tiles(rng, tuple(base.get("tiles") or ()))  # no step before set it
        elif step == 3:
            d["type"] = _bad_type(rng)
        elif step == 4:
            d[rng.choice(_EXTRA_KEYS)] = _garbage(rng)
        elif "type" in d and "seat" in d:
            del d[rng.choice(("type", "seat"))]
        else:
            d["seat"] = _bad(rng, _is_seat)
    return d


def _malformed_object(rng: random.Random, base: Action) -> object:
    m = rng.randrange(6)
    if m == 0:
        return _forge(base.type, _bad(rng, lambda x: type(x) is int, base.seat),
                      base.tile, base.tiles)
    if m == 1:
        return _forge(base.type, base.seat,
                      _bad(rng, lambda x: x is None or _is_tile(x), base.tile), base.tiles)
    if m == 2:
        r = rng.random()
        bad: object
        if r < 0.3:
            bad = list(base.tiles or (1, 2, 3))  # a list where the field is a tuple
        elif r < 0.5 and base.tiles:
            twins: list[float] = list(base.tiles)
            i = rng.randrange(len(twins))
            twins[i] = _twin(rng, twins[i])
            bad = tuple(twins)
        elif r < 0.6:
            bad = tuple(rng.randrange(NUM_TILE_IDS) for _ in range(rng.randrange(5, 9)))
        elif r < 0.8:
            bad = (*base.tiles[:3], _bad(rng, _is_tile))
        else:
            bad = _bad(rng, lambda x: type(x) is tuple and len(x) <= MAX_TILES
                       and all(_is_tile(t) for t in x))
        return _forge(base.type, base.seat, base.tile, bad)
    if m == 3:
        return _forge(_bad_type(rng), base.seat, base.tile, base.tiles)
    if m == 4:
        return rng.choice((base.to_json(), None, str(base), (base.type, base.seat), 0,
                           [base], object(), Action))
    return _forge(base.type, _twin(rng, base.seat), base.tile, base.tiles)


def _forge(type_: object, seat: object, tile: object, tiles: object) -> Action:
    """An :class:`Action` with fields of the wrong types, as a careless caller builds one:
    the dataclass does not check them, the engine must."""
    fields = cast(tuple[str, int, "int | None", "tuple[int, ...]"], (type_, seat, tile, tiles))
    return Action(*fields)


# ---------------------------------------------------------------- well-formed illegal

def expected_code(game: Game, action: Action) -> ErrorCode:
    """The code ``game.apply`` must refuse a well-typed, illegal ``action`` with."""
    seat = action.seat
    if not 0 <= seat < game.n:
        return ErrorCode.NO_SUCH_SEAT
    if action.type not in game.action_types():
        return ErrorCode.UNKNOWN_TYPE
    if game.phase == OVER:
        return ErrorCode.HAND_OVER
    if game.phase == TURN:
        return ErrorCode.ILLEGAL if seat == game.turn else ErrorCode.NOT_YOUR_TURN
    if seat not in game.pending:
        return ErrorCode.NO_DECISION
    if seat in game.responses:
        return ErrorCode.ALREADY_ANSWERED
    return ErrorCode.ILLEGAL


def _meld_tiles(rng: random.Random, kind: str, t: int) -> tuple[int, ...]:
    if kind == CHOW:
        lo = t - rng.randrange(3)
        return (lo, lo + 1, lo + 2)
    if kind in (PUNG, KONG):
        return (t,) * (3 if kind == PUNG else 4)
    return ()


def _random_action(rng: random.Random, game: Game, seat: int,
                   legal: tuple[Action, ...]) -> Action:
    r = rng.random()
    types = sorted(game.action_types())
    if legal and r < 0.5:  # a legal action of the seat, changed a little
        a = rng.choice(legal)
        kind, tile, tiles = a.type, a.tile, a.tiles
        m = rng.randrange(5)
        if m == 0:
            tile = rng.choice((None, rng.randrange(NUM_TILE_IDS)))
        elif m == 1:
            kind = rng.choice(types)
        elif m == 2:
            tiles = () if tiles else _meld_tiles(rng, rng.choice((CHOW, PUNG, KONG)),
                                                 tile if tile is not None else 5)
            tiles = tuple(t for t in tiles if 0 <= t < NUM_TILE_IDS)
        elif m == 3 and tile is not None:
            tile = (tile + rng.choice((1, -1, 9, 27))) % NUM_TILE_IDS
            tiles = _meld_tiles(rng, kind, tile) if tiles else ()
            tiles = tuple(t for t in tiles if 0 <= t < NUM_TILE_IDS)
        else:
            kind = rng.choice(sorted(KNOWN_TYPES))
        return Action(kind, seat, tile, tiles)
    kind = rng.choice(types) if r < 0.9 else rng.choice(sorted(KNOWN_TYPES))
    t = game.last_tile if game.last_tile is not None and rng.random() < 0.4 \
        else rng.randrange(NUM_KINDS if rng.random() < 0.9 else NUM_TILE_IDS)
    tile = None if kind == PASS or rng.random() < 0.05 else t
    tiles = tuple(x for x in _meld_tiles(rng, kind, t) if 0 <= x < NUM_TILE_IDS)
    return Action(kind, seat, tile, tiles)


def _out_of_turn(rng: random.Random, game: Game) -> Action | None:
    acting = set(game.to_act())
    others = [s for s in range(game.n) if s not in acting]
    if not others:
        return None
    seat = rng.choice(others)
    held = [t for t in range(NUM_KINDS) if game.hands[seat][t]]
    t = game.last_tile if game.last_tile is not None else (held[0] if held else 0)
    kind = rng.choice((DISCARD, DISCARD, PASS, WIN, PUNG, CHOW))
    if kind == DISCARD:
        return Action(DISCARD, seat, rng.choice(held) if held else 0)
    if kind == PASS:
        return Action(PASS, seat)
    if kind == WIN:
        return Action(WIN, seat, t)
    return Action(kind, seat, t, tuple(x for x in _meld_tiles(rng, kind, t)
                                       if 0 <= x < NUM_TILE_IDS))


# ---------------------------------------------------------------- one probe

def _make_probe(rng: random.Random, game: Game,
                fresh: tuple[tuple[Action, ...], ...]) -> Probe | None:
    n = game.n
    acting = game.to_act()
    seat = rng.choice(acting) if acting and rng.random() < 0.8 else rng.randrange(n)
    legal = fresh[seat]
    base = rng.choice(legal) if legal else _random_action(rng, game, seat, legal)
    r = rng.random()
    if r < 0.35:
        return Probe("json", _malformed_json(rng, base.to_json()), _MALFORMED,
                     kind="malformed json")
    if r < 0.5:
        return Probe("object", _malformed_object(rng, base), _BAD_OBJECT,
                     kind="malformed object")
    if r < 0.6:
        seat_arg = _bad(rng, lambda x: type(x) is int and 0 <= x < n)
        seat_code = ErrorCode.NO_SUCH_SEAT if type(seat_arg) is int else ErrorCode.MALFORMED
        return Probe(rng.choice(("legal_actions", "view")), seat_arg, frozenset({seat_code}),
                     kind="garbage seat")
    if r < 0.72:
        a = _out_of_turn(rng, game)
        kind = "out of turn"
    else:
        if rng.random() < 0.06:
            seat = rng.randrange(n, MAX_SEATS) if n < MAX_SEATS else seat
            legal = fresh[seat] if seat < n else ()
        a = _random_action(rng, game, seat, legal)
        kind = "illegal"
    if a is None or (a.seat < n and a in fresh[a.seat]):
        return None  # legal after all: not a probe
    code = frozenset({expected_code(game, a)})
    if rng.random() < 0.5:
        return Probe("json", a.to_json(), code, parses=True, seat=a.seat, kind=kind)
    return Probe("object", a, code, seat=a.seat, kind=kind)


def _normal(d: JSON) -> JSON:
    """An action's JSON without its absent-equivalent optional fields."""
    return {k: v for k, v in d.items()
            if not (k == "tile" and v is None) and not (k == "tiles" and v == [])}


def _throw(game: Game, probe: Probe, rep: FuzzReport) -> None:
    def fail(what: str) -> None:
        if len(rep.failures) < 20:
            rep.failures.append(f"{what}: {probe.kind} {probe.target} "
                                f"{short_repr(probe.payload)} in phase {game.phase}")

    stage = "query"
    try:
        if probe.target == "json":
            stage = "from_json"
            action = Action.from_json(probe.payload)
            if not probe.parses:
                rep.wrong_code += 1
                fail("malformed JSON parsed")
            elif not isinstance(probe.payload, dict) or set(probe.payload) - FIELDS \
                    or _normal(action.to_json()) != _normal(probe.payload):
                rep.wrong_code += 1
                fail(f"coerced into {action.to_json()!r}")
            stage = "apply"
            game.apply(action)
        elif probe.target == "object":
            stage = "apply"
            game.apply(cast(Action, probe.payload))  # anything: the engine must refuse it
        elif probe.target == "legal_actions":
            game.legal_actions(probe.payload)
        else:
            game.view(probe.payload)
    except LaiziError as exc:
        if not isinstance(exc.code, ErrorCode):
            rep.foreign += 1
            fail(f"no valid code {exc.code!r}")
            return
        try:
            json.dumps(exc.to_json())
            ok_json = len(exc.message) < 2000
        except (TypeError, ValueError):
            ok_json = False
        if not ok_json:
            rep.foreign += 1
            fail(f"error not JSON: {short_repr(exc.to_json())}")
            return
        rep.refused += 1
        rep.codes[exc.code.value] = rep.codes.get(exc.code.value, 0) + 1
        if exc.code not in probe.expect:
            rep.wrong_code += 1
            fail(f"{exc.code.value} ({exc.message}) where {sorted(probe.expect)} was due")
        elif probe.parses and stage != "apply":
            rep.wrong_code += 1
            fail(f"well-formed JSON refused by from_json: {exc.message}")
        elif stage == "apply" and probe.seat is not None \
                and (exc.seat != probe.seat or exc.phase != game.phase):
            rep.wrong_code += 1
            fail(f"seat/phase {exc.seat}/{exc.phase} in the refusal ({exc.message})")
        return
    except Exception as exc:  # counting them is the point
        rep.foreign += 1
        fail(f"{type(exc).__name__} at {stage}: {short_repr(str(exc))}")
        return
    rep.accepted += 1
    fail("accepted")


def _position(game: Game, rng: random.Random, k: int, rep: FuzzReport) -> bool:
    """Throw ``k`` probes at the current position; ``False`` if the state changed."""
    before = state_json(game)
    log_len = len(game.log)
    fresh = tuple(game._compute_legal(s) for s in range(game.n))
    rep.positions += 1
    thrown = 0
    misses = 0
    while thrown < k and misses < 50:
        probe = _make_probe(rng, game, fresh)
        if probe is None:
            misses += 1
            continue
        thrown += 1
        rep.thrown += 1
        _throw(game, probe, rep)
        caches = game._legal
        if len(game.log) != log_len or state_json(game) != before or len(caches) != game.n \
                or any(c is not None and c != fresh[s] for s, c in enumerate(caches)):
            rep.state_changes += 1
            if len(rep.failures) < 20:
                rep.failures.append(f"state changed by {probe.kind} {probe.target} "
                                    f"{short_repr(probe.payload)}")
            return False
    if any(game.legal_actions(s) != fresh[s] for s in range(game.n)):
        rep.state_changes += 1
        rep.failures.append("legal_actions changed at a position")
        return False
    return True


def fuzz_variant(variant: str, probes: int = 20_000, *, seed: int = 0,
                 per_position: int = 8) -> FuzzReport:
    """Throw ``probes`` probes at hands of ``variant`` played by a seeded random policy
    (``per_position`` at each position, the end of the hand included)."""
    rng = random.Random(f"fuzz:{variant}:{seed}")
    rep = FuzzReport(variant)
    start = time.perf_counter()
    while rep.thrown < probes:
        game = Game(variant, seed=rng.randrange(2**31))
        rep.hands += 1
        while rep.thrown < probes:
            if not _position(game, rng, min(per_position, probes - rep.thrown), rep):
                break  # the state changed (counted): this hand is no longer trusted
            if game.over:
                break
            seat = rng.choice(game.to_act())
            game.apply(rng.choice(game.legal_actions(seat)))
    rep.seconds = time.perf_counter() - start
    return rep
