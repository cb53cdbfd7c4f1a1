"""Helpers of the browser tests (tests/test_browser*.py): the hall as a subprocess, the
browser every test gets, and what a person does at the table.

* :func:`server` (a module fixture) runs ``laizi serve`` on a free loopback port with its
  own SQLite file; a test that ends with errors on the server's stderr count
  (``/healthz`` ``errors``) fails.
* :func:`browser` (a test fixture) is a :class:`People`: the one way a test opens browser
  contexts and pages. Every page of every context it opens records its page errors
  (uncaught exceptions) and console errors (a failed load included), and the test fails
  at teardown if there was any — a multi-person test included. There is no allowance:
  a page's ordinary flow logs no error (the score-keeper asks ``POST /api/score/check``,
  which answers an impossible hand with 200 and its verdict).
* :func:`decide` / :func:`play_until` click as a person would: a win if offered, else a
  claim (when asked to) or pass, else discard the hand's most isolated tile;
  :func:`settlement` reads a settlement modal.

Needs ``pip install playwright`` and Debian's ``chromium`` (+ ``fonts-noto-cjk``);
``playwright install`` is never needed. Without them the tests are skipped, except in CI
(``CI=true``), where they must run. ``LAIZI_SHOTS=DIR`` saves screenshots there.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conditions import POLL_MS, until_sync
from server_helpers import GENEROUS_LIMITS

CHROMIUM = os.environ.get("LAIZI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
_IN_CI = os.environ.get("CI") == "true"

try:
    from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
    from playwright.sync_api import Route as Route  # for the tests that import it from here
except ImportError:  # pragma: no cover - depends on the machine
    if _IN_CI:
        raise
    pytest.skip("playwright is not installed (pip install 'laizi[dev]')",
                allow_module_level=True)
if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
    if _IN_CI:
        raise RuntimeError(f"chromium not found at {CHROMIUM}: CI installs Debian's chromium")
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium fonts-noto-cjk)",
                allow_module_level=True)

LAIZI = Path(sys.executable).with_name("laizi")
PHONES = {"360x740": {"width": 360, "height": 740}, "390x844": {"width": 390, "height": 844}}
DESKTOP = {"width": 1280, "height": 800}
FAST = {"clock": None, "claim_min": 0, "bot_delay": 0, "between": 0}
SHOTS = os.environ.get("LAIZI_SHOTS")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_errors(url: str) -> int:
    import httpx

    return int(httpx.get(f"{url}/healthz", timeout=5).json()["errors"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("browser")) as url:
        yield url


@contextlib.contextmanager
def serving(tmp: Path, env: dict[str, str] | None = None) -> Iterator[str]:
    """``laizi serve`` on a free port with its database in ``tmp`` (``env``: variables
    of its own, e.g. ``LAIZI_HINT_BUDGET``); its URL."""
    import httpx

    port = _free_port()
    err = open(tmp / "server.stderr", "wb")  # noqa: SIM115 (closed below)
    proc = subprocess.Popen(
        [str(LAIZI), "serve", "--port", str(port), "--db",
         f"sqlite+aiosqlite:///{(tmp / 'hall.db').resolve()}"],
        stdout=subprocess.DEVNULL, stderr=err,
        # limits no browser test reaches (server_helpers.GENEROUS_LIMITS: all from 127.0.0.1)
        env={**os.environ, "PYTHONUNBUFFERED": "1", **GENEROUS_LIMITS, **(env or {})})
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        if proc.poll() is not None:
            raise RuntimeError((tmp / "server.stderr").read_text())
        try:
            return httpx.get(f"{url}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    try:
        until_sync(up, "laizi serve answers /healthz", 30)
    except AssertionError:
        proc.kill()
        raise
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        err.close()


@contextlib.contextmanager
def launched() -> Iterator[Browser]:
    """Debian's chromium, started by Playwright (never a browser of its own)."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    with launched() as b:
        yield b


