"""The records the 听牌 hints pose with the other seats' parts made once
(``make_record(..., known)``) equal the records made from scratch, over dealt hands of
every variant."""

from __future__ import annotations

import pytest

from laizi.core.records import DISCARD_WIN, SELF_DRAW
from laizi.engine.hints import blind_copy
from laizi.engine.seen import unseen_counts
from laizi.sim.decisions import greedy_decisions
from laizi.variants import BUILTIN


@pytest.mark.parametrize("variant", list(BUILTIN))
def test_records_with_known_seats_equal_the_plain_ones(variant: str) -> None:
    checked = 0
    for seed in range(2):
        for i, (g, s) in enumerate(greedy_decisions(variant, seed)):
            if i % 7:
                continue
            probe = blind_copy(g, s, unseen_counts(g.view(s)))
            known = {k: r for k, r in enumerate(probe.make_record([], None, None, None).seats)
                     if k != s}
            assert len(known) == probe.n - 1
            held = [t for t, k in enumerate(probe.hands[s]) if k]
            for t in held[:3]:
                assert probe.make_record([s], SELF_DRAW, None, t, known) == \
                    probe.make_record([s], SELF_DRAW, None, t)
                source = (s + 1) % probe.n
                assert probe.make_record([s], DISCARD_WIN, source, t, known) == \
                    probe.make_record([s], DISCARD_WIN, source, t)
                checked += 1
    assert checked >= 10
