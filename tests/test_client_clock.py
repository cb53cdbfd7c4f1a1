"""The table page's clock and idle banner, and the lobby's ``pause_empty``, in chromium.

The whole client (``static/index.html`` and its modules, served straight from the
package) runs against a stand-in hall: the HTTP API answers from fixtures (and records
what is posted), and the websocket is a fake one the test hands ``state`` frames to,
made from a real :class:`laizi.table.Table`. Time is Playwright's clock, so nothing
depends on how fast the machine is. A page error or a console error fails the test.

* The claim countdown never shows more than the room's clock: a prompt that arrives
  long after the previous one used to show the deadline plus the seconds since the last
  prompt (22 on a 20 s clock) until the next tick (issue 38, item 8);
* a room waiting for its people (``room.idle``) says so to whoever is connected;
* the lobby's create form offers 没人时暂停 (on by default) and sends ``pause_empty``.

Needs Playwright for Python and Debian's chromium, like tests/test_browser.py.
"""

from __future__ import annotations

import json
import mimetypes
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Skips this module without playwright or chromium (not in CI): one rule, browser_helpers.
from browser_helpers import Browser, Page, Route, launched
from laizi.bots.levels import level_json
from laizi.server.variants_api import variants_json
from laizi.table.table import Table

STATIC = Path(__file__).resolve().parents[1] / "src" / "laizi" / "server" / "static"
ORIGIN = "http://laizi.test"
CODE = "123456"
TOKEN = "tok"

# A WebSocket the test drives: window.__push(frame) delivers a frame to the page.
_FAKE_SOCKET = """
window.__sockets = [];
window.__sent = [];
class FakeSocket {
  constructor(url) {
    this.url = url; this.readyState = 0; window.__sockets.push(this);
    queueMicrotask(() => { this.readyState = 1; if (this.onopen) this.onopen({}); });
  }
  send(text) {
    const m = JSON.parse(text); window.__sent.push(m);
    const ack = JSON.stringify({ op: "ack", seq: m.seq });
    if (this.onmessage) queueMicrotask(() => this.onmessage({ data: ack }));
  }
  close() { this.readyState = 3; }
}
FakeSocket.CONNECTING = 0; FakeSocket.OPEN = 1; FakeSocket.CLOSING = 2; FakeSocket.CLOSED = 3;
window.WebSocket = FakeSocket;
window.__push = (frame) => {
  const ws = window.__sockets[window.__sockets.length - 1];
  ws.onmessage({ data: JSON.stringify(frame) });
};
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


class Hall:
    """The stand-in hall: ``api`` maps a path to its JSON answer; ``posted`` collects
    (path, body) of every POST."""

    def __init__(self, api: dict[str, Any]) -> None:
        # every page loads the variants' descriptors (static/js/variants.js), and the
        # lobby makes the device's person on a first visit (api.js ensurePerson) and
        # lists the person's clubs (club.js)
        self.api = {"/api/variants": list(variants_json()), "/api/bots": level_json(),
                    "/api/me": {"id": "p1", "name": "阿明", "devices": 1, "recovery": False,
                                "credential": "p1.secret"},
                    "/api/clubs": {"clubs": []}, **api}
        self.posted: list[tuple[str, Any]] = []

    def handle(self, route: Route) -> None:
        request = route.request
        path = request.url[len(ORIGIN):].split("?")[0]
        if path.startswith("/api/"):
            if request.method == "POST":
                self.posted.append((path, json.loads(request.post_data or "null")))
            if path == "/api/qr":
                route.fulfill(status=200, content_type="image/svg+xml",
                              body='<svg xmlns="http://www.w3.org/2000/svg"/>')
            elif path in self.api:
                route.fulfill(status=200, content_type="application/json",
                              body=json.dumps(self.api[path], ensure_ascii=False))
            else:
                route.fulfill(status=404, content_type="application/json", body=json.dumps(
                    {"error": {"code": "unknown_room", "message": path}}))
            return
        if not path.startswith("/static/"):
            route.fulfill(status=200, content_type="text/html",
                          body=(STATIC / "index.html").read_bytes())
            return
        file = (STATIC / path.removeprefix("/static/")).resolve()
        if STATIC not in file.parents or not file.is_file():
            route.fulfill(status=404, body="not found")
            return
        kind = "text/javascript" if file.suffix == ".js" else \
            mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        route.fulfill(status=200, content_type=kind, body=file.read_bytes())


def open_page(browser: Browser, hall: Hall, path: str, *, clock: bool = False,
              viewport: dict[str, int] | None = None) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=viewport or {"width": 360, "height": 740},
                                  locale="zh-CN")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error"
            else None)
    if clock:
        page.clock.install(time=1_700_000_000_000)
    page.add_init_script(_FAKE_SOCKET + "localStorage.setItem('laizi.lang', 'zh');")
    page.route(f"{ORIGIN}/**", hall.handle)
    page.goto(f"{ORIGIN}{path}")
    return page, errors


def room_info(table: Table, *, clock: float | None = 20.0, **more: Any) -> dict[str, Any]:
    """The room's public facts as a ``state`` frame carries them (rooms.py ``info``)."""
    people = [p for p in table.people if not p.startswith("🤖")]
    info = {
        "code": CODE, "settings": {"variant": table.variant.id, "options": {},
                                   "bots": "greedy", "clock": clock, "claim_min": 0.8,
                                   "bot_delay": 0.5, "between": 8.0, "grace": 5.0,
                                   "hands": None, "name": "", "pause_empty": True},
        "host": people[0] if people else None, "seats": list(table.seats),
        "waiting": list(table.waiting), "ledger": table.standing, "hands": table.number,
        "started": True, "paused": False, "over": False, "in_hand": table.in_hand,
        "auto": [], "online": people, "spectators": [], "vote": None, "ready": [],
        "idle": False,
    }
    info.update(more)
    return info


