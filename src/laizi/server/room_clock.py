"""The room's clock (时钟), injected: the real one reads ``time.monotonic`` and sleeps on the
event loop; :class:`FakeClock` lets a test move time by hand, so the hall's tests wait on
what happens instead of sleeping a fixed time."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol

__all__ = ["AsyncioClock", "Clock", "FakeClock"]


class Clock(Protocol):
    """What a room reads of time: a monotonic reading (clocks, deadlines, the vote's end)
    and a pause (a bot's delay, the prompt's clock, the time between hands)."""

    def monotonic(self) -> float: ...

    async def sleep(self, seconds: float) -> None: ...


class AsyncioClock:
    """The real clock: ``time.monotonic`` and ``asyncio.sleep``."""

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class FakeClock:
    """A clock that moves only when told (:meth:`advance`): a sleeper wakes once the
    time it waits for is reached. ``sleep(0)`` (or less) only yields to the event loop,
    as :func:`asyncio.sleep` does."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def monotonic(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        await future

    @property
    def sleepers(self) -> int:
        """How many sleeps are waiting (cancelled ones not counted)."""
        return sum(1 for _, _, f in self._sleepers if not f.done())

    async def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, waking every sleeper whose time comes, in order
        (each gets the event loop before the next is woken). Tasks ready to run go first,
        so a sleep a task is about to begin counts from before the move."""
        await _settle()
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            when, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
                await _settle()
        self._now = target
        await _settle()


async def _settle(rounds: int = 20) -> None:
    """Give the event loop's ready tasks their turns (what a woken sleeper does next
    without waiting on I/O)."""
    for _ in range(rounds):
        await asyncio.sleep(0)
