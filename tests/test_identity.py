"""People of the hall (issue 41, items 1 and 2): an identity without e-mail or phone,
its recovery code and device links, forged credentials refused, 战绩 only to its
person, dropping one device (a lost phone), the guest flow and migration 0004 (SQLite,
and PostgreSQL with ``LAIZI_TEST_PG_URL``)."""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import server_helpers
from server_helpers import pg_database

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from laizi.server import people as people_module
from laizi.server.app import create_app
from laizi.server.people import PERSON_HEADER, normalize_code
from laizi.server.storage import Store

pg_url, db = server_helpers.pg_url, server_helpers.db  # the fixtures (server_helpers)

ROOM = {"variant": "jingzhou"}


def _hall(db: str, **rates: str) -> TestClient:
    app = create_app(db, bot_processes=1, rates=rates or None)
    return TestClient(app, base_url="http://127.0.0.1:8765", client=("127.0.0.1", 50000))


@pytest.fixture
def hall(db: str) -> Iterator[TestClient]:
    with _hall(db, recover="1000/minute") as client:
        yield client


def _person(client: TestClient, name: str = "阿明") -> dict[str, str]:
    r = client.post("/api/me", json={"name": name})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _as(made: dict[str, str]) -> dict[str, str]:
    return {PERSON_HEADER: made["credential"]}


def _refused(r: Any, status: int = 401, code: str = "unknown_person") -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def _create(client: TestClient, name: str, headers: dict[str, str] | None = None) -> Any:
    return client.post("/api/rooms", json={"name": name, "settings": ROOM},
                       headers=headers or {})


def _altered(credential: str) -> list[str]:
    person, secret = credential.split(".")
    flip = "A" if secret[-1] != "A" else "B"
    other = "0" * len(person)
    return [f"{person}.{secret[:-1]}{flip}", f"{other}.{secret}", person, f"{person}.",
            f".{secret}", secret, f"{person}.{secret}x", "x" * 300]


def test_an_identity_is_created_and_used(hall: TestClient) -> None:
    made = _person(hall, "阿明")
    person, secret = made["credential"].split(".")
    assert made["id"] == person and made["name"] == "阿明" and len(secret) >= 43  # 256 bits
    me = hall.get("/api/me", headers=_as(made)).json()
    assert me == {"id": person, "name": "阿明", "devices": 1, "recovery": False}
    other = _person(hall, "阿明")  # names repeat, identities do not
    assert other["id"] != person
    r = _create(hall, "阿明", _as(made))
    assert r.status_code == 201, r.text
    rooms = hall.get("/api/me/history", headers=_as(made)).json()["rooms"]
    assert [(x["room"], x["name"], x["status"]) for x in rooms] == [
        (r.json()["code"], "阿明", "open")]
    assert hall.get("/api/me/history", headers=_as(other)).json()["rooms"] == []
    # joining under another name: the seat is still the person's, the name follows
    j = hall.post(f"/api/rooms/{r.json()['code']}/join", json={"name": "小红"},
                  headers=_as(other))
    assert j.status_code == 200, j.text
    assert hall.get("/api/me", headers=_as(other)).json()["name"] == "小红"
    (seen,) = hall.get("/api/me/history", headers=_as(other)).json()["rooms"]
    assert seen["room"] == r.json()["code"] and seen["name"] == "小红"
    # the secret is stored only hashed
    dumped = json.dumps(asyncio.run(_rows(hall.app.state.context.hall.store.url)))
    assert secret not in dumped and person in dumped


async def _rows(url: str) -> list[list[str]]:
    from sqlalchemy import select

    from laizi.server.people import PersonDeviceRow, PersonRow

    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            out = [[str(v) for v in row]
                   for table in (PersonRow, PersonDeviceRow)
                   for row in (await conn.execute(select(table))).all()]
    finally:
        await store.engine.dispose()
    return out


def test_a_forged_or_altered_identity_is_refused(hall: TestClient) -> None:
    made = _person(hall)
    for bad in _altered(made["credential"]):
        for r in (hall.get("/api/me", headers={PERSON_HEADER: bad}),
                  hall.get("/api/me/history", headers={PERSON_HEADER: bad}),
                  hall.post("/api/me/recovery", json={}, headers={PERSON_HEADER: bad}),
                  hall.post("/api/me/link", json={}, headers={PERSON_HEADER: bad}),
                  _create(hall, "阿明", {PERSON_HEADER: bad})):
            _refused(r)
    for path in ("/api/me", "/api/me/history"):
        _refused(hall.get(path))  # no identity at all
    assert hall.get("/api/me", headers=_as(made)).status_code == 200


