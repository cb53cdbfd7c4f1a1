"""The hall as a phone app, in chromium at phone sizes (issue 40, item 5; docs/hall.md,
"A phone that behaves like an app"), every page watched for page and console errors:

* the manifest linked from the page parses with the fields an installable app needs, its
  icons load at their sizes, and chromium finds nothing against installing it (but the
  test's incognito context); the page's URLs carry the asset version, a versioned URL
  is kept for a year (immutable), an older version's redirects to this one;
* the service worker registers at the root, controls the page after a reload, and its
  cache is this version's;
* the score-keeper reloads offline, keeps the hands entered offline as pending, and sends
  them when the network is back (the server has the complete one in the session's
  ledger; the incomplete one stays, saying why, until removed);
* the screen wake lock is asked for while a hand is under way, again when the page is
  visible again, released when the hand is over, and a refusal logs nothing;
* with notices turned on (a button, never asked on load), a hidden page gets "the match is
  starting" and "your turn"; a visible page gets none; the install button offers the
  browser's prompt.

Wake lock, notifications, visibility and the install prompt are stubbed by init scripts
(headless chromium refuses or lacks them); the service worker and offline are real.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import httpx
import pytest

import browser_helpers
from browser_helpers import PHONES, People, new_room, play_until, settlement_shown, shot
from conditions import until_sync

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)

WORKER = "allow"  # the service worker runs in every page here (browser_helpers blocks it)

TILE = {f"{r + 1}{s}": 9 * i + r for i, s in enumerate("mps") for r in range(9)}
TILE.update({f"{r + 1}z": 27 + r for r in range(7)})


def _settings(server: str) -> dict[str, Any]:
    """The service worker's settings (``const LAIZI = {...}`` in front of /sw.js)."""
    r = httpx.get(f"{server}/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    found = re.match(r"const LAIZI = (\{.*?\});\n", r.text)
    assert found is not None, r.text[:200]
    settings: dict[str, Any] = json.loads(found.group(1))
    return settings


CONTROLLED = """async () => {
    const reg = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener(
            'controllerchange', r, {once: true}));
    }
    return {scope: reg.scope, script: navigator.serviceWorker.controller.scriptURL,
            caches: await caches.keys()};
}"""


# --------------------------------------------------------------------------- installable


MANIFEST = """async () => {
    const href = document.querySelector('link[rel=manifest]').href;
    const res = await fetch(href);
    const m = await res.json();
    const icons = [];
    for (const icon of m.icons) {
        const url = new URL(icon.src, res.url).href;
        const r = await fetch(url);
        const img = new Image();
        img.src = url;
        await img.decode();
        icons.push({src: icon.src, sizes: icon.sizes, purpose: icon.purpose, type: icon.type,
                    status: r.status, w: img.naturalWidth, h: img.naturalHeight});
    }
    return {href, url: res.url, status: res.status, m, icons,
            type: res.headers.get('content-type')};
}"""


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_the_app_is_installable_and_its_urls_carry_the_version(browser: People, server: str,
                                                                phone: str) -> None:
    version = _settings(server)["version"]
    pg = browser.page(PHONES[phone], who="installer", service_workers=WORKER)
    pg.goto(f"{server}/")
    pg.wait_for_selector("#player-name")
    shot(pg, f"lobby-app-settings-{phone}", "[data-testid=app-settings]")
    found = pg.evaluate(MANIFEST)
    assert found["status"] == 200 and found["type"] == "application/manifest+json", found
    assert f"/static/v/{version}/manifest.webmanifest" in found["url"]
    m = found["m"]
    assert m["name"].startswith("赖子") and "laizi" in m["name"] and m["short_name"] == "赖子"
    assert (m["start_url"], m["scope"], m["display"], m["lang"]) == (
        "/", "/", "standalone", "zh-CN")
    assert (m["theme_color"], m["background_color"]) == ("#123d2f", "#f6f1e4")
    sizes = {(i["sizes"], i["purpose"]): i for i in found["icons"]}
    for want, purpose in [("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")]:
        icon = sizes[(want, purpose)]
        assert icon["status"] == 200 and icon["type"] == "image/png", icon
        assert f"{icon['w']}x{icon['h']}" == want, icon
    assert sizes[("any", "any")]["type"] == "image/svg+xml"
    assert sizes[("any", "any")]["w"] > 0
    # Chromium's own verdict: the manifest parses without an error and nothing keeps the
    # app from being installed but the test's incognito context.
    cdp = pg.context.new_cdp_session(pg)
    assert cdp.send("Page.getAppManifest")["errors"] == []
    refusals = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert {e["errorId"] for e in refusals} <= {"in-incognito"}, refusals
    # /manifest.webmanifest leads to the same file
    alias = httpx.get(f"{server}/manifest.webmanifest", follow_redirects=True)
    assert alias.status_code == 200 and alias.json() == m

    # The page's script, stylesheet and import map are this version's ...
    html = httpx.get(f"{server}/score").text
    assert f'src="/static/v/{version}/js/app.js"' in html
    assert f'"preact": "/static/v/{version}/vendor/preact/preact.module.js"' in html
    scripts = pg.evaluate("[...document.scripts].map(s => s.src).filter(Boolean)")
    assert scripts == [f"{server}/static/v/{version}/js/app.js"], scripts
    # ... served for a year; the unversioned and an older version's URLs still work.
    r = httpx.get(f"{server}/static/v/{version}/js/table.js")
    assert r.status_code == 200 and "immutable" in r.headers["cache-control"]
    assert "max-age=31536000" in r.headers["cache-control"]
    assert r.content == httpx.get(f"{server}/static/js/table.js").content
    assert httpx.get(f"{server}/static/js/table.js").headers["cache-control"] == "no-cache"
    old = httpx.get(f"{server}/static/v/0.0.1-0000000000/js/table.js")
    assert old.status_code == 307
    assert old.headers["location"] == f"/static/v/{version}/js/table.js"
    assert httpx.get(f"{server}/static/v/{version}/js/nothing.js").status_code == 404


def test_the_service_worker_controls_the_page_with_this_versions_cache(
        browser: People, server: str) -> None:
    settings = _settings(server)
    assert settings["cache"] == f"laizi-{settings['version']}"
    assert "/" in settings["shell"]
    assert f"/static/v/{settings['version']}/js/score.js" in settings["shell"]
    assert "/static/tiles/7z.svg" in settings["shell"]
    pg = browser.page(PHONES["390x844"], who="worker", service_workers=WORKER)
    pg.goto(f"{server}/")
    pg.wait_for_selector("#player-name")
    first = pg.evaluate(CONTROLLED)
    assert first["scope"] == f"{server}/" and first["script"] == f"{server}/sw.js"
    pg.reload()
    pg.wait_for_selector("#player-name")
    again = pg.evaluate(CONTROLLED)
    assert again["caches"] == [settings["cache"]], again  # one cache, this version's
    cached = pg.evaluate("""async (name) => (await (await caches.open(name)).keys())
        .map((r) => new URL(r.url).pathname)""", settings["cache"])
    assert set(cached) >= set(settings["shell"])
    # The API is never cached.
    assert not [u for u in cached if u.startswith("/api/")]


# --------------------------------------------------------------------------- offline


TAIWAN_NAMES = ["东家", "南家", "西家", "北家"]


def _key(pg: Page, tile: str) -> None:
    pg.click(f".tilekeys button[data-tile='{TILE[tile]}']")


def _taiwan_self_draw(pg: Page) -> None:
    """南家 wins by self-draw: 123m456m789m123p45p11s + 3p (tests/test_browser.py)."""
    pg.check("input[name=winner] >> nth=1")
    pg.check("input[name=how][value=self_draw]")
    pg.click("[data-testid=sk-concealed]")
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p",
                 "4p", "5p", "1s", "1s"]:
        _key(pg, tile)
    pg.click("[data-testid=sk-win-tile]")
    _key(pg, "3p")


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_the_score_keeper_works_offline_and_sends_its_hands_when_back(
        browser: People, server: str, phone: str) -> None:
    context = browser.context(PHONES[phone], who=f"keeper {phone}", service_workers=WORKER)
    pg = context.new_page()
    pg.goto(f"{server}/score")
    pg.select_option("#sk-variant", "taiwan")
    for i, n in enumerate(TAIWAN_NAMES):
        pg.fill(f"#sk-name-{i}", n)
    pg.click("[data-testid=sk-setup] button[type=submit]")
    pg.wait_for_selector("[data-testid=sk-ledger]")
    pg.wait_for_selector(".tilekeys")
    session = pg.evaluate("new URLSearchParams(location.search).get('s')")
    pg.evaluate(CONTROLLED)

    context.set_offline(True)
    pg.reload()  # the page, its modules, tiles and the kept ledger, all without a network
    pg.wait_for_selector(".tilekeys")
    assert pg.locator(".topbar h1").inner_text().endswith(" · ".join(TAIWAN_NAMES))
    _taiwan_self_draw(pg)
    pg.wait_for_selector("[data-testid=sk-offline]")
    shot(pg, f"score-offline-{phone}", "[data-testid=sk-preview]")
    pg.click("[data-testid=sk-queue]")
    pending = pg.locator("[data-testid=sk-pending-hand]")
    pending.wait_for()
    assert "待结算" in pending.inner_text() and "南家 胡" in pending.inner_text()
    assert pg.locator("[data-testid=sk-concealed]").count() == 0  # a fresh hand's form
    # A second hand, kept before it is complete (西家 wins, no tile entered).
    pg.check("input[name=winner] >> nth=2")
    pg.click("[data-testid=sk-queue]")
    until_sync(lambda: pending.count() == 2, "two pending hands", 10)
    shot(pg, f"score-offline-pending-{phone}", "[data-testid=sk-ledger]")
    stored = httpx.get(f"{server}/api/score/sessions/{session}").json()
    assert stored["hands"] == []  # nothing reached the hall yet

    context.set_offline(False)  # `online`: the pending hands are sent, in order
    pg.wait_for_selector("[data-testid=sk-ledger] tfoot")
    # The incomplete one stays, saying why, until it is removed.
    refused = pg.locator("[data-testid=sk-pending-hand] .invalid")
    refused.wait_for()
    shot(pg, f"score-pending-refused-{phone}", "[data-testid=sk-ledger]")
    assert "没能入账" in refused.inner_text() and pending.count() == 1
    assert "西家 胡" in pending.inner_text()
    pending.locator("button.x").click()
    pg.wait_for_selector("[data-testid=sk-pending]", state="detached")
    stored = httpx.get(f"{server}/api/score/sessions/{session}").json()
    assert len(stored["hands"]) == 1
    net = stored["hands"][0]["settlement"]["net"]
    assert net[1] > 0 and sum(net) == 0
    shown = pg.locator("[data-testid=sk-ledger] tfoot td").all_inner_texts()
    assert [int(x) for x in shown] == stored["ledger"]
    assert pg.evaluate("localStorage.getItem('laizi.score.pending')") == "[]"


