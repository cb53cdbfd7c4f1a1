"""A display for everyone, and the table's quick phrases, in Debian's chromium:

* 大字模式 (large tiles, bigger buttons, higher contrast), chosen in the top bar and
  remembered on the device, leaves nothing wider than a 360x740 phone on the lobby, the
  table during a hand (with the dock), the settlement and the score-keeper; the hand, the
  buttons and the top bar stay on the screen (screenshots at 360x740 and 390x844 with
  ``LAIZI_SHOTS``);
* Traditional Chinese (繁體, zh-Hant): switched to in the top bar, remembered over a
  reload, ``<html lang>`` says so, and the lobby and the table show traditional text with
  no simplified-only character;
* quick phrases: one person sends one, another sees the bubble near the sender's seat;
  muted, none shows.

Every page is watched for page and console errors (browser_helpers.People).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

import browser_helpers
from browser_helpers import PHONES, People, new_room, play_until, settlement_shown, shot

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)

FITS = """sel => {
    const out = [...document.querySelectorAll(sel)].map(e => {
        const b = e.getBoundingClientRect();
        return [b.left, b.top, b.right, b.bottom];
    });
    return {scroll: document.scrollingElement.scrollWidth, width: innerWidth,
            height: innerHeight, boxes: out};
}"""
SIMPLIFIED_ONLY = "听这个们国将杠发么时间开头"
"""Characters only simplified Chinese writes (their traditional forms differ)."""


def check_fits(pg: Page, what: str, *selectors: str, across: tuple[str, ...] = ()) -> None:
    """Nothing wider than the screen; every element of ``selectors`` (each at least once
    on the page) inside it, and every one of ``across`` within its width (further down
    the page is fine)."""
    for sel in (*selectors, *across, ":root"):
        g: dict[str, Any] = pg.evaluate(FITS, sel)
        assert g["scroll"] <= g["width"], (what, "overflows", g["scroll"], g["width"])
        assert g["boxes"], (what, sel, "not on the page")
        for box in g["boxes"]:
            assert box[0] >= -0.5 and box[2] <= g["width"] + 0.5, (what, sel, box, g["width"])
            if sel in selectors:
                assert box[1] >= -0.5 and box[3] <= g["height"] + 0.5, (what, sel, box,
                                                                          g["height"])


def start_table(pg: Page, server: str, name: str, variant: str = "jingzhou") -> str:
    room = new_room(server, name, variant, hands=1)
    pg.goto(room["link"])
    pg.click("[data-testid=start]")
    pg.wait_for_selector(".myhand")
    return str(room["code"])


@pytest.mark.parametrize("size", sorted(PHONES))
def test_large_mode_fits_a_phone_everywhere(browser: People, server: str, size: str) -> None:
    pg = browser.page(PHONES[size], who=f"large {size}")
    pg.goto(f"{server}/")
    assert pg.evaluate("document.documentElement.classList.contains('large')") is False
    normal = pg.eval_on_selector(".topbar button.lang", "e => e.getBoundingClientRect().height")
    pg.click("[data-testid=display]")
    pg.wait_for_selector("html.large [data-testid=display][aria-pressed=true]")
    pg.reload()  # remembered on the device
    pg.wait_for_selector("html.large [data-testid=create-form]")
    big = pg.eval_on_selector("[data-testid=create-form] button[type=submit]",
                              "e => e.getBoundingClientRect().height")
    assert big >= 48 and big > normal, (big, normal)
    check_fits(pg, "lobby", ".topbar", across=("[data-testid=create-form] button[type=submit]",
                                            "[data-testid=create-form] select"))
    shot(pg, f"large-lobby-{size}")

    start_table(pg, server, "大字阿姨", "taiwan" if size == "390x844" else "jingzhou")
    pg.wait_for_selector(".myhand button.tile:not([aria-disabled])")  # the dealer's turn
    check_fits(pg, "table", ".topbar", "[data-testid=dock]", ".myhand .tile",
               "[data-testid=lang]", "[data-testid=display]", "[data-testid=phrases-open]")
    shot(pg, f"large-table-{size}")
    play_until(pg, lambda: settlement_shown(pg), each=lambda _: check_fits(pg, "mid-hand"))
    # A drawn hand (流局) has no payments to lay out: the nets then.
    won = pg.get_attribute("[data-testid=settlement] .settlement", "data-outcome") == "win"
    check_fits(pg, "settlement", "[data-testid=settlement] .x",
               across=(("[data-testid=settlement] .payment",) if won else ())
               + ("[data-testid=settlement] .net",))
    shot(pg, f"large-settlement-{size}")
    pg.goto(f"{server}/score")
    pg.wait_for_selector("[data-testid=sk-setup]")
    check_fits(pg, "score-keeper", ".topbar", across=(".card", "[data-testid=sk-setup] button"))
    shot(pg, f"large-score-{size}")
    pg.click("[data-testid=display]")  # back to normal, remembered too
    pg.reload()
    pg.wait_for_selector("[data-testid=sk-setup]")
    assert pg.evaluate("document.documentElement.classList.contains('large')") is False


def visible_text(pg: Page) -> str:
    return str(pg.evaluate("document.body.innerText"))


def test_traditional_chinese_is_chosen_once_and_shown_everywhere(browser: People,
                                                                 server: str) -> None:
    pg = browser.page(who="繁體")
    pg.goto(f"{server}/")
    pg.wait_for_selector("[data-testid=lang][data-lang=zh]")
    assert "麻将" in visible_text(pg)
    pg.click("[data-testid=lang]")  # 简 → 繁
    pg.wait_for_selector("[data-testid=lang][data-lang=zh-Hant]")
    pg.reload()
    pg.wait_for_selector("[data-testid=lang][data-lang=zh-Hant]")
    assert pg.evaluate("document.documentElement.lang") == "zh-Hant-TW"
    lobby = visible_text(pg)
    assert "麻將" in lobby and "台灣十六張" in lobby, lobby
    assert not set(lobby) & set(SIMPLIFIED_ONLY), set(lobby) & set(SIMPLIFIED_ONLY)
    start_table(pg, server, "阿台", "taiwan")
    play_until(pg, lambda: settlement_shown(pg))
    table = visible_text(pg)
    assert "臺" not in table and not set(table) & set(SIMPLIFIED_ONLY), (
        set(table) & set(SIMPLIFIED_ONLY), table)
    assert re.search("胡|流局|黃莊|荒莊", table), table
    pg.click("[data-testid=settlement] .x")
    pg.click(".tabs button:nth-child(1)")  # the log: its lines too
    log = pg.inner_text(".feed")
    assert not set(log) & set(SIMPLIFIED_ONLY), (set(log) & set(SIMPLIFIED_ONLY), log)
    shot(pg, "hant-table-360x740")
    pg.click("[data-testid=lang]")  # 繁 → EN
    pg.wait_for_selector("[data-testid=lang][data-lang=en]")
    assert pg.evaluate("document.documentElement.lang") == "en"


def test_a_quick_phrase_shows_near_its_sender_and_mute_hides_it(browser: People,
                                                                server: str) -> None:
    room = new_room(server, "阿明", "jingzhou", hands=1)
    ann = browser.page(who="阿明")
    ann.goto(room["link"])
    ann.wait_for_selector(".table-page")
    bob = browser.page(PHONES["390x844"], who="阿华")
    browser_helpers.join_by_link(bob, server, room["code"], "阿华")
    ann.click("[data-testid=start]")
    ann.wait_for_selector(".myhand")
    bob.wait_for_selector(".myhand")
    ann.click("[data-testid=phrases-open]")
    ann.click("[data-phrase=nice]")
    bubble = bob.locator("[data-testid=phrase-bubble][data-who=阿明]")
    bubble.wait_for()
    assert "打得好" in bubble.inner_text()
    seat = bob.eval_on_selector(".seat .who:text('阿明')", """e => {
        const b = e.closest('.seat').getBoundingClientRect(); return [b.top, b.bottom]; }""")
    top = bubble.evaluate("e => e.getBoundingClientRect().top")
    assert seat[0] <= top < seat[1], (top, seat)  # on the sender's seat
    bubble.evaluate("e => Promise.all(e.getAnimations().map(a => a.finished))")
    shot(bob, "phrase-bubble-390x844")
    bubble.wait_for(state="detached")  # gone after a few seconds
    assert ann.locator("[data-testid=phrase-picker]").count() == 0  # closed once sent

    def say(pg: Page, phrase: str) -> None:
        """Send a phrase and wait for its answer (the picker closes then): the server
        sends the phrase frame to everybody before it answers, so every phrase sent
        before this one has reached this page too."""
        pg.click("[data-testid=phrases-open]")
        pg.click(f"[data-phrase={phrase}]")
        pg.locator("[data-testid=phrase-picker]").wait_for(state="detached")

    # One person muted: ann mutes bob from his bubble, and sees none of his after that.
    say(bob, "hello")
    ann.click("[data-testid=phrase-bubble][data-who=阿华] .phrase-mute")
    assert ann.locator("[data-testid=phrase-bubble][data-who=阿华]").count() == 0
    # Everything muted: bob sees no bubble, not even his own.
    bob.click("[data-testid=phrases-open]")
    bob.check("[data-testid=phrases-mute]")
    bob.click("[data-phrase=thumbs]")
    bob.locator("[data-testid=phrase-picker]").wait_for(state="detached")
    assert bob.locator("[data-testid=phrase-bubble]").count() == 0
    say(ann, "thanks")
    assert ann.locator("[data-testid=phrase-bubble][data-who=阿明]").count() == 1
    assert ann.locator("[data-testid=phrase-bubble][data-who=阿华]").count() == 0
    ann.locator("[data-testid=phrase-bubble]").evaluate(
        "e => Promise.all(e.getAnimations().map(a => a.finished))")
    shot(ann, "phrase-muted-one-360x740")
    # Both are remembered on the device.
    bob.reload()
    bob.wait_for_selector(".myhand")
    bob.click("[data-testid=phrases-open]")
    assert bob.is_checked("[data-testid=phrases-mute]")
    bob.click("[data-phrase=sorry]")
    bob.locator("[data-testid=phrase-picker]").wait_for(state="detached")
    assert bob.locator("[data-testid=phrase-bubble]").count() == 0
    ann.reload()
    ann.wait_for_selector(".myhand")
    ann.click("[data-testid=phrases-open]")
    assert "阿华" in ann.inner_text("[data-testid=phrase-picker] .phrase-muted")
