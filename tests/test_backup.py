"""``laizi backup`` / ``laizi restore``: matches played to the end on a real hall, a
backup, a fresh database, the restore: every finished match comes back, its log the
same and accepted by ``laizi verify`` (SQLite; PostgreSQL too with LAIZI_TEST_PG_URL)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import httpx
import pytest

from laizi.cli import main
from laizi.commands.verify import verify_text
from server_helpers import (
    FAST,
    Client,
    Server,
    create_room,
    in_ci,
    my_history,
    new_person,
    pg_database,
    sqlite_url,
    unique,
)


def _play_matches(srv: Server) -> list[str]:
    """Two rooms played to their end (one by its hands, one ended by its host) and one
    left in play; the finished rooms' codes."""
    async def one(n: int, hands: int) -> str:
        host = unique(f"host{n}")
        room = create_room(srv, host, variant="jingzhou", hands=hands, **FAST)
        c = Client(srv, room["code"], room["token"], host, seed=n)
        await c.connect()
        await c.request("start")
        if n == 0:
            await c.play()
        else:
            await c.play(until=lambda c: len(c.acked) >= 3)
            assert (await c.request("end"))["op"] == "ack"
            await c.wait(lambda: c.over)
        await c.close()
        return str(room["code"])

    async def play() -> list[str]:
        codes = [await one(0, 1), await one(1, 2)]
        live = create_room(srv, unique("live"), variant="mcr", **FAST)
        c = Client(srv, live["code"], live["token"], "x")
        await c.connect()
        await c.close()
        return codes

    return asyncio.run(play())


def _logs(srv: Server, codes: list[str]) -> dict[str, str]:
    out = {}
    for code in codes:
        r = httpx.get(f"{srv.http}/api/rooms/{code}/log", timeout=10)
        assert r.status_code == 200, r.text
        out[code] = r.text
    return out


def _round_trip(tmp_path: Path, source: str, target: str) -> None:
    srv = Server(source, tmp_path).start()
    try:
        codes = _play_matches(srv)
        before = _logs(srv, codes)
        person = new_person(srv, unique("阿明"))  # a person and the seat they hold
        held = create_room(srv, unique("阿明"), person=person, variant="mcr", **FAST)
    finally:
        srv.stop()
    dump = tmp_path / "hall.backup"
    assert main(["backup", str(dump), "--db", source]) == 0
    head = json.loads(dump.read_text("utf-8").splitlines()[0])
    assert {"rooms", "members", "log_lines", "hands", "bans", "persons", "person_devices",
            "person_links"} <= set(head["tables"])
    assert person.split(".")[1] not in dump.read_text("utf-8")  # only hashes are stored
    # a database that already holds rows is refused, and nothing is written to it
    assert main(["restore", str(dump), "--db", source]) == 1
    # a backup cut short is refused
    cut = tmp_path / "cut.backup"
    cut.write_text("\n".join(dump.read_text("utf-8").splitlines()[:-1]) + "\n", "utf-8")
    assert main(["restore", str(cut), "--db", target]) == 1
    assert main(["restore", str(dump), "--db", target]) == 0
    srv2 = Server(target, tmp_path).start()
    try:
        after = _logs(srv2, codes)
        assert after == before
        for text in after.values():
            assert verify_text(text).startswith("ok:")
        for code in codes:
            assert httpx.get(f"{srv2.http}/api/rooms/{code}", timeout=5).json()["over"]
        # the person comes back with their device secret and 战绩
        assert [h["room"] for h in my_history(srv2, person)] == [held["code"]]
    finally:
        srv2.stop()
    again = tmp_path / "again.backup"
    assert main(["backup", str(again), "--db", target]) == 0
    rows = [json.loads(x) for x in again.read_text("utf-8").splitlines()]
    first = [json.loads(x) for x in dump.read_text("utf-8").splitlines()]
    # the same rows (the restored hall stored nothing new but its rooms' last touches)
    assert [r.get("t") for r in rows] == [r.get("t") for r in first]


def test_backup_wipe_restore_sqlite(tmp_path: Path) -> None:
    _round_trip(tmp_path, sqlite_url(tmp_path / "hall.db"),
                sqlite_url(tmp_path / "fresh.db"))


def test_backup_sqlite_restore_postgresql(tmp_path: Path) -> None:
    base = os.environ.get("LAIZI_TEST_PG_URL")
    if not base:
        if in_ci():
            pytest.fail("CI tests the restore into PostgreSQL: set LAIZI_TEST_PG_URL")
        pytest.skip("LAIZI_TEST_PG_URL is not set (PostgreSQL)")

    async def with_db() -> None:
        async with pg_database(base) as fresh:
            await asyncio.to_thread(_round_trip, tmp_path,
                                    sqlite_url(tmp_path / "hall.db"), fresh)

    asyncio.run(with_db())


def test_backup_of_a_missing_database_makes_none(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.db"
    assert main(["backup", str(tmp_path / "b.jsonl"), "--db", sqlite_url(missing)]) == 1
    assert not missing.exists()
    assert not (tmp_path / "b.jsonl").exists() and not (tmp_path / "b.jsonl.part").exists()
