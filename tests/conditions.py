"""Waiting for a condition in the hall's tests.

A test waits for what it needs (a frame, a lease taken, a connection gone), never for a
fixed time: the condition is looked at every :data:`POLL` seconds, and ``timeout`` only
bounds a broken build (the test fails then, saying what never came).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["POLL", "POLL_MS", "until", "until_sync"]

POLL = 0.02
"""Seconds between two looks at a condition."""

POLL_MS = round(POLL * 1000)
"""The same in milliseconds, for a browser test's loop that looks again at its page
(``page.wait_for_timeout(POLL_MS)``: Playwright's sync calls deliver the page's events
only while one runs, so such a loop waits through the page, not ``time.sleep``)."""


async def until(predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Return once ``predicate()`` holds; :class:`AssertionError` (saying ``what`` did
    not happen) after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s: {what}")
        await asyncio.sleep(POLL)


def until_sync(predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """:func:`until` for a test outside an event loop (a server in another process)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s: {what}")
        time.sleep(POLL)
