"""Settlements and their words in the browser client, rendered on their own.

The client's settlement (``static/js/settle.js``) is rendered in headless chromium from
real server data (a 晃晃 ``hand_end`` line of :class:`laizi.table.Table`, a score-keeper
answer), the static files served straight from the package (no server): a page error or
a console error fails the test.

* a 晃晃 settlement with someone waiting (``left`` / ``entered`` are ``[seat, person]``
  pairs) shows its payments, its horses and who 下桌 (issue 38, item 1);
* a reason with a seat in it names the person of that seat, never a 0-based seat number
  (issue 38, item 7), at the table and in the score-keeper;
* the score-keeper's refusal of an impossible hand is worded in the page's language
  with the person's name and the tiles' names.

Needs Playwright for Python and Debian's chromium, like tests/test_browser.py.
"""

from __future__ import annotations

import json
import mimetypes
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from laizi.bots.registry import make_bot
from laizi.table.table import Table

CHROMIUM = os.environ.get("LAIZI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
_IN_CI = os.environ.get("CI") == "true"
STATIC = Path(__file__).resolve().parents[1] / "src" / "laizi" / "server" / "static"
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
ORIGIN = "http://laizi.test"

try:
    from playwright.sync_api import Browser, Page, Route, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    if _IN_CI:
        raise
    pytest.skip("playwright is not installed (pip install 'laizi[dev]')",
                allow_module_level=True)
if not Path(CHROMIUM).exists():  # pragma: no cover - depends on the machine
    if _IN_CI:
        raise RuntimeError(f"chromium not found at {CHROMIUM}")
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium fonts-noto-cjk)",
                allow_module_level=True)

_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports": {
  "preact": "/static/vendor/preact/preact.module.js",
  "preact/hooks": "/static/vendor/preact/hooks.module.js",
  "htm": "/static/vendor/htm/htm.module.js",
  "htm/preact": "/static/vendor/htm/preact.module.js"}}</script>
</head><body><div id="app"></div>
<script type="module">
%s
</script></body></html>"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield b
        finally:
            b.close()


def _serve(script: str) -> Any:
    def handle(route: Route) -> None:
        path = route.request.url[len(ORIGIN):].split("?")[0]
        if path == "/":
            route.fulfill(status=200, content_type="text/html", body=_PAGE % script)
            return
        file = (STATIC / path.removeprefix("/static/")).resolve()
        if not path.startswith("/static/") or STATIC not in file.parents or not file.is_file():
            route.fulfill(status=404, body="not found")
            return
        kind = "text/javascript" if file.suffix == ".js" else \
            mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        route.fulfill(status=200, content_type=kind, body=file.read_bytes())
    return handle


def render(browser: Browser, script: str, data: dict[str, Any], lang: str = "zh"
           ) -> tuple[Page, list[str]]:
    """A page that runs ``script`` (a module; ``window.DATA`` holds ``data``) with the
    client's static files; its errors (page errors and console errors)."""
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  locale="zh-CN" if lang == "zh" else "en-US")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error"
            else None)
    page.add_init_script(f"window.DATA = {json.dumps(data, ensure_ascii=False)};"
                         f"localStorage.setItem('laizi.lang', {json.dumps(lang)});")
    page.route(f"{ORIGIN}/**", _serve(script))
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("window.DONE === true || window.FAILED !== undefined",
                           timeout=10_000)
    return page, errors


_SETTLEMENT = """
import { html, render } from "htm/preact";
import { Settlement } from "/static/js/settle.js";
try {
  render(html`<${Settlement} end=${DATA.end} names=${DATA.names} me=${DATA.me} />`,
         document.getElementById("app"));
  window.DONE = true;
} catch (e) { window.FAILED = String(e); throw e; }
"""


