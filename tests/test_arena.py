"""Arena: duplicate rotations, intervals, and the arena / simulate command lines."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from laizi.cli import main
from laizi.sim.arena import arena_tasks, fill_bots, run_arena


def test_rotations_put_every_bot_in_every_seat_of_every_deal() -> None:
    tasks = arena_tasks("jingzhou", ["search", "greedy", "random"], 9, seed=7)
    assert len(tasks) == 9 and sorted({t.seed for t in tasks}) == [7, 8, 9]
    for seed in (7, 8, 9):
        seatings = [t.bots for t in tasks if t.seed == seed]
        for seat in range(3):
            assert sorted(s[seat] for s in seatings) == ["greedy", "random", "search"]
    # 4-seat variants: hands rounded up to whole rotations
    assert len(arena_tasks("mcr", ["greedy", "random"], 10)) == 12


def test_fill_bots() -> None:
    assert fill_bots(["greedy", "random"], 4) == ["greedy", "random", "random", "random"]
    with pytest.raises(ValueError):
        fill_bots(["a", "b", "c", "d"], 3)
    with pytest.raises(ValueError):
        fill_bots([], 3)


def test_greedy_beats_random() -> None:
    s = run_arena("jingzhou", ["greedy", "random"], 15, seed=100)
    bots = {b["bot"]: b for b in s["per_bot"]}
    assert bots["greedy"]["mean"] > 0 > bots["random"]["mean"]
    assert bots["greedy"]["mean"] - bots["greedy"]["ci95"] > 0
    assert bots["greedy"]["win_rate"] > bots["random"]["win_rate"]


def test_arena_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["arena", "jingzhou", "--bots", "greedy,random", "--hands", "3", "--json",
               "--no-progress"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"] == 3 and out["seeds"] == 1
    assert Counter(b["bot"] for b in out["per_bot"]) == Counter(["greedy", "random"])


def test_arena_cli_reports_what_run_arena_returns(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["arena", "mcr", "--bots", "greedy,random", "--hands", "4", "--seed", "5",
               "--json", "--no-progress"])
    assert rc == 0
    out = json.loads(capsys.readouterr().out)
    expected = run_arena("mcr", ["greedy", "random"], 4, seed=5)
    assert out == json.loads(json.dumps(expected, ensure_ascii=False))
    assert out["bots"] == ["greedy", "random", "random", "random"]
    assert out["streams"] is False


def test_arena_streams_deal_every_hand_with_per_seat_streams(
        capsys: pytest.CaptureFixture[str]) -> None:
    tasks = arena_tasks("mcr", ["greedy", "random"], 8, seed=3, streams=True)
    assert all(t.streams for t in tasks)
    assert not any(t.streams for t in arena_tasks("mcr", ["greedy", "random"], 8, seed=3))
    from laizi.sim.hands import play_hand

    # With streams the hand is another hand than from the shared wall of the same seed
    # (claims and tail draws move tiles), and it is as reproducible.
    results = [play_hand(t) for t in tasks]
    assert results == [play_hand(t) for t in tasks]
    plain = [play_hand(t) for t in arena_tasks("mcr", ["greedy", "random"], 8, seed=3)]
    assert results != plain
    rc = main(["arena", "mcr", "--bots", "greedy,random", "--hands", "4", "--streams",
               "--json", "--no-progress"])
    assert rc == 0 and json.loads(capsys.readouterr().out)["streams"] is True
    assert main(["arena", "mcr", "--bots", "greedy,random", "--hands", "4", "--streams",
                 "--no-progress"]) == 0
    assert "per-seat draw" in capsys.readouterr().out


def test_arena_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "jingzhou", "--bots", "random", "--hands", "3",
                 "--no-progress"]) == 0
    assert "points/hand" in capsys.readouterr().out


def test_simulate_cli_with_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "sim.png"
    rc = main(["simulate", "jingzhou", "--hands", "4", "--bots", "simple,random",
               "--plot", str(png), "--no-progress"])
    assert rc == 0
    out = capsys.readouterr().out
    assert "per seat" in out and "hand types" in out
    assert png.stat().st_size > 1000


def test_simulate_cli_json_equal_for_workers(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "jingzhou", "--hands", "4", "--bots", "greedy,random", "--json",
            "--no-progress", "--seed", "9"]
    assert main([*args, "--workers", "1"]) == 0
    one = capsys.readouterr().out
    assert main([*args, "--workers", "2"]) == 0
    assert capsys.readouterr().out == one


@pytest.mark.parametrize("argv, message", [
    (["arena", "nope"], "unknown variant"),
    (["arena", "jingzhou", "--bots", "foo"], "unknown bot"),
    (["arena", "jingzhou", "--bots", "a,b,c,d"], "unknown bot"),
    (["arena", "jingzhou", "--bots", "greedy,greedy,greedy,greedy"], "--bots"),
    (["arena", "jingzhou", "--hands", "0"], "--hands"),
    (["simulate", "jingzhou", "--workers", "0"], "--workers"),
    (["simulate", "jingzhou", "--option", "cap=-5"], "cap"),
    (["simulate", "jingzhou", "--option", "colour=1"], "unknown"),
])
def test_cli_user_errors(argv: list[str], message: str,
                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_ray_flag_without_ray(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        assert main(["simulate", "jingzhou", "--hands", "2", "--ray", "--no-progress"]) == 2
        assert "laizi[cluster]" in capsys.readouterr().err


@pytest.mark.parametrize("streams", [False, True])
def test_every_rotation_of_a_seed_is_dealt_the_same_hand(streams: bool) -> None:
    """Duplicate play: the rotations of one seed sit at tables dealt the same wall (the
    public seed mode), per-seat streams included; the deal shows in every task's log."""
    from laizi.sim.hands import hand_table
    from laizi.table.table import Table

    tasks = arena_tasks("taiwan", ["greedy", "random"], 8, seed=4, streams=streams)
    walls: dict[int, set[str]] = {}
    for task in tasks:
        table = hand_table(task)
        assert table.streams is streams and table.seed == task.seed
        game = table.start_hand()
        assert bool(game.log[0].get("streams")) is streams
        assert ("streams" in table.log[0]) is streams
        walls.setdefault(task.seed, set()).add(json.dumps(game.wall))
        if streams:  # the table log replays with its streams
            assert Table.from_log(table.dumps().splitlines()).to_json() == table.to_json()
    assert sorted(walls) == [4, 5] and all(len(w) == 1 for w in walls.values())
    assert walls[4] != walls[5]