def test_a_recovery_code_restores_the_identity_on_another_device(hall: TestClient) -> None:
    made = _person(hall)
    code = hall.post("/api/me/recovery", json={}, headers=_as(made)).json()["code"]
    groups = code.split("-")
    assert [len(g) for g in groups] == [5, 5, 5, 5]
    assert hall.get("/api/me", headers=_as(made)).json()["recovery"] is True
    typed = " ".join(groups).lower().replace("0", "o").replace("1", "l")  # as written
    restored = hall.post("/api/me/recover", json={"code": typed})
    assert restored.status_code == 200, restored.text
    second = restored.json()
    assert second["id"] == made["id"] and second["credential"] != made["credential"]
    assert hall.get("/api/me", headers=_as(second)).json()["devices"] == 2
    assert hall.get("/api/me", headers=_as(made)).status_code == 200  # both devices
    # a new code replaces the old one
    newer = hall.post("/api/me/recovery", json={}, headers=_as(second)).json()["code"]
    assert newer != code
    _refused(hall.post("/api/me/recover", json={"code": code}))
    assert hall.post("/api/me/recover", json={"code": newer}).json()["id"] == made["id"]
    wrong = "".join(random.choice(people_module.CODE_ALPHABET) for _ in range(20))
    for bad in (wrong, "", "not a code", 42, None, "A" * 64):
        _refused(hall.post("/api/me/recover", json={"code": bad}))


def test_recovery_attempts_are_rate_limited_per_address(db: str) -> None:
    with _hall(db, recover="3/minute") as hall:
        for _ in range(3):
            _refused(hall.post("/api/me/recover", json={"code": "0" * 20}))
        r = hall.post("/api/me/recover", json={"code": "0" * 20})
        _refused(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1


def test_a_device_link_adds_a_device_once(hall: TestClient,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    made = _person(hall)
    r = hall.post("/api/me/link", json={}, headers=_as(made))
    assert r.status_code == 200, r.text
    link = r.json()
    assert link["link"].startswith("http://127.0.0.1:8765/me/link/")
    assert link["qr"].lstrip().startswith("<svg") and link["seconds"] == 600
    token = link["link"].rsplit("/", 1)[1]
    page = hall.get(f"/me/link/{token}")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    took = hall.post(f"/api/me/link/{token}", json={})
    assert took.status_code == 200, took.text
    assert took.json()["id"] == made["id"] and took.json()["credential"] != made["credential"]
    assert hall.get("/api/me", headers=_as(took.json())).json()["devices"] == 2
    _refused(hall.post(f"/api/me/link/{token}", json={}))  # single use
    _refused(hall.post(f"/api/me/link/{token[:-1]}x", json={}))
    monkeypatch.setattr(people_module, "LINK_SECONDS", -1.0)
    stale = hall.post("/api/me/link", json={}, headers=_as(made)).json()["link"]
    _refused(hall.post(f"/api/me/link/{stale.rsplit('/', 1)[1]}", json={}))  # expired


def test_a_stranger_reads_no_history(hall: TestClient) -> None:
    made = _person(hall, "阿明")
    code = _create(hall, "阿明", _as(made)).json()["code"]
    stranger = _person(hall, "阿明")  # the very same name
    assert hall.get("/api/me/history", headers=_as(stranger)).json() == {
        "rooms": [], "stats": {}}
    _refused(hall.get("/api/me/history"))
    # the old name-based 战绩 is gone: nothing about the name, nor its live room
    for path in ("/api/people/阿明/history", "/api/people/%E9%98%BF%E6%98%8E/history"):
        r = hall.get(path)
        assert r.status_code == 404 and code not in r.text


def test_a_guest_plays_with_a_name_only(hall: TestClient) -> None:
    r = _create(hall, "阿明")
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    j = hall.post(f"/api/rooms/{code}/join", json={"name": "小红"})
    assert j.status_code == 200 and j.json()["role"] == "player", j.text
    made = _person(hall)
    h = hall.post(f"/api/rooms/{code}/join", json={"name": "老王"}, headers=_as(made))
    assert h.status_code == 200, h.text
    persons = asyncio.run(_member_persons(hall.app.state.context.hall.store.url, code))
    assert persons == {"阿明": None, "小红": None, "老王": made["id"]}


async def _member_persons(url: str, code: str) -> dict[str, str | None]:
    from sqlalchemy import select

    from laizi.server.storage import MemberRow

    store = Store(url)
    try:
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(MemberRow.name, MemberRow.person_id)
                                       .where(MemberRow.room == code))).all()
    finally:
        await store.engine.dispose()
    return {n: p for n, p in rows}


