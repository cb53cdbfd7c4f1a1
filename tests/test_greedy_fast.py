"""The greedy bot's fast paths against their references: one-pass 有效牌
(``HandContext.improvers``) against ``improvers_reference`` (tile by tile through
``best_shanten``), the discards' shanten put in the cache (``prime_discards``) against
``shanten`` itself, and the neighbourhood mask against the set it replaced — at every
decision of greedy hands in every variant, and on random hands."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laizi.analysis import shanten
from laizi.bots import greedy as G
from laizi.bots.near import near_mask, near_set
from laizi.bots.profiles import PROFILES
from laizi.sim.decisions import greedy_decisions

VARIANTS = ["jingzhou", "huanghuang", "golden", "taiwan", "mcr"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_fast_paths_agree_at_greedy_decisions(variant: str) -> None:
    checked = 0
    for seed in range(2):
        for g, seat in greedy_decisions(variant, seed):
            ctx = G.HandContext(g.view(seat), probe=False)
            counts, wilds = ctx.counts, ctx.wilds
            held = [t for t in range(34) if counts[t] and t != ctx.wild]
            if (sum(counts) + wilds) % 3 != 2:
                continue  # a claim decision: a 3n+1 hand
            G.prime_discards(counts, wilds, ctx.rules, held)
            for t in held:
                counts[t] -= 1
                expected = min(shanten(counts, wilds, r) for r in ctx.rules)
                assert G.best_shanten(counts, wilds, ctx.rules) == expected
                s = ctx.sh(counts, wilds)
                assert ctx.improvers(counts, wilds, s) == ctx.improvers_reference(
                    counts, wilds, s)
                counts[t] += 1
                checked += 1
    assert checked > 20


RULE_SETS = sorted({id(r): r for p in PROFILES.values()
                    for r in (p.rules_open, p.rules_closed + p.rules_open)}.values(),
                   key=repr)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=34, max_size=34),
       st.integers(0, len(RULE_SETS) - 1))
def test_near_mask_is_the_near_set(counts: list[int], which: int) -> None:
    rules = RULE_SETS[which]
    near = near_set(counts, rules)
    mask = near_mask(counts, rules)
    assert {t for t in range(34) if mask >> t & 1} == near
