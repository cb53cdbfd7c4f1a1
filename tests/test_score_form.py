"""The score-keeper's form made a hand record on the server (``POST /api/score/hand``,
``laizi.server.score_form``): the record the page used to build itself, what is still
missing, the next hand's dealer and facts by each variant's score-keeper rule, and the
verdict once the hand is complete."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")

from starlette.applications import Starlette

from laizi.server import scorekeeper
from laizi.server.score_form import FormError, HandForm, build_record, next_hand
from laizi.variants import get
from laizi.vocab import MeldKind, WinHow

JINGZHOU_OPTIONS = get("jingzhou").options_to_json(get("jingzhou").default_options())


def post(path: str, body: Any) -> httpx.Response:
    app = Starlette(routes=scorekeeper.routes())

    async def go() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            return await c.post(path, content=json.dumps(body))
    return asyncio.run(go())


def form(n: int, **changes: Any) -> dict[str, Any]:
    """A fresh hand as the page starts it."""
    out: dict[str, Any] = {
        "dealer": 0, "outcome": "win", "winner": None, "how": "discard", "from": None,
        "after_kong": False, "indicator": None, "melds": [[] for _ in range(n)],
        "flowers": [[] for _ in range(n)], "concealed": [], "win_tile": None, "facts": {}}
    out.update(changes)
    return out


def following(variant: str, data: dict[str, Any]) -> dict[str, Any]:
    """The next hand the score-keeper starts after the hand ``data``."""
    out: dict[str, Any] = next_hand(variant, HandForm.from_json(data, get(variant).seats))
    return out


def jingzhou_hand(**facts: Any) -> dict[str, Any]:
    """docs/examples/jingzhou-hand.json's winner, typed in: seat 2 wins 7s from seat 1,
    with a chow of 123s from seat 1; the indicator 5p (the wildcard 6p)."""
    melds: list[list[dict[str, Any]]] = [
        [{"kind": "red_dragon_kong", "tile": None, "from": 2}], [],
        [{"kind": "chow", "tile": 18, "from": 1}]]
    concealed = [9, 10, 11, 14, 18, 20, 22, 23, 25, 25]  # 1236p135688s
    return form(3, winner=2, **{"from": 1}, indicator=13, melds=melds,
                concealed=concealed, win_tile=24,
                facts={"discarder_ready": True, "qingyise_feeder": None, **facts})


def test_a_complete_form_makes_the_record_the_page_made() -> None:
    record, missing, _ = build_record("jingzhou", JINGZHOU_OPTIONS, jingzhou_hand())
    assert missing == []
    assert record == {
        "variant": "jingzhou", "options": JINGZHOU_OPTIONS, "dealer": 0, "outcome": "win",
        "seats": [{"melds": [{"kind": "red_dragon_kong", "tiles": "7z"}]}, {"melds": []},
                  {"melds": [{"kind": "chow", "tiles": "123s", "from": 1}],
                   "concealed": "1236p135688s"}],
        "indicators": "5p", "winners": [2], "how": "discard", "from": 1, "tile": "7s",
        "jingzhou": {"discarder_ready": True}}


def test_the_endpoint_settles_the_complete_form_as_check_does() -> None:
    answer = post("/api/score/hand", {"variant": "jingzhou", "options": JINGZHOU_OPTIONS,
                                      "form": jingzhou_hand()})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["missing"] == [] and body["ok"] is True
    checked = post("/api/score/check", {"record": body["record"]}).json()
    assert body["settlement"] == checked["settlement"]
    assert body["next"] == {"dealer": 2, "facts": {"discarder_ready": True,
                                                   "qingyise_feeder": None}}


def test_an_impossible_hand_is_a_verdict_not_a_failed_request() -> None:
    hand = jingzhou_hand()
    hand["concealed"] = [9, 10, 11, 14, 18, 20, 22, 23, 25, 26]  # not a winning hand
    body = post("/api/score/hand", {"variant": "jingzhou", "options": JINGZHOU_OPTIONS,
                                    "form": hand}).json()
    assert body["ok"] is False and body["error"]["code"] == "invalid_record"
    assert body["error"]["refusal"]["code"] == "not_won"


def test_what_is_missing_is_named_in_order() -> None:
    _, missing, _ = build_record("jingzhou", {}, form(3))
    assert [m.code for m in missing] == ["indicator", "winner"]
    hand = form(3, winner=1, how="robbed_kong", indicator=13,
                melds=[[], [{"kind": "pung", "tile": None, "from": 0}], []])
    _, missing, _ = build_record("jingzhou", {}, hand)
    assert [m.to_json() for m in missing] == [
        {"code": "pick_tile", "params": {}},
        {"code": "tiles_count", "params": {"n": 0, "want": 10}},
        {"code": "from_rob", "params": {}}, {"code": "win_tile", "params": {}}]
    _, missing, _ = build_record("mcr", {}, form(4, outcome="draw"))
    assert missing == []  # no indicator in MCR, nothing to name on a draw


def test_facts_are_sent_as_the_variant_asks_them() -> None:
    record, _, _ = build_record("jingzhou", {}, jingzhou_hand(qingyise_feeder=0))
    assert record["jingzhou"] == {"discarder_ready": True, "qingyise_feeder": 0}
    record, _, _ = build_record("jingzhou", {}, {**jingzhou_hand(), "how": "self_draw"})
    assert "jingzhou" not in record  # 点炮 facts only on a discard; no feeder
    record, _, _ = build_record("huanghuang", {}, form(4, outcome="draw",
                                                     facts={"laizi_discarded": 2}))
    assert record["huanghuang"] == {"laizi_discarded": 2}
    record, _, _ = build_record("taiwan", {}, form(4, outcome="draw", facts={
        "prevalent_wind": "南", "dealer_streak": 0, "last_tile": True}))
    assert record["taiwan"] == {"prevalent_wind": "南"}  # win facts are not sent on a draw
    record, _, _ = build_record("golden", {}, form(4, winner=0, facts={"last_copy": True}))
    assert record["golden"] == {"last_copy": True}


@pytest.mark.parametrize(("variant", "dealer", "outcome", "winner", "expected"), [
    ("jingzhou", 0, "win", 2, 2), ("jingzhou", 1, "draw", None, 1),
    ("huanghuang", 3, "win", 1, 1), ("huanghuang", 3, "draw", None, 3),
    ("taiwan", 1, "win", 1, 1), ("taiwan", 1, "win", 2, 2), ("taiwan", 3, "win", 0, 0),
    ("taiwan", 2, "draw", None, 2),
    ("golden", 0, "win", 0, 1), ("golden", 3, "win", 1, 0), ("golden", 2, "draw", None, 3),
    ("mcr", 1, "win", 1, 2), ("mcr", 1, "draw", None, 2),
])
def test_the_next_dealer_is_the_variants_rule(variant: str, dealer: int, outcome: str,
                                              winner: int | None, expected: int) -> None:
    assert following(variant, form(get(variant).seats, dealer=dealer, outcome=outcome,
                                   winner=winner))["dealer"] == expected


def test_taiwan_keeps_its_wind_and_counts_the_dealer_streak() -> None:
    facts = {"prevalent_wind": "西", "dealer_streak": 2, "declaration": "heavenly",
             "last_tile": True}
    kept = following("taiwan", form(4, dealer=1, winner=1, facts=facts))["facts"]
    assert kept["prevalent_wind"] == "西" and kept["dealer_streak"] == 3
    assert kept["declaration"] is None and kept["last_tile"] is False
    passed = following("taiwan", form(4, dealer=1, winner=2, facts=facts))["facts"]
    assert passed["prevalent_wind"] == "西" and passed["dealer_streak"] == 0


@pytest.mark.parametrize("body", [
    {"variant": "nope", "form": form(3)},
    {"variant": "jingzhou", "form": []},
    {"variant": "jingzhou", "form": {**form(3), "outcome": "maybe"}},
    {"variant": "jingzhou", "form": {**form(3), "melds": [[]]}},
    {"variant": "jingzhou", "form": {**form(3), "concealed": [99]}, "x": 1},
    {"variant": "jingzhou", "form": {**form(3), "winner": 0, "concealed": ["1m"]}},
    {"variant": "jingzhou", "form": {**form(3), "winner": 3}},
    {"variant": "jingzhou", "form": {**form(3), "how": "tsumo"}},
    {"variant": "jingzhou", "form": {**form(3), "melds": [[{"kind": "pung", "tile": 1}], [], []]}},
    {"variant": "jingzhou", "form": {**form(3), "facts": []}},
    {"variant": 7, "form": form(3)},
    # A number that is no tile where a tile is named (hypothesis found -1 crashing 晃晃).
    {"variant": "huanghuang", "form": {**form(4), "indicator": -1}},
    {"variant": "jingzhou", "form": {**form(3), "win_tile": 42}},
])
def test_a_form_the_page_never_sends_is_400(body: dict[str, Any]) -> None:
    answer = post("/api/score/hand", body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "malformed"


def test_form_error_is_a_malformed_laizi_error() -> None:
    with pytest.raises(FormError, match="outcome"):
        build_record("jingzhou", {}, {**form(3), "outcome": None})


def _any_form(seats: int) -> st.SearchStrategy[dict[str, Any]]:
    """Forms of every shape the page could send and many it never does: seats, tiles and
    meld kinds in and out of range."""
    seat = st.none() | st.integers(-1, seats)
    tile = st.none() | st.integers(-1, 45)
    meld = st.fixed_dictionaries({"kind": st.sampled_from([*MeldKind, "junk"]),
                                  "tile": tile, "from": st.integers(-1, seats)})
    return st.fixed_dictionaries({
        "dealer": st.integers(-1, seats), "outcome": st.sampled_from(["win", "draw"]),
        "winner": seat, "how": st.sampled_from(list(WinHow)), "from": seat,
        "after_kong": st.booleans(), "indicator": tile,
        "melds": st.lists(st.lists(meld, max_size=3), min_size=seats, max_size=seats),
        "flowers": st.just([[] for _ in range(seats)]),
        "concealed": st.lists(st.integers(0, 41), max_size=17),
        "win_tile": tile, "facts": st.just({})})


@settings(max_examples=300, deadline=None)
@given(data=st.data(), vid=st.sampled_from(["jingzhou", "huanghuang", "golden", "mcr",
                                            "taiwan"]))
def test_no_form_crashes_the_score_keeper(data: st.DataObject, vid: str) -> None:
    """Whatever the form, the answer is a verdict (200) or a typed refusal (400), never a
    server error: a chow from 8万, a flower as a meld's tile or an indicator the variant's
    wall does not have were 500s."""
    v = get(vid)
    body = {"variant": vid, "options": v.options_to_json(v.default_options()),
            "form": data.draw(_any_form(v.seats))}
    answer = post("/api/score/hand", body)
    assert answer.status_code in (200, 400), answer.text
    if answer.status_code == 400:
        assert answer.json()["error"]["code"] == "malformed"
