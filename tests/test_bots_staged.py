"""Staged sampling in the search bot (``search:stage=N:extend=Z``): it looks at its figures
after ``stage`` samples, then after twice as many each time, and samples on only while
the best rival's ``z`` is at least ``extend``."""

from __future__ import annotations

import math

from laizi.bots import make_bot
from laizi.bots.search import SearchBot
from test_bots import _searched_state


def test_the_looks_double_up_to_the_rollouts() -> None:
    assert SearchBot(0, rollouts=128, stage=16)._looks() == [16, 32, 64, 128]
    assert SearchBot(0, rollouts=100, stage=16)._looks() == [16, 32, 64, 100]
    assert SearchBot(0, rollouts=64)._looks() == [64]  # no stages: all at once
    assert SearchBot(0, rollouts=8, stage=16)._looks() == [8]
    bot = make_bot("search:stage=8:extend=0.5")
    assert isinstance(bot, SearchBot) and (bot.stage, bot.extend) == (8, 0.5)


def test_a_stage_that_never_extends_is_the_search_with_that_many_samples() -> None:
    view, legal = _searched_state()
    short = SearchBot(1, budget_ms=0, rollouts=8, window=1e9, procs=1)
    staged = SearchBot(1, budget_ms=0, rollouts=32, stage=8, extend=math.inf, window=1e9,
                       procs=1)
    assert staged.choose(view, legal) == short.choose(view, legal)
    assert staged.last_stats["rollouts"] == 8
    assert staged.last_stats["values"] == short.last_stats["values"]
    assert staged.last_stats["z"] == short.last_stats["z"]


def test_a_stage_that_always_extends_takes_every_sample() -> None:
    view, legal = _searched_state("taiwan")
    full = SearchBot(1, budget_ms=0, rollouts=24, window=1e9, procs=1)
    staged = SearchBot(1, budget_ms=0, rollouts=24, stage=4, extend=-math.inf,
                       window=1e9, procs=1)
    assert staged.choose(view, legal) == full.choose(view, legal)
    assert staged.last_stats["rollouts"] == 24
    assert staged.last_stats["values"] == full.last_stats["values"]
    assert len(set(full.last_stats["values"])) > 1  # the samples differ: a real check


def test_staged_samples_stop_where_the_rival_falls_behind() -> None:
    view, legal = _searched_state()
    staged = SearchBot(1, budget_ms=0, rollouts=64, stage=8, extend=1.0, window=1e9,
                       procs=1)
    first = staged.choose(view, legal)
    n = staged.last_stats["rollouts"]
    z = staged.last_stats["z"]
    assert n in (8, 16, 32, 64)
    assert n == 64 or z < 1.0  # it stopped early only on a rival behind by the rule
    again = SearchBot(1, budget_ms=0, rollouts=64, stage=8, extend=1.0, window=1e9,
                      procs=1)
    assert again.choose(view, legal) == first and again.last_stats["rollouts"] == n


def test_staged_samples_shared_with_helpers_are_one_process_s() -> None:
    view, legal = _searched_state()
    alone = SearchBot(1, budget_ms=0, rollouts=24, stage=6, extend=-math.inf, window=1e9,
                      procs=1)
    shared = SearchBot(1, budget_ms=0, rollouts=24, stage=6, extend=-math.inf, window=1e9,
                       procs=2)
    assert alone.choose(view, legal) == shared.choose(view, legal)
    assert shared.last_stats["procs"] == 2
    assert shared.last_stats["values"] == alone.last_stats["values"]


def test_a_rival_that_has_won_clearly_stops_the_samples() -> None:
    view, legal = _searched_state()
    # accept=-inf: every rival has "won", so the first look ends it.
    short = SearchBot(1, budget_ms=0, rollouts=8, window=1e9, procs=1)
    staged = SearchBot(1, budget_ms=0, rollouts=64, stage=8, extend=-math.inf,
                       accept=-math.inf, window=1e9, procs=1)
    assert staged.choose(view, legal) == short.choose(view, legal)
    assert staged.last_stats["rollouts"] == 8
    assert staged.last_stats["values"] == short.last_stats["values"]
    bot = make_bot("search:accept=2.5")  # not the 高手 level's own 3: the spec sets it
    assert isinstance(bot, SearchBot) and bot.accept == 2.5


def test_staged_samples_stop_only_by_the_rules() -> None:
    view, legal = _searched_state()
    for accept in (0.0, 1.0, 3.0):
        bot = SearchBot(1, budget_ms=0, rollouts=64, stage=8, extend=-1.0, accept=accept,
                        window=1e9, procs=1)
        bot.choose(view, legal)
        n, z = bot.last_stats["rollouts"], bot.last_stats["z"]
        assert n in (8, 16, 32, 64)
        assert n == 64 or z >= accept or z < -1.0
        # the same samples as the search that took n at once
        fixed = SearchBot(1, budget_ms=0, rollouts=n, window=1e9, procs=1)
        fixed.choose(view, legal)
        assert fixed.last_stats["values"] == bot.last_stats["values"]
