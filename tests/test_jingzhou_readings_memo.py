"""荆州 ``readings`` remembers its answers (``jingzhou_rules._READINGS``): held here to
the readings worked out afresh over the wins greedy play poses (every tile that would
complete a seat's hand, by self-draw, after a kong and on a discard)."""

from __future__ import annotations

from laizi import tiles as T
from laizi.core.records import DISCARD_WIN, SELF_DRAW
from laizi.sim.decisions import greedy_decisions
from laizi.variants import jingzhou_rules as J


def test_remembered_readings_equal_fresh_ones() -> None:
    J._READINGS.clear()
    asked = wins = 0
    for seed in range(3):
        for g, s in greedy_decisions("jingzhou", seed):
            hand = list(g.hands[s][:T.NUM_KINDS])
            if sum(hand) % 3 != 1:
                continue
            for t in range(T.NUM_KINDS):
                hand[t] += 1
                for how, after_kong in ((SELF_DRAW, False), (SELF_DRAW, True),
                                        (DISCARD_WIN, False)):
                    fresh = J._readings(hand, g.melds[s], g.wildcard, how, after_kong)
                    for _ in range(2):  # worked out, then remembered
                        got = J.readings(hand, g.melds[s], g.wildcard, how, after_kong)
                        assert got == fresh, (g.concealed(s), t, how, after_kong)
                        got[0].clear()  # the caller's own list: the memory keeps its own
                    asked += 1
                    wins += bool(fresh[0])
                hand[t] -= 1
    assert asked > 1000 and wins > 20, (asked, wins)
