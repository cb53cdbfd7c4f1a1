"""The hall's strength levels 新手 / 熟手 / 高手 (laizi.bots.levels): specs that resolve to
bots, play legal moves, are reproducible for a seed, and are what rooms and the lobby
offer (GET /api/bots)."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from laizi.bots import bot_names, make_bot, parse_spec
from laizi.bots.greedy import GreedyBot
from laizi.bots.levels import LEVELS, level_json, resolve_level
from laizi.bots.registry import BotSpecError, check_variant
from laizi.bots.search import SearchBot
from laizi.bots.simple import SimpleBot
from laizi.errors import TableError
from laizi.server import variants_api
from laizi.server.room_settings import BOT_LEVELS, RoomSettings
from laizi.sim.arena import arena_tasks
from laizi.sim.hands import HandTask, play_hand
from laizi.variants import ids


def test_levels_resolve_to_their_bots() -> None:
    assert list(LEVELS) == ["novice", "practised", "expert"]
    assert isinstance(make_bot("novice", seed=1), SimpleBot)
    assert isinstance(make_bot("practised", seed=1), GreedyBot)
    expert = make_bot("expert", seed=1)
    assert isinstance(expert, SearchBot)
    assert (expert.rollouts, expert.stage, expert.extend, expert.accept,
            expert.budget_ms) == (512, 16, 0.5, 3.0, 1000)
    assert all(name in bot_names() for name in LEVELS)


def test_a_levels_parameters_override_its_own() -> None:
    assert resolve_level("expert:budget_ms=0") == (
        "search:rollouts=512:stage=16:extend=0.5:accept=3:budget_ms=1000:budget_ms=0")
    assert parse_spec("expert:budget_ms=0") == (
        "search", {"rollouts": 512, "stage": 16, "extend": 0.5, "accept": 3.0,
                   "budget_ms": 0})
    assert parse_spec("expert:rollouts=8:k=3")[1] == {
        "rollouts": 8, "stage": 16, "extend": 0.5, "accept": 3.0, "budget_ms": 1000,
        "k": 3}
    assert resolve_level("greedy:defence=false") == "greedy:defence=false"  # not a level
    with pytest.raises(BotSpecError, match="no parameter 'nope'"):
        parse_spec("expert:nope=1")
    check_variant("expert", "taiwan")  # a level plays every variant


@pytest.mark.parametrize("variant", ids())
def test_novice_and_practised_play_a_hand_in_every_variant(variant: str) -> None:
    # play_hand checks every action against the legal ones (an illegal one raises)
    for task in arena_tasks(variant, ["novice", "practised"], 1, seed=3):
        result = play_hand(task)
        assert sum(result["decisions"]) == result["actions"] > 0
        assert result["bots"] == list(task.bots)


def test_the_expert_plays_legal_moves_and_is_reproducible() -> None:
    # a handful of samples and no clock: the expert's search, cheaply, and reproducible
    task = HandTask("mcr", 5, ("expert:rollouts=8:stage=4:budget_ms=0", "practised", "practised",
                               "novice"), (), 0, 0, False)
    first = play_hand(task)
    assert first["choices"][0] > 0
    assert play_hand(task) == first


def test_rooms_take_the_levels_and_the_old_names() -> None:
    for level in (*LEVELS, "greedy", "search", "random"):
        assert level in BOT_LEVELS
        assert RoomSettings.from_json({"variant": "mcr", "bots": level}).bots == level
    with pytest.raises(TableError, match="bots must be one of novice, practised, expert"):
        RoomSettings.from_json({"variant": "mcr", "bots": "expert:budget_ms=0"})


def test_the_hall_lists_the_levels_weakest_first() -> None:
    client = TestClient(Starlette(routes=variants_api.routes()))
    answer = client.get("/api/bots")
    assert answer.status_code == 200
    assert answer.json() == level_json()
    assert [(b["id"], b["zh"]) for b in answer.json()] == [
        ("novice", "新手"), ("practised", "熟手"), ("expert", "高手")]
    assert all(parse_spec(b["spec"]) for b in answer.json())
