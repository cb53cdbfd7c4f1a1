"""The one driver loop: a table played hand after hand by seat controllers.

A *controller* decides for the person at a seat: a person at the terminal, a bot, a remote
client. The loop asks every seat that has a decision (:meth:`Table.to_act`) with a
:class:`Decision` — the seat, its legal actions, its view (made only when asked for) and
an optional deadline — and plays the answer; a controller that gives no answer (``None``:
it timed out, or its person is away) gets the table's default action (托管,
:meth:`Table.default_action`), which is always legal.

Every claim window asks every other seat (the engine's uniform windows), so the order and
the number of questions never depend on who could claim; the answers stay secret until
the window closes. The hall follows the same rule with real clocks (docs/protocol.md,
"Claim windows").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from laizi.core.jsondata import JSON
from laizi.engine.actions import Action
from laizi.table.table import Entry, Table

__all__ = ["BotController", "Controller", "Decision", "play", "play_hand"]


@dataclass
class Decision:
    """One question to one seat."""

    table: Table
    seat: int
    person: str
    legal: tuple[Action, ...]
    deadline: float | None = None
    """``time.monotonic()`` by which to answer (``None``: no clock)."""
    _view: Entry | None = field(default=None, repr=False)

    def view(self) -> Entry:
        """The seat's view (versioned), made on first use."""
        if self._view is None:
            self._view = self.table.view(self.seat)
        return self._view


class Controller(Protocol):
    """Decides for one seat: an action among ``decision.legal``, or ``None`` for the
    default action.

    A controller whose ``forced_shortcut`` attribute is true is not asked about a decision
    with a single legal action (most are a lone ``pass`` in a window): the loop plays that
    action itself. Bots have nothing to decide there (:class:`BotController`); a person's
    or a remote client's controller leaves the attribute out, so it is asked every time
    and the hall can give every window the same clock."""

    def decide(self, decision: Decision) -> Action | None: ...


class _Chooser(Protocol):
    name: str

    def choose(self, view: JSON, legal_actions: Sequence[Action]) -> Action: ...


class BotController:
    """A bot (``choose(view, legal_actions)``) at a seat. A decision with one legal
    action (a ``pass`` in a window the seat cannot claim in) is answered without asking
    the bot or making the view; the driver loop does not even ask the controller
    (``forced_shortcut``)."""

    forced_shortcut: ClassVar[bool] = True

    def __init__(self, bot: _Chooser) -> None:
        self.bot = bot
        self.name = bot.name

    def decide(self, decision: Decision) -> Action | None:
        if len(decision.legal) == 1:
            return decision.legal[0]
        return self.bot.choose(decision.view(), decision.legal)


Controllers = Mapping[str, Controller] | Sequence[Controller] | Callable[[str], Controller]


def _lookup(controllers: Controllers) -> Callable[[int, str], Controller]:
    """``(seat, person) -> controller``, the kind of ``controllers`` told once per hand
    (the loop asks it for every decision, a lone ``pass`` included)."""
    if isinstance(controllers, Mapping):
        by_person = controllers
        return lambda seat, person: by_person[person]
    if isinstance(controllers, Sequence):
        by_seat = controllers
        return lambda seat, person: by_seat[seat]
    return lambda seat, person: controllers(person)


def play_hand(table: Table, controllers: Controllers, *, clock: float | None = None) -> None:
    """Play the hand in progress to its end. ``controllers`` maps a person to their
    controller (or is a list by seat, or a function of the person); ``clock`` is the
    seconds each decision may take. A hand that stops with no seat able to act (a rules
    bug) raises :class:`RuntimeError` rather than looping for ever."""
    game = table.game
    if game is None or game.over:
        return
    # Nobody joins, leaves or changes seats during a hand.
    people = [table.person_at(s) for s in range(game.n)]
    controller = _lookup(controllers)
    # The hand's own legal actions (an immutable tuple; table.legal_actions without its
    # between-hands checks, which cannot apply inside this loop).
    legal_actions, act = game.legal_actions, table.act
    while not game.over:
        acted = False
        for seat in game.to_act():
            legal = legal_actions(seat)
            if not legal:
                continue
            person = people[seat]
            chooser = controller(seat, person)
            if len(legal) == 1 and getattr(chooser, "forced_shortcut", False):
                act(legal[0])
            else:
                deadline = None if clock is None else time.monotonic() + clock
                answer = chooser.decide(Decision(table, seat, person, legal, deadline))
                act(answer if answer is not None else table.default_action(seat))
            acted = True
            if game.over:
                break
        if not acted and not game.over:
            raise RuntimeError(f"{table.variant.id} hand {table.number - 1}: seats "
                               f"{game.to_act()} must act in phase {game.phase} but none "
                               "has a legal action (a rules bug)")


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
