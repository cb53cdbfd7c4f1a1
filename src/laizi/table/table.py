"""The table: the unit of play of every variant (牌桌).

A :class:`Table` is the people at a table, who sits where, the dealer, the hand number, the
ledger per person, the options and the variant's session rules
(:mod:`laizi.table.session`), around the hand being played (a :class:`~laizi.engine.Game`).
The terminal game, the simulator, the arena, the RL environments and the hall all play
through it.

* **The log is the truth.** :attr:`Table.log` is an append-only list of JSON entries
  (``table``, ``entropy``, ``join``, ``leave``, ``horse``, ``hand``, ``action``,
  ``hand_end``, ``close``; see docs/protocol.md, "The table"). :meth:`Table.from_log`
  rebuilds the identical table from it, mid-hand included, and refuses a log of another
  rules version or one that does not follow from its own lines.
* **Secret deals.** Hand ``k`` is dealt from the table secret through
  :func:`laizi.table.deals.deal_wall`; the log holds only a commitment to the secret until
  :meth:`Table.close` reveals it. ``seed=`` is the public, predictable mode for simulation.
* **Versions.** Everything a person may see is one stream of events; a person's
  :meth:`version` is the number of events of the stream they can see, every event they
  are sent carries its number ``v`` and every view the current one. An action may say
  which version it answers; a stale one is refused (:class:`~laizi.errors.StaleVersionError`).
* **A strict boundary.** :meth:`act` takes an :class:`~laizi.engine.Action` or untrusted
  JSON; any refusal is a :class:`~laizi.errors.LaiziError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import laizi.table.deals as deals
from laizi.core.jsondata import JSON
from laizi.core.records import record_to_json
from laizi.engine.actions import Action
from laizi.engine.game import OVER, RULES_VERSION, Game
from laizi.engine.registry import get as get_variant
from laizi.engine.reports import copy_json
from laizi.engine.variant import Variant
from laizi.errors import (
    ErrorCode,
    IllegalActionError,
    LaiziError,
    LogError,
    MalformedActionError,
    StaleVersionError,
    TableError,
)
from laizi.table.arguments import (
    check_dealer,
    check_person,
    log_secret,
    read_max_hands,
    read_options,
    read_streams,
    read_walls,
    seating_of,
    table_secret,
)
from laizi.table.events import (
    CloseEntry,
    EntropyEntry,
    HandEndEntry,
    HandEntry,
    HorseEntry,
    JoinEntry,
    LeaveEntry,
    TableActionEntry,
    TableEntry,
    TableEvent,
    canonical,
    expect_line,
    read_line,
    table_event_from_json,
)
from laizi.table.session import Seating, Session, SessionState, session_for
from laizi.table.stream import EventStream
from laizi.vocab import TableEventType

__all__ = ["FORMAT", "Entry", "Table"]

FORMAT = 1
"""The version of the table log's own format (its entries and their fields)."""

Entry = JSON
"""One line of the table log, or one event of a person's stream (plain JSON)."""


def _variant(v: Variant | str) -> Variant:
    return get_variant(v) if isinstance(v, str) else v


