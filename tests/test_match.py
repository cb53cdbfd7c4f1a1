"""Sessions at the one table: the running ledger, dealer rotation, a hand's replay."""

from __future__ import annotations

from laizi.bots.simple import SimpleBot
from laizi.core.records import record_to_json
from laizi.engine import Action, Game
from laizi.table.driver import BotController, play
from laizi.table.table import Entry, Table


def _hand_ends(table: Table) -> list[Entry]:
    return [e for e in table.log if e["type"] == "hand_end"]


def test_ledger_and_dealer_rotation() -> None:
    t = Table("jingzhou", people=["a", "b", "c"], seed=100)
    bots = [BotController(SimpleBot()) for _ in range(3)]
    dealers = []
    for _ in range(6):
        dealers.append(t.dealer)
        play(t, bots, hands=1)
    ends = _hand_ends(t)
    hands = [e for e in t.log if e["type"] == "hand"]
    assert [h["number"] for h in hands] == list(range(6))
    assert [h["dealer"] for h in hands] == dealers
    for hand, end in zip(hands, ends, strict=True):
        assert sum(end["net"].values()) == 0
        record = end["record"]
        expected = record["winners"][0] if record["outcome"] == "win" else hand["dealer"]
        assert end["dealer"] == expected  # the winner deals next; after a draw, the dealer
    assert sum(t.ledger.values()) == 0
    assert t.ledger == {p: sum(e["net"][p] for e in ends) for p in "abc"}
    assert t.table_view()["ledger"] == t.ledger and t.number == 6


def test_a_hand_of_the_table_replays_alone_from_its_wall_and_actions() -> None:
    t = Table("jingzhou", people=["a", "b", "c"], seed=7, dealer=1)
    bots = [BotController(SimpleBot()) for _ in range(3)]
    play(t, bots, hands=2)
    start = max(i for i, e in enumerate(t.log) if e["type"] == "hand")
    hand, end = t.log[start], t.log[-1]
    g = Game("jingzhou", seed=None, dealer=hand["dealer"], scores=hand["scores"], wall=end["wall"])
    for e in t.log[start + 1:-1]:
        assert e["type"] == "action"
        g.apply(Action.from_json(e["action"]))
    assert g.over and g.record is not None
    assert record_to_json(g.record, t.variant) == end["record"]
    assert hand["scores"] == [sum(x["net"][p] for x in _hand_ends(t)[:1]) for p in "abc"]
