"""Each variant described to clients (``laizi.variants.descriptors``), served beside the
options by ``GET /api/variants`` (``laizi.server.variants_api``): the page reads these
instead of branching on a variant's id."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("starlette")

from starlette.applications import Starlette
from starlette.responses import JSONResponse

from laizi.core.descriptors import Presentation
from laizi.engine.variant import Variant
from laizi.server import variants_api
from laizi.variants import BUILTIN, get, ids
from laizi.variants.descriptors import describe, descriptor_json
from laizi.vocab import ActionType, MeldKind, WinHow

SERVED = Path(__file__).resolve().parent / "fixtures" / "variants_api.json"
"""``GET /api/variants`` for the built-in variants, byte for byte: as main served it when
the descriptors were declared in one module, before each variant described itself, with
one key added since, ``forms`` (the actions' labels in context, which the client took
from its own word list before)."""


def served() -> bytes:
    app = Starlette(routes=variants_api.routes())

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return await c.get("/api/variants")
    answer = asyncio.run(go())
    assert answer.status_code == 200
    return answer.content


def variants() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = json.loads(served())
    return out


def test_the_served_json_is_byte_identical_to_the_recorded_one() -> None:
    """Moving the descriptors into the variants changed no byte a client gets. (The
    engine tests' toy variant, registered when they ran first, is left out.)"""
    raw = served()
    entries = json.loads(raw)
    builtin = [e for e in entries if e["id"] in BUILTIN]
    assert sorted(e["id"] for e in builtin) == sorted(BUILTIN)
    body = raw if len(builtin) == len(entries) else JSONResponse(builtin).body
    assert body == SERVED.read_bytes()


@dataclasses.dataclass(frozen=True)
class _PlainOptions:
    reserve: int = 0


class _Plain(Variant):
    """A variant of one's own, not registered: every descriptor hook left as it is."""

    id = "plain"
    name = "plain"
    options_type = _PlainOptions

    def tile_set(self, options: Any) -> list[int]:
        return [t for t in range(27) for _ in range(4)]

    def win_refusal(self, game: Any, seat: int, tile: int, how: str) -> str | None:
        return "never"

    def validate_record(self, record: Any) -> None:
        return None

    def settle(self, record: Any) -> list[Any]:
        return []


class _Declares(_Plain):
    def action_types(self) -> frozenset[str]:
        return frozenset({"declare"})


class _Labelled(_Declares):
    presentation = Presentation(order=7, actions=(("declare", ("报听", "Declare")),))


def test_a_variant_of_ones_own_describes_itself() -> None:
    """The defaults (no wildcard, the lobby after the built-ins, no facts, the engine's
    labels); a clear error for an action type of its own that its presentation does not
    label, and its label when it does."""
    d = _Plain().descriptor()
    assert (d.order, d.facts, d.wildcard, d.horses, d.prevalent_wind) == (5, (), None,
                                                                          False, None)
    assert list(d.actions) == ["discard", "win", "concealed_kong", "added_kong", "pass",
                               "chow", "kong", "pung"]
    assert d.melds["kong"] == ("明杠", "kong")
    with pytest.raises(ValueError, match="no label for 'declare'"):
        _Declares().descriptor()
    d = _Labelled().descriptor()
    assert (d.order, d.actions["declare"]) == (7, ("报听", "Declare"))


def test_todays_fields_are_unchanged_and_the_descriptor_is_beside_them() -> None:
    served = {v["id"]: v for v in variants()}
    assert sorted(served) == sorted(ids())
    for vid in ids():
        v = get(vid)
        entry = dict(served[vid])
        assert entry.pop("describe") == descriptor_json(v) == v.descriptor().to_json()
        assert entry == {"id": vid, "name": v.name, "seats": v.seats,
                         "options": v.options_to_json(v.default_options()),
                         "fields": [f.name for f in dataclasses.fields(v.options_type)]}


BUILT_IN = ("jingzhou", "huanghuang", "golden", "taiwan", "mcr")
"""The lobby's order; a variant registered by other code (the engine tests' toy) comes
after them."""


def test_the_labels_in_context() -> None:
    """自摸 on one's own turn everywhere; 天听 in Taiwan's decide window; the kind of a
    Jingzhou special kong; every form is of an action the variant has."""
    for vid in ids():
        d = describe(get(vid))
        assert d.forms["win"] == {"turn": ("自摸", "Self-draw win")}
        assert set(d.forms) <= set(d.actions)
        assert all(c in (*map(str, MeldKind), "turn", "decide") for f in d.forms.values()
                   for c in f)
    assert describe(get("taiwan")).forms["declare"]["decide"][0] == "天听"
    assert describe(get("jingzhou")).forms["special_kong"] == {
        "red_dragon_kong": ("红中杠", "Red dragon kong"), "laizi_kong": ("赖子杠", "Laizi kong")}
    assert "declare" not in describe(get("mcr")).forms


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
