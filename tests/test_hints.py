"""听牌提示 (:mod:`laizi.engine.hints`): held to a slow reference on the real hand, blind to
what the seat cannot see, and sent by the hall to the seat alone.

The reference poses each win on a fresh copy of the *real* game (every other hand and the
wall as they are) and asks the engine — :meth:`HandState.posed_win` for a self-draw, the
variant's ``win_refusal`` for a discard, then the record and the variant's settlement — so a
hint that leaned on its blind filler where the real hand matters would differ from it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from laizi import tiles as T
from laizi.bots import make_bot
from laizi.core.records import DISCARD_WIN, SELF_DRAW
from laizi.engine import Game
from laizi.engine.actions import Action
from laizi.engine.hints import DiscardHint, Hints, WaitHint, hints
from laizi.engine.seen import tile_set_counts
from laizi.engine.state import HandState
from laizi.engine.variant import Variant
from laizi.errors import TableError
from laizi.server.room_settings import RoomSettings
from laizi.server.rooms import Room
from laizi.settlement import net
from laizi.sim.decisions import greedy_decisions
from laizi.variants import BUILTIN, get
from laizi.vocab import Phase, ServerOp, TurnStart
from test_room_parts import Frames, make_room, run, until

HANDS = 4
"""Hands played per variant by greedy bots (they head for 听牌, so many states are ready)."""


# --------------------------------------------------------------------------- the reference


def _unseen(g: Game, seat: int) -> list[int]:
    """The tile set less every tile ``seat`` can see, counted from the game itself."""
    seen = [0] * T.NUM_TILE_IDS
    for t, c in enumerate(g.hands[seat]):
        seen[t] += c
    for ms in g.melds:
        for m in ms:
            for t in m.tiles:
                seen[t] += 1
    for pool in (*g.discards, *g.flowers, g.indicators):
        for t in pool:
            seen[t] += 1
    total = tile_set_counts(g.view(seat))
    return [total[t] - seen[t] for t in range(T.NUM_TILE_IDS)]


def _posed(g: Game, seat: int, hand: list[int], discard: int | None) -> Game:
    c = g.copy()
    assert isinstance(c, Game)
    c.hands[seat], c.sizes[seat] = list(hand), sum(hand)
    c.passed_win[seat] = False
    if discard is not None:
        c.discards[seat].append(discard)
    return c


def _gain(v: Variant, game: HandState, seat: int, how: str, source: int | None,
          t: int) -> int:
    return net(v.settle(game.make_record([seat], how, source, t)), game.n)[seat]


def _reference_waits(g: Game, seat: int, hand: list[int], discard: int | None
                     ) -> tuple[WaitHint, ...]:
    v = g.variant
    unseen = _unseen(g, seat)
    own = list(hand)
    for m in g.melds[seat]:
        for x in m.tiles:
            own[x] += 1
    out = []
    for t in range(T.NUM_KINDS):
        if own[t] >= 4:
            continue
        drawn = None
        posed = list(hand)
        posed[t] += 1
        c = _posed(g, seat, hand, discard)
        if c.posed_win(seat, posed, t) is None:
            c.hands[seat], c.sizes[seat] = posed, sum(posed)
            c.turn, c.phase, c.turn_kind = seat, Phase.TURN, TurnStart.DRAWN
            c.last_tile, c.after_kong = t, False
            drawn = _gain(v, c, seat, SELF_DRAW, None, t)
        gains = []
        for k in range(1, g.n):
            source = (seat + k) % g.n
            c = _posed(g, seat, hand, discard)
            c.turn, c.phase, c.turn_kind = source, Phase.CLAIM, TurnStart.DRAWN
            c.last_tile, c.after_kong = t, False
            c.discards[source].append(t)
            if v.win_refusal(c, seat, t, DISCARD_WIN) is None:
                c.discards[source].pop()
                c.taken.append(t)
                gains.append(_gain(v, c, seat, DISCARD_WIN, source, t))
        if drawn is not None or gains:
            out.append(WaitHint(t, unseen[t], drawn, (min(gains), max(gains)) if gains else None))
    return tuple(out)


def _reference(g: Game, seat: int) -> Hints:
    hand = list(g.hands[seat])
    if sum(hand) % 3 != 2:
        return Hints(waits=_reference_waits(g, seat, hand, None))
    if g.phase != Phase.TURN or g.turn != seat:
        return Hints()
    ready = []
    for d in range(T.NUM_KINDS):
        if hand[d] and d not in g.variant.undiscardable(g, seat):
            hand[d] -= 1
            waits = _reference_waits(g, seat, hand, d)
            hand[d] += 1
            if waits:
                ready.append(DiscardHint(d, waits))
    return Hints(discards=tuple(ready))


@pytest.mark.parametrize("variant", BUILTIN)
def test_hints_equal_the_engine_on_the_real_hand(variant: str) -> None:
    """Over every decision of several hands of each variant, the hints equal the slow
    reference; many of those states are ready, and in the wildcard variants the
    wildcard's face is a wait somewhere (drawing it completes the hand)."""
    v = get(variant)
    ready = checked = face_waits = 0
    for seed in range(HANDS):
        for g, s in greedy_decisions(variant, seed):
            found = hints(g, v, s, g.view(s))
            assert found == _reference(g, s), (variant, seed, g.concealed(s))
            checked += 1
            ready += bool(found.discards or found.waits)
            if g.wildcard is not None:
                face_waits += any(w.tile == g.wildcard for d in found.discards
                                  for w in d.waits)
    assert checked > 50 and ready > 10, (checked, ready)
    if variant in ("jingzhou", "huanghuang", "golden"):
        assert face_waits > 0


