"""Sharing a room with friends on the same wifi (issue 38, item 4).

* ``laizi serve --host 0.0.0.0`` prints the LAN address(es) a phone can open, besides the
  loopback URL for this machine's browser (:func:`laizi.commands.serve.banner`, on
  addresses listed by :mod:`laizi.server.lan`);
* ``GET /api/share`` gives the page opened on 127.0.0.1 by this machine (the peer too is
  loopback: a remote client naming ``Host: 127.0.0.1`` learns no address) a LAN base for
  its share link; the LAN addresses are looked up in a thread, once a minute at most;
* ``GET /api/qr?text=LINK`` is an SVG QR code (segno) of one of this hall's room links
  only (the page's own address, whatever name the browser used, or a LAN address): a
  link to another host, a link with a token, an unknown room or an oversized text are
  refused.
"""

from __future__ import annotations

import io
import ipaddress
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
import segno  # a server dependency: missing, the test fails (no skip)
from starlette.testclient import TestClient

from laizi.commands.serve import banner
from laizi.server import lan
from laizi.server.app import create_app

FOUND = [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlan0", "192.168.1.23"),
         ("", "192.168.1.23"), ("", "127.0.1.1"), ("eth1", "10.0.0.5"),
         ("", "169.254.3.4"), ("", "not an address")]


# --------------------------------------------------------------------------- addresses


def test_lan_addresses_skip_loopback_and_rank_wifi_first() -> None:
    assert lan.lan_addresses(FOUND) == [("wlan0", "192.168.1.23"), ("eth1", "10.0.0.5"),
                                        ("docker0", "172.17.0.1")]


def test_lan_addresses_of_this_machine_are_real_non_loopback_ipv4() -> None:
    found = lan.lan_addresses()
    assert found, "no non-loopback IPv4 address found on this machine"
    for name, address in found:
        ip = ipaddress.IPv4Address(address)
        assert not ip.is_loopback and not ip.is_link_local, (name, address)


def test_serve_on_all_interfaces_prints_the_lan_addresses() -> None:
    lines = banner("0.0.0.0", 8765, "database x", FOUND)
    assert lines[0].startswith("laizi hall: http://127.0.0.1:8765/")
    assert "http://192.168.1.23:8765/" in lines[1] and "wlan0" in lines[1]
    assert "http://10.0.0.5:8765/" in lines[2]
    assert not any("127.0.1.1" in line or "169.254" in line for line in lines)


def test_serve_on_loopback_says_how_to_let_phones_in() -> None:
    lines = banner("127.0.0.1", 8765, "database x", FOUND)
    assert lines[0].startswith("laizi hall: http://127.0.0.1:8765/")
    assert "--host 0.0.0.0" in lines[1]
    assert not any("192.168" in line for line in lines)


def test_serve_on_one_address_prints_that_address() -> None:
    lines = banner("192.168.1.23", 9000, "database x", FOUND)
    assert lines == ["laizi hall: http://192.168.1.23:9000/  (database x)"]


def test_is_loopback() -> None:
    for host in ("127.0.0.1", "127.0.1.1", "localhost", "::1", "[::1]", "a.localhost"):
        assert lan.is_loopback(host), host
    for host in ("192.168.1.2", "0.0.0.0", "example.com", "", None):
        assert not lan.is_loopback(host), host


# --------------------------------------------------------------------------- the hall


@pytest.fixture
def hall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(lan, "_SOURCES", (lambda: FOUND,))
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", bot_processes=1,
                     listen_host="0.0.0.0")
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as client:
        yield client


REMOTE = ("203.0.113.9", 50000)
"""A phone on the network (the peer address of its requests)."""


def _room(client: TestClient) -> str:
    r = client.post("/api/rooms", json={"name": "阿明", "settings": {"variant": "jingzhou"}})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def test_share_base_is_the_lan_address_when_opened_on_loopback(hall: TestClient) -> None:
    assert hall.get("/api/share").json() == {
        "base": "http://192.168.1.23:8765", "local_only": False,
        "lan": ["http://192.168.1.23:8765", "http://10.0.0.5:8765",
                "http://172.17.0.1:8765"]}
    # opened from a phone at the LAN address: that address is the one to share
    there = hall.get("http://192.168.1.23:8765/api/share").json()
    assert there["base"] == "http://192.168.1.23:8765"


def test_share_of_a_hall_listening_on_loopback_only(tmp_path: Path) -> None:
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", bot_processes=1,
                     listen_host="127.0.0.1")
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as client:
        assert client.get("/api/share").json() == {
            "base": "http://127.0.0.1:8765", "lan": [], "local_only": True}


def _matrix_of_svg(svg: str) -> str:
    """The SVG's drawing (its path data), to compare with segno's own for a text."""
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return "".join(p.get("d", "") for p in root.iter("{http://www.w3.org/2000/svg}path")
                   if p.get("class") == "qrline")


