"""One hand played by bots: the unit of work of the simulator and the arena.

A task's hand is the first hand of its own table in the public seed mode,
``Table(variant, options, seed=task.seed, dealer=task.dealer, streams=task.streams)``
(:func:`hand_table`), played by the one driver loop (:func:`laizi.table.driver.play_hand`)
with a :class:`~laizi.table.driver.BotController` per seat. So every hand is a pure
function of its task (for deterministic bots), whichever process plays it, and anyone can
deal it again with that one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from laizi.bots.registry import make_bot
from laizi.core.jsondata import JSON
from laizi.reasons import Reason
from laizi.sim.results import BridgeHand, HandResult
from laizi.table.driver import BotController, Decision
from laizi.table.driver import play_hand as drive_hand
from laizi.table.table import Table
from laizi.variants import get as get_variant
from laizi.vocab import GameEventType, TableEventType

if TYPE_CHECKING:
    from laizi.bots.base import Bot
    from laizi.engine.actions import Action

__all__ = ["HandTask", "hand_items", "hand_table", "play_hand"]

@dataclass(frozen=True, slots=True)
class HandTask:
    """Everything a hand depends on: the result is a pure function of the task (for
    deterministic bots). ``bots[s]`` is the spec of the bot in seat ``s``."""

    variant: str
    seed: int
    bots: tuple[str, ...]
    options: tuple[tuple[str, object], ...] = ()
    dealer: int = 0
    rotation: int = 0
    """Arena bookkeeping: which rotation of the bot list this is."""
    streams: bool = False
    """Deal with per-seat draw streams (``Table(..., streams=True)``, 分墙)."""


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the hand dealt from ``seed``."""
    return (seed * 7919 + seat * 104_729 + 1) & 0x7FFF_FFFF


def hand_items(payments: list[JSON]) -> list[str]:
    """The hand types / fan / 台 items named in a settlement's reasons (the payments'
    JSON form), as Chinese terms, each once in order of appearance: e.g. ``["七对",
    "点炮"]`` from the reasons ``hand {name: 七对}`` and ``win_bonus {how: discard}``.
    Read from each reason's code and parameters (:meth:`Reason.items`); bases, totals
    and formulas name no item."""
    seen: dict[str, None] = {}
    for p in payments:
        for data in p.get("reasons", ()):
            for item in Reason.from_json(data).items():
                seen.setdefault(item, None)
    return list(seen)


class CountingBot(BotController):
    """A :class:`~laizi.table.driver.BotController` that counts its ``choices``: the
    decisions with more than one legal action, those the bot chose (the driver plays a
    lone legal action without asking, ``forced_shortcut``)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot)
        self.choices = 0

    def decide(self, decision: Decision) -> Action | None:
        if len(decision.legal) > 1:
            self.choices += 1
        return super().decide(decision)


def hand_table(task: HandTask) -> Table:
    """The table whose first hand is the task's hand (not yet dealt): the public seed
    mode, so the deal is a pure function of ``(variant, options, seed)``: the rotations
    of one arena seed all get the same deal."""
    v = get_variant(task.variant)
    if len(task.bots) != v.seats:
        raise ValueError(f"{task.variant} has {v.seats} seats; {len(task.bots)} bots given")
    return Table(v, dict(task.options) if task.options else None, seed=task.seed,
                 dealer=task.dealer, streams=task.streams)


def play_hand(task: HandTask) -> HandResult:
    """Play one hand; the result is plain JSON data:

    ``seed``, ``rotation``, ``bots`` (per seat), ``net`` (per seat: the person's result at
    the table, 晃晃's 买马 included), ``outcome``, ``winners``, ``how``, ``source``,
    ``items`` (hand types from the settlement), ``actions`` (applied actions, passes
    included), ``turns`` (ordinary draws), ``decisions`` (per seat: the questions the
    seat answered, every claim window's pass included, so ``sum(decisions) ==
    actions``), ``choices`` (per seat: the decisions with more than one legal action,
    those a bot actually chose), and for a seat played by an outside program (the Botzone
    bridge) ``bridge``: its requests, protocol errors, fallbacks and latencies (else
    ``None`` for the seat; the key only when some seat has one)."""
    table = hand_table(task)
    seats = [CountingBot(make_bot(spec, bot_seed(task.seed, s)))
             for s, spec in enumerate(task.bots)]
    people = table.seats  # seat order of the hand (booking may reseat 晃晃 people)
    table.start_hand()
    try:
        drive_hand(table, seats)
    finally:
        for c in seats:  # an outside program (the Botzone bridge) stops with its hand
            close = getattr(c.bot, "close", None)
            if close is not None:
                close()
    game = table.game
    assert game is not None and game.over
    end = game.log[-1]  # the engine's end event: the hand's own settlement
    booked = table.log[-1]  # the table's hand_end: the people's results
    record = end["record"]
    turns = sum(1 for e in game.log if e["type"] == GameEventType.DRAW and not e.get("replacement"))
    decisions = [0] * len(seats)
    for e in table.log:  # the table's first and only hand
        if e["type"] == TableEventType.ACTION:
            decisions[e["action"]["seat"]] += 1
    out: HandResult = {
        "seed": task.seed,
        "rotation": task.rotation,
        "bots": list(task.bots),
        "net": [booked["net"][p] for p in people],
        "outcome": record["outcome"],
        "winners": list(record.get("winners", [])),
        "how": record.get("how"),
        "source": record.get("from"),
        "items": hand_items(end["payments"]),
        "actions": sum(decisions),
        "turns": turns,
        "decisions": decisions,
        "choices": [s.choices for s in seats],
    }
    bridge = [_bridge_stats(c.bot) for c in seats]
    if any(b is not None for b in bridge):
        out["bridge"] = bridge
    return out


def _bridge_stats(bot: object) -> BridgeHand | None:
    stats = getattr(bot, "stats", None)
    return cast("BridgeHand", stats()) if stats is not None else None
