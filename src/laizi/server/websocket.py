"""The hall's websocket protocol: uvicorn's sans-I/O websockets protocol, with back-pressure
on reading only when messages pile up.

uvicorn stops reading a socket after every message and starts again once the app has
taken it: two ``epoll_ctl`` calls and a selector update a message, about 8% of the hall's
CPU in ``benchmarks/bench_server.py``. A client of the hall sends one message per
decision and waits for its answer, so here a socket is paused only once
:data:`QUEUED_BEFORE_PAUSE` messages wait unread; a client that floods is still held
back, a little later.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["QUEUED_BEFORE_PAUSE", "HallWebSocketProtocol"]

QUEUED_BEFORE_PAUSE = 16


class HallWebSocketProtocol(WebSocketsSansIOProtocol):
    """Pauses reading only when :data:`QUEUED_BEFORE_PAUSE` messages are queued."""

    def send_receive_event_to_app(self) -> None:
        if self.read_paused or self.queue.qsize() + 1 >= QUEUED_BEFORE_PAUSE:
            super().send_receive_event_to_app()  # pauses the socket, as uvicorn does
            return
        # The parent pauses unless it believes the socket paused already; it is not, and
        # is not marked so afterwards (so receive() does not resume it either).
        self.read_paused = True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = False