def test_recovery_codes_read_as_written() -> None:
    assert normalize_code("abcde fghjk-mnpqr stvwx") == "ABCDEFGHJKMNPQRSTVWX"
    assert normalize_code("OOOOO-IIIII-LLLLL-00000") == "00000111111111100000"
    for bad in ("ABCDE-FGHJK-MNPQR-STVWU", "ABCD", "A" * 21, 5):
        with pytest.raises(Exception, match="recovery code"):
            normalize_code(bad)


# ------------------------------------------------------------- 战绩 statistics


def _hand_line(number: int, seats: list[str]) -> str:
    return json.dumps({"type": "hand", "number": number, "dealer": 0, "seats": seats},
                      separators=(",", ":"), sort_keys=True)


def _end(number: int, net: dict[str, int], ledger: dict[str, int],
         record: dict[str, Any]) -> str:
    return json.dumps({"type": "hand_end", "number": number, "net": net, "ledger": ledger,
                       "record": record}, separators=(",", ":"), sort_keys=True)


def test_history_statistics_per_variant(db: str) -> None:
    """Hands, wins, 点炮, points, their average and the biggest hand, counted from the
    hands the person sat in under the name of each room."""
    from laizi.server.people_api import variant_stats

    async def go() -> None:
        store = Store(db)
        await store.setup()
        person = f"p{random.randrange(10**12)}"
        code = str(random.randrange(10**15, 10**16))
        seats = ["阿明", "🤖 1", "小红", "🤖 3"]
        await store.create_room(code, "jingzhou", {"variant": "jingzhou"}, "ab" * 32,
                                ['{"type":"table"}'])
        await store.add_member("t" + code, code, "阿明", "player", person=person)
        await store.add_member("u" + code, code, "小红", "player")
        ends = [
            _end(0, {"阿明": 12, "🤖 1": -12}, {"阿明": 12, "🤖 1": -12},
                 {"outcome": "win", "winners": [0], "how": "discard", "from": 1}),
            _end(1, {"阿明": -8, "小红": 8}, {"阿明": 4, "🤖 1": -12, "小红": 8},
                 {"outcome": "win", "winners": [2], "how": "discard", "from": 0}),
            _end(2, {"阿明": 30, "小红": -10, "🤖 1": -10, "🤖 3": -10},
                 {"阿明": 34, "🤖 1": -22, "小红": -2, "🤖 3": -10},
                 {"outcome": "win", "winners": [0], "how": "self_draw"}),
            _end(3, {}, {"阿明": 34, "🤖 1": -22, "小红": -2, "🤖 3": -10},
                 {"outcome": "draw"}),
        ]
        lines = [x for n, e in enumerate(ends) for x in (_hand_line(n, seats), e)]
        await store.append(code, 1, lines, [(n, e) for n, e in enumerate(ends)],
                           status="over")
        rooms = await store.history(person)
        assert [(r["room"], r["hands"], r["score"], r["name"]) for r in rooms] == [
            (code, 4, 34, "阿明")]
        assert await store.history("nobody") == []
        stats = await variant_stats(store, rooms)
        assert stats == {"jingzhou": {"hands": 4, "wins": 2, "dealt_in": 1, "points": 34,
                                      "average": 8.5, "biggest": 30}}
        await store.close()

    asyncio.run(go())


# ------------------------------------------------------------- migration 0004