def frame(table: Table, person: str | None, version: int, *, legal: bool,
          deadline: float | None, room: dict[str, Any]) -> dict[str, Any]:
    seat = table.seats.index(person) if person in table.seats else None
    actions = [a.to_json() for a in table.legal_actions(seat)] if legal and seat is not None \
        else []
    return {"op": "state", "version": version, "snapshot": True, "events": [],
            "view": table.view_for(person), "legal": actions,
            "deadline": deadline if actions else None, "room": room}


def table_api(person: str, role: str = "player") -> dict[str, Any]:
    return {f"/api/rooms/{CODE}/me": {"name": person, "role": role, "host": False},
            f"/api/rooms/{CODE}/records": {"code": CODE, "variant": "jingzhou", "hands": []},
            "/api/share": {"base": ORIGIN, "lan": [], "local_only": False},
            f"/api/rooms/{CODE}": {"code": CODE, "settings": {"variant": "jingzhou"},
                                   "seats": []}}


def clock_text(page: Page) -> int | None:
    text = page.evaluate("() => { const c = document.querySelector('.clock span');"
                         " return c ? c.textContent : null; }")
    return None if text is None else int(text)


def test_a_prompt_long_after_the_last_never_shows_more_than_the_clock(
        browser: Browser) -> None:
    table = Table("jingzhou", people=["阿明", "🤖 1", "🤖 2"], seed=5)
    table.start_hand()
    me = table.seats[table.to_act()[0]]
    assert me is not None
    page, errors = open_page(browser, Hall(table_api(me)), f"/r/{CODE}?t={TOKEN}", clock=True)
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        room = room_info(table)
        # A prompt with the whole clock; then none (others play) for a minute.
        page.evaluate("f => window.__push(f)", frame(table, me, 10, legal=True, deadline=20,
                                                     room=room))
        page.wait_for_selector(".clock span", timeout=10_000)
        page.clock.run_for(3500)  # its countdown ticks: 16.5-16.7 s left
        assert clock_text(page) == 17
        page.evaluate("f => window.__push(f)", frame(table, me, 11, legal=False,
                                                     deadline=None, room=room))
        page.wait_for_function("!document.querySelector('.clock')", timeout=10_000)
        page.clock.pause_at(1_700_000_000_000 + 63_000)  # a minute without a prompt
        # A new prompt with 20 s: its first render already says 20 (no tick in between:
        # the clock is paused), never 20 + the minute.
        shown = page.evaluate("""async (f) => {
          window.__push(f);
          for (let i = 0; i < 5; i++) await Promise.resolve();
          const c = document.querySelector('.clock span');
          return c ? c.textContent : null;
        }""", frame(table, me, 12, legal=True, deadline=20, room=room))
        assert shown == "20", shown
        page.clock.run_for(1500)  # ticks every 200 ms: 18.5-18.7 s left
        assert clock_text(page) == 19
        # A deadline the server sends above the room's clock (a slow frame, a skewed
        # reading) is shown as the clock at most.
        page.evaluate("f => window.__push(f)", frame(table, me, 13, legal=True, deadline=25,
                                                     room=room))
        page.clock.run_for(250)
        assert clock_text(page) == 20
        assert not errors, errors
    finally:
        page.context.close()


