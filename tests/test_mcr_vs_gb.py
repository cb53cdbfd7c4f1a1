"""Our MCR calculator against PyMahjongGB (MahjongFanCalculator), fan by fan.

A seeded sample of random winning hands (all shapes, melds, kongs, flags, winds,
flowers) must agree exactly; scripts/verify_mcr.py runs the same check on 10^6 hands.
Documented exceptions (docs/mcr-exceptions.md): none so far.
"""

from __future__ import annotations

import random

import pytest

from laizi import tiles as T
from laizi.commands.fan import parse_melds
from laizi.scoring.mcr import WinContext

pytest.importorskip("MahjongGB")

from mcr_random import Case, gb_fans, ours, random_case
from test_mcr import EXAMPLES

EXCEPTIONS: dict[str, str] = {}
"""Hands (Case.describe()) where we knowingly differ, with the rulebook's reason."""


@pytest.mark.parametrize("seed", range(4))
def test_random_hands_agree(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for _ in range(600):
        case = random_case(rng)
        if case.describe() in EXCEPTIONS:
            continue
        assert ours(case) == gb_fans(case), case.describe()


@pytest.mark.parametrize(("fan", "hand", "melds", "win", "ctx"), EXAMPLES,
                         ids=[e[0] for e in EXAMPLES])
def test_worked_examples_agree(fan: str, hand: str, melds: str, win: str,
                               ctx: dict[str, object]) -> None:
    ms = tuple(parse_melds(melds))
    case = Case(tuple(T.parse(hand)), ms, T.parse_tile(win), WinContext(**ctx),  # type: ignore[arg-type]
                tuple(0 if m.kind == "concealed_kong" else 1 for m in ms))
    assert ours(case) == gb_fans(case)