# --------------------------------------------------------------------------- the table

WAKE_LOCK = """
window.__locks = [];
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {
    request(type) {
        window.__locks.push('request:' + type);
        if (window.__refuse) return Promise.reject(new DOMException('refused', 'NotAllowedError'));
        const lock = new EventTarget();
        lock.type = type;
        lock.release = () => {
            window.__locks.push('release');
            lock.dispatchEvent(new Event('release'));
            return Promise.resolve();
        };
        window.__lock = lock;
        return Promise.resolve(lock);
    }}});
"""


def _locks(pg: Page) -> list[str]:
    found: list[str] = pg.evaluate("window.__locks")
    return found


def _host(browser: People, server: str, phone: str, script: str, who: str) -> tuple[Page,
                                                                                    dict[str, Any]]:
    room = new_room(server, "阿明", "jingzhou", hands=1)
    pg = browser.page(PHONES[phone], who=who, service_workers=WORKER)
    pg.add_init_script(script)
    pg.goto(room["link"])
    pg.wait_for_selector("[data-testid=start]")
    return pg, room


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_the_screen_stays_on_while_a_hand_is_under_way(browser: People, server: str,
                                                       phone: str) -> None:
    pg, _ = _host(browser, server, phone, WAKE_LOCK, f"awake {phone}")
    assert _locks(pg) == []  # nothing before the match starts
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    until_sync(lambda: _locks(pg) == ["request:screen"], "the lock asked for", 10)
    # The browser lets the lock go when the page is hidden; back in view, it is asked again.
    pg.evaluate("window.__lock.release(); document.dispatchEvent(new Event('visibilitychange'))")
    until_sync(lambda: _locks(pg) == ["request:screen", "release", "request:screen"],
               "asked again when visible", 10)
    play_until(pg, lambda: settlement_shown(pg))
    until_sync(lambda: _locks(pg)[-1] == "release", "released when the hand is over", 10)
    assert _locks(pg).count("request:screen") == 2