MUTED = """try {
    localStorage.setItem('laizi.sound', JSON.stringify({volume: 0.8, mute: true}));
} catch (e) { /* a page with no storage (about:blank): nothing to mute */ }"""
"""sound.js's stored setting (``laizi.sound``), muted, before any page script runs."""


class People:
    """Browser contexts (one a person) whose every page is watched for errors."""

    def __init__(self, chromium: Browser) -> None:
        self._chromium = chromium
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def context(self, viewport: dict[str, int] | None = None, locale: str = "zh-CN",
                who: str = "", senses: bool = False, **options: Any) -> BrowserContext:
        """A person's context; ``options`` go to Playwright's ``new_context``.

        - The service worker (static/sw.js) is blocked unless a test asks for it
          (``service_workers="allow"``, tests/test_browser_app.py): each context is a new
          device, whose worker would precache the whole app shell (about a hundred files,
          ~0.4 s of CPU a context between chromium and the hall) for tests that never go
          offline.
        - The page is quiet unless ``senses``: sound muted (:data:`MUTED`) and reduced
          motion. Sound and motion are tests/test_browser_senses.py's (and the 晃晃 group
          host's); every other page animating and sounding each discard of a fast room
          costs chromium about a third more CPU than the page's own work."""
        options.setdefault("service_workers", "block")
        if not senses:
            options.setdefault("reduced_motion", "reduce")
        ctx = self._chromium.new_context(viewport=viewport or PHONES["360x740"],
                                         locale=locale, **options)
        if not senses:
            ctx.add_init_script(MUTED)
        label = who or f"context {len(self.contexts)}"
        ctx.on("weberror", lambda e: self.errors.append(f"{label}: page error: {e.error}"))
        ctx.on("console", lambda m: self._console(label, m))
        self.contexts.append(ctx)
        return ctx

    def _console(self, label: str, msg: Any) -> None:
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            self.errors.append(f"{label}: console error: {msg.text} ({where})")

    def page(self, viewport: dict[str, int] | None = None, locale: str = "zh-CN",
             who: str = "", senses: bool = False, **options: Any) -> Page:
        return self.context(viewport, locale, who, senses, **options).new_page()

    def close(self) -> list[str]:
        for ctx in self.contexts:
            ctx.close()
        self.contexts.clear()
        return self.errors


@pytest.fixture
def browser(chromium: Browser, server: str) -> Iterator[People]:
    """Every test's browser: its pages' page and console errors fail the test, and so do
    errors the server reported meanwhile."""
    before = _server_errors(server)
    people = People(chromium)
    try:
        yield people
    finally:
        errors = people.close()
    assert not errors, "\n".join(errors)
    assert _server_errors(server) == before, "the server reported errors (its stderr)"