def test_a_room_waiting_for_its_people_says_so(browser: Browser) -> None:
    table = Table("jingzhou", people=["阿明", "🤖 1", "🤖 2"], seed=5)
    from laizi.bots.registry import make_bot

    bot = make_bot("greedy", 0)
    table.start_hand()
    while table.in_hand:
        seat = table.to_act()[0]
        game = table.game
        assert game is not None
        table.act(bot.choose(game.view(seat), table.legal_actions(seat)))
    hall = Hall(table_api("小红", role="spectator"))
    page, errors = open_page(browser, hall, f"/r/{CODE}?t={TOKEN}")
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        page.evaluate("f => window.__push(f)", frame(
            table, None, 50, legal=False, deadline=None,
            room=room_info(table, online=["小红"], spectators=["小红"], idle=True)))
        banner = page.get_by_test_id("idle-banner")
        banner.wait_for(timeout=10_000)
        assert banner.inner_text() == "等人回来：没有玩家在线，下一手暂停"
        page.screenshot(path=str(Path(os.environ.get("LAIZI_SHOTS", "/tmp")) / "idle-banner.png"))
        # A player comes back: the banner goes.
        page.evaluate("f => window.__push(f)", frame(
            table, None, 51, legal=False, deadline=None,
            room=room_info(table, online=["小红", "阿明"], spectators=["小红"], idle=False)))
        page.wait_for_function("!document.querySelector('[data-testid=idle-banner]')",
                               timeout=10_000)
        assert not errors, errors
    finally:
        page.context.close()


def test_the_lobby_offers_and_sends_pause_empty_and_the_bots_level(browser: Browser) -> None:
    from laizi.variants import get, ids

    variants = [{"id": v, "name": get(v).name, "seats": get(v).seats,
                 "options": get(v).options_to_json(get(v).default_options())} for v in ids()]
    hall = Hall({"/api/variants": variants,
                 "/api/rooms": {"code": CODE, "token": TOKEN, "link": "x"}})
    page, errors = open_page(browser, hall, "/")
    try:
        page.fill("#player-name", "阿明")
        box = page.locator("#pause_empty")
        box.wait_for(timeout=10_000)
        assert box.is_checked()
        assert "没人时暂停" in page.inner_text("[data-testid=create-form]")
        page.route(f"{ORIGIN}/r/**", lambda route: route.fulfill(
            status=200, content_type="text/html", body="<p>room</p>"))
        page.click("[data-testid=create-form] button[type=submit]")
        page.wait_for_url(f"**/r/{CODE}**", timeout=10_000)
        settings = hall.posted[-1][1]["settings"]
        assert settings["pause_empty"] is True, settings
        assert settings["bots"] == "practised", settings  # 熟手 unless the host picks
        page.goto(f"{ORIGIN}/")
        page.locator("#pause_empty").uncheck()
        # The bots' levels are the server's (GET /api/bots), by their names
        page.locator("#bots option[value=expert]").wait_for(state="attached")
        assert page.locator("#bots option").all_inner_texts() == ["新手", "熟手", "高手"]
        page.select_option("#bots", "expert")
        page.click("[data-testid=create-form] button[type=submit]")
        page.wait_for_url(f"**/r/{CODE}**", timeout=10_000)
        assert hall.posted[-1][1]["settings"]["pause_empty"] is False
        assert hall.posted[-1][1]["settings"]["bots"] == "expert"
        # Besides the rooms, only the silent identity of a first visit.
        assert [p for p, _ in hall.posted if p != "/api/me"] == ["/api/rooms", "/api/rooms"]
        assert [p for p, _ in hall.posted if p == "/api/me"] == ["/api/me"]
        assert not errors, errors
    finally:
        page.context.close()
