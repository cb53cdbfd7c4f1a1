"""Rooms of the hall: one :class:`~laizi.table.Table` each, played by people and bots.

A room is authoritative and serial: every change (an action, a bot's move, a clock running
out, a person coming or going, the host's commands) happens under the room's lock, in
order. An accepted action is stored (a ``log_lines`` row) before it is acknowledged or
shown to anybody; then every connection is sent what its person may see: the events
after the version it knows and the current view (:meth:`Table.events`,
:meth:`Table.view_for`).

A room is made of parts with one job each, on one shared state
(:class:`~laizi.server.room_state.RoomState`):

- :mod:`~laizi.server.room_settings`: what the host chose;
- :mod:`~laizi.server.room_connection`: members and the writer of each connection;
- :mod:`~laizi.server.room_messages`: client messages parsed once into typed messages;
- :mod:`~laizi.server.room_dispatch`: each message dispatched on its type;
- :mod:`~laizi.server.room_frames`: the state frames;
- :mod:`~laizi.server.room_storage`: storage sync;
- :mod:`~laizi.server.room_driver`: bots, clocks and the next hand (docs/protocol.md's
  claim windows, the bot-failure rule);
- :mod:`~laizi.server.room_members`: membership, the dismiss vote, the room's end;
- :mod:`~laizi.server.room_host`: the host's powers over people (kick, hand over, lock).

It is given narrow ports (:mod:`~laizi.server.room_ports`: store, bots, reporter, clock)
and never sees the hall.
"""

from __future__ import annotations

from laizi.server.room_clock import AsyncioClock, Clock, FakeClock
from laizi.server.room_connection import Connection, Member, dumps
from laizi.server.room_dispatch import RoomDispatch
from laizi.server.room_driver import BotError, RoomDriver
from laizi.server.room_frames import RoomFrames
from laizi.server.room_host import CLOSE_KICKED, RoomHost
from laizi.server.room_members import RoomMembers
from laizi.server.room_messages import MAX_MESSAGE, parse_client_text
from laizi.server.room_ports import RoomPorts
from laizi.server.room_settings import BOT_PREFIX, RoomSettings
from laizi.server.room_state import pass_only
from laizi.server.room_storage import RoomStorage

__all__ = ["BOT_PREFIX", "CLOSE_KICKED", "MAX_MESSAGE", "AsyncioClock", "BotError", "Clock",
           "Connection", "FakeClock", "Member", "Room", "RoomPorts", "RoomSettings", "dumps",
           "parse_client_text", "pass_only"]


class Room(RoomDispatch, RoomHost, RoomDriver, RoomMembers, RoomStorage, RoomFrames):
    """One room of the hall: its parts together (each part's job is in its module)."""
