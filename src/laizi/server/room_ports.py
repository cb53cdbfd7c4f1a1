"""What a room needs from the world around it, as narrow ports: where its lines are stored,
who decides for its bots, whom it tells of its errors, and its clock. The hall
(:mod:`laizi.server.hall`) provides them; a room never sees the hall."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from laizi.engine.actions import Action
from laizi.server.room_clock import Clock
from laizi.server.room_settings import RoomSettings
from laizi.table.table import Entry

__all__ = ["BotChooser", "BotRoom", "Reporter", "RoomPorts", "RoomRef", "RoomStore",
           "StoredLog"]


class StoredLog(Protocol):
    """A room as storage holds it, as far as a room rebuilds its table from it."""

    @property
    def lines(self) -> Sequence[str]: ...

    @property
    def secret(self) -> str: ...


class RoomStore(Protocol):
    """The room's storage (:class:`laizi.server.storage.Store`)."""

    async def append(self, room: str, first: int, lines: Sequence[str],
                     hands: Sequence[tuple[int, str]] = (), status: str | None = None,
                     settings: dict[str, object] | None = None) -> None: ...

    async def room(self, code: str) -> StoredLog | None: ...

    async def add_member(self, token: str, room: str, name: str, role: str) -> None: ...


class RoomRef(Protocol):
    """A room as a report names it."""

    @property
    def code(self) -> str: ...


class BotRoom(Protocol):
    """A room as its bots see it: which room (a bot is kept per room and seat) and how
    strong they are."""

    @property
    def code(self) -> str: ...

    @property
    def settings(self) -> RoomSettings: ...


class BotChooser(Protocol):
    """Who decides for a room's bots (:class:`laizi.server.hall.BotPool`): the bot's own
    answer, legal or not (the room checks it)."""

    async def choose(self, room: BotRoom, person: str, view: Entry,
                     legal: Sequence[Action]) -> Action: ...


class Reporter(Protocol):
    """Whom a room tells of what went wrong (logged and counted; a room never stops on
    it)."""

    def report(self, room: RoomRef | None, exc: BaseException) -> None: ...

    def bot_failed(self, room: RoomRef, seat: int, bot: str, exc: BaseException) -> None:
        """A bot raised or answered an illegal action: the room plays the table's
        default action for it."""


@dataclass(frozen=True, slots=True)
class RoomPorts:
    """Everything a room is given. ``finished``: told when the room is over (with several
    processes, the room's lease is given back); ``hands_stored``: told (off the room's
    lock) when the room stored a finished hand (a club's ledger takes it)."""

    store: RoomStore
    bots: BotChooser
    reporter: Reporter
    clock: Clock
    finished: Callable[[str], Awaitable[None]] | None = None
    hands_stored: Callable[[str], Coroutine[Any, Any, None]] | None = None
