"""A room's driver: after every change it starts what must happen next — a bot's move, a
person's clock, the next hand — on the room's clock, and applies their answers under the
room's lock.

The decisions and their rules are the tables' own (:mod:`laizi.table.decisions`, shared
with the terminal, the simulator and the environments); this runner adds the hall's
timing. Claim windows follow the uniform rule of docs/protocol.md: every seat is asked; a
forced pass (a seat whose only legal answer is ``pass``, a person's or a bot's) is
answered by the server and its person is never prompted; bots' answers and those passes
are held until the window's minimum length (``claim_min``) has passed when a person sits
at the table, so a quick answer shows nothing. A person who lets a real prompt run out
passes; only a missed turn puts them on 托管. A bot that raises or answers an illegal
action is reported (the seat, the bot and what went wrong) and the table's default action
is played for it: never a substitute chosen in silence
(:func:`~laizi.table.decisions.resolve`).
"""

from __future__ import annotations

import asyncio

from laizi.engine.actions import Action
from laizi.server.room_state import RoomState, TaskKey
from laizi.table.decisions import BotError, Decision, asked, resolve
from laizi.vocab import Phase

__all__ = ["BotError", "RoomDriver"]

WINDOWS = (Phase.CLAIM, Phase.ROB, Phase.DECIDE)
"""The phases in which several seats answer at once (a window with a minimum length)."""


class RoomDriver(RoomState):
    """Bots, clocks and the next hand."""

    async def _apply(self, action: Action, version: int | None) -> None:
        """Apply, store, show: the one way an action enters the room."""
        t = self.table
        t.act(action, version=version)
        self._mark_window()
        await self._store(status="over" if t.over and not t.in_hand else None)
        await self.advance()  # first, so the frames carry the clocks it sets
        self.broadcast()

    async def advance(self) -> None:
        """After any change: start what must happen next (bots, clocks, the next hand)."""
        if self.closed or self.gone:
            return
        if not self.started or self.paused:
            self.broadcast()
            return
        if not self.table.in_hand:
            await self._between_hands()
            return
        self._start_answers()

    async def _between_hands(self) -> None:
        t = self.table
        self._cancel_tasks()
        if t.over:
            await self._close()
            return
        if self._reseat():
            await self._store()
        if self.waits_for_people():
            if self._next_hand is not None:
                self._next_hand.cancel()
                self._next_hand = None
            self.broadcast()
            return
        if self._next_hand is None:
            humans = self.persons_seated()
            wait = 0.0 if t.number == 0 or not humans else self.settings.between
            if humans and set(humans) <= self.ready:
                wait = 0.0
            self._next_hand = asyncio.create_task(self._deal_after(wait))
        elif set(self.persons_seated()) <= self.ready:
            self._next_hand.cancel()
            self._next_hand = asyncio.create_task(self._deal_after(0.0))
        self.broadcast()

    def _start_answers(self) -> None:
        """A bot's move or a person's clock for every seat asked now (kept when it
        already answers the seat's current question)."""
        t = self.table
        pending = set(t.to_act())
        for seat in list(self._tasks):
            if seat not in pending:
                self._tasks.pop(seat)[1].cancel()
                self._deadlines.pop(seat, None)
        for seat in pending:
            decision = asked(t, seat)
            person = decision.person
            key = (t.number, seat, t.version(person))
            held = self._tasks.get(seat)
            if held is not None and held[0] == key:
                continue
            if held is not None:
                held[1].cancel()
            if self.played_by_bot(person) or decision.forced:
                # A bot, 托管, a kicked person's seat, or a seat with nothing to answer but
                # pass (answered by the server, held like a bot's answer to the window's
                # minimum length).
                task = asyncio.create_task(self._bot_move(seat, key))
                self._deadlines.pop(seat, None)
            elif self.settings.clock is not None:
                self._deadlines[seat] = self.clock.monotonic() + self.settings.clock
                task = asyncio.create_task(self._clock(seat, key, self.settings.clock))
            else:
                continue
            self._tasks[seat] = (key, task)

    def _mark_window(self) -> None:
        """A window with no answer yet has just opened: its minimum length counts from
        now."""
        g = self.table.game
        if g is not None and g.phase in WINDOWS and not g.responses:
            self._window_open = self.clock.monotonic()

    def _cancel_tasks(self) -> None:
        for _, task in self._tasks.values():
            task.cancel()
        self._tasks.clear()
        self._deadlines.clear()

    async def _deal_after(self, wait: float) -> None:
        try:
            if wait:
                await self.clock.sleep(wait)
            async with self.lock:
                self._next_hand = None
                t = self.table
                if self.closed or self.gone or self.paused or t.in_hand or t.over:
                    return
                if self.waits_for_people():  # everybody left during the pause
                    self.broadcast()
                    return
                self.ready.clear()
                t.start_hand()
                self._mark_window()
                await self._store(status="playing")
                await self.advance()  # first, so the frames carry the clocks it sets
                self.broadcast()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.ports.reporter.report(self, exc)

    def _still(self, seat: int, key: TaskKey) -> bool:
        t = self.table
        return (not self.closed and not self.gone and not self.paused and t.in_hand
                and seat in t.to_act() and (t.number, seat, t.version(t.person_at(seat))) == key)

    async def _bot_choice(self, seat: int) -> Action:
        """What the seat's bot plays: the lone legal action without asking; else its
        answer, resolved by the tables' one bot-failure rule
        (:func:`~laizi.table.decisions.resolve`: a raise or an illegal answer is reported
        and the table's default action played)."""
        decision = asked(self.table, seat)
        lone = decision.lone
        if lone is not None:
            return lone
        answer: Action | Exception
        try:
            answer = await self.ports.bots.choose(self, decision.person, decision.view(),
                                                  decision.legal)
        except Exception as exc:  # a bot's bug is reported, and never stalls a room
            answer = exc
        return resolve(decision, answer, self._bot_failed)

    def _bot_failed(self, decision: Decision, exc: Exception) -> None:
        self.ports.reporter.bot_failed(self, decision.seat, decision.person, exc)

    async def _hold(self, phase: str) -> None:
        """While a person sits: hold a bot's answer to the window's minimum length, and
        pause on its turn (``phase``: the phase of the hand the bot answered in)."""
        if not self.people_present():
            return
        if phase == Phase.TURN:
            await self.clock.sleep(self.settings.bot_delay)
        else:
            rest = self._window_open + self.settings.claim_min - self.clock.monotonic()
            if rest > 0:
                await self.clock.sleep(rest)

    async def _bot_move(self, seat: int, key: TaskKey) -> None:
        try:
            g = self.table.game
            assert g is not None
            choice = await self._bot_choice(seat)
            await self._hold(g.phase)
            async with self.lock:
                if self._still(seat, key):
                    self._tasks.pop(seat, None)
                    await self._apply(choice, None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.ports.reporter.report(self, exc)

    async def _clock(self, seat: int, key: TaskKey, seconds: float) -> None:
        try:
            await self.clock.sleep(seconds)
            async with self.lock:
                if self._still(seat, key):
                    decision = asked(self.table, seat)
                    choice = decision.expired()  # a claim prompt ran out: simply 过
                    if choice is None:
                        self.auto.add(decision.person)  # a missed turn: 托管 until back
                        choice = decision.default()
                    self._tasks.pop(seat, None)
                    self._deadlines.pop(seat, None)
                    await self._apply(choice, None)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self.ports.reporter.report(self, exc)
