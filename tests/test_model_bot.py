"""The trained baseline end to end on a tiny scale (docs/bots.md, "A trained baseline"):
``laizi export`` → ``laizi train`` → the ``model:PATH`` bot → ``laizi arena``; training
is deterministic and lowers its loss; a model file that cannot be played is refused with
a :class:`~laizi.bots.model.ModelFileError` that says why."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from laizi.bots.model import ModelBot, ModelFileError, load_model, save_model
from laizi.bots.registry import BotSpecError, check_variant, make_bot, parse_spec
from laizi.cli import main
from laizi.engine import Game
from laizi.learn.data import DatasetError, load
from laizi.learn.mlp import Network, TrainConfig, accuracy, split, train
from laizi.sim.arena import run_arena


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("model") / "mcr.jsonl"
    assert main(["export", "mcr", "--hands", "6", "--bots", "greedy", "--seed", "5",
                 "-o", str(path)]) == 0
    return path


def test_training_is_deterministic_and_learns(exported: Path) -> None:
    data = load([exported])
    assert data.variant == "mcr" and len(data) > 100
    assert data.obs.shape == (len(data), 612) and data.mask[np.arange(len(data)),
                                                            data.action].all()
    fit, held = split(data, 0.2, seed=1)
    assert len(fit) + len(held) == len(data) and len(held) > 0
    assert not set(fit.group.tolist()) & set(held.group.tolist())  # whole hands held out
    config = TrainConfig(hidden=(32,), epochs=6, batch=64, lr=3e-3, lr_end=1e-3, seed=3)
    net, history = train(fit, config)
    again, _ = train(fit, config)
    for (w, b), (w2, b2) in zip(net.weights, again.weights, strict=True):
        assert np.array_equal(w, w2) and np.array_equal(b, b2)
    assert history[-1]["loss"] < 0.7 * history[0]["loss"]
    untrained = Network.init(net.sizes, 3)
    assert accuracy(net, fit)[0] > accuracy(untrained, fit)[0]


def test_export_train_arena_end_to_end(exported: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "mcr.npz"
    assert main(["train", str(exported), "-o", str(model), "--hidden", "32", "--epochs",
                 "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "mcr" and summary["layers"] == [930, 32, 318]
    assert 0 <= summary["held_out_accuracy"] <= 1 and summary["held_out"] > 0
    _, head = load_model(model, "mcr")
    assert head["training"]["decisions"] == summary["decisions"]
    spec = f"model:{model}"
    assert parse_spec(spec) == ("model", {"path": str(model)})
    assert parse_spec(f"model:path={model}") == ("model", {"path": str(model)})
    result = run_arena("mcr", [spec, "greedy"], 8, seed=11)
    mine = next(b for b in result["per_bot"] if b["bot"] == spec)
    assert mine["hands"] == 8 and result["hands"] == 8
    assert main(["arena", "mcr", "--bots", f"{spec},random", "--hands", "4",
                 "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["hands"] == 4


def test_the_model_plays_only_legal_actions_deterministically(exported: Path,
                                                              tmp_path: Path) -> None:
    data = load([exported])
    net, _ = train(data, TrainConfig(hidden=(16,), epochs=1, seed=0))
    path = tmp_path / "m.npz"
    save_model(path, net, "mcr")
    bot, twin = make_bot(f"model:{path}", seed=1), make_bot(f"model:{path}", seed=2)
    assert isinstance(bot, ModelBot)
    game, chosen = Game("mcr", seed=4), 0
    while not game.over:
        for seat in game.to_act():
            legal = game.legal_actions(seat)
            action = bot.choose(game.view(seat), legal)
            assert action in legal and twin.choose(game.view(seat), legal) == action
            chosen += len(legal) > 1
            game.apply(action)
    assert chosen > 10


def test_a_model_that_cannot_be_played_is_refused(exported: Path, tmp_path: Path) -> None:
    data = load([exported], limit=50)
    net, _ = train(data, TrainConfig(hidden=(8,), epochs=1))
    path = tmp_path / "m.npz"
    save_model(path, net, "mcr")
    with pytest.raises(ModelFileError, match="trained for 'mcr', not 'jingzhou'"):
        check_variant(f"model:{path}", "jingzhou")
    assert main(["arena", "jingzhou", "--bots", f"model:{path},greedy", "--hands", "3",
                 "--no-progress"]) == 2
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(path.read_bytes()[:200])
    with pytest.raises(ModelFileError, match="not a readable laizi model"):
        make_bot(f"model:{corrupt}")
    with pytest.raises(ModelFileError, match="no model file"):
        make_bot(f"model:{tmp_path / 'missing.npz'}")
    with pytest.raises(BotSpecError, match="needs a file"):
        make_bot("model")
    other = tmp_path / "other.npz"
    np.savez(other, header=np.array(json.dumps({"format": "laizi.model", "format_version": 99})))
    with pytest.raises(ModelFileError, match="format_version 99"):
        load_model(other)
    plain = tmp_path / "plain.npz"
    np.savez(plain, w0=np.zeros(3))
    with pytest.raises(ModelFileError, match="not a readable laizi model"):
        load_model(plain)


def test_an_export_that_is_not_decisions_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"schema": "something else"}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"not a laizi\.decisions export"):
        load([bad])
    assert main(["train", str(bad), "-o", str(tmp_path / "x.npz")]) == 1


def test_the_shipped_model_plays_mcr() -> None:
    _, head = load_model("mcr-greedy", "mcr")
    assert head["layers"] == [930, 256, 256, 318] and head["training"]["hands"] >= 2000
    result = run_arena("mcr", ["model:mcr-greedy", "random"], 4, seed=3)
    assert result["hands"] == 4
