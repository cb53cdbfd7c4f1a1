"""One hand played by bots: the unit of work of the simulator and the arena."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from laizi.bots.registry import make_bot
from laizi.engine import Game
from laizi.variants import get as get_variant

__all__ = ["HandTask", "hand_items", "play_hand"]

_CJK = re.compile(r"[\u3400-\u9fff]+")
_NOT_ITEMS = frozenset({"底分"})


@dataclass(frozen=True, slots=True)
class HandTask:
    """Everything a hand depends on: the result is a pure function of the task (for
    deterministic bots). ``bots[s]`` is the spec of the bot in seat ``s``."""

    variant: str
    seed: int
    bots: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    dealer: int = 0
    rotation: int = 0
    """Arena bookkeeping: which rotation of the bot list this is."""
    streams: bool = False
    """Deal with per-seat draw streams (``Game(..., streams=True)``, 分墙)."""


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the hand dealt from ``seed``."""
    return (seed * 7919 + seat * 104_729 + 1) & 0x7FFF_FFFF


def hand_items(payments: list[dict[str, Any]]) -> list[str]:
    """The hand types / fan / 台 items named in a settlement's reasons (Chinese terms),
    each once: e.g. ``["七对", "点炮"]`` from ``["七对 10", "点炮 +10", ...]``."""
    seen: dict[str, None] = {}
    for p in payments:
        for reason in p.get("reasons", ()):
            for word in _CJK.findall(str(reason)):
                if word not in _NOT_ITEMS:
                    seen.setdefault(word, None)
    return list(seen)


def play_hand(task: HandTask) -> dict[str, Any]:
    """Play one hand; the result is plain JSON data:

    ``seed``, ``rotation``, ``bots`` (per seat), ``net`` (per seat), ``outcome``,
    ``winners``, ``how``, ``source``, ``items`` (hand types from the settlement),
    ``actions`` (applied actions, passes included), ``turns`` (draws), ``decisions``
    (per seat: actions chosen)."""
    v = get_variant(task.variant)
    options = v.options_from_json(dict(task.options)) if task.options else None
    n = v.seats
    if len(task.bots) != n:
        raise ValueError(f"{task.variant} has {n} seats; {len(task.bots)} bots given")
    bots = [make_bot(spec, bot_seed(task.seed, s)) for s, spec in enumerate(task.bots)]
    game = Game(v, options, seed=task.seed, dealer=task.dealer, streams=task.streams)
    actions = 0
    decisions = [0] * n
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if not legal:
            raise RuntimeError(f"{task.variant} seed {task.seed}: seat {seat} must act in "
                               f"phase {game.phase} but has no legal action (a rules bug)")
        action = bots[seat].choose(game.view(seat), legal)
        game.apply(action)
        actions += 1
        decisions[seat] += 1
    end = game.log[-1]
    record = end["record"]
    turns = sum(1 for e in game.log if e["type"] == "draw" and not e.get("replacement"))
    return {
        "seed": task.seed,
        "rotation": task.rotation,
        "bots": list(task.bots),
        "net": list(end["net"]),
        "outcome": record["outcome"],
        "winners": list(record.get("winners", [])),
        "how": record.get("how"),
        "source": record.get("from"),
        "items": hand_items(end["payments"]),
        "actions": actions,
        "turns": turns,
        "decisions": decisions,
    }
