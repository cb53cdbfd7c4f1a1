"""Claim windows that respect people (issue 38): a seat whose only legal answer is 过 is
never prompted and never taps, the server answers it (no sooner than ``claim_min`` after
the window opened); a real claim prompt that runs out simply passes; 托管 comes only from
missed turns; ``deadline`` never exceeds the clock.

A real ``laizi serve`` on SQLite, websocket clients of :mod:`server_helpers` (every frame
checked for leaks as it arrives).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from server_helpers import (
    FAST,
    Client,
    Server,
    create_room,
    person_actions,
    room_info,
    sqlite_hall,  # skips this module without the server extras (not in CI)
    stored_lines,
    unique,
)

WINDOWS = ("claim", "rob", "decide")
CLOCK = 5.0
"""The clock of the tests where it must never run out (a person who answers at once):
long enough for a stalled, loaded machine."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "windows") as srv:
        yield srv


def _pass_only(legal: list[dict[str, Any]]) -> bool:
    return len(legal) == 1 and legal[0]["type"] == "pass"


class Person:
    """A person who answers only their own turns and the real claim prompts (those
    offering more than 过), as a group of friends would; ``claims``: whether a real
    prompt is answered (with its first option that is not 过) or left to run out."""

    def __init__(self, client: Client, *, claims: bool = True) -> None:
        self.c = client
        self.claims = claims
        self.pass_only_prompts: list[dict[str, Any]] = []
        self.real_prompts = 0
        self.missed_real = 0
        self.missed: list[tuple[int, int]] = []
        """(version, seat) of each real prompt left to run out."""
        self.turns = 0
        self.deadlines: list[float] = []
        self.autos: list[list[str]] = []

    async def play(self, until: Any, timeout: float = 90.0) -> None:
        c = self.c
        answered = -1
        seen = 0
        deadline = time.monotonic() + timeout
        while not until():
            for shown in c.frames[seen:]:
                self.autos.append(list(shown["room"]["auto"]))
                if shown["deadline"] is not None:
                    self.deadlines.append(shown["deadline"])
                if shown["legal"] and _pass_only(shown["legal"]):
                    self.pass_only_prompts.append(shown)
            seen = len(c.frames)
            f = c.latest
            if f is not None and f["legal"] and f["version"] != answered \
                    and not f["room"]["paused"]:
                answered = f["version"]
                legal = f["legal"]
                if f["view"]["phase"] == "turn":
                    self.turns += 1
                    discards = [a for a in legal if a["type"] == "discard"]
                    await c.act(c.choose(discards or legal), f["version"])
                    continue
                if not _pass_only(legal):
                    self.real_prompts += 1
                    if self.claims:
                        real = [a for a in legal if a["type"] != "pass"]
                        await c.act(real[0], f["version"])
                        continue
                    self.missed_real += 1
                    self.missed.append((f["version"], f["view"]["seat"]))
            rest = deadline - time.monotonic()
            if rest <= 0:
                raise TimeoutError(f"{c.name}: not done in {timeout} s ({c.describe()})")
            n = len(c.frames)
            await c.wait(lambda n=n: len(c.frames) > n or until(), rest)  # type: ignore[misc]


_ARRIVED = "_arrived"


class _Stamped(list[dict[str, Any]]):
    """A client's list of frames that notes when each arrived (``time.monotonic()``)."""

    def append(self, frame: dict[str, Any]) -> None:
        frame[_ARRIVED] = time.monotonic()
        super().append(frame)


def _server_passes(lines: tuple[str, ...], person: str, sent: list[dict[str, Any]]
                   ) -> int:
    """How many of the person's stored 过 the person did not send (the server's)."""
    logged = [a for a in person_actions(lines, person) if a["type"] == "pass"]
    return len(logged) - sum(1 for a in sent if a["type"] == "pass")


def test_a_jingzhou_hand_without_one_pass_only_prompt(server: Server) -> None:
    """Done when (issue 38): a person in a 荆州 room with two bots who answers only their
    own turns and real claim prompts plays whole hands (two) without one pass-only prompt
    and is never put on 托管; the server answered their pass-only windows."""
    host = unique("ann")
    settings = {**FAST, "clock": CLOCK, "claim_min": 0.05}
    room = create_room(server, host, variant="jingzhou", hands=2, **settings)
    code = room["code"]

    async def go() -> Person:
        c = Client(server, code, room["token"], host, seed=5)
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        p = Person(c)
        await p.play(until=lambda: c.over)
        await c.close()
        return p

    p = asyncio.run(go())
    assert p.turns > 3
    assert p.pass_only_prompts == [], p.pass_only_prompts[0]
    assert all(a == [] for a in p.autos), [a for a in p.autos if a][:1]
    assert room_info(server, code)["auto"] == []
    assert all(0 <= d <= CLOCK for d in p.deadlines), max(p.deadlines)
    lines = stored_lines(server.db_url, code)
    assert _server_passes(lines, host, [a for _, a, _ in p.c.acked]) > 5


