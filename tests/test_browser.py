"""The browser client, driven by Playwright for Python in Debian's headless chromium.

``laizi serve`` runs as a subprocess on a free loopback port (its own SQLite file); the
pages are opened on a phone viewport (360x740) and a desktop one (1280x800):

* create a room in the lobby, play a whole hand against bots by clicking, see the
  settlement;
* reload mid-hand and find the very same view (the seat token kept in localStorage);
* a spectator's page (and every frame its websocket receives) never shows a concealed
  tile of any seat during the hand;
* a finished match's replay steps forward and back to the end, from a seat's view and
  with all hands open;
* the score-keeper settles a typed-in Jingzhou hand and a Taiwan hand exactly as
  ``laizi score`` does, and names what is wrong with an impossible hand;
* the watch itself: a page error or a console error in any page fails a test.

Every page is opened through ``browser`` (browser_helpers.People): any page error or
console error, and any error the server reports, fails the test. Groups of people on
phones: tests/test_browser_group.py.

Needs ``pip install playwright`` and Debian's ``chromium`` (+ ``fonts-noto-cjk``);
``playwright install`` is never needed. Without them the tests are skipped, except in CI
(``CI=true``), where they must run.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

import browser_helpers
from browser_helpers import (
    DESKTOP,
    LAIZI,
    PHONES,
    People,
    decide,
    end_match,
    play_until,
    settlement_shown,
)
from conditions import POLL_MS

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)

VIEWPORTS = {"phone": PHONES["360x740"], "desktop": DESKTOP}
FAST = {"clock": "none", "claim_min": "0", "bot_delay": "0", "between": "0"}
TILE = {f"{r + 1}{s}": 9 * i + r for i, s in enumerate("mps") for r in range(9)}
TILE.update({f"{r + 1}z": 27 + r for r in range(7)})


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request: pytest.FixtureRequest, browser: People) -> Iterator[Page]:
    """A person's page (its errors fail the test: see browser_helpers.People)."""
    yield browser.page(VIEWPORTS[request.param], who=f"page ({request.param})")


# --------------------------------------------------------------------------- helpers


def create_room(pg: Page, server: str, name: str, variant: str = "jingzhou",
                hands: int | None = 1) -> str:
    """Create a room in the lobby (quick settings) and start the match; its code."""
    pg.goto(f"{server}/")
    pg.fill("#player-name", name)
    pg.select_option("#variant", variant)
    pg.select_option("#clock", FAST["clock"])
    if hands is not None:
        pg.fill("#hands", str(hands))
    pg.click("summary")
    for key in ("claim_min", "bot_delay", "between"):
        pg.fill(f"#{key}", FAST[key])
    pg.click("[data-testid=create-form] button[type=submit]")
    pg.wait_for_url("**/r/*")
    code = pg.url.rstrip("/").split("/r/")[1].split("?")[0]
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    return code


def wait_for_decision(pg: Page) -> None:
    """Until the person has a decision (the table waits for them: no clock)."""
    pg.wait_for_function("""() => document.querySelector('[data-action]:not([disabled])')
        || document.querySelector('.myhand button.tile:not([aria-disabled])')""")


_SERVER_VERSION = """async (code) => {
    const token = JSON.parse(localStorage.getItem('laizi.rooms'))[code].token;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws/${code}?version=0`);
    return await new Promise((done, fail) => {
        ws.onopen = () => ws.send(JSON.stringify({op: 'hello', token}));
        ws.onmessage = (m) => {
            const f = JSON.parse(m.data);
            if (f.op === 'state') { ws.close(); done(f.version); }
        };
        ws.onerror = () => fail(new Error('no second connection'));
    });
}"""


def wait_for_latest(pg: Page, code: str) -> None:
    """Until the page shows a decision of the room's latest version for its person: the
    version a second connection of the same person is told (the page's own frame may be
    a moment behind it), on the page. The table waits for the person's decision, so that
    version does not move meanwhile."""
    wait_for_decision(pg)
    latest = pg.evaluate(_SERVER_VERSION, code)
    pg.wait_for_selector(f".table-page[data-version='{latest}']")
    wait_for_decision(pg)


