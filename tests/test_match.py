"""Matches: the running ledger, dealer rotation and per-hand seeds."""

from __future__ import annotations

from laizi.bots.simple import SimpleBot
from laizi.engine import Game
from laizi.table.match import Match


def test_ledger_and_dealer_rotation() -> None:
    m = Match("jingzhou", seed=100)
    bots = [SimpleBot() for _ in range(3)]
    for k in range(6):
        dealer = m.dealer
        r = m.play_hand(bots)
        assert r.number == k and r.seed == 100 + k and r.dealer == dealer
        assert sum(r.net) == 0
        expected = r.record.winners[0] if r.record.outcome == "win" else dealer
        assert m.dealer == expected
    assert sum(m.ledger) == 0
    assert m.ledger == [sum(h.net[s] for h in m.hands) for s in range(3)]
    data = m.to_json()
    assert data["ledger"] == m.ledger and len(data["hands"]) == 6


def test_a_match_hand_replays_alone_from_its_seed() -> None:
    m = Match("jingzhou", seed=7, dealer=1)
    bots = [SimpleBot() for _ in range(3)]
    m.play_hand(bots)
    r = m.play_hand(bots)
    g = Game("jingzhou", seed=r.seed, dealer=r.dealer, scores=m.hands[0].net)
    while not g.over:
        for s in g.to_act():
            g.apply(bots[s].choose(g.view(s), g.legal_actions(s)))
    assert g.record == r.record
