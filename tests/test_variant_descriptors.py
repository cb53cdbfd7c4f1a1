"""Each variant described to clients (``laizi.variants.descriptors``), served beside the
options by ``GET /api/variants`` (``laizi.server.variants_api``): the page reads these
instead of branching on a variant's id."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from starlette.applications import Starlette

from laizi.server import variants_api
from laizi.variants import get, ids
from laizi.variants.descriptors import describe, descriptor_json
from laizi.vocab import ActionType, MeldKind, WinHow


def variants() -> list[dict[str, Any]]:
    app = Starlette(routes=variants_api.routes())

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return await c.get("/api/variants")
    answer = asyncio.run(go())
    assert answer.status_code == 200
    out: list[dict[str, Any]] = answer.json()
    return out


def test_todays_fields_are_unchanged_and_the_descriptor_is_beside_them() -> None:
    served = {v["id"]: v for v in variants()}
    assert sorted(served) == sorted(ids())
    for vid in ids():
        v = get(vid)
        entry = dict(served[vid])
        assert entry.pop("describe") == descriptor_json(v)
        assert entry == {"id": vid, "name": v.name, "seats": v.seats,
                         "options": v.options_to_json(v.default_options()),
                         "fields": [f.name for f in dataclasses.fields(v.options_type)]}


BUILT_IN = ("jingzhou", "huanghuang", "golden", "taiwan", "mcr")
"""The lobby's order; a variant registered by other code (the engine tests' toy) comes
after them."""


def test_the_lobby_order() -> None:
    order = [v["id"] for v in sorted(variants(), key=lambda v: v["describe"]["order"])]
    assert order[:len(BUILT_IN)] == list(BUILT_IN)


@pytest.mark.parametrize(("vid", "mark", "word"), [
    ("jingzhou", "赖", "赖子"), ("huanghuang", "癞", "癞子"), ("golden", "金", "黄金牌"),
    ("mcr", None, None), ("taiwan", None, None)])
def test_the_wildcard_is_marked_and_named_by_the_variant(vid: str, mark: str | None,
                                                         word: str | None) -> None:
    w = describe(get(vid)).wildcard
    assert (w and w.mark, w and w.word[0]) == (mark, word)


def test_what_is_read_from_the_variant() -> None:
    for vid in ids():
        v = get(vid)
        d = describe(v)
        assert (d.seats, d.hand_size, len(d.winds)) == (v.seats, v.hand_size, v.seats)
        assert d.flowers == bool(v.flower_tiles(v.default_options()))
        assert set(v.action_types()) <= set(d.actions)
        assert set(v.special_kinds()) <= set(d.melds)
        assert all(a in tuple(ActionType) for a in d.actions)
        assert all(m in tuple(MeldKind) for m in d.melds)
        assert (ActionType.SPECIAL_KONG in d.actions) == bool(v.special_kinds())
    assert [vid for vid in BUILT_IN if describe(get(vid)).horses] == ["huanghuang"]
    assert {vid: describe(get(vid)).prevalent_wind for vid in BUILT_IN} == {
        "golden": "option", "mcr": "option", "taiwan": "extra", "jingzhou": None,
        "huanghuang": None}


def test_the_facts_are_well_formed() -> None:
    for vid in ids():
        for fact in describe(get(vid)).facts:
            assert fact.label[0] and fact.label[1]
            assert all(h in tuple(WinHow) for h in fact.how)
            if fact.form == "bool":
                assert isinstance(fact.default, bool)
            if fact.form == "count":
                assert fact.default == 0 and fact.maximum
            if fact.form == "choice":
                assert fact.choices and fact.default is None
    keys = {vid: [f.key for f in describe(get(vid)).facts] for vid in ids()}
    assert keys["jingzhou"] == ["discarder_ready", "qingyise_feeder"]
    assert keys["golden"] == keys["mcr"] == ["last_tile", "last_copy"]