def board_text(pg: Page) -> dict[str, Any]:
    return pg.evaluate("""() => ({
        version: document.querySelector('.table-page').dataset.version,
        hand: [...document.querySelectorAll('.myhand [data-tile]')].map(e => e.dataset.tile),
        discards: [...document.querySelectorAll('.seat')].map(
            s => [...s.querySelectorAll('.discards [data-tile]')].map(e => e.dataset.tile)),
        melds: [...document.querySelectorAll('.seat')].map(
            s => s.querySelectorAll('.melds .meld').length),
        actions: [...document.querySelectorAll('[data-action]')].map(e => e.textContent),
        wall: document.querySelector('.wallcount').textContent})""")


# --------------------------------------------------------------------------- the table


def test_play_a_hand_by_clicking(page: Page, server: str) -> None:
    create_room(page, server, "阿明")
    assert page.locator(".myhand [data-tile]").count() == 14  # the dealer's 14
    # Indicator and wildcard are on show, every tile has its name for screen readers.
    assert page.locator(".center .tile.ind").count() == 1
    assert page.locator(".center .tile.wild").count() == 1
    assert page.locator(".myhand button[aria-label]").count() == 14
    clicks = play_until(page, lambda: settlement_shown(page))
    assert clicks > 0
    modal = page.locator("[data-testid=settlement]")
    text = modal.inner_text()
    assert ("胡" in text) or ("黄庄" in text)
    assert modal.locator(".reveal-seat").count() == 3  # every hand revealed
    if "黄庄" not in text:
        assert modal.locator(".reasons li").count() > 0  # itemised
    nets = modal.locator(".nets .net")
    assert nets.count() == 3
    assert page.locator(".banner", has_text="牌局结束").count() == 1  # hands=1: over


def test_reload_mid_hand_shows_the_same_view(page: Page, server: str) -> None:
    code = create_room(page, server, "小李", hands=None)
    assert "?t=" not in page.url  # the token moved to localStorage
    for _ in range(6):  # a few decisions into the hand
        wait_for_decision(page)
        decide(page)
    wait_for_latest(page, code)
    before = board_text(page)
    page.reload()
    page.wait_for_selector(".myhand")
    wait_for_decision(page)
    page.wait_for_selector(f".table-page[data-version='{before['version']}']")
    after = board_text(page)
    assert after == before
    assert page.url.endswith(f"/r/{code}")
    # Another tab of the same browser comes back to the same seat.
    other = page.context.new_page()
    other.goto(f"{server}/r/{code}")
    other.wait_for_selector(".myhand")
    wait_for_decision(other)
    assert board_text(other)["hand"] == before["hand"]
    other.close()
    end_match(page)  # Jingzhou plays on until the host ends it


def test_auto_play_and_back(page: Page, server: str) -> None:
    """A person whose clock runs out is played by a bot (托管) until "I'm back"."""
    import httpx

    r = httpx.post(f"{server}/api/rooms", json={"name": "慢慢", "settings": {
        "variant": "jingzhou", "clock": 3, "claim_min": 0, "bot_delay": 0.5}})
    assert r.status_code == 201, r.text
    page.goto(r.json()["link"])
    page.click("[data-testid=start]")
    page.wait_for_selector(".clock")  # the countdown of the person's decision
    page.wait_for_selector("[data-testid=back]", timeout=10000)
    assert page.locator(".banner.auto").count() == 1
    # The bots may finish the hand first: its settlement then stays open over the banner
    # until its reader closes it, so the button is pressed as a tap on it would, without
    # hit-testing through the settlement. An open match (no hand limit): a match that had
    # ended would refuse "back".
    page.locator("[data-testid=back]").dispatch_event("click")
    page.wait_for_selector("[data-testid=back]", state="detached", timeout=2500)