def test_a_refused_wake_lock_logs_nothing(browser: People, server: str) -> None:
    pg, _ = _host(browser, server, "360x740", "window.__refuse = true;" + WAKE_LOCK, "refused")
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    until_sync(lambda: _locks(pg) == ["request:screen"], "the lock asked for", 10)
    # no page error, no console error: the browser fixture checks at teardown


NOTICES = """
window.__notes = [];
window.__asked = 0;
window.__hidden = false;
class FakeNotification {
    constructor(title, options) { window.__notes.push([title, options.body]); }
    close() {}
}
FakeNotification.permission = localStorage.getItem('test.permission') || 'default';
FakeNotification.requestPermission = () => {
    window.__asked += 1;
    FakeNotification.permission = 'granted';
    localStorage.setItem('test.permission', 'granted');
    return Promise.resolve('granted');
};
window.Notification = FakeNotification;
ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
    window.__notes.push([title, options.body]);
    return Promise.resolve();
};
Object.defineProperty(document, 'visibilityState', {configurable: true,
    get: () => (window.__hidden ? 'hidden' : 'visible')});
"""

INSTALL_PROMPT = """() => {
    const e = new Event('beforeinstallprompt', {cancelable: true});
    e.prompt = () => {
        window.__prompted = (window.__prompted || 0) + 1;
        return Promise.resolve();
    };
    e.userChoice = Promise.resolve({outcome: 'accepted', platform: 'web'});
    window.dispatchEvent(e);
}"""