def _upgrade_to(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config
    from sqlalchemy.ext.asyncio import create_async_engine

    def upgrade(sync_conn: Any) -> None:
        cfg = Config()
        cfg.set_main_option("script_location",
                            str(Path(people_module.__file__).parent / "migrations"))
        cfg.attributes["connection"] = sync_conn
        command.upgrade(cfg, revision)

    async def go() -> None:
        engine = create_async_engine(url)
        try:
            async with engine.begin() as conn:
                await conn.run_sync(upgrade)
        finally:
            await engine.dispose()

    asyncio.run(go())


def test_migration_0004_upgrades_a_0003_hall_with_rooms(tmp_path: Path,
                                                        request: pytest.FixtureRequest,
                                                        db: str) -> None:
    """A hall stored at 0003 with a room and its members: after the upgrade the members
    have no person (NULL), and people can be made and play."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    if "postgresql" in db:  # the module's database is migrated already: a fresh one
        base = os.environ["LAIZI_TEST_PG_URL"]
        manager = pg_database(base)
        loop = asyncio.new_event_loop()
        db = loop.run_until_complete(manager.__aenter__())
        request.addfinalizer(lambda: (loop.run_until_complete(
            manager.__aexit__(None, None, None)), loop.close()))
    _upgrade_to(db, "0003")
    code = str(random.randrange(10**15, 10**16))

    async def fill() -> None:
        engine = create_async_engine(db)
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO rooms (code, variant, settings, secret, status, created, "
                "updated) VALUES (:c, 'jingzhou', '{\"variant\": \"jingzhou\"}', :s, "
                "'over', 1, 1)"), {"c": code, "s": "ab" * 32})
            await conn.execute(text(
                "INSERT INTO members (token, room, name, role, created) VALUES "
                "(:t, :c, '阿明', 'player', 1), (:u, :c, '小红', 'spectator', 2)"),
                {"t": "t" + code, "u": "u" + code, "c": code})
        await engine.dispose()

    asyncio.run(fill())
    with _hall(db) as hall:  # the app's start migrates to the head
        persons = asyncio.run(_member_persons(db, code))
        assert persons == {"阿明": None, "小红": None}
        made = _person(hall)
        assert hall.get("/api/me/history", headers=_as(made)).json()["rooms"] == []
        assert _create(hall, "阿明", _as(made)).status_code == 201


def test_the_migrations_make_the_models_tables(db: str) -> None:
    """After the migrations the schema is the models' (nothing for Alembic to add)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from laizi.server import admin, scorekeeper  # noqa: F401  (their tables join Base)
    from laizi.server.storage import Base

    async def go() -> list[Any]:
        store = Store(db)
        await store.setup()
        try:
            async with store.engine.connect() as conn:
                return list(await conn.run_sync(
                    lambda sync: compare_metadata(MigrationContext.configure(sync),
                                                  Base.metadata)))
        finally:
            await store.close()

    diffs = asyncio.run(go())
    assert not diffs, diffs


# ----------------------------------------------- dropping one device (移除设备)


def _second_device(hall: TestClient, made: dict[str, str]) -> dict[str, str]:
    token = hall.post("/api/me/link", json={}, headers=_as(made)).json()["link"]
    took = hall.post(f"/api/me/link/{token.rsplit('/', 1)[1]}", json={})
    assert took.status_code == 200, took.text
    return dict(took.json())


def _devices(hall: TestClient, made: dict[str, str]) -> list[dict[str, object]]:
    r = hall.get("/api/me/devices", headers=_as(made))
    assert r.status_code == 200, r.text
    assert r.headers["cache-control"] == "no-store"
    return list(r.json()["devices"])


def test_a_dropped_device_is_refused_and_the_others_keep_working(hall: TestClient) -> None:
    phone = _person(hall)
    tablet = _second_device(hall, phone)
    seen = _devices(hall, phone)
    assert len(seen) == 2 and [d["current"] for d in seen] == [True, False]
    assert _devices(hall, tablet) == [{**d, "current": not d["current"]} for d in seen]
    # the public id tells nothing of the secret
    for d in seen:
        assert isinstance(d["id"], str) and len(d["id"]) == 16
        assert d["id"] not in phone["credential"] and d["id"] not in tablet["credential"]
    lost = seen[1]["id"]
    r = hall.delete(f"/api/me/devices/{lost}", headers=_as(phone))
    assert r.status_code == 200, r.text
    assert r.json() == {"dropped": lost, "devices": 1}
    _refused(hall.get("/api/me", headers=_as(tablet)))
    _refused(hall.post("/api/me/link", json={}, headers=_as(tablet)))
    assert hall.get("/api/me", headers=_as(phone)).json()["devices"] == 1
    assert [d["id"] for d in _devices(hall, phone)] == [seen[0]["id"]]
    # dropped once: a second time it is no device of the person's
    _refused(hall.delete(f"/api/me/devices/{lost}", headers=_as(phone)), 404,
             "unknown_device")


def test_a_device_may_drop_itself(hall: TestClient) -> None:
    phone = _person(hall)
    tablet = _second_device(hall, phone)
    me = next(d for d in _devices(hall, tablet) if d["current"])
    assert hall.delete(f"/api/me/devices/{me['id']}", headers=_as(tablet)).status_code == 200
    _refused(hall.get("/api/me", headers=_as(tablet)))
    assert hall.get("/api/me", headers=_as(phone)).status_code == 200


def test_nobody_drops_another_persons_device(hall: TestClient) -> None:
    ming, hong = _person(hall, "阿明"), _person(hall, "阿红")
    hongs = _devices(hall, hong)[0]["id"]
    for bad in (hongs, "0" * 16, "x", "0" * 64):
        _refused(hall.delete(f"/api/me/devices/{bad}", headers=_as(ming)), 404,
                 "unknown_device")
    assert hall.get("/api/me", headers=_as(hong)).status_code == 200  # nothing dropped
    # and without an identity, or with a forged one, nothing at all
    _refused(hall.delete(f"/api/me/devices/{hongs}"))
    forged = {**ming, "credential": ming["credential"][:-2] + "xx"}
    _refused(hall.delete(f"/api/me/devices/{hongs}", headers=_as(forged)))
    _refused(hall.get("/api/me/devices", headers=_as(forged)))
    assert hall.get("/api/me", headers=_as(hong)).status_code == 200
