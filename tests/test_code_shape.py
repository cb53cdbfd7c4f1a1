"""The code's shape stays where issue 39 brought it (``scripts/code_metrics.py``, an AST
pass over ``src/laizi``): no import circle, no file over 600 lines, no function over 80
(the analysis DP and the golden branch-and-bound excepted), the game's words compared
through ``laizi.vocab`` rather than as string literals, ``Any`` kept rare, and no sleep
of a fixed time in the hall's tests."""

from __future__ import annotations

import importlib.util
import pathlib
from types import ModuleType

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "code_metrics.py"


def _metrics() -> ModuleType:
    spec = importlib.util.spec_from_file_location("code_metrics", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MEASURED = _metrics().measure()


@pytest.mark.parametrize(("measure", "limit"), [
    ("cycles", 0), ("long_files", 0), ("long_functions", 0), ("fixed_sleeps", 0),
    ("literal", 9), ("any", 149)])
def test_the_code_keeps_its_shape(measure: str, limit: int) -> None:
    found = MEASURED.get(measure, [])
    assert len(found) <= limit, f"{measure}: {len(found)} (at most {limit}): {found[:20]}"


def test_a_fixed_wait_is_told_from_a_poll() -> None:
    metrics = _metrics()
    fixed = ["await asyncio.sleep(0.5)", "time.sleep(2)", "page.wait_for_timeout(200)",
             "pg.wait_for_timeout(1_500)  # no reconnection"]
    polls = ["await asyncio.sleep(POLL)", "pg.wait_for_timeout(POLL_MS)"]
    neither = ["await asyncio.sleep(0)", "await asyncio.sleep(delay)",
               "page.clock.run_for(20_000)"]
    assert all(metrics.FIXED_WAIT.search(line) for line in fixed)
    assert not any(metrics.FIXED_WAIT.search(line) for line in polls + neither)
    assert all(metrics.POLL_WAIT.search(line) for line in polls)
    assert not any(metrics.POLL_WAIT.search(line) for line in neither)
