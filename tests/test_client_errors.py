"""The client's words for the hall's refusals (issue 42): ``too_large``, ``rate_limited``,
``forbidden_origin`` and ``not_json`` are said in the page's language wherever the client
shows an error (the lobby's create and join, the table's websocket closed with 4403), not
as the server's English message. The client is served by the stand-in hall of
tests/test_client_clock.py (no server).
"""

from __future__ import annotations

import json
import re

import pytest

# Skips this module without playwright or chromium (not in CI): one rule, browser_helpers.
from browser_helpers import Browser, Page, Route
from test_client_clock import CODE, ORIGIN, STATIC, TOKEN, Hall, browser, open_page, table_api

__all__ = ["browser"]  # the module fixture, shared

WORDS = {"too_large": ("内容太长了", "Too long"),
         "rate_limited": ("太快了", "Too many at once"),
         "forbidden_origin": ("不是牌馆自己的", "not the hall's own"),
         "not_json": ("须为 JSON", "must be JSON")}
STATUS = {"too_large": 413, "rate_limited": 429, "forbidden_origin": 403, "not_json": 415}


def test_every_refusal_code_has_words_in_both_languages() -> None:
    source = (STATIC / "js" / "i18n.js").read_text(encoding="utf-8")
    for code, (zh, en) in WORDS.items():
        found = re.search(rf'^\s*err_{code}: \["([^"]+)", "([^"]+)"\],$', source, re.M)
        assert found is not None, code
        assert zh in found.group(1) and en in found.group(2), found.groups()


def _refuse(code: str) -> object:
    def handle(route: Route) -> None:
        route.fulfill(status=STATUS[code], content_type="application/json",
                      body=json.dumps({"error": {"code": code, "message": f"english {code}",
                                                 "seat": None, "phase": None}}))
    return handle


def _shown(page: Page, text: str) -> None:
    page.wait_for_function("t => document.body.innerText.includes(t)", arg=text,
                           timeout=10_000)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_lobby_says_why_the_hall_refused(browser: Browser, lang: str) -> None:
    from laizi.variants import get, ids

    variants = [{"id": v, "name": get(v).name, "seats": get(v).seats,
                 "options": get(v).options_to_json(get(v).default_options())} for v in ids()]
    page, errors = open_page(browser, Hall({"/api/variants": variants}), "/")
    try:
        if lang == "en":
            page.evaluate("localStorage.setItem('laizi.lang', 'en')")
            page.add_init_script("localStorage.setItem('laizi.lang', 'en');")
            page.reload()
        page.fill("#player-name", "阿明")
        for code, words in WORDS.items():
            page.unroute(f"{ORIGIN}/api/rooms")
            page.route(f"{ORIGIN}/api/rooms", _refuse(code))
            page.click("[data-testid=create-form] button[type=submit]")
            _shown(page, words[0 if lang == "zh" else 1])
            assert f"english {code}" not in page.inner_text("body")
        page.unroute(f"{ORIGIN}/api/rooms")
        page.route(f"{ORIGIN}/api/rooms/654321/join", _refuse("too_large"))
        page.fill("#code", "654321")
        page.click("[data-testid=join-form] button[type=submit]")
        _shown(page, WORDS["too_large"][0 if lang == "zh" else 1])
        # Only the refused loads themselves are logged (Chromium's "Failed to load").
        assert all("Failed to load resource" in e for e in errors), errors
    finally:
        page.context.close()


# The longest a dropped connection waits before it tries again (conn.js: 0.5 s doubling
# up to 15 s, +-25 %), in ms: the page's fake clock runs past it.
LONGEST_RECONNECT_DELAY = 15_000 * 1.25


def test_a_table_refused_for_its_origin_says_so_and_stops(browser: Browser) -> None:
    page, errors = open_page(browser, Hall(table_api("阿明")), f"/r/{CODE}?t={TOKEN}",
                             clock=True)
    try:
        page.wait_for_function("window.__sockets.length > 0", timeout=10_000)
        page.evaluate("""() => {
          const ws = window.__sockets[window.__sockets.length - 1];
          ws.onmessage({ data: JSON.stringify({ op: "error", seq: null, error: {
            code: "forbidden_origin", message: "english", seat: null, phase: null } }) });
          ws.readyState = 3;
          ws.onclose({ code: 4403 });
        }""")
        _shown(page, WORDS["forbidden_origin"][0])
        # No reconnection: the refusal is final. The page's timers run on Playwright's
        # clock, past any delay after which the page would have opened a new socket.
        page.clock.run_for(int(LONGEST_RECONNECT_DELAY) + 1000)
        assert page.evaluate("window.__sockets.length") == 1
        assert not errors, errors
    finally:
        page.context.close()

