"""Browser safety (issue 42): the origin rule on the websocket and on requests that change
something, JSON-only bodies, and the security headers of every answer
(src/laizi/server/headers.py, docs/hall.md "Browser safety").

Against a real ``laizi serve`` on a loopback port (SQLite in a temporary directory),
started with ``--allow-origin`` and ``LAIZI_ALLOW_ORIGINS``; the proxy cases call the
middleware's rule directly. The browser itself under the CSP: tests/test_browser.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from server_helpers import in_ci  # skips this module without the server extras (not in CI)

if not in_ci():
    pytest.importorskip("alembic")

import websockets
from websockets.typing import Origin

from laizi.server.headers import BrowserSafety, csp, inline_script_hashes, normalize_origin
from server_helpers import (
    FAST,
    HTTP,
    LAIZI,
    Client,
    Server,
    create_room,
    sqlite_hall,
    sqlite_url,
    unique,
)

FLAG_ORIGIN = "https://friends.example"
ENV_ORIGINS = "http://other.example:9000, https://third.example"
FOREIGN = "https://evil.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with sqlite_hall(tmp_path_factory, "browser-safety",
                     extra_args=("--allow-origin", FLAG_ORIGIN),
                     env={"LAIZI_ALLOW_ORIGINS": ENV_ORIGINS}) as srv:
        yield srv


def _own(server: Server) -> str:
    return f"http://127.0.0.1:{server.port}"


def _refused(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["code"] == code and error["message"], error


# --------------------------------------------------------------------------- websocket


def test_a_foreign_origin_websocket_is_refused_and_a_same_origin_one_works(
        server: Server) -> None:
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    url = f"{server.ws}/ws/{room['code']}?token={room['token']}"

    async def go() -> None:
        for origin in (FOREIGN, "null", f"http://127.0.0.1:{server.port + 1}",
                       f"https://127.0.0.1:{server.port}.evil.example"):
            async with websockets.connect(url, origin=Origin(origin)) as ws:
                frame = json.loads(await ws.recv())
                assert frame["op"] == "error", frame
                assert frame["error"]["code"] == "forbidden_origin", frame
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await ws.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
        for origin in (_own(server), FLAG_ORIGIN, "http://other.example:9000", "https://third.example"):
            async with websockets.connect(url, origin=Origin(origin)) as ws:
                frame = json.loads(await ws.recv())
                assert frame["op"] == "state", (origin, frame)
        # No Origin at all (laizi connect, scripts): plays as before.
        client = Client(server, room["code"], room["token"], "host")
        await client.connect()
        assert (await client.request("ping"))["op"] == "ack"
        await client.close()

    asyncio.run(go())


# --------------------------------------------------------------------------- requests


def test_a_foreign_origin_post_is_403_and_changes_nothing(server: Server) -> None:
    rooms = server.health()["rooms"]
    body = {"name": unique("mallory"), "settings": {**FAST, "variant": "jingzhou"}}
    for headers in ({"Origin": FOREIGN}, {"Origin": "null"},
                    {"Origin": f"http://127.0.0.1:{server.port + 1}"},
                    {"Referer": f"{FOREIGN}/page?x=1"}):
        _refused(HTTP.post(f"{server.http}/api/rooms", json=body, headers=headers), 403,
                 "forbidden_origin")
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    assert server.health()["rooms"] == rooms + 1
    before = HTTP.get(f"{server.http}/api/rooms/{room['code']}").json()
    _refused(HTTP.post(f"{server.http}/api/rooms/{room['code']}/join",
                       json={"name": unique("mallory")}, headers={"Origin": FOREIGN}),
             403, "forbidden_origin")
    assert HTTP.get(f"{server.http}/api/rooms/{room['code']}").json() == before
    _refused(HTTP.post(f"{server.http}/api/score/sessions",
                       json={"variant": "jingzhou", "names": ["a", "b", "c", "d"]},
                       headers={"Origin": FOREIGN}), 403, "forbidden_origin")
    r = HTTP._client().delete(f"{server.http}/api/score/sessions/x/hands/last",
                              headers={"Origin": FOREIGN})
    _refused(r, 403, "forbidden_origin")
    # A GET from anywhere is still answered (nothing changes).
    r = HTTP.get(f"{server.http}/api/rooms/{room['code']}", headers={"Origin": FOREIGN})
    assert r.status_code == 200, r.text


def test_own_and_allowed_origins_and_no_origin_may_post(server: Server) -> None:
    for headers in ({}, {"Origin": _own(server)}, {"Referer": f"{_own(server)}/r/1?t=x"},
                    {"Origin": FLAG_ORIGIN}, {"Origin": "http://other.example:9000"},
                    {"Origin": "https://third.example"},
                    {"Origin": "https://friends.example:443"}):
        r = HTTP.post(f"{server.http}/api/rooms", headers=headers,
                      json={"name": unique("ann"), "settings": {**FAST, "variant": "jingzhou"}})
        assert r.status_code == 201, (headers, r.text)


def test_a_post_that_is_not_json_is_415(server: Server) -> None:
    rooms = server.health()["rooms"]
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    body = json.dumps({"name": unique("ann"), "settings": {**FAST, "variant": "jingzhou"}})
    paths = ["/api/rooms", f"/api/rooms/{room['code']}/join", "/api/score",
             "/api/score/check", "/api/score/sessions", "/api/score/sessions/x/hands"]
    for path in paths:
        for kind in (None, "text/plain", "text/plain;charset=UTF-8",
                     "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                     "application/jsonx"):
            headers = {} if kind is None else {"Content-Type": kind}
            r = HTTP.post(f"{server.http}{path}", content=body, headers=headers)
            _refused(r, 415, "not_json")
    assert server.health()["rooms"] == rooms + 1
    r = HTTP.post(f"{server.http}/api/rooms", content=body,
                  headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert r.status_code == 201, r.text


# --------------------------------------------------------------------------- headers

HEADERS = {"x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
           "x-frame-options": "DENY"}


def test_every_answer_carries_the_security_headers(server: Server) -> None:
    room = create_room(server, unique("host"), variant="jingzhou", **FAST)
    code = room["code"]
    answers = [HTTP.get(f"{server.http}{path}") for path in (
        "/", f"/r/{code}", "/score", f"/replay/{code}", "/healthz", "/api/variants",
        f"/api/rooms/{code}", "/api/rooms/999999", "/api/share", "/static/js/app.js",
        "/static/tiles/1m.svg", "/no/such/page", f"/api/rooms/{code}/records")]
    answers.append(HTTP.post(f"{server.http}/api/rooms", json={"name": 5}))  # 400
    answers.append(HTTP.post(f"{server.http}/api/rooms", json={},
                             headers={"Origin": FOREIGN}))  # 403
    answers.append(HTTP.post(f"{server.http}/api/rooms", content=b"x"))  # 415
    answers.append(HTTP.post(f"{server.http}/api/score", json={"x": "y" * 70_000}))  # 413
    for r in answers:
        where = f"{r.request.method} {r.request.url} {r.status_code}"
        for name, value in HEADERS.items():
            assert r.headers.get(name) == value, (where, name, r.headers)
        policy = r.headers.get("content-security-policy", "")
        directives = {d.split()[0]: d.split()[1:] for d in policy.split("; ") if d}
        assert directives["default-src"] == ["'self'"], (where, policy)
        assert directives["script-src"][0] == "'self'", (where, policy)
        assert all(s.startswith("'sha256-") for s in directives["script-src"][1:]), policy
        assert directives["style-src"] == ["'self'"], policy
        assert directives["img-src"] == ["'self'", "data:"], policy
        assert directives["connect-src"] == [
            "'self'", f"ws://127.0.0.1:{server.port}", f"wss://127.0.0.1:{server.port}"]
        assert directives["frame-ancestors"] == ["'none'"], policy
        assert directives["base-uri"] == ["'none'"], policy
        assert directives["form-action"] == ["'self'"], policy
    assert {r.status_code for r in answers} >= {200, 400, 403, 404, 413, 415}


def test_the_csp_allows_the_import_map_and_no_other_inline_script() -> None:
    from laizi.server.headers import INDEX

    page = INDEX.read_text(encoding="utf-8")
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page)
    assert inline == ['<script type="importmap">'], inline  # one, hashed
    hashes = inline_script_hashes()
    assert len(hashes) == 1
    policy = csp("hall.example", hashes)
    assert f"script-src 'self' {hashes[0]};" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "ws://hall.example" in csp("hall.example")
    assert "ws:" not in csp("evil; script-src *")  # an odd Host is left out


# --------------------------------------------------------------------------- the rule


def _scope(kind: str, scheme: str, host: str) -> dict[str, Any]:
    return {"type": kind, "scheme": scheme, "headers": [(b"host", host.encode())]}


async def _app(scope: Any, receive: Any, send: Any) -> None:  # pragma: no cover
    raise AssertionError("not called")


def test_the_origin_rule_behind_a_proxy() -> None:
    rule = BrowserSafety(_app, ["https://friends.example", "http://LAN.example:8000/"])
    # A TLS proxy that says so (X-Forwarded-Proto: https): the https page only.
    assert rule.allows(_scope("http", "https", "hall.example"), "https://hall.example")
    assert not rule.allows(_scope("http", "https", "hall.example"), "http://hall.example")
    assert rule.allows(_scope("websocket", "wss", "hall.example"), "https://hall.example")
    # A TLS proxy that does not: the hall sees http, the page is https.
    assert rule.allows(_scope("http", "http", "hall.example"), "https://hall.example")
    assert rule.allows(_scope("http", "http", "hall.example:8765"),
                       "http://hall.example:8765")
    assert rule.allows(_scope("http", "http", "HALL.example"), "https://hall.EXAMPLE")
    for foreign in ("https://hall.example.evil.example", "https://evil.example",
                    "https://hall.example:444", "http://hall.example:8765", "null",
                    "file://", "", "https://"):
        assert not rule.allows(_scope("http", "http", "hall.example"), foreign), foreign
    # The configured ones, from anywhere.
    assert rule.allows(_scope("http", "https", "hall.example"), "https://friends.example")
    assert rule.allows(_scope("http", "https", "hall.example"), "http://lan.example:8000")
    assert not rule.allows(_scope("http", "https", "hall.example"), "http://friends.example")
    # A Host the client wrote oddly never matches.
    assert not rule.allows(_scope("http", "http", "hall.example/x"), "http://hall.example")


def test_allowed_origins_are_checked_when_the_hall_starts(tmp_path: Any) -> None:
    assert normalize_origin("HTTPS://Friends.Example:443/") == "https://friends.example"
    assert normalize_origin("http://[::1]:8000") == "http://[::1]:8000"
    for bad in ("friends.example", "https://friends.example/page", "ftp://x.example",
                "https://u@friends.example", "https://x.example?q=1"):
        with pytest.raises(ValueError):
            normalize_origin(bad)
    db = sqlite_url(tmp_path / "hall.db")
    for args, env in ((["--allow-origin", "friends.example"], {}),
                      ([], {"LAIZI_ALLOW_ORIGINS": "https://ok.example,/nope"})):
        done = subprocess.run([str(LAIZI), "serve", "--port", "1", "--db", db, *args],
                              capture_output=True, text=True, timeout=60,
                              env={**os.environ, **env})
        assert done.returncode == 2, done
        assert "not an origin" in done.stderr, done.stderr
