"""One driver's rules for every table (:mod:`laizi.table.decisions`), seen from the
synchronous driver (the terminal, the simulator, the environments) and from the hall's
room runner: a forced pass is played without a prompt, no answer is the table's default
action, and a bot that raises or answers an illegal action is a reported error with the
default action played — never a silent substitute."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pytest

from laizi.engine.actions import Action
from laizi.errors import ErrorCode
from laizi.table.decisions import BotError, Decision, decisions, pass_only, resolve
from laizi.table.driver import BotController, play_hand
from laizi.table.table import Table
from laizi.vocab import ActionType, Phase, TableEventType
from test_room_parts import make_room, run, until

Failure = tuple[Decision, Exception]


def _other_seat(seat: int, n: int, legal: Sequence[Action]) -> Action:
    # Another seat's action: never legal for this seat.
    return dataclasses.replace(legal[0], seat=(seat + 1) % n)


def _raise(seat: int, n: int, legal: Sequence[Action]) -> Action:
    raise RuntimeError("a bot's bug")


class FailingBot:
    """A bot that answers as ``how`` says (an illegal action, or a raise)."""

    name = "failing"

    def __init__(self, seat: int, n: int, how: Any) -> None:
        self.seat, self.n, self.how = seat, n, how
        self.calls = 0

    def choose(self, view: Any, legal_actions: Sequence[Action]) -> Action:
        self.calls += 1
        answer: Action = self.how(self.seat, self.n, legal_actions)
        return answer


def _first_choice(table: Table) -> Decision:
    """The hand's first decision with more than one legal action (the dealer's turn)."""
    for d in decisions(table):
        if len(d.legal) > 1:
            return d
        table.act(d.legal[0])
    raise AssertionError("the hand ended without a choice")


def _check_failure(how: Any, seat: int, exc: Exception) -> None:
    if how is _other_seat:
        assert isinstance(exc, BotError)
        assert exc.seat == seat and exc.code == ErrorCode.ILLEGAL and "illegal" in exc.message
    else:
        assert isinstance(exc, RuntimeError) and str(exc) == "a bot's bug"


@pytest.mark.parametrize("how", [_other_seat, _raise])
def test_the_sync_driver_reports_a_failing_bot_and_plays_the_default(how: Any) -> None:
    table = Table("jingzhou", {}, seed=3)
    table.start_hand()
    d = _first_choice(table)
    failures: list[Failure] = []
    bot = FailingBot(d.seat, table.variant.seats, how)
    choice = BotController(bot, report=lambda d, e: failures.append((d, e))).decide(d)
    assert choice == d.default() == table.default_action(d.seat)
    assert bot.calls == 1
    ((told, exc),) = failures
    assert told is d
    _check_failure(how, d.seat, exc)


@pytest.mark.parametrize("how", [_other_seat, _raise])
def test_the_hall_reports_a_failing_bot_and_plays_the_default(how: Any) -> None:
    async def go() -> None:
        w = await make_room(lambda room, seat, legal: how(seat, len(room.table.seats), legal))
        room, t = w.room, w.room.table
        room.started = True
        t.start_hand()
        seat = next(s for s in t.to_act() if len(t.legal_actions(s)) > 1)
        assert await room._bot_choice(seat) == t.default_action(seat)
        ((code, where, bot, exc),) = w.reports.bots
        assert (code, where, bot) == ("424242", seat, t.person_at(seat))
        assert isinstance(exc, Exception)
        _check_failure(how, seat, exc)

    run(go)


@pytest.mark.parametrize("how", [_other_seat, _raise])
def test_a_hand_of_failing_bots_ends_with_every_failure_reported(how: Any) -> None:
    """Every bot fails at every choice for a whole hand in the sync driver: the hand
    ends, each failure was reported, and every action the table took was the default."""
    table = Table("jingzhou", {}, seed=11)
    n = table.variant.seats
    failures: list[Failure] = []
    bots = [FailingBot(s, n, how) for s in range(n)]
    defaults: list[Action] = []

    def report(d: Decision, e: Exception) -> None:
        failures.append((d, e))
        defaults.append(d.default())

    table.start_hand()
    play_hand(table, [BotController(b, report) for b in bots])
    assert table.game is not None and table.game.over
    assert sum(b.calls for b in bots) == len(failures) > 10
    played = [Action.from_json(e["action"]) for e in table.log
              if e["type"] == TableEventType.ACTION]
    assert all(a in played for a in defaults)


class Recorder:
    """A person's controller (no ``forced_shortcut``): records every question and
    answers with no answer (the table's default action)."""

    def __init__(self) -> None:
        self.asked: list[tuple[Action, ...]] = []

    def decide(self, decision: Decision) -> Action | None:
        self.asked.append(decision.legal)
        return None


def test_the_sync_driver_prompts_nobody_for_a_forced_pass() -> None:
    table = Table("jingzhou", {}, seed=5)
    n = table.variant.seats
    people = [Recorder() for _ in range(n)]
    table.start_hand()
    play_hand(table, people)
    asked = [legal for p in people for legal in p.asked]
    passes = [e for e in table.log if e["type"] == TableEventType.ACTION
              and e["action"]["type"] == ActionType.PASS]
    assert asked and not any(pass_only(legal) for legal in asked)
    # Forced passes were played (every window asks every seat), none of them prompted.
    assert len(passes) > sum(1 for legal in asked if any(a.type == ActionType.PASS
                                                          for a in legal))


def test_the_hall_prompts_nobody_for_a_forced_pass() -> None:
    """The host (a person with a clock) is prompted only for real choices; the server
    answers her forced passes."""
    async def go() -> None:
        w = await make_room(clock=20, hands=1, pause_empty=False)
        room = w.room
        assert (await room.handle(w.host, {"op": "start", "seq": 1}))["op"] == "ack"
        await until(lambda: room.table.in_hand)
        prompts: list[tuple[Action, ...]] = []
        while room.table.in_hand:
            await until(lambda: 0 in room._deadlines or not room.table.in_hand)
            if not room.table.in_hand:
                break
            prompts.append(tuple(room.table.legal_actions(0)))
            async with room.lock:
                await room._apply(room.table.default_action(0), None)
        ann_passes = sum(1 for e in room.table.log if e["type"] == TableEventType.ACTION
                         and e["action"]["seat"] == 0
                         and e["action"]["type"] == ActionType.PASS)
        assert prompts and not any(pass_only(legal) for legal in prompts)
        assert ann_passes > sum(1 for legal in prompts
                                if any(a.type == ActionType.PASS for a in legal))
        assert not w.reports.bots and not w.reports.errors
        await room.stop()

    run(go)


def test_resolve_is_the_one_rule() -> None:
    """No answer is the default action; a legal answer is played; an illegal one is
    reported as a :class:`BotError` and the default played."""
    table = Table("jingzhou", {}, seed=3)
    table.start_hand()
    d = _first_choice(table)
    other = next(a for a in d.legal if a != d.default())
    told: list[Failure] = []
    assert resolve(d, None) == d.default()
    assert resolve(d, other) == other
    wrong = dataclasses.replace(other, seat=(d.seat + 1) % table.variant.seats)
    assert resolve(d, wrong, lambda d, e: told.append((d, e))) == d.default()
    assert [type(e) for _, e in told] == [BotError]


def test_a_person_controllers_illegal_answer_is_reported_too() -> None:
    """The driver applies the rule to any controller's answer, not only a bot's."""
    table = Table("jingzhou", {}, seed=3)
    n = table.variant.seats

    class Wrong:
        def decide(self, decision: Decision) -> Action | None:
            return _other_seat(decision.seat, n, decision.legal)

    told: list[Failure] = []
    table.start_hand()
    play_hand(table, [Wrong()] * n, report=lambda d, e: told.append((d, e)))
    assert table.game is not None and table.game.over
    assert told and all(isinstance(e, BotError) for _, e in told)


def test_a_prompt_that_runs_out_passes_in_a_window_and_is_default_on_a_turn() -> None:
    """The hall's clock rule, defined with the decisions: a claim prompt that runs out
    is 过 (even with a win on offer); a turn that runs out is the default action (and
    托管, which the hall applies)."""
    table = Table("jingzhou", {}, seed=3)
    table.start_hand()
    seen_turn = seen_window = False
    for d in decisions(table):
        game = table.game
        assert game is not None
        if game.phase == Phase.TURN:
            assert d.expired() is None
            seen_turn = True
        else:
            passed = d.expired()
            assert passed is not None and passed.type == ActionType.PASS and passed in d.legal
            seen_window = True
        table.act(d.default())
    assert seen_turn and seen_window
