"""``POST /api/score/check``: the score-keeper page's question, answered 200 either way.

The page settles a typed-in hand at every change; an impossible hand is a verdict it
shows, not a failed request (a browser logs every 4xx answer as a console error, and a
browser test fails on any console error). ``POST /api/score`` keeps its ``400`` for API
clients (issue 38).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from starlette.applications import Starlette

from laizi.server import scorekeeper

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def post(path: str, body: Any) -> httpx.Response:
    app = Starlette(routes=scorekeeper.routes())

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return await c.post(path, content=json.dumps(body))
    return asyncio.run(go())


def _hand() -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / "jingzhou-hand.json").read_text())
    return record


def _impossible() -> dict[str, Any]:
    record = _hand()
    record["seats"][2]["concealed"] = "1236p135689s"
    return record


def test_check_answers_a_settlement_as_score_does() -> None:
    checked = post("/api/score/check", {"record": _hand()})
    assert checked.status_code == 200, checked.text
    answer = checked.json()
    assert answer["ok"] is True
    plain = post("/api/score", {"record": _hand()})
    assert plain.status_code == 200
    assert answer["settlement"] == plain.json()


def test_check_answers_an_impossible_hand_with_200_and_the_refusal() -> None:
    checked = post("/api/score/check", {"record": _impossible()})
    assert checked.status_code == 200, checked.text
    answer = checked.json()
    assert answer["ok"] is False
    error = answer["error"]
    assert error["code"] == "invalid_record"
    assert error["refusal"]["code"] == "not_won" and error["refusal"]["params"]["seat"] == 2
    # POST /api/score still refuses it with 400, the same error.
    plain = post("/api/score", {"record": _impossible()})
    assert plain.status_code == 400
    assert plain.json()["error"] == error


def test_check_refuses_a_body_that_is_not_a_record_with_400() -> None:
    assert post("/api/score/check", {"hand": {}}).status_code == 400
    assert post("/api/score/check", [1, 2]).status_code == 400


def test_a_record_with_a_huge_number_is_refused_not_a_500() -> None:
    # issue 42: a 4,300-digit base was read (Python reads that many digits) and settled
    # into payments no JSON answer could print: a 500.
    record: dict[str, Any] = json.loads((EXAMPLES / "huanghuang-hand.json").read_text())
    record.setdefault("options", {})["base"] = int("9" * 4300)
    plain = post("/api/score", {"record": record})
    assert plain.status_code == 400, plain.text
    error = plain.json()["error"]
    assert error["code"] == "invalid_record" and "64 bits" in error["message"], error
    checked = post("/api/score/check", {"record": record})
    assert checked.status_code == 200 and checked.json()["ok"] is False, checked.text
