"""The hall's limits past one process, and whom it believes about a client's address
(issue 42):

* with Redis (``--redis``) the request limits are one budget for every process of the
  hall: two limiters on one Redis (as two processes hold) refuse together, and ``laizi
  serve --workers 2`` refuses a guesser after the same number of misses as one process,
  whichever worker each connection reaches; without Redis the limits stay in memory;
  a Redis that does not answer lets requests through rather than stopping the hall;
* ``X-Forwarded-For`` is believed only from a configured proxy (``LAIZI_TRUSTED_PROXIES``
  / ``--trusted-proxy``; none by default): a client on 127.0.0.1 that writes the header
  itself is still counted and banned as 127.0.0.1; a hall told to trust 127.0.0.1 (a
  proxy on the machine) takes the header's address;
* ``--workers N`` says at start that its workers are not room-affine.

Redis: ``LAIZI_TEST_REDIS_URL``, else a private ``redis-server`` (in CI a missing Redis
fails, as tests/test_cluster.py's do).
"""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest

from server_helpers import in_ci  # skips this module without the server extras (not in CI)

if not in_ci():
    pytest.importorskip("alembic")
    pytest.importorskip("redis")

import httpx

from laizi.commands.serve import workers_note
from laizi.server.proxies import normalize_proxy, trusted_from_env
from laizi.server.ratelimit import (
    KEY_PREFIX,
    REDIS_TIMEOUT,
    RateLimited,
    RateLimits,
)
from server_helpers import (
    HTTP,
    Server,
    free_port,
    redis_for_tests,
    sqlite_url,
    unique,
)

# --------------------------------------------------------------------------- one budget


def test_limiters_on_one_redis_share_one_budget(tmp_path: Path) -> None:
    rates = {"create": "3/minute", "guess": "4/minute"}
    me, other = f"address:{unique('a')}", f"address:{unique('b')}"

    async def go(url: str) -> None:
        a, b = RateLimits(rates, redis_url=url), RateLimits(rates, redis_url=url)
        alone = RateLimits(rates)  # no Redis: this process's memory
        try:
            for limiter in (a, b, a):
                await limiter.hit("create", me)
            for limiter in (a, b):  # spent, whichever process is asked
                with pytest.raises(RateLimited):
                    await limiter.hit("create", me)
            await b.hit("create", other)  # another address has its own
            for _ in range(3):
                await alone.hit("create", me)  # memory: a budget of its own
            for limiter in (a, b, b, a):
                await limiter.check("guess", me)
                await limiter.miss(me)
            with pytest.raises(RateLimited) as info:
                await b.check("guess", me)
            assert 1 <= info.value.retry_after <= 60
        finally:
            await a.close()
            await b.close()

    with redis_for_tests(tmp_path) as url:
        asyncio.run(go(url))
        import redis

        client = redis.Redis.from_url(url, decode_responses=True)
        try:
            keys = client.keys(f"*{me}*")
            assert keys and all(k.startswith(f"{KEY_PREFIX}:") for k in keys), keys
            client.delete(*client.keys(f"{KEY_PREFIX}:*"))
        finally:
            client.close()


def test_a_redis_that_does_not_answer_lets_requests_through() -> None:
    """Nobody listening (refused at once), then a Redis that accepts and stays silent:
    the first request waits :data:`REDIS_TIMEOUT` at most, the next ones go through
    without asking it again for :data:`REDIS_PAUSE` seconds."""
    silent = socket.create_server(("127.0.0.1", 0))

    async def go() -> None:
        for url in (f"redis://127.0.0.1:{free_port()}/0",
                    f"redis://127.0.0.1:{silent.getsockname()[1]}/0"):
            limits = RateLimits({"create": "1/minute"}, redis_url=url)
            try:
                start = time.monotonic()
                await limits.hit("create", "address:x")
                assert time.monotonic() - start < REDIS_TIMEOUT + 2
                start = time.monotonic()
                for _ in range(3):
                    await limits.hit("create", "address:x")  # over 1/minute: not counted
                    await limits.miss("address:x")
                assert time.monotonic() - start < 1, "paused: Redis is not asked again"
            finally:
                await limits.close()

    try:
        asyncio.run(go())
    finally:
        silent.close()


