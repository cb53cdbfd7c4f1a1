"""The Taiwan settlement remembers the calculator's answers (``taiwan_records._scored``):
held here to the calculator itself over the wins greedy play poses — each ready hand's
waits, on a discard from every other seat and by self-draw, as the 听牌 hints ask them."""

from __future__ import annotations

from laizi import tiles as T
from laizi.core.records import DISCARD_WIN, SELF_DRAW, HandRecord
from laizi.engine import Game
from laizi.scoring.taiwan import score_hand
from laizi.sim.decisions import greedy_decisions
from laizi.variants import get
from laizi.variants import taiwan_records as R
from laizi.vocab import Phase, TurnStart


def _posed(g: Game, seat: int, t: int, how: str, source: int | None) -> HandRecord | None:
    """The record of ``seat`` winning on ``t`` now (``None`` if the engine refuses it)."""
    c = g.copy()
    assert isinstance(c, Game)
    c.passed_win[seat] = False
    if how == SELF_DRAW:
        c.hands[seat][t] += 1
        c.sizes[seat] += 1
        c.turn, c.phase, c.turn_kind = seat, Phase.TURN, TurnStart.DRAWN
    else:
        assert source is not None
        c.turn, c.phase, c.turn_kind = source, Phase.CLAIM, TurnStart.DRAWN
        c.discards[source].append(t)
    c.last_tile, c.after_kong = t, False
    if c.variant.win_refusal(c, seat, t, how) is not None:
        return None
    if how != SELF_DRAW:
        assert source is not None
        c.discards[source].pop()
        c.taken.append(t)
    return c.make_record([seat], how, source, t)


def test_remembered_scores_equal_the_calculator() -> None:
    """Every posed win's remembered 台 equals the calculator's fresh answer, and the
    discard wins of one wait (one for each seat that could discard it) are mostly
    answered from memory."""
    v = get("taiwan")
    R._SCORED.clear()
    posed = remembered = 0
    for seed in range(10):
        for g, s in greedy_decisions("taiwan", seed):
            if sum(g.hands[s]) % 3 != 1:
                continue
            for t in range(T.NUM_KINDS):
                for how, source in ((SELF_DRAW, None), *((DISCARD_WIN, (s + k) % g.n)
                                                         for k in range(1, g.n))):
                    record = _posed(g, s, t, how, source)
                    if record is None:
                        continue
                    key = (R._hand(record, s, t), R.win_context(record), record.options)
                    remembered += key in R._SCORED
                    got = R.result_of(record)
                    assert got == score_hand(*key), (seed, g.concealed(s), t, how, source)
                    assert R.settle(record) == v.settle(record)
                    posed += 1
    assert posed > 60 and remembered > posed // 3, (posed, remembered)