# --------------------------------------------------------------------------- hidden tiles


def _shuffled(g: Game, seat: int, rng: random.Random) -> Game:
    """The same hand as ``seat`` sees it, every tile it cannot see dealt anew: the other
    concealed hands (same sizes) and the live wall (a flower stays where it lies: it never
    stays in a hand)."""
    c = g.copy()
    assert isinstance(c, Game)
    wall = list(c.wall)
    spots = [i for i in range(c.head, c.tail) if wall[i] < T.NUM_KINDS]
    pool = [wall[i] for i in spots]
    for s in range(c.n):
        if s != seat:
            pool += T.from_counts(c.hands[s])
    rng.shuffle(pool)
    at = 0
    for s in range(c.n):
        if s == seat:
            continue
        counts = [0] * len(c.hands[s])
        for t in pool[at:at + c.sizes[s]]:
            counts[t] += 1
        c.hands[s] = counts
        at += c.sizes[s]
    for i, t in zip(spots, pool[at:], strict=True):
        wall[i] = t
    c.wall = wall
    c.seat_streams = None
    return c


@pytest.mark.parametrize("variant", BUILTIN)
def test_hints_do_not_depend_on_what_the_seat_cannot_see(variant: str) -> None:
    """Deal every hidden tile anew (other hands, the wall): the seat's view is the same,
    and so are its hints, over many states, ready ones among them."""
    v = get(variant)
    rng = random.Random(variant)
    ready = 0
    for seed in range(HANDS):
        for g, s in greedy_decisions(variant, 100 + seed):
            found = hints(g, v, s, g.view(s))
            ready += bool(found.discards or found.waits)
            for _ in range(2):
                other = _shuffled(g, s, rng)
                assert other.view(s) == g.view(s)
                assert hints(other, v, s, other.view(s)) == found
    assert ready > 10


def test_hints_json_names_every_field() -> None:
    h = Hints(waits=(WaitHint(3, 2, 8, (4, 6)), WaitHint(5, 0, None, (2, 2))))
    assert h.to_json() == {"discards": [], "waits": [
        {"tile": 3, "unseen": 2, "self_draw": 8, "on_discard": [4, 6]},
        {"tile": 5, "unseen": 0, "self_draw": None, "on_discard": [2, 2]}]}


# --------------------------------------------------------------------------- the hall


SECRET = bytes(range(32))
"""The rooms' deals: fixed, so the host's hand is ready in the first two hands."""


def greedy_bots() -> Callable[[Room, int, Sequence[Action]], Action]:
    """The room's bots (the host's seat in 托管 too) play greedy: they head for 听牌."""
    bots = [make_bot("greedy", seed=i) for i in range(4)]

    def choose(room: Room, seat: int, legal: Sequence[Action]) -> Action:
        g = room.table.game
        assert g is not None
        return bots[seat].choose(g.view(seat), list(legal))

    return choose


