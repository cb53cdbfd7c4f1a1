"""The score-keeper on every phone (issue 41, item 7; docs/hall.md, "The score-keeper on
every phone"), in chromium: two phones (360×740 and 390×844, a browser context each, so
an identity each). Phone A starts a session and shows its join link and QR code; phone B
opens the link and joins; A enters a hand and both show the same ledger; then B enters one
and both show the same ledger again, B's page never reloaded (it follows A's hand by
itself). Every page is watched for page and console errors."""

from __future__ import annotations

from typing import TYPE_CHECKING

import browser_helpers
from browser_helpers import PHONES, People, shot
from conditions import until_sync

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)

TILE = {f"{r + 1}{s}": 9 * i + r for i, s in enumerate("mps") for r in range(9)}
TILE.update({f"{r + 1}z": 27 + r for r in range(7)})
NAMES = ["东家", "南家", "西家", "北家"]
LEDGER = "[data-testid=sk-ledger] table.ledger"


def _phone(browser: People, size: str, who: str) -> Page:
    context = browser.context(PHONES[size], who=who)
    # the name this phone's identity is made with (the lobby's name field keeps it)
    context.add_init_script(  # (about:blank has no localStorage)
        f"if (location.protocol.startsWith('http')) localStorage.setItem('laizi.name', '{who}')")
    return context.new_page()


def _self_draw(pg: Page, winner: int) -> None:
    """``winner`` wins by self-draw: 123m456m789m123p45p11s + 3p."""
    pg.check(f"input[name=winner] >> nth={winner}")
    pg.check("input[name=how][value=self_draw]")
    pg.click("[data-testid=sk-concealed]")
    for tile in ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p",
                 "4p", "5p", "1s", "1s"]:
        pg.click(f".tilekeys button[data-tile='{TILE[tile]}']")
    pg.click("[data-testid=sk-win-tile]")
    pg.click(f".tilekeys button[data-tile='{TILE['3p']}']")
    pg.click("[data-testid=sk-record]")


def _ledger(pg: Page, hands: int) -> str:
    """The ledger's text once it shows ``hands`` hands."""
    pg.locator(f"{LEDGER} tbody tr").nth(hands - 1).wait_for()
    assert pg.locator(f"{LEDGER} tbody tr").count() == hands
    return pg.locator(LEDGER).inner_text()


def _same_ledger(a: Page, b: Page, hands: int) -> str:
    """Both phones show ``hands`` hands and the very same ledger (B waits for A's
    hand to reach it without a reload, and A for B's)."""
    until_sync(lambda: b.locator(f"{LEDGER} tbody tr").count() == hands
               and a.locator(f"{LEDGER} tbody tr").count() == hands,
               f"both phones showing {hands} hands", 15)
    shown = _ledger(a, hands)
    assert _ledger(b, hands) == shown
    return shown


def test_two_phones_keep_one_ledger(browser: People, server: str) -> None:
    a = _phone(browser, "360x740", "阿安")
    b = _phone(browser, "390x844", "阿博")
    a.goto(f"{server}/score")
    a.select_option("#sk-variant", "taiwan")
    for i, n in enumerate(NAMES):
        a.fill(f"#sk-name-{i}", n)
    a.click("[data-testid=sk-setup] button[type=submit]")
    a.wait_for_selector(".tilekeys")
    a.click("[data-testid=sk-invite]")
    link = a.locator("[data-testid=sk-link]")
    link.wait_for()
    assert a.locator("[data-testid=sk-link] img.qr").is_visible()
    url = link.get_attribute("data-link")
    assert url is not None and "#join=" in url and url.startswith(f"{server}/score?s=")
    shot(a, "score-share-link-360x740")

    b.goto(url)  # B opens the link: joins with its own identity
    members = b.locator("[data-testid=sk-members]")
    members.wait_for()
    until_sync(lambda: "阿安" in members.inner_text() and "阿博" in members.inner_text(),
               "B a member beside A", 10)
    assert "#join=" not in b.url  # the secret left the address bar
    b.wait_for_selector(".tilekeys")
    assert "还没有记过" in b.inner_text("[data-testid=sk-ledger]")
    shot(b, "score-share-joined-390x844")

    _self_draw(a, 1)  # A enters hand 1: 南家 wins
    first = _same_ledger(a, b, 1)
    assert "第 1 局" in first
    _self_draw(b, 2)  # B enters hand 2: 西家 wins
    second = _same_ledger(a, b, 2)
    assert "第 2 局" in second and second != first
    # A's page learnt of the members too (B joined after A started)
    until_sync(lambda: "阿博" in a.inner_text("[data-testid=sk-members]"), "A sees B", 10)
    for pg, size in ((a, "360x740"), (b, "390x844")):
        pg.locator("[data-testid=sk-ledger]").scroll_into_view_if_needed()
        shot(pg, f"score-share-hand2-{size}")
        shot(pg, f"score-share-ledger-{size}", "[data-testid=sk-ledger]")

    # A third phone with the session's address but not its link: the ledger, no form
    # (live too: it follows an undo on A).
    c = _phone(browser, "360x740", "阿辰")
    c.goto(url.split("#")[0])
    c.wait_for_selector("[data-testid=sk-viewer]")
    assert _ledger(c, 2) == second
    assert c.locator(".tilekeys").count() == 0 and c.locator("[data-testid=sk-invite]").count() == 0
    shot(c, "score-share-watcher-360x740")
    a.click("[data-testid=sk-ledger] button:has-text('撤销上一局')")  # any member may
    until_sync(lambda: c.locator(f"{LEDGER} tbody tr").count() == 1, "C follows the undo", 15)
    assert _same_ledger(a, b, 1) == first == _ledger(c, 1)
