"""Greedy's defence weight (``fold``): the profile's by default, a parameter to measure
against, and exactly a scale on the penalty."""

from __future__ import annotations

import typing
from collections.abc import Iterator

import pytest

from bot_helpers import greedy_decisions
from laizi.bots import BotSpecError, make_bot, parse_spec
from laizi.bots.base import View
from laizi.bots.greedy import GreedyBot
from laizi.bots.profiles import PROFILES
from laizi.bots.search import SearchBot
from laizi.engine.actions import Action
from laizi.engine.game import TURN


def _turns(variant: str, seeds: range) -> Iterator[tuple[View, list[Action]]]:
    """Every own-turn decision with a choice in greedy self-play."""
    for g, _s, view, legal in greedy_decisions(variant, seeds):
        if g.phase == TURN and len(legal) > 1:
            yield view, legal


@pytest.mark.parametrize("variant", ["jingzhou", "taiwan", "mcr"])
def test_fold_scales_the_defence_penalty(variant: str) -> None:
    """Half the weight is half of every discard's penalty; no weight ranks the actions
    exactly as no defence; the default is the profile's weight."""
    penalised = 0
    for view, legal in _turns(variant, range(3)):
        full, half, zero = GreedyBot(fold=1.0), GreedyBot(fold=0.5), GreedyBot(fold=0.0)
        full.rank(view, legal)
        half.rank(view, legal)
        assert half.last_risk == pytest.approx({a: r / 2 for a, r in full.last_risk.items()})
        penalised += any(r > 0 for r in full.last_risk.values())
        assert zero.rank(view, legal) == GreedyBot(defence=False).rank(view, legal)
        assert GreedyBot().rank(view, legal) == GreedyBot(
            fold=PROFILES[variant].fold).rank(view, legal)
    assert penalised > 10  # the hands met threats: the scale was tested on real penalties


def test_defence_weights_as_measured() -> None:
    """MCR folds not at all, the others at a quarter (docs/bots.md, "Defence"); the
    search keeps the full weight it was measured with unless told otherwise."""
    assert PROFILES["mcr"].fold == 0.0
    assert {v: p.fold for v, p in PROFILES.items() if v != "mcr"} == {
        v: 0.25 for v in PROFILES if v != "mcr"}
    assert SearchBot(budget_ms=0).greedy.fold == 1.0
    assert SearchBot(budget_ms=0, fold=None).greedy.fold is None


def test_fold_in_a_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """``greedy:fold=1`` (the weight before) and ``search:fold=none`` (the profile's),
    also where a compiled class has lost its annotations (docs/build.md)."""
    for lost in (False, True):
        if lost:
            monkeypatch.setattr(typing, "get_type_hints", lambda _obj: {})
        assert parse_spec("greedy:fold=1") == ("greedy", {"fold": 1})
        assert parse_spec("greedy:fold=0.5") == ("greedy", {"fold": 0.5})
        assert parse_spec("greedy:fold=none") == ("greedy", {"fold": None})
        assert parse_spec("greedy:defence=false") == ("greedy", {"defence": False})
        with pytest.raises(BotSpecError, match="parameter fold"):
            parse_spec("greedy:fold=much")
    monkeypatch.undo()  # the search is not compiled: its annotations stand
    bot = make_bot("greedy:fold=1")
    assert isinstance(bot, GreedyBot) and bot.fold == 1
    search = make_bot("search:budget_ms=0:fold=none")
    assert isinstance(search, SearchBot) and search.greedy.fold is None