def _check_public(frame: dict[str, Any]) -> None:
    """A spectator's frame: no concealed tile of any seat while the hand is played."""
    if frame.get("op") != "state":
        return
    view = frame["view"]
    if view.get("phase") in (None, "waiting", "over"):
        return
    assert view["hand"] == [] and view["drawn"] is None, view
    assert frame["legal"] == []
    for e in frame["events"]:
        if e["type"] == "deal":
            assert all(t is None for h in e["hands"] for t in h), e
        elif e["type"] == "draw":
            assert e["tile"] is None, e
        elif e["type"] == "action":
            assert not e.get("answer"), e


def test_spectator_never_sees_a_concealed_tile(page: Page, browser: People,
                                               server: str) -> None:
    code = create_room(page, server, "阿珍")
    watcher = browser.page(page.viewport_size, locale="en-US", who="watcher")
    frames: list[dict[str, Any]] = []
    watcher.on("websocket", lambda ws: ws.on(
        "framereceived", lambda payload: frames.append(json.loads(payload))))
    watcher.goto(f"{server}/")
    watcher.fill("#player-name", "watcher")
    watcher.fill("#code", code)
    watcher.check("input[name=role][value=spectator]")
    watcher.click("[data-testid=join-form] button[type=submit]")
    watcher.wait_for_selector(".board")
    checks = 0
    deadline = time.monotonic() + 120
    while not settlement_shown(page):
        assert time.monotonic() < deadline
        if not decide(page):
            page.wait_for_timeout(POLL_MS)
            continue
        seen = watcher.evaluate("""() => document.querySelector('.table-page')?.dataset.phase
            === 'over' ? null : [
              document.querySelectorAll('.seat .concealed [data-tile], .myhand [data-tile]').length,
              document.querySelectorAll('.seat .concealed .tile.back').length]""")
        if seen is not None:
            faces, backs = seen
            assert faces == 0, "a spectator sees a concealed tile"
            assert backs > 0
            checks += 1
    assert checks > 0
    assert watcher.locator("[data-action]").count() == 0  # nothing to decide
    assert frames and all(_check_public(f) is None for f in frames)
    assert watcher.locator(".banner", has_text="Watching").count() == 1


# --------------------------------------------------------------------------- replays


def _step_numbers(label: str) -> tuple[int, int]:
    """The replay's position and its number of steps, from its label ("Step 3 / 41",
    "第 3 / 41 步")."""
    numbers = [int(x) for x in label.replace("/", " ").split() if x.isdigit()]
    assert len(numbers) == 2, label
    return numbers[0], numbers[1]


def test_replay_steps_to_the_end(page: Page, server: str) -> None:
    code = create_room(page, server, "老王")
    play_until(page, lambda: settlement_shown(page))
    page.goto(f"{server}/replay/{code}")
    page.wait_for_selector("[data-testid=next]")
    first = page.inner_text("[data-testid=step]")
    at, total = _step_numbers(first)
    assert at == 1 and total >= 2  # the deal, then at least one move
    # Forward up to five steps and one back; a short hand (an early win) has fewer.
    forward = min(5, total - 1)
    for _ in range(forward):
        page.click("[data-testid=next]")
    page.click("[data-testid=prev]")
    assert _step_numbers(page.inner_text("[data-testid=step]")) == (forward, total)
    # From seat 1's view the other seats' concealed tiles are backs; all open shows them.
    page.select_option("#seat", "1")
    assert page.locator(".seat[data-seat='0'] .concealed [data-tile]").count() == 0
    assert page.locator(".seat[data-seat='1'] .concealed [data-tile]").count() > 0
    page.select_option("#seat", "all")
    assert page.locator(".seat[data-seat='0'] .concealed [data-tile]").count() > 0
    steps = 0
    while page.locator("[data-testid=next]:not([disabled])").count():
        page.keyboard.press("ArrowRight")  # → steps forward, as the button does
        steps += 1
        assert steps < 1000
    assert steps == total - forward
    assert _step_numbers(page.inner_text("[data-testid=step]")) == (total, total)
    assert page.locator("[data-testid=replay-settlement] .reveal-seat").count() == 3
    page.click("[data-testid=prev]")
    assert page.locator("[data-testid=replay-settlement]").count() == 0


# --------------------------------------------------------------------------- score-keeper