@pytest.mark.parametrize("variant", ["huanghuang", "golden", "mcr", "taiwan"])
def test_every_variants_windows_ask_only_real_choices(server: Server, variant: str) -> None:
    """Every variant's windows (claim, rob, decide: Taiwan's 天听 window at every deal and
    its 七抢一) follow the same rule, decided from the legal actions: a whole hand without
    one pass-only prompt and without 托管."""
    host = unique("eve")
    settings = {**FAST, "clock": CLOCK, "claim_min": 0.02}
    room = create_room(server, host, variant=variant, hands=1, **settings)

    async def go() -> Person:
        c = Client(server, room["code"], room["token"], host, seed=11)
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        p = Person(c)
        await p.play(until=lambda: c.over)
        await c.close()
        return p

    p = asyncio.run(go())
    assert p.pass_only_prompts == [], p.pass_only_prompts[0]
    assert all(a == [] for a in p.autos)
    assert all(0 <= d <= CLOCK for d in p.deadlines)
    lines = stored_lines(server.db_url, room["code"])
    assert _server_passes(lines, host, [a for _, a, _ in p.c.acked]) > 0


def test_a_missed_real_claim_prompt_passes_without_tuoguan(server: Server) -> None:
    """A person who lets every real claim prompt run out: each is answered 过 at the
    clock, and the person is never put on 托管; a missed turn still is."""
    host = unique("bo")
    settings = {**FAST, "clock": 2, "claim_min": 0.05}  # it must run out: short
    room = create_room(server, host, variant="jingzhou", **settings)
    code = room["code"]

    async def go() -> Person:
        c = Client(server, code, room["token"], host, seed=6)
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        p = Person(c, claims=False)
        await p.play(until=lambda: p.missed_real >= 2 and not c.latest["legal"],  # type: ignore[index]
                     timeout=120)
        # The prompt ran out: 过 was played for the person, who is not on 托管.
        await c.wait(lambda: not c.latest["legal"] or  # type: ignore[index]
                     c.latest["view"]["phase"] == "turn", 10)  # type: ignore[index]
        assert room_info(server, code)["auto"] == []
        # A missed turn is still 托管.
        await c.wait(lambda: bool(c.latest and c.latest["legal"]
                                  and c.latest["view"]["phase"] == "turn"), 30)
        await c.wait(lambda: bool(c.latest and host in c.latest["room"]["auto"]), 10)
        assert (await c.request("end"))["op"] == "ack"
        await c.wait(lambda: c.over)
        await c.close()
        return p

    p = asyncio.run(go())
    assert p.pass_only_prompts == []
    assert all(0 <= d <= 2 for d in p.deadlines)
    # Every real prompt the person let run out was answered 过: the seat's answer to
    # that window (every pending seat answers before a window resolves) is its pass.
    assert len(p.missed) >= 2
    events = [e for f in p.c.frames for e in f["events"]]
    for version, seat in p.missed:
        answer = next(e for e in events if e["v"] > version and e["type"] == "action"
                      and e["action"]["seat"] == seat)
        assert answer["action"]["type"] == "pass" and answer.get("answer"), answer
    lines = stored_lines(server.db_url, code)
    assert json.loads(lines[-1])["type"] == "close"


def test_a_server_pass_waits_for_claim_min(server: Server) -> None:
    """A pass-only seat's 过 is applied no sooner than ``claim_min`` after its window
    opened (so a window's length shows nothing of who had no choice): the frame with the
    person's own 过 comes at least ``claim_min`` after the frame with the discard."""
    host = unique("cy")
    settings = {**FAST, "clock": 5, "claim_min": 0.4}
    room = create_room(server, host, variant="jingzhou", hands=1, **settings)
    code = room["code"]

    async def go() -> Client:
        c = Client(server, code, room["token"], host, seed=8)
        c.frames = _Stamped()
        await c.connect()
        assert (await c.request("start"))["op"] == "ack"
        p = Person(c)

        def enough() -> bool:
            return c.over or sum(
                1 for f in c.frames for e in f["events"]
                if e["type"] == "action" and e.get("answer")
                and e["action"]["type"] == "pass") >= 3

        await p.play(until=enough)
        await c.request("end")
        await c.wait(lambda: c.over)
        await c.close()
        return c

    c = asyncio.run(go())
    checked = 0
    opened: float | None = None
    for f in c.frames:
        at = f[_ARRIVED]
        for e in f["events"]:
            if e["type"] == "action" and e["action"]["type"] == "discard" \
                    and e["action"]["seat"] != c.seat:
                opened = at
            elif e["type"] == "action" and e.get("answer") and opened is not None \
                    and e["action"]["type"] == "pass":
                assert at - opened >= 0.3, (at - opened, e)
                checked += 1
                opened = None
    assert checked >= 1
