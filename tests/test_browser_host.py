"""The host's powers in chromium, two people on phones (360x740 and 390x844), every page
watched for page and console errors (browser_helpers.People): the host locks the room
(a newcomer's join page says it is locked) and kicks a friend (confirming first): the
friend's page says the host removed them and a bot sits in their seat; the host hands the
role over, and the controls move to the friend's page; a friend kicked mid-hand leaves
the host's list at once, their seat marked until the hand ends."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx

import browser_helpers
from browser_helpers import PHONES, People, join_by_link, new_room, shot

if TYPE_CHECKING:
    from playwright.sync_api import Page

server, chromium, browser = (  # the fixtures (see browser_helpers)
    browser_helpers.server, browser_helpers.chromium, browser_helpers.browser)


def room_tab(pg: Page) -> None:
    pg.click(".tabs button:nth-child(3)")
    pg.wait_for_selector(".roompanel")


def two_people(browser: People, server: str) -> tuple[dict[str, str], Page, Page]:
    room = new_room(server, "阿明", "jingzhou")
    host = browser.page(PHONES["360x740"], who="host")
    host.goto(room["link"])
    host.wait_for_selector(".table-page")
    friend = browser.page(PHONES["390x844"], who="friend")
    join_by_link(friend, server, room["code"], "小红")
    room_tab(host)
    host.wait_for_selector("[data-testid=member][data-name=小红]")
    return room, host, friend


def test_the_host_locks_the_room_and_kicks_a_friend(browser: People, server: str) -> None:
    room, host, friend = two_people(browser, server)
    code = room["code"]
    host.check("[data-testid=lock]")
    host.wait_for_selector("[data-testid=locked-tag]")
    # A newcomer with the room's link is told the room is locked (no join to try).
    late = browser.page(PHONES["360x740"], who="newcomer")
    late.goto(f"{server}/r/{code}")
    assert "房主已锁定这个房间" in late.inner_text("[data-testid=join-locked]")
    assert late.is_disabled(".card .buttons button.primary")
    shot(late, "host-locked-join-360x740")
    shot(host, "host-panel-360x740", ".roompanel")
    dialogs: list[str] = []

    def accept(dialog: object) -> None:
        dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.accept()  # type: ignore[attr-defined]

    host.once("dialog", accept)
    host.click("[data-testid=member][data-name=小红] [data-testid=kick]")
    friend.wait_for_selector("[data-testid=kicked]")
    assert "小红" in dialogs[0]
    assert "房主把你移出了这个房间" in friend.inner_text("[data-testid=kicked]")
    shot(friend, "host-kicked-390x844")
    host.wait_for_selector("[data-testid=member][data-name=小红]", state="detached")
    info = httpx.get(f"{server}/api/rooms/{code}").json()
    assert "小红" not in info["seats"] and info["locked"] is True
    assert any(p and p.startswith("🤖") for p in info["seats"][1:])
    # The kicked browser forgot its seat: a reload shows the (locked) room's join page.
    friend.reload()
    friend.wait_for_selector("[data-testid=join-locked]")
    r = httpx.post(f"{server}/api/rooms/{code}/join", json={"name": "小红"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "kicked"


def test_the_host_hands_the_role_over(browser: People, server: str) -> None:
    room, host, friend = two_people(browser, server)
    host.once("dialog", lambda d: d.accept())
    host.click("[data-testid=member][data-name=小红] [data-testid=make-host]")
    # The friend's page now has the host's start button and controls; the host's not.
    friend.wait_for_selector("[data-testid=start]")
    room_tab(friend)
    friend.wait_for_selector("[data-testid=member][data-name=阿明] [data-testid=kick]")
    host.wait_for_selector("[data-testid=lock]", state="detached")
    host.wait_for_selector("[data-testid=start]", state="detached")
    shot(friend, "host-handed-over-390x844", ".roompanel")
    info = httpx.get(f"{server}/api/rooms/{room['code']}").json()
    assert info["host"] == "小红"


def test_a_friend_kicked_mid_hand_leaves_the_hosts_list_at_once(browser: People,
                                                                server: str) -> None:
    """Kicked during a hand, the friend's seat stays theirs (a bot plays it) until the hand
    ends: the host's panel no longer lists them to kick or make host, and the seat list
    marks the seat. (No clock: the hand waits for the host, so it is still on.)"""
    room, host, friend = two_people(browser, server)
    host.click(".tabs button:nth-child(1)")
    host.click("[data-testid=start]")
    host.wait_for_selector(".myhand")
    room_tab(host)
    host.once("dialog", lambda d: d.accept())
    host.click("[data-testid=member][data-name=小红] [data-testid=kick]")
    friend.wait_for_selector("[data-testid=kicked]")
    host.wait_for_selector("[data-testid=member][data-name=小红]", state="detached")
    assert host.locator("[data-testid=kicked-tag]").count() == 1
    info = httpx.get(f"{server}/api/rooms/{room['code']}").json()
    assert info["in_hand"] and "小红" in info["seats"] and info["kicked"] == ["小红"]
    shot(host, "host-kicked-mid-hand-360x740", ".roompanel")
