"""``mcr`` with ``profile=botzone`` (Botzone's "Chinese Standard Mahjong"): 136 tiles,
per-seat walls of 21 draws, each hand a game in its own wind, 错和 -30 / +10."""

from __future__ import annotations

import json

import pytest

from laizi.bots.registry import make_bot
from laizi.cli import main
from laizi.datasets.botzone_log import (
    from_player_walls,
    hand_logs,
    import_match,
    to_player_walls,
)
from laizi.datasets.decisions import simulated_logs
from laizi.engine.game import Game
from laizi.table.driver import BotController, play_hand
from laizi.table.table import Table
from laizi.variants import get as get_variant
from laizi.variants.mcr import BOTZONE_DRAWS, own_walls, wrong_win_net

BOTZONE = {"profile": "botzone"}


def _played(seed: int, dealer: int) -> Game:
    table = Table("mcr", BOTZONE, seed=seed, dealer=dealer)
    table.start_hand()
    play_hand(table, [BotController(make_bot("greedy", s)) for s in range(4)])
    assert table.game is not None and table.game.over
    return table.game


def test_136_tiles_and_no_flowers() -> None:
    v = get_variant("mcr")
    options = v.options_from_json(BOTZONE)
    tiles = v.tile_set(options)
    assert len(tiles) == 136 and max(tiles) < 34 and not v.flower_tiles(options)
    assert len(v.tile_set(v.default_options())) == 144
    with pytest.raises(ValueError, match="profile"):
        v.options_from_json({"profile": "tenhou"})
    # each hand is a game of its own: the wind it is given stays
    south = v.options_from_json({**BOTZONE, "prevalent_wind": "S"})
    assert v.hand_options(south, 0).prevalent_wind == "S"
    assert v.hand_options(v.default_options(), 5).prevalent_wind == "S"
    assert Table("mcr", BOTZONE).max_hands == 1  # one hand a game
    assert Table("mcr").max_hands == 16


def test_own_walls_split() -> None:
    live = list(range(4 * BOTZONE_DRAWS - 1))
    walls = own_walls(live, dealer=2)
    assert [len(w) for w in walls] == [21, 21, 20, 21]
    assert walls[2] == live[:20] and walls[3] == live[20:41] and walls[1] == live[62:]
    wall = list(range(136))
    assert from_player_walls(to_player_walls(wall)) == wall
    blocks = to_player_walls(wall)
    assert blocks[:14] == [*range(13), 52]  # the dealer's 13, then its 14th tile


@pytest.mark.parametrize(("seed", "dealer"), [(1, 0), (2, 1), (3, 3), (4, 2), (5, 0)])
def test_every_seat_draws_its_own_wall_in_order(seed: int, dealer: int) -> None:
    game = _played(seed, dealer)
    start = game.log[0]["wall"]
    walls = own_walls(start[53:], dealer)
    drawn: list[list[int]] = [[] for _ in range(4)]
    for e in game.log:
        if e["type"] == "draw":
            drawn[e["seat"]].append(e["tile"])
    for s in range(4):
        assert drawn[s] == walls[s][:len(drawn[s])]  # kong replacements included
    record = game.record
    assert record is not None
    if record.outcome == "draw":  # the seat to draw had nothing left in its own wall
        assert any(len(drawn[s]) == len(walls[s]) for s in range(4))


def test_a_dry_own_wall_draws_the_hand_with_tiles_left(
        capsys: pytest.CaptureFixture[str]) -> None:
    game = _played(41, 1)  # greedy bots: a hand that ends drawn with 5 tiles unused
    assert game.record is not None and game.record.outcome == "draw"
    assert game.seat_streams is not None
    assert game.tail - game.head == sum(map(len, game.seat_streams)) == 5
    last = [e for e in game.log if e["type"] == "action" and not e.get("answer")][-1]
    assert last["action"]["type"] == "discard"
    drawer = (last["action"]["seat"] + 1) % 4  # the next seat had nothing to draw
    assert game.seat_streams[drawer] == []
    assert main(["arena", "mcr", "--bots", "greedy,random", "--hands", "2",
                 "--option", "profile=botzone", "--no-progress", "--json"]) == 0
    assert '"variant": "mcr"' in capsys.readouterr().out


def test_wrong_win_accounting() -> None:
    assert wrong_win_net(2) == [10, 10, -30, 10]
    assert sum(wrong_win_net(0)) == 0


def test_an_exported_deal_replays_under_the_profile() -> None:
    for _, log in simulated_logs("mcr", ["greedy", "random"], 3, 40, BOTZONE):
        [match] = hand_logs(log.splitlines())
        tiles = match["initdata"]["walltiles"].split()
        assert len(tiles) == 136 and not any(t.startswith("H") for t in tiles)
        back = import_match(json.loads(json.dumps(match)))
        assert back.options.profile == "botzone"
        assert hand_logs(back.log) == [match]


def test_a_wrong_hu_of_a_botzone_program_is_counted_as_such() -> None:
    import sys
    from pathlib import Path

    from laizi.sim.simulate import simulate

    bad = Path(__file__).parent / "fixtures" / "botzone_bad_stub.py"
    spec = f"botzone:keep=1:timeout=5:cmd={sys.executable} {bad} hu --keep"
    summary, _ = simulate("mcr", [spec, "greedy"], 1, seed=3, options=dict(BOTZONE))
    (record,) = summary["bridge"]
    assert record["error_kinds"].get("wrong_win", 0) >= 3, record
    assert "illegal" not in record["error_kinds"]
