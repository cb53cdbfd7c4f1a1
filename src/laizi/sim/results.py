"""The simulator's data, typed: one hand's result (:func:`laizi.sim.hands.play_hand`) and
the summary of many (:func:`laizi.sim.stats.summarise`), as the ``--json`` output and
the arena write them. Plain dicts at run time, so the JSON (and its key order) is what
the code that builds them writes."""

from __future__ import annotations

from typing import NotRequired, Required, TypedDict

__all__ = ["BotStats", "BridgeHand", "BridgeStats", "HandResult", "ItemStats", "SeatStats",
           "Summary"]


class BridgeHand(TypedDict):
    """One hand of an outside program at a seat (:meth:`laizi.bots.botzone.BotzoneBot.stats`)."""

    requests: int
    errors: dict[str, int]
    """Protocol errors by kind: unparsable, illegal, timeout, crash, marker."""
    fallbacks: int
    """Decisions for which the table played its default action instead."""
    latency_ms: list[float]


class BridgeStats(TypedDict):
    """An outside program's protocol record over the hands (per bot spec)."""

    bot: str
    hands: int
    requests: int
    errors: int
    error_kinds: dict[str, int]
    fallbacks: int
    median_ms: float
    p99_ms: float


class HandResult(TypedDict):
    """One simulated hand (see :func:`laizi.sim.hands.play_hand` for each field)."""

    seed: int
    rotation: int
    bots: list[str]
    net: list[int]
    outcome: str
    """``records.WIN``, ``records.DRAW`` (黄庄) or ``records.WRONG_WIN`` (错和, ``source``
    its caller)."""
    winners: list[int]
    how: str | None
    """A :class:`laizi.vocab.WinHow`, ``None`` for a drawn hand."""
    source: int | None
    items: list[str]
    actions: int
    turns: int
    decisions: list[int]
    choices: list[int]
    bridge: NotRequired[list[BridgeHand | None]]
    """Per seat, an outside program's record of the hand (``None`` for laizi's bots)."""


class SeatStats(TypedDict):
    """One seat's results over the hands."""

    seat: int
    mean: float
    sd: float
    ci95: float
    win_rate: float
    deal_in_rate: float


class BotStats(TypedDict):
    """One bot's results over the hands (intervals over the seeds' groups)."""

    bot: str
    hands: int
    groups: int
    mean: float
    sd: float
    ci95: float
    win_rate: float
    deal_in_rate: float


class ItemStats(TypedDict):
    """How often a hand type / fan / 台 item came with a win."""

    count: int
    per_win: float


class Summary(TypedDict, total=False):
    """The summary of many hands: only ``hands`` when there are none; ``mean_choices``
    when every result counts its choices; ``variant`` and ``bots`` from the simulator and
    the arena, ``seeds`` and ``streams`` from the arena; ``bridge`` when an outside
program (the Botzone bridge) played."""

    hands: Required[int]
    seats: int
    win_rate: float
    draw_rate: float
    wrong_win_rate: float
    """Hands a 错和 ended (MCR profile=botzone); only when there were some."""
    how: dict[str, float]
    per_seat: list[SeatStats]
    per_bot: list[BotStats]
    items: dict[str, ItemStats]
    mean_actions: float
    mean_turns: float
    mean_choices: float
    variant: str
    bots: list[str]
    seeds: int
    streams: bool
    bridge: list[BridgeStats]
