"""The words the server gives the browser for settlements and refused hands (issue 38,
item 7): seats cut out of every text so the page names the person, never ``0号位``; the
score-keeper's refusal as data, in Chinese and English, tiles by their Chinese names."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette

from laizi.core.records import RecordError
from laizi.reasons import Reason, Refusal, payments_with_parts, with_parts
from laizi.server import scorekeeper
from laizi.server.records import hand_records
from laizi.table.table import Table
from test_reasons import SAMPLES

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
_SEAT_CODES = {"doublings", "bao", "bao_line", "horse", "dead_hand"}


def _join(parts: list[Any], lang: str) -> str:
    return "".join(p if isinstance(p, str) else
                   (f"{p['seat']}号位" if lang == "zh" else f"seat {p['seat']}") for p in parts)


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_reason_parts_are_the_text_with_the_seats_cut_out(code: str) -> None:
    params, zh, en = SAMPLES[code]
    r = Reason.of(code, **params)
    for lang, text in (("zh", zh), ("en", en)):
        parts = r.parts(lang)  # type: ignore[arg-type]
        assert _join(parts, lang) == text
        words = "".join(p for p in parts if isinstance(p, str))
        assert not re.search(r"\d号位|seat \d", words), (code, lang, parts)
        seats = [p["seat"] for p in parts if isinstance(p, dict)]
        assert bool(seats) == (code in _SEAT_CODES and params.get("winner") is not True), code
    # The texts themselves (and so every logged settlement) are unchanged.
    assert r.text("zh") == zh and r.text("en") == en
    assert "parts" not in r.to_json()
    assert with_parts(r.to_json())["parts"] == {"zh": r.parts("zh"), "en": r.parts("en")}


def _played_table(variant: str, people: list[str], hands: int) -> Table:
    from laizi.bots.registry import make_bot

    table = Table(variant, people=people, seed=5)
    bots = [make_bot("greedy", i) for i in range(table.variant.seats)]
    for _ in range(hands):
        table.start_hand()
        while table.in_hand:
            seat = table.to_act()[0]
            game = table.game
            assert game is not None
            table.act(bots[seat].choose(game.view(seat), table.legal_actions(seat)))
    return table


def test_records_give_every_reason_its_parts() -> None:
    table = _played_table("huanghuang", ["甲", "乙", "丙", "丁", "戊"], 4)
    records = hand_records(table.log)
    assert len(records) == 4
    reasons = [r for rec in records for p in rec["end"]["payments"] for r in p["reasons"]]
    assert reasons and all(set(r["parts"]) == {"zh", "en"} for r in reasons)
    horses = [r for r in reasons if r["code"] == "horse"]
    assert horses, "no horse paid in four hands"
    assert any(isinstance(p, dict) for p in horses[0]["parts"]["zh"])
    # The log keeps the settlement as the table wrote it.
    ends = [e for e in table.log if e["type"] == "hand_end"]
    assert all("parts" not in r for e in ends for p in e["payments"] for r in p["reasons"])
    assert payments_with_parts(ends[0]["payments"]) == records[0]["end"]["payments"]


def _jingzhou(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "jingzhou-hand.json").read_text())
    data.update(changes)
    return data


def test_a_hand_that_has_not_won_is_refused_as_data() -> None:
    record = _jingzhou()
    record["seats"][2]["concealed"] = "1236p135689s"
    with pytest.raises(RecordError) as info:
        scorekeeper.settle_record(record)
    # laizi score prints what it always did.
    assert str(info.value).startswith("seat 2 has not won: ")
    refusal = info.value.refusal
    assert isinstance(refusal, Refusal) and refusal.code == "not_won"
    data = refusal.to_json()
    assert data["params"]["seat"] == 2
    assert data["zh"].startswith("2号位没有胡：") and not re.search(r"[a-z]{3}", data["zh"])
    assert data["en"] == str(info.value)
    assert data["parts"]["zh"][0] == {"seat": 2}


def test_too_many_copies_are_refused_with_chinese_tile_names() -> None:
    record = _jingzhou()
    record["seats"][2]["concealed"] = "1111p135688s"
    record["seats"][0]["concealed"] = "11p333p45679s"
    with pytest.raises(RecordError) as info:
        scorekeeper.settle_record(record)
    refusal = info.value.refusal
    assert refusal is not None and refusal.code == "too_many"
    assert refusal.text("zh").startswith("一筒写了 ")
    assert "1p" in refusal.text("en")


class Keeper:
    """The score-keeper's routes in this process (``POST /api/score`` needs no
    database)."""

    def __init__(self) -> None:
        self.app = Starlette(routes=scorekeeper.routes())

    def post(self, path: str, json: Any) -> httpx.Response:
        async def go() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
                return await c.post(path, json=json)
        return asyncio.run(go())


@pytest.fixture
def keeper() -> Keeper:
    return Keeper()


def test_the_score_keeper_answers_a_refusal_in_both_languages(keeper: Keeper) -> None:
    record = _jingzhou()
    record["seats"][2]["concealed"] = "1236p135689s"
    r = keeper.post("/api/score", json={"record": record})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "invalid_record"
    assert error["message"].startswith("seat 2 has not won")
    refusal = error["refusal"]
    assert refusal["code"] == "not_won" and refusal["params"]["seat"] == 2
    assert "号位" not in "".join(p for p in refusal["parts"]["zh"] if isinstance(p, str))
    assert refusal["zh"].startswith("2号位没有胡：不成胡牌") or "没有胡" in refusal["zh"]
    # Any other refusal still says what is wrong (its message, as data).
    bad = keeper.post("/api/score", json={"record": _jingzhou(dealer=7)})
    assert bad.status_code == 400
    other = bad.json()["error"]["refusal"]
    assert other["code"] == "invalid" and other["en"] == bad.json()["error"]["message"]


def test_the_score_keeper_settlement_carries_parts(keeper: Keeper) -> None:
    r = keeper.post("/api/score", json={"record": _jingzhou()})
    assert r.status_code == 200, r.text
    reasons = [x for p in r.json()["payments"] for x in p["reasons"]]
    assert reasons and all("parts" in x for x in reasons)
    doublings = [x for x in reasons if x["code"] == "doublings" and not x["params"]["winner"]]
    assert doublings and doublings[0]["parts"]["zh"][0] == {"seat": doublings[0]["params"]["seat"]}
