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


def test_hand_items_from_reason_codes() -> None:
    from laizi.reasons import Reason
    from laizi.settlement import Payment

    no_doublings = dict.fromkeys(("opened", "red_dragon_kongs", "kongs", "laizi_kongs",
                                  "concealed_kongs"), 0)
    flags = dict.fromkeys(("per_meld", "hard", "dealer", "dealt_in", "self_drawn"), False)
    first = Payment(1, 0, 20, (
        Reason.of("hand", name="七对", points=10),
        Reason.of("win_bonus", how="discard", points=10),
        Reason.of("doublings", seat=0, winner=True, **no_doublings, **flags),
        Reason.of("line_total", base=20, exp=0, amount=20)))
    second = Payment(2, 0, 8, (
        Reason.of("fan", id="mixed_shifted_chows", name="三色三步高", fan=6, count=1),
        Reason.of("fan", id="all_chows", name="平和", fan=2, count=1),
        Reason.of("dao", times=2, menqing=True, all_pungs=False, seven_pairs=True),
        Reason.of("base", points=1),
        Reason.of("tai", id="dealer_streak", item="连3拉3", tai=6)))
    pays = [first.to_json(), second.to_json()]
    assert hand_items(pays) == ["七对", "点炮", "三色三步高", "平和", "大刀", "门清", "连N拉N"]
    assert hand_items([{"from": 0, "to": 1, "amount": 1, "reasons": []}]) == []


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


def test_a_simulated_hand_is_the_first_hand_of_its_seeded_table() -> None:
    """Hand k of a run is the first hand of Table(variant, options, seed=S + k), played by
    the driver with a BotController per seat: anyone can deal and replay it."""
    from laizi.bots.registry import make_bot
    from laizi.sim.hands import bot_seed, hand_table
    from laizi.table.driver import BotController
    from laizi.table.driver import play_hand as drive
    from laizi.table.table import Table

    tasks = simulate_tasks("mcr", ["greedy", "random"], 3, seed=11)
    for task, result in zip(tasks, run_tasks(tasks), strict=True):
        table = Table("mcr", seed=task.seed)
        table.start_hand()
        drive(table, [BotController(make_bot(b, bot_seed(task.seed, s)))
                      for s, b in enumerate(task.bots)])
        end = table.log[-1]
        assert end["type"] == "hand_end"
        assert result["net"] == [end["net"][p] for p in table.seats]
        assert result["actions"] == sum(1 for e in table.log if e["type"] == "action")
        same = hand_table(task)
        same.start_hand()
        assert same.log[:2] == table.log[:2]  # the same deal
        assert Table.from_log(table.dumps().splitlines()).to_json() == table.to_json()


def test_decisions_count_every_pass_and_choices_only_real_choices() -> None:
    """Uniform windows: every seat but the discarder answers every discard, so most
    decisions are a lone pass; ``choices`` counts those with more than one option."""
    for r in run_tasks(simulate_tasks("golden", ["random"], 4, seed=2)):
        assert r["actions"] == sum(r["decisions"])
        assert all(0 < c < d for c, d in zip(r["choices"], r["decisions"], strict=True))
        # at least 3 answers (one per other seat) after each of the turns' discards
        assert r["actions"] >= 4 * r["turns"]
    summary, rows = simulate("jingzhou", ["random"], 4, seed=5)
    assert summary["mean_choices"] == sum(sum(r["choices"]) for r in rows) / 4
    assert summary["mean_choices"] < summary["mean_actions"]


def test_a_stuck_hand_is_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    from laizi.engine.game import Game

    monkeypatch.setattr(Game, "legal_actions", lambda self, seat: ())
    with pytest.raises(RuntimeError, match="has a legal action"):
        play_hand(HandTask("jingzhou", 1, ("random",) * 3))
