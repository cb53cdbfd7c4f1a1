"""The typed log entries: every line a table writes and every event a hand writes reads
back into its class and writes out byte for byte the same, in every variant, the forms a
person is shown included; malformed entries are refused with a LogError."""

from __future__ import annotations

import random
from typing import Any

import pytest

from laizi.core.melds import Meld
from laizi.engine import Action
from laizi.engine.events import (
    ActionEvent,
    ClaimEvent,
    FlowerEvent,
    GameEvent,
    RevealedEvent,
    StartEvent,
    game_event_from_json,
)
from laizi.engine.log import redact, replay
from laizi.errors import LogError
from laizi.table.driver import Decision, play
from laizi.table.events import (
    CloseEntry,
    HandEndEntry,
    TableEvent,
    canonical,
    stream_event_from_json,
    table_event_from_json,
)
from laizi.table.table import Table
from laizi.vocab import GameEventType, TableEventType

VARIANTS = ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"]


class Claimer:
    """Seeded: wins when it can, often claims (so claims and kongs are logged)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def decide(self, decision: Decision) -> Action | None:
        legal = decision.legal
        wins = [a for a in legal if a.type == "win"]
        if wins:
            return wins[0]
        claims = [a for a in legal if a.type in ("pung", "kong", "chow", "concealed_kong",
                                                 "added_kong", "special_kong", "declare")]
        if claims and self.rng.random() < 0.7:
            return self.rng.choice(claims)
        return self.rng.choice(legal)


def _played(variant: str, seed: int) -> tuple[Table, list[list[dict[str, Any]]]]:
    """A secret table of ``variant`` with people coming and going, horse bets and
    entropy, three hands played and closed; with every hand's own log."""
    people = [f"p{i}" for i in range(6)] if variant == "huanghuang" else None
    table = Table(variant, None, people)
    table.add_entropy(table.people[0], "ab" * 16)
    if variant == "huanghuang":
        table.buy_horse("p5", False)
    hand_logs: list[list[dict[str, Any]]] = []
    controllers: dict[str, Claimer] = {}

    def controller(person: str) -> Claimer:
        return controllers.setdefault(person, Claimer(seed * 100 + len(controllers)))

    def after(t: Table) -> None:
        assert t.game is not None
        hand_logs.append(list(t.game.log))
        if variant == "huanghuang" and len(hand_logs) == 1:
            t.leave(t.waiting[-1])
            t.join("newcomer")

    play(table, controller, hands=3, after_hand=after)
    table.start_hand()  # a hand abandoned by the close
    table.close()
    return table, hand_logs


@pytest.fixture(scope="module", params=VARIANTS)
def played(request: pytest.FixtureRequest) -> tuple[Table, list[list[dict[str, Any]]]]:
    return _played(request.param, 5)


def _round_trip_table(entry: dict[str, Any]) -> TableEvent:
    line = table_event_from_json(entry)
    assert canonical(line.to_json()) == canonical(entry)
    assert table_event_from_json(line.to_json()) == line
    assert entry["type"] == line.TAG
    return line


def _round_trip_game(event: dict[str, Any]) -> GameEvent:
    typed = game_event_from_json(event)
    assert canonical(typed.to_json()) == canonical(event)
    assert game_event_from_json(typed.to_json()) == typed
    assert event["type"] == typed.TAG
    return typed


def test_every_table_line_round_trips(played: tuple[Table, list[Any]]) -> None:
    table, _ = played
    tags = {_round_trip_table(e).TAG for e in table.log}
    expected = {TableEventType.TABLE, TableEventType.ENTROPY, TableEventType.HAND,
                TableEventType.ACTION, TableEventType.HAND_END, TableEventType.CLOSE}
    if table.variant.id == "huanghuang":
        expected |= {TableEventType.HORSE, TableEventType.JOIN, TableEventType.LEAVE}
    assert tags == expected
    closing = table_event_from_json(table.log[-1])
    assert isinstance(closing, CloseEntry) and closing.abandoned == 3
    assert closing.secret is not None


def test_every_hand_event_round_trips_with_its_redactions(played: tuple[Table, list[Any]]
                                                          ) -> None:
    table, hand_logs = played
    tags: set[str] = set()
    for log in hand_logs:
        for event in log:
            tags.add(_round_trip_game(event).TAG)
            for seat in range(table.variant.seats):
                shown = redact(event, seat)
                if shown is not None:
                    _round_trip_game(shown)
        # The typed events rebuild the same hand.
        again = replay([game_event_from_json(e).to_json() for e in log])
        assert canonical({"log": again.log}) == canonical({"log": log})
    assert {GameEventType.START, GameEventType.DEAL, GameEventType.DRAW,
            GameEventType.ACTION, GameEventType.END} <= tags
    if table.variant.id == "jingzhou":
        assert GameEventType.INDICATOR in tags
    if table.variant.id == "taiwan":
        assert GameEventType.FLOWER in tags


def test_every_stream_event_round_trips(played: tuple[Table, list[Any]]) -> None:
    table, _ = played
    for person in (None, *table.people):
        for event in table.events(person):
            plain = {k: v for k, v in event.items() if k != "v"}
            typed = stream_event_from_json(plain)
            assert canonical(typed.to_json()) == canonical(plain)
    public = [e for e in table.events(None) if e["type"] == TableEventType.HAND_END]
    assert public and all("wall" not in e for e in public)
    line = table_event_from_json(next(e for e in table.log if e["type"] == "hand_end"))
    assert isinstance(line, HandEndEntry) and line.wall is not None
    assert "wall" not in line.public()


def test_rare_events_round_trip() -> None:
    events: list[GameEvent] = [
        RevealedEvent([Action("declare", 1), Action("declare", 3)]),
        FlowerEvent(2, 40, source=1),
        ClaimEvent(1, Meld("chow", (3, 4, 5), 0, 4)),
        ActionEvent(Action("pass", 2), answer=True),
        StartEvent(3, "taiwan", {}, 1, [0, 0, 0, 0], None, [1, 2], True, False, {"x": 1}),
    ]
    for e in events:
        assert game_event_from_json(e.to_json()) == e


@pytest.mark.parametrize("bad", [
    [], {"type": "nope"}, {"type": ["draw"]}, {"type": "draw", "seat": 0, "tile": 3},
    {"type": "draw", "seat": "0", "tile": 3, "replacement": False},
    {"type": "action", "action": {"type": "discard"}},
    {"type": "claim", "seat": 1, "meld": []},
])
def test_malformed_hand_events_are_refused(bad: object) -> None:
    with pytest.raises(LogError):
        game_event_from_json(bad)


@pytest.mark.parametrize("bad", [
    "join", {"type": "start"}, {"type": "join"}, {"type": "join", "person": 3},
    {"type": "horse", "person": "a", "buy": 1}, {"type": "hand_end", "number": 0},
    {"type": "close", "abandoned": "1"},
])
def test_malformed_table_lines_are_refused(bad: object) -> None:
    with pytest.raises(LogError):
        table_event_from_json(bad)
