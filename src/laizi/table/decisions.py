"""What a table needs answered now, and what is played when an answer fails: the rules
every driver of a table shares — the terminal and the simulator (:mod:`laizi.table.driver`),
the environments, and the hall's room runner (:mod:`laizi.server.room_driver`), which adds
its clocks on top.

- :func:`decisions` yields a :class:`Decision` for each seat asked, in the engine's order;
  every claim window asks every other seat (the uniform windows), so the questions never
  depend on who could claim.
- A *forced* decision (:attr:`Decision.forced`: ``pass`` is the only legal answer) is
  played by the driver itself and nobody is prompted; the hall holds it like a bot's
  answer to the window's minimum length (docs/protocol.md, "Claim windows").
- A bot is not asked about a decision with one legal action (:attr:`Decision.lone`).
- A person's prompt that runs out (the hall's clocks) passes in a window, and on a turn
  plays the default action and puts the person on 托管 (:meth:`Decision.expired`).
- :func:`resolve` turns an answer into the action played: no answer (a clock ran out, 托管)
  is the table's default action (:meth:`Table.default_action`); a bot that raised or
  answered an illegal action is reported (:class:`BotError` for the latter) and the
  default action is played — never a substitute chosen in silence.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from laizi.engine.actions import WRONG_WIN, Action
from laizi.engine.refusals import wrong_win_refusal
from laizi.errors import ErrorCode, LaiziError
from laizi.table.table import Entry, Table
from laizi.vocab import ActionType, Phase

__all__ = ["BotError", "Decision", "Report", "asked", "decisions", "log_failure", "pass_only",
           "resolve"]

log = logging.getLogger("laizi.table")


class BotError(LaiziError):
    """A bot answered an action that is not legal for its seat."""


def pass_only(actions: Sequence[Action]) -> bool:
    """Whether ``pass`` is the only legal answer (a forced pass: nobody is prompted)."""
    return len(actions) == 1 and actions[0].type == ActionType.PASS


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

    @property
    def forced(self) -> bool:
        """``pass`` is the only answer: the driver plays it, nobody is prompted."""
        return pass_only(self.legal)

    @property
    def lone(self) -> Action | None:
        """The one legal action, if there is only one (a bot is not asked about it)."""
        return self.legal[0] if len(self.legal) == 1 else None

    def default(self) -> Action:
        """The table's default action for the seat (托管): always legal."""
        return self.table.default_action(self.seat)

    def expired(self) -> Action | None:
        """What a person's prompt plays when its clock runs out: ``pass`` (过) in a window
        (a missed claim is no reason for 托管); ``None`` on a turn, where the default action
        is played and the person goes on 托管."""
        game = self.table.game
        if game is None or game.phase == Phase.TURN:
            return None
        return next((a for a in self.legal if a.type == ActionType.PASS), None)


def asked(table: Table, seat: int) -> Decision:
    """The decision ``seat`` has now (its legal actions may be none)."""
    return Decision(table, seat, table.person_at(seat), tuple(table.legal_actions(seat)))


def decisions(table: Table) -> Iterator[Decision]:
    """The decisions of the hand in progress, to its end: each must be answered
    (``table.act``) before the next is asked for. Forced passes are played here and not
    yielded. A hand that stops with no seat able to act (a rules bug) raises
    :class:`RuntimeError` rather than looping for ever."""
    game = table.game
    if game is None or game.over:
        return
    # Nobody joins, leaves or changes seats during a hand.
    people = [table.person_at(s) for s in range(game.n)]
    # The hand's own legal actions (an immutable tuple; table.legal_actions without its
    # between-hands checks, which cannot apply inside a hand).
    legal_actions, act = game.legal_actions, table.act
    while not game.over:
        acted = False
        for seat in game.to_act():
            legal = legal_actions(seat)
            if not legal:
                continue
            if pass_only(legal):
                act(legal[0])
            else:
                yield Decision(table, seat, people[seat], legal)
            acted = True
            if game.over:
                break
        if not acted and not game.over:
            raise RuntimeError(f"{table.variant.id} hand {table.number - 1}: seats "
                               f"{game.to_act()} must act in phase {game.phase} but none "
                               "has a legal action (a rules bug)")


Report = Callable[[Decision, Exception], None]
"""Told of a bot's failure (the decision, and what the bot raised or a :class:`BotError`)."""


def log_failure(decision: Decision, exc: Exception) -> None:
    """The report of a bot's failure outside the hall: a warning in the log."""
    log.warning("%s hand %d: seat %d (%s) failed (%s: %s); the default action is played",
                decision.table.variant.id, decision.table.number, decision.seat,
                decision.person, type(exc).__name__, exc)


def _wrong_win_stands(decision: Decision, answer: Action) -> bool:
    """A 错和 (``wrong_win``) is in no legal list: a program's answer of it (the Botzone
    bridge's wrong 胡) is played where the game's rules settle it (MCR profile=botzone)
    and the game would take it now; anywhere else it is an illegal answer."""
    game = decision.table.game
    return (answer.type == WRONG_WIN and answer.seat == decision.seat and game is not None
            and WRONG_WIN in game.action_types()
            and wrong_win_refusal(game, game.variant, answer) is None)


def resolve(decision: Decision, answer: Action | Exception | None,
            report: Report | None = None) -> Action:
    """The action played for ``answer``: a legal answer itself; no answer (``None``) the
    default action; an exception (the bot raised) or an illegal action is reported
    (``report``, else :func:`log_failure`) and the default action played."""
    if answer is None:
        return decision.default()
    if isinstance(answer, Action):
        if answer in decision.legal or _wrong_win_stands(decision, answer):
            return answer
        answer = BotError(f"the bot answered an illegal action {answer.to_json()}",
                          code=ErrorCode.ILLEGAL, seat=decision.seat)
    (report or log_failure)(decision, answer)
    return decision.default()
