"""``mcr`` with ``profile=botzone`` (Botzone's "Chinese Standard Mahjong"): 136 tiles,
per-seat walls of 21 draws, each hand a game in its own wind, 错和 -30 / +10: a Botzone
program's wrong 胡 ends the hand with that settlement, in the log, replayed byte for
byte, exported and imported; the standard profile keeps the fallback; nobody else can
play a 错和."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from laizi.bots.botzone import BotzoneBot
from laizi.bots.registry import make_bot
from laizi.cli import main
from laizi.datasets.botzone_log import (
    from_player_walls,
    hand_logs,
    import_match,
    to_player_walls,
)
from laizi.datasets.decisions import Source, log_decisions, simulated_logs
from laizi.engine.actions import WRONG_WIN, Action
from laizi.engine.game import Game
from laizi.errors import ErrorCode, IllegalActionError, MalformedActionError
from laizi.records import record_from_json
from laizi.sim.simulate import simulate
from laizi.table.decisions import decisions, resolve
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
    # The first greedy hand that ends drawn with tiles unused (which seed that is depends
    # on how greedy plays).
    game = next(g for g in (_played(seed, 1) for seed in range(1, 400))
                if g.record is not None and g.record.outcome == "draw" and g.tail > g.head)
    assert game.seat_streams is not None
    assert game.tail - game.head == sum(map(len, game.seat_streams)) > 0
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


BAD = f"{sys.executable} {Path(__file__).parent / 'fixtures' / 'botzone_bad_stub.py'}"
WRONG_ON_DRAW = f"botzone:keep=1:timeout=5:cmd={BAD} hu --keep"
WRONG_ON_DISCARD = f"botzone:timeout=5:cmd={BAD} hu_discard"


def _bridged(spec: str, options: dict[str, str], seed: int, seat: int = 2
             ) -> tuple[Table, BotzoneBot]:
    """A hand of ``spec`` at ``seat`` and greedy bots elsewhere, played to its end."""
    table = Table("mcr", options, seed=seed)
    table.start_hand()
    program = make_bot(spec, seat)
    assert isinstance(program, BotzoneBot)
    bots = [program if s == seat else make_bot("greedy", s) for s in range(4)]
    try:
        play_hand(table, [BotController(b) for b in bots])
    finally:
        program.close()
    return table, program


@pytest.mark.parametrize(("spec", "seed"), [(WRONG_ON_DRAW, 3), (WRONG_ON_DISCARD, 1)])
def test_a_wrong_hu_ends_the_hand_at_minus_30_plus_10(spec: str, seed: int,
                                                      tmp_path: Path) -> None:
    table, program = _bridged(spec, BOTZONE, seed)
    game = table.game
    assert game is not None and game.over and table.over  # one hand a game
    record = game.log[-1]["record"]
    assert record["outcome"] == "wrong_win" and record["from"] == 2
    assert "winners" not in record and "tile" not in record
    assert game.net == [10, 10, -30, 10] == wrong_win_net(2)
    end = table.log[-1]
    assert end["type"] == "hand_end"
    caller = table.seats[2]
    assert end["net"] == {p: -30 if p == caller else 10 for p in table.seats}
    assert all(p["from"] == caller and p["amount"] == 10 for p in end["payments"])
    assert {(r["zh"], r["en"]) for p in end["payments"] for r in p["reasons"]} == {
        ("错和", "wrong win (错和)")}
    assert "错和" in get_variant("mcr").describe(game.record)
    stats = program.stats()
    assert stats["errors"] == {"wrong_win": 1} and stats["fallbacks"] == 0
    last = [e for e in game.log if e["type"] == "action"]
    assert last[-1]["action"] == {"type": "wrong_win", "seat": 2}
    if spec == WRONG_ON_DISCARD:  # in the claim window on another seat's discard
        discards = [e for e in last if e["action"]["type"] == "discard"]
        assert discards[-1]["action"]["seat"] != 2 and last[-1].get("answer") is None
    # the log replays byte for byte, and laizi verify accepts it
    table.close()
    text = table.dumps()
    assert Table.from_log(text.splitlines()).dumps() == text
    assert Game.from_log(game.log).log == game.log
    path = tmp_path / "wrong.jsonl"
    path.write_text(text)
    assert main(["verify", str(path)]) == 0
    assert record_from_json(record).source == 2  # the strict reader takes it


def test_the_standard_profile_keeps_the_fallback() -> None:
    table, program = _bridged(WRONG_ON_DRAW, {}, 3)
    game = table.game
    assert game is not None and game.record is not None
    assert game.record.outcome != "wrong_win"
    stats = program.stats()
    assert stats["errors"]["wrong_win"] >= 3 and "illegal" not in stats["errors"]
    assert stats["fallbacks"] == stats["errors"]["wrong_win"]


def test_the_simulator_counts_the_hands_a_wrong_hu_ended(
        capsys: pytest.CaptureFixture[str]) -> None:
    summary, _ = simulate("mcr", [WRONG_ON_DRAW, "greedy"], 2, seed=3, options=dict(BOTZONE))
    assert summary["wrong_win_rate"] == 1.0 and summary["draw_rate"] == 0.0
    assert summary["win_rate"] == 0.0
    (bridged,) = summary["bridge"]
    assert bridged["error_kinds"] == {"wrong_win": 2} and bridged["fallbacks"] == 0
    standard, _ = simulate("mcr", ["greedy"], 2, seed=3)
    assert "wrong_win_rate" not in standard
    assert main(["arena", "mcr", "--bots", f"{WRONG_ON_DRAW},greedy", "--hands", "1",
                 "--option", "profile=botzone", "--no-progress"]) == 0
    assert "错和 (wrong wins) 100.0%" in capsys.readouterr().out


def test_nobody_else_can_play_a_wrong_win() -> None:
    wrong = Action(WRONG_WIN, 0)
    for variant, options in (("mcr", {}), ("jingzhou", None), ("golden", None)):
        game = Game(variant, options, seed=3)
        before = json.dumps(game.to_json()), list(game.log)
        with pytest.raises(MalformedActionError) as info:
            game.apply(wrong)
        assert info.value.code == ErrorCode.UNKNOWN_TYPE
        assert (json.dumps(game.to_json()), game.log) == before
        assert WRONG_WIN not in game.action_types()
    table = Table("mcr", seed=3)
    table.start_hand()
    before_log = list(table.log)
    with pytest.raises(MalformedActionError):
        table.act(wrong)
    with pytest.raises(MalformedActionError):  # nor as a person's JSON, anywhere
        Table("mcr", BOTZONE, seed=3).act({"type": "wrong_win", "seat": 0})
    assert table.log == before_log
    with pytest.raises(MalformedActionError) as info:
        Action.from_json({"type": "wrong_win", "seat": 0})
    assert info.value.code == ErrorCode.UNKNOWN_TYPE


def test_a_wrong_win_needs_a_decision_no_tile_and_no_win() -> None:
    game = Game("mcr", BOTZONE, seed=3)
    assert all(a.type != WRONG_WIN for s in range(4) for a in game.legal_actions(s))
    before = json.dumps(game.to_json())
    for action, code in ((Action(WRONG_WIN, 1), ErrorCode.NOT_YOUR_TURN),
                         (Action(WRONG_WIN, 0, 5), ErrorCode.ILLEGAL)):
        with pytest.raises(IllegalActionError) as info:
            game.apply(action)
        assert info.value.code == code
    assert json.dumps(game.to_json()) == before
    # a seat that can win says 胡 with its win, never a 错和
    for seed in range(200):
        game = Game("mcr", BOTZONE, seed=seed)
        while not game.over and not any(a.type == "win" for a in game.legal_actions(game.turn)):
            seat = next(s for s in range(4) if game.legal_actions(s))
            game.apply(game.legal_actions(seat)[-1] if game.phase == "turn"
                       else game.legal_actions(seat)[0])
        if not game.over:
            break
    else:
        raise AssertionError("no hand with a win to refuse a 错和 on")
    with pytest.raises(IllegalActionError, match="can win"):
        game.apply(Action(WRONG_WIN, game.turn))
    # a program's 错和 at a standard table is an illegal answer: reported, default played
    table = Table("mcr", seed=3)
    table.start_hand()
    failures: list[Exception] = []
    decision = next(decisions(table))
    played = resolve(decision, Action(WRONG_WIN, decision.seat),
                     lambda d, exc: failures.append(exc))
    assert played == decision.default() and len(failures) == 1


def test_a_wrong_win_match_exports_and_imports_back(tmp_path: Path) -> None:
    ((seed, log),) = simulated_logs("mcr", ["greedy", "greedy", WRONG_ON_DISCARD, "greedy"],
                                    1, 1, BOTZONE)
    lines = log.splitlines()
    [match] = hand_logs(lines)
    finish = match["log"][-1]["output"]
    assert finish["display"]["action"] == "WRONG_HU"
    caller = finish["display"]["player"]
    assert finish["content"] == {str(p): -30 if p == caller else 10 for p in range(4)}
    responses = [turn[str(caller)]["response"] for turn in match["log"][1::2]]
    assert responses[-1] == "HU"
    back = import_match(json.loads(json.dumps(match)))  # read, no longer skipped
    assert back.game is not None and back.game.record is not None
    assert back.game.record.outcome == "wrong_win"
    assert hand_logs(back.log) == [match]
    assert Table.from_log(back.dumps().splitlines()).dumps() == back.dumps()
    # the decisions: the 错和 is no choice of the action space; the outcome says it
    steps = list(log_decisions(lines, Source(match=0, seed=seed)))
    assert steps and all(s["action_json"]["type"] != "wrong_win" for s in steps)
    results = {s["seat"]: s["outcome"]["result"] for s in steps}
    assert set(results.values()) <= {"wrong_win", "collect"}
    assert results.get(2, "wrong_win") == "wrong_win"
    # the commands: export --format botzone, then import-botzone, then verify
    src = tmp_path / "hand.jsonl"
    src.write_text(log)
    out = tmp_path / "match.botzone.jsonl"
    assert main(["export", "mcr", str(src), "--format", "botzone", "-o", str(out)]) == 0
    assert json.loads(out.read_text()) == match
    assert main(["import-botzone", str(out), "-o", str(tmp_path)]) == 0
    assert main(["verify", str(tmp_path / "match-0.jsonl")]) == 0


def test_the_terminal_says_a_wrong_win() -> None:
    from laizi.ui.terminal import event_line, settlement_lines

    names = ["A", "B", "C", "D"]
    table = Table("mcr", BOTZONE, people=names, seed=3)
    table.start_hand()
    game = table.game
    assert game is not None
    table.act(Action(WRONG_WIN, game.turn))
    assert event_line(game.log[-2], names, 1) == "A: 错和 wrong win"
    text = [" ".join(t.plain for t in line.lines(200)) for line in
            settlement_lines(game.log[-1], names)]
    assert "错和" in text[0] and "黄庄" not in text[0]
    assert len([t for t in text if "错和" in t]) == 4  # the headline and three payments