def test_workers_refuse_a_guesser_after_one_budget(tmp_path: Path) -> None:
    """``--workers 2`` with ``LAIZI_RATE_GUESS=5/minute``: 5 misses, then 429 on every
    worker (each GET on a new connection, so the kernel spreads them)."""
    with redis_for_tests(tmp_path) as url:
        srv = Server(sqlite_url(tmp_path / "hall.db"), tmp_path, redis_url=url,
                     extra_args=("--workers", "2"),
                     env={"LAIZI_RATE_GUESS": "5/minute"}).start()
        try:
            statuses = []
            for n in range(12):
                with httpx.Client(timeout=10) as fresh:
                    statuses.append(fresh.get(f"{srv.http}/api/rooms/97{n:04d}").status_code)
            assert statuses == [404] * 5 + [429] * 7, statuses
        finally:
            srv.kill()


# --------------------------------------------------------------------------- proxies


def test_trusted_proxies_are_checked() -> None:
    assert trusted_from_env(environ={}) == []
    assert trusted_from_env(["10.0.0.2"], environ={"LAIZI_TRUSTED_PROXIES": "127.0.0.1, ::1"}
                            ) == ["127.0.0.1", "::1", "10.0.0.2"]
    assert trusted_from_env(environ={"FORWARDED_ALLOW_IPS": "10.1.2.3"}) == ["10.1.2.3"]
    assert trusted_from_env(environ={"FORWARDED_ALLOW_IPS": "10.1.2.3",
                                     "LAIZI_TRUSTED_PROXIES": "10.9.9.9"}) == ["10.9.9.9"]
    assert normalize_proxy("172.16.0.0/12") == "172.16.0.0/12"
    for bad in ("*", "proxy.example", "10.0.0.300", ""):
        with pytest.raises(ValueError, match="trusted proxy"):
            normalize_proxy(bad)


ADMIN = "admin-" + "p" * 26
AUTH = {"Authorization": f"Bearer {ADMIN}"}


def _create(srv: Server, forged: str) -> httpx.Response:
    return HTTP.post(f"{srv.http}/api/rooms", headers={"X-Forwarded-For": forged},
                     json={"name": unique("host"), "settings": {"variant": "jingzhou"}})


def _ban(srv: Server, address: str) -> None:
    r = HTTP.post(f"{srv.http}/admin/api/bans", headers=AUTH,
                  json={"kind": "address", "value": address})
    assert r.status_code == 201, r.text


def test_a_forged_forwarded_for_is_ignored_from_an_untrusted_peer(tmp_path: Path) -> None:
    db = sqlite_url(tmp_path / "hall.db")
    plain = {"LAIZI_ADMIN_TOKEN": ADMIN, "LAIZI_RATE_CREATE": "2/minute",
             "LAIZI_TRUSTED_PROXIES": "", "FORWARDED_ALLOW_IPS": ""}
    srv = Server(db, tmp_path, env=plain).start()
    try:
        _ban(srv, "203.0.113.7")
        # The header names a banned address: not believed, the peer (127.0.0.1) is not.
        assert _create(srv, "203.0.113.7").status_code == 201
        # A new address in each request does not reset 127.0.0.1's budget.
        assert _create(srv, "203.0.113.8").status_code == 201
        r = _create(srv, "203.0.113.9")
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited", r.text
        # The peer banned: no header gets it out.
        _ban(srv, "127.0.0.1")
        r = _create(srv, "198.51.100.1")
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned", r.text
        assert httpx.delete(f"{srv.http}/admin/api/bans/address/127.0.0.1",
                            headers=AUTH).status_code == 200
    finally:
        srv.kill()
    # The same hall told that 127.0.0.1 is its proxy: the header names the client.
    trusting = Server(db, tmp_path, env={**plain, "LAIZI_TRUSTED_PROXIES": "127.0.0.1"}
                      ).start()
    try:
        r = _create(trusting, "203.0.113.7")
        assert r.status_code == 403 and r.json()["error"]["code"] == "banned", r.text
        for n in range(3):  # each its own address: its own budget
            assert _create(trusting, f"203.0.113.{20 + n}").status_code == 201
    finally:
        trusting.kill()


def test_a_bad_trusted_proxy_stops_the_hall_at_start(tmp_path: Path) -> None:
    srv = Server(sqlite_url(tmp_path / "hall.db"), tmp_path,
                 extra_args=("--trusted-proxy", "*"))
    with pytest.raises(RuntimeError, match="trusted proxy"):
        srv.start(timeout=20)


def test_workers_say_they_are_not_room_affine() -> None:
    assert workers_note(1) == []
    (line,) = workers_note(4)
    assert "not room-affine" in line and "LAIZI_HALL_AFFINE" in line
