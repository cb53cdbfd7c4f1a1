"""The operator's kit (docs/deploy.md): every ``laizi serve`` flag from an environment
variable, ``/metrics`` and ``/readyz``, and the drain on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest

from laizi.cli import build_parser
from laizi.commands.serve import env_name
from server_helpers import (
    FAST,
    Client,
    Server,
    check_clean,
    create_room,
    pass_only_answers,
    polls,
    redis_command,
    redis_for_tests,
    sqlite_url,
    stored_lines,
    stored_secret,
    unique,
)

ADMIN = {"Authorization": "Bearer tok-123"}


def _serve_args(argv: list[str]) -> Any:
    return build_parser(["serve", *argv]).parse_args(["serve", *argv])


def test_every_serve_flag_has_a_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_PORT", "9123")
    monkeypatch.setenv("LAIZI_DB", "sqlite+aiosqlite:///env.db")
    monkeypatch.setenv("LAIZI_WORKERS", "3")
    monkeypatch.setenv("LAIZI_ADMIN_TOKEN", "s3cret")
    monkeypatch.setenv("LAIZI_BOT_PROCESSES", "4")
    args = _serve_args([])
    assert (args.port, args.db, args.workers, args.admin_token, args.bot_processes) == \
        (9123, "sqlite+aiosqlite:///env.db", 3, "s3cret", 4)
    # the flag wins over its variable
    args = _serve_args(["--port", "9200", "--db", "sqlite+aiosqlite:///flag.db"])
    assert (args.port, args.db, args.workers) == (9200, "sqlite+aiosqlite:///flag.db", 3)
    # every flag's help names its variable
    parser = build_parser(["serve"])
    sub = next(a for a in parser._actions if hasattr(a, "choices") and a.choices)
    serve = sub.choices["serve"]
    for action in serve._actions:
        if action.option_strings and action.dest != "help":
            assert env_name(action.dest) in (action.help or ""), action.dest


def test_variables_of_every_kind_of_flag() -> None:
    """Flags another block may add (switches, repeatable ones, numbers) read theirs too."""
    import argparse

    from laizi.commands.serve import env_defaults

    p = argparse.ArgumentParser()
    p.add_argument("--trust-proxy", action="store_true")
    p.add_argument("--deflate", action=argparse.BooleanOptionalAction, default=True)
    p.add_argument("--limit-rate", type=float, default=1.0)
    p.add_argument("--ban", action="append", default=[])
    env_defaults(p, {"LAIZI_TRUST_PROXY": "yes", "LAIZI_DEFLATE": "0",
                     "LAIZI_LIMIT_RATE": "2.5", "LAIZI_BAN": "a, b"})
    args = p.parse_args([])
    assert (args.trust_proxy, args.deflate, args.limit_rate, args.ban) == \
        (True, False, 2.5, ["a", "b"])
    args = p.parse_args(["--deflate", "--limit-rate", "3"])
    assert (args.deflate, args.limit_rate) == (True, 3.0)


def test_a_bad_variable_is_refused_like_a_bad_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAIZI_PORT", "eighty")
    with pytest.raises(SystemExit) as stop:
        _serve_args([])
    assert stop.value.code == 2


def test_readyz_and_metrics_in_process(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from laizi.server.app import create_app

    app = create_app(sqlite_url(tmp_path / "hall.db"))
    with TestClient(app) as client:
        assert client.get("/readyz").json() == {"ready": True}
        assert client.get("/api/rooms/000000").status_code == 404
        text = client.get("/metrics").text
        assert 'laizi_rooms{status="live"}' in text
        assert 'laizi_errors_total{code="unknown_room"}' in text
        r = client.post("/api/rooms", json={"name": "ann", "settings": {"variant": "mcr"}})
        room = app.state.context.hall.rooms[r.json()["code"]]
        assert client.portal is not None
        client.portal.call(app.state.context.hall.drain, 1012)
        assert room.gone  # given up: nothing more happens to it in this process
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json() == {"ready": False}
        assert "laizi_ready 0.0" in client.get("/metrics").text


def test_not_ready_when_the_database_does_not_answer() -> None:
    from laizi.server.hall import Hall
    from laizi.server.storage import Store

    async def check() -> bool:
        hall = Hall(Store("postgresql+asyncpg://laizi@127.0.0.1:9/nowhere"))
        try:
            return await hall.ready()
        finally:
            await hall.store.close()

    assert asyncio.run(check()) is False


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} not in /metrics:\n{text}")


def _seat_actions(lines: tuple[str, ...], seat: int, skip: set[int]) -> list[dict[str, Any]]:
    out = []
    for i, line in enumerate(lines):
        e = json.loads(line)
        if e["type"] == "action" and e["action"]["seat"] == seat and i not in skip:
            out.append(e["action"])
    return out


def test_metrics_and_a_sigterm_during_play(tmp_path: Path) -> None:
    """A served hall counts what it does (/metrics); SIGTERM during play drains it: the
    connection is closed with 1012 (reconnect), the process exits, and every action it
    acknowledged is in the stored log, in order (an action sent but not answered may be
    stored once, or not at all)."""
    url = sqlite_url(tmp_path / "hall.db")
    srv = Server(url, tmp_path).start()
    try:
        assert httpx.get(f"{srv.http}/readyz", timeout=5).status_code == 200
        host = unique("ann")
        room = create_room(srv, host, variant="jingzhou", hands=20, **FAST)
        code = room["code"]

        async def play() -> tuple[Client, str, int | None]:
            c = Client(srv, code, room["token"], host, seed=5)
            await c.connect()
            await c.request("start")
            await c.play(until=lambda c: len(c.acked) >= 8)
            async with httpx.AsyncClient() as http:
                text = (await http.get(f"{srv.http}/metrics", timeout=5)).text
            playing = asyncio.create_task(c.play(until=lambda c: False, timeout=30))
            await c.wait(lambda: len(c.acked) >= 10)
            assert srv.proc is not None
            srv.proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(c.closed.wait(), 15)
            with contextlib.suppress(Exception):
                await playing
            return c, text, c.ws.close_code

        c, text, close_code = asyncio.run(play())
        assert _metric(text, "laizi_actions_total") >= 8
        assert _metric(text, "laizi_action_seconds_count") >= 8
        assert _metric(text, "laizi_storage_batch_seconds_count") >= 1
        assert _metric(text, 'laizi_rooms{status="live"}') == 1
        assert _metric(text, "laizi_people_online") == 1
        assert close_code == 1012
        assert srv.proc is not None
        srv.proc.wait(15)
        lines = stored_lines(url, code)
        stored = _seat_actions(lines, 0, pass_only_answers(lines, stored_secret(url, code)))
        acked = [a for _, a, _ in c.acked]
        assert len(acked) >= 10
        assert stored[:len(acked)] == acked
        assert len(stored) <= len(acked) + 1  # at most the one in flight
        assert "Traceback" not in srv.stderr(), srv.stderr()
        assert "laizi hall: drained: 1 room(s) given up" in srv.stderr(), srv.stderr()
        srv.start()  # and the room comes back from storage
        assert httpx.get(f"{srv.http}/api/rooms/{code}", timeout=5).json()["started"]
        check_clean(srv)
    finally:
        srv.kill()


async def _migrated(url: str) -> None:
    from laizi.server.storage import Store

    store = Store(url)
    try:
        await store.setup()
    finally:
        await store.close()


def test_metrics_are_the_halls_with_workers(tmp_path: Path) -> None:
    """``--workers 2``: whichever worker answers a scrape, the figures are the hall's
    (prometheus-client's multiprocess mode): the errors of requests spread over both
    workers are all counted, and the rooms of both are in every scrape."""
    with redis_for_tests(tmp_path) as redis:
        redis_command(redis, "FLUSHDB")
        url = sqlite_url(tmp_path / "hall.db")
        asyncio.run(_migrated(url))  # two workers on a new SQLite file would both migrate
        srv = Server(url, tmp_path, redis_url=redis,
                     extra_args=("--workers", "2", "--admin-token", "tok-123")).start()
        try:
            processes: set[str] = set()
            for _ in polls(60):  # both workers up (a new connection each: either answers)
                with contextlib.suppress(httpx.TransportError):
                    processes.add(httpx.get(f"{srv.http}/healthz").json()["process"])
                if len(processes) == 2:
                    break
            assert len(processes) == 2, processes
            for _ in range(4):  # its database and Redis answer, whichever worker is asked
                assert httpx.get(f"{srv.http}/readyz").json() == {"ready": True}
            for _ in range(30):
                assert httpx.get(f"{srv.http}/api/rooms/000000").status_code == 404
            for n in range(6):
                create_room(srv, f"p{n}", variant="mcr", **FAST)

            def scrape() -> str:
                return httpx.get(f"{srv.http}/metrics", timeout=5).text

            for _ in polls(20):  # the other worker's gauges: refreshed every 5 s
                if _metric(scrape(), 'laizi_rooms{status="live"}') == 6:
                    break
            for _ in range(4):  # the admin page lists the rooms of both workers
                rooms = httpx.get(f"{srv.http}/admin/api/rooms", headers=ADMIN).json()
                assert len(rooms) == 6, rooms
            for _ in range(6):
                text = scrape()
                assert _metric(text, 'laizi_errors_total{code="unknown_room"}') == 30
                assert _metric(text, 'laizi_rooms{status="live"}') == 6
                assert _metric(text, "laizi_storage_batch_seconds_count") >= 6
        finally:
            srv.stop()
            redis_command(redis, "FLUSHDB")
        assert srv.proc is not None and srv.proc.returncode in (0, -15)
        assert "Traceback" not in srv.stderr(), srv.stderr()


# --------------------------------------------------------------------------- admin

def test_no_admin_token_no_admin_routes(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from laizi.server.app import create_app

    with TestClient(create_app(sqlite_url(tmp_path / "hall.db"))) as client:
        assert client.get("/admin").status_code == 404
        assert client.get("/admin/api/rooms", headers=ADMIN).status_code == 404


def test_the_admin_api(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from laizi.server.app import create_app

    app = create_app(sqlite_url(tmp_path / "hall.db"), admin_token="tok-123")
    with TestClient(app) as client:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "tok-123"}):
            r = client.get("/admin/api/rooms", headers=headers)
            assert r.status_code == 401 and r.json()["error"]["code"] == "not_admin"
        r = client.post("/api/rooms", json={"name": "ann", "settings": {"variant": "mcr"}})
        assert r.status_code == 201
        code = r.json()["code"]
        rooms = client.get("/admin/api/rooms", headers=ADMIN).json()
        assert [room["code"] for room in rooms] == [code]
        # end a room
        assert client.post(f"/admin/api/rooms/{code}/end", headers=ADMIN,
                           json={}).json() == {"code": code, "over": True}
        assert client.get(f"/api/rooms/{code}").json()["over"]
        assert client.get("/admin/api/rooms", headers=ADMIN).json() == []
        assert client.post(f"/admin/api/rooms/{code}/end", headers=ADMIN,
                           json={}).status_code == 409
        # ban a name: refused with a typed error, nothing created
        assert client.post("/admin/api/bans", headers=ADMIN,
                           json={"kind": "name", "value": " bob "}).status_code == 201
        r = client.post("/api/rooms", json={"name": "bob", "settings": {"variant": "mcr"}})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
        assert client.post("/admin/api/bans", headers=ADMIN,
                           json={"kind": "nick", "value": "x"}).status_code == 400
        # ban an address (the test client's): joining is refused too
        r = client.post("/api/rooms", json={"name": "cy", "settings": {"variant": "mcr"}})
        other = r.json()["code"]
        assert client.post("/admin/api/bans", headers=ADMIN,
                           json={"kind": "address", "value": "testclient"}).status_code == 201
        r = client.post(f"/api/rooms/{other}/join", json={"name": "dee", "role": "player"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
        bans = client.get("/admin/api/bans", headers=ADMIN).json()
        assert [(b["kind"], b["value"]) for b in bans] == [("name", "bob"),
                                                           ("address", "testclient")]
        # stored: a new hall on the same database refuses them too
        assert client.delete("/admin/api/bans/address/testclient",
                             headers=ADMIN).status_code == 200
        r = client.post(f"/api/rooms/{other}/join", json={"name": "dee", "role": "player"})
        assert r.status_code == 200
    app2 = create_app(sqlite_url(tmp_path / "hall.db"), admin_token="tok-123")
    with TestClient(app2) as client:
        r = client.post("/api/rooms", json={"name": "bob", "settings": {"variant": "mcr"}})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"


def test_the_admin_page_in_a_browser(tmp_path: Path) -> None:
    """The page (zh, then en): the token opens it, a live room is listed and ended, a
    name is banned; no console error."""
    pytest.importorskip("playwright")
    from browser_helpers import People, launched

    srv = Server(sqlite_url(tmp_path / "hall.db"), tmp_path,
                 extra_args=("--admin-token", "tok-123")).start()
    try:
        code = create_room(srv, "ann", variant="mcr", **FAST)["code"]
        with launched() as chromium:
            people = People(chromium)
            try:
                pg = people.page(locale="zh-CN")
                pg.on("dialog", lambda d: d.accept())
                pg.goto(f"{srv.http}/admin")
                assert pg.locator("h1").text_content() == "牌馆管理"
                pg.fill("#token", "tok-123")
                pg.click("#login button")
                pg.wait_for_selector(f"tr[data-code='{code}']")
                pg.click(f"tr[data-code='{code}'] button")
                pg.wait_for_selector(f"tr[data-code='{code}']", state="detached")
                assert httpx.get(f"{srv.http}/api/rooms/{code}").json()["over"]
                pg.click("#lang")
                assert pg.locator("h1").text_content() == "Hall admin"
                pg.fill("#value", "mallory")
                pg.click("#ban button")
                pg.wait_for_selector("#bans li")
                assert "mallory" in (pg.locator("#bans").text_content() or "")
            finally:
                errors = people.close()
        assert not errors, errors
        r = httpx.post(f"{srv.http}/api/rooms",
                       json={"name": "mallory", "settings": {"variant": "mcr"}})
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned"
        check_clean(srv)
    finally:
        srv.kill()


_MIGRATE = """
import asyncio, sys
from laizi.server.storage import Store

async def main() -> None:
    store = Store(sys.argv[1])
    await store.setup()
    await store.close()

asyncio.run(main())
"""


def test_processes_starting_together_on_a_new_sqlite_file_migrate_in_turn(
        tmp_path: Path) -> None:
    """``--workers N`` on a brand-new SQLite file: every worker migrates the schema at
    start; without a lock two of them created the same tables ("table rooms already
    exists") and the hall did not start."""
    import subprocess
    import sys

    for attempt in range(3):
        url = f"sqlite+aiosqlite:///{tmp_path / f'hall{attempt}.db'}"
        procs = [subprocess.Popen([sys.executable, "-c", _MIGRATE, url],
                                  stderr=subprocess.PIPE) for _ in range(4)]
        answers = [(p.communicate(timeout=60)[1], p.returncode) for p in procs]
        failures = [err.decode() for err, code in answers if code != 0]
        assert not failures, failures[0]
