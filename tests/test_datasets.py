"""Datasets (docs/datasets.md): ``laizi export`` of simulated and recorded matches, MCR
hands as Botzone match logs, and ``laizi import-botzone`` back to table logs that
``laizi verify`` accepts, with the same decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from laizi.bots.registry import make_bot
from laizi.cli import main
from laizi.commands.verify import verify_text
from laizi.core.jsondata import JSON
from laizi.datasets.botzone_log import hand_logs, import_match
from laizi.datasets.decisions import (
    SCHEMA,
    SCHEMA_VERSION,
    Source,
    log_decisions,
    simulated_logs,
)
from laizi.engine.actions import WIN, Action
from laizi.env.encoding import NUM_ACTIONS, OBS_SHAPE, decode_action
from laizi.env.history import HISTORY_SHAPE
from laizi.errors import LogError, TableError
from laizi.table.driver import BotController, play, play_hand
from laizi.table.table import Table

FIXTURE = Path(__file__).parent / "fixtures" / "botzone_mcr_match.json"


def _actions(log: list[JSON] | str) -> list[JSON]:
    lines = [json.loads(x) for x in log.splitlines()] if isinstance(log, str) else log
    return [e["action"] for e in lines if e["type"] == "action"]


def _check_step(step: JSON) -> None:
    assert step["action"] in step["legal"], step
    assert all(0 <= i < NUM_ACTIONS for i in step["legal"])
    obs = step["obs"]
    assert (len(obs), len(obs[0])) == OBS_SHAPE
    assert all(0.0 <= x <= 1.0 for row in obs for x in row)
    chosen = Action.from_json(step["action_json"])
    tile = chosen.tile if chosen.type == WIN else None
    assert decode_action(step["action"], step["seat"], tile) == chosen


@pytest.mark.parametrize("variant", ["jingzhou", "huanghuang", "golden", "mcr", "taiwan"])
def test_simulated_export_mask_holds_the_action(variant: str) -> None:
    steps = []
    for seed, log in simulated_logs(variant, ["greedy", "random"], 2, 7):
        got = list(log_decisions(log.splitlines(), Source(0, seed=seed), variant=variant))
        assert got and all(s["seed"] == seed for s in got)
        # every hand's outcome is the seat's share of a zero-sum settlement
        nets = {s["seat"]: s["outcome"]["net"] for s in got}
        assert len(nets) >= 2
        steps += got
    for step in steps:
        _check_step(step)
        assert step["outcome"]["result"] in ("win", "lose", "dealt_in", "draw")


def test_history_version_and_forced_passes() -> None:
    [(seed, log)] = list(simulated_logs("mcr", ["greedy"], 1, 3))
    lines = log.splitlines()
    plain = list(log_decisions(lines, Source(0, seed=seed)))
    every = list(log_decisions(lines, Source(0, seed=seed), obs_version=1, forced=True))
    assert len(every) == len(_actions(log)) > len(plain)
    assert all(len(s["legal"]) > 1 or s["legal"] != [307] for s in plain)
    assert any(s["legal"] == [307] for s in every)
    h = every[0]["history"]
    assert (len(h), len(h[0]), len(h[0][0])) == HISTORY_SHAPE
    for s in every:
        _check_step(s)


def test_export_of_a_recorded_log_reproduces_its_decisions() -> None:
    # A closed table with a secret, as `laizi play --save` and the hall write it.
    table = Table("huanghuang", people=["a", "b", "c", "d"], max_hands=2)
    play(table, [BotController(make_bot("greedy", s)) for s in range(4)])
    table.close()
    log = table.dumps()
    steps = list(log_decisions(log.splitlines(), Source(0, file="x"), forced=True))
    assert [s["action_json"] for s in steps] == _actions(log)
    assert {s["hand"] for s in steps} == {0, 1}
    wrong = log.replace('"huanghuang"', '"mcr"', 1)
    with pytest.raises(LogError):
        list(log_decisions(wrong.splitlines(), Source(0)))
    with pytest.raises(LogError, match="not 'mcr'"):
        list(log_decisions(log.splitlines(), Source(0), variant="mcr"))


def test_cli_export_simulated_and_a_directory(tmp_path: Path) -> None:
    out = tmp_path / "sim.jsonl"
    assert main(["export", "taiwan", "--hands", "2", "--bots", "greedy", "-o",
                 str(out)]) == 0
    head, *steps = [json.loads(x) for x in out.read_text().splitlines()]
    assert (head["schema"], head["version"]) == (SCHEMA, SCHEMA_VERSION)
    assert head["source"]["hands"] == 2 and steps
    logs = tmp_path / "logs"
    logs.mkdir()
    for seed, log in simulated_logs("taiwan", ["greedy"] * 4, 2, 0):
        (logs / f"{seed}.jsonl").write_text(log)
    again = tmp_path / "logs.jsonl"
    assert main(["export", "taiwan", str(logs), "-o", str(again)]) == 0
    _, *recorded = [json.loads(x) for x in again.read_text().splitlines()]
    # the logs are the simulated hands themselves: the same decisions
    strip = [{k: v for k, v in s.items() if k not in ("seed", "file", "match")}
             for s in recorded]
    assert strip == [{k: v for k, v in s.items() if k not in ("seed", "file", "match")}
                     for s in steps]
    assert main(["export", "mcr", str(logs)]) == 1  # a taiwan log is not mcr's
    assert main(["export", "taiwan", "--format", "botzone"]) == 2


def _rotated(actions: list[JSON], dealer: int) -> list[JSON]:
    """Actions with seats as Botzone ids (the dealer is player 0)."""
    return [{**a, "seat": (a["seat"] - dealer) % 4} for a in actions]


def test_botzone_export_import_round_trip() -> None:
    for seed, log in simulated_logs("mcr", ["greedy", "random", "search:budget_ms=5"], 4, 20):
        [match] = hand_logs(log.splitlines())
        turns = match["log"]
        assert turns[-1]["output"]["command"] == "finish"
        assert sum(turns[-1]["output"]["content"].values()) == 0
        back = import_match(json.loads(json.dumps(match)))
        assert verify_text(back.dumps()).startswith("ok: mcr, 1 hand(s)")
        dealer = json.loads(log.splitlines()[1])["dealer"]
        assert _actions(back.log) == _rotated(_actions(log), dealer), seed
        again = hand_logs(back.log)[0]
        assert again["log"] == turns and again["initdata"] == match["initdata"]


def test_import_our_fixture_and_cli(tmp_path: Path) -> None:
    data = json.loads(FIXTURE.read_text())
    table = import_match(data)
    assert table.closed and table.walls is not None
    assert table.log[-2]["net"] == {"amy": -19, "bo": -19, "cy": 57, "dee": -19}
    out = tmp_path / "out"
    out.mkdir()
    assert main(["import-botzone", str(FIXTURE), "-o", str(out)]) == 0
    written = (out / "match-0.jsonl").read_text()
    assert written == table.dumps()
    assert main(["verify", str(out / "match-0.jsonl")]) == 0
    assert main(["export", "mcr", str(out / "match-0.jsonl")]) == 0


def test_import_names_the_turn_it_cannot_play() -> None:
    data = json.loads(FIXTURE.read_text())
    turns = data["log"]
    # the dealer's first draw answered with a tile it does not hold
    first = next(i for i, t in enumerate(turns)
                 if "output" in t and t["output"]["content"]["0"].startswith("2 "))
    turns[first + 1]["0"]["response"] = "PLAY J1" if "J1" not in str(turns[2]) else "PLAY T6"
    with pytest.raises(LogError, match="player 0, request 2"):
        import_match(data)
    data = json.loads(FIXTURE.read_text())
    data["initdata"]["walltiles"] = data["initdata"]["walltiles"].rsplit(" ", 1)[0]
    with pytest.raises(LogError, match="cannot be dealt"):
        import_match(data)
    data["log"] = data["log"][:40]
    del data["initdata"]
    with pytest.raises(LogError, match="walltiles"):
        import_match(data)


def test_given_walls_need_a_seed_and_the_tile_set() -> None:
    wall = json.loads(FIXTURE.read_text())["initdata"]["walltiles"]
    with pytest.raises(TableError, match="public seed"):
        Table("mcr", walls=[[0] * 144])
    table = Table("mcr", seed=0, walls=[[0] * 144])
    with pytest.raises(ValueError, match="tile set"):
        table.start_hand()
    assert wall and "walls" not in table.events(None)[0]


@pytest.mark.parametrize("variant", ["mcr", "jingzhou"])
def test_the_observations_are_the_environments(variant: str) -> None:
    import numpy as np

    from laizi.env.aec import LaiziAEC

    env = LaiziAEC(variant, version=1)
    env.reset(seed=5)
    seen = []
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        agent = env.agent_selection
        obs = env.observe(agent)
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        seen.append((env.possible_agents.index(agent), obs, action))
        env.step(action)
    assert env.table is not None
    env.table.close()
    steps = list(log_decisions(env.table.dumps().splitlines(), Source(0), obs_version=1))
    assert len(steps) == len(seen) > 10
    for step, (seat, obs, action) in zip(steps, seen, strict=True):
        assert step["seat"] == seat and step["action"] == action
        assert step["legal"] == [int(i) for i in np.flatnonzero(obs["action_mask"])]
        assert np.allclose(np.array(step["obs"]), obs["observation"], atol=1e-6)
        assert np.allclose(np.array(step["history"]), obs["history"], atol=1e-6)


def test_the_hall_replay_reads_an_imported_match() -> None:
    from laizi.server.records import hand_replay, replay_steps

    table = import_match(json.loads(FIXTURE.read_text()))
    replay = hand_replay(table.log, 0, b"\0" * 32)  # the walls are given: no key needed
    assert table.walls is not None and replay["deal"]["wall"] == table.walls[0]
    assert replay["end"]["net"] == table.log[-2]["net"]
    steps = replay_steps(replay["log"])
    assert len(steps) > 50 and steps[0]["hands"]


def test_dealt_in_is_the_discarder_of_a_won_discard() -> None:
    results = []
    for seed, log in simulated_logs("mcr", ["greedy"], 6, 50):
        for step in log_decisions(log.splitlines(), Source(0, seed=seed)):
            o = step["outcome"]
            results.append(o["result"])
            if o["result"] == "dealt_in":
                assert o["how"] == "discard" and o["from"] == step["seat"] and o["net"] < 0
            if o["result"] == "win":
                assert step["seat"] in o["winners"] and o["net"] > 0
    assert {"win", "dealt_in", "lose"} <= set(results)


def test_a_hall_backup_exports_its_rooms(tmp_path: Path) -> None:
    from laizi.table import deals

    rows: list[JSON] = []
    for code, variant in (("ROOMA", "mcr"), ("ROOMB", "taiwan"), ("ROOMC", "mcr")):
        secret = deals.new_secret()
        table = Table(variant, people=["a", "b", "c", "d"], secret=secret)
        table.start_hand()
        play_hand(table, [BotController(make_bot("greedy", s)) for s in range(4)])
        table.start_hand()  # a hand in play: left out
        rows.append({"t": "rooms", "r": {"code": code, "variant": variant,
                                         "secret": deals.secret_hex(secret)}})
        rows += [{"t": "log_lines", "r": {"room": code, "n": n, "line": json.dumps(e)}}
                 for n, e in enumerate(table.log)]
    backup = tmp_path / "hall.backup"
    backup.write_text("\n".join([json.dumps({"laizi_backup": 1, "tables": []}),
                                 *map(json.dumps, rows), json.dumps({"end": len(rows)})]))
    out = tmp_path / "hall.jsonl"
    assert main(["export", "mcr", str(backup), "-o", str(out)]) == 0
    _, *steps = [json.loads(x) for x in out.read_text().splitlines()]
    assert {s["file"].rsplit("#", 1)[1] for s in steps} == {"ROOMA", "ROOMC"}
    assert {s["hand"] for s in steps} == {0}
    for step in steps:
        _check_step(step)
    botzone = tmp_path / "hall.botzone.jsonl"
    assert main(["export", "mcr", str(backup), "--format", "botzone", "-o",
                 str(botzone)]) == 0
    assert len(botzone.read_text().splitlines()) == 2


def test_a_streams_table_has_no_botzone_wall(tmp_path: Path) -> None:
    table = Table("mcr", seed=4, streams=True)
    table.start_hand()
    play_hand(table, [BotController(make_bot("greedy", s)) for s in range(4)])
    table.close()
    log = tmp_path / "streams.jsonl"
    log.write_text(table.dumps())
    with pytest.raises(ValueError, match="per-seat streams"):
        hand_logs(table.log)
    assert main(["export", "mcr", str(log), "--format", "botzone"]) == 2
