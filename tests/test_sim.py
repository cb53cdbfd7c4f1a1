"""Simulator: identical results in-process and over worker processes; statistics."""

from __future__ import annotations

import math
import statistics

import pytest

from laizi.sim.hands import HandTask, hand_items, play_hand
from laizi.sim.parallel import RayMissingError, run_tasks
from laizi.sim.simulate import simulate, simulate_tasks
from laizi.sim.stats import Z95, mean_ci, summarise


def test_workers_give_identical_results() -> None:
    s1, r1 = simulate("jingzhou", ["greedy", "random"], 6, seed=40, workers=1)
    s2, r2 = simulate("jingzhou", ["greedy", "random"], 6, seed=40, workers=2)
    assert r1 == r2
    assert s1 == s2
    assert [r["seed"] for r in r1] == list(range(40, 46))


def test_play_hand_is_a_pure_function_of_its_task() -> None:
    task = HandTask("jingzhou", 5, ("greedy", "random", "simple"))
    assert play_hand(task) == play_hand(task)


def test_hand_results_are_consistent() -> None:
    for r in run_tasks(simulate_tasks("jingzhou", ["random"], 6, seed=3)):
        assert sum(r["net"]) == 0
        assert r["actions"] == sum(r["decisions"])
        assert r["turns"] >= 1
        if r["outcome"] == "draw":
            assert r["winners"] == [] and r["items"] == []


def test_mean_ci_matches_the_statistics_module() -> None:
    xs = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0]
    m, sd, ci = mean_ci(xs)
    assert m == pytest.approx(statistics.fmean(xs))
    assert sd == pytest.approx(statistics.stdev(xs))
    assert ci == pytest.approx(Z95 * statistics.stdev(xs) / math.sqrt(len(xs)))
    assert mean_ci([]) == (0.0, 0.0, 0.0)
    assert math.isinf(mean_ci([2.0])[2])


def test_summary_counts() -> None:
    rows = [
        {"seed": 1, "bots": ["a", "b", "b"], "net": [30, -10, -20], "outcome": "win",
         "winners": [0], "how": "discard", "source": 2, "items": ["七对", "点炮"],
         "actions": 10, "turns": 5},
        {"seed": 2, "bots": ["a", "b", "b"], "net": [0, 0, 0], "outcome": "draw",
         "winners": [], "how": None, "source": None, "items": [], "actions": 20, "turns": 9},
    ]
    s = summarise(rows)
    assert s["hands"] == 2 and s["win_rate"] == 0.5 and s["draw_rate"] == 0.5
    assert s["items"]["七对"] == {"count": 1, "per_win": 1.0}
    bots = {b["bot"]: b for b in s["per_bot"]}
    assert bots["a"]["mean"] == 15.0 and bots["a"]["win_rate"] == 0.5
    # b's per-seed groups: seed 1 mean -15, seed 2 mean 0.
    assert bots["b"]["mean"] == -7.5 and bots["b"]["deal_in_rate"] == 0.25
    assert s["per_seat"][2]["deal_in_rate"] == 0.5
    assert s["mean_actions"] == 15 and s["mean_turns"] == 7


def test_hand_items_from_reasons() -> None:
    pays = [{"reasons": ["七对 10", "点炮 +10", "winner doublings: none"]},
            {"reasons": ["fan: 三色三步高 6 + 平和 2 = 8", "大刀 ×2 (门清、七对)", "底分 1"]}]
    assert hand_items(pays) == ["七对", "点炮", "三色三步高", "平和", "大刀", "门清"]


def test_ray_missing_is_a_clear_error() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        with pytest.raises(RayMissingError, match="laizi\\[cluster\\]"):
            run_tasks(simulate_tasks("jingzhou", ["random"], 2), ray=True)
    else:  # Ray installed: the results must equal the in-process ones
        tasks = simulate_tasks("jingzhou", ["random"], 4)
        assert run_tasks(tasks, ray=True) == run_tasks(tasks)


def test_a_ray_worker_keeps_search_to_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    # Ray already runs a worker per core; helpers on top would oversubscribe the cores.
    from laizi.bots.helpers import ENV, default_procs
    from laizi.sim.parallel import _ray_batch

    monkeypatch.setenv(ENV, "0")  # recorded, so the undo also removes what _ray_batch sets
    monkeypatch.delenv(ENV)
    tasks = simulate_tasks("jingzhou", ["random"], 1)
    assert _ray_batch(tasks) == run_tasks(tasks)
    assert default_procs() == 1
    monkeypatch.setenv(ENV, "3")  # the user's own count stands
    _ray_batch([])
    assert default_procs() == 3


def test_plot_labels_have_english_names_for_every_variant_term() -> None:
    from laizi.sim.report import english_item_name

    assert english_item_name("屁胡") == "plain win (pi hu)"
    assert english_item_name("清一色") != "清一色"  # from the MCR / Taiwan tables or glossary
    assert english_item_name("底") == "base (di)"
    assert english_item_name("no such item") == "no such item"
