"""Clubs (亲友圈, issue 41 items 2-3): create, invite, approve, managers, leave; the
club's page for members only; member-only rooms refuse strangers; a person's 战绩 to
them and their fellow members only; migration 0005 makes the models' tables (SQLite,
and PostgreSQL with ``LAIZI_TEST_PG_URL``)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

import server_helpers

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from laizi.server.app import create_app
from laizi.server.people import PERSON_HEADER
from laizi.server.storage import Store

pg_url, db = server_helpers.pg_url, server_helpers.db  # the fixtures (server_helpers)


@pytest.fixture
def hall(db: str) -> Iterator[TestClient]:
    app = create_app(db, bot_processes=1)
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as client:
        yield client


def _person(client: TestClient, name: str) -> dict[str, str]:
    r = client.post("/api/me", json={"name": name})
    assert r.status_code == 201, r.text
    made = dict(r.json())
    made["h"] = made["credential"]
    return made


def _as(made: dict[str, str]) -> dict[str, str]:
    return {PERSON_HEADER: made["credential"]}


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] == code, r.text


def _club(hall: TestClient, owner: dict[str, str], **settings: Any) -> str:
    r = hall.post("/api/clubs", json={"name": "周五麻将", "settings": settings},
                  headers=_as(owner))
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def _join(hall: TestClient, club: str, manager: dict[str, str],
          person: dict[str, str]) -> None:
    invite = hall.get(f"/api/clubs/{club}", headers=_as(manager)).json()["club"]["invite"]
    assert hall.get(f"/api/clubs/invite/{invite}").json() == {"id": club, "name": "周五麻将"}
    asked = hall.post(f"/api/clubs/invite/{invite}", json={}, headers=_as(person))
    assert asked.json() == {"id": club, "status": "requested"}, asked.text
    r = hall.post(f"/api/clubs/{club}/requests/{person['id']}", json={"approve": True},
                  headers=_as(manager))
    assert r.status_code == 200, r.text


def test_a_club_from_invite_to_members(hall: TestClient) -> None:
    ming, hong, wang = (_person(hall, n) for n in ("阿明", "小红", "老王"))
    club = _club(hall, ming, variant="huanghuang")
    page = hall.get(f"/api/clubs/{club}", headers=_as(ming)).json()
    assert page["me"]["role"] == "manager"
    assert page["club"]["settings"]["variant"] == "huanghuang"
    assert page["club"]["link"].endswith("/c/" + page["club"]["invite"])
    assert page["club"]["qr"].lstrip().startswith("<svg")
    assert [m["name"] for m in page["members"]] == ["阿明"] and page["members"][0]["online"]
    # a stranger sees nothing of the club but its name by the invite
    _refused(hall.get(f"/api/clubs/{club}", headers=_as(hong)), 403, "not_club_member")
    _refused(hall.get(f"/api/clubs/{club}"), 401, "unknown_person")
    _refused(hall.get("/api/clubs/0123456789abcdef", headers=_as(hong)), 404, "unknown_club")
    _join(hall, club, ming, hong)
    assert hall.get("/api/clubs", headers=_as(hong)).json()["clubs"] == [
        {"id": club, "name": "周五麻将", "role": "member"}]
    # a member cannot approve, make managers or change the rules
    invite = hall.get(f"/api/clubs/{club}", headers=_as(hong)).json()["club"]["invite"]
    hall.post(f"/api/clubs/invite/{invite}", json={}, headers=_as(wang))
    _refused(hall.post(f"/api/clubs/{club}/requests/{wang['id']}", json={"approve": True},
                       headers=_as(hong)), 403, "not_club_manager")
    assert hall.get(f"/api/clubs/{club}", headers=_as(hong)).json()["requests"] == []
    assert [r["name"] for r in hall.get(f"/api/clubs/{club}", headers=_as(ming))
            .json()["requests"]] == ["老王"]
    assert hall.post(f"/api/clubs/{club}/requests/{wang['id']}", json={"approve": False},
                     headers=_as(ming)).status_code == 200
    _refused(hall.get(f"/api/clubs/{club}", headers=_as(wang)), 403, "not_club_member")
    # managers: the last one may not go; a second one may, and may remove
    _refused(hall.post(f"/api/clubs/{club}/leave", json={}, headers=_as(ming)), 400,
             "table_rule")
    assert hall.post(f"/api/clubs/{club}/members/{hong['id']}", json={"role": "manager"},
                     headers=_as(ming)).status_code == 200
    assert hall.post(f"/api/clubs/{club}/leave", json={}, headers=_as(ming)).status_code == 200
    _refused(hall.get(f"/api/clubs/{club}", headers=_as(ming)), 403, "not_club_member")
    r = hall.post(f"/api/clubs/{club}/settings", json={"settings": {"variant": "mcr"}},
                  headers=_as(hong))
    assert r.json()["settings"]["variant"] == "mcr", r.text
    # a new invite: the old link stops working
    new = hall.post(f"/api/clubs/{club}/invite", json={}, headers=_as(hong)).json()
    assert new["invite"] != invite
    _refused(hall.get(f"/api/clubs/invite/{invite}"), 404, "unknown_club")


def test_member_only_rooms_refuse_strangers(hall: TestClient) -> None:
    ming, hong, stranger = (_person(hall, n) for n in ("阿明", "小红", "路人"))
    club = _club(hall, ming, variant="jingzhou", options={})
    _join(hall, club, ming, hong)
    r = hall.post(f"/api/clubs/{club}/rooms", json={"name": "阿明"}, headers=_as(ming))
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    assert hall.get(f"/api/rooms/{code}").json()["settings"]["variant"] == "jingzhou"
    _refused(hall.post(f"/api/rooms/{code}/join", json={"name": "路人"},
                       headers=_as(stranger)), 403, "members_only")
    _refused(hall.post(f"/api/rooms/{code}/join", json={"name": "路人", "role": "spectator"}),
             403, "members_only")  # a guest with the code and no identity
    ok = hall.post(f"/api/rooms/{code}/join", json={"name": "小红"}, headers=_as(hong))
    assert ok.status_code == 200 and ok.json()["role"] == "player", ok.text

    def online() -> dict[str, bool]:
        page = hall.get(f"/api/clubs/{club}", headers=_as(ming)).json()
        return {m["name"]: m["online"] for m in page["members"]}

    assert online() == {"阿明": True, "小红": False}  # 小红 never opened the club's page
    with hall.websocket_connect(f"/ws/{code}") as ws:  # at the club's table: online
        ws.send_json({"op": "hello", "token": ok.json()["token"]})
        assert ws.receive_json()["op"] == "state"
        assert online() == {"阿明": True, "小红": True}
    _refused(hall.post(f"/api/clubs/{club}/rooms", json={"name": "路人"},
                       headers=_as(stranger)), 403, "not_club_member")
    rooms = hall.get(f"/api/clubs/{club}", headers=_as(hong)).json()["rooms"]
    assert [x["code"] for x in rooms] == [code] and "小红" in rooms[0]["seats"]
    # a room outside any club still takes anybody
    open_room = hall.post("/api/rooms", json={"name": "路人", "settings": {
        "variant": "jingzhou"}}).json()["code"]
    assert hall.post(f"/api/rooms/{open_room}/join", json={"name": "小红"}).status_code == 200


def test_history_is_for_the_person_and_fellow_members(hall: TestClient) -> None:
    ming, hong, stranger = (_person(hall, n) for n in ("阿明", "小红", "路人"))
    club = _club(hall, ming)
    code = hall.post(f"/api/clubs/{club}/rooms", json={"name": "阿明"},
                     headers=_as(ming)).json()["code"]
    path = f"/api/persons/{ming['id']}/history"
    mine = hall.get(path, headers=_as(ming)).json()
    assert [r["room"] for r in mine["rooms"]] == [code]
    _refused(hall.get(path, headers=_as(stranger)), 403, "not_club_member")
    _refused(hall.get(path), 401, "unknown_person")
    _join(hall, club, ming, hong)
    theirs = hall.get(path, headers=_as(hong))
    assert theirs.status_code == 200, theirs.text
    # a fellow member is not told the code of a room still being played
    assert theirs.json()["rooms"] == [] and code not in theirs.text


def test_the_migrations_make_the_models_tables(db: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from laizi.server import admin, clubs, scorekeeper  # noqa: F401  (their tables)
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


def test_the_ledger_books_a_rooms_hands_on_either_backend(db: str) -> None:
    """A club room's finished hands, stored as the hall stores them, become chained
    entries summing to zero that the server's check accepts; appending again adds
    nothing (each hand once)."""
    from laizi.bots.registry import make_bot
    from laizi.server.club_books import Books
    from laizi.server.clubs import Clubs
    from laizi.server.people import People
    from laizi.table import deals
    from laizi.table.events import canonical
    from laizi.table.table import Table

    secret = deals.new_secret()
    table = Table("jingzhou", people=["阿明", "🤖 1", "🤖 2"], secret=secret)
    bot = make_bot("greedy", 0)
    for _ in range(2):
        table.start_hand()
        while table.in_hand:
            seat = table.to_act()[0]
            assert table.game is not None
            table.act(bot.choose(table.game.view(seat), table.legal_actions(seat)))

    async def go() -> None:
        store = Store(db)
        await store.setup()
        try:
            person = (await People(store).create("阿明")).person
            clubs = Clubs(store)
            books = Books(store, clubs)
            club = await clubs.create(person, "周五", {})
            code = str(random.randrange(10**15, 10**16))
            lines = [canonical(e) for e in table.log]
            await store.create_room(code, "jingzhou", {"variant": "jingzhou"},
                                    deals.secret_hex(secret), lines[:1])
            await store.add_member("t" + code, code, "阿明", "player", person=person)
            await clubs.add_room(club, code)
            hands = [(int(e["number"]), canonical({k: v for k, v in e.items() if k != "wall"}))
                     for e in table.log if e["type"] == "hand_end"]
            await store.append(code, 1, lines[1:], hands)
            await books.room_hands_stored(code)
            await books.sync(club)  # nothing new: no hand twice
            entries = await books.entries(club)
            assert [(e["seq"], e["hand"]) for e in entries] == [(0, 0), (1, 1)]
            assert all(sum(e["net"].values()) == 0 for e in entries)
            assert all(e["persons"] == ({"阿明": person} if "阿明" in e["net"] else {})
                       for e in entries)
            assert (await books.verify(club)).ok
            assert await books.count(club) == 2
            # a row changed in the database: the server's check says so at once
            from sqlalchemy import update

            from laizi.server.clubs import ClubLedgerRow

            async with store.engine.begin() as conn:
                await conn.execute(update(ClubLedgerRow).where(
                    ClubLedgerRow.club == club, ClubLedgerRow.seq == 0)
                    .values(evening="1999-01-01"))
            verdict = await books.verify(club)
            assert not verdict.ok and "entry 0" in str(verdict.problem)
        finally:
            await store.close()

    asyncio.run(go())


def test_a_club_room_counts_against_the_room_creation_limit(db: str) -> None:
    """Rooms made from a club's page are rooms like any other: the per-address limit on
    creating rooms (``--rate-create``) counts them, and refuses past it (429)."""
    app = create_app(db, bot_processes=1, rates={"create": "2/minute"})
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50001)) as hall:
        ming = _person(hall, "阿明")
        club = _club(hall, ming, variant="jingzhou", options={})
        for _ in range(2):
            r = hall.post(f"/api/clubs/{club}/rooms", json={"name": "阿明"}, headers=_as(ming))
            assert r.status_code == 201, r.text
        _refused(hall.post(f"/api/clubs/{club}/rooms", json={"name": "阿明"},
                           headers=_as(ming)), 429, "rate_limited")
        _refused(hall.post("/api/rooms", json={"name": "阿明", "settings": {
            "variant": "jingzhou"}}), 429, "rate_limited")  # one budget with /api/rooms
