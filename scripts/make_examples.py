"""Write docs/examples/<variant>-hand.json: one won hand per variant, played by bots.

The records are what the engine writes at the end of a hand, so they are valid input for
``laizi score``. Run again after a change of the record format:

    .venv/bin/python scripts/make_examples.py
"""

from __future__ import annotations

import json
from pathlib import Path

from laizi.bots.registry import make_bot
from laizi.core.records import record_to_json
from laizi.engine import Game
from laizi.variants import get

OUT = Path(__file__).resolve().parent.parent / "docs" / "examples"
VARIANTS = ("jingzhou", "huanghuang", "golden", "mcr", "taiwan")


def first_won_hand(variant_id: str) -> dict[str, object]:
    variant = get(variant_id)
    for seed in range(1, 500):
        game = Game(variant_id, seed=seed)
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(variant.seats)]
        while not game.over:
            for seat in game.to_act():
                action = bots[seat].choose(game.view(seat), game.legal_actions(seat))
                game.apply(action)
        if game.record is not None and game.record.outcome == "win":
            return record_to_json(game.record, variant)
    raise RuntimeError(f"no won hand of {variant_id} in 500 seeds")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for variant_id in VARIANTS:
        path = OUT / f"{variant_id}-hand.json"
        path.write_text(json.dumps(first_won_hand(variant_id), ensure_ascii=False, indent=1) + "\n")
        print("wrote", path)


if __name__ == "__main__":
    main()