class Table:
    """One table of one variant: create it, seat people, then deal and play hands.

    ``people`` sit at seats 0, 1, … in order (晃晃: the first four sit, the rest wait);
    fewer than the seats leave seats empty until someone :meth:`join`\\ s. Without
    ``seed`` the table draws a fresh secret; ``secret`` (32 bytes) is for restoring.
    """

    def __init__(self, variant: Variant | str, options: object = None,
                 people: Sequence[str] | None = None, *, seed: int | None = None,
                 secret: bytes | None = None, dealer: int = 0,
                 max_hands: int | None = None, streams: bool = False,
                 walls: Sequence[Sequence[int]] | None = None) -> None:
        v = _variant(variant)
        self.variant = v
        self.session: Session = session_for(v)
        self.options = read_options(v, options)
        self._options_json = v.options_to_json(self.options)  # they never change
        self.dealer = check_dealer(v, dealer)
        self.seating, people = seating_of(v, people, self.session.max_people)
        self.number = 0
        """Hands dealt so far (the next hand's number, 0-based, when none is in play)."""
        self.ledger: dict[str, int] = {p: 0 for p in people}
        self._played: set[str] = set()
        """Everyone who was at the table (seated or waiting) when a hand was dealt."""
        self.state = SessionState()
        self.no_horse: set[str] = set()
        self.entropy: list[str] = []
        self.closed = False
        max_hands = read_max_hands(max_hands)
        self.max_hands = self.session.max_hands(self.options) if max_hands is None else max_hands
        self._open_ended = max_hands is not None
        """An explicit ``max_hands`` plays that many hands whatever the session's own
        length (Taiwan then starts a new 将 after four 圈)."""
        self.streams = read_streams(streams)
        """Deal every hand with per-seat draw streams (``Game(..., streams=True)``, 分墙):
        for duplicate comparisons (the arena's ``--streams``); in the log's ``table`` line."""
        self.seed = seed
        self._secret = table_secret(seed, secret)
        self.walls = read_walls(walls, seed)  # an imported match's: they replace the seed's
        if self.walls is not None:
            self.max_hands = min(self.max_hands or len(self.walls), len(self.walls))
        self.game: Game | None = None
        self._seated: tuple[str, ...] = ()
        """Who sits where in the current (or last) hand."""
        self.log: list[Entry] = []
        self._stream = EventStream()
        self._seen = 0
        head = TableEntry(
            FORMAT, RULES_VERSION, v.id, v.options_to_json(self.options), list(people), dealer,
            max_hands, streams, seed,
            None if seed is not None else deals.commitment(self._secret), self.walls).to_json()
        # Even a public seed (or wall) stays out of what people are sent: it predicts deals.
        self._append(head, {k: val for k, val in head.items() if k not in ("seed", "walls")})

    # ------------------------------------------------------------------ the log and the stream

    def _append(self, entry: Entry, public: Entry | None = None) -> None:
        self.log.append(entry)
        self._stream.public(entry if public is None else public)

    def _sync(self) -> None:
        """Copy the hand's new engine events into the stream."""
        g = self.game
        assert g is not None
        seats = self._seated  # every seat is taken during a hand
        log = g.log
        for ev in log[self._seen:]:
            self._stream.hand_event(ev, seats)
        self._seen = len(log)

    def version(self, person: str | None = None) -> int:
        """How many events of the stream ``person`` can see (``None``: a spectator)."""
        return self._stream.version(person)

    def events(self, person: str | None = None, after: int = 0) -> list[Entry]:
        """The events ``person`` may see with numbers ``v`` greater than ``after`` (their
        own view of everything; ``None``: a spectator's). A client that knows version
        ``after`` needs exactly these."""
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise MalformedActionError(f"after must be a version (int >= 0), got {after!r}")
        shown = self._stream.seen_by(person)
        return [{**e, "v": v} for v, e in enumerate(shown[after:], after + 1)]

    # ------------------------------------------------------------------ who is here

    @property
    def people(self) -> tuple[str, ...]:
        """Everyone at the table: the seated in seat order, then the waiting."""
        return self.seating.people

    @property
    def seats(self) -> tuple[str | None, ...]:
        return self.seating.seats

    @property
    def waiting(self) -> tuple[str, ...]:
        return self.seating.waiting

    @property
    def in_hand(self) -> bool:
        """A hand is being played."""
        return self.game is not None and not self.game.over

    @property
    def over(self) -> bool:
        """No hand can be dealt any more (closed, or the session is complete)."""
        if self.closed or (self.max_hands is not None and self.number >= self.max_hands):
            return True
        return not self._open_ended and self.session.over(self.number, self.state)

    def _between_hands(self, what: str) -> None:
        if self.closed:
            raise TableError(f"the table is closed: cannot {what}", code=ErrorCode.TABLE_OVER)
        if self.in_hand:
            raise TableError(f"cannot {what} during a hand", code=ErrorCode.HAND_IN_PROGRESS)

    def join(self, person: str) -> None:
        """``person`` comes to the table between hands: into the first empty seat, or
        (晃晃) to the back of the waiting list. Their old score, if any, is kept."""
        check_person(person)
        self._between_hands("join")
        if person in self.people:
            raise TableError(f"{person!r} is already at the table")
        seats = list(self.seating.seats)
        if None in seats:
            seats[seats.index(None)] = person
            self.seating = Seating(tuple(seats), self.seating.waiting)
        elif len(self.people) < self.session.max_people:
            self.seating = Seating(self.seating.seats, (*self.seating.waiting, person))
        else:
            raise TableError(f"the table is full ({self.session.max_people} people)")
        self.ledger.setdefault(person, 0)
        self._append(JoinEntry(person).to_json())

    def leave(self, person: str) -> None:
        """``person`` leaves between hands; the front of the waiting list takes their seat
        (else the seat stays empty until someone joins). Their score stays in the ledger."""
        check_person(person)
        self._between_hands("leave")
        if person not in self.people:
            raise TableError(f"{person!r} is not at the table")
        seats = list(self.seating.seats)
        waiting = [p for p in self.seating.waiting if p != person]
        if person in seats:
            i = seats.index(person)
            seats[i] = waiting.pop(0) if waiting else None
        self.seating = Seating(tuple(seats), tuple(waiting))
        self.no_horse.discard(person)
        self._append(LeaveEntry(person).to_json())

    def buy_horse(self, person: str, buy: bool) -> None:
        """Whether ``person`` buys a horse (买马) from the next hand on (晃晃; everyone
        buys unless they say otherwise)."""
        check_person(person)
        self._between_hands("change a horse bet")
        if self.variant.id != "huanghuang":
            raise TableError(f"{self.variant.id} has no horse bets (买马)")
        if not isinstance(buy, bool):
            raise TableError(f"buy must be true or false, got {buy!r}", code=ErrorCode.MALFORMED)
        if person not in self.people:
            raise TableError(f"{person!r} is not at the table")
        if buy:
            self.no_horse.discard(person)
        else:
            self.no_horse.add(person)
        self._append(HorseEntry(person, buy).to_json())

    def add_entropy(self, person: str, value: str) -> None:
        """``person`` adds their own randomness to every later deal (after the secret
        was committed to, so neither the server nor any person chooses the deals)."""
        check_person(person)
        self._between_hands("add entropy")
        if person not in self.people:
            raise TableError(f"{person!r} is not at the table")
        value = deals.check_entropy(value)
        self.entropy.append(value)
        self._append(EntropyEntry(person, value).to_json())

    # ------------------------------------------------------------------ hands

    def start_hand(self) -> Game:
        """Deal the next hand (it may need no decision before its first discard)."""
        self._between_hands("deal")
        if self.over:
            raise TableError("the session is over: no more hands", code=ErrorCode.TABLE_OVER)
        if None in self.seating.seats:
            raise TableError("every seat needs a person before the deal")
        v, k = self.variant, self.number
        seated = tuple(p for p in self.seating.seats if p is not None)
        buyers = frozenset(p for p in self.people if p not in self.no_horse)
        options, context = self.session.hand_setup(self.options, k, self.seating, self.dealer,
                                                   self.state, buyers)
        tiles = v.tile_set(options)
        wall = list(self.walls[k]) if self.walls is not None else \
            deals.deal_wall(self._secret, k, deals.mix(self.entropy), tiles)
        scores = [self.ledger[p] for p in seated]
        self._played.update(self.people)
        self._append(HandEntry(k, self.dealer, list(seated), list(self.seating.waiting),
                               v.options_to_json(options), context, scores).to_json())
        self.game = Game(v, options, seed=None, dealer=self.dealer, scores=scores, wall=wall,
                         context=context or None, streams=self.streams)
        self._seated = seated
        self._seen = 0
        self.number += 1
        self._sync()
        if self.game.over:
            self._book()
        return self.game

    def _hand(self) -> Game:
        g = self.game
        if g is None or g.over:
            raise IllegalActionError("no hand is being played", code=ErrorCode.NO_HAND)
        return g

    def to_act(self) -> list[int]:
        """Seats with a decision now (none between hands)."""
        g = self.game
        return [] if g is None or g.over else g.to_act()

    def legal_actions(self, seat: int) -> tuple[Action, ...]:
        """What ``seat`` may do now (empty between hands or when it has no decision)."""
        g = self.game
        if g is None or g.phase == OVER:
            self._seat_index(seat)
            return ()
        return tuple(g.legal_actions(seat))

    def _seat_index(self, seat: object) -> int:
        n = self.variant.seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise MalformedActionError(f"no seat {seat!r} at a {self.variant.id} table "
                                       f"(0-{n - 1})", code=ErrorCode.NO_SUCH_SEAT)
        return seat

    def default_action(self, seat: int) -> Action:
        """The action played for ``seat`` when its person does not answer (托管): always
        legal (see :meth:`laizi.engine.variant.Variant.default_action`)."""
        g = self._hand()
        self._seat_index(seat)
        return self.variant.default_action(g, seat)

    def act(self, action: Action | Mapping[str, object], version: int | None = None) -> None:
        """Play one action: an :class:`Action`, or untrusted JSON (which may carry the
        ``version`` it answers). Checked in order — form, seat, version, legality — and
        refused with a :class:`~laizi.errors.LaiziError` that changes nothing."""
        # The checks are ordered for the common case (an Action from legal_actions, a
        # seat in range): the simulator and the arena call this for every pass.
        answered: object = version  # untrusted when it comes with JSON
        if not isinstance(action, Action):
            if not isinstance(action, Mapping):
                raise MalformedActionError(f"an action is a JSON object, got {action!r}")
            data = dict(action)
            if "version" in data:
                answered = data.pop("version")
            action = Action.from_json(data)
        g = self.game
        if g is None or g.phase == OVER:
            g = self._hand()  # refuses
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < g.n:
            seat = self._seat_index(seat)
        if answered is not None:
            if isinstance(answered, bool) or not isinstance(answered, int):
                raise MalformedActionError(f"version must be an int, got {answered!r}",
                                           seat=seat, phase=g.phase)
            person = self.seating.seats[seat]
            now = self.version(person)
            if answered != now:
                raise StaleVersionError(
                    f"the action answers version {answered}; seat {seat}'s view is at {now}",
                    seat=seat, phase=g.phase)
        g.apply(action)
        self.log.append(TableActionEntry(action).to_json())
        # _sync(), inline: the hand's new engine events into the stream
        log, seats, add = g.log, self._seated, self._stream.hand_event
        for ev in log[self._seen:]:
            add(ev, seats)
        self._seen = len(log)
        if g.phase == OVER:
            self._book()

    def _book(self) -> None:
        g = self.game
        assert g is not None and g.record is not None
        booking = self.session.book(g, self.seating, self.state)
        for person, amount in booking.net.items():
            self.ledger[person] = self.ledger.get(person, 0) + amount
        self.dealer = booking.dealer
        self.seating = booking.seating
        self.state = booking.state
        entry = HandEndEntry(
            self.number - 1, record_to_json(g.record, self.variant),
            [p.to_json() for p in booking.payments], dict(booking.net), dict(self.ledger),
            self.dealer, [list(x) for x in booking.left], [list(x) for x in booking.entered],
            list(booking.horses), list(g.wall))
        # The stream leaves out the finished hand's wall: nothing a person needs.
        self._append(entry.to_json(), entry.public())

    def close(self) -> None:
        """End the table (a hand in play is abandoned) and reveal the secret, so anyone
        can check every deal (``laizi verify``)."""
        if self.closed:
            raise TableError("the table is already closed", code=ErrorCode.TABLE_OVER)
        entry = CloseEntry(self.number - 1 if self.in_hand else None,
                           deals.secret_hex(self._secret) if self.seed is None else None)
        self.closed = True
        self._append(entry.to_json())

    # ------------------------------------------------------------------ views

    def person_at(self, seat: int) -> str:
        p = self.seating.seats[self._seat_index(seat)]
        if p is None:
            raise TableError(f"seat {seat} is empty")
        return p

    @property
    def standing(self) -> dict[str, int]:
        """The ledger as it is shown: :attr:`ledger` without the people who left before
        they were ever at a hand and have nothing in it (a bot that gave its seat to a
        person before the first deal is no 0 column). The log's lines keep the whole
        ledger."""
        people = self.people
        return {p: v for p, v in self.ledger.items()
                if v or p in people or p in self._played}

    def table_view(self) -> Entry:
        """The public facts of the table (no hand needed)."""
        return {
            "variant": self.variant.id, "options": copy_json(self._options_json),
            "seats": list(self.seating.seats), "waiting": list(self.seating.waiting),
            "dealer": self.dealer, "hands": self.number, "ledger": self.standing,
            "session": self.state.to_json(), "over": self.over, "closed": self.closed,
            "in_hand": self.in_hand, "max_hands": self.max_hands,
            "horses_off": sorted(self.no_horse),
        }

    def view(self, seat: int | None = None) -> Entry:
        """What ``seat`` may know now (``None``: a spectator's public view), with the
        ``version`` it is at and the public table facts under ``table``."""
        person = None if seat is None else self.person_at(seat)
        return self._view(person)

    def view_for(self, person: str | None) -> Entry:
        """The view of ``person``: their seat's if they sit in the hand, else public."""
        if person is not None and person not in self.ledger:
            raise TableError(f"{person!r} has never been at the table")
        return self._view(person)

    def _view(self, person: str | None) -> Entry:
        g = self.game
        out: Entry
        if g is None:
            out = {"phase": "waiting"}
        else:
            hand_seats = self._hand_seats()
            if person is not None and person in hand_seats:
                out = g.view(hand_seats.index(person))
            else:
                out = g.view(0)
                out.update(seat=None, hand=[], drawn=None, passed_win=False, to_act=False)
        out["table"] = self.table_view()
        out["version"] = self.version(person)
        return out

    def _hand_seats(self) -> tuple[str, ...]:
        """Who sat where in the current (or last) hand."""
        return self._seated

    # ------------------------------------------------------------------ state and restore

    def to_json(self) -> Entry:
        """The whole state (the secret left out): equal tables give equal JSON."""
        return {
            **self.table_view(), "ledger": dict(self.ledger),
            "people": list(self.people), "entropy": list(self.entropy),
            "log_lines": len(self.log), "stream": len(self._stream),
            "game": None if self.game is None else self.game.to_json(),
        }

    def dumps(self) -> str:
        """The log as JSON lines (the byte-exact form :meth:`from_log` reads)."""
        return "".join(canonical(e) + "\n" for e in self.log)

    @classmethod
    def from_log(cls, lines: Iterable[str | Mapping[str, object]], *,
                 secret: bytes | None = None) -> Table:
        """Rebuild the table a log describes, mid-hand included.

        ``lines`` are JSON strings or parsed entries. The secret comes from the log's
        ``close`` line or from ``secret`` (a server restoring a table in play); it must
        open the log's commitment. Every line is re-derived and must be byte for byte the
        line the log holds, else :class:`~laizi.errors.LogError` names the first line
        (and hand) that differs. A log may stop anywhere, even before the ``hand_end``
        line that its last action implies (the table writes that line itself).
        """
        last: Table | None = None
        for _, last in cls.replay(lines, secret=secret):  # noqa: B007 (the last one)
            pass
        assert last is not None
        return last

    @classmethod
    def replay(cls, lines: Iterable[str | Mapping[str, object]], *,
               secret: bytes | None = None) -> Iterator[tuple[int, Table]]:
        """:meth:`from_log` line by line: after each line ``n`` (1-based) yields ``(n,
        table)`` — the very table that ``from_log`` of the first ``n`` lines builds (the
        same object each time, moving on)."""
        entries = [read_line(no, line) for no, line in enumerate(lines, 1)]
        table = cls._set_up(entries, secret)
        expect_line(table.log, entries, 0, table._where())
        yield 1, table
        for i, entry in enumerate(entries[1:], 1):
            try:
                table._replay_line(table_event_from_json(entry))
            except LogError as exc:
                raise LogError(f"line {i + 1}{table._where()}: {exc.message}") from None
            except (LaiziError, KeyError, TypeError, ValueError) as exc:
                raise LogError(f"line {i + 1}{table._where()}: cannot be replayed: "
                               f"{exc}") from None
            expect_line(table.log, entries, i, table._where())
            if i == len(entries) - 1 and any(e["type"] != TableEventType.HAND_END
                                             for e in table.log[len(entries):]):
                raise LogError(f"line {len(entries) + 1}{table._where()}: the log ends "
                               f"early (the table writes "
                               f"{canonical(table.log[len(entries)])})")
            yield i + 1, table

    def _replay_line(self, line: TableEvent) -> None:
        """Do again what a log line (after the first) records."""
        match line:  # the common line first: a log is mostly actions
            case TableActionEntry(action=action):
                self.act(action)
            case HandEndEntry():
                pass  # written by the table itself when the hand's last action ends it
            case EntropyEntry(person=person, value=value):
                self.add_entropy(person, value)
            case JoinEntry(person=person):
                self.join(person)
            case LeaveEntry(person=person):
                self.leave(person)
            case HorseEntry(person=person, buy=buy):
                self.buy_horse(person, buy)
            case HandEntry():
                self.start_hand()
            case CloseEntry():
                self.close()
            case TableEntry():
                raise LogError("a second 'table' line")

    @classmethod
    def _set_up(cls, entries: Sequence[Entry], secret: bytes | None) -> Table:
        if not entries or entries[0].get("type") != TableEventType.TABLE:
            raise LogError("a table log starts with a 'table' line")
        head = entries[0]
        if head.get("rules") != RULES_VERSION or head.get("format") != FORMAT:
            raise LogError(
                f"the log was written under rules version {head.get('rules')!r} (format "
                f"{head.get('format')!r}); this laizi plays rules version {RULES_VERSION} "
                f"(format {FORMAT}) and would rebuild it differently",
                code=ErrorCode.RULES_VERSION)
        closing = entries[-1] if entries[-1].get("type") == TableEventType.CLOSE else None
        try:
            if "seed" in head:
                return cls(head["variant"], head.get("options"), head.get("people"),
                           seed=head["seed"], dealer=head.get("dealer", 0),
                           max_hands=head.get("max_hands"),
                           streams=head.get("streams", False), walls=head.get("walls"))
            secret = log_secret(head.get("commitment"),
                                None if closing is None else closing.get("secret"), secret)
            return cls(head["variant"], head.get("options"), head.get("people"),
                       secret=secret, dealer=head.get("dealer", 0),
                       max_hands=head.get("max_hands"),
                       streams=head.get("streams", False))
        except LogError:
            raise
        except (LaiziError, KeyError, TypeError, ValueError) as exc:
            raise LogError(f"line 1: the table cannot be set up: {exc}") from None

    def _where(self) -> str:
        return f" (hand {self.number - 1})" if self.number else ""

