"""The table's event stream as each person sees it (流水): what :meth:`Table.events
<laizi.table.table.Table.events>` and :meth:`Table.version
<laizi.table.table.Table.version>` answer.

Every line the table adds is one event of the stream: a table line (seen by everybody
as it is), or an engine event of the hand in progress with the hand's seating, shown to
each person as :func:`laizi.engine.log.redact` shows it to their seat. A person's
*version* is how many events they can see: all of them but the others' secret answers
(:func:`laizi.engine.log.answer_seat`), which are counted as they come, so that a
version costs nothing; a person's events are redacted only when asked for, and kept.
"""

from __future__ import annotations

from laizi.core.jsondata import JSON
from laizi.engine.log import answer_seat, redact

__all__ = ["EventStream"]

Entry = JSON


class EventStream:
    """The stream of a table's events, and each person's view of it."""

    def __init__(self) -> None:
        self._events: list[tuple[Entry, tuple[str, ...] | None]] = []
        self._shown: dict[str | None, tuple[int, list[Entry]]] = {}
        self._answers = 0
        """Secret answers in the stream: everybody sees every event but others' answers."""
        self._answered: dict[str, int] = {}
        """Each person's own answers among them."""

    def __len__(self) -> int:
        return len(self._events)

    def public(self, entry: Entry) -> None:
        """A table line, the same for everybody."""
        self._events.append((entry, None))

    def hand_event(self, event: Entry, seats: tuple[str, ...]) -> None:
        """An engine event of the hand seated as ``seats``."""
        self._events.append((event, seats))
        seat = answer_seat(event)
        if seat is not None:
            self._answers += 1
            who = seats[seat]
            self._answered[who] = self._answered.get(who, 0) + 1

    def version(self, person: str | None) -> int:
        """How many events ``person`` can see (``None``: a spectator)."""
        mine = self._answered.get(person, 0) if person is not None else 0
        return len(self._events) - self._answers + mine

    def seen_by(self, person: str | None) -> list[Entry]:
        """The events ``person`` can see, as they see them (kept up to date lazily: only
        the events added since the last call are looked at)."""
        scanned, shown = self._shown.get(person, (0, []))
        events = self._events
        for i in range(scanned, len(events)):
            ev, seats = events[i]
            if seats is None:
                shown.append(ev)
                continue
            seat = seats.index(person) if person is not None and person in seats else None
            one = redact(ev, seat)
            if one is not None:
                shown.append(one)
        self._shown[person] = (len(events), shown)
        return shown
