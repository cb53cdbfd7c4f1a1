"""Clubs in the browser (issue 41, item 3): one phone creates a club, a second joins by
its invite link and is approved by the first, both see the members; a third phone, a
stranger with a club room's link, is told the room is for members only (no join to try);
a member opens a fellow member's 战绩 on the club's page;
at phone sizes, against a real ``laizi serve``."""

from __future__ import annotations

import browser_helpers
from browser_helpers import PHONES, People, shot

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)


def test_a_club_made_joined_by_link_and_closed_to_strangers(browser: People,
                                                            server: str) -> None:
    a = browser.page(PHONES["360x740"], who="manager")
    a.goto(f"{server}/")
    a.fill("#player-name", "阿明")
    a.wait_for_selector("[data-testid=clubs-card]")
    a.fill("#club-name", "周五麻将")
    a.click("[data-testid=club-create] button[type=submit]")
    a.wait_for_selector("[data-testid=club-link]")
    link = a.get_attribute("[data-testid=club-link]", "data-link")
    assert link is not None and link.startswith(f"{server}/c/")
    club = a.url.split("/club/")[1]

    b = browser.page(PHONES["390x844"], who="friend")
    b.goto(link)
    b.wait_for_selector("[data-testid=invite-club-name]:has-text('周五麻将')")
    b.fill("#invite-name", "小红")
    b.click("[data-testid=ask-join]")
    b.wait_for_selector("[data-testid=club-requested]")
    shot(b, "club-invite-390x844")

    a.reload()
    a.click("[data-testid=club-requests] li[data-person='小红'] [data-testid=approve]")
    a.wait_for_selector("[data-testid=club-members] li[data-member='小红']")
    b.click("[data-testid=open-club]")
    b.wait_for_selector("[data-testid=club-members] li[data-member='阿明']")
    b.wait_for_selector("[data-testid=club-members] li[data-member='小红']")
    assert b.url.endswith(f"/club/{club}")
    for pg in (a, b):
        names = pg.locator("[data-testid=club-members] li").evaluate_all(
            "els => els.map(e => e.dataset.member)")
        assert names == ["阿明", "小红"], names
    # a fellow member's 战绩 opens under their name (nothing played yet)
    b.click("[data-testid=club-members] li[data-member='阿明'] [data-testid=member-history]")
    b.wait_for_selector("[data-testid=club-members] [data-testid=history-empty]")
    b.wait_for_selector("[data-testid=club-verdict]")
    shot(a, "club-360x740")
    shot(b, "club-390x844")
    shot(b, "club-full-390x844", "main")

    # the manager sets the club's game: its rooms are made with it
    a.click("[data-testid=club-rules] summary")
    a.select_option("#club-variant", "huanghuang")
    a.click("[data-testid=club-rules] button[type=submit]")
    a.wait_for_selector("[data-testid=club-head]:has-text('晃晃')")
    a.click("[data-testid=club-new-room]")
    a.wait_for_url(f"{server}/r/*")
    code = a.url.split("/r/")[1].split("?")[0]
    b.reload()
    b.wait_for_selector(f"[data-testid=club-rooms] li[data-room='{code}']:has-text('晃晃')")

    c = browser.page(PHONES["360x740"], who="stranger")
    c.goto(f"{server}/r/{code}")
    c.wait_for_selector("[data-testid=join-members-only]")
    assert c.locator("main button.primary").is_disabled()
    shot(c, "club-room-stranger-360x740")