def shot(pg: Page, name: str, selector: str | None = None, **kw: Any) -> None:
    """A screenshot in $LAIZI_SHOTS (when set), for a person to look at: the viewport, or
    the whole of ``selector``'s element."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        path = str(Path(SHOTS) / f"{name}.png")
        if selector:  # a viewport as tall as the element, for the while of the shot
            size = pg.viewport_size
            assert size is not None
            tall = pg.eval_on_selector(selector, "e => Math.ceil(e.scrollHeight) + 40")
            pg.set_viewport_size({"width": size["width"], "height": max(tall, size["height"])})
            pg.locator(selector).screenshot(path=path, **kw)
            pg.set_viewport_size(size)
        else:
            pg.screenshot(path=path, **kw)


# --------------------------------------------------------------------------- rooms


def new_room(server: str, name: str, variant: str, **settings: Any) -> dict[str, Any]:
    """POST /api/rooms with the fast settings: {code, token, link}."""
    import httpx

    r = httpx.post(f"{server}/api/rooms", json={"name": name, "settings": {
        "variant": variant, **FAST, **settings}})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    answer["link"] = server + answer["link"] if answer["link"].startswith("/") else \
        answer["link"]
    return answer


def join_by_link(pg: Page, server: str, code: str, name: str,
                 role: str = "player") -> None:
    """Open the room's shared link (no token), type one's name and join."""
    pg.goto(f"{server}/r/{code}")
    pg.fill("#player-name", name)
    pg.click(".card .buttons button" + (".primary" if role == "player" else ":not(.primary)"))
    pg.wait_for_selector(".table-page")


def records(server: str, code: str) -> list[dict[str, Any]]:
    import httpx

    hands: list[dict[str, Any]] = httpx.get(f"{server}/api/rooms/{code}/records").json()["hands"]
    return hands


def end_match(pg: Page) -> None:
    """The host ends the match from the room tab (so no room plays on after a test)."""
    pg.once("dialog", lambda d: d.accept())
    pg.click(".tabs button:nth-child(3)")
    pg.click(".host button.danger")
    pg.wait_for_selector(".banner:has-text('牌局结束'), .banner:has-text('Match over')")


# --------------------------------------------------------------------------- playing

LOOK = """() => {
    const m = document.querySelector('[data-testid=settlement]');
    const bar = document.querySelector('[data-testid=actionbar]');
    return {settlement: m ? m.getAttribute('aria-label') : null,
            window: !!(bar && bar.classList.contains('window')),
            acts: [...document.querySelectorAll('[data-testid=actionbar] [data-action]')]
                .filter(b => !b.disabled).map(b => b.dataset.action),
            tiles: document.querySelectorAll('.myhand button.tile:not([aria-disabled])').length,
            pick: pick(), auto: !!document.querySelector('.banner.auto'),
            seated: !!document.querySelector('.myhand')};
    function pick() {  // the most isolated tile one may discard (never the wildcard)
        const hand = [...document.querySelectorAll('.myhand .tile')];
        const ts = hand.map(e => Number(e.dataset.tile));
        let best = -1, low = Infinity;
        hand.forEach((e, i) => {
            if (e.tagName !== 'BUTTON' || e.getAttribute('aria-disabled') === 'true') return;
            const t = ts[i];
            let keep = e.classList.contains('wild') ? 1000 : 0;
            ts.forEach((u, j) => {
                if (j === i) return;
                if (u === t) keep += 4;
                else if (t < 27 && Math.floor(u / 9) === Math.floor(t / 9))
                    keep += {1: 2, 2: 1}[Math.abs(u - t)] || 0;
            });
            if (keep <= low) { low = keep; best = i; }
        });
        return best;
    }}"""
CLAIMS = ("pung", "kong", "chow", "win")


def look(pg: Page) -> dict[str, Any]:
    """What the page shows at a glance: the settlement's title (or None), whether a
    window's prompt is up, the enabled action buttons, the tiles one may discard, 托管."""
    found: dict[str, Any] = pg.evaluate(LOOK)
    return found


def choose(seen: dict[str, Any], claim: bool = False) -> str | None:
    """The selector a person clicks: a win, else (``claim``) any other action offered,
    else pass, else the most isolated tile of the hand, else the first button."""
    acts = seen["acts"]
    if "win" in acts:
        return "[data-action=win]:not([disabled])"
    others = [a for a in acts if a != "pass"]
    if claim and others:
        return f"[data-action={others[0]}]:not([disabled])"
    if "pass" in acts:
        return "[data-action=pass]:not([disabled])"
    if seen["tiles"] and seen["pick"] >= 0:
        return f".myhand .tile >> nth={seen['pick']}"
    if acts:
        return f"[data-action={acts[0]}]:not([disabled])"
    return None


def decide(pg: Page, claim: bool = False, seen: dict[str, Any] | None = None) -> bool:
    """Make one decision by clicking, as a person would (:func:`choose`); whether there
    was one."""
    sel = choose(seen if seen is not None else look(pg), claim)
    if sel is None:
        return False
    try:
        pg.click(sel, timeout=2000)
    except Exception:  # the frame moved on under the click: look again
        return False
    return True


