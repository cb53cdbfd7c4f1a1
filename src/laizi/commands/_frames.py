"""The hall's websocket frames as ``laizi connect`` reads them (docs/protocol.md).

They are the server's to define (``laizi.server``); these types say which fields the
terminal client relies on, so that they can move next to the code that writes them. The
view and the events inside a ``state`` frame are the table's entries
(:data:`laizi.table.table.Entry`): the engine's tagged union, typed there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias, TypedDict, TypeGuard

from laizi.vocab import ServerOp

if TYPE_CHECKING:  # laizi connect imports little until it plays
    from laizi.errors import ErrorJSON
    from laizi.table.table import Entry

__all__ = ["AckFrame", "ErrorFrame", "Frame", "RoomInfo", "RoomSettings", "StateFrame", "is_error",
           "is_state"]


class RoomSettings(TypedDict):
    """The room's settings, as far as the client reads them."""

    variant: str


class RoomInfo(TypedDict):
    """The room's public facts, sent with every ``state`` frame."""

    settings: RoomSettings
    started: bool
    over: bool
    ledger: dict[str, int]
    """Every person's total so far."""
    seats: list[str | None]


class StateFrame(TypedDict):
    """A seat's view, its legal actions (as JSON) and the events since the version the
    connection last saw (``snapshot``: from the start of the hand, after a long gap)."""

    op: Literal[ServerOp.STATE]
    version: int
    snapshot: bool
    view: Entry
    room: RoomInfo
    events: list[Entry]
    legal: list[dict[str, object]]


class ErrorFrame(TypedDict):
    """A client message refused."""

    op: Literal[ServerOp.ERROR]
    error: ErrorJSON


class AckFrame(TypedDict):
    """A client message applied."""

    op: Literal[ServerOp.ACK]
    seq: int


Frame: TypeAlias = "StateFrame | ErrorFrame | AckFrame"
"""What the hall sends a websocket (one JSON object a message)."""


def is_state(frame: Frame) -> TypeGuard[StateFrame]:
    """Whether ``frame`` is a ``state`` frame (a frame without ``op`` is none of them)."""
    return frame.get("op") == ServerOp.STATE


def is_error(frame: Frame) -> TypeGuard[ErrorFrame]:
    """Whether ``frame`` is an ``error`` frame."""
    return frame.get("op") == ServerOp.ERROR