def huanghuang_hand_with_waiting() -> dict[str, Any]:
    """A 晃晃 table of six people (two wait) played by bots until a hand sends someone
    from the table: that hand's record as ``/api/rooms/CODE/records`` gives it."""
    from laizi.server.records import hand_records

    people = ["阿一", "阿二", "阿三", "阿四", "阿五", "🤖 六"]
    table = Table("huanghuang", people=people, seed=3)
    bots = [make_bot("greedy", i) for i in range(4)]
    for _ in range(20):
        table.start_hand()
        while table.in_hand:
            seat = table.to_act()[0]
            game = table.game
            assert game is not None
            table.act(bots[seat].choose(game.view(seat), table.legal_actions(seat)))
        rec = hand_records(table.log)[-1]
        if rec["end"]["left"] and rec["end"]["payments"]:
            return rec
    raise AssertionError("no hand sent anybody from the table")


def test_huanghuang_settlement_with_someone_waiting_shows_payments_horses_and_rotation(
        browser: Browser) -> None:
    rec = huanghuang_hand_with_waiting()
    end = rec["end"]
    (seat, gone), = end["left"]
    (_, came), = end["entered"]
    assert isinstance(seat, int) and isinstance(gone, str)
    page, errors = render(browser, _SETTLEMENT, {"end": end, "names": rec["seats"],
                                                 "me": rec["seats"][0]})
    try:
        assert not errors, errors
        text = page.inner_text(".settlement")
        assert page.locator(".payment").count() == len(end["payments"])
        assert page.locator(".horse").count() == len(end["horses"])
        rotation = page.inner_text(".rotation")
        assert f"{gone} 下桌" in rotation and f"{came} 上桌" in rotation
        assert "电脑" in text and "🤖" not in text  # the bot's name as a person reads it
    finally:
        page.context.close()


def test_huanghuang_horse_reasons_name_the_people(browser: Browser) -> None:
    rec = huanghuang_hand_with_waiting()
    end = rec["end"]
    horse = next(r for p in end["payments"] for r in p["reasons"] if r["code"] == "horse")
    follows = rec["seats"][horse["params"]["payer"]]
    page, errors = render(browser, _SETTLEMENT, {"end": end, "names": rec["seats"]})
    try:
        assert not errors, errors
        text = page.inner_text(".payments")
        assert not re.search(r"\d号位", text), text
        assert f"跟随 {follows}" in text, text
    finally:
        page.context.close()


_REFUSAL = """
import { reasonText } from "/static/js/i18n.js";
import { displayName } from "/static/js/words.js";
window.TEXT = reasonText(DATA.refusal, (s) => displayName(DATA.names[s]));
window.DONE = true;
"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_score_keeper_refusal_in_the_pages_language_with_names(browser: Browser,
                                                                lang: str) -> None:
    from laizi.records import RecordError
    from laizi.server.scorekeeper import settle_record

    record = json.loads((EXAMPLES / "jingzhou-hand.json").read_text())
    record["seats"][2]["concealed"] = "1236p135689s"
    with pytest.raises(RecordError) as info:
        settle_record(record)
    assert info.value.refusal is not None
    names = ["东东", "南南", "西西"]
    page, errors = render(browser, _REFUSAL, {"refusal": info.value.refusal.to_json(),
                                              "names": names}, lang=lang)
    try:
        assert not errors, errors
        text = page.evaluate("window.TEXT")
        assert text.startswith("西西没有胡：" if lang == "zh" else "西西 has not won: "), text
        assert "seat" not in text and "号位" not in text
        if lang == "zh":
            assert not re.search(r"[A-Za-z]", text), text
    finally:
        page.context.close()


def test_score_keeper_settlement_names_the_players(browser: Browser) -> None:
    from laizi.server.scorekeeper import settle_record

    record = json.loads((EXAMPLES / "jingzhou-hand.json").read_text())
    answer = settle_record(record)
    names = ["东东", "南南", "西西"]
    page, errors = render(browser, _SETTLEMENT, {"end": answer, "names": names})
    try:
        assert not errors, errors
        text = page.inner_text(".payments")
        assert "号位" not in text, text
        doubling = next(r for p in answer["payments"] for r in p["reasons"]
                        if r["code"] == "doublings" and not r["params"]["winner"])
        assert f"{names[doubling['params']['seat']]}翻倍" in text, text
    finally:
        page.context.close()
