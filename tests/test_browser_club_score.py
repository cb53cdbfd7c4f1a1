"""A club's score-keeping session in chromium (issue 41, item 7's last clause; docs/clubs.md
"Score-keeping sessions"): a member opens a session from the club's page, enters two
hands, closes it (结束并记入账本), the score page turns read-only, and the club's page
lists the session as in the ledger and shows its two hands in the ledger, checked. At
390×844, against a real ``laizi serve``; page and console errors fail it."""

from __future__ import annotations

import browser_helpers
from browser_helpers import PHONES, People, shot
from test_browser_score_share import LEDGER, _ledger, _self_draw

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)

NAMES = ["阿明", "小红", "老王", "阿芳"]


def test_a_member_closes_a_club_session_into_the_ledger(browser: People,
                                                         server: str) -> None:
    a = browser.page(PHONES["390x844"], who="manager")
    a.goto(f"{server}/")
    a.fill("#player-name", "阿明")
    a.wait_for_selector("[data-testid=clubs-card]")
    a.fill("#club-name", "周五麻将")
    a.click("[data-testid=club-create] button[type=submit]")
    a.wait_for_selector("[data-testid=club-sessions]:has-text('还没有线下记分')")
    club = a.url.split("/club/")[1]

    a.click("[data-testid=club-new-session]")
    a.wait_for_selector("[data-testid=sk-club-setup]")
    a.select_option("#sk-variant", "taiwan")
    for i, n in enumerate(NAMES):
        a.fill(f"#sk-name-{i}", n)
    a.click("[data-testid=sk-setup] button[type=submit]")
    a.wait_for_selector(".tilekeys")
    _self_draw(a, 1)
    _ledger(a, 1)
    _self_draw(a, 2)
    shown = _ledger(a, 2)
    shot(a, "club-score-before-close-390x844", "[data-testid=sk-ledger]")
    asked: list[str] = []
    a.once("dialog", lambda d: (asked.append(d.message), d.accept()))  # 结束这场记分？
    a.click("[data-testid=sk-close]")
    a.wait_for_selector("[data-testid=sk-closed]:has-text('2 局已记入')")
    assert a.locator(".tilekeys").count() == 0  # read-only: no form
    # 阿明 is the club member's name: the question said those hands count for them
    assert "2 局" in asked[0] and "计入成员：阿明" in asked[0], asked
    # its export (for laizi verify-ledger beside the club's CSV) is a tap away
    href = a.get_attribute("[data-testid=sk-closed-export]", "href")
    assert href is not None and href.endswith("/export")
    assert a.locator(LEDGER).inner_text() == shown
    shot(a, "club-score-closed-390x844")

    a.click("[data-testid=sk-club-link]")
    a.wait_for_url(f"{server}/club/{club}")
    a.wait_for_selector(
        "[data-testid=club-sessions] li[data-closed=yes]:has-text('已记入账本 · 2 局')")
    ledger = a.locator("[data-testid=club-ledger]")
    ledger.locator("h3:has-text('2 局')").wait_for()
    a.wait_for_selector("[data-testid=club-verdict]:has-text('2 笔')")
    text = ledger.inner_text()
    # the session's names are people, each with their points (not lumped as bots);
    # 阿明 counts for the member of that name
    assert all(n in text for n in NAMES) and "电脑" not in text, text
    assert a.locator("[data-testid=club-ledger] h3 + ul.history li").count() == 4
    credential = a.evaluate("() => localStorage.getItem('laizi.person')")
    entries = a.request.get(f"{server}/api/clubs/{club}/ledger",
                            headers={"X-Laizi-Person": credential}).json()["entries"]
    me = credential.split(".")[0]
    assert [(e["hand"], e["persons"]) for e in entries] == [(0, {"阿明": me}),
                                                            (1, {"阿明": me})]
    a.locator("[data-testid=club-sessions]").scroll_into_view_if_needed()
    shot(a, "club-score-club-page-390x844")
    shot(a, "club-score-club-full-390x844", "main")