def _laizi_score(record: dict[str, Any]) -> list[int]:
    out = subprocess.run([str(LAIZI), "score", "--json", "-"], input=json.dumps(record),
                         capture_output=True, text=True, check=True)
    nets: list[int] = json.loads(out.stdout)["net"]
    return nets


def _nets(pg: Page) -> list[int]:
    texts = pg.locator("[data-testid=sk-preview] .nets .net strong").all_inner_texts()
    return [int(x) for x in texts]


def _key(pg: Page, tile: str) -> None:
    pg.click(f".tilekeys button[data-tile='{TILE[tile]}']")


def _start_session(pg: Page, server: str, variant: str, names: list[str]) -> None:
    pg.goto(f"{server}/score")
    pg.wait_for_selector("[data-testid=sk-setup], [data-testid=sk-ledger]")
    if pg.locator("[data-testid=sk-ledger]").count():  # a session of an earlier test
        pg.click("[data-testid=sk-ledger] button:has-text('新的记分')")
    pg.select_option("#sk-variant", variant)
    for i, n in enumerate(names):
        pg.fill(f"#sk-name-{i}", n)
    pg.click("[data-testid=sk-setup] button[type=submit]")
    pg.wait_for_selector("[data-testid=sk-ledger]")


def _meld(pg: Page, seat: int, i: int, kind: str, tile: str | None, source: int | None
          ) -> None:
    pg.click(f"[data-testid=sk-add-meld-{seat}]")
    entry = pg.locator(f".seat-entry[data-seat='{seat}'] .meld-entry").nth(i)
    entry.locator("select").first.select_option(kind)
    if tile is not None:
        entry.locator(".slot").click()
        _key(pg, tile)
    if source is not None:
        entry.locator("select").nth(1).select_option(str(source))


WORKED = {  # docs/hand-record.md: the rule book's worked example
    "variant": "jingzhou", "dealer": 0, "indicators": "9s",
    "seats": [
        {"melds": [{"kind": "concealed_kong", "tiles": "4444z"}]},
        {"concealed": "567p 678s 345s 2p",
         "melds": [{"kind": "chow", "tiles": "234p", "from": 0},
                   {"kind": "red_dragon_kong", "tiles": "7z"}]},
        {"melds": [{"kind": "pung", "tiles": "999p", "from": 1}]},
    ],
    "outcome": "win", "winners": [1], "how": "discard", "from": 2, "tile": "2p",
}


def test_score_keeper_settles_as_laizi_score(page: Page, server: str) -> None:
    _start_session(page, server, "jingzhou", ["老王", "小李", "阿珍"])
    page.click("[data-testid=sk-indicator]")
    _key(page, "9s")
    page.check("input[name=winner] >> nth=1")
    page.check("input[name=from][value='2']")
    _meld(page, 0, 0, "concealed_kong", "4z", None)
    _meld(page, 1, 0, "chow", "2p", 0)
    _meld(page, 1, 1, "red_dragon_kong", None, None)
    _meld(page, 2, 0, "pung", "9p", 1)
    page.click("[data-testid=sk-concealed]")
    for tile in ["5p", "6p", "7p", "6s", "7s", "8s", "3s", "4s", "5s", "2p"]:
        _key(page, tile)
    page.click("[data-testid=sk-win-tile]")
    _key(page, "2p")
    page.wait_for_selector("[data-testid=sk-record]")
    assert _nets(page) == _laizi_score(WORKED) == [-64, 96, -32]
    assert "1 × 2^6 = 64" in page.inner_text("[data-testid=sk-preview]")
    page.click("[data-testid=sk-record]")
    page.wait_for_selector("[data-testid=sk-ledger] tfoot")
    assert page.locator("[data-testid=sk-ledger] tfoot td").all_inner_texts() == \
        ["-64", "+96", "-32"]
    # The ledger is in the hall's database: a reload shows it again.
    page.reload()
    page.wait_for_selector("[data-testid=sk-ledger] tfoot")
    assert page.locator("[data-testid=sk-ledger] tfoot td").all_inner_texts() == \
        ["-64", "+96", "-32"]

    # An impossible hand: thirteen scattered tiles, no winning shape — the server says why,
    # and the page logs no error (POST /api/score/hand answers 200 with the verdict).
    page.check("input[name=winner] >> nth=0")
    page.check("input[name=from][value='1']")
    page.click("[data-testid=sk-indicator]")
    _key(page, "9s")
    page.click("[data-testid=sk-concealed]")
    for tile in ["1p", "3p", "5p", "7p", "9p", "2s", "4s", "6s", "8s", "3s", "5s", "7s", "2z"]:
        _key(page, tile)
    page.click("[data-testid=sk-win-tile]")
    _key(page, "9p")
    page.wait_for_selector("[data-testid=sk-invalid]")
    assert page.locator("[data-testid=sk-record]").count() == 0
    assert "不成立" in page.inner_text("[data-testid=sk-invalid]")


