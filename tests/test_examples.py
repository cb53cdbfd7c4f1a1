"""The example records shipped in docs/examples settle through `laizi score`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from laizi.cli import main

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "docs" / "examples").glob("*.json"))


def test_there_is_an_example_per_variant() -> None:
    names = {p.name.split("-")[0] for p in EXAMPLES}
    assert names == {"jingzhou", "huanghuang", "golden", "mcr", "taiwan"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_settles_to_zero(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["payments"], "a won hand has payments"
    assert sum(out["net"]) == 0
    assert all(p["amount"] > 0 and p["reasons"] for p in out["payments"])