def play_until(pg: Page, done: Callable[[], bool], timeout: float = 120,
               each: Callable[[dict[str, Any]], None] | None = None,
               claim: bool = False) -> int:
    """Decide until ``done()``; ``each(look)`` at every look first; the clicks made."""
    deadline = time.monotonic() + timeout
    clicks = 0
    while not done():
        assert time.monotonic() < deadline, "the hand did not end"
        seen = look(pg)
        if each is not None:
            each(seen)
        if decide(pg, claim, seen):
            clicks += 1
        else:
            pg.wait_for_timeout(POLL_MS)
    return clicks


GEOMETRY = """() => {
    const box = e => { const b = e.getBoundingClientRect();
                       return [b.left, b.top, b.right, b.bottom]; };
    return {bar: box(document.querySelector('[data-testid=actionbar]')),
            tiles: [...document.querySelectorAll('.myhand .tile')].map(box),
            buttons: [...document.querySelectorAll('[data-testid=actionbar] [data-action]')]
                .map(box),
            width: innerWidth, height: innerHeight}}"""


def overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(box: list[float], g: dict[str, Any]) -> bool:
    eps = 0.5
    return (box[0] >= -eps and box[1] >= -eps and box[2] <= g["width"] + eps
            and box[3] <= g["height"] + eps)


def check_hand_visible(pg: Page) -> dict[str, Any]:
    """While a prompt is up: every tile of the hand and every button is on the screen, and
    the action bar covers none of the tiles; the measures."""
    g: dict[str, Any] = pg.evaluate(GEOMETRY)
    assert g["tiles"] and g["buttons"], g
    for tile in g["tiles"]:
        assert inside(tile, g), ("a tile of the hand is off the screen", tile, g)
        assert not overlap(tile, g["bar"]), ("the claim bar covers a tile", tile, g)
    for button in g["buttons"]:
        assert inside(button, g), ("a button is off the screen", button, g)
    return g


def settlement_shown(pg: Page) -> bool:
    return pg.locator("[data-testid=settlement]").count() > 0


def close_settlement(pg: Page) -> None:
    """Close the settlement on show, as its reader does (× in its corner)."""
    # Replaced under the click (a later hand's)? The next look sees it.
    with contextlib.suppress(Exception):
        pg.click("[data-testid=settlement] .x", timeout=2000)


def settlement(pg: Page) -> dict[str, Any]:
    """What the settlement modal on show says."""
    found: dict[str, Any] = pg.eval_on_selector("[data-testid=settlement]", """m => ({
        title: m.getAttribute('aria-label'),
        text: m.innerText,
        headline: (m.querySelector('.headline') || {}).innerText || '',
        payments: [...m.querySelectorAll('.payments .payment')].map(p => p.innerText),
        nets: [...m.querySelectorAll('.nets .net')].map(n => n.innerText),
        horses: [...m.querySelectorAll('.horses .horse')].map(h => h.innerText),
        rotation: (m.querySelector('.rotation') || {}).innerText || '',
        reveal: m.querySelectorAll('.reveal-seat').length})""")
    return found


def bot_name(person: str) -> str:
    """A person's name as the page shows it (bots: 电脑N)."""
    return f"电脑{person[2:]}" if person.startswith("🤖 ") else person


def check_settlement(s: dict[str, Any], end: dict[str, Any], names: list[str]) -> None:
    """A settlement as shown against the hand's ``end`` (records API): the headline, a
    line per payment, the nets with people's names, never a seat number."""
    assert s["headline"].strip(), s
    if end["record"]["outcome"] == "win":
        assert "胡" in s["headline"], s["headline"]
    assert len(s["payments"]) == len(end["payments"]), (s["payments"], end["payments"])
    shown = [bot_name(p) for p in names]
    assert len(s["nets"]) == len(end["net"])
    for line in s["nets"]:
        assert any(line.startswith(n) for n in shown), (line, shown)
    for line in s["payments"]:
        assert sum(n in line for n in shown) >= 2, (line, shown)  # from whom, to whom
    assert "号位" not in s["text"] and "seat " not in s["text"], s["text"]
