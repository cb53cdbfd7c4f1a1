"""A room's storage sync: every log line is stored before anything is shown; when a line
cannot be stored, the room's table is rebuilt from what storage holds (nothing unstored
may stand)."""

from __future__ import annotations

import asyncio

from laizi.errors import ErrorCode, LaiziError
from laizi.server.room_state import RoomState
from laizi.table import deals
from laizi.table.events import canonical
from laizi.table.table import Table
from laizi.vocab import TableEventType

__all__ = ["RoomStorage"]

_telling: set[asyncio.Task[None]] = set()
"""The hall being told of stored hands (kept until done)."""


class RoomStorage(RoomState):
    """The room's lines, status and settings in storage."""

    async def _store(self, status: str | None = None, *, settings: bool = False) -> None:
        """Store every log line not stored yet (before anything is shown), and the
        room's status or settings when they changed."""
        t = self.table
        first = self.stored
        new = t.log[first:]
        if not new and status is None and not settings:
            return
        if status == self._status:
            status = None
        elif status is not None:
            self._status = status
        lines = [canonical(e) for e in new]
        hands = [(int(e["number"]), canonical({k: v for k, v in e.items() if k != "wall"}))
                 for e in new if e["type"] == TableEventType.HAND_END]
        try:
            await self.ports.store.append(
                self.code, first, lines, hands, status=status,
                settings=self._stored_settings() if settings else None)
        except Exception as exc:
            # Nothing unstored may stand: rebuild the table from what storage holds.
            await self._reload()
            raise LaiziError(f"the action could not be stored ({type(exc).__name__}); "
                             "nothing was applied", code=ErrorCode.STORAGE) from None
        self.stored = len(t.log)
        told = self.ports.hands_stored
        if hands and told is not None:
            task: asyncio.Task[None] = asyncio.create_task(told(self.code))
            _telling.add(task)
            task.add_done_callback(_telling.discard)

    def _stored_settings(self) -> dict[str, object]:
        return {**self.settings.to_json(), "host": self.host, "paused": self.paused,
                "locked": self.locked, "kicked": dict(self.kicked)}

    async def _reload(self) -> None:
        stored = await self.ports.store.room(self.code)
        assert stored is not None
        self.table = Table.from_log(stored.lines, secret=deals.parse_secret(stored.secret))
        self.stored = len(self.table.log)
        self._cancel_tasks()
        # Under the caller's lock: once it is free, bots and clocks start again from what
        # storage holds (a line another process stored first shows up here too).
        self._resume = asyncio.create_task(self._after_reload())

    async def _after_reload(self) -> None:
        try:
            async with self.lock:
                await self.advance()
                self.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.ports.reporter.report(self, exc)