def test_the_room_sends_a_seat_its_own_hints_after_its_state_frame() -> None:
    """A Jingzhou room (the host with bots): during a hand the host's connection gets a
    ``hints`` frame right after the state frame of a version (empty when nothing is
    ready, so the client can tell "none" from "not yet"), at most one per version; a
    spectator never gets one; with the room's ``hints`` off nobody does."""
    async def go(on: bool) -> int:
        w = await make_room(greedy_bots(), SECRET, hints=on)
        room = w.room
        async with room.lock:
            sue = await room.add_member("sue", "spectator")
        host, watch = Frames(), Frames()
        await room.attach(w.host, host.conn)
        await room.attach(sue, watch.conn)
        room.auto.add("ann")  # a bot plays the host's seat: the hand plays by itself
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"

        def ready() -> bool:
            return any(f["op"] == ServerOp.HINTS and (f["hints"]["discards"] or f["hints"]["waits"])
                       for f in host.sent)

        # A whole hand, and with hints on as many as it takes the host's seat to be ready
        # once (which hand that is depends on the deals and on how the bots play).
        await until(lambda: room.table.number >= 2 and (not on or ready()
                                                        or room.table.number >= 6))
        got = [f for f in host.sent if f["op"] == ServerOp.HINTS]
        assert not [f for f in watch.sent if f["op"] == ServerOp.HINTS]
        for f in got:  # each follows the state frame of its version
            i = host.sent.index(f)
            state = next(x for x in reversed(host.sent[:i]) if x["op"] == ServerOp.STATE)
            assert state["version"] == f["version"]
        versions = [f["version"] for f in got]
        assert len(versions) == len(set(versions))
        if on:
            assert any(not f["hints"]["discards"] and not f["hints"]["waits"] for f in got)
            assert any(f["hints"]["discards"] or f["hints"]["waits"] for f in got)
        await room.stop()
        return len(got)

    sent = {}

    async def both() -> None:
        sent[True] = await go(True)
        sent[False] = await go(False)

    run(both)
    assert sent[False] == 0
    assert sent[True] > 0


def test_every_turn_the_room_waits_on_gets_its_hints_frame_ready_or_not() -> None:
    """The host plays by hand (no clock: the room waits on each of its turns): each turn's
    state frame is followed by a ``hints`` frame of its version, empty when no discard
    makes the hand ready, so a client knows when the hints of its turn are in."""
    async def go() -> None:
        w = await make_room(greedy_bots(), SECRET)
        room = w.room
        host = Frames()
        await room.attach(w.host, host.conn)
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        empty = ready = 0
        for seq in range(2, 80):
            await until(lambda: room.table.number > 1 or bool(host.latest["legal"]))
            if room.table.number > 1:
                break
            frame = host.latest
            if not any(a["type"] == "discard" for a in frame["legal"]):  # a claim: pass
                answer = await room.handle(w.host, {
                    "op": "act", "seq": seq, "version": frame["version"], "action": next(
                        a for a in frame["legal"] if a["type"] in ("pass", "win"))})
                assert answer is not None and answer["op"] == "ack", answer
                continue
            version = frame["version"]

            def hints_in(version: int = version) -> list[dict[str, Any]]:
                return [f for f in host.sent
                        if f["op"] == ServerOp.HINTS and f["version"] == version]

            await until(lambda: bool(hints_in()))
            [got] = hints_in()
            if got["hints"]["discards"]:
                ready += 1
            else:
                empty += 1
                assert got["hints"] == {"discards": [], "waits": []}
            discard = next(a for a in frame["legal"] if a["type"] == "discard")
            answer = await room.handle(w.host, {"op": "act", "seq": seq, "action": discard,
                                                "version": frame["version"]})
            assert answer is not None and answer["op"] == "ack", answer
        assert empty > 0, (empty, ready)
        await room.stop()

    run(go)


def test_hint_frames_equal_the_engine_for_the_seat_and_version() -> None:
    """Each ``hints`` frame the host gets equals :func:`hints` of the game as it stood at
    that version (the room's hands replayed from its log)."""
    async def go() -> None:
        w = await make_room(greedy_bots(), SECRET)
        room = w.room
        host = Frames()
        seen: list[tuple[int, object]] = []
        snapshots: dict[int, object] = {}

        def keep(text: str) -> None:
            frame = json.loads(text)
            host.sent.append(frame)
            g = room.table.game
            if frame["op"] == ServerOp.STATE and g is not None and not g.over:
                snapshots[frame["version"]] = hints(g, room.table.variant, 0, g.view(0))
            if frame["op"] == ServerOp.HINTS:
                seen.append((frame["version"], frame["hints"]))

        host.conn.deliver = keep
        await room.attach(w.host, host.conn)
        room.auto.add("ann")
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        await until(lambda: room.table.number >= 2)
        assert seen, sorted({f["op"] for f in host.sent})
        for version, got in seen:
            assert got == snapshots[version].to_json()  # type: ignore[attr-defined]
        await room.stop()

    run(go)


def test_the_hints_setting_is_checked() -> None:
    assert RoomSettings.from_json({"variant": "jingzhou"}).hints is True
    assert RoomSettings.from_json({"variant": "jingzhou", "hints": False}).hints is False
    with pytest.raises(TableError, match="hints must be true or false"):
        RoomSettings.from_json({"variant": "jingzhou", "hints": "yes"})