TAIWAN = {"variant": "taiwan", "dealer": 0, "outcome": "win", "winners": [1],
          "how": "self_draw", "tile": "3p",
          "seats": [{}, {"concealed": "123m456m789m123p45p11s"}, {}, {}],
          "taiwan": {"prevalent_wind": "东"}}


def test_score_keeper_settles_a_taiwan_hand(page: Page, server: str) -> None:
    _start_session(page, server, "taiwan", ["东家", "南家", "西家", "北家"])
    page.check("input[name=winner] >> nth=1")
    page.check("input[name=how][value=self_draw]")
    page.click("[data-testid=sk-concealed]")
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p",
                 "4p", "5p", "1s", "1s"]:
        _key(page, tile)
    page.click("[data-testid=sk-win-tile]")
    _key(page, "3p")
    page.wait_for_selector("[data-testid=sk-record]")
    assert _nets(page) == _laizi_score(TAIWAN)


# --------------------------------------------------------------------------- the watch


def test_page_and_console_errors_are_caught(browser: People, server: str) -> None:
    """The watch every test relies on: an uncaught exception and a console error, in a
    page of its own and in a second page of the same context, are recorded."""
    pg = browser.page(who="watched")
    pg.goto(f"{server}/")
    other = pg.context.new_page()
    other.goto(f"{server}/")
    pg.evaluate("setTimeout(() => { throw new Error('boom') }, 0)")
    other.evaluate("console.error('bad thing')")
    # Waited for through Playwright (its wait lets the pages' events in; a plain poll
    # between its calls delivers none of them).
    deadline = time.monotonic() + 30
    while len(browser.errors) < 2:
        assert time.monotonic() < deadline, f"both pages' errors recorded: {browser.errors}"
        pg.wait_for_timeout(POLL_MS)
    assert len(browser.errors) == 2, browser.errors
    assert any("boom" in e for e in browser.errors)
    assert any("bad thing" in e for e in browser.errors)
    browser.errors.clear()  # caused on purpose: this test passes


def test_a_seat_token_never_travels_in_a_url_after_the_link(browser: People,
                                                            server: str) -> None:
    """The link carries the token once; the page keeps it in localStorage, takes it out
    of the address bar and sends it only in a header or the websocket's first message:
    no later request, and no websocket, has it in its URL (a proxy's access log)."""
    room = browser_helpers.new_room(server, "小周", "jingzhou", hands=None)
    pg = browser.page(DESKTOP, who="page (token)")
    urls: list[str] = []
    pg.on("request", lambda r: urls.append(r.url))
    pg.on("websocket", lambda ws: urls.append(ws.url))
    # a state frame came (a selector: the page's CSP forbids evaluating a string, which
    # wait_for_function(str) needs whenever its first look fails)
    seen = pg.locator(".table-page[data-version]")
    pg.goto(room["link"])
    seen.wait_for()
    assert room["token"] not in pg.url
    pg.reload()  # back by localStorage
    seen.wait_for()
    with_token = [u for u in urls if room["token"] in u]
    assert with_token == [room["link"]], with_token  # the link's own load only
    assert any("/ws/" in u for u in urls) and any("/me" in u for u in urls), urls
    end_match(pg)
