"""The one synchronous driver loop: a table played hand after hand by seat controllers.

A *controller* decides for the person at a seat: a person at the terminal, a bot. The loop
takes the hand's decisions from :func:`laizi.table.decisions.decisions` — which plays
forced passes itself, so nobody is prompted for a window in which ``pass`` is their only
answer — asks each seat's controller with a :class:`Decision` (its legal actions, its
view made only when asked for, an optional deadline) and plays what
:func:`~laizi.table.decisions.resolve` makes of the answer: no answer (``None``: it timed
out, or its person is away) is the table's default action (托管,
:meth:`Table.default_action`); a bot that raises or answers an illegal action is reported
and the default action played. The hall's room runner (:mod:`laizi.server.room_driver`)
takes the same decisions and the same rules, with real clocks on top (docs/protocol.md,
"Claim windows").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Protocol

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action
from laizi.table.decisions import Decision, Report, decisions, resolve
from laizi.table.table import Table

__all__ = ["BotController", "Controller", "Decision", "play", "play_hand"]


class Controller(Protocol):
    """Decides for one seat: an action among ``decision.legal``, or ``None`` for the
    default action. It is never asked about a forced pass (``pass`` its only answer).

    A controller whose ``forced_shortcut`` attribute is true is not asked about a decision
    with a single legal action either: the loop plays that action itself. Bots have
    nothing to decide there (:class:`BotController`); a person's controller leaves the
    attribute out, so it is asked."""

    def decide(self, decision: Decision) -> Action | None: ...


class _Chooser(Protocol):
    name: str

    def choose(self, view: JSON, legal_actions: Sequence[Action]) -> Action: ...


class BotController:
    """A bot (``choose(view, legal_actions)``) at a seat. A decision with one legal
    action is answered without asking the bot or making the view (the driver loop does
    not even ask the controller: ``forced_shortcut``). A bot that raises or answers an
    illegal action is reported (``report``, by default a warning in the log) and the
    table's default action is played (:func:`~laizi.table.decisions.resolve`).

    A bot with an ``observe(seat, events)`` method is also given, before each question,
    the table's events its seat has not been shown yet (as :meth:`Table.events` shows
    them to its person): the Botzone bridge (:mod:`laizi.bots.botzone`) retells the hand
    to its program from them, since a view says where the hand is, not how it got there."""

    forced_shortcut: ClassVar[bool] = True

    def __init__(self, bot: _Chooser, report: Report | None = None) -> None:
        self.bot = bot
        self.name = bot.name
        self.report = report
        self._observe: Callable[[int, list[JSON]], None] | None = getattr(bot, "observe", None)
        self._seen = 0

    def decide(self, decision: Decision) -> Action | None:
        lone = decision.lone
        if lone is not None:
            return lone
        answer: Action | Exception
        try:
            if self._observe is not None:
                events = decision.table.events(decision.person, self._seen)
                self._seen += len(events)
                self._observe(decision.seat, events)
            answer = self.bot.choose(decision.view(), decision.legal)
        except Exception as exc:  # a bot's bug is reported, and never stops the table
            answer = exc
        return resolve(decision, answer, self.report)


Controllers = Mapping[str, Controller] | Sequence[Controller] | Callable[[str], Controller]


def _lookup(controllers: Controllers) -> Callable[[int, str], Controller]:
    """``(seat, person) -> controller``, the kind of ``controllers`` told once per hand
    (the loop asks it for every decision)."""
    if isinstance(controllers, Mapping):
        by_person = controllers
        return lambda seat, person: by_person[person]
    if isinstance(controllers, Sequence):
        by_seat = controllers
        return lambda seat, person: by_seat[seat]
    return lambda seat, person: controllers(person)


def play_hand(table: Table, controllers: Controllers, *, clock: float | None = None,
              report: Report | None = None) -> None:
    """Play the hand in progress to its end. ``controllers`` maps a person to their
    controller (or is a list by seat, or a function of the person); ``clock`` is the
    seconds each decision may take; ``report`` is told of an illegal answer (else a
    warning in the log), for which the default action is played."""
    controller = _lookup(controllers)
    act = table.act
    for decision in decisions(table):
        chooser = controller(decision.seat, decision.person)
        lone = decision.lone
        if lone is not None and getattr(chooser, "forced_shortcut", False):
            act(lone)
            continue
        if clock is not None:
            decision.deadline = time.monotonic() + clock
        act(resolve(decision, chooser.decide(decision), report))


def play(table: Table, controllers: Controllers, *, hands: int | None = None,
         clock: float | None = None,
         after_hand: Callable[[Table], None] | None = None) -> int:
    """Deal and play hands until the session is over or ``hands`` more were played;
    ``after_hand(table)`` runs after each (a terminal shows the settlement, a person may
    join or leave). Returns how many hands were played."""
    played = 0
    while not table.over and (hands is None or played < hands):
        table.start_hand()
        play_hand(table, controllers, clock=clock)
        played += 1
        if after_hand is not None:
            after_hand(table)
    return played