def test_qr_of_a_room_link(hall: TestClient) -> None:
    code = _room(hall)
    for link in (f"http://192.168.1.23:8765/r/{code}", f"http://127.0.0.1:8765/r/{code}"):
        r = hall.get("/api/qr", params={"text": link})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].startswith("image/svg+xml")
        expected = io.BytesIO()
        segno.make(link, error="m", micro=False).save(expected, kind="svg", xmldecl=False,
                                                      scale=4)
        assert _matrix_of_svg(r.text) == _matrix_of_svg(expected.getvalue().decode())
        assert ET.fromstring(r.text).get("viewBox")  # scales to the box it is shown in
        assert ET.fromstring(r.text).find("{http://www.w3.org/2000/svg}title").text == link


def test_qr_of_a_room_link_at_the_name_a_proxy_serves(hall: TestClient) -> None:
    """Behind a reverse proxy (docs/deploy.md) the page's address is the proxy's name:
    its room links draw, and a link to any other host does not."""
    code = _room(hall)
    proxied = {"host": "mahjong.example.org"}
    r = hall.get("/api/qr", params={"text": f"http://mahjong.example.org/r/{code}"},
                 headers=proxied)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("image/svg+xml")
    r = hall.get("/api/qr", params={"text": f"http://evil.example/r/{code}"},
                 headers=proxied)
    assert r.status_code == 400, r.text


def test_qr_refuses_foreign_and_oversized_text(hall: TestClient) -> None:
    code = _room(hall)
    refused = [
        "",
        "hello",
        f"http://evil.example:8765/r/{code}",  # another host
        f"http://192.168.1.23:9999/r/{code}",  # another port
        f"https://192.168.1.23:8765/r/{code}",  # another scheme
        f"http://192.168.1.23:8765/r/{code}?t=secret",  # a seat token
        f"http://192.168.1.23:8765/r/{code}#x",
        f"http://192.168.1.23:8765/replay/{code}",
        f"http://192.168.1.23:8765/r/{code}/x",
        f"http://192.168.1.23:8765/r/{code}" + "x" * 400,  # oversized
    ]
    for text in refused:
        r = hall.get("/api/qr", params={"text": text})
        assert r.status_code == 400, (text, r.status_code)
        assert r.json()["error"]["code"] == "malformed"
    r = hall.get("/api/qr", params={"text": "http://192.168.1.23:8765/r/ZZZZZ"})
    assert r.status_code in (400, 404)
    assert "svg" not in r.headers["content-type"]


def test_a_remote_client_naming_loopback_learns_no_lan_address(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone that sends ``Host: 127.0.0.1`` to a hall on 0.0.0.0 is not this machine:
    it is told its own base and no LAN (or container) address, and gets a QR code only
    of the link at the host it named itself (the image goes back to it alone)."""
    monkeypatch.setattr(lan, "_SOURCES", (lambda: FOUND,))
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", bot_processes=1,
                     listen_host="0.0.0.0")
    with TestClient(app, base_url="http://127.0.0.1:8765", client=REMOTE) as phone:
        got = phone.get("/api/share").json()
        assert got == {"base": "http://127.0.0.1:8765", "lan": [], "local_only": False}
        assert "172.17.0.1" not in phone.get("/api/share").text
        code = _room(phone)
        # The page's own host is the hall's (a LAN address): its QR code.
        r = phone.get("/api/qr", params={"text": f"http://192.168.1.23:8765/r/{code}"},
                      headers={"Host": "192.168.1.23:8765"})
        assert r.status_code == 200, r.text
        # A link at another host than the one it named: no QR code of it.
        for host in ("evil.example:8765", "203.0.113.50:8765"):
            r = phone.get("/api/qr", params={"text": f"http://{host}/r/{code}"},
                          headers={"Host": "192.168.1.23:8765"})
            assert r.status_code == 400, (host, r.text)
            assert r.json()["error"]["code"] == "malformed"


def test_lan_addresses_are_looked_up_off_the_event_loop_and_cached(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookup (a resolver may be slow) runs in a thread, once at start and then at
    most once a minute, not on every ``/api/share`` or QR request."""
    import threading

    calls: list[str] = []

    def slow() -> list[tuple[str, str]]:
        calls.append(threading.current_thread().name)
        return FOUND

    monkeypatch.setattr(lan, "_SOURCES", (slow,))
    app = create_app(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", bot_processes=1,
                     listen_host="0.0.0.0")
    with TestClient(app, base_url="http://127.0.0.1:8765",
                    client=("127.0.0.1", 50000)) as client:
        loop_thread = client.portal.call(lambda: threading.current_thread().name)  # type: ignore[union-attr]
        assert len(calls) == 1  # at start
        code = _room(client)
        for _ in range(3):
            assert client.get("/api/share").json()["lan"][0] == "http://192.168.1.23:8765"
            assert client.get("/api/qr", params={
                "text": f"http://192.168.1.23:8765/r/{code}"}).status_code == 200
        assert len(calls) == 1
        assert loop_thread not in calls
