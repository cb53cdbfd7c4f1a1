"""The score-keeper on every phone (issue 41, item 7; laizi.server.score_sessions): a
session joined by its link's secret, members only may write, a stale version is a typed
conflict that changes nothing, and a session stored before migration 0006 keeps working
(SQLite, and PostgreSQL with ``LAIZI_TEST_PG_URL``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

import server_helpers
from server_helpers import sqlite_url

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from laizi.server.app import create_app
from laizi.server.people import PERSON_HEADER

pg_url, db = server_helpers.pg_url, server_helpers.db  # the fixtures (server_helpers)

HAND = {"variant": "taiwan", "dealer": 0, "outcome": "win", "winners": [1],
        "how": "self_draw", "tile": "3p",
        "seats": [{}, {"concealed": "123m456m789m123p45p11s"}, {}, {}],
        "taiwan": {"prevalent_wind": "东"}}
NAMES = ["东家", "南家", "西家", "北家"]


@pytest.fixture
def hall(db: str) -> Iterator[TestClient]:
    app = create_app(db, bot_processes=1)
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as client:
        yield client


def _person(hall: TestClient, name: str) -> dict[str, str]:
    r = hall.post("/api/me", json={"name": name})
    assert r.status_code == 201, r.text
    return {PERSON_HEADER: r.json()["credential"]}


def _session(hall: TestClient, who: dict[str, str]) -> dict[str, Any]:
    """A session of a club ``who`` makes first (a session's club has the maker for a
    member: tests/test_club_score.py)."""
    r = hall.post("/api/clubs", json={"name": "周五"}, headers=who)
    assert r.status_code == 201, r.text
    club = r.json()["id"]
    r = hall.post("/api/score/sessions", json={"variant": "taiwan", "names": NAMES,
                                               "club": club}, headers=who)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    assert made["member"] is True and made["version"] == 0 and made["club"] == club
    assert made["closed"] is None
    return made


def _secret(hall: TestClient, sid: str, who: dict[str, str]) -> str:
    r = hall.get(f"/api/score/sessions/{sid}/link", headers=who)
    assert r.status_code == 200, r.text
    link = urlsplit(r.json()["link"])
    assert parse_qs(link.query) == {"s": [sid]} and r.json()["qr"].startswith("<svg")
    assert link.fragment.startswith("join=")  # never sent to a server: no log holds it
    return link.fragment.removeprefix("join=")


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def test_a_member_joins_by_the_link_and_both_write(hall: TestClient) -> None:
    ann, bob = _person(hall, "阿安"), _person(hall, "阿博")
    sid = _session(hall, ann)["id"]
    secret = _secret(hall, sid, ann)
    seen = hall.get(f"/api/score/sessions/{sid}", headers=bob).json()
    assert seen["member"] is False and seen["members"] == ["阿安"]
    joined = hall.post(f"/api/score/sessions/{sid}/join", json={"secret": secret},
                       headers=bob).json()
    assert joined["member"] is True and joined["members"] == ["阿安", "阿博"]
    # joining twice changes nothing
    again = hall.post(f"/api/score/sessions/{sid}/join", json={"secret": secret}, headers=bob)
    assert again.json()["members"] == ["阿安", "阿博"]
    r = hall.post(f"/api/score/sessions/{sid}/hands", json={"record": HAND, "version": 0},
                  headers=ann)
    assert r.status_code == 201, r.text
    assert r.json()["version"] == 1 and r.json()["hands"][0]["by"] == "阿安"
    assert hall.get(f"/api/score/sessions/{sid}/version").json() == {"version": 1}
    r = hall.post(f"/api/score/sessions/{sid}/hands", json={"record": HAND, "version": 1},
                  headers=bob)
    assert r.status_code == 201, r.text
    after = r.json()
    assert [h["n"] for h in after["hands"]] == [0, 1] and after["hands"][1]["by"] == "阿博"
    assert after["ledger"] == [2 * x for x in after["hands"][0]["settlement"]["net"]]
    assert sum(after["ledger"]) == 0
    # any member takes the last hand back, of the version their phone shows
    r = hall.delete(f"/api/score/sessions/{sid}/hands/last?version=2", headers=ann)
    assert r.status_code == 200, r.text
    assert len(r.json()["hands"]) == 1 and r.json()["version"] == 3


def test_a_stranger_without_the_secret_changes_nothing(hall: TestClient) -> None:
    ann, eve = _person(hall, "阿安"), _person(hall, "伊芙")
    sid = _session(hall, ann)["id"]
    hall.post(f"/api/score/sessions/{sid}/hands", json={"record": HAND}, headers=ann)
    before = hall.get(f"/api/score/sessions/{sid}").json()
    for who in (eve, {}):  # a stranger with an identity, and none
        _refused(hall.post(f"/api/score/sessions/{sid}/hands",
                           json={"record": HAND, "version": 1}, headers=who),
                 403, "score_members_only")
        _refused(hall.delete(f"/api/score/sessions/{sid}/hands/last", headers=who),
                 403, "score_members_only")
        _refused(hall.get(f"/api/score/sessions/{sid}/link", headers=who),
                 403, "score_members_only")
    for wrong in ("x" * 22, "", None, 7):
        _refused(hall.post(f"/api/score/sessions/{sid}/join", json={"secret": wrong},
                           headers=eve), 403, "score_members_only")
    _refused(hall.post(f"/api/score/sessions/{sid}/hands", json={"record": HAND},
                       headers={PERSON_HEADER: "forged.identity"}), 401, "unknown_person")
    after = hall.get(f"/api/score/sessions/{sid}").json()
    assert after == before and after["members"] == ["阿安"]


def test_the_second_of_two_entries_is_a_conflict_that_changes_nothing(
        hall: TestClient) -> None:
    ann, bob = _person(hall, "阿安"), _person(hall, "阿博")
    sid = _session(hall, ann)["id"]
    hall.post(f"/api/score/sessions/{sid}/join", json={"secret": _secret(hall, sid, ann)},
              headers=bob)
    # both phones show version 0; Ann's hand lands first
    first = hall.post(f"/api/score/sessions/{sid}/hands", json={"record": HAND, "version": 0},
                      headers=ann)
    assert first.status_code == 201, first.text
    before = hall.get(f"/api/score/sessions/{sid}").json()
    _refused(hall.post(f"/api/score/sessions/{sid}/hands", json={"record": HAND, "version": 0},
                       headers=bob), 409, "stale_version")
    _refused(hall.delete(f"/api/score/sessions/{sid}/hands/last?version=0", headers=bob),
             409, "stale_version")
    _refused(hall.post(f"/api/score/sessions/{sid}/hands",
                       json={"record": HAND, "version": "x"}, headers=bob), 400, "malformed")
    assert hall.get(f"/api/score/sessions/{sid}").json() == before
    assert len(before["hands"]) == 1 and before["version"] == 1


def test_a_client_without_an_identity_gets_a_guest_one(hall: TestClient) -> None:
    r = hall.post("/api/score/sessions", json={"variant": "taiwan", "names": NAMES})
    assert r.status_code == 201, r.text
    made = r.json()
    guest = {PERSON_HEADER: made["credential"]}
    assert made["member"] is True and made["club"] is None
    r = hall.post(f"/api/score/sessions/{made['id']}/hands", json={"record": HAND},
                  headers=guest)
    assert r.status_code == 201, r.text
    assert "credential" not in hall.get(f"/api/score/sessions/{made['id']}").json()
    _refused(hall.post("/api/score/sessions", json={"variant": "taiwan", "names": NAMES,
                                                    "club": ""}), 400, "malformed")


def test_a_session_stored_before_0006_is_claimed_by_its_first_phone(
        tmp_path: Path) -> None:
    """A 0004 hall's session (no secret, no member, hands without who entered them):
    after the upgrade it reads as before and the first phone that joins claims it."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    from test_identity import _upgrade_to

    db = sqlite_url(tmp_path / "old.db")
    _upgrade_to(db, "0004")

    async def fill() -> None:
        engine = create_async_engine(db)
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO score_sessions (id, variant, options, names, created, updated) "
                "VALUES ('old', 'taiwan', '{}', :n, 1, 1)"),
                {"n": '["东家", "南家", "西家", "北家"]'})
            await conn.execute(text(
                "INSERT INTO score_hands (session, n, record, settlement, created) VALUES "
                "('old', 0, '{}', :s, 1)"), {"s": '{"net": [-1, 3, -1, -1], "payments": []}'})
        await engine.dispose()

    asyncio.run(fill())
    app = create_app(db, bot_processes=1)
    with TestClient(app, base_url="http://127.0.0.1:8765") as hall:
        old = hall.get("/api/score/sessions/old").json()
        assert old["ledger"] == [-1, 3, -1, -1] and old["version"] == 0
        assert old["claimable"] is True and old["members"] == []
        ann, eve = _person(hall, "阿安"), _person(hall, "伊芙")
        claimed = hall.post("/api/score/sessions/old/join", json={}, headers=ann).json()
        assert claimed["member"] is True and claimed["claimable"] is False
        _refused(hall.post("/api/score/sessions/old/join", json={}, headers=eve),
                 403, "score_members_only")
        r = hall.post("/api/score/sessions/old/hands", json={"record": HAND, "version": 0},
                      headers=ann)
        assert r.status_code == 201, r.text
        assert [h["n"] for h in r.json()["hands"]] == [0, 1]
        assert _secret(hall, "old", ann)


