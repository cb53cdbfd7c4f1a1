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
  with the person's name and the tiles' names;
* the headline says how the hand was won once ("小二 胡 二条 · 阿三 点炮"); a waiting
  person reads their place in the queue; 下桌 / 上桌, one's own result, the nets and the
  horses (each buyer's tile and the seat it landed on) come first, on a 360x740 phone's
  first screen; a horse payment says whose horse landed on whose seat and that its buyer
  pays or collects as that seat does, without the table payment's breakdown again
  (issue 38, a person's look at the 晃晃 screens).

Needs Playwright for Python and Debian's chromium, like tests/test_browser.py.
"""

from __future__ import annotations

import functools
import json
import mimetypes
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Skips this module without playwright or chromium (not in CI): one rule, browser_helpers.
from browser_helpers import Browser, Page, Route, launched
from laizi.bots.registry import make_bot
from laizi.table.table import Table

STATIC = Path(__file__).resolve().parents[1] / "src" / "laizi" / "server" / "static"
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
ORIGIN = "http://laizi.test"

_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{"imports": {
  "preact": "/static/vendor/preact/preact.module.js",
  "preact/hooks": "/static/vendor/preact/hooks.module.js",
  "htm": "/static/vendor/htm/htm.module.js",
  "htm/preact": "/static/vendor/htm/preact.module.js"}}</script>
<link rel="stylesheet" href="/static/css/style.css">
</head><body><div id="app"></div>
<script type="module">
%s
</script></body></html>"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with launched() as b:
        yield b


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


def render(browser: Browser, script: str, data: dict[str, Any], lang: str = "zh",
           viewport: dict[str, int] | None = None) -> tuple[Page, list[str]]:
    """A page that runs ``script`` (a module; ``window.DATA`` holds ``data``) with the
    client's static files (and their stylesheet); its errors (page errors and console
    errors)."""
    context = browser.new_context(viewport=viewport or {"width": 390, "height": 844},
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


@functools.cache
def huanghuang_hand_with_waiting() -> dict[str, Any]:
    """A 晃晃 table of six people (two wait) played by bots until a hand sends one person
    from the table (a win on a discard: its discarder; a self-draw would send two):
    that hand's record as ``/api/rooms/CODE/records`` gives it."""
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
        if len(rec["end"]["left"]) == 1 and rec["end"]["payments"]:
            return rec
    raise AssertionError("no hand sent one person from the table")


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
        assert f"{_shown(gone)} 下桌" in rotation and f"{_shown(came)} 上桌" in rotation
        assert "电脑" in text and "🤖" not in text  # the bot's name as a person reads it
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_wrong_win_settlement_names_its_caller_and_its_payments(browser: Browser,
                                                                  lang: str) -> None:
    """A 错和 (MCR profile=botzone: a Botzone program's 胡 that is no win) ends the hand:
    the headline names the caller, never 黄庄, and each payment says 错和 (issue 43)."""
    from laizi.engine.actions import WRONG_WIN, Action
    from laizi.server.records import hand_records

    names = ["小二", "阿三", "老四", "小五"]
    table = Table("mcr", {"profile": "botzone"}, people=names, seed=3)
    table.start_hand()
    assert table.game is not None
    table.act(Action(WRONG_WIN, table.game.turn))
    rec = hand_records(table.log)[-1]
    caller = rec["seats"][rec["end"]["record"]["from"]]
    page, errors = render(browser, _SETTLEMENT, {"end": rec["end"], "names": rec["seats"],
                                                 "me": rec["seats"][1]}, lang=lang)
    try:
        assert not errors, errors
        headline = page.inner_text(".headline")
        assert caller in headline and "错和" in headline, headline
        assert "黄庄" not in headline and "Drawn" not in headline, headline
        payments = page.locator(".payment")
        assert payments.count() == 3
        for i in range(3):
            assert "错和" in payments.nth(i).inner_text()
    finally:
        page.context.close()


def test_huanghuang_horse_reasons_name_the_people(browser: Browser) -> None:
    rec = huanghuang_hand_with_waiting()
    end = rec["end"]
    page, errors = render(browser, _SETTLEMENT, {"end": end, "names": rec["seats"]})
    try:
        assert not errors, errors
        text = page.inner_text(".payments")
        assert not re.search(r"\d号位", text), text
        assert "跟随" not in text, text
    finally:
        page.context.close()


def _shown(person: str, lang: str = "zh") -> str:
    """A person's name as the page writes it (a bot's: 电脑N / Bot N)."""
    if person.startswith("🤖 "):
        return f"电脑{person[2:]}" if lang == "zh" else f"Bot {person[2:]}"
    return person


def _horse_words(p: dict[str, Any], seats: list[str], lang: str = "zh"
                 ) -> tuple[str, str, str]:
    """A horse payment's buyer, the tile's Chinese name and the person of the seat the
    horse landed on, from the engine's data (not from the page)."""
    from laizi import tiles

    r = next(r for r in p["reasons"] if r["code"] == "horse")
    x = r["params"]
    buyer = p["to"] if x["seat"] == x["payee"] else p["from"]
    return (_shown(buyer, lang), tiles.name(tiles.parse_tile(x["tile"]), "chinese"),
            _shown(seats[x["seat"]], lang))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_horse_payment_says_whose_horse_where_it_landed_and_follows_that_seat(
        browser: Browser, lang: str) -> None:
    """A horse payment reads as a horse (whose, which tile, on whose seat, the buyer pays
    or collects as that seat does), not as a second win: the table payment's base
    breakdown (底分, 刀, 硬 …) is listed once, with the table payment (issue 38)."""
    rec = huanghuang_hand_with_waiting()
    end, seats = rec["end"], rec["seats"]
    horse_payments = [p for p in end["payments"]
                      if any(r["code"] == "horse" for r in p["reasons"])]
    assert horse_payments
    page, errors = render(browser, _SETTLEMENT, {"end": end, "names": seats}, lang=lang)
    try:
        assert not errors, errors
        lines = page.locator(".payments .payment")
        assert lines.count() == len(end["payments"])
        for i, p in enumerate(end["payments"]):
            if p not in horse_payments:
                continue
            li = lines.nth(i)
            assert li.locator(".reasons li").count() == 1, li.inner_text()
            said = li.locator(".reasons li").inner_text()
            buyer, tile, seat = _horse_words(p, seats, lang)
            x = next(r for r in p["reasons"] if r["code"] == "horse")["params"]
            collects = x["seat"] == x["payee"]
            if lang == "zh":
                assert said.startswith(f"买马：{buyer}的马 {tile} 落在 {seat} → 随 {seat} "), said
                other = _shown(seats[x["payer"]] if collects else seats[x["payee"]])
                want = f"收 {other} 的 {p['amount']}" if collects else \
                    f"付 {other} {p['amount']}"
                assert said.endswith(want), (said, want)
                assert not re.search(r"底分|刀|跟随", said), said
            else:
                assert said.startswith(f"Horse (买马): {buyer}'s horse "), said
                assert f"landed on {seat}" in said and f"as {seat} does" in said, said
                assert ("collects" if collects else "pays") in said, said
                assert "base" not in said and "follows" not in said, said
    finally:
        page.context.close()


def test_the_horses_row_shows_each_buyers_tile_and_whose_seat_it_landed_on(
        browser: Browser) -> None:
    from laizi import tiles
    from laizi.table.horses import horse_seat

    rec = huanghuang_hand_with_waiting()
    end, seats = rec["end"], rec["seats"]
    for h in end["horses"]:  # the records give the seat (the engine's rule, not the page's)
        assert h["seat"] == horse_seat(tiles.parse_tile(h["tile"]), rec["dealer"])
    page, errors = render(browser, _SETTLEMENT, {"end": end, "names": seats})
    try:
        assert not errors, errors
        shown = page.locator(".horses .horse").all_inner_texts()
        assert len(shown) == len(end["horses"])
        for line, h in zip(shown, end["horses"], strict=True):
            name, landed = _shown(h["person"]), _shown(seats[h["seat"]])
            assert line.startswith(name) and line.rstrip().endswith(f"→ {landed}"), (line, h)
        tiles_shown = page.locator(".horses .horse .tile")
        assert tiles_shown.count() == len(end["horses"])  # each buyer's tile
    finally:
        page.context.close()


def test_a_waiting_person_sees_who_leaves_who_sits_their_result_and_the_nets_first(
        browser: Browser) -> None:
    """What 晃晃 is played for — 下桌 / 上桌, one's own result, the nets and the horses —
    is on the first screen of a 360x740 phone, above the revealed hands and the
    itemised payments (which stay below)."""
    rec = huanghuang_hand_with_waiting()
    end, seats = rec["end"], rec["seats"]
    (_, gone), = end["left"]
    (_, came), = end["entered"]
    me = next(p for p in end["net"] if p not in seats and p != came)  # still waiting
    page, errors = render(browser, _SETTLEMENT, {"end": end, "names": seats, "me": me},
                          viewport={"width": 360, "height": 740})
    try:
        assert not errors, errors
        summary = page.inner_text("[data-testid=settle-summary]")
        v = end["net"][me]
        assert summary.replace("\n", "") == (
            f"{_shown(gone)} 下桌 · {_shown(came)} 上桌 · 你 {'+' if v > 0 else ''}{v}"), summary
        order = page.evaluate("""() => [...document.querySelectorAll(
            '.settlement > *')].map(e => e.className.split(' ')[0])""")
        assert order[:5] == ["headline", "summary", "nets", "horses", "reveal"], order
        assert order.index("payments") > order.index("reveal"), order
        # A modal's head is about 50 px: everything above the hands fits under it.
        bottom = page.eval_on_selector(".horses", "e => e.getBoundingClientRect().bottom")
        assert bottom < 740 - 80, bottom
        assert page.locator(".nets .net.me").inner_text().startswith(_shown(me))
    finally:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_headline_says_how_the_hand_was_won_once(browser: Browser, lang: str) -> None:
    """"小二 胡 二条 · 阿三 点炮", never "· 点炮 · 阿三 点炮" (issue 38)."""
    names = ["小二", "阿三", "老四", "小五"]
    base = {"outcome": "win", "winners": [0], "tile": "2s", "seats": [{}, {}, {}, {}]}
    cases = {
        "discard": ({**base, "how": "discard", "from": 1},
                    "小二 胡 二条 · 阿三 点炮", "小二 wins on "),
        "robbed": ({**base, "how": "robbed_kong", "from": 2},
                   "小二 胡 二条 · 抢 老四 的杠", "小二 wins on "),
        "self": ({**base, "how": "self_draw"}, "小二 胡 二条 · 自摸", "小二 wins on "),
        "kong": ({**base, "how": "self_draw", "after_kong": True},
                 "小二 胡 二条 · 自摸 · 杠开", "小二 wins on "),
    }
    page, errors = render(browser, _HEADLINES, {"cases": {k: c[0] for k, c in cases.items()},
                                                "names": names}, lang=lang)
    try:
        assert not errors, errors
        got = page.evaluate("window.TEXT")
        for key, (_, zh, en) in cases.items():
            if lang == "zh":
                assert got[key] == zh, (key, got[key])
            else:
                assert got[key].startswith(en), got[key]
        if lang == "en":
            assert got["discard"].endswith(" · dealt in by 阿三"), got["discard"]
            assert "on a discard" not in got["discard"]
            assert got["robbed"].endswith(" · robbing 老四's kong"), got["robbed"]
            assert got["self"].endswith(" · self-drawn"), got["self"]
        else:
            assert all(v.count("点炮") <= 1 and v.count("抢") <= 1 for v in got.values()), got
    finally:
        page.context.close()


_HEADLINES = """
import { headline } from "/static/js/settle.js";
window.TEXT = Object.fromEntries(Object.entries(DATA.cases)
  .map(([k, r]) => [k, headline(r, DATA.names)]));
window.DONE = true;
"""

_QUEUE = """
import { queueLine } from "/static/js/words.js";
window.TEXT = DATA.people.map((p) => queueLine(DATA.waiting, p));
window.DONE = true;
"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_waiting_banner_says_ones_place_in_the_queue(browser: Browser, lang: str) -> None:
    """With four seated, a waiting person sits only when somebody 下桌, the front of the
    queue first: the banner says one's place, never "the next hand" to everyone."""
    waiting = ["小五", "小六", "小七"]
    page, errors = render(browser, _QUEUE, {"waiting": waiting,
                                            "people": [*waiting, "小二"]}, lang=lang)
    try:
        assert not errors, errors
        first, second, third, seated = page.evaluate("window.TEXT")
        assert seated is None
        if lang == "zh":
            assert first.startswith("等座第 1 位") and "有人下桌，你就上桌" in first, first
            assert second.startswith("等座第 2 位") and "前面还有 1 人" in second, second
            assert third.startswith("等座第 3 位") and "前面还有 2 人" in third, third
            assert all("下桌" in s and "下一手" not in s for s in (first, second, third))
        else:
            assert first.startswith("First in the queue") and "leaves the table" in first
            assert second.startswith("Number 2 in the queue (1 ahead of you)"), second
            assert all("next hand" not in s for s in (first, second, third))
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
    from laizi.core.records import RecordError
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


def test_a_reason_without_its_parts_never_shows_a_0_based_seat(browser: Browser) -> None:
    """A reason's text without its ``parts`` (an older record, another client's) names
    seats by their 0-based number: the page writes the person there, or, with no name,
    the seat counted from 1 as the settlement does elsewhere — never ``0号位``."""
    from laizi.server.scorekeeper import settle_record

    answer = settle_record(json.loads((EXAMPLES / "jingzhou-hand.json").read_text()))
    for p in answer["payments"]:
        for r in p["reasons"]:
            r.pop("parts", None)
    doubling = next(r for p in answer["payments"] for r in p["reasons"]
                    if r["code"] == "doublings" and not r["params"]["winner"])
    seat = doubling["params"]["seat"]
    assert f"{seat}号位" in doubling["zh"]  # what the server's text says
    names = ["东东", "南南", "西西"]
    for shown, lang in ((names, "zh"), ([], "zh"), (names, "en")):
        page, errors = render(browser, _SETTLEMENT, {"end": answer, "names": shown}, lang=lang)
        try:
            assert not errors, errors
            text = page.inner_text(".payments")
            if shown:
                assert "号位" not in text and "seat " not in text, text
                assert names[seat] in text, text
            else:  # no names: every seat counted from 1, the same way everywhere
                assert f"{seat + 1}号位翻倍" in text, text
                assert "0号位" not in text, text
        finally:
            page.context.close()
