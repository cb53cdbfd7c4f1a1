"""A turn's 听牌 hints within a budget (:class:`laizi.engine.hints.HintWork`'s ``eager``):
every ready discard is found, the waits of those past the budget are left out and worked
out when asked (the hall's ``hint_waits``), and what is asked equals what the whole hints
give. In the hall: the frames leave them out, an ask answers them for the asking seat's
current hints only, and a refused ask changes nothing."""

from __future__ import annotations

import pytest

from laizi import tiles as T
from laizi.engine.hints import EAGER_WAITS, HintWork, hints
from laizi.server.room_state import hint_budget
from laizi.sim.decisions import greedy_decisions
from laizi.variants import BUILTIN, get
from laizi.vocab import ServerOp
from test_hints import SECRET, greedy_bots
from test_room_parts import Frames, make_room, run, until

HANDS = 4


@pytest.mark.parametrize("variant", BUILTIN)
@pytest.mark.parametrize("budget", [0, 5, EAGER_WAITS])
def test_a_budget_finds_every_ready_discard_and_asks_answer_the_whole_hints(
        variant: str, budget: int) -> None:
    """Over every decision of several hands: the same ready discards as the whole hints,
    in the same order; the waits that came with the turn and those asked for equal the
    whole hints' (a discard found ready always has some); the waits posed with the turn
    stay within the budget; a tile that is no ready discard gets nothing."""
    v = get(variant)
    lazy = ready = 0
    for seed in range(HANDS):
        for g, s in greedy_decisions(variant, seed):
            whole = hints(g, v, s, g.view(s))
            work = HintWork(g, v, s, g.view(s), eager=budget)
            while not work.done:
                work.step()
            got = work.result()
            assert got.waits == whole.waits
            assert [d.tile for d in got.discards] == [d.tile for d in whole.discards]
            assert work.posed <= budget
            ready += bool(got.discards)
            for mine, full in zip(got.discards, whole.discards, strict=True):
                assert mine.waits is None or mine.waits == full.waits
                lazy += mine.waits is None
                assert work.waits_of(full.tile) == full.waits and full.waits
            others = [t for t in range(T.NUM_KINDS)
                      if t not in {d.tile for d in whole.discards}]
            assert all(work.waits_of(t) is None for t in others)
    assert ready > 5, ready
    if budget < EAGER_WAITS:
        assert lazy > 0, "no discard was left to ask for: the budget was never reached"


def test_the_hall_budget_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LAIZI_HINT_BUDGET", raising=False)
    assert hint_budget() == EAGER_WAITS
    monkeypatch.setenv("LAIZI_HINT_BUDGET", "0")
    assert hint_budget() == 0
    monkeypatch.setenv("LAIZI_HINT_BUDGET", "lots")
    assert hint_budget() == EAGER_WAITS


def test_a_room_leaves_waits_out_past_its_budget_and_answers_asks() -> None:
    """A golden room with no budget, the host playing by hand (the room waits on its
    turns): each ready turn's hints frame names the ready discards with no waits; asking
    for each answers the engine's waits for the hand as it stands; asking for another
    tile, an old version, or in malformed words is refused and changes nothing; a
    spectator's ask is refused."""
    async def go() -> None:
        w = await make_room(greedy_bots(), SECRET, variant="golden")
        room = w.room
        room.hint_budget = 0
        async with room.lock:
            sue = await room.add_member("sue", "spectator")
        host = Frames()
        await room.attach(w.host, host.conn)
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        asked = 0
        seq = 10
        for _ in range(200):
            await until(lambda: room.table.over or bool(host.latest["legal"]))
            if room.table.over or asked >= 3:
                break
            frame = host.latest
            version = frame["version"]
            seq += 1
            if not any(a["type"] == "discard" for a in frame["legal"]):
                pick = next(a for a in frame["legal"] if a["type"] in ("pass", "win"))
                await room.handle(w.host, {"op": "act", "seq": seq, "version": version,
                                           "action": pick})
                if pick["type"] == "win":
                    await until(lambda: room.table.number > 1 or room.table.over)
                    break
                continue
            await until(lambda v=version: any(f["op"] == ServerOp.HINTS
                                              and f["version"] == v for f in host.sent))
            sent = next(f for f in host.sent
                        if f["op"] == ServerOp.HINTS and f["version"] == version)["hints"]
            g = room.table.game
            assert g is not None
            whole = hints(g, room.table.variant, 0, g.view(0))
            assert [d["tile"] for d in sent["discards"]] == [d.tile for d in whole.discards]
            assert all(d["waits"] is None for d in sent["discards"])
            for d in whole.discards:
                seq += 1
                answer = await room.handle(w.host, {"op": "hint_waits", "seq": seq,
                                                    "version": version, "tile": d.tile})
                assert answer == {"op": "ack", "seq": seq,
                                  "waits": [x.to_json() for x in d.waits or ()]}
                asked += 1
            not_ready = next(t for t in range(T.NUM_KINDS)
                             if t not in {d.tile for d in whole.discards})
            for body, code in [
                    ({"version": version, "tile": not_ready}, "illegal"),
                    ({"version": version - 1, "tile": 0}, "stale_version"),
                    ({"version": str(version), "tile": 0}, "malformed"),
                    ({"version": version, "tile": True}, "malformed"),
                    ({"version": version, "tile": 0, "what": 1}, "malformed")]:
                seq += 1
                before = (room.table.version("ann"), len(room.table.log))
                answer = await room.handle(w.host, {"op": "hint_waits", "seq": seq, **body})
                assert answer is not None and answer["op"] == "error", (body, answer)
                assert answer["error"]["code"] == code, (body, answer)
                assert (room.table.version("ann"), len(room.table.log)) == before
            seq += 1
            answer = await room.handle(sue, {"op": "hint_waits", "seq": seq,
                                             "version": version, "tile": 0})
            assert answer is not None and answer["error"]["code"] == "not_your_seat"
            discard = next(a for a in frame["legal"] if a["type"] == "discard")
            seq += 1
            await room.handle(w.host, {"op": "act", "seq": seq, "action": discard,
                                       "version": version})
        assert asked > 0, "the host's hand was never ready on its turn"
        await room.stop()

    run(go)


def test_a_room_with_hints_off_refuses_asks() -> None:
    async def go() -> None:
        w = await make_room(greedy_bots(), SECRET, hints=False)
        room = w.room
        host = Frames()
        await room.attach(w.host, host.conn)
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        await until(lambda: bool(host.latest["legal"]))
        answer = await room.handle(w.host, {"op": "hint_waits", "seq": 2, "tile": 0,
                                            "version": host.latest["version"]})
        assert answer is not None and answer["error"]["code"] == "table_rule"
        await room.stop()

    run(go)