def test_phones_racing_for_the_same_hand_store_it_once(hall: TestClient) -> None:
    """Five phones send a hand at once, each showing version 0: one is stored, as hand 1;
    the others are ``409 stale_version`` (never a second "hand 1", never a 500)."""
    import httpx

    ann = _person(hall, "阿安")
    sid = _session(hall, ann)["id"]

    async def race() -> list[int]:
        transport = httpx.ASGITransport(app=hall.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8765",
                                     headers=ann) as client:
            answers = await asyncio.gather(*(
                client.post(f"/api/score/sessions/{sid}/hands",
                            json={"record": HAND, "version": 0}) for _ in range(5)))
        return sorted(r.status_code for r in answers)

    # on the app's own event loop (the one its database engine was made on)
    assert hall.portal is not None
    assert hall.portal.call(race) == [201, 409, 409, 409, 409]
    after = hall.get(f"/api/score/sessions/{sid}").json()
    assert [h["n"] for h in after["hands"]] == [0] and after["version"] == 1


def test_the_join_link_is_one_phones_can_open(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A session started on the hall's own machine (its page on 127.0.0.1) gives a join
    link at the LAN address, as a room's share link (GET /api/share)."""
    from laizi.server import lan

    monkeypatch.setattr(lan, "_SOURCES", (lambda: [("wlan0", "192.168.1.23")],))
    app = create_app(sqlite_url(tmp_path / "hall.db"), bot_processes=1, listen_host="0.0.0.0")
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as hall:
        ann = _person(hall, "阿安")
        sid = _session(hall, ann)["id"]
        link = hall.get(f"/api/score/sessions/{sid}/link", headers=ann).json()["link"]
        assert link.startswith(f"http://192.168.1.23:8765/score?s={sid}#join=")