def _notes(pg: Page) -> list[list[str]]:
    found: list[list[str]] = pg.evaluate("window.__notes")
    return found


@pytest.mark.parametrize("phone", sorted(PHONES))
def test_turn_notices_when_hidden_and_allowed(browser: People, server: str,
                                              phone: str) -> None:
    pg, room = _host(browser, server, phone, NOTICES, f"notices {phone}")
    code = room["code"]
    pg.click(".tabs button:nth-child(3)")  # the room panel
    toggle = pg.locator("[data-testid=notify-toggle]")
    toggle.wait_for()
    assert pg.evaluate("window.__asked") == 0  # never asked on load
    assert toggle.get_attribute("aria-pressed") == "false"
    pg.evaluate(INSTALL_PROMPT)  # the browser finds the app installable
    pg.wait_for_selector("[data-testid=install]")
    toggle.click()
    until_sync(lambda: toggle.get_attribute("aria-pressed") == "true", "notices on", 10)
    assert pg.evaluate("window.__asked") == 1
    shot(pg, f"room-panel-app-settings-{phone}", ".roompanel")
    pg.click("[data-testid=install]")
    pg.wait_for_selector("[data-testid=install]", state="detached")
    assert pg.evaluate("window.__prompted") == 1

    # Remembered on the device: a reload finds notices on, without asking again.
    pg.reload()
    pg.click(".tabs button:nth-child(3)")
    pg.wait_for_selector("[data-testid=notify-toggle][aria-pressed=true]")
    assert pg.evaluate("window.__asked") == 0

    pg.evaluate("window.__hidden = true; document.dispatchEvent(new Event('visibilitychange'))")
    pg.click("[data-testid=start]")
    until_sync(lambda: ["laizi 麻将", f"牌局开始了 · 房间 {code}"] in _notes(pg),
               "the match-start notice", 10)
    turn = ["laizi 麻将", f"轮到你了 · 房间 {code}"]
    play_until(pg, lambda: turn in _notes(pg), timeout=60)
    # Visible again: no notice, however many turns come.
    pg.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    seen = len(_notes(pg))
    play_until(pg, lambda: settlement_shown(pg))
    assert len(_notes(pg)) == seen
